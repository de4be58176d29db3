//! The table of every system function: one table per source file, each
//! listing the functions that file defines ([`TABLES`], GDI's in
//! gdi/mod.rs, and the [`INTERNAL`] entry points), and the lookups built
//! from it once ([`Apis`]'s default, api.rs's [`Index`]).
//!
//! It names every subsystem, so it sits above them all (the top of win16,
//! with the thunk dispatch, dispatch.rs); the subsystems find a function
//! through [`super::api::find`] and [`Apis`], never by naming this file.

use std::sync::OnceLock;

use super::api::{Api, Apis, Index};
use super::kernel::signal::Signals;
use super::user::dlls::Dlls;
use crate::machine::Uc;

/// Every implemented system function: one table per source file, each
/// listing the functions that file defines.
pub static TABLES: &[&[Api]] = &[
    super::kernel::APIS,
    super::global::APIS,
    super::toolhelp::APIS,
    super::toolhelp_task::APIS,
    super::user::caret::APIS,
    super::user::class::APIS,
    super::user::clipboard::APIS,
    super::user::cursor::APIS,
    super::user::bitmap::APIS,
    super::user::defwnd::APIS,
    super::user::dialog::APIS,
    super::user::draw::APIS,
    super::user::focus::APIS,
    super::user::hook::APIS,
    super::user::input::APIS,
    super::user::mdi::APIS,
    super::user::controls::APIS,
    super::user::menu::APIS,
    super::user::menu::template::APIS,
    super::user::menu::sysmenu::APIS,
    super::user::menu::track::APIS,
    super::user::accel::APIS,
    super::user::message::APIS,
    super::user::metrics::APIS,
    super::user::msgbox::APIS,
    super::user::paint::APIS,
    super::user::palette::APIS,
    super::user::prop::APIS,
    super::user::heap::APIS,
    super::user::rect::APIS,
    super::user::scroll::APIS,
    super::user::system::APIS,
    super::user::text::APIS,
    super::user::timer::APIS,
    super::user::window::APIS,
    super::user::winpos::APIS,
    super::user::comm::APIS,
    super::user::wnet::APIS,
    super::strings::APIS,
    super::atom::APIS,
    super::kernel::profile::APIS,
    super::resource::APIS,
    super::local::APIS,
    super::kernel::module::APIS,
    super::kernel::system::APIS,
    super::scheduler::APIS,
    super::kernel::library::APIS,
    super::kernel::selfload::APIS,
    super::kernel::file::APIS,
    super::kernel::directory::APIS,
    super::kernel::selector::APIS,
    super::kernel::memory::APIS,
    super::kernel::error::APIS,
    super::kernel::task::APIS,
    super::kernel::stack::APIS,
    super::kernel::burgermaster::APIS,
    super::kernel::filecdr::APIS,
    super::win87em::APIS,
    super::commdlg::APIS,
    super::shell::APIS,
    super::shellenv::APIS,
    super::ole::client::APIS,
    super::ole::server::APIS,
    super::commctrl::APIS,
    super::ddeml::APIS,
    super::keyboard::APIS,
    super::sound::APIS,
    super::mmsystem::APIS,
    super::mmio::APIS,
    super::wave::APIS,
    super::mci::APIS,
    super::midi::APIS,
    super::lzexpand::APIS,
    super::ver::APIS,
    super::winsock::APIS,
    super::winsock::FAILING,
    super::systemdrv::APIS,
];

/// All registered functions (GDI's tables are listed in gdi/mod.rs).
pub fn all() -> impl Iterator<Item = &'static Api> {
    TABLES
        .iter()
        .chain(super::gdi::TABLES.iter())
        .flat_map(|t| t.iter())
}

/// Entry points of system modules that Windows 3.1 did not export (so no
/// program imports them, and they have no SDK name): the window procedures
/// of USER's COMBOBOX, COMBOLBOX and MDICLIENT classes. USER hands out
/// their thunks' addresses (GetClassInfo, GetWindowLong(GWL_WNDPROC)), and a
/// thunk finds them here by their private ordinals (0xF000 and up, far
/// above any export and any unknown-name import).
pub static INTERNAL: &[&[Api]] = &[
    super::user::controls::INTERNAL,
    super::user::mdi::INTERNAL,
    super::kernel::selfload::INTERNAL,
    super::commctrl::INTERNAL,
];

/// The one [`Index`], made on first use from [`all`] and [`INTERNAL`].
impl Default for Apis {
    fn default() -> Self {
        static INDEX: OnceLock<Index> = OnceLock::new();
        Apis(INDEX.get_or_init(|| Index::build(all(), INTERNAL.iter().flat_map(|t| t.iter()))))
    }
}

/// KERNEL's procedures in the tiers above it (kernel/signal.rs): USER's
/// SignalProc and the DLLs' task-end work, USER's initialization, USER's
/// system boxes, the fault handler's last word on the run's stop.
impl Default for Signals {
    fn default() -> Self {
        Signals {
            task_ending,
            user_init: super::user::controls::register_system_classes,
            system_box: super::user::msgbox::system_box,
            has_input: |env, htask| env.win16.user.has_input(htask),
            send_abandoned: super::user::message::send_abandoned,
            final_stop: super::fault::final_stop,
            builtin_init,
        }
    }
}

/// A built-in module's start (kernel/signal.rs, `builtin_init`): GDI's
/// data segment and heap, with the stock objects in it, exist from GDI's
/// start (gdi/heap.rs).
fn builtin_init(m: &mut crate::machine::Uc<'_>, w: &mut super::Win16, idx: usize) {
    if w.modules[idx].name == "GDI" {
        super::gdi::heap::start(m, w);
    }
}

/// USER's procedures in the DLLs above it (user/dlls.rs): SHELL's WH_SHELL
/// hook, DDEML's wake-up message and its handling.
impl Default for Dlls {
    fn default() -> Self {
        Dlls {
            shell_hook: super::shell::shell_hook,
            wake_message: super::ddeml::queue::WM_DDEML_WAKE,
            wake: super::ddeml::queue::pump,
        }
    }
}

/// Task `htask` is ending (KERNEL's signal, kernel/signal.rs): its DDEML
/// instances go (their partners hear XTYP_DISCONNECT through their own
/// message loops, ddeml/conv.rs), then USER's SignalProc takes its
/// windows, queue and timers (user/mod.rs, forget_task), and TOOLHELP
/// forgets its callbacks.
fn task_ending(env: &mut super::Env, uc: &mut Uc<'_>, htask: u16) {
    super::ddeml::conv::task_ended(env, uc, htask);
    super::user::forget_task(env, uc, htask);
    super::toolhelp::forget_task(env, htask);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::win16::api::{find, find_name};

    #[test]
    fn table_is_unique_and_named() {
        let apis: Vec<&Api> = all().collect();
        for (i, a) in apis.iter().enumerate() {
            for b in &apis[i + 1..] {
                assert!(
                    !(a.module == b.module && a.ordinal == b.ordinal),
                    "{}.{} twice",
                    a.module,
                    a.ordinal
                );
            }
            // Names agree with the ordinal table the loader shows.
            if let Some(n) = crate::loader::ordnames::ordinal_name(a.module, a.ordinal) {
                assert!(
                    n.eq_ignore_ascii_case(a.name),
                    "{}.{}: {} vs {}",
                    a.module,
                    a.ordinal,
                    n,
                    a.name
                );
            }
        }
        assert_eq!(find("kernel", 91).map(|a| a.arg_bytes()), Some(0));
        // Every implemented function can be imported by name too (and so
        // its name agrees with the corpus's ORD files, which
        // loader::ordnames is checked against).
        for a in &apis {
            assert!(
                crate::loader::ordnames::ordinal_of(a.module, a.name) == Some(a.ordinal),
                "{}.{} {} is not in loader::ordnames",
                a.module,
                a.ordinal,
                a.name
            );
        }
        assert_eq!(find("KERNEL", 115).map(|a| a.arg_bytes()), Some(4));
    }

    /// The index finds what a search of the tables finds, for every
    /// entry, in any case of the module's name.
    #[test]
    fn the_index_agrees_with_the_tables() {
        let search = |module: &str, ordinal: u16| {
            all()
                .chain(INTERNAL.iter().flat_map(|t| t.iter()))
                .find(|a| a.module.eq_ignore_ascii_case(module) && a.ordinal == ordinal)
        };
        for a in all().chain(INTERNAL.iter().flat_map(|t| t.iter())) {
            assert!(
                a.module.bytes().all(|b| !b.is_ascii_lowercase()),
                "{}",
                a.module
            );
            let want = search(a.module, a.ordinal).map(|f| f as *const Api);
            assert_eq!(find(a.module, a.ordinal).map(|f| f as *const Api), want);
            let lower = a.module.to_ascii_lowercase();
            assert_eq!(find(&lower, a.ordinal).map(|f| f as *const Api), want);
        }
        // Windows 3.1 SDK: GetTickCount is USER.13, GetMessage USER.108.
        assert_eq!(
            find_name("user", "gettickcount").map(|a| a.ordinal),
            Some(13)
        );
        assert_eq!(
            find_name("USER", "GetMessage").map(|a| a.ordinal),
            Some(108)
        );
        assert!(find("USER", 0xEFFF).is_none() && find("NOSUCH", 1).is_none());
    }

    /// KERNEL's table reaches what it stands for: a task's end forgets
    /// its TOOLHELP callbacks (and takes its windows through USER), a
    /// system box is one of the run's boxes, shown by the environment for
    /// the task's module (KB Q111610's "Cannot find" box); the program's
    /// load has registered USER's predefined classes (USER's init).
    #[test]
    fn kernels_signals_reach_the_tiers_above() {
        use crate::win16::kernel::signal::signals;
        use crate::win16::toolhelp::Callback;
        use crate::win16::user::msgbox::ShownBy;
        let (mut m, mut env, htask) = crate::win16::kernel::testing::kernsvc();
        assert!(env.win16.user.classes.iter().any(|c| c.name == "BUTTON"));
        let cb = Callback {
            htask,
            proc_addr: 0x1234_0010,
            flags: 0,
        };
        env.win16.toolhelp.notify.push(cb);
        env.win16.toolhelp.interrupt.push(cb);
        (signals().task_ending)(&mut env, &mut m, htask);
        assert!(env.win16.toolhelp.notify.is_empty());
        assert!(env.win16.toolhelp.interrupt.is_empty());
        (signals().system_box)(&mut env, htask, "File Error", "Cannot find X.DLL".into());
        let b = env.win16.user.boxes.boxes.last().unwrap();
        assert_eq!(
            (b.htask, b.caption.as_str(), b.text.as_str(), b.by),
            (
                htask,
                "File Error",
                "Cannot find X.DLL",
                ShownBy::Environment
            )
        );
        assert_eq!(b.module, "KERNSVC");
    }

    /// USER's table names DDEML's wake-up message (WM_DDEML_WAKE, the
    /// one DDEML posts) and SHELL's hook, which does nothing before
    /// RegisterShellHook.
    #[test]
    fn users_table_names_ddeml_and_shell() {
        use crate::win16::user::dlls::dlls;
        let d = dlls();
        assert_eq!(d.wake_message, crate::win16::ddeml::queue::WM_DDEML_WAKE);
        let (m, mut env, _) = crate::win16::kernel::testing::kernsvc();
        let before = env.win16.user.queues.len();
        (d.shell_hook)(&mut env, &m, 1, 0x1234);
        assert_eq!(env.win16.user.queues.len(), before);
        assert!(env.win16.shell.hook.is_none());
    }
}
