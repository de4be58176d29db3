//! System DLL functions: ordinary Rust functions registered in one table by
//! module and ordinal, each with its Pascal argument layout declared once.
//!
//! A program's import of `MODULE.ordinal` resolves to a *thunk* in that
//! module's code segment: `int F0h; retf N` (8 bytes per import). The
//! interrupt hook finds the import from the thunk's offset, reads the
//! arguments from the caller's stack (Pascal order: the first argument was
//! pushed first, so it lies highest; the far return address is at SS:SP), calls
//! the Rust function, puts its result in DX:AX, and lets the `retf N` pop the
//! arguments. An import with no Rust function still resolves; calling it stops
//! the program with [`Stop::Unimplemented`] naming `MODULE.ordinal NAME`.
//!
//! The function is found once, when the thunk is made (win16/mod.rs,
//! `thunk_for`, at link time or in GetProcAddress): the thunk keeps its
//! `&'static Api`, so a call costs no search. The lookups that remain
//! (making a thunk, GetProcAddress, locations and the relay filter in
//! sysexport.rs) use [`index`], hash maps built on first use. One system
//! function that needs another calls its Rust function by name, never
//! through this table.
//!
//! A few functions are `cdecl` (USER's `_wsprintf`): the caller pushed the
//! arguments last first, so the first lies just above the return address,
//! and the caller pops them, so the thunk is `retf 0`. The declared
//! arguments are the fixed ones; the function reads any variable ones from
//! the stack itself.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::machine::{Cpu, Stop, Uc};
use crate::win16::Env;

/// One argument's size on the stack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arg {
    /// A WORD, HANDLE, int or BOOL: 2 bytes.
    W,
    /// A DWORD, LONG or far pointer: 4 bytes.
    L,
}

impl Arg {
    /// Bytes on the stack.
    pub fn size(self) -> u16 {
        match self {
            Arg::W => 2,
            Arg::L => 4,
        }
    }
}

/// The Rust side of a system function: gets the arguments in declaration
/// order and returns DX:AX.
pub type ApiFn = fn(&mut Env, &mut Uc<'_>, &[u32]) -> Result<u32, Stop>;

/// A registered system function.
#[derive(Debug)]
pub struct Api {
    pub module: &'static str,
    pub ordinal: u16,
    pub name: &'static str,
    pub args: &'static [Arg],
    pub func: ApiFn,
    /// The C calling convention (see the module notes), not Pascal.
    pub cdecl: bool,
}

impl Api {
    /// The name as the Windows 3.1 SDK writes it (`GetMessage`), from the
    /// ordinal tables (loader/ordnames.rs); the table's own upper-case
    /// name (the NE names tables' spelling) when they lack it. Shown in
    /// walks, profiles, events and disasm; look-ups ignore case.
    pub fn sdk_name(&self) -> &'static str {
        crate::loader::ordnames::ordinal_name(self.module, self.ordinal).unwrap_or(self.name)
    }

    /// Bytes of arguments the callee pops: none for `cdecl`.
    pub fn arg_bytes(&self) -> u16 {
        if self.cdecl {
            return 0;
        }
        self.args.iter().map(|a| a.size()).sum()
    }
}

impl Api {
    /// A table entry: `Api::new("USER", 5, "INITAPP", &[Arg::W], init_app)`.
    pub const fn new(
        module: &'static str,
        ordinal: u16,
        name: &'static str,
        args: &'static [Arg],
        func: ApiFn,
    ) -> Api {
        Api {
            module,
            ordinal,
            name,
            args,
            func,
            cdecl: false,
        }
    }

    /// A `cdecl` table entry: `args` are the fixed arguments, first first.
    pub const fn cdecl(
        module: &'static str,
        ordinal: u16,
        name: &'static str,
        args: &'static [Arg],
        func: ApiFn,
    ) -> Api {
        Api {
            cdecl: true,
            ..Api::new(module, ordinal, name, args, func)
        }
    }

    /// Read the declared arguments from the stack at `ss:sp` (which holds
    /// the far return address), in declaration order. An unreadable word
    /// reads as 0.
    pub fn read_args(&self, uc: &Uc<'_>, ss: u16, sp: u16) -> Vec<u32> {
        let mut args = vec![0u32; self.args.len()];
        self.read_args_into(uc, ss, sp, &mut args);
        args
    }

    /// [`Api::read_args`] into `args` (as long as the declared arguments),
    /// allocating nothing: the system call's path.
    pub fn read_args_into(&self, uc: &Uc<'_>, ss: u16, sp: u16, args: &mut [u32]) {
        let total: u16 = self.args.iter().map(|a| a.size()).sum();
        // The arguments' bytes in one read when they lie within the stack
        // segment (every call but a hostile one); else word by word, an
        // unreadable word reading as 0 (and the refused access noted for
        // the word, as before: machine/cpu.rs, `note_refused_access`).
        let mut bytes = [0u8; MAX_ARG_BYTES];
        let whole = usize::from(total) <= MAX_ARG_BYTES
            && u32::from(sp) + 4 + u32::from(total) <= 0x1_0000
            && uc
                .read_seg(ss, sp.wrapping_add(4), &mut bytes[..usize::from(total)])
                .is_ok();
        let word = |off: u16| {
            if whole {
                let k = usize::from(off.wrapping_sub(sp).wrapping_sub(4));
                u32::from(u16::from_le_bytes([bytes[k], bytes[k + 1]]))
            } else {
                u32::from(uc.read_u16_at(ss, off).unwrap_or(0))
            }
        };
        let mut off = sp.wrapping_add(4);
        let mut read = |i: usize, off: &mut u16| {
            let a = self.args[i];
            args[i] = match a {
                Arg::W => word(*off),
                Arg::L => word(*off) | word(off.wrapping_add(2)) << 16,
            };
            *off = off.wrapping_add(a.size());
        };
        if self.cdecl {
            // The first argument was pushed last: it lies lowest.
            for i in 0..self.args.len() {
                read(i, &mut off);
            }
        } else {
            // Pascal: the last argument lies just above the return address.
            for i in (0..self.args.len()).rev() {
                read(i, &mut off);
            }
        }
    }
}

/// The most argument bytes [`Api::read_args_into`] reads at once.
const MAX_ARG_BYTES: usize = 128;

/// The most arguments a call reads without allocating (win16/mod.rs,
/// `call_api`); a function declaring more gets a `Vec`.
pub const MAX_ARGS_INLINE: usize = 32;

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
    super::profile::APIS,
    super::resource::APIS,
    super::local::APIS,
    super::module::APIS,
    super::system::APIS,
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

/// Is every entry of a file's table in [`TABLES`]? (Each file's tests
/// check their own table with this.)
#[cfg(test)]
pub fn is_registered(table: &'static [Api]) -> bool {
    table
        .iter()
        .all(|a| find(a.module, a.ordinal).is_some_and(|f| f.name == a.name))
}

/// The registered function for `module.ordinal`, if implemented (the
/// module's name in any case). A hash lookup in [`index`], made once.
pub fn find(module: &str, ordinal: u16) -> Option<&'static Api> {
    let by_module = &index().by_ordinal;
    let m = match by_module.get(module) {
        Some(m) => m,
        None if module.bytes().any(|b| b.is_ascii_lowercase()) => {
            by_module.get(module.to_ascii_uppercase().as_str())?
        }
        None => return None,
    };
    m.get(&ordinal).copied()
}

/// The registered function of `module` (any case) named `name` (any case).
pub fn find_name(module: &str, name: &str) -> Option<&'static Api> {
    let key = (module.to_ascii_uppercase(), name.to_ascii_uppercase());
    index().by_name.get(&key).copied()
}

/// The table's lookups, built on first use: by module and ordinal (every
/// entry of [`TABLES`] and [`INTERNAL`]) and by module and name (the
/// exported ones, [`all`]). Module names in the tables are upper case.
pub struct Index {
    by_ordinal: HashMap<&'static str, HashMap<u16, &'static Api>>,
    by_name: HashMap<(String, String), &'static Api>,
}

/// The one [`Index`].
pub fn index() -> &'static Index {
    static INDEX: OnceLock<Index> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut by_ordinal: HashMap<&'static str, HashMap<u16, &'static Api>> = HashMap::new();
        let mut by_name = HashMap::new();
        for a in all() {
            // The first entry wins, as the linear search found it.
            by_ordinal
                .entry(a.module)
                .or_default()
                .entry(a.ordinal)
                .or_insert(a);
            by_name
                .entry((a.module.to_ascii_uppercase(), a.name.to_ascii_uppercase()))
                .or_insert(a);
        }
        for a in INTERNAL.iter().flat_map(|t| t.iter()) {
            by_ordinal
                .entry(a.module)
                .or_default()
                .entry(a.ordinal)
                .or_insert(a);
        }
        Index {
            by_ordinal,
            by_name,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
