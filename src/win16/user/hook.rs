//! Window hooks: SetWindowsHook, SetWindowsHookEx, UnhookWindowsHook,
//! UnhookWindowsHookEx, CallNextHookEx, DefHookProc, CallMsgFilter, and
//! the places USER calls them.
//!
//! Hooks form one chain per type, the last installed first (SDK,
//! SetWindowsHook). USER calls the first hook of the chain that concerns
//! the task (a system-wide hook, or one installed for that task); a hook
//! passes on with CallNextHookEx (or, installed by the Windows 3.0
//! SetWindowsHook, with DefHookProc and the procedure SetWindowsHook
//! returned). Where USER calls them (SDK, each hook function's page):
//! - WH_CALLWNDPROC before SendMessage gives a message to a window
//!   procedure: wParam whether the current task sent it, lParam a pointer
//!   to SendMessage's arguments as they lie on the stack (lParam, wParam,
//!   msg, hWnd); the hook may change them.
//! - WH_GETMESSAGE before GetMessage or PeekMessage returns: lParam points
//!   to the MSG, which the hook may change.
//! - WH_KEYBOARD and WH_MOUSE when GetMessage or PeekMessage is about to
//!   return a keyboard or mouse message (HC_ACTION, or HC_NOREMOVE for a
//!   PeekMessage that leaves it): a nonzero answer discards it.
//! - WH_CBT before a window is created (HCBT_CREATEWND), destroyed
//!   (HCBT_DESTROYWND), activated (HCBT_ACTIVATE), minimized or maximized
//!   (HCBT_MINMAX), given the focus (HCBT_SETFOCUS), and before a system
//!   command (HCBT_SYSCOMMAND): a nonzero answer prevents it.
//! - WH_SHELL when an unowned top-level window is created or destroyed.
//! - WH_MSGFILTER and WH_SYSMSGFILTER from CallMsgFilter (modal loops:
//!   dialog boxes, menus).

use super::message::with_stack_data;
use super::{
    Env, HC_ACTION, HC_NOREMOVE, HCBT_CREATEWND, HTCLIENT, Stop, Uc, WH_CBT, WH_DEBUG, WH_HARDWARE,
    WH_JOURNALPLAYBACK, WH_JOURNALRECORD, WH_KEYBOARD, WH_MOUSE, WH_MSGFILTER, WH_SHELL,
    WH_SYSMSGFILTER, WM_KEYDOWN, WM_KEYUP, WM_MBUTTONDBLCLK, WM_MOUSEMOVE, WM_NCMOUSEMOVE,
    WM_SYSKEYDOWN, WM_SYSKEYUP, callback, instance_ds, makelong, put, split,
};
use crate::machine::Cpu;
use crate::win16::api::{Api, Arg};
use crate::win16::callback::CallArg;

/// One installed hook.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hook {
    pub id: i16,
    pub proc_: u32,
    /// The data segment its procedure gets in DS and AX.
    pub ds: u16,
    /// 0: every task's; else the task's only.
    pub htask: u16,
    /// SetWindowsHookEx's handle.
    pub handle: u32,
    /// Its block of LT_USER_HOOKLIST in USER's data segment (heap.rs).
    pub block: u16,
}

/// The hook chains (all types, the most recent first).
#[derive(Debug, Default, Clone)]
pub struct Hooks {
    pub list: Vec<Hook>,
    pub next: u16,
}

impl Hooks {
    /// A task ends: its hooks go; their blocks, to free.
    pub fn forget_task(&mut self, htask: u16) -> Vec<u16> {
        let gone = self
            .list
            .iter()
            .filter(|h| h.htask == htask)
            .map(|h| h.block)
            .collect();
        self.list.retain(|h| h.htask != htask);
        gone
    }
}

/// The most hooks installed at once.
const MAX_HOOKS: usize = 256;

/// The chain of `id` that concerns task `htask`.
fn chain(env: &Env, id: i16, htask: u16) -> Vec<Hook> {
    env.win16
        .user
        .hooks
        .list
        .iter()
        .filter(|h| h.id == id && (h.htask == 0 || h.htask == htask))
        .copied()
        .collect()
}

/// Is a hook of this type installed for the task?
pub fn installed(env: &Env, id: i16, htask: u16) -> bool {
    env.win16
        .user
        .hooks
        .list
        .iter()
        .any(|h| h.id == id && (h.htask == 0 || h.htask == htask))
}

/// Call a hook's procedure: (nCode, wParam, lParam) -> DX:AX.
fn run(
    env: &mut Env,
    uc: &mut Uc<'_>,
    h: Hook,
    code: u16,
    wparam: u16,
    lparam: u32,
) -> Result<u32, Stop> {
    callback(
        env,
        uc,
        h.proc_,
        h.ds,
        &[CallArg::W(code), CallArg::W(wparam), CallArg::L(lparam)],
    )
}

/// Call the first hook of a chain (0 when there is none).
pub fn call(
    env: &mut Env,
    uc: &mut Uc<'_>,
    id: i16,
    htask: u16,
    code: u16,
    wparam: u16,
    lparam: u32,
) -> Result<u32, Stop> {
    match chain(env, id, htask).first() {
        Some(&h) => run(env, uc, h, code, wparam, lparam),
        None => Ok(0),
    }
}

/// Call the first hook of a chain with lParam pointing at a copy of
/// `data`: the data as the hook left it.
pub fn call_with_struct(
    env: &mut Env,
    uc: &mut Uc<'_>,
    id: i16,
    htask: u16,
    code: u16,
    wparam: u16,
    data: &[u8],
) -> Result<Vec<u8>, Stop> {
    let (_, b) = with_stack_data(
        env,
        uc,
        data,
        |_, _| {},
        |env, uc, p| call(env, uc, id, htask, code, wparam, p),
    )?;
    Ok(b)
}

/// The WH_CBT hook: true when it prevents the action.
pub fn cbt(
    env: &mut Env,
    uc: &mut Uc<'_>,
    code: u16,
    wparam: u16,
    lparam: u32,
) -> Result<bool, Stop> {
    let htask = uc.get_data().current_task;
    if !installed(env, WH_CBT, htask) {
        return Ok(false);
    }
    Ok(call(env, uc, WH_CBT, htask, code, wparam, lparam)? != 0)
}

/// The WH_CBT hook with lParam pointing at a structure.
pub fn cbt_struct(
    env: &mut Env,
    uc: &mut Uc<'_>,
    code: u16,
    wparam: u16,
    data: &[u8],
) -> Result<bool, Stop> {
    let htask = uc.get_data().current_task;
    if !installed(env, WH_CBT, htask) {
        return Ok(false);
    }
    let (r, _) = with_stack_data(
        env,
        uc,
        data,
        |_, _| {},
        |env, uc, p| call(env, uc, WH_CBT, htask, code, wparam, p),
    )?;
    Ok(r != 0)
}

/// HCBT_CREATEWND: lParam points at CBT_CREATEWND (lpcs, hwndInsertAfter),
/// lpcs at the CREATESTRUCT.
pub fn cbt_create(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    cs: &[u8],
    after: u16,
) -> Result<bool, Stop> {
    let htask = uc.get_data().current_task;
    if !installed(env, WH_CBT, htask) {
        return Ok(false);
    }
    let mut data = cs.to_vec();
    let at = data.len();
    data.extend_from_slice(&[0; 6]);
    put(&mut data, at + 4, after);
    let (r, _) = with_stack_data(
        env,
        uc,
        &data,
        |base, d| d[at..at + 4].copy_from_slice(&base.to_le_bytes()),
        |env, uc, p| {
            let cbt = crate::win16::farptr::add(p, at);
            call(env, uc, WH_CBT, htask, HCBT_CREATEWND, hwnd, cbt)
        },
    )?;
    Ok(r != 0)
}

/// The WH_SHELL hooks.
pub fn shell(env: &mut Env, uc: &mut Uc<'_>, code: u16, hwnd: u16) -> Result<(), Stop> {
    let htask = uc.get_data().current_task;
    if installed(env, WH_SHELL, htask) {
        call(env, uc, WH_SHELL, htask, code, hwnd, 0)?;
    }
    // SHELL's own hook (RegisterShellHook), reached through USER's table
    // of the DLLs' procedures (dlls.rs).
    (super::dlls::dlls().shell_hook)(env, uc, code, hwnd);
    Ok(())
}

/// WH_KEYBOARD and WH_MOUSE before an input message is returned: true
/// when a hook discards it.
pub fn input_hooks_discard(
    env: &mut Env,
    uc: &mut Uc<'_>,
    htask: u16,
    m: &super::message::Msg,
    remove: bool,
) -> Result<bool, Stop> {
    let code = if remove { HC_ACTION } else { HC_NOREMOVE };
    match m.message {
        WM_KEYDOWN | WM_KEYUP | WM_SYSKEYDOWN | WM_SYSKEYUP
            if installed(env, WH_KEYBOARD, htask) =>
        {
            Ok(call(env, uc, WH_KEYBOARD, htask, code, m.wparam, m.lparam)? != 0)
        }
        WM_MOUSEMOVE..=WM_MBUTTONDBLCLK | WM_NCMOUSEMOVE..=0x00A9
            if installed(env, WH_MOUSE, htask) =>
        {
            // MOUSEHOOKSTRUCT: pt, hwnd, wHitTestCode, dwExtraInfo.
            let mut s = [0u8; 12];
            s[0..4].copy_from_slice(&m.pt.to_bytes());
            put(&mut s, 4, m.hwnd);
            let ht = if m.message >= WM_MOUSEMOVE {
                HTCLIENT
            } else {
                m.wparam
            };
            put(&mut s, 6, ht);
            let (r, _) = with_stack_data(
                env,
                uc,
                &s,
                |_, _| {},
                |env, uc, p| call(env, uc, WH_MOUSE, htask, code, m.message, p),
            )?;
            Ok(r != 0)
        }
        _ => Ok(false),
    }
}

/// CallMsgFilter(lpMsg, nCode): the WH_SYSMSGFILTER hooks, then the
/// WH_MSGFILTER ones: TRUE when one processed the message.
pub fn call_msg_filter(env: &mut Env, uc: &mut Uc<'_>, msg: u32, code: u16) -> Result<bool, Stop> {
    let htask = uc.get_data().current_task;
    for id in [WH_SYSMSGFILTER, WH_MSGFILTER] {
        if installed(env, id, htask) && call(env, uc, id, htask, code, 0, msg)? != 0 {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Hooks a task may hold only for the whole system.
fn system_only(id: i16) -> bool {
    matches!(
        id,
        WH_SYSMSGFILTER | WH_JOURNALRECORD | WH_JOURNALPLAYBACK | WH_HARDWARE | WH_DEBUG
    )
}

/// Install hook `h` at the head of the chains, with its block in USER's
/// heap (none: no hook).
fn install(env: &mut Env, uc: &mut Uc<'_>, mut h: Hook) -> bool {
    let hooks = &env.win16.user.hooks;
    if hooks.list.len() >= MAX_HOOKS || !(WH_MSGFILTER..=WH_SHELL).contains(&h.id) {
        return false;
    }
    h.block = super::heap::alloc_hook(&mut env.win16, uc);
    if h.block == 0 {
        return false;
    }
    env.win16.user.hooks.list.insert(0, h);
    super::heap::sync_hooks(env, uc);
    true
}

/// Take hook `i` off the chains; its block goes.
fn uninstall(env: &mut Env, uc: &mut Uc<'_>, i: usize) {
    let h = env.win16.user.hooks.list.remove(i);
    super::heap::free_block(&mut env.win16, uc, h.block);
    super::heap::sync_hooks(env, uc);
}

/// USER.121 SetWindowsHook(nFilterType, lpfnFilterFunc) -> the procedure
/// of the hook installed before (the one DefHookProc passes to).
fn set_windows_hook(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let id = a[0] as u16 as i16;
    let htask = if system_only(id) {
        0
    } else {
        uc.get_data().current_task
    };
    let next = chain(env, id, htask).first().map_or(0, |h| h.proc_);
    let hooks = &mut env.win16.user.hooks;
    hooks.next = hooks.next.wrapping_add(1);
    let handle = makelong(hooks.next, 0x4B00);
    let h = Hook {
        id,
        proc_: a[1],
        ds: uc.reg(crate::machine::R::DS),
        htask,
        handle,
        block: 0,
    };
    if !install(env, uc, h) {
        return Ok(0);
    }
    Ok(next)
}

/// USER.234 UnhookWindowsHook(nHook, lpfnHook) -> BOOL.
fn unhook_windows_hook(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let id = a[0] as u16 as i16;
    let list = &env.win16.user.hooks.list;
    match list.iter().position(|h| h.id == id && h.proc_ == a[1]) {
        Some(i) => {
            uninstall(env, uc, i);
            Ok(1)
        }
        None => Ok(0),
    }
}

/// USER.235 DefHookProc(nCode, wParam, lParam, lplpfnNextHook): calls the
/// procedure the far pointer points at (the one SetWindowsHook returned).
fn def_hook_proc(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (seg, off) = split(a[3]);
    let lo = uc.read_u16_at(seg, off).unwrap_or(0);
    let hi = uc.read_u16_at(seg, off.wrapping_add(2)).unwrap_or(0);
    let next = makelong(lo, hi);
    if next == 0 {
        return Ok(0);
    }
    let ds = env
        .win16
        .user
        .hooks
        .list
        .iter()
        .find(|h| h.proc_ == next)
        .map_or(uc.reg(crate::machine::R::DS), |h| h.ds);
    callback(
        env,
        uc,
        next,
        ds,
        &[
            CallArg::W(a[0] as u16),
            CallArg::W(a[1] as u16),
            CallArg::L(a[2]),
        ],
    )
}

/// USER.291 SetWindowsHookEx(idHook, lpfn, hInstance, hTask) -> HHOOK
/// (hTask 0: every task).
fn set_windows_hook_ex(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let id = a[0] as u16 as i16;
    let hooks = &mut env.win16.user.hooks;
    hooks.next = hooks.next.wrapping_add(1);
    let handle = makelong(hooks.next, 0x4B00);
    let h = Hook {
        id,
        proc_: a[1],
        ds: instance_ds(a[2] as u16),
        htask: if system_only(id) { 0 } else { a[3] as u16 },
        handle,
        block: 0,
    };
    Ok(if install(env, uc, h) { handle } else { 0 })
}

/// USER.292 UnhookWindowsHookEx(hhook) -> BOOL.
fn unhook_windows_hook_ex(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let list = &env.win16.user.hooks.list;
    match list.iter().position(|h| h.handle == a[0]) {
        Some(i) => {
            uninstall(env, uc, i);
            Ok(1)
        }
        None => Ok(0),
    }
}

/// USER.293 CallNextHookEx(hhook, nCode, wParam, lParam): the next hook
/// of the chain after `hhook` (0 after the last).
fn call_next_hook_ex(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let htask = uc.get_data().current_task;
    let Some(me) = env
        .win16
        .user
        .hooks
        .list
        .iter()
        .find(|h| h.handle == a[0])
        .copied()
    else {
        return Ok(0);
    };
    let c = chain(env, me.id, htask);
    let next = c
        .iter()
        .position(|h| h.handle == me.handle)
        .and_then(|i| c.get(i + 1).copied());
    match next {
        Some(h) => run(env, uc, h, a[1] as u16, a[2] as u16, a[3]),
        None => Ok(0),
    }
}

/// USER.123 CallMsgFilter(lpMsg, nCode) -> BOOL.
fn call_msg_filter_api(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(call_msg_filter(env, uc, a[0], a[1] as u16)?))
}

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new(
        "USER",
        121,
        "SETWINDOWSHOOK",
        &[Arg::W, Arg::L],
        set_windows_hook,
    ),
    Api::new(
        "USER",
        123,
        "CALLMSGFILTER",
        &[Arg::L, Arg::W],
        call_msg_filter_api,
    ),
    Api::new(
        "USER",
        234,
        "UNHOOKWINDOWSHOOK",
        &[Arg::W, Arg::L],
        unhook_windows_hook,
    ),
    Api::new(
        "USER",
        235,
        "DEFHOOKPROC",
        &[Arg::W, Arg::W, Arg::L, Arg::L],
        def_hook_proc,
    ),
    Api::new(
        "USER",
        291,
        "SETWINDOWSHOOKEX",
        &[Arg::W, Arg::L, Arg::W, Arg::W],
        set_windows_hook_ex,
    ),
    Api::new(
        "USER",
        292,
        "UNHOOKWINDOWSHOOKEX",
        &[Arg::L],
        unhook_windows_hook_ex,
    ),
    Api::new(
        "USER",
        293,
        "CALLNEXTHOOKEX",
        &[Arg::L, Arg::W, Arg::W, Arg::L],
        call_next_hook_ex,
    ),
];

#[cfg(test)]
mod tests {
    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(super::APIS));
    }
}
