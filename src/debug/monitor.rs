//! The commands that show the project's own views at a stop: gdb's
//! `monitor` commands, and the views of the `debug` session (which adds
//! its own commands to move the program). Each returns its text, or an
//! error message.

use super::{Here, Watch, WatchKind, views};

/// The commands, for `monitor help`.
pub const HELP: &str = "\
monitor commands (LOC is SEG:OFF, MODULE:SEG:OFF, MODULE!NAME, MODULE!#N or MODULE.N,
any of them +prologue (after the function's prologue),
a system function too: USER!GetMessage, GDI!#20, KERNEL.91;
break and delete also take +N, the instruction at position N):
  stack [--explain]   the ToolHelp walk at the stop (StackTraceCSIPFirst, StackTraceNext)
  where               CS:IP, its MODULE:SEG:OFF and symbol, the linear address, the position
  regs                the 16-bit registers
  tasks               every task's TASKENTRY (Win16)
  modules             the loaded modules and their segments' selectors
  selector SEL        a selector's descriptor
  x[/N[b|w]] LOC      N bytes or words of memory at LOC (SEG:OFF, or a register pair DS:SI ...)
  disasm [N] [LOC]    N instructions from LOC (default: 10 from CS:IP)
  break LOC           a breakpoint at LOC; delete LOC removes it
  watch LOC [LEN]     a write watchpoint (rwatch, awatch: read, access)
  breakpoints         the breakpoints and watchpoints, linear and SEG:OFF
  list [FILE:LINE|FUNC] the source around the stop's line (or that line, or FUNC's first),
                      from the program's debug information; break FILE:LINE also works
  screenshot NAME.png the screen as a PNG (Win16's, or a DOS program's VGA): a new file NAME.png in
                      the directory toolhelp16 was started in (no directories)
  position            instructions run before this stop (reverse execution counts in them)
  digest              hashes of the whole state: memory, VGA planes, console output, the clock
  hooks               whether the program ran to this stop without the hook on every instruction
";

/// The file a monitor command writes: `name` must be a plain file name
/// (no directory part, not hidden) ending in `ext`, and is created new in
/// the directory toolhelp16 was started in, its output directory. A gdb
/// client (anyone who reaches the port) or a commands file chooses the
/// name, so no name reaches another directory (`../`, `/`, `\`, a drive)
/// and no existing file (nor a link, which `create_new` does not follow)
/// is replaced.
pub fn new_output_file(cmd: &str, name: &str, ext: &str) -> Result<std::fs::File, String> {
    let plain = !name.is_empty()
        && name.len() <= 255
        && !name.starts_with('.')
        && !name.contains(['/', '\\', ':', '\0'])
        && name.len() > ext.len()
        && name.is_char_boundary(name.len() - ext.len())
        && name[name.len() - ext.len()..].eq_ignore_ascii_case(ext);
    if !plain {
        return Err(format!(
            "{cmd} {name}: not a plain file name ending in {ext}; monitor commands write only \
             new files in the directory toolhelp16 was started in (no directory part)"
        ));
    }
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(name)
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::AlreadyExists => format!(
                "{cmd} {name}: a file of that name exists; monitor commands create new files \
                 only"
            ),
            _ => format!("{cmd} {name}: {e}"),
        })
}

/// A SEG:OFF where either part may be a register name (`SS:SP`, `DS:0010`),
/// or any location `stack --at` takes.
pub fn seg_off(h: &mut Here<'_, '_>, text: &str) -> Result<(u16, u16), String> {
    if let Some((a, b)) = text.split_once(':')
        && !b.contains(':')
    {
        let part = |t: &str| -> Result<u16, String> {
            match reg_value(h, t) {
                Some(v) => Ok(v),
                None => {
                    let t = t.trim_start_matches("0x").trim_start_matches("0X");
                    u16::from_str_radix(t, 16).map_err(|_| {
                        format!("'{t}' is neither a register nor a hexadecimal number")
                    })
                }
            }
        };
        if let (Ok(s), Ok(o)) = (part(a), part(b)) {
            return Ok((s, o));
        }
    }
    h.resolve_mut(text)
}

fn reg_value(h: &Here<'_, '_>, name: &str) -> Option<u16> {
    let r = h.regs();
    Some(match name.to_ascii_lowercase().as_str() {
        "ax" => r.ax,
        "bx" => r.bx,
        "cx" => r.cx,
        "dx" => r.dx,
        "si" => r.si,
        "di" => r.di,
        "bp" => r.bp,
        "sp" => r.sp,
        "ip" => r.ip,
        "cs" => r.cs,
        "ds" => r.ds,
        "es" => r.es,
        "ss" => r.ss,
        "fs" => r.fs,
        "gs" => r.gs,
        _ => return None,
    })
}

/// `x/N[b|w]`: count and unit size from the suffix (default 8 words).
fn x_format(cmd: &str) -> Result<(usize, usize), String> {
    let Some(fmt) = cmd.strip_prefix("x/") else {
        return Ok((8, 2));
    };
    let digits: String = fmt.chars().take_while(|c| c.is_ascii_digit()).collect();
    let count = if digits.is_empty() {
        8
    } else {
        digits
            .parse::<usize>()
            .map_err(|_| format!("'{cmd}': the count is too large"))?
    };
    let rest = &fmt[digits.len()..];
    let unit = match rest.trim_start_matches('x') {
        "" | "h" | "w" => 2,
        "b" => 1,
        _ => return Err(format!("'{cmd}': the unit is b (bytes) or w (words)")),
    };
    Ok((count.min(4096), unit))
}

/// `+N`: a position.
fn position(text: &str) -> Result<u64, String> {
    text.strip_prefix('+')
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| format!("'{text}': +N needs a decimal instruction count"))
}

/// Run one view command; Ok(None) when `line` is not one.
pub fn run(h: &mut Here<'_, '_>, line: &str) -> Result<Option<String>, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(&cmd) = words.first() else {
        return Ok(None);
    };
    let args = &words[1..];
    let text = match cmd {
        "help" => HELP.to_string(),
        "stack" | "bt" | "backtrace" => {
            if args.contains(&"--explain") {
                views::explain_text(h)
            } else {
                views::stack_text(h)
            }
        }
        "where" => views::where_text(h),
        "regs" | "registers" => views::regs_text(&h.regs()),
        "tasks" => views::tasks_text(h),
        "modules" => views::modules_text(h),
        "position" => format!("{}\n", h.pos),
        "digest" => views::digest_text(h),
        "hooks" => match h.ran_without_hook() {
            (Some(_), true) => "ran to this stop with code hooks on the breakpoints only\n".into(),
            (Some(p), false) => format!(
                "ran with code hooks on the breakpoints only to position {p}, then with the hook on every instruction\n"
            ),
            (None, _) => "ran to this stop with the hook on every instruction\n".into(),
        },
        "selector" => {
            let s = args.first().ok_or("selector SEL: which selector?")?;
            let sel = match reg_value(h, s) {
                Some(v) => v,
                None => u16::from_str_radix(s.trim_start_matches("0x"), 16).map_err(|_| {
                    format!("'{s}' is neither a segment register nor a hexadecimal selector")
                })?,
            };
            views::selector_text(h, sel)
        }
        c if c == "x" || c.starts_with("x/") => {
            let (count, unit) = x_format(c)?;
            let at = args.first().ok_or("x: at which SEG:OFF?")?;
            let (seg, off) = seg_off(h, at)?;
            views::memory_text(h, seg, off, count, unit)
        }
        "disasm" | "u" => {
            let mut count = 10usize;
            let r = h.regs();
            let mut at = (r.cs, r.ip);
            for a in args {
                match a.parse::<usize>() {
                    Ok(n) => count = n.min(1000),
                    Err(_) => at = seg_off(h, a)?,
                }
            }
            views::disasm_text(h, at.0, at.1, count)
        }
        "break" | "b" if args.first().is_some_and(|a| a.starts_with('+')) => {
            let n = position(args[0])?;
            h.add_position_break(n);
            let when = if n <= h.pos {
                "; it is behind: reverse-continue goes back to it"
            } else {
                ""
            };
            format!("breakpoint at position {n}{when}\n")
        }
        "delete" if args.first().is_some_and(|a| a.starts_with('+')) => {
            let n = position(args[0])?;
            if !h.remove_position_break(n) {
                return Err(format!("no breakpoint at position {n}"));
            }
            format!("deleted the breakpoint at position {n}\n")
        }
        "list" | "l" => super::source::list_text(h, args)?,
        "break" | "b" => {
            let at = args.first().ok_or("break LOC: where?")?;
            let (seg, off) = match super::source::parse_file_line(at) {
                Some((file, line)) => super::source::line_address(h, file, line)?,
                None => seg_off(h, at)?,
            };
            let lin = h
                .linear(seg, off)
                .ok_or_else(|| format!("{seg:04X}:{off:04X}: no such segment"))?;
            h.add_breakpoint(lin);
            format!("breakpoint at {seg:04X}:{off:04X} (linear {lin:#x})\n")
        }
        "delete" => {
            let at = args.first().ok_or("delete LOC: which breakpoint?")?;
            // What `break` takes: FILE:LINE too.
            let (seg, off) = match super::source::parse_file_line(at) {
                Some((file, line)) => super::source::line_address(h, file, line)?,
                None => seg_off(h, at)?,
            };
            let lin = h.linear(seg, off).unwrap_or(u64::MAX);
            if h.remove_breakpoint(lin) {
                format!("deleted the breakpoint at {seg:04X}:{off:04X}\n")
            } else {
                // The watchpoints that start there, of any kind and length.
                let mut s = String::new();
                for w in h.watches().into_iter().filter(|w| w.addr == lin) {
                    if h.remove_watch(w)? {
                        s.push_str(&format!(
                            "deleted the {} watchpoint on {} bytes at {seg:04X}:{off:04X}\n",
                            w.kind.word(),
                            w.len
                        ));
                    }
                }
                if s.is_empty() {
                    return Err(format!(
                        "no breakpoint or watchpoint at {seg:04X}:{off:04X}"
                    ));
                }
                s
            }
        }
        "watch" | "rwatch" | "awatch" => {
            let at = args.first().ok_or("watch LOC [LEN]: where?")?;
            let (seg, off) = seg_off(h, at)?;
            let len = match args.get(1) {
                Some(n) => n
                    .parse::<u64>()
                    .map_err(|_| format!("'{n}' is not a length in bytes"))?,
                None => 2,
            };
            let lin = h
                .linear(seg, off)
                .ok_or_else(|| format!("{seg:04X}:{off:04X}: no such segment"))?;
            let kind = match cmd {
                "watch" => WatchKind::Write,
                "rwatch" => WatchKind::Read,
                _ => WatchKind::Access,
            };
            h.add_watch(Watch {
                kind,
                addr: lin,
                len,
            })?;
            format!(
                "{} watchpoint on {len} bytes at {seg:04X}:{off:04X} (linear {lin:#x})\n",
                kind.word()
            )
        }
        "breakpoints" | "info" => {
            let mut s = String::new();
            for n in h.position_breaks() {
                s.push_str(&format!("breakpoint at position {n}\n"));
            }
            for b in h.breakpoints() {
                s.push_str(&format!(
                    "breakpoint at {}\n",
                    views::breakpoint_place(h, b)
                ));
            }
            for w in h.watches() {
                let at = match views::seg_off_of_linear(h, w.addr) {
                    Some((seg, off)) => format!("{seg:04X}:{off:04X} (linear {:#x})", w.addr),
                    None => format!("linear {:#x}", w.addr),
                };
                s.push_str(&format!(
                    "{} watchpoint on {} bytes at {at}\n",
                    w.kind.word(),
                    w.len,
                ));
            }
            if s.is_empty() {
                s.push_str("no breakpoints or watchpoints\n");
            }
            s
        }
        "screenshot" => {
            let path = args.first().ok_or("screenshot FILE: to which file?")?;
            let env = h.env().ok_or("the environment is busy at this stop")?;
            let png = if h.mode() == crate::walk::CpuMode::Protected {
                crate::win16::gdi::screen::current_png(&env.win16.gdi)?
            } else {
                crate::dos::picture::render(h.uc()).png()?
            };
            let mut file = new_output_file("screenshot", path, ".png")?;
            std::io::Write::write_all(&mut file, &png)
                .map_err(|e| format!("screenshot {path}: {e}"))?;
            format!("wrote {path} ({} bytes)\n", png.len())
        }
        _ => return Ok(None),
    };
    Ok(Some(text))
}
