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

/// The most arguments a call reads without allocating (win16/dispatch.rs,
/// `call_api`); a function declaring more gets a `Vec`.
pub const MAX_ARGS_INLINE: usize = 32;

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
    index().find(module, ordinal)
}

/// The registered function of `module` (any case) named `name` (any case).
pub fn find_name(module: &str, name: &str) -> Option<&'static Api> {
    index().find_name(module, name)
}

/// The table's lookups: by module and ordinal (every entry of the
/// table, exported or internal) and by module and name (the exported
/// ones). Module names in the tables are upper case. Built once, by
/// the table (win16/table.rs).
pub struct Index {
    by_ordinal: HashMap<&'static str, HashMap<u16, &'static Api>>,
    by_name: HashMap<(String, String), &'static Api>,
}

impl Index {
    /// The lookups of the `exported` functions and the `internal` ones
    /// (found by ordinal only); the first entry of a module and ordinal
    /// (or name) wins, as a search of the tables in order finds it.
    pub fn build(
        exported: impl Iterator<Item = &'static Api>,
        internal: impl Iterator<Item = &'static Api>,
    ) -> Index {
        let mut by_ordinal: HashMap<&'static str, HashMap<u16, &'static Api>> = HashMap::new();
        let mut by_name = HashMap::new();
        for a in exported {
            by_ordinal
                .entry(a.module)
                .or_default()
                .entry(a.ordinal)
                .or_insert(a);
            by_name
                .entry((a.module.to_ascii_uppercase(), a.name.to_ascii_uppercase()))
                .or_insert(a);
        }
        for a in internal {
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
    }

    /// The registered function for `module.ordinal` (the module's name
    /// in any case).
    pub fn find(&self, module: &str, ordinal: u16) -> Option<&'static Api> {
        let m = match self.by_ordinal.get(module) {
            Some(m) => m,
            None if module.bytes().any(|b| b.is_ascii_lowercase()) => {
                self.by_ordinal.get(module.to_ascii_uppercase().as_str())?
            }
            None => return None,
        };
        m.get(&ordinal).copied()
    }

    /// The registered function of `module` named `name` (both in any case).
    pub fn find_name(&self, module: &str, name: &str) -> Option<&'static Api> {
        let key = (module.to_ascii_uppercase(), name.to_ascii_uppercase());
        self.by_name.get(&key).copied()
    }
}

/// The one [`Index`] as the bottom of win16 names it. The table that
/// fills it lists every subsystem's functions, so it sits above them
/// all (win16/table.rs), and it is that file that implements this
/// type's `Default`: the interface by which KERNEL (GetProcAddress),
/// the thunks (mod.rs, `thunk_for`) and GDI (PlayMetaFileRecord) find a
/// function without naming the subsystems above them.
#[derive(Clone, Copy)]
pub struct Apis(pub &'static Index);

/// The one [`Index`] ([`Apis`]'s default: the table's, built on first use).
pub fn index() -> &'static Index {
    Apis::default().0
}
