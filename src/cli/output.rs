//! Text and JSON renderings of runs and walks.
//!
//! The JSON forms are the types of json.rs; their schemas are
//! docs/schema/*.json.

use super::json as j;

use crate::machine::{Cpu, R, Stop, fault_name};
use crate::session::Program;
use crate::walk::{StackTraceEntry, Walk, WalkMemory, stack_bounds};

fn walk_frames_json(p: &Program, w: &Walk) -> Vec<j::Frame> {
    w.frames
        .iter()
        .enumerate()
        .map(|(i, f)| frame_json(p, w, i, f))
        .collect()
}

/// The record of fault `f`, taken when it happened (win16/fault_record.rs).
pub fn fault_record<'a>(
    p: &'a Program,
    f: &crate::machine::Fault,
) -> Option<&'a crate::win16::fault_record::FaultRecord> {
    p.machine
        .environment::<crate::system::Env>()?
        .win16
        .toolhelp
        .faults
        .find(f)
}

/// The walk a fault record took at the fault, with the names it took then.
fn record_frames_json(r: &crate::win16::fault_record::FaultRecord) -> Vec<j::Frame> {
    r.walk
        .frames
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let n = r.frame_names.get(i).cloned().unwrap_or_default();
            j::Frame {
                virtual_frame: r.walk.virtual_frames.contains(&i),
                hTask: f.h_task,
                wSS: f.w_ss,
                wBP: f.w_bp,
                wCS: f.w_cs,
                wIP: f.w_ip,
                hModule: f.h_module,
                wSegment: f.w_segment,
                wFlags: f.w_flags,
                far: f.w_flags == StackTraceEntry::FRAME_FAR,
                module: n.module,
                symbol: n.symbol,
                symbol_raw: n.symbol_raw,
                source: n.line.as_ref().map(j::SourceLine::from),
                params: n.params.iter().map(j::Param::from).collect(),
            }
        })
        .collect()
}

/// The walk of a fault record as a table (as [`walk_table`]).
pub fn record_walk_table(r: &crate::win16::fault_record::FaultRecord) -> String {
    let mut s = String::from("  #  hTask  SS:BP      CS:IP      module      seg  kind   symbol\n");
    for (i, f) in r.walk.frames.iter().enumerate() {
        let n = r.frame_names.get(i).cloned().unwrap_or_default();
        let name = |v: Option<String>| {
            v.map(|m| crate::escape::name(&m).into_owned())
                .unwrap_or_else(|| "-".into())
        };
        let sym = crate::symbols::lines::symbol_cell(n.symbol, n.line.as_ref());
        let seg = if f.w_segment == 0 {
            "-".to_string()
        } else {
            f.w_segment.to_string()
        };
        let kind = if f.w_flags == StackTraceEntry::FRAME_NEAR {
            "near"
        } else {
            "far"
        };
        s.push_str(&format!(
            "{i:>3}  {:04X}   {:04X}:{:04X}  {:04X}:{:04X}  {:<10}  {seg:>3}  {kind:<5}  {}\n",
            f.h_task,
            f.w_ss,
            f.w_bp,
            f.w_cs,
            f.w_ip,
            name(n.module),
            sym
        ));
        s.push_str(&crate::symbols::lines::params_line(&n.params));
    }
    s.push_str(&format!("walk ended: {}\n", r.walk.stop));
    s
}

/// `run --json`'s `faults`: every fault of the run as it was recorded.
fn faults_json(p: &Program) -> Option<Vec<j::FaultSeen>> {
    let log = &p
        .machine
        .environment::<crate::system::Env>()?
        .win16
        .toolhelp
        .faults;
    (!log.records.is_empty()).then(|| {
        log.records
            .iter()
            .map(|r| j::FaultSeen {
                hTask: r.htask,
                module: r.task_module.clone(),
                outcome: r.outcome.name().to_string(),
                fault: fault_json(p, &r.fault),
                frames: record_frames_json(r),
                walk_end: r.walk.stop.to_string(),
            })
            .collect()
    })
}

/// The symbol of frame `i` of a walk: the first frame and a fault
/// dispatch's frame hold the exact CS:IP, the others return addresses
/// (Env::frame_symbol).
pub fn frame_symbol(p: &Program, w: &Walk, i: usize) -> Option<crate::symbols::SymbolRef> {
    p.frame_symbol(w, i)
}

fn frame_json(p: &Program, w: &Walk, i: usize, f: &StackTraceEntry) -> j::Frame {
    let sym = frame_symbol(p, w, i);
    j::Frame {
        virtual_frame: w.virtual_frames.contains(&i),
        hTask: f.h_task,
        wSS: f.w_ss,
        wBP: f.w_bp,
        wCS: f.w_cs,
        wIP: f.w_ip,
        hModule: f.h_module,
        wSegment: f.w_segment,
        wFlags: f.w_flags,
        far: f.w_flags == StackTraceEntry::FRAME_FAR,
        module: p.module_name(f),
        symbol: sym.as_ref().map(|s| s.to_string()),
        symbol_raw: sym.as_ref().map(|s| s.raw.clone()),
        source: p.frame_line(w, i).as_ref().map(j::SourceLine::from),
        params: p.frame_params(w, i).iter().map(j::Param::from).collect(),
    }
}

fn kind(stop: &Stop) -> &'static str {
    stop.kind()
}

/// One line describing a stop (session.rs, `describe_stop`).
pub fn describe(stop: &Stop) -> String {
    crate::session::describe_stop(stop)
}

/// A stop as JSON.
pub fn stop_json(stop: &Stop) -> j::Exit {
    j::Exit {
        kind: kind(stop).to_string(),
        code: match stop {
            Stop::Exited { code } => Some(*code),
            _ => None,
        },
        text: describe(stop),
    }
}

/// `run --json` (json.rs `Run`); `--screen` and `--events` are the
/// caller's.
pub fn run_json(p: &Program, stop: &Stop) -> j::Run {
    let env = p.env();
    let walk = (!matches!(stop, Stop::Exited { .. }))
        .then(|| p.walk_at_stop(stop))
        .flatten();
    let exits = &env.win16.scheduler.exits;
    j::Run {
        file: p.path.display().to_string(),
        exit: Some(stop_json(stop)),
        output: crate::dos::screen::cp437_text(&env.console),
        debug_output: env.debug_output.clone(),
        fault: match stop {
            Stop::Fault(f) => Some(fault_json(p, f)),
            _ => None,
        },
        unimplemented: match stop {
            Stop::Unimplemented { what, .. } => Some(what.clone()),
            _ => None,
        },
        note: waiting_hint(p, stop),
        output_dropped: (env.console_dropped > 0).then_some(env.console_dropped),
        debug_output_dropped: (env.debug_output_dropped > 0).then_some(env.debug_output_dropped),
        drive: drive_json(p),
        message_boxes: message_boxes_json(p),
        message_boxes_dropped: Some(p.env().win16.user.boxes.dropped).filter(|&n| n > 0),
        task_exits: (!exits.is_empty()).then(|| {
            exits
                .iter()
                .map(|e| j::TaskExit {
                    hTask: e.htask,
                    module: e.module.clone(),
                    code: e.code,
                    fault: e.fault.as_ref().map(|f| fault_json(p, f)),
                })
                .collect()
        }),
        // A fault's walk with the names taken at the fault: the task and
        // its modules may be gone.
        frames: match (stop, &walk) {
            (Stop::Fault(f), Some(w)) => match fault_record(p, f) {
                Some(r) if r.walk.frames == w.frames => Some(record_frames_json(r)),
                _ => Some(walk_frames_json(p, w)),
            },
            _ => walk.as_ref().map(|w| walk_frames_json(p, w)),
        },
        walk_end: walk.as_ref().map(|w| w.stop.to_string()),
        faults: faults_json(p),
        faults_dropped: p
            .machine
            .environment::<crate::system::Env>()
            .map(|e| e.win16.toolhelp.faults.dropped)
            .filter(|&n| n > 0),
        ..j::Run::default()
    }
}

/// The message boxes shown (msgbox.rs's record), as JSON.
pub fn message_boxes_json(p: &Program) -> Vec<j::MessageBox> {
    p.env()
        .win16
        .user
        .boxes
        .boxes
        .iter()
        .map(|b| j::MessageBox {
            hTask: b.htask,
            module: b.module.clone(),
            caption: b.caption.clone(),
            text: b.text.clone(),
            style: b.style,
            answer: b.answer,
            by: b.by.name().to_string(),
        })
        .collect()
}

/// The message boxes shown, a line each: `toolhelp16: message box
/// "CAPTION": "TEXT" (MB 0x0030, task 1234 APP) answered IDOK (1)`.
pub fn message_boxes_text(p: &Program) -> String {
    use crate::win16::user::msgbox::answer_name;
    let shown = &p.env().win16.user.boxes;
    let mut s = String::new();
    for b in &shown.boxes {
        let q = crate::escape::quoted;
        let style = match b.style {
            Some(t) => format!("MB 0x{t:04X}, "),
            None => String::new(),
        };
        let who = match b.by {
            crate::win16::user::msgbox::ShownBy::Program => "",
            crate::win16::user::msgbox::ShownBy::Environment => " shown by Windows",
        };
        let answer = match b.answer {
            Some(a) => format!(" answered {} ({a})", answer_name(a)),
            None => String::new(),
        };
        s.push_str(&format!(
            "toolhelp16: message box{who} {}: {} ({style}task {:04X} {}){answer}\n",
            q(&b.caption),
            q(&b.text),
            b.htask,
            b.module
        ));
    }
    if shown.dropped > 0 {
        s.push_str(&format!(
            "toolhelp16: ... and {} more message boxes\n",
            shown.dropped
        ));
    }
    s
}

/// The drive C: part of `run --json`: `{"dir" (the host directory the
/// program saw), "mode": "copy-on-write" | "read-write", "writes_kept_in"
/// (the overlay kept with --keep-writes, or null: discarded, or written in
/// place), "quota", "used" (bytes), "full_writes" (writes the quota cut
/// short), "capped_writes" (writes the per-file size limit cut short),
/// "changes": [{"kind": "created" | "wrote" | "deleted" |
/// "renamed" | "made-directory" | "removed-directory" | "set-attributes" |
/// "set-time", "path" ("C:\..."), "to" (renamed only)}],
/// "changes_dropped"}`; null without a drive.
pub fn drive_json(p: &Program) -> Option<j::Drive> {
    let d = p.env().drive.as_ref()?;
    let (changes, dropped) = d.changes();
    let (quota, used) = d.quota();
    Some(j::Drive {
        dir: d.root().display().to_string(),
        mode: if d.is_copy_on_write() {
            "copy-on-write"
        } else {
            "read-write"
        }
        .to_string(),
        writes_kept_in: (d.is_copy_on_write() && !d.discards_writes())
            .then(|| d.writes_dir().display().to_string()),
        quota,
        used,
        full_writes: d.full_writes(),
        capped_writes: d.capped_writes(),
        changes: changes.to_vec(),
        changes_dropped: dropped,
    })
}

/// What the program did to its drive, for the text report: nothing when it
/// changed nothing and the quota never cut a write short.
pub fn drive_text(p: &Program) -> String {
    let Some(d) = p.env().drive.as_ref() else {
        return String::new();
    };
    let (changes, dropped) = d.changes();
    if changes.is_empty() && d.full_writes() == 0 && d.capped_writes() == 0 {
        return String::new();
    }
    let root = d.root().display();
    let mut s = if !d.is_copy_on_write() {
        format!("toolhelp16: drive C: is {root} (read-write); the program changed it:\n")
    } else if d.discards_writes() {
        format!(
            "toolhelp16: drive C: is {root}, read-only; the program's changes went to a temporary overlay, now discarded:\n"
        )
    } else {
        format!(
            "toolhelp16: drive C: is {root}, read-only; the program's changes are kept in {}:\n",
            d.writes_dir().display()
        )
    };
    for c in changes {
        s.push_str(&format!("  {c}\n"));
    }
    if dropped > 0 {
        s.push_str(&format!("  ... and {dropped} more\n"));
    }
    if d.full_writes() > 0 {
        let (quota, _) = d.quota();
        s.push_str(&format!(
            "toolhelp16: note: the disk was full (--disk-quota {quota} bytes): {} write(s) were cut short\n",
            d.full_writes()
        ));
    }
    if d.capped_writes() > 0 {
        s.push_str(&format!(
            "toolhelp16: note: a file reached the per-file size limit ({} bytes): {} write(s) were cut short, as on a full disk\n",
            d.max_file_size(),
            d.capped_writes()
        ));
    }
    s
}

/// Why a run that ran out of budget or time may have been waiting for
/// input rather than working.
pub fn waiting_hint(p: &Program, stop: &Stop) -> Option<String> {
    if !matches!(stop, Stop::Budget | Stop::Timeout) {
        return None;
    }
    let polls = p.env().dos.keyboard.empty_polls;
    (polls > 0).then(|| {
        format!(
            "the program found the keyboard empty {polls} time(s) after the --keys \
             script was used up; it may be waiting for a key"
        )
    })
}

/// `run` in text (printed on stderr, after the program's own output).
pub fn run_text(p: &Program, stop: &Stop) -> String {
    let mut s = String::new();
    for line in &p.env().debug_output {
        s.push_str(&format!("debug: {}\n", crate::escape::name(line)));
    }
    // Faults a callback or a GP handler took: the fault and the walk at it.
    for r in &p.env().win16.toolhelp.faults.records {
        if r.outcome == crate::win16::fault_record::Outcome::Unhandled {
            continue;
        }
        s.push_str(&format!(
            "toolhelp16: task {:04X} {}: {}: {}\n",
            r.htask,
            r.task_module,
            describe(&Stop::Fault(r.fault.clone())),
            r.outcome.words()
        ));
        s.push_str(&fault_text(p, &r.fault));
        s.push_str(&record_walk_table(r));
    }
    let exits = &p.env().win16.scheduler.exits;
    for e in exits {
        match &e.fault {
            // A task ended by a fault while others ran on: its report here.
            Some(f) if !matches!(stop, Stop::Fault(g) if g == f) => {
                s.push_str(&format!(
                    "toolhelp16: task {:04X} {} ended by an unhandled {}\n",
                    e.htask,
                    e.module,
                    describe(&Stop::Fault(f.clone()))
                ));
                s.push_str(&fault_text(p, f));
                match (fault_record(p, f), p.unhandled(f)) {
                    (Some(r), _) => s.push_str(&record_walk_table(r)),
                    (None, Some(u)) => s.push_str(&walk_table(p, &u.walk)),
                    _ => {}
                }
            }
            Some(_) => s.push_str(&format!(
                "toolhelp16: task {:04X} {} ended by the unhandled fault reported below\n",
                e.htask, e.module
            )),
            _ if exits.len() > 1 => s.push_str(&format!(
                "toolhelp16: task {:04X} {} exited with code {}\n",
                e.htask, e.module, e.code
            )),
            _ => {}
        }
    }
    s.push_str(&message_boxes_text(p));
    s.push_str(&format!(
        "toolhelp16: {}: {}\n",
        p.path.display(),
        describe(stop)
    ));
    if let Some(hint) = waiting_hint(p, stop) {
        s.push_str(&format!("toolhelp16: note: {hint}\n"));
    }
    s.push_str(&drive_text(p));
    if let Stop::Fault(f) = stop {
        s.push_str(&fault_text(p, f));
    }
    if !matches!(stop, Stop::Exited { .. }) {
        if let Some(w) = p.walk_at_stop(stop) {
            s.push_str(&walk_table(p, &w));
        }
    }
    s
}

/// The walk as a table.
pub fn walk_table(p: &Program, w: &Walk) -> String {
    let mut s = String::from("  #  hTask  SS:BP      CS:IP      module      seg  kind   symbol\n");
    for (i, f) in w.frames.iter().enumerate() {
        let module = p
            .module_name(f)
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
        let sym = crate::symbols::lines::symbol_cell(
            frame_symbol(p, w, i).map(|s| s.to_string()),
            p.frame_line(w, i).as_ref(),
        );
        s.push_str(&format!(
            "{i:>3}  {:04X}   {:04X}:{:04X}  {:04X}:{:04X}  {module:<10}  {seg:>3}  {kind:<5}  {sym}\n",
            f.h_task, f.w_ss, f.w_bp, f.w_cs, f.w_ip
        ));
        s.push_str(&crate::symbols::lines::params_line(&p.frame_params(w, i)));
    }
    s.push_str(&format!("walk ended: {}\n", w.stop));
    s
}

/// Every task's TASKENTRY and, for each task but the current one, its walk
/// by StackTraceFirst then StackTraceNext (`stack --all-tasks`).
pub fn task_walks(p: &Program) -> Vec<(crate::win16::toolhelp::TaskEntry, Option<Walk>)> {
    let Some(env) = p.machine.environment::<crate::system::Env>() else {
        return Vec::new();
    };
    let current = p.machine.get_data().current_task;
    crate::win16::toolhelp::task_entries(env, &p.machine)
        .into_iter()
        .map(|te| {
            let walk = (te.h_task != current).then(|| {
                crate::walk::walk_task(
                    &*p.machine as &dyn WalkMemory,
                    te.h_task,
                    crate::session::MAX_FRAMES,
                )
            });
            (te, walk)
        })
        .collect()
}

fn task_name(te: &crate::win16::toolhelp::TaskEntry) -> String {
    let n = te
        .sz_module
        .iter()
        .position(|&c| c == 0)
        .unwrap_or(te.sz_module.len());
    String::from_utf8_lossy(&te.sz_module[..n]).into_owned()
}

/// `stack --all-tasks --json`: the `tasks` member.
pub fn tasks_json(p: &Program) -> Vec<j::Task> {
    let current = p.machine.get_data().current_task;
    task_walks(p)
        .iter()
        .map(|(te, w)| j::Task {
            hTask: te.h_task,
            hTaskParent: te.h_task_parent,
            hInst: te.h_inst,
            hModule: te.h_module,
            wSS: te.w_ss,
            wSP: te.w_sp,
            wStackTop: te.w_stack_top,
            wStackMinimum: te.w_stack_minimum,
            wStackBottom: te.w_stack_bottom,
            wcEvents: te.wc_events,
            hQueue: te.h_queue,
            module: task_name(te),
            current: te.h_task == current,
            frames: w
                .as_ref()
                .map(|w| walk_frames_json(p, w))
                .unwrap_or_default(),
            walk_end: w.as_ref().map(|w| w.stop.to_string()),
        })
        .collect()
}

/// `stack --all-tasks`: after the current task's walk, every task as
/// TaskFirst/TaskNext list them, the others walked from the state the
/// scheduler saved.
pub fn tasks_text(p: &Program) -> String {
    let current = p.machine.get_data().current_task;
    let mut s = String::from("\ntasks (TaskFirst, TaskNext):\n");
    for (te, w) in task_walks(p) {
        s.push_str(&format!(
            "task {:04X} {}: hInst {:04X}, hModule {:04X}, saved SS:SP {:04X}:{:04X}, stack [{:04X}, {:04X}) lowest SP {:04X}, events {}\n",
            te.h_task,
            task_name(&te),
            te.h_inst,
            te.h_module,
            te.w_ss,
            te.w_sp,
            te.w_stack_top,
            te.w_stack_bottom,
            te.w_stack_minimum,
            te.wc_events
        ));
        match w {
            None if te.h_task == current => s.push_str(
                "  the current task: its walk is above (StackTraceFirst refuses a running task)\n",
            ),
            None => {}
            Some(w) => {
                s.push_str("  walk by StackTraceFirst, then StackTraceNext\n");
                s.push_str(&walk_table(p, &w));
            }
        }
    }
    s
}

/// The faulting instruction at CS:IP: its bytes (hex) and its disassembly
/// (NASM syntax), or None when it cannot be read.
pub fn fault_instruction(p: &Program, f: &crate::machine::Fault) -> Option<(String, String)> {
    match fault_record(p, f) {
        Some(r) => r.instruction.clone(),
        None => crate::machine::exception::instruction(&p.machine, f.cs, f.ip),
    }
}

/// Each segment register of the faulting context with its descriptor:
/// (name, selector, base, limit, access) — None for the descriptor of a
/// null or invalid selector.
fn fault_segments(
    p: &Program,
    f: &crate::machine::Fault,
) -> Vec<(&'static str, u16, Option<crate::walk::Descriptor>)> {
    if let Some(r) = fault_record(p, f) {
        return r.segments.clone();
    }
    let r = &f.regs;
    [("CS", r.cs), ("DS", r.ds), ("ES", r.es), ("SS", r.ss)]
        .into_iter()
        .map(|(n, sel)| (n, sel, WalkMemory::descriptor(&*p.machine, sel)))
        .collect()
}

/// The stack bounds of the faulting SS (toolhelp.md, "Where the stack
/// bounds live") and whether SP lies below pStackTop: a stack overflow.
/// For a task's DGROUP the bounds are those InitTask set, whatever the
/// instance data holds now; pStackMin is read from the instance data.
fn fault_stack(p: &Program, f: &crate::machine::Fault) -> Option<(u16, u16, u16, bool)> {
    if p.machine.cpu_mode() != crate::walk::CpuMode::Protected {
        return None;
    }
    // As they were at the fault, when it was recorded (the task may be
    // gone).
    if let Some((top, min, bot)) = fault_record(p, f).and_then(|r| r.stack) {
        return Some((top, min, bot, overflowed(f.regs.sp, top, bot)));
    }
    let m = &*p.machine as &dyn WalkMemory;
    let ss = f.regs.ss;
    let min = m.read_u16(ss, 0x0C).unwrap_or(0);
    // A task's own stack: the bounds InitTask set (kernel.rs), which an
    // overflow may since have overwritten in the instance data itself.
    if let Some(t) = p.env().win16.tasks.iter().find(|t| t.dgroup == ss) {
        let (top, bot) = t.stack_bounds();
        return Some((top, min, bot, overflowed(f.regs.sp, top, bot)));
    }
    let top = m.read_u16(ss, 0x0A).ok()?;
    let bot = m.read_u16(ss, 0x0E).ok()?;
    if top == 0 || bot <= top {
        return None;
    }
    Some((top, min, bot, overflowed(f.regs.sp, top, bot)))
}

/// SP below pStackTop, or wrapped past 0 to above pStackBot: the stack
/// overflowed.
fn overflowed(sp: u16, top: u16, bot: u16) -> bool {
    sp < top || sp > bot
}

/// `run --json`'s `fault` member. A fault of a Win16 task is described
/// as it was recorded when it happened (win16/fault_record.rs): its task
/// and modules may be gone since.
pub fn fault_json(p: &Program, f: &crate::machine::Fault) -> j::Fault {
    let rec = fault_record(p, f);
    let owner = WalkMemory::code_owner(&*p.machine, f.cs);
    let module = match rec {
        Some(r) => r.module.clone(),
        None => owner.and_then(|o| {
            p.module_name(&StackTraceEntry {
                h_module: o.hmodule,
                w_cs: f.cs,
                ..StackTraceEntry::default()
            })
        }),
    };
    let segments = fault_segments(p, f);
    let cs_descriptor = segments.first().and_then(|s| s.2);
    j::Fault {
        number: f.number,
        name: fault_name(f.number).to_string(),
        wCS: f.cs,
        wIP: f.ip,
        module,
        wSegment: match rec {
            Some(r) => r.segment,
            None => owner.and_then(|o| o.segment),
        },
        symbol: match rec {
            Some(r) => r.symbol.clone(),
            None => p.symbol_at(f.cs, f.ip),
        },
        detail: f.detail.clone(),
        cause: f.cause.clone(),
        registers: f.regs,
        linear: cs_descriptor.map(|d| d.base.wrapping_add(u32::from(f.ip))),
        instruction: fault_instruction(p, f).map(|(bytes, text)| j::Instruction { bytes, text }),
        application_error: application_error(p, f),
        drwatson: p.unhandled(f).map(|u| u.drwatson.clone()),
        segments: segments
            .into_iter()
            .map(|(n, sel, d)| {
                (
                    n.to_string(),
                    j::SegmentRegister {
                        selector: sel,
                        base: d.map(|d| d.base),
                        limit: d.map(|d| d.limit),
                        access: d.map(|d| d.access),
                    },
                )
            })
            .collect(),
        stack: fault_stack(p, f).map(|(top, min, bot, overflow)| j::StackBounds {
            pStackTop: top,
            pStackMin: min,
            pStackBot: bot,
            sp: f.regs.sp,
            overflow,
        }),
    }
}

/// The line of Windows 3.1's Application Error box for an unhandled fault in
/// a Win16 task: "APP caused a General Protection Fault in module
/// MODULE.EXE at 0002:0094." (the segment is the NE segment number). None
/// outside protected mode or when the faulting code belongs to no module.
pub fn application_error(p: &Program, f: &crate::machine::Fault) -> Option<String> {
    if p.machine.cpu_mode() != crate::walk::CpuMode::Protected {
        return None;
    }
    if let Some(u) = p.unhandled(f) {
        return u.application_error.clone();
    }
    crate::win16::drwatson::application_error(
        &p.env().win16,
        &*p.machine,
        p.machine.get_data().current_task,
        f,
    )
}

/// The text fault report: instruction, registers, segments, stack bounds.
pub fn fault_text(p: &Program, f: &crate::machine::Fault) -> String {
    let mut s = String::new();
    if let Some(uae) = application_error(p, f) {
        s.push_str(&format!("  Application Error: {uae}\n"));
    }
    let sym = match fault_record(p, f) {
        Some(r) => r.symbol.clone(),
        None => p.symbol_at(f.cs, f.ip),
    };
    if let Some(sym) = sym {
        s.push_str(&format!("  in: {sym}\n"));
    }
    if let Some((bytes, text)) = fault_instruction(p, f) {
        s.push_str(&format!("  instruction: {bytes}  {text}\n"));
    }
    let r = &f.regs;
    s.push_str(&format!(
        "  AX={:04X} BX={:04X} CX={:04X} DX={:04X} SI={:04X} DI={:04X} BP={:04X} SP={:04X} FLAGS={:04X}\n",
        r.ax, r.bx, r.cx, r.dx, r.si, r.di, r.bp, r.sp, r.flags
    ));
    for (n, sel, d) in fault_segments(p, f) {
        match d {
            Some(d) if p.machine.cpu_mode() == crate::walk::CpuMode::Protected => {
                s.push_str(&format!(
                    "  {n}={sel:04X} base {:08X} limit {:04X} access {:02X}\n",
                    d.base, d.limit, d.access
                ))
            }
            Some(d) => s.push_str(&format!("  {n}={sel:04X} base {:05X}\n", d.base)),
            None => s.push_str(&format!("  {n}={sel:04X} (no descriptor)\n")),
        }
    }
    if let Some((top, min, bot, overflow)) = fault_stack(p, f) {
        s.push_str(&format!(
            "  stack: SP {:04X}, pStackTop {top:04X}, pStackMin {min:04X}, pStackBot {bot:04X}{}\n",
            r.sp,
            if overflow {
                ": STACK OVERFLOW (SP below pStackTop)"
            } else {
                ""
            }
        ));
    }
    if let Some(u) = p.unhandled(f) {
        s.push_str("  Dr. Watson's log:\n");
        for line in &u.drwatson {
            s.push_str(&format!("    {line}\n"));
        }
    }
    s
}

/// `stack --json`: the walk; the options' members are the caller's.
pub fn stack_json(p: &Program, stop: &Stop, reached: bool) -> j::Stack {
    let w = p.walk_at_stop(stop);
    let at = match stop {
        Stop::Breakpoint { cs, ip } => j::CsIp { cs: *cs, ip: *ip },
        _ => j::CsIp {
            cs: p.machine.reg(R::CS),
            ip: p.machine.reg(R::IP),
        },
    };
    j::Stack {
        file: p.path.display().to_string(),
        at,
        reached,
        stop: stop_json(stop),
        frames: w
            .as_ref()
            .map(|w| walk_frames_json(p, w))
            .unwrap_or_default(),
        walk_end: w.as_ref().map(|w| w.stop.to_string()),
        near_pointers: super::nearptr::find(p, w.as_ref()),
        message_boxes: message_boxes_json(p),
        symbols: w
            .as_ref()
            .map(|w| symbols_used_json(p, w))
            .unwrap_or_default(),
        entry_note: entry_note(p, stop).map(|n| n.trim_end().to_string()),
        backtrace: None,
        tasks: None,
        explain: None,
        verify: None,
        screen: None,
        events: None,
        events_dropped: None,
    }
}

/// Where the names of the modules the frames lie in came from (the
/// symbol tables' `used`), each module once, in frame order.
fn symbols_used_json(p: &Program, w: &Walk) -> Vec<j::ModuleSymbols> {
    let Some(env) = p.machine.environment::<crate::system::Env>() else {
        return Vec::new();
    };
    let mut out: Vec<j::ModuleSymbols> = Vec::new();
    for f in &w.frames {
        let (h, name) = if f.h_module != 0 {
            match env.win16.modules.iter().find(|m| m.hmodule == f.h_module) {
                Some(m) => (Some(f.h_module), m.name.clone()),
                None => continue,
            }
        } else {
            match &env.program_name {
                Some(n) if env.dos_program.is_some() => (None, n.clone()),
                _ => continue,
            }
        };
        if out.iter().any(|m| m.module == name) {
            continue;
        }
        let Ok(Some(t)) = env.symbol_table(h) else {
            continue;
        };
        out.push(j::ModuleSymbols {
            module: name,
            used: t
                .used
                .iter()
                .map(|(kind, from)| j::SymbolSource {
                    kind: (*kind).to_string(),
                    from: from.clone(),
                })
                .collect(),
        });
    }
    out
}

/// `stack` in text.
pub fn stack_text(p: &Program, stop: &Stop, reached: bool) -> String {
    let mut s = message_boxes_text(p);
    if !reached {
        s.push_str(&format!(
            "toolhelp16: the location was not reached: {}\n",
            describe(stop)
        ));
    }
    let what = if reached && matches!(stop, Stop::Budget) {
        let (cs, ip) = (p.machine.reg(R::CS), p.machine.reg(R::IP));
        format!("stopped at {cs:04X}:{ip:04X} after the requested number of instructions")
    } else {
        describe(stop)
    };
    s.push_str(&format!(
        "{}: {what}; walk by StackTraceCSIPFirst, then StackTraceNext\n",
        p.path.display()
    ));
    let w = p.walk_at_stop(stop);
    match &w {
        Some(w) => {
            if !w.virtual_frames.is_empty() {
                s.push_str(
                    "  (inside a fault callback: the walk goes on through TOOLHELP's dispatch frame from the faulting CS:IP and BP)\n",
                );
            }
            s.push_str(&walk_table(p, w))
        }
        None => s.push_str("no stack: the program has ended\n"),
    }
    if let Some(n) = super::nearptr::find(p, w.as_ref()) {
        s.push_str(&super::nearptr::text(&n));
    }
    s
}

/// A text picture of the stack from SP up through the walked frames: each
/// word with what the walk read from it.
pub fn stack_picture(p: &Program, w: &Walk) -> String {
    let m = &*p.machine;
    let ss = m.reg(R::SS);
    let sp = m.reg(R::SP);
    let top = w
        .frames
        .last()
        .map(|f| u32::from(f.w_bp) + 6)
        .unwrap_or(u32::from(sp));
    let bot = stack_bounds(m as &dyn WalkMemory, ss)
        .map(|b| b.1)
        .unwrap_or(0x10000);
    let end = top.max(u32::from(sp)).min(bot).min(u32::from(sp) + 0x100);
    let mut notes: std::collections::BTreeMap<u32, String> = std::collections::BTreeMap::new();
    for (i, pair) in w.frames.windows(2).enumerate() {
        let (f, next) = (&pair[0], &pair[1]);
        let bp = u32::from(f.w_bp);
        notes.insert(
            bp,
            format!(
                "frame {i}: saved BP (next frame's BP {:04X}{})",
                next.w_bp,
                if next.w_flags == 0 { ", odd = far" } else { "" }
            ),
        );
        notes.insert(bp + 2, format!("frame {i}: return IP {:04X}", next.w_ip));
        if next.w_flags == StackTraceEntry::FRAME_FAR {
            notes.insert(bp + 4, format!("frame {i}: return CS {:04X}", next.w_cs));
        }
    }
    if let Some(last) = w.frames.last() {
        notes.insert(
            u32::from(last.w_bp),
            "last frame: saved BP, where the walk ended".into(),
        );
    }
    let mut s = format!("stack {ss:04X}:{sp:04X} (SP) upward\n");
    let mut off = u32::from(sp) & !1;
    while off < end && off <= 0xFFFE {
        let word = m
            .read_u16_at(ss, off as u16)
            .map(|v| format!("{v:04X}"))
            .unwrap_or_else(|_| "????".into());
        let bp_mark = if w.frames.iter().any(|f| u32::from(f.w_bp) == off) {
            "BP->"
        } else {
            "    "
        };
        let note = notes.get(&off).cloned().unwrap_or_default();
        s.push_str(&format!("  {bp_mark} {ss:04X}:{off:04X}  {word}  {note}\n"));
        off += 2;
    }
    s
}

/// The bundled demo program (roms/demo.asm).
pub const DEMO_EXE: &[u8] = include_bytes!("../../roms/demo.exe");
/// Its LINK map (made by roms/build.sh), written beside it so the demo's
/// frames are named.
pub const DEMO_MAP: &[u8] = include_bytes!("../../roms/demo.map");

/// `toolhelp16 demo`: run the bundled demo to its innermost call (the first
/// instruction after PaintLine's prologue, segment 1 offset 3A) and show the
/// walk and the stack.
pub fn demo(json_out: bool) -> i32 {
    let dir = std::env::temp_dir().join(format!("toolhelp16-demo-{}", std::process::id()));
    let path = dir.join("demo.exe");
    if let Err(e) = std::fs::create_dir_all(&dir)
        .and_then(|_| std::fs::write(&path, DEMO_EXE))
        .and_then(|_| std::fs::write(dir.join("demo.map"), DEMO_MAP))
    {
        super::tell(&format!("toolhelp16: demo: {}: {e}\n", dir.display()));
        return super::EXIT_LOAD;
    }
    let result = (|| -> Result<String, String> {
        let mut prog = crate::session::load(&path, &crate::session::LoadOptions::default())
            .map_err(|e| e.to_string())?;
        let loc = crate::session::Loc::ModuleSeg {
            module: "DEMO".into(),
            segment: 1,
            para: Some(1),
            offset: 0x3A,
        };
        let stop = prog.run(crate::machine::RunLimits::default(), Some(&loc))?;
        if json_out {
            return Ok(serde_json::to_string_pretty(&j::Doc::new(
                "demo",
                stack_json(&prog, &stop, true),
            ))
            .unwrap_or_default()
                + "\n");
        }
        let w = prog
            .walk_at_stop(&stop)
            .ok_or("the demo ended before its stop")?;
        let mut s = String::from(
            "toolhelp16 demo: a Win16 program (roms/demo.asm) stopped inside PaintLine, four calls deep.\n\n",
        );
        s.push_str(&format!(
            "program output: {}\n",
            String::from_utf8_lossy(&prog.env().console).trim_end()
        ));
        s.push_str(&stack_text(&prog, &stop, true));
        s.push('\n');
        s.push_str(&stack_picture(&prog, &w));
        Ok(s)
    })();
    let _ = std::fs::remove_dir_all(&dir);
    match result {
        Ok(s) => {
            super::say(&s);
            0
        }
        Err(e) => {
            super::tell(&format!("toolhelp16: demo: {e}; {}\n", super::BUG_REPORT));
            super::EXIT_INTERNAL
        }
    }
}

/// The `backtrace` member (module doc).
pub fn backtrace_json(bt: &crate::walk::backtrace::BackTrace) -> j::BackTrace {
    j::BackTrace {
        skip: bt.skip,
        max: bt.max,
        count: bt.count(),
        addresses: bt.addresses.clone(),
        hash: bt.hash,
    }
}

/// The back trace in text: one line with the count and hash, then each
/// address.
/// The back trace in text; `name(k)` names address `k` (its symbol).
pub fn backtrace_text(
    bt: &crate::walk::backtrace::BackTrace,
    name: &dyn Fn(usize) -> Option<String>,
) -> String {
    let max = bt.max.map_or_else(|| "all".to_string(), |m| m.to_string());
    let mut s = format!(
        "back trace (RtlCaptureStackBackTrace, skip {}, max {max}): {} address(es), hash 0x{:08X}\n",
        bt.skip,
        bt.count(),
        bt.hash
    );
    for (k, a) in bt.addresses.iter().enumerate() {
        let line = format!("  {a:08X}  {:04X}:{:04X}", a >> 16, a & 0xFFFF);
        match name(k) {
            Some(n) => s.push_str(&format!("{line}  {n}\n")),
            None => s.push_str(&format!("{line}\n")),
        }
    }
    s
}

/// `snapshot`: what was written (on stderr).
pub fn snapshot_summary(out: &std::path::Path, snap: &crate::walk::snapshot::Snapshot) -> String {
    let bytes: usize = snap.memory().map(|(_, b)| b.len()).sum();
    let (frames, end) = snap
        .expect
        .as_ref()
        .map_or((0, String::new()), |e| (e.frames.len(), e.end.clone()));
    format!(
        "toolhelp16: wrote {}: {} mode, {} memory bytes in {} blob(s), {} expected frame(s), walk ends {end}\n",
        out.display(),
        match snap.mode {
            crate::walk::CpuMode::Protected => "protected",
            crate::walk::CpuMode::Real => "real",
        },
        bytes,
        snap.memory().count(),
        frames
    )
}

/// `snapshot --json`: what was written.
pub fn snapshot_json(out: &std::path::Path, snap: &crate::walk::snapshot::Snapshot) -> j::Snapshot {
    let (expected_frames, walk_end) = snap
        .expect
        .as_ref()
        .map_or((0, String::new()), |e| (e.frames.len(), e.end.clone()));
    j::Snapshot {
        output: out.display().to_string(),
        mode: snap.mode,
        memory_bytes: snap.memory().map(|(_, b)| b.len()).sum(),
        blobs: snap.memory().count(),
        expected_frames,
        walk_end,
    }
}

fn walk_backtrace(w: &crate::walk::stackframe::FrameWalk) -> crate::walk::backtrace::BackTrace {
    crate::walk::backtrace::capture(w.entries.iter().map(|e| (e.w_cs, e.w_ip)), 0, None)
}

/// `walk --json`.
pub fn walk_json(
    path: &std::path::Path,
    snap: &crate::walk::snapshot::Snapshot,
    init: crate::walk::stackframe::Start,
    w: &crate::walk::stackframe::FrameWalk,
    agreement: Option<&crate::walk::snapshot::Agreement>,
) -> j::Walk {
    use crate::walk::stackframe::{StepError, mode_name, start_frame};
    let start = start_frame(snap, &snap.registers.context(), init);
    let failure = match &w.end {
        StepError::Address(f) => Some(j::Failure {
            field: f.field.name().to_string(),
            mode: f.address.mode,
            mode_name: mode_name(f.address.mode).to_string(),
            selector: f.address.segment,
            offset: f.address.offset,
            reason: f.problem.to_string(),
            text: f.to_string(),
        }),
        StepError::End(_) => None,
    };
    let agreement = agreement.map(|a| j::Agreement {
        agrees: a.agrees(),
        expected_failure: a.expected_failure.clone(),
        frames: a
            .frames
            .iter()
            .map(|f| j::FrameAgreement {
                index: f.index,
                agrees: f.agrees(),
                differences: f.differences.clone(),
            })
            .collect(),
        problems: a.problems.clone(),
    });
    j::Walk {
        snapshot: path.display().to_string(),
        source: snap.source.clone(),
        mode: snap.mode,
        init: init.name().to_string(),
        start,
        frames: w.frames.clone(),
        end: w.end.to_string(),
        end_kind: w.end.kind().to_string(),
        failure,
        backtrace: backtrace_json(&walk_backtrace(w)),
        agreement,
    }
}

/// `walk` in text: the start, a table of the frames, how the walk ended,
/// and the agreement with the expected frames, frame by frame.
pub fn walk_text(
    path: &std::path::Path,
    snap: &crate::walk::snapshot::Snapshot,
    init: crate::walk::stackframe::Start,
    w: &crate::walk::stackframe::FrameWalk,
    agreement: Option<&crate::walk::snapshot::Agreement>,
) -> String {
    use crate::walk::stackframe::{StepError, start_frame};
    let mode = match snap.mode {
        crate::walk::CpuMode::Protected => "protected",
        crate::walk::CpuMode::Real => "real",
    };
    let mut s = format!("{}: {mode}-mode snapshot", path.display());
    if let Some(src) = &snap.source {
        s.push_str(&format!(" of {}", src.file));
        for m in &src.more {
            s.push_str(&format!(" + {m}"));
        }
        s.push_str(&format!(" at {}", src.at));
    }
    let start = start_frame(snap, &snap.registers.context(), init);
    s.push_str(&format!(
        "\nstart {init}: AddrPC {}, AddrFrame {}, AddrStack {}\n",
        start.addr_pc, start.addr_frame, start.addr_stack
    ));
    if !w.frames.is_empty() {
        s.push_str(&format!(
            "  #  {:<18}  {:<18}  {:<18}  {:<18}  Far  Virtual  Params\n",
            "AddrPC", "AddrReturn", "AddrFrame", "AddrStack"
        ));
    }
    let yes = |b: bool| if b { "yes" } else { "no" };
    for (i, f) in w.frames.iter().enumerate() {
        let params: Vec<String> = f.params.iter().map(|p| format!("{p:04X}")).collect();
        s.push_str(&format!(
            "{i:>3}  {:<18}  {:<18}  {:<18}  {:<18}  {:<3}  {:<7}  {}\n",
            f.addr_pc.to_string(),
            f.addr_return.to_string(),
            f.addr_frame.to_string(),
            f.addr_stack.to_string(),
            yes(f.is_far()),
            yes(f.is_virtual()),
            params.join(" ")
        ));
    }
    match &w.end {
        StepError::Address(_) => s.push_str(&format!("walk failed: {}\n", w.end)),
        StepError::End(_) => {
            s.push_str(&format!("walk ended: {}\n", w.end));
            s.push_str(&backtrace_text(&walk_backtrace(w), &|_| None));
        }
    }
    match agreement {
        None => s.push_str("the snapshot has no expected frames to compare with\n"),
        Some(a) => {
            match &a.expected_failure {
                Some(r) => s.push_str(&format!(
                    "the snapshot expects the {init} start to fail on its first step: {r}\n"
                )),
                None => s.push_str("agreement with the snapshot's expected frames:\n"),
            }
            s.push_str(&a.to_string());
            s.push_str(if a.agrees() {
                "AGREES\n"
            } else {
                "DISAGREES\n"
            });
        }
    }
    s
}

/// What a walk at a function's entry does not show, said after it
/// (x86/prologue.rs): at the first instruction of a function whose
/// prologue has not run, or at a built-in function's thunk, BP is still
/// the caller's, so the walk starts from the caller's frame and the
/// caller itself (its return address at SS:SP) is not in the chain.
pub fn entry_note(p: &Program, stop: &Stop) -> Option<String> {
    if !matches!(stop, Stop::Breakpoint { .. }) {
        return None;
    }
    let r = p.registers_at_stop(stop)?;
    let mem = &*p.machine as &dyn crate::walk::WalkMemory;
    let mut word = [0u8; 4];
    let words = mem.read(r.ss, r.sp, &mut word).ok().map(|()| {
        (
            u16::from_le_bytes([word[2], word[3]]),
            u16::from_le_bytes([word[0], word[1]]),
        )
    });
    let ret = words.map_or_else(
        || "unreadable".into(),
        |(cs, ip)| {
            format!(
                "{cs:04X}:{ip:04X} if it was a far call, {:04X}:{ip:04X} if near",
                r.cs
            )
        },
    );
    if let Some(env) = p.machine.environment::<crate::system::Env>()
        && let Some((name, 0)) = env.win16.thunk_symbol(r.cs, r.ip)
    {
        let module = env
            .win16
            .modules
            .iter()
            .find(|m| m.segments.first() == Some(&r.cs))
            .map(|m| m.name.clone())
            .unwrap_or_default();
        return Some(format!(
            "note: the stop is at the entry of the built-in function {module}!{name}, before it \
             runs; it makes no frame, so the walk starts from its caller's BP and the caller \
             itself is not in the chain: its far return address at SS:SP is {}\n",
            words.map_or_else(
                || "unreadable".into(),
                |(cs, ip)| format!("{cs:04X}:{ip:04X}")
            )
        ));
    }
    let mut code = [0u8; crate::walk::prologue::MAX_PROLOGUE];
    let mut n = code.len();
    while n > 0 && mem.read(r.cs, r.ip, &mut code[..n]).is_err() {
        n -= 1;
    }
    let (_, parts) = crate::walk::prologue::prologue(&code[..n])?;
    Some(format!(
        "note: the stop is at a function's first instruction, before its prologue ({}) has \
         run: BP is still its caller's, so frame 0 has the caller's SS:BP and the function's \
         caller is not in the chain (its return address is at SS:SP: {ret}); `--at \
         LOC+prologue` stops after the prologue, where the walk and --verify see the \
         function's frame\n",
        parts.join("; ")
    ))
}
