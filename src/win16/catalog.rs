//! The list of Win16 functions this emulator provides, by module, made
//! from the API tables ([`super::table::TABLES`]) and KERNEL's absolute
//! entries: the text of `docs/functions.md`, which `tests/functions_doc.rs`
//! checks (and rewrites with `TOOLHELP16_BLESS=1`).

use std::fmt::Write as _;

use super::kernel::selector::REAL_MODE_ENTRIES;
use super::table;
use crate::loader::ordnames;

/// One module's part of the list: its functions (ordinal, SDK name) and
/// how many exports it has.
pub fn functions_of(module: &str) -> (Vec<(u16, String)>, usize) {
    let mut f: Vec<(u16, String)> = table::all()
        .filter(|a| a.module.eq_ignore_ascii_case(module))
        .map(|a| {
            let name = ordnames::ordinal_name(module, a.ordinal)
                .map_or_else(|| a.name.to_string(), str::to_string);
            (a.ordinal, name)
        })
        .collect();
    if module.eq_ignore_ascii_case("KERNEL") {
        let values = [113u16, 114, 178]
            .into_iter()
            .chain(REAL_MODE_ENTRIES.iter().map(|&(o, _)| o));
        for o in values {
            if let Some(n) = ordnames::ordinal_name("KERNEL", o) {
                f.push((o, n.to_string()));
            }
        }
    }
    f.sort();
    f.dedup();
    let total = ordnames::exports(module).map_or(0, <[_]>::len);
    (f, total)
}

/// `docs/functions.md`.
pub fn markdown() -> String {
    let mut s = String::new();
    s.push_str(
        "# The Win16 functions toolhelp16 provides\n\n\
         Generated from the API tables (`src/win16/table.rs`, `TABLES`) by\n\
         `tests/functions_doc.rs`; `TOOLHELP16_BLESS=1 cargo test --test\n\
         functions_doc` rewrites it. Each function listed runs as Windows 3.1's\n\
         did (its doc comment in the source says how, and where it differs).\n\
         Every other export of these modules still resolves when a program\n\
         imports it: calling it stops the run with `MODULE.ordinal Name` and\n\
         the caller's walk (exit 124). So does a call into a module that is\n\
         neither built in nor found as a DLL (an *absent* module).\n\n\
         KERNEL's absolute entries (`__AHSHIFT`, `__AHINCR`, `__WINFLAGS` and\n\
         the selectors of real-mode memory such as `__B800H`) are values, not\n\
         functions; they are listed with KERNEL.\n\n\
         | module | provided | exports |\n| --- | --- | --- |\n",
    );
    let modules = super::BUILTIN_MODULES;
    for m in modules {
        let (f, total) = functions_of(m);
        let _ = writeln!(s, "| {m} | {} | {total} |", f.len());
    }
    for m in modules {
        let (f, total) = functions_of(m);
        let _ = writeln!(s, "\n## {m} ({} of {total})\n", f.len());
        if f.is_empty() {
            s.push_str("None yet.\n");
            continue;
        }
        let names: Vec<String> = f.iter().map(|(o, n)| format!("{o} {n}")).collect();
        // One line per function, as `ordinal Name`.
        for n in names {
            let _ = writeln!(s, "- {n}");
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_in_module_is_listed_with_its_functions() {
        let md = markdown();
        for m in super::super::BUILTIN_MODULES {
            assert!(md.contains(&format!("\n## {m} (")), "{m}");
        }
        assert!(md.contains("\n- 91 InitTask\n"));
        assert!(md.contains("\n- 114 __AHINCR\n"));
        assert!(md.contains("\n- 1 __fpMath\n"));
        let (k, total) = functions_of("KERNEL");
        assert!(k.len() > 150 && total >= k.len(), "{} of {total}", k.len());
    }
}
