//! `--events FILTER`: which system calls the relay log keeps, as
//! winedbg's relay filters choose them. A filter is a comma-separated list
//! of `MODULE!NAME` (`GDI!TextOut`), `MODULE!#N` (`GDI!#33`), `MODULE.N`,
//! `MODULE!PREFIX*` (`USER!Get*`) and `MODULE!*` (every call into the
//! module). Modules and names are compared without regard to case, as
//! Windows' exports were; a name is matched as the API table and the
//! SDK's export list name the function (win16/sysexport.rs), so
//! `KERNEL!LocalAlloc` and `KERNEL.5` are one entry.
//!
//! With a filter, the log holds the matching calls only: the other events
//! (DOS and BIOS interrupts, port I/O, messages, task switches) are left
//! out, as a relay filter narrows winedbg's output to the calls asked for.

use super::sysexport;

/// What one entry of the filter matches within its module.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Pattern {
    /// `MODULE!*`.
    All,
    /// `MODULE!NAME`, `MODULE!#N`, `MODULE.N`: one export.
    Ordinal(u16),
    /// `MODULE!PREFIX*`: names beginning so (upper case).
    Prefix(String),
}

/// A parsed `--events` filter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RelayFilter {
    entries: Vec<(String, Pattern)>,
}

impl RelayFilter {
    /// Parse `USER!*,GDI!TextOut,KERNEL.5`. A module must be a built-in
    /// DLL (only their calls are logged) and a name one it exports.
    pub fn parse(text: &str) -> Result<RelayFilter, String> {
        let mut entries = Vec::new();
        for item in text.split(',').map(str::trim) {
            if item.is_empty() {
                continue;
            }
            let (module, rest) = match item.split_once('!') {
                Some((m, r)) => (m, r.to_string()),
                None => match item.split_once('.') {
                    Some((m, n)) if n.bytes().all(|b| b.is_ascii_digit()) && !n.is_empty() => {
                        (m, format!("#{n}"))
                    }
                    _ => {
                        return Err(format!(
                            "--events {text}: '{item}' is not MODULE!NAME, MODULE!#N, MODULE.N, \
                             MODULE!PREFIX* or MODULE!*"
                        ));
                    }
                },
            };
            if !sysexport::is_builtin(module) {
                return Err(format!(
                    "--events {text}: {module} is not a built-in DLL (the relay log shows their \
                     calls)"
                ));
            }
            let upper = module.to_ascii_uppercase();
            let pattern = if rest == "*" {
                Pattern::All
            } else if let Some(p) = rest.strip_suffix('*') {
                Pattern::Prefix(p.to_ascii_uppercase())
            } else if let Some(n) = rest.strip_prefix('#') {
                let o = n.parse().map_err(|_| {
                    format!("--events {text}: '{item}': #N needs a decimal ordinal")
                })?;
                Pattern::Ordinal(sysexport::function(&upper, None, Some(o))?)
            } else {
                Pattern::Ordinal(sysexport::function(&upper, Some(&rest), None)?)
            };
            entries.push((upper, pattern));
        }
        if entries.is_empty() {
            return Err(format!("--events {text}: no function named"));
        }
        Ok(RelayFilter { entries })
    }

    /// Does the filter keep a call of `module`'s export `ordinal`, named
    /// `name` in the API table?
    pub fn keeps_call(&self, module: &str, ordinal: u16, name: &str) -> bool {
        let sdk = crate::loader::ordnames::ordinal_name(module, ordinal).unwrap_or("");
        self.entries.iter().any(|(m, p)| {
            m.eq_ignore_ascii_case(module)
                && match p {
                    Pattern::All => true,
                    Pattern::Ordinal(o) => *o == ordinal,
                    Pattern::Prefix(pre) => [name, sdk]
                        .iter()
                        .any(|n| n.to_ascii_uppercase().starts_with(pre.as_str())),
                }
        })
    }

    /// Does the filter keep this event of the log (`CS:IP text`)? Only
    /// the calls it matches: `call MODULE.NAME(...)`.
    pub fn keeps_event(&self, event: &str) -> bool {
        let Some(call) = event.split_once(" call ").map(|(_, c)| c) else {
            return false;
        };
        let Some((module, rest)) = call.split_once('.') else {
            return false;
        };
        let name = rest.split('(').next().unwrap_or("");
        let ordinal = sysexport::ordinal_of(module, name).or_else(|| {
            super::api::all()
                .find(|a| {
                    a.module.eq_ignore_ascii_case(module) && a.name.eq_ignore_ascii_case(name)
                })
                .map(|a| a.ordinal)
        });
        ordinal.is_some_and(|o| self.keeps_call(module, o, name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Ordinals from the Windows 3.1 SDK: GDI.33 TextOut, KERNEL.5
    // LocalAlloc, USER.108 GetMessage.
    #[test]
    fn entries_match_by_module_and_function_in_any_case() {
        let f = RelayFilter::parse("gdi!textout,KERNEL.5").unwrap();
        assert!(f.keeps_call("GDI", 33, "TEXTOUT"));
        assert!(f.keeps_call("KERNEL", 5, "LOCALALLOC"));
        assert!(!f.keeps_call("GDI", 20, "MOVETO"));
        assert!(!f.keeps_call("USER", 108, "GETMESSAGE"));
        let all = RelayFilter::parse("USER!*").unwrap();
        assert!(all.keeps_call("USER", 108, "GETMESSAGE"));
        assert!(!all.keeps_call("GDI", 33, "TEXTOUT"));
        let get = RelayFilter::parse("USER!Get*").unwrap();
        assert!(get.keeps_call("USER", 108, "GETMESSAGE"));
        assert!(!get.keeps_call("USER", 109, "TRANSLATEMESSAGE"));
    }

    #[test]
    fn events_other_than_matching_calls_are_left_out() {
        let f = RelayFilter::parse("GDI!TextOut").unwrap();
        assert!(
            f.keeps_event("1057:0125 call GDI.TEXTOUT(0001, 0002) -> 0000:0001 from 1057:0125")
        );
        assert!(!f.keeps_event("1057:0125 call GDI.MOVETO(0001) -> 0000:0001 from 1057:0125"));
        assert!(!f.keeps_event("0100:0005 INT 21h AH=09h"));
    }

    #[test]
    fn a_bad_filter_says_what_is_wrong() {
        for (text, says) in [
            ("DEMO!*", "not a built-in DLL"),
            ("GDI!Frobnicate", "exports no function named Frobnicate"),
            ("USER", "is not MODULE!NAME"),
            ("GDI!#x", "#N needs a decimal ordinal"),
            (",", "no function named"),
        ] {
            let e = RelayFilter::parse(text).unwrap_err();
            assert!(e.contains(says), "{text}: {e}");
        }
    }
}
