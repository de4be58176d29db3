//! What the debugger shows at a stop, for both front ends: the registers,
//! the ToolHelp walk (as `stack` prints it), where the program is, tasks,
//! modules, a selector's descriptor, memory and disassembly. Each view
//! reads the machine through [`Here`] and returns text.

use crate::machine::{Cpu, Regs, Stop, fault_name};
use crate::report::{Namer, Place};
use crate::session::MAX_FRAMES;
use crate::walk::{CpuMode, StackTraceEntry, Walk, WalkMemory, walk_from_csip};

use super::{Here, Why};

/// Names for frames, from the machine's environment (for the stack
/// picture of `serve`'s pages too).
pub struct Names<'h, 'a, 'b>(pub &'h Here<'a, 'b>);

impl Namer for Names<'_, '_, '_> {
    fn module(&self, frame: &StackTraceEntry) -> Option<String> {
        module_name(self.0, frame)
    }
    fn symbol(&self, cs: u16, ip: u16, exact: bool) -> Option<String> {
        let env = self.0.env()?;
        env.frame_symbol(self.0.uc() as &dyn WalkMemory, cs, ip, exact)
            .map(|s| s.to_string())
    }
}

/// The module owning a frame's code (as `Program::module_name`).
fn module_name(h: &Here<'_, '_>, frame: &StackTraceEntry) -> Option<String> {
    match h.mode() {
        CpuMode::Protected => h
            .env()?
            .win16
            .modules
            .iter()
            .find(|m| m.hmodule == frame.h_module && frame.h_module != 0)
            .map(|m| m.name.clone()),
        CpuMode::Real => {
            WalkMemory::code_owner(h.uc(), frame.w_cs)?;
            h.path
                .file_stem()
                .map(|s| s.to_string_lossy().to_ascii_uppercase())
        }
    }
}

/// One line for a stop, as a debugger says it.
pub fn describe(h: &Here<'_, '_>) -> String {
    let r = h.regs();
    let at = format!("{:04X}:{:04X}", r.cs, r.ip);
    match &h.why {
        Why::Start if h.pos > 0 => format!("resumed at position {}, at {at}", h.pos),
        Why::Start => format!("the program is loaded, at {at}"),
        Why::Step => format!("stepped to {at}"),
        // A breakpoint at a position (`break +N`, serve's "go to"):
        // where the run stands says more than the address alone.
        Why::Breakpoint if h.position_breaks().contains(&h.pos) => {
            format!("breakpoint at position {}, at {at}", h.pos)
        }
        Why::Breakpoint => format!("breakpoint at {at}"),
        Why::Watch { kind, addr } => format!(
            "{} watchpoint: linear {addr:#x} was {}; stopped at {at}, after the instruction",
            kind.word(),
            match kind {
                super::WatchKind::Write => "written",
                super::WatchKind::Read => "read",
                super::WatchKind::Access => "accessed",
            }
        ),
        Why::Fault(f) => format!(
            "{} (exception {}) at {:04X}:{:04X}: {}",
            fault_name(f.number),
            f.number,
            f.cs,
            f.ip,
            f.detail
        ),
        Why::Interrupted => format!("interrupted at {at}"),
        Why::HistoryStart => format!("at the start of the recorded history, {at}"),
        Why::Ended(s) => format!(
            "the program has ended: {}",
            crate::session::describe_stop(s)
        ),
    }
}

/// The registers, as `regs` prints them.
pub fn regs_text(r: &Regs) -> String {
    let flags = [
        (0x800, 'O'),
        (0x400, 'D'),
        (0x200, 'I'),
        (0x080, 'S'),
        (0x040, 'Z'),
        (0x010, 'A'),
        (0x004, 'P'),
        (0x001, 'C'),
    ]
    .iter()
    .map(|&(bit, c)| if r.flags & bit != 0 { c } else { '-' })
    .collect::<String>();
    format!(
        "AX={:04X} BX={:04X} CX={:04X} DX={:04X} SI={:04X} DI={:04X} BP={:04X} SP={:04X}\n\
         CS={:04X} IP={:04X} DS={:04X} ES={:04X} SS={:04X} FS={:04X} GS={:04X} FLAGS={:04X} {flags}\n",
        r.ax,
        r.bx,
        r.cx,
        r.dx,
        r.si,
        r.di,
        r.bp,
        r.sp,
        r.cs,
        r.ip,
        r.ds,
        r.es,
        r.ss,
        r.fs,
        r.gs,
        r.flags
    )
}

/// The ToolHelp walk at the stop: StackTraceCSIPFirst at the stopped
/// context, then StackTraceNext, through TOOLHELP's fault dispatch frame
/// inside an InterruptRegister callback (as `Program::walk_at_stop`).
/// None when the program has ended.
pub fn walk(h: &Here<'_, '_>) -> Option<Walk> {
    if let Why::Ended(Stop::Exited { .. }) = h.why {
        return None;
    }
    let r = h.regs();
    let mem = h.uc() as &dyn WalkMemory;
    let w = walk_from_csip(mem, r.ss, r.cs, r.ip, r.bp, MAX_FRAMES);
    let dispatch = h.env().and_then(crate::win16::fault::pass_on_address);
    Some(match dispatch {
        Some(d) => crate::walk::dispatch::through_dispatch(mem, w, d, MAX_FRAMES),
        None => w,
    })
}

/// The symbol of frame `i` (exact for the first frame and a dispatch's).
fn frame_symbol(h: &Here<'_, '_>, w: &Walk, i: usize) -> Option<String> {
    let f = &w.frames[i];
    Names(h).symbol(f.w_cs, f.w_ip, w.exact_at(i))
}

/// `monitor stack` / `bt`: the walk as `stack` prints its table.
pub fn stack_text(h: &Here<'_, '_>) -> String {
    let Some(w) = walk(h) else {
        return "no stack: the program has ended\n".into();
    };
    let mut s = String::from("walk by StackTraceCSIPFirst, then StackTraceNext\n");
    if !w.virtual_frames.is_empty() {
        s.push_str(
            "  (inside a fault callback: the walk goes on through TOOLHELP's dispatch frame from the faulting CS:IP and BP)\n",
        );
    }
    s.push_str("  #  hTask  SS:BP      CS:IP      module      seg  kind   symbol\n");
    for (i, f) in w.frames.iter().enumerate() {
        let module = module_name(h, f)
            .map(|m| crate::escape::name(&m).into_owned())
            .unwrap_or_else(|| "-".into());
        let seg = if f.w_segment == 0 {
            "-".to_string()
        } else {
            f.w_segment.to_string()
        };
        let kind = if w.virtual_frames.contains(&i) {
            "far, virtual: fault dispatch"
        } else if f.w_flags == StackTraceEntry::FRAME_NEAR {
            "near"
        } else {
            "far"
        };
        let line = h.env().and_then(|env| {
            env.frame_line(h.uc() as &dyn WalkMemory, f.w_cs, f.w_ip, w.exact_at(i))
        });
        let sym = crate::symbols::lines::symbol_cell(frame_symbol(h, &w, i), line.as_ref());
        s.push_str(&format!(
            "{i:>3}  {:04X}   {:04X}:{:04X}  {:04X}:{:04X}  {module:<10}  {seg:>3}  {kind:<5}  {sym}\n",
            f.h_task, f.w_ss, f.w_bp, f.w_cs, f.w_ip
        ));
        if let Some(env) = h.env() {
            s.push_str(&crate::symbols::lines::params_line(&env.frame_params(
                h.uc() as &dyn WalkMemory,
                f,
                w.exact_at(i),
            )));
        }
    }
    s.push_str(&format!("walk ended: {}\n", w.stop));
    s
}

/// `monitor stack --explain`: the walk told rule by rule.
pub fn explain_text(h: &Here<'_, '_>) -> String {
    if walk(h).is_none() {
        return "no stack: the program has ended\n".into();
    }
    let r = h.regs();
    let mem = h.uc() as &dyn WalkMemory;
    let mut rules = Vec::new();
    let w =
        crate::walk::walk_from_csip_narrated(mem, r.ss, r.cs, r.ip, r.bp, MAX_FRAMES, &mut rules);
    let w = match h.env().and_then(crate::win16::fault::pass_on_address) {
        Some(d) => {
            crate::walk::dispatch::through_dispatch_narrated(mem, w, d, MAX_FRAMES, &mut rules)
        }
        None => w,
    };
    let e = crate::report::explain::Explained {
        walk: w,
        rules,
        note: None,
    };
    crate::report::explain::text(&crate::report::explain::lines(mem, &Names(h), &e))
}

/// `monitor where`: CS:IP, its MODULE:SEG:OFF and symbol, and the linear
/// address gdb uses for it.
pub fn where_text(h: &Here<'_, '_>) -> String {
    let r = h.regs();
    let mem = h.uc() as &dyn WalkMemory;
    let owner = mem.code_owner(r.cs);
    let frame = StackTraceEntry {
        h_task: mem.current_task(),
        w_ss: r.ss,
        w_bp: r.bp,
        w_cs: r.cs,
        w_ip: r.ip,
        h_module: owner.map(|o| o.hmodule).unwrap_or(0),
        w_segment: owner.and_then(|o| o.segment).unwrap_or(0),
        dw_size: StackTraceEntry::SIZE as u32,
        w_flags: StackTraceEntry::FRAME_FAR,
    };
    let place = Place::of(mem, &Names(h), &frame, true);
    format!(
        "{:04X}:{:04X} = {} (linear {:#x}); position {}\n{}{}\n",
        r.cs,
        r.ip,
        place.full(),
        h.pc(),
        h.pos,
        super::source::here_text(h).unwrap_or_default(),
        describe(h)
    )
}

/// `monitor tasks`: TOOLHELP's TASKENTRY of every task.
pub fn tasks_text(h: &Here<'_, '_>) -> String {
    let Some(env) = h.env() else {
        return "no tasks\n".into();
    };
    let tasks = crate::win16::toolhelp::task_entries(env, h.uc());
    if tasks.is_empty() {
        return "no Win16 tasks (a DOS program)\n".into();
    }
    let mut s = String::from("hTask  hModule  hInst  SS:SP      module    current\n");
    let current = h.uc().get_data().current_task;
    for t in tasks {
        let n = t
            .sz_module
            .iter()
            .position(|&c| c == 0)
            .unwrap_or(t.sz_module.len());
        let name = String::from_utf8_lossy(&t.sz_module[..n]).into_owned();
        s.push_str(&format!(
            "{:04X}   {:04X}     {:04X}   {:04X}:{:04X}  {:<8}  {}\n",
            t.h_task,
            t.h_module,
            t.h_inst,
            t.w_ss,
            t.w_sp,
            crate::escape::name(&name),
            if t.h_task == current { "*" } else { "" }
        ));
    }
    s
}

/// `monitor modules`: the loaded modules and their segments' selectors.
pub fn modules_text(h: &Here<'_, '_>) -> String {
    let Some(env) = h.env() else {
        return "no modules\n".into();
    };
    let mut s = String::new();
    if h.mode() == CpuMode::Real {
        if let Some(p) = &env.dos_program {
            s.push_str(&format!(
                "{} (DOS program, load segment {:04X})\n",
                h.path.display(),
                p.base_seg
            ));
        }
        return s;
    }
    s.push_str("hModule  module    kind      segments (selector by number)\n");
    for m in &env.win16.modules {
        let segs = m
            .segments
            .iter()
            .enumerate()
            .map(|(i, sel)| format!("{}={sel:04X}", i + 1))
            .collect::<Vec<_>>()
            .join(" ");
        s.push_str(&format!(
            "{:04X}     {:<8}  {:<8}  {}\n",
            m.hmodule,
            crate::escape::name(&m.name),
            if m.builtin { "built-in" } else { "file" },
            segs
        ));
    }
    s
}

/// `monitor selector SEL`: the descriptor (protected mode) or the
/// real-mode segment.
pub fn selector_text(h: &Here<'_, '_>, sel: u16) -> String {
    match h.uc().descriptor_of(sel) {
        None => format!("{sel:04X}: no such selector (not present in the GDT or LDT)\n"),
        Some(d) if h.mode() == CpuMode::Real => {
            format!(
                "{sel:04X}: real-mode segment, base {:#07x}, limit FFFF\n",
                d.base
            )
        }
        Some(d) => {
            let kind = if d.access & 0x10 == 0 {
                "system"
            } else if d.access & 0x08 != 0 {
                if d.access & 0x02 != 0 {
                    "code, readable"
                } else {
                    "code, execute-only"
                }
            } else if d.access & 0x02 != 0 {
                "data, writable"
            } else {
                "data, read-only"
            };
            format!(
                "{sel:04X}: {} index {}, RPL {}: base {:#010x}, limit {:04X}, access {:02X} ({kind}, DPL {}, {})\n",
                if sel & 4 != 0 { "LDT" } else { "GDT" },
                sel >> 3,
                sel & 3,
                d.base,
                d.limit,
                d.access,
                (d.access >> 5) & 3,
                if d.access & 0x80 != 0 {
                    "present"
                } else {
                    "not present"
                }
            )
        }
    }
}

/// `x/N[b|w] SEG:OFF`: `count` units of `unit` bytes (1 or 2) at `seg:off`.
pub fn memory_text(h: &Here<'_, '_>, seg: u16, off: u16, count: usize, unit: usize) -> String {
    let mut s = String::new();
    let per_line = if unit == 1 { 16 } else { 8 };
    let mut i = 0;
    while i < count {
        let o = off.wrapping_add((i * unit) as u16);
        s.push_str(&format!("{seg:04X}:{o:04X} "));
        for k in i..(i + per_line).min(count) {
            let o = off.wrapping_add((k * unit) as u16);
            let mut b = [0u8; 2];
            match h.uc().read_seg(seg, o, &mut b[..unit]) {
                Ok(()) if unit == 1 => s.push_str(&format!(" {:02X}", b[0])),
                Ok(()) => s.push_str(&format!(" {:04X}", u16::from_le_bytes(b))),
                Err(_) => s.push_str(if unit == 1 { " ??" } else { " ????" }),
            }
        }
        s.push('\n');
        i += per_line;
    }
    s
}

/// `disasm [N] [LOC]`: N instructions from `seg:off`, with the symbol of
/// each one that starts a symbol.
pub fn disasm_text(h: &Here<'_, '_>, seg: u16, off: u16, count: usize) -> String {
    use iced_x86::{Decoder, DecoderOptions, Formatter, Instruction, NasmFormatter};
    let mut bytes = vec![0u8; count.saturating_mul(15).min(0x1_0000)];
    // Read what there is, up to the segment's end.
    let mut n = bytes.len();
    while n > 0 && h.uc().read_seg(seg, off, &mut bytes[..n]).is_err() {
        n /= 2;
    }
    bytes.truncate(n);
    if bytes.is_empty() {
        return format!("{seg:04X}:{off:04X}: no code can be read there\n");
    }
    let mut d = Decoder::with_ip(16, &bytes, u64::from(off), DecoderOptions::NONE);
    let mut f = NasmFormatter::new();
    let mut s = String::new();
    let mut insn = Instruction::default();
    let here = h.regs();
    for _ in 0..count {
        if !d.can_decode() {
            break;
        }
        d.decode_out(&mut insn);
        let ip = insn.ip() as u16;
        if let Some(sym) = h
            .env()
            .and_then(|e| e.symbol_at(h.uc() as &dyn WalkMemory, seg, ip))
            .filter(|s| s.displacement == 0)
        {
            s.push_str(&format!("{}:\n", crate::escape::name(&sym.to_string())));
        }
        let mut text = String::new();
        f.format(&insn, &mut text);
        let start = (insn.ip() - u64::from(off)) as usize;
        let raw: String = bytes[start..start + insn.len()]
            .iter()
            .map(|b| format!("{b:02X}"))
            .collect();
        let mark = if seg == here.cs && ip == here.ip {
            "=>"
        } else {
            "  "
        };
        s.push_str(&format!("{mark} {seg:04X}:{ip:04X}  {raw:<14}  {text}\n"));
    }
    s
}

/// The SEG:OFF a breakpoint's linear address is in the program's terms:
/// in protected mode the code segment of a loaded module (or CS) whose
/// descriptor covers it; in real mode CS when it lies within CS's 64 KiB,
/// else the paragraph (linear / 16) and the rest.
pub fn seg_off_of_linear(h: &Here<'_, '_>, lin: u64) -> Option<(u16, u16)> {
    let r = h.regs();
    let within = |sel: u16| {
        let d = h.uc().descriptor_of(sel)?;
        let base = u64::from(d.base);
        (lin >= base && lin - base <= u64::from(d.limit).min(0xFFFF))
            .then(|| (sel, (lin - base) as u16))
    };
    if let Some(p) = within(r.cs) {
        return Some(p);
    }
    match h.mode() {
        CpuMode::Protected => h
            .env()?
            .win16
            .modules
            .iter()
            .flat_map(|m| m.segments.iter().copied())
            .find_map(within),
        CpuMode::Real => u16::try_from(lin >> 4)
            .ok()
            .map(|seg| (seg, (lin & 0xF) as u16)),
    }
}

/// A breakpoint's place: `SEG:OFF = MODULE:SEG:OFF symbol (linear 0x...)`.
pub fn breakpoint_place(h: &Here<'_, '_>, lin: u64) -> String {
    let Some((seg, off)) = seg_off_of_linear(h, lin) else {
        return format!("linear {lin:#x} (in no segment the program has now)");
    };
    let mem = h.uc() as &dyn WalkMemory;
    let owner = mem.code_owner(seg);
    let frame = StackTraceEntry {
        h_task: mem.current_task(),
        w_ss: 0,
        w_bp: 0,
        w_cs: seg,
        w_ip: off,
        h_module: owner.map(|o| o.hmodule).unwrap_or(0),
        w_segment: owner.and_then(|o| o.segment).unwrap_or(0),
        dw_size: StackTraceEntry::SIZE as u32,
        w_flags: StackTraceEntry::FRAME_FAR,
    };
    let place = Place::of(mem, &Names(h), &frame, true);
    format!("{seg:04X}:{off:04X} = {} (linear {lin:#x})", place.full())
}

/// `digest`: hashes of the run's state at the stop, to compare two runs
/// (a run restored from a checkpoint against the original, tests/
/// checkpoints.rs): the memory (in real mode the 1 MiB above the first
/// page, which is device memory until the run is timed; in protected
/// mode every mapped region), the VGA planes, the console output and
/// OutputDebugString strings, and the emulated clock.
pub fn digest_text(h: &Here<'_, '_>) -> String {
    // The checkpoint file's digest (checkpoint_file.rs), so the command
    // shows what a resume checks.
    let d = super::checkpoint_file::Digest::of(h.uc());
    let (console, debug) = h
        .env()
        .map_or((0, 0), |e| (e.console.len(), e.debug_output.len()));
    format!(
        "memory {:016x}  vga {:016x}  output {:016x} ({console} bytes, {debug} strings)  clock {}\n",
        d.memory, d.vga, d.output, d.clock,
    )
}
