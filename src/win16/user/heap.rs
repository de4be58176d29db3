//! USER's heaps: its data segment, its menu heap and its string heap, in
//! emulated memory, with USER's objects in their blocks.
//!
//! # What Windows 3.1 did
//!
//! USER.EXE kept its objects in the local heap of its 64 KiB data segment;
//! Windows 3.1 moved menus into a heap of their own and menu and window
//! text strings into another, each also at most 64 KiB, and computes the
//! percentage free "for each of the four heaps separately" (USER's three
//! and GDI's), reporting the lowest (KB Q90762, "System Resources in
//! Windows 3.0 and 3.1"). Each heap's figure is KB Q61803's (sysheap.rs).
//! A window's handle is the near address of its WND structure in USER's
//! data segment, a fixed block (Pietrek, "Windows Internals"); its extra
//! bytes (cbWndExtra) follow the structure in the same block, as a class's
//! extra bytes (cbClsExtra) follow the class structure in its block.
//!
//! # Here
//!
//! [`init`] makes the three heaps when the Win16 environment starts
//! (before the first program's task), and puts in them what USER made at
//! its own start: the desktop window's WND (whose address is
//! [`super::DESKTOP`]), the class structures of USER's predefined classes
//! and the five DC cache entries (Petzold, "Programming Windows 3.1", ch.
//! 3: "Windows maintains only five device contexts" in the cache for
//! GetDC/BeginPaint). Then:
//!
//! - every window is a fixed block of [`WND_SIZE`] + cbWndExtra bytes of
//!   type LT_USER_WND in USER's data segment; CreateWindow fails when the
//!   heap cannot take it (even at 64 KiB); the block goes when the window
//!   is destroyed. Its fields ([`wnd`]) are written from USER's record of
//!   the window when it is made and when it changes ([`sync`]); window
//!   words and longs read and write the extra bytes in the block;
//! - a window's text is a block of LT_USER_STRING in the string heap, as
//!   long as the text and its terminating zero (none for an empty text);
//! - every class is a fixed block of [`CLS_SIZE`] + cbClsExtra bytes of
//!   type LT_USER_CLASS in USER's data segment;
//! - every window property (SetProp) is a fixed block of [`PROP_SIZE`]
//!   bytes of type LT_USER_PROP, linked from the WND; SetProp fails when
//!   USER's heap cannot take it;
//! - every hook (SetWindowsHook, SetWindowsHookEx) is a fixed block of
//!   [`HOOK_SIZE`] bytes of type LT_USER_HOOKLIST, the chain linked
//!   through them; the hook is refused when USER's heap cannot take it;
//! - every menu is a moveable block of type LT_USER_MENU in the menu
//!   heap whose local handle is the HMENU ([`alloc_menu`], [`sync_menus`];
//!   menu.rs), its items' texts blocks of LT_USER_STRING in the string
//!   heap;
//! - a CS_OWNDC window's DC and a CS_CLASSDC class's have an LT_USER_DCE
//!   block besides the five common ones (dce.rs); BeginDeferWindowPos's
//!   structure is an LT_USER_MWP block (winpos.rs).
//!
//! # USER's static data
//!
//! Q61803's denominator is 64 KiB less the segment's statics and stack.
//! USER.EXE 3.1's automatic data segment is about 12 KiB of static data
//! and stack before its heap; [`STATICS`] takes 0x3000. With the desktop,
//! the predefined classes and the DC cache in the heap, USER starts at 98 %
//! free — a fresh Windows 3.1 showed 90 % and more before Program Manager
//! and its groups took their share; no shell runs here.
//!
//! # How many windows
//!
//! A window without extra bytes or text takes [`WND_SIZE`] bytes and a
//! 4-byte arena header, 0x40 in all; the heap's (64 KiB − statics) then
//! holds a little over 800 of them, fewer with extra bytes. KB Q125676
//! says that in Windows 3.1 the window and menu data "constrained to
//! around 200" windows of real applications (with their text, menus,
//! properties and classes); a bare window is much smaller than those.

use super::{DESKTOP, User, Window};
use crate::machine::{Stop, Uc};
use crate::win16::Env;
use crate::win16::Win16;
use crate::win16::api::{Api, Arg};
use crate::win16::sysheap::{self, lmem};

/// TOOLHELP.H's LOCALENTRY.wType values for USER's heaps.
pub mod lt {
    pub const CLASS: u16 = 1;
    pub const WND: u16 = 2;
    pub const STRING: u16 = 3;
    pub const MENU: u16 = 4;
    pub const CLIP: u16 = 5;
    pub const CBOX: u16 = 6;
    pub const PALETTE: u16 = 7;
    pub const ED: u16 = 8;
    pub const BWL: u16 = 9;
    pub const OWNERDRAW: u16 = 10;
    pub const SPB: u16 = 11;
    pub const CHECKPOINT: u16 = 12;
    pub const DCE: u16 = 13;
    pub const MWP: u16 = 14;
    pub const PROP: u16 = 15;
    pub const LBIV: u16 = 16;
    pub const MISC: u16 = 17;
    pub const ATOMS: u16 = 18;
    pub const LOCKINPUTSTATE: u16 = 19;
    pub const HOOKLIST: u16 = 20;
    pub const USERSEEUSERDOALLOC: u16 = 21;
    pub const HOTKEYLIST: u16 = 22;
    pub const POPUPMENU: u16 = 23;
    pub const HANDLETABLE: u16 = 32;
}

/// TOOLHELP.H's name of an LT_USER_ type (with its prefix).
pub fn lt_name(t: u16) -> &'static str {
    match t {
        lt::CLASS => "LT_USER_CLASS",
        lt::WND => "LT_USER_WND",
        lt::STRING => "LT_USER_STRING",
        lt::MENU => "LT_USER_MENU",
        lt::CLIP => "LT_USER_CLIP",
        lt::CBOX => "LT_USER_CBOX",
        lt::PALETTE => "LT_USER_PALETTE",
        lt::ED => "LT_USER_ED",
        lt::BWL => "LT_USER_BWL",
        lt::OWNERDRAW => "LT_USER_OWNERDRAW",
        lt::SPB => "LT_USER_SPB",
        lt::CHECKPOINT => "LT_USER_CHECKPOINT",
        lt::DCE => "LT_USER_DCE",
        lt::MWP => "LT_USER_MWP",
        lt::PROP => "LT_USER_PROP",
        lt::LBIV => "LT_USER_LBIV",
        lt::MISC => "LT_USER_MISC",
        lt::ATOMS => "LT_USER_ATOMS",
        lt::LOCKINPUTSTATE => "LT_USER_LOCKINPUTSTATE",
        lt::HOOKLIST => "LT_USER_HOOKLIST",
        lt::USERSEEUSERDOALLOC => "LT_USER_USERSEEUSERDOALLOC",
        lt::HOTKEYLIST => "LT_USER_HOTKEYLIST",
        lt::POPUPMENU => "LT_USER_POPUPMENU",
        lt::HANDLETABLE => "LT_USER_HANDLETABLE",
        _ => "LT_NORMAL",
    }
}

/// USER's heaps (sysheap.rs's `which`).
pub const DS: u16 = 0;
pub const MENU_HEAP: u16 = 1;
pub const STRING_HEAP: u16 = 2;
/// Every heap of USER.
pub const HEAPS: [u16; 3] = [DS, MENU_HEAP, STRING_HEAP];

/// USER's static data and stack before its heap (module doc).
pub const STATICS: u32 = 0x3000;
/// The heaps' first size; each grows to 64 KiB as its objects need.
const INITIAL: u32 = 0x1000;

/// The DC cache's entries (module doc; dce.rs).
const DCE_COUNT: usize = 5;

/// The WND structure's fields (module doc): the offsets in the block.
pub mod wnd {
    pub const HWND_NEXT: usize = 0x00;
    pub const HWND_CHILD: usize = 0x02;
    pub const HWND_PARENT: usize = 0x04;
    pub const HWND_OWNER: usize = 0x06;
    /// rcWindow and rcClient, in screen coordinates.
    pub const RC_WINDOW: usize = 0x08;
    pub const RC_CLIENT: usize = 0x10;
    /// The queue of the task that made the window.
    pub const HQ: usize = 0x18;
    /// 0: nothing to paint; 1: the window needs painting (USER's value
    /// for "the whole window"; the region itself is USER's, not GDI's).
    pub const HRGN_UPDATE: usize = 0x1A;
    /// The near address of the class's block in USER's data segment.
    pub const PCLS: usize = 0x1C;
    pub const HINSTANCE: usize = 0x1E;
    pub const LPFN_WNDPROC: usize = 0x20;
    /// USER's internal state bits (WF_*): 1 visible-and-shown, 2 needs
    /// WM_NCPAINT, 4 internal paint, 8 the frame shows as active.
    pub const DW_FLAGS: usize = 0x24;
    pub const DW_STYLE: usize = 0x28;
    pub const DW_EX_STYLE: usize = 0x2C;
    /// A child's id or a top-level window's menu.
    pub const W_ID_MENU: usize = 0x30;
    /// The text's block in the string heap (0 for no text).
    pub const H_NAME: usize = 0x32;
    pub const RGW_SCROLL: usize = 0x34;
    /// The most recent property's block (each names the one before).
    pub const H_PROPS: usize = 0x36;
    pub const HWND_LAST_ACTIVE: usize = 0x38;
    pub const H_SYS_MENU: usize = 0x3A;
}
/// The WND structure's size: the extra bytes follow.
pub const WND_SIZE: u16 = 0x3C;

/// The class structure (Windows 3.1 USER's CLS: the next class, a
/// signature, the atom, the class DC, the window count, then the WNDCLASS
/// the program gave): the offsets in the block.
pub mod cls {
    pub const PCLS_NEXT: usize = 0x00;
    pub const W_SIG: usize = 0x02;
    pub const ATOM: usize = 0x04;
    pub const H_DCE: usize = 0x06;
    pub const C_WINDOWS: usize = 0x08;
    /// WNDCLASS: style, lpfnWndProc, cbClsExtra, cbWndExtra, hInstance,
    /// hIcon, hCursor, hbrBackground, lpszMenuName, lpszClassName.
    pub const WNDCLASS: usize = 0x0A;
    /// The signature word ('NK').
    pub const SIGNATURE: u16 = 0x4B4E;
}
/// The class structure's size: the extra bytes follow.
pub const CLS_SIZE: u16 = 0x24;

/// The selector of USER's heap `which`, once made.
pub fn selector(w: &Win16, which: u16) -> Option<u16> {
    w.sys_heaps.get("USER", which).map(|h| h.selector)
}

/// Make USER's heaps and what USER made at start (module doc); the
/// desktop's WND must land at [`DESKTOP`]. False when the machine cannot.
pub fn init(m: &mut Uc<'_>, w: &mut Win16) -> bool {
    if selector(w, DS).is_some() {
        return true;
    }
    let Some(ds) = sysheap::ensure(m, w, "USER", DS, STATICS, INITIAL) else {
        return false;
    };
    for which in [MENU_HEAP, STRING_HEAP] {
        if sysheap::ensure(m, w, "USER", which, 0, INITIAL).is_none() {
            return false;
        }
    }
    let desktop = alloc_fixed(w, m, WND_SIZE, lt::WND);
    if desktop != DESKTOP {
        return false;
    }
    for _ in 0..DCE_COUNT {
        let b = super::dce::alloc(w, m);
        super::dce::write(w, m, b, 0, 0, super::dce::flag::CACHE, 0);
    }
    let d = &w.user.windows[0];
    let bytes = wnd_bytes(&w.user, d, 0, 0);
    sysheap::write(w, m, ds, DESKTOP, 0, &bytes);
    true
}

/// A fixed block for a new window with `extra` bytes; 0 when USER's heap
/// cannot take it.
pub fn alloc_wnd(w: &mut Win16, uc: &mut Uc<'_>, extra: u16) -> u16 {
    WND_SIZE
        .checked_add(extra)
        .map_or(0, |size| alloc_fixed(w, uc, size, lt::WND))
}

/// A zeroed fixed block of `size` bytes and LT_USER_ type `kind` in
/// USER's data segment; 0 when USER's heap cannot take it.
pub fn alloc_fixed(w: &mut Win16, uc: &mut Uc<'_>, size: u16, kind: u16) -> u16 {
    let Some(ds) = selector(w, DS) else {
        return 0;
    };
    sysheap::alloc(w, uc, ds, lmem::FIXED | lmem::ZEROINIT, size, kind)
}

/// A window is gone: its WND and text blocks go.
pub fn free_wnd(w: &mut Win16, uc: &mut Uc<'_>, hwnd: u16, text_block: u16) {
    if let Some(ds) = selector(w, DS) {
        sysheap::free(w, uc, ds, hwnd);
    }
    if text_block != 0
        && let Some(s) = selector(w, STRING_HEAP)
    {
        sysheap::free(w, uc, s, text_block);
    }
}

/// A fixed block for a new class with `extra` bytes; 0 when USER's heap
/// cannot take it.
pub fn alloc_class(w: &mut Win16, uc: &mut Uc<'_>, extra: u16) -> u16 {
    CLS_SIZE
        .checked_add(extra)
        .map_or(0, |size| alloc_fixed(w, uc, size, lt::CLASS))
}

/// The bytes of a property's block: the next (older) property's block,
/// the atom, the data, 1 when the name was a string.
pub const PROP_SIZE: u16 = 8;

/// A fixed block for a new window property; 0 when USER's heap cannot
/// take it.
pub fn alloc_prop(w: &mut Win16, uc: &mut Uc<'_>) -> u16 {
    alloc_fixed(w, uc, PROP_SIZE, lt::PROP)
}

/// The bytes of a hook's block: the next hook's block (the chains, the
/// most recent first), the hook type, the procedure, the data segment
/// it gets, the task (0: every task), SetWindowsHookEx's handle.
pub const HOOK_SIZE: u16 = 0x10;

/// A fixed block for a new hook; 0 when USER's heap cannot take it.
pub fn alloc_hook(w: &mut Win16, uc: &mut Uc<'_>) -> u16 {
    alloc_fixed(w, uc, HOOK_SIZE, lt::HOOKLIST)
}

/// Write every hook's block from USER's hook list.
pub fn sync_hooks(env: &mut Env, uc: &mut Uc<'_>) {
    let Some(ds) = selector(&env.win16, DS) else {
        return;
    };
    let list = &env.win16.user.hooks.list;
    for (i, h) in list.iter().enumerate() {
        let mut b = [0u8; HOOK_SIZE as usize];
        put16(&mut b, 0, list.get(i + 1).map_or(0, |n| n.block));
        put16(&mut b, 2, h.id as u16);
        put32(&mut b, 4, h.proc_);
        put16(&mut b, 8, h.ds);
        put16(&mut b, 0x0A, h.htask);
        put32(&mut b, 0x0C, h.handle);
        sysheap::write(&env.win16, uc, ds, h.block, 0, &b);
    }
}

/// Free block `block` of USER's data segment (0: nothing): a class's, a
/// property's, a hook's.
pub fn free_block(w: &mut Win16, uc: &mut Uc<'_>, block: u16) {
    if block != 0
        && let Some(ds) = selector(w, DS)
    {
        sysheap::free(w, uc, ds, block);
    }
}

/// Resize block `block` of USER's data segment to `size` bytes, moving
/// it when it must (LocalReAlloc with LMEM_MOVEABLE: a fixed block's
/// handle, its address, changes then); the handle afterwards, 0 when the
/// heap cannot take it (the block is left as it was).
pub fn realloc_block(w: &mut Win16, uc: &mut Uc<'_>, block: u16, size: u16) -> u16 {
    selector(w, DS).map_or(0, |ds| sysheap::realloc(w, uc, ds, block, size))
}

/// Write `bytes` at the start of block `block` of USER's data segment.
pub fn write_block(w: &Win16, uc: &mut Uc<'_>, block: u16, bytes: &[u8]) {
    if let Some(ds) = selector(w, DS) {
        sysheap::write(w, uc, ds, block, 0, bytes);
    }
}

fn put16(b: &mut [u8], o: usize, v: u16) {
    b[o..o + 2].copy_from_slice(&v.to_le_bytes());
}

fn put32(b: &mut [u8], o: usize, v: u32) {
    b[o..o + 4].copy_from_slice(&v.to_le_bytes());
}

/// The WND structure of window `win` (its extra bytes not included):
/// `hq` its task's queue, `pcls` its class's block.
fn wnd_bytes(u: &User, win: &Window, hq: u16, pcls: u16) -> Vec<u8> {
    let mut b = vec![0u8; usize::from(WND_SIZE)];
    let hwnd = win.hwnd;
    let next = u
        .window(win.parent)
        .and_then(|p| {
            let i = p.children.iter().position(|&c| c == hwnd)?;
            p.children.get(i + 1).copied()
        })
        .unwrap_or(0);
    put16(&mut b, wnd::HWND_NEXT, next);
    put16(
        &mut b,
        wnd::HWND_CHILD,
        win.children.first().copied().unwrap_or(0),
    );
    put16(&mut b, wnd::HWND_PARENT, win.parent);
    put16(&mut b, wnd::HWND_OWNER, win.owner);
    let rw = u.window_rect_screen(hwnd).unwrap_or(win.rect);
    let rc = u.client_rect_screen(hwnd).unwrap_or(win.client);
    b[wnd::RC_WINDOW..wnd::RC_WINDOW + 8].copy_from_slice(&rw.to_bytes());
    b[wnd::RC_CLIENT..wnd::RC_CLIENT + 8].copy_from_slice(&rc.to_bytes());
    put16(&mut b, wnd::HQ, hq);
    put16(&mut b, wnd::HRGN_UPDATE, u16::from(win.needs_paint()));
    put16(&mut b, wnd::PCLS, pcls);
    put16(&mut b, wnd::HINSTANCE, win.hinstance);
    put32(
        &mut b,
        wnd::LPFN_WNDPROC,
        u32::from(win.wndproc.0) << 16 | u32::from(win.wndproc.1),
    );
    let flags = u32::from(u.shown(hwnd))
        | u32::from(win.frame) << 1
        | u32::from(win.internal_paint) << 2
        | u32::from(win.nc_active) << 3;
    put32(&mut b, wnd::DW_FLAGS, flags);
    put32(&mut b, wnd::DW_STYLE, win.style);
    put32(&mut b, wnd::DW_EX_STYLE, win.ex_style);
    put16(&mut b, wnd::W_ID_MENU, win.id);
    put16(&mut b, wnd::H_NAME, win.text_block);
    put16(
        &mut b,
        wnd::H_PROPS,
        win.props.last().map_or(0, |p| p.block),
    );
    put16(&mut b, wnd::HWND_LAST_ACTIVE, win.last_active);
    put16(
        &mut b,
        wnd::H_SYS_MENU,
        u.menus.system.get(&hwnd).copied().unwrap_or(0),
    );
    b
}

/// The queue handle of task `htask` (TDB's hQueue), 0 for none.
fn queue_of(env: &Env, uc: &Uc<'_>, htask: u16) -> u16 {
    use crate::machine::Cpu;
    if env.win16.task(htask).is_none() {
        return 0;
    }
    uc.read_u16_at(htask, crate::win16::tdb::off::HQUEUE)
        .unwrap_or(0)
}

/// Write window `hwnd`'s WND, its extra bytes and its text's block from
/// USER's record (the text's block made, resized or freed as the text
/// needs). Nothing for a window that is gone.
pub fn sync(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) {
    let (Some(ds), Some(strings)) = (selector(&env.win16, DS), selector(&env.win16, STRING_HEAP))
    else {
        return;
    };
    let Some(win) = env.win16.user.window(hwnd) else {
        return;
    };
    // The text's block.
    let (text, old) = (win.text.clone(), win.text_block);
    let want = if text.is_empty() {
        0
    } else {
        u16::try_from(text.len() + 1).unwrap_or(u16::MAX)
    };
    let w = &mut env.win16;
    let block = match (old, want) {
        (0, 0) => 0,
        (0, n) => sysheap::alloc(w, uc, strings, lmem::FIXED, n, lt::STRING),
        (h, 0) => {
            sysheap::free(w, uc, strings, h);
            0
        }
        (h, n) => {
            let size = w.local_heaps.heaps.get(&strings).map_or(0, |l| l.size(h));
            if size == n {
                h
            } else {
                sysheap::free(w, uc, strings, h);
                sysheap::alloc(w, uc, strings, lmem::FIXED, n, lt::STRING)
            }
        }
    };
    if block != 0 {
        let mut z = text.clone();
        z.truncate(usize::from(want) - 1);
        z.push(0);
        sysheap::write(w, uc, strings, block, 0, &z);
    }
    let Some(win) = w.user.window_mut(hwnd) else {
        return;
    };
    win.text_block = block;
    let htask = win.htask;
    let pcls = w.user.class_of(hwnd).map_or(0, |c| c.block);
    let hq = queue_of(env, uc, htask);
    let w = &env.win16;
    let Some(win) = w.user.window(hwnd) else {
        return;
    };
    let mut bytes = wnd_bytes(&w.user, win, hq, pcls);
    bytes.extend_from_slice(&win.extra);
    sysheap::write(w, uc, ds, hwnd, 0, &bytes);
    // Its properties, the most recent first.
    let mut next = 0;
    for p in &win.props {
        let mut b = [0u8; PROP_SIZE as usize];
        put16(&mut b, 0, next);
        put16(&mut b, 2, p.atom);
        put16(&mut b, 4, p.data);
        put16(&mut b, 6, u16::from(p.string));
        sysheap::write(w, uc, ds, p.block, 0, &b);
        next = p.block;
    }
}

/// [`sync`] for a window and the windows whose fields name it: its
/// parent (hwndChild) and the sibling above it (hwndNext).
pub fn sync_around(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) {
    let parent = env.win16.user.window(hwnd).map_or(0, |w| w.parent);
    sync(env, uc, hwnd);
    sync_neighbours(env, uc, parent, hwnd);
}

/// [`sync`] for `parent` and for the child above `hwnd` in its list (or,
/// when `hwnd` is no longer there, every child: one of them lost its
/// hwndNext).
pub fn sync_neighbours(env: &mut Env, uc: &mut Uc<'_>, parent: u16, hwnd: u16) {
    if parent == 0 {
        return;
    }
    sync(env, uc, parent);
    let children = env.win16.user.children(parent);
    match children.iter().position(|&c| c == hwnd) {
        Some(0) => {}
        Some(i) => sync(env, uc, children[i - 1]),
        None => {
            for c in children {
                sync(env, uc, c);
            }
        }
    }
}

/// Write class `atom`'s structure and extra bytes from USER's record.
pub fn sync_class(env: &mut Env, uc: &mut Uc<'_>, atom: u16) {
    let Some(ds) = selector(&env.win16, DS) else {
        return;
    };
    let u = &env.win16.user;
    let Some(i) = u.classes.iter().position(|c| c.atom == atom) else {
        return;
    };
    let c = &u.classes[i];
    if c.block == 0 {
        return;
    }
    let mut b = vec![0u8; usize::from(CLS_SIZE)];
    let next = u.classes.get(i + 1).map_or(0, |n| n.block);
    put16(&mut b, cls::PCLS_NEXT, next);
    put16(&mut b, cls::W_SIG, cls::SIGNATURE);
    put16(&mut b, cls::ATOM, c.atom);
    put16(&mut b, cls::H_DCE, super::dce::of_class(env, c.block));
    let count = u
        .live()
        .filter(|w| w.class_atom == c.atom && w.class == c.name)
        .count();
    put16(&mut b, cls::C_WINDOWS, count.min(0xFFFF) as u16);
    let o = cls::WNDCLASS;
    put16(&mut b, o, c.style);
    put32(
        &mut b,
        o + 2,
        u32::from(c.wndproc.0) << 16 | u32::from(c.wndproc.1),
    );
    put16(&mut b, o + 6, c.cls_extra);
    put16(&mut b, o + 8, c.wnd_extra);
    put16(&mut b, o + 0x0A, c.hinstance);
    put16(&mut b, o + 0x0C, c.hicon);
    put16(&mut b, o + 0x0E, c.hcursor);
    put16(&mut b, o + 0x10, c.hbrush);
    put32(&mut b, o + 0x12, c.menu_ptr);
    // lpszClassName: the class's atom as an integer name.
    put32(&mut b, o + 0x16, u32::from(c.atom));
    b.extend_from_slice(&c.extra);
    let block = c.block;
    sysheap::write(&env.win16, uc, ds, block, 0, &b);
}

/// Every class's structure (after the list changed: each names the next).
pub fn sync_classes(env: &mut Env, uc: &mut Uc<'_>) {
    let atoms: Vec<u16> = env.win16.user.classes.iter().map(|c| c.atom).collect();
    for a in atoms {
        sync_class(env, uc, a);
    }
}

/// A menu's blocks: its structure in the menu heap (moveable), each
/// string item's text in the string heap, and the bytes last written.
#[derive(Debug, Clone, Default)]
pub struct MenuBlocks {
    pub block: u16,
    pub strings: Vec<u16>,
    written: Vec<u8>,
}

/// The menu structure: its flags (1 a pop-up, 2 a system menu), the item
/// count, the size of its last layout, then the items.
pub mod menu {
    pub const FLAGS: usize = 0;
    pub const C_ITEMS: usize = 2;
    pub const CX: usize = 4;
    pub const CY: usize = 6;
    pub const ITEMS: usize = 8;
    /// An item: its MF_ flags, its id, the pop-up it opens, its text's
    /// block in the string heap (0 for none), its width and height.
    pub const ITEM_SIZE: usize = 12;
}

fn menu_bytes(m: &super::menu::Menu, strings: &[u16]) -> Vec<u8> {
    let mut b = vec![0u8; menu::ITEMS + menu::ITEM_SIZE * m.items.len()];
    put16(
        &mut b,
        menu::FLAGS,
        u16::from(m.popup) | u16::from(m.system) << 1,
    );
    put16(&mut b, menu::C_ITEMS, m.items.len().min(0xFFFF) as u16);
    let (cx, cy) = m.size.unwrap_or((0, 0));
    put16(&mut b, menu::CX, cx as u16);
    put16(&mut b, menu::CY, cy as u16);
    for (i, it) in m.items.iter().enumerate() {
        let o = menu::ITEMS + menu::ITEM_SIZE * i;
        put16(&mut b, o, it.flags);
        put16(&mut b, o + 2, it.id);
        put16(&mut b, o + 4, it.popup);
        put16(&mut b, o + 6, strings.get(i).copied().unwrap_or(0));
        put16(&mut b, o + 8, it.rect.width() as u16);
        put16(&mut b, o + 10, it.rect.height() as u16);
    }
    b
}

/// A new menu's block in USER's menu heap (moveable, LT_USER_MENU, the
/// structure of a menu without items): its local handle, the HMENU
/// (module doc of menu.rs); 0 when the heap cannot take it.
pub fn alloc_menu(w: &mut Win16, uc: &mut Uc<'_>) -> u16 {
    let Some(mh) = selector(w, MENU_HEAP) else {
        return 0;
    };
    let h = sysheap::alloc(w, uc, mh, lmem::MOVEABLE, menu::ITEMS as u16, lt::MENU);
    if h != 0 {
        w.user.menus.blocks.insert(
            h,
            MenuBlocks {
                block: h,
                ..MenuBlocks::default()
            },
        );
    }
    h
}

/// Free menu block `h` (and its strings) that no menu holds.
pub fn free_menu(w: &mut Win16, uc: &mut Uc<'_>, h: u16) {
    let (Some(mh), Some(sh)) = (selector(w, MENU_HEAP), selector(w, STRING_HEAP)) else {
        return;
    };
    if let Some(b) = w.user.menus.blocks.remove(&h) {
        sysheap::free(w, uc, mh, b.block);
        for s in b.strings.into_iter().filter(|&s| s != 0) {
            sysheap::free(w, uc, sh, s);
        }
    }
}

/// Bring every menu's blocks in USER's menu and string heaps up to date
/// (resized, written; freed with the menu): the menus whose structure
/// could not grow for their items (the block keeps its size and handle).
/// Nothing to do, and no cost, unless a menu was made, changed or
/// destroyed since the last time.
pub fn sync_menus(env: &mut Env, uc: &mut Uc<'_>) -> Vec<u16> {
    let w = &mut env.win16;
    if !w.user.menus.dirty {
        return Vec::new();
    }
    let (Some(mh), Some(sh)) = (selector(w, MENU_HEAP), selector(w, STRING_HEAP)) else {
        return Vec::new();
    };
    w.user.menus.dirty = false;
    let gone: Vec<u16> = w
        .user
        .menus
        .blocks
        .keys()
        .copied()
        .filter(|&h| !w.user.menus.exists(h))
        .collect();
    for h in gone {
        free_menu(w, uc, h);
    }
    let mut failed = Vec::new();
    let live: Vec<u16> = w.user.menus.handles().collect();
    for h in live {
        let Some(m) = w.user.menus.get(h) else {
            continue;
        };
        let texts: Vec<Option<Vec<u8>>> = m
            .items
            .iter()
            .map(|it| it.text().map(<[u8]>::to_vec))
            .collect();
        let size = (menu::ITEMS + menu::ITEM_SIZE * texts.len()).min(0xFFF0) as u16;
        let Some(mut b) = w.user.menus.blocks.remove(&h) else {
            // Every menu is made with its block (alloc_menu).
            failed.push(h);
            continue;
        };
        // The structure: a moveable block keeps its handle when it grows.
        if w.local_heaps.heaps.get(&mh).map_or(0, |l| l.size(b.block)) < size {
            if sysheap::realloc(w, uc, mh, b.block, size) == 0 {
                failed.push(h);
            }
            b.written.clear();
        }
        // Its strings.
        b.strings.resize(texts.len(), 0);
        for (i, t) in texts.iter().enumerate() {
            let want = t
                .as_ref()
                .map_or(0, |t| u16::try_from(t.len() + 1).unwrap_or(u16::MAX));
            let old = b.strings[i];
            let have = if old == 0 {
                0
            } else {
                w.local_heaps.heaps.get(&sh).map_or(0, |l| l.size(old))
            };
            if old != 0 && (want == 0 || have < want) {
                sysheap::free(w, uc, sh, old);
                b.strings[i] = 0;
            }
            if want != 0 {
                if b.strings[i] == 0 {
                    b.strings[i] = sysheap::alloc(w, uc, sh, lmem::FIXED, want, lt::STRING);
                }
                let mut z = t.clone().unwrap_or_default();
                z.truncate(usize::from(want) - 1);
                z.push(0);
                sysheap::write(w, uc, sh, b.strings[i], 0, &z);
            }
        }
        for s in b.strings.drain(texts.len()..).collect::<Vec<u16>>() {
            if s != 0 {
                sysheap::free(w, uc, sh, s);
            }
        }
        if let Some(m) = w.user.menus.get(h) {
            let bytes = menu_bytes(m, &b.strings);
            if bytes != b.written {
                sysheap::write(w, uc, mh, b.block, 0, &bytes);
                b.written = bytes;
            }
        }
        w.user.menus.blocks.insert(h, b);
    }
    failed
}

/// USER's percentage of free system resources: the lowest of its three
/// heaps' Q61803 figures (Q90762); 0 before the heaps exist.
pub fn free_percent(w: &Win16, uc: &Uc<'_>) -> u16 {
    HEAPS
        .iter()
        .filter_map(|&which| selector(w, which))
        .map(|s| sysheap::free_percent(w, uc, s))
        .min()
        .unwrap_or(0)
}

/// UserSeeUserDo's requests (Wine's USUD_ values for USER.216).
pub mod usud {
    pub const LOCALALLOC: u16 = 1;
    pub const LOCALFREE: u16 = 2;
    pub const LOCALCOMPACT: u16 = 3;
    pub const LOCALHEAP: u16 = 4;
    pub const FIRSTCLASS: u16 = 5;
}

/// USER.216 UserSeeUserDo(wReqType, wParam1, wParam2, wParam3): work on
/// USER's data segment's heap for a system program (undocumented; the
/// requests as Wine lists them): LocalAlloc(wParam1 flags, wParam3 bytes)
/// there, the block of type LT_USER_USERSEEUSERDOALLOC; LocalFree(wParam1)
/// of such a block (0 when freed, else the handle, as LocalFree);
/// LocalCompact(wParam3); the heap's selector; the far address of the
/// first class structure. −1 for another request.
fn user_see_user_do(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (req, p1, p3) = (a[0] as u16, a[1] as u16, a[3] as u16);
    let Some(ds) = selector(&env.win16, DS) else {
        return Ok(u32::MAX);
    };
    let w = &mut env.win16;
    Ok(match req {
        usud::LOCALALLOC => u32::from(sysheap::alloc(w, uc, ds, p1, p3, lt::USERSEEUSERDOALLOC)),
        usud::LOCALFREE => {
            // Only what UserSeeUserDo gave: USER's own objects stay.
            let mine = w.sys_heaps.kind(ds, p1) == Some(lt::USERSEEUSERDOALLOC);
            if mine && sysheap::free(w, uc, ds, p1) {
                0
            } else {
                u32::from(p1)
            }
        }
        usud::LOCALCOMPACT => u32::from(sysheap::compact(w, uc, ds, p3)),
        usud::LOCALHEAP => u32::from(ds),
        usud::FIRSTCLASS => match w.user.classes.first() {
            Some(c) if c.block != 0 => u32::from(ds) << 16 | u32::from(c.block),
            _ => 0,
        },
        _ => u32::MAX,
    })
}

/// The functions this file implements.
pub static APIS: &[Api] = &[Api::new(
    "USER",
    216,
    "USERSEEUSERDO",
    &[Arg::W, Arg::W, Arg::W, Arg::W],
    user_see_user_do,
)];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wnd_layout() {
        assert_eq!(wnd::HWND_NEXT, 0x00);
        assert_eq!(wnd::HWND_PARENT, 0x04);
        assert_eq!(wnd::RC_WINDOW, 0x08);
        assert_eq!(wnd::RC_CLIENT, 0x10);
        assert_eq!(wnd::HQ, 0x18);
        assert_eq!(wnd::PCLS, 0x1C);
        assert_eq!(wnd::LPFN_WNDPROC, 0x20);
        assert_eq!(wnd::DW_STYLE, 0x28);
        assert_eq!(wnd::DW_EX_STYLE, 0x2C);
        assert_eq!(wnd::H_SYS_MENU + 2, usize::from(WND_SIZE));
        assert_eq!(WND_SIZE + 4, 0x40);
    }

    #[test]
    fn cls_layout() {
        // WNDCLASS (26 bytes) ends the structure.
        assert_eq!(cls::WNDCLASS + 0x1A, usize::from(CLS_SIZE));
        assert_eq!(cls::C_WINDOWS, 0x08);
    }

    #[test]
    fn names() {
        assert_eq!(lt_name(lt::WND), "LT_USER_WND");
        assert_eq!(lt_name(lt::HANDLETABLE), "LT_USER_HANDLETABLE");
        assert_eq!(lt_name(0), "LT_NORMAL");
    }
}
