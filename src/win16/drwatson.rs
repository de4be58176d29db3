//! What Windows 3.1 told the user and the log about a fault nobody handled
//! (win16.md, "Faults"): the line of the Application Error box, and a
//! failure report laid out as Dr. Watson 0.80 wrote it to DRWATSON.LOG
//! (the layout of the sample log in the Windows 3.1 SDK's "Programming
//! Tools", chapter 6: the "had a '...' fault at" line, the `$tag$` line,
//! "CPU Registers (regs)" with the flags as letters, one line per segment
//! register with its linear base, limit and type, then the stack).
//!
//! The fault names follow Dr. Watson's wording where the SDK shows it
//! ("Exceed Segment Bounds (Read)"); the others are this tool's, in the
//! same style. The report has no date: runs must be reproducible.

use crate::machine::{Cause, Fault, fault_name};
use crate::walk::{StackTraceEntry, Walk, WalkMemory};

use super::Win16;

/// A module's name for an hModule.
fn module_name(w: &Win16, hmodule: u16) -> Option<&str> {
    w.module_by_handle(hmodule).map(|m| m.name.as_str())
}

/// "MODULE seg:off" for a code address, as Dr. Watson names a place
/// without symbols (lower-case hex, the NE segment number).
fn place(w: &Win16, mem: &dyn WalkMemory, cs: u16, ip: u16) -> String {
    match mem.code_owner(cs) {
        Some(o) => format!(
            "{} {}:{ip:04x}",
            module_name(w, o.hmodule).unwrap_or("?"),
            o.segment.unwrap_or(0)
        ),
        None => format!("{cs:04x}:{ip:04x}"),
    }
}

/// The name of the task running now.
pub fn task_module(w: &Win16, htask: u16) -> Option<String> {
    let t = w.task(htask)?;
    module_name(w, t.hmodule).map(str::to_string)
}

/// The line of Windows 3.1's Application Error box for an unhandled fault
/// in a Win16 task: "APP caused a General Protection Fault in module
/// MODULE.EXE at 0002:0094." (the segment is the NE segment number). None
/// when the faulting code belongs to no module.
pub fn application_error(w: &Win16, mem: &dyn WalkMemory, htask: u16, f: &Fault) -> Option<String> {
    let owner = mem.code_owner(f.cs)?;
    let module = w.modules.iter().find(|m| m.hmodule == owner.hmodule)?;
    let file = module
        .path
        .as_ref()
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().to_ascii_uppercase())
        .unwrap_or_else(|| format!("{}.DLL", module.name));
    let app = task_module(w, htask).unwrap_or_else(|| module.name.clone());
    let what = match f.number {
        13 => "a General Protection Fault".to_string(),
        n => format!("an exception {n} ({})", fault_name(n)),
    };
    Some(format!(
        "{app} caused {what} in module {file} at {:04X}:{:04X}.",
        owner.segment.unwrap_or(0),
        f.ip
    ))
}

/// Dr. Watson's name for a fault.
pub fn fault_title(f: &Fault) -> String {
    match (&f.cause, f.number) {
        (
            Some(Cause::Access {
                write, selector, ..
            }),
            _,
        ) => {
            let rw = if *write { "Write" } else { "Read" };
            if selector & !3 == 0 {
                format!("Null Selector ({rw})")
            } else if f.number == 12 {
                format!("Stack Fault ({rw})")
            } else {
                format!("Exceed Segment Bounds ({rw})")
            }
        }
        (Some(Cause::SelectorLoad { register, .. }), _) => {
            format!("Invalid Selector Load ({register})")
        }
        (Some(Cause::CodeLimit { .. }), _) => "Exceed Segment Bounds (Execute)".into(),
        (None, 0) => "Divide by Zero".into(),
        (None, 1) => "Single Step".into(),
        (None, 3) => "Breakpoint".into(),
        (None, 6) => "Invalid Opcode".into(),
        (None, 12) => "Stack Fault".into(),
        (None, 13) => "General Protection Fault".into(),
        (None, n) => format!("Exception {n}"),
    }
}

/// The flags as Dr. Watson printed them: "O- D- I+ S- Z- A+ P+ C-".
fn flags(v: u16) -> String {
    [
        ('O', 11),
        ('D', 10),
        ('I', 9),
        ('S', 7),
        ('Z', 6),
        ('A', 4),
        ('P', 2),
        ('C', 0),
    ]
    .iter()
    .map(|&(c, bit)| format!("{c}{}", if v >> bit & 1 == 1 { '+' } else { '-' }))
    .collect::<Vec<_>>()
    .join(" ")
}

/// One segment register's line: "cs = 0e57  8059fbc0:083f Code Ex/R".
fn segment_line(mem: &dyn WalkMemory, name: &str, sel: u16) -> String {
    match mem.descriptor(sel) {
        _ if sel & !3 == 0 => format!("{name} = {sel:04x}         0:0000 Null Ptr"),
        Some(d) => {
            let kind = if d.is_code() {
                if d.access & 0x02 != 0 {
                    "Code Ex/R"
                } else {
                    "Code Ex"
                }
            } else if d.access & 0x02 != 0 {
                "Data R/W"
            } else {
                "Data R/O"
            };
            format!("{name} = {sel:04x}  {:08x}:{:04x} {kind}", d.base, d.limit)
        }
        None => format!("{name} = {sel:04x}  invalid selector"),
    }
}

/// The failure report, one line per element. `instruction` is the
/// faulting instruction's text.
pub fn report(
    w: &Win16,
    mem: &dyn WalkMemory,
    htask: u16,
    f: &Fault,
    instruction: &str,
    walk: &Walk,
    symbol: &dyn Fn(usize, &StackTraceEntry) -> Option<String>,
) -> Vec<String> {
    let app = task_module(w, htask).unwrap_or_else(|| format!("{htask:04X}"));
    let title = fault_title(f);
    let at = place(w, mem, f.cs, f.ip);
    let r = &f.regs;
    let mut out = vec![
        "Dr. Watson 0.80 Failure Report".to_string(),
        format!("{app} had a '{title}' fault at {at}"),
        format!("$tag${app}${title}${at}${instruction}$"),
        "CPU Registers (regs)".to_string(),
        format!(
            "ax={:04x}  bx={:04x}  cx={:04x}  dx={:04x}  si={:04x}  di={:04x}",
            r.ax, r.bx, r.cx, r.dx, r.si, r.di
        ),
        format!(
            "ip={:04x}  sp={:04x}  bp={:04x}  {}",
            r.ip,
            r.sp,
            r.bp,
            flags(r.flags)
        ),
    ];
    for (name, sel) in [("cs", r.cs), ("ss", r.ss), ("ds", r.ds), ("es", r.es)] {
        out.push(segment_line(mem, name, sel));
    }
    out.push("Stack Dump (stack)".to_string());
    for (i, e) in walk.frames.iter().enumerate() {
        out.push(frame_line(w, mem, i, e, symbol(i, e)));
    }
    out
}

/// A stack frame line; with a symbol (symbols/mod.rs), its name after the
/// frame, as the debuggers that loaded .SYM files showed it.
fn frame_line(
    w: &Win16,
    mem: &dyn WalkMemory,
    i: usize,
    e: &StackTraceEntry,
    symbol: Option<String>,
) -> String {
    let line = format!(
        "Stack Frame {i} is  {:<30} ss:bp {:04x}:{:04x}",
        place(w, mem, e.w_cs, e.w_ip),
        e.w_ss,
        e.w_bp
    );
    match symbol {
        Some(s) => format!("{line}  {s}"),
        None => line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_read_as_dr_watson_printed_them() {
        // The SDK sample: I, A and P set.
        assert_eq!(flags(0x0216), "O- D- I+ S- Z- A+ P+ C-");
        assert_eq!(flags(0x0CC1), "O+ D+ I- S+ Z+ A- P- C+");
    }

    #[test]
    fn fault_titles_follow_the_cause() {
        let regs = crate::machine::Regs::default();
        let access = |write, selector| Cause::Access {
            segment: "DS",
            selector,
            offset: 0xFFFE,
            size: 2,
            write,
            limit: Some(0x9FF),
            linear: None,
        };
        let f = |n, c: Option<Cause>| match c {
            Some(c) => Fault::with_cause(n, regs, c),
            None => Fault::new(n, regs, ""),
        };
        assert_eq!(
            fault_title(&f(13, Some(access(false, 0x103F)))),
            "Exceed Segment Bounds (Read)"
        );
        assert_eq!(
            fault_title(&f(13, Some(access(true, 0x103F)))),
            "Exceed Segment Bounds (Write)"
        );
        assert_eq!(
            fault_title(&f(13, Some(access(false, 0)))),
            "Null Selector (Read)"
        );
        assert_eq!(fault_title(&f(0, None)), "Divide by Zero");
        assert_eq!(fault_title(&f(6, None)), "Invalid Opcode");
    }
}
