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

use crate::env::Env;
use crate::machine::{Stop, Uc};

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
pub struct Api {
    pub module: &'static str,
    pub ordinal: u16,
    pub name: &'static str,
    pub args: &'static [Arg],
    pub func: ApiFn,
}

impl Api {
    /// Bytes of arguments the callee pops.
    pub fn arg_bytes(&self) -> u16 {
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
        }
    }
}

/// Every implemented system function: one table per source file, each
/// listing the functions that file defines.
pub static TABLES: &[&[Api]] = &[
    super::kernel::APIS,
    super::global::APIS,
    super::toolhelp::APIS,
    super::user::APIS,
    super::gdi::APIS,
];

/// All registered functions.
pub fn all() -> impl Iterator<Item = &'static Api> {
    TABLES.iter().flat_map(|t| t.iter())
}

/// The registered function for `module.ordinal`, if implemented.
pub fn find(module: &str, ordinal: u16) -> Option<&'static Api> {
    all().find(|a| a.module.eq_ignore_ascii_case(module) && a.ordinal == ordinal)
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
        assert_eq!(find("KERNEL", 115).map(|a| a.arg_bytes()), Some(4));
    }
}
