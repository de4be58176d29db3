//! The built-in DLLs' functions as places: `USER!GetMessage`,
//! `GDI!#20` and `KERNEL.91` (the forms reports print) name the address
//! a program's import of that function resolves to, its thunk in the
//! module's thunk segment (mod.rs, [`super::thunk_for`]). A breakpoint
//! there stops every call a program (or a DLL it loaded) makes through
//! that import, before the function runs, with the caller's far return
//! address at SS:SP.
//!
//! Names are looked up without regard to case, as Windows' GetProcAddress
//! and the loader matched the resident and non-resident names tables
//! (which hold them in upper case): first the API table's name, then the
//! SDK name of the ordinal (loader/ordnames.rs).
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

/// The ordinal of built-in `module`'s function `name` (both
/// case-insensitive): the API table's entry, else the SDK's name.
pub fn ordinal_of(module: &str, name: &str) -> Option<u16> {
    api::all()
        .find(|a| a.module.eq_ignore_ascii_case(module) && a.name.eq_ignore_ascii_case(name))
        .map(|a| a.ordinal)
        .or_else(|| ordnames::ordinal_of(module, name))
}

/// Is `ordinal` an export of built-in `module` (a function in the API
/// table or an ordinal the module's export list names)?
pub fn has_ordinal(module: &str, ordinal: u16) -> bool {
    api::find(&module.to_ascii_uppercase(), ordinal).is_some()
        || ordnames::ordinal_name(module, ordinal).is_some()
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
    let idx = super::ensure_builtin(uc, w, module).map_err(|e| e.0)?;
    super::thunk_for(uc, w, idx, ordinal, None).map_err(|e| e.0)
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
}
