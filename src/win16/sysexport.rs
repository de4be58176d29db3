//! The built-in DLLs' functions as places: `USER!GetMessage`,
//! `GDI!#20` and `KERNEL.91` (the forms reports print) name the address
//! a program's import of that function resolves to, its thunk in the
//! module's thunk segment (kernel/builtin.rs, [`super::kernel::builtin::thunk_for`]). A breakpoint
//! there stops every call a program (or a DLL it loaded) makes through
//! that import, before the function runs, with the caller's far return
//! address at SS:SP.
//!
//! Names are looked up without regard to case, as Windows' GetProcAddress
//! and the loader matched the resident and non-resident names tables
//! (which hold them in upper case): first the API table's name, then the
//! SDK name of the ordinal (loader/ordnames.rs).
//!
//! This file is the one place that reads such a reference and finds the
//! function it names ([`parse_ref`], [`function`]): the LOC parser and
//! locations (session.rs) and the relay log's filter (relayfilter.rs)
//! both go through it, and the lookups are the API table's index
//! (api.rs, [`api::find`], [`api::find_name`]), made once.
//!
//! A function the program never imported has no thunk yet: [`ensure`]
//! makes one, at the address a later GetProcAddress for it then returns
//! (thunk_for finds the existing thunk by ordinal).

use super::{FarPtr, Win16, api};
use crate::loader::ordnames;
use crate::machine::Uc;

/// Is `module` one of the DLLs built into the emulator (case-insensitive)?
pub fn is_builtin(module: &str) -> bool {
    super::BUILTIN_MODULES
        .iter()
        .any(|m| m.eq_ignore_ascii_case(module))
}

/// What a reference names within its module: `MODULE!NAME` a name,
/// `MODULE!#N` and `MODULE.N` an ordinal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Export<'a> {
    /// `MODULE!NAME` (the text after `!`, as written).
    Name(&'a str),
    /// `MODULE!#N` or `MODULE.N`.
    Ordinal(u16),
}

/// Read `MODULE!NAME`, `MODULE!#N` or `MODULE.N` (N decimal): the module
/// as written and what it names. `Ok(None)` for text of neither form
/// (`MODULE.N` needs a module without `:` and N all digits); `Err` for a
/// malformed one, saying what is wrong (the caller names the text).
pub fn parse_ref(text: &str) -> Result<Option<(&str, Export<'_>)>, String> {
    if let Some((module, rest)) = text.split_once('!') {
        if module.is_empty() || rest.is_empty() {
            return Err("expected MODULE!NAME or MODULE!#N".into());
        }
        if let Some(n) = rest.strip_prefix('#') {
            let o = n.parse().map_err(|_| "#N needs a decimal ordinal")?;
            return Ok(Some((module, Export::Ordinal(o))));
        }
        return Ok(Some((module, Export::Name(rest))));
    }
    match text.split_once('.') {
        Some((module, n))
            if !module.is_empty()
                && !module.contains(':')
                && !n.is_empty()
                && n.bytes().all(|b| b.is_ascii_digit()) =>
        {
            let o = n
                .parse()
                .map_err(|_| "the ordinal N of MODULE.N is 1 to 65535")?;
            Ok(Some((module, Export::Ordinal(o))))
        }
        _ => Ok(None),
    }
}

/// The ordinal of built-in `module`'s function `name` (both
/// case-insensitive): the API table's entry, else the SDK's name.
pub fn ordinal_of(module: &str, name: &str) -> Option<u16> {
    api::find_name(module, name)
        .map(|a| a.ordinal)
        .or_else(|| ordnames::ordinal_of(module, name))
}

/// Is `ordinal` an export of built-in `module` (a function in the API
/// table or an ordinal the module's export list names)?
pub fn has_ordinal(module: &str, ordinal: u16) -> bool {
    api::find(module, ordinal).is_some() || ordnames::ordinal_name(module, ordinal).is_some()
}

/// `MODULE.ordinal Name`, as the relay log and the profile print it.
pub fn describe(module: &str, ordinal: u16) -> String {
    let upper = module.to_ascii_uppercase();
    let name = ordnames::ordinal_name(&upper, ordinal)
        .or_else(|| api::find(&upper, ordinal).map(|a| a.name));
    match name {
        Some(n) => format!("{upper}.{ordinal} {n}"),
        None => format!("{upper}.{ordinal}"),
    }
}

/// The ordinal of the built-in function `module` and `export` name (a
/// reference [`parse_ref`] read). `Err` for a name or ordinal the module
/// does not export.
pub fn resolve(module: &str, export: Export<'_>) -> Result<u16, String> {
    match export {
        Export::Name(n) => function(module, Some(n), None),
        Export::Ordinal(o) => function(module, None, Some(o)),
    }
}

/// A built-in function a location names: the module (upper case) and the
/// ordinal. `Err` for a name or ordinal the module does not export.
pub fn function(module: &str, name: Option<&str>, ordinal: Option<u16>) -> Result<u16, String> {
    let upper = module.to_ascii_uppercase();
    match (name, ordinal) {
        (Some(n), _) => ordinal_of(&upper, n)
            .ok_or_else(|| format!("{upper} (a built-in DLL) exports no function named {n}")),
        (None, Some(o)) if has_ordinal(&upper, o) => Ok(o),
        (None, Some(o)) => Err(format!("{upper} (a built-in DLL) has no export #{o}")),
        (None, None) => Err(format!("{upper}: which function?")),
    }
}

impl Win16 {
    /// The thunk of built-in (or absent) `module`'s export `ordinal`, when
    /// an import or GetProcAddress made it.
    pub fn thunk_of(&self, module: &str, ordinal: u16) -> Option<FarPtr> {
        let m = self.module_by_name(module).filter(|m| m.builtin)?;
        let k = m.thunks.iter().position(|t| t.ordinal == ordinal)?;
        Some(FarPtr {
            selector: *m.segments.first()?,
            offset: u16::try_from(k).ok()?.checked_mul(super::THUNK_SIZE)?,
        })
    }
}

/// The thunk of built-in `module`'s export `ordinal`, made now when no
/// import made it (and the module loaded when the program loaded none of
/// its functions).
pub fn ensure(
    uc: &mut Uc<'_>,
    w: &mut Win16,
    module: &str,
    ordinal: u16,
) -> Result<FarPtr, String> {
    if let Some(p) = w.thunk_of(module, ordinal) {
        return Ok(p);
    }
    let idx = super::kernel::builtin::ensure_builtin(uc, w, module).map_err(|e| e.0)?;
    super::kernel::builtin::thunk_for(uc, w, idx, ordinal, None).map_err(|e| e.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_found_without_regard_to_case() {
        // Windows 3.1 SDK: GetMessage is USER.108, InitTask KERNEL.91,
        // MoveTo GDI.20, TextOut GDI.33.
        assert_eq!(ordinal_of("user", "GETMESSAGE"), Some(108));
        assert_eq!(ordinal_of("USER", "GetMessage"), Some(108));
        assert_eq!(ordinal_of("KERNEL", "inittask"), Some(91));
        assert_eq!(ordinal_of("GDI", "MoveTo"), Some(20));
        assert_eq!(ordinal_of("gdi", "textout"), Some(33));
        assert_eq!(ordinal_of("GDI", "NoSuchFunction"), None);
        assert!(is_builtin("user") && is_builtin("KERNEL") && !is_builtin("DEMO"));
    }

    #[test]
    fn an_unknown_function_is_an_error_naming_the_module() {
        assert_eq!(function("gdi", None, Some(20)), Ok(20));
        assert_eq!(function("USER", Some("getmessage"), None), Ok(108));
        let e = function("GDI", Some("Frobnicate"), None).unwrap_err();
        assert!(e.contains("GDI") && e.contains("Frobnicate"), "{e}");
        let e = function("GDI", None, Some(9999)).unwrap_err();
        assert!(e.contains("#9999"), "{e}");
        assert_eq!(describe("user", 108), "USER.108 GetMessage");
    }

    #[test]
    fn references_are_read_in_their_three_forms() {
        assert_eq!(
            parse_ref("USER!GetMessage"),
            Ok(Some(("USER", Export::Name("GetMessage"))))
        );
        assert_eq!(parse_ref("gdi!#33"), Ok(Some(("gdi", Export::Ordinal(33)))));
        assert_eq!(
            parse_ref("KERNEL.91"),
            Ok(Some(("KERNEL", Export::Ordinal(91))))
        );
        // Not a reference: SEG:OFF, MODULE:SEG:OFF, a file name.
        assert_eq!(parse_ref("0117:0020"), Ok(None));
        assert_eq!(parse_ref("DEMO:1:0020"), Ok(None));
        assert_eq!(parse_ref("demo.exe"), Ok(None));
        assert!(
            parse_ref("GDI!#x")
                .unwrap_err()
                .contains("#N needs a decimal")
        );
        assert!(parse_ref("!x").unwrap_err().contains("MODULE!NAME"));
        assert!(parse_ref("USER.70000").unwrap_err().contains("1 to 65535"));
        // Resolved with the API table and the SDK's names alike.
        assert_eq!(resolve("user", Export::Name("getmessage")), Ok(108));
        assert_eq!(resolve("GDI", Export::Ordinal(20)), Ok(20));
        assert!(resolve("GDI", Export::Ordinal(9999)).is_err());
    }
}
