//! A timed run (src/machine/time.rs: a program that reads the clock, as
//! nearly every Win16 program does through GetMessage and GetTickCount,
//! or a DOS program that keeps time by the BIOS's ticks) keeps its clock
//! derived from the instruction count, which the translated code keeps
//! itself on the patched engine (vendor/README.md, patch 0006), instead
//! of advancing it in the counting hook block by block. The two ways must
//! give the same run: every clock read the same value (the programs print
//! what they read), every timer tick at the same instruction (the
//! programs print how far they got between ticks), the same stop,
//! instruction count, registers, memory, output and clock at the end, and
//! (recorded) the same recording word for word. Budgets stop the runs at
//! points inside them, so the clock is compared there too.
//!
//! Programs: tests/watcom/clockloop.c (Win16: SetTimer, a GetMessage
//! loop, GetTickCount busy waits in the window procedure, which USER
//! calls in nested emulations), tests/watcom/biosspin.c (DOS: busy loops
//! reading the BIOS tick count at 0040:006C), tests/watcom/dostimer.c and
//! tickchain.c (DOS: their own INT 08h handlers) and roms/ticks.exe
//! (100,000 GetTickCount calls). And the debugger's fast path
//! (src/debug/mod.rs, `may_run_fast`) on clockloop.c: the same session
//! as with the hook on every instruction, and the clock of a plain run.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::Duration;

use toolhelp16::machine::record::{BlockRecorder, Translation};
use toolhelp16::machine::{Cpu, RunLimits, Uc};
use toolhelp16::session::{LoadOptions, load};

mod common;
use common::rom;

/// What a recorder is given, in order: a translation's address, CS:IP,
/// count and bytes, or a batch of step words.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Event {
    Translation(u64, u16, u16, u32, Vec<u8>),
    Steps(Vec<u64>),
}

struct Keep(Rc<RefCell<Vec<Event>>>);

impl BlockRecorder for Keep {
    fn translation(&mut self, _uc: &Uc<'_>, t: &Translation<'_>) -> std::io::Result<()> {
        self.0.borrow_mut().push(Event::Translation(
            t.linear,
            t.cs,
            t.ip,
            t.icount,
            t.bytes.to_vec(),
        ));
        Ok(())
    }

    fn steps(&mut self, words: &mut Vec<u64>) -> std::io::Result<()> {
        self.0
            .borrow_mut()
            .push(Event::Steps(std::mem::take(words)));
        Ok(())
    }
}

/// The clock derived from the count (the default), or kept by the
/// counting hook block by block (`Machine::keep_time_by_hook`); recorded
/// or not.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct How {
    time_by_hook: bool,
    recorded: bool,
}

#[derive(Debug)]
struct End {
    stop: String,
    executed: Option<u64>,
    regs: String,
    memory: u64,
    output: String,
    /// This run's clock and the machine's, at the end.
    clock: (u64, u64),
    timed: bool,
    events: Vec<Event>,
    /// Words recorded, and how many the translated code wrote.
    words: (u64, u64),
}

fn fnv(h: &mut u64, bytes: &[u8]) {
    for &b in bytes {
        *h ^= u64::from(b);
        *h = h.wrapping_mul(0x100_0000_01b3);
    }
}

fn run(file: &Path, max_insns: u64, how: How) -> End {
    let opts = LoadOptions {
        stdin: Some(Vec::new()),
        clock: toolhelp16::dos::clock::Clock::Fixed(
            toolhelp16::dos::clock::DateTime::parse("1992-04-06 12:34:56").unwrap(),
        ),
        ..Default::default()
    };
    let name = file.display().to_string();
    let mut p = load(file, &opts).unwrap_or_else(|e| panic!("{name}: {e}"));
    let events = Rc::new(RefCell::new(Vec::new()));
    if how.time_by_hook {
        p.machine.keep_time_by_hook();
    }
    match (how.recorded, how.time_by_hook) {
        (false, _) => p.machine.count_instructions(),
        (true, false) => p.machine.record_blocks(Box::new(Keep(events.clone()))),
        (true, true) => p
            .machine
            .record_blocks_by_hook(Box::new(Keep(events.clone()))),
    }
    let stop = p
        .run(
            RunLimits {
                max_insns,
                timeout: Duration::from_secs(120),
            },
            None,
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    if how.recorded {
        let (_, err) = p.machine.stop_recording().expect("a recording");
        assert!(err.is_none(), "{name}: {err:?}");
    }
    let mut memory = 0xcbf2_9ce4_8422_2325u64;
    let mut buf = vec![0u8; 0x10000];
    for piece in 0..256u64 {
        if p.machine.mem_read(piece << 16, &mut buf).is_ok() {
            fnv(&mut memory, &buf);
        } else {
            fnv(&mut memory, b"unmapped");
        }
    }
    let st = p.machine.get_data();
    let clock = (st.insns(), st.total_insns());
    let events = events.borrow().clone();
    End {
        stop: format!("{stop:?}"),
        executed: p.machine.executed(),
        regs: format!("{:?}", p.machine.regs()),
        memory,
        output: String::from_utf8_lossy(&p.env().console).replace("\r\n", "\n"),
        clock,
        timed: p.machine.timed(),
        events,
        words: p.machine.recorded_words(),
    }
}

/// The program run four ways (clock derived or by hook, recorded or
/// not) with budget `max_insns` (0: none): the same run every way, and
/// the same recording both ways. Returns the derived, recorded run.
fn same_every_way(file: &Path, max_insns: u64) -> End {
    let what = format!("{} (budget {max_insns})", file.display());
    let ways = [(false, false), (true, false), (false, true), (true, true)].map(|(h, r)| {
        run(
            file,
            max_insns,
            How {
                time_by_hook: h,
                recorded: r,
            },
        )
    });
    let [derived, hooked, derived_rec, hooked_rec] = ways;
    assert!(derived.timed, "{what}: the program keeps time");
    for (name, r) in [
        ("by hook", &hooked),
        ("derived, recorded", &derived_rec),
        ("by hook, recorded", &hooked_rec),
    ] {
        assert_eq!(r.output, derived.output, "{what}: {name}: the output");
        assert_eq!(r.clock, derived.clock, "{what}: {name}: the clock");
        assert_eq!(r.stop, derived.stop, "{what}: {name}: the stop");
        assert_eq!(r.executed, derived.executed, "{what}: {name}: instructions");
        assert_eq!(r.regs, derived.regs, "{what}: {name}: registers");
        assert_eq!(r.memory, derived.memory, "{what}: {name}: memory");
    }
    assert!(
        !derived_rec.events.is_empty(),
        "{what}: something was recorded"
    );
    same_recording(&derived_rec.events, &hooked_rec.events, &what);
    assert_eq!(derived_rec.words.0, hooked_rec.words.0, "{what}: words");
    assert_eq!(
        hooked_rec.words.1, 0,
        "{what}: by hook, the hook wrote every word"
    );
    derived_rec
}

/// A recording as what it says: its step words in order, and each
/// translation given with the number of words before it.
fn expand(events: &[Event]) -> (Vec<u64>, Vec<(usize, &Event)>) {
    let mut words = Vec::new();
    let mut given = Vec::new();
    for e in events {
        match e {
            Event::Steps(w) => words.extend_from_slice(w),
            t => given.push((words.len(), t)),
        }
    }
    (words, given)
}

/// The recording made with the clock derived from the count (most words
/// written by the translated code) says what the one made by the hook
/// says: the same step words in the same order, and every translation
/// given at the same step, the same bytes. The hook's may give a
/// translation again, the same, where the counting table lost the
/// block's slot to another block (src/machine/counter.rs, `TbCounts`),
/// while the translated code knows its translation was given by a flag
/// of its own (patch 0012): that is so for an untimed program too.
/// Where the words are handed over in batches is not compared: a batch
/// ends where a translation is given.
fn same_recording(derived: &[Event], hooked: &[Event], what: &str) {
    let (dw, dt) = expand(derived);
    let (hw, ht) = expand(hooked);
    assert_eq!(dw.len(), hw.len(), "{what}: step words");
    if let Some(k) = (0..dw.len()).find(|&k| dw[k] != hw[k]) {
        panic!("{what}: step word {k}: {:x} by hook {:x}", dw[k], hw[k]);
    }
    let mut rest = dt.iter().peekable();
    let mut seen: Vec<&Event> = Vec::new();
    for (at, t) in &ht {
        if rest.peek().is_some_and(|(a, d)| a == at && d == t) {
            rest.next();
        } else {
            assert!(
                seen.contains(t),
                "{what}: a translation given by the hook at step {at} and not by the \
                 translated code was never given before: {t:?}"
            );
        }
        seen.push(t);
    }
    assert!(
        rest.next().is_none(),
        "{what}: a translation given with the clock derived and not by the hook"
    );
}

/// The program run to its end every way, then stopped by budgets at a
/// third, half and all but one of its instructions; the full run's
/// recording, which the translated code wrote at least four words in
/// five of on the patched engine (roms/ticks.exe, a system call every
/// seven blocks, has the fewest: the block after each call goes to the
/// hook) (the point of the derived clock: a timed program records at
/// an untimed one's speed).
fn timed_program_runs_alike(file: &Path) -> End {
    let full = same_every_way(file, 0);
    let all = full.executed.expect("counted");
    for budget in [all / 3, all / 2 + 1, all - 1] {
        same_every_way(file, budget);
    }
    if cfg!(not(feature = "unpatched-engine")) {
        let (total, inline) = full.words;
        assert!(
            inline * 5 >= total * 4,
            "{}: only {inline} of {total} words written by the translated code",
            file.display()
        );
    }
    full
}

fn watcom(name: &str, kind: common::watcom::Kind, flags: &[&str]) -> Option<PathBuf> {
    common::watcom::build(name, kind, &[&format!("{name}.c")], None, flags)
}

/// Win16: a timer, a message loop and busy waits on GetTickCount. Beside
/// agreeing both ways, what it read is what Windows documents: the
/// message time of a WM_TIMER is the time it was posted, before the
/// window procedure's GetTickCount (Windows 3.1 SDK, GetMessageTime:
/// "the time elapsed from the time the system was started to the time
/// the message was created"); the busy wait ends once 60 ms have passed
/// on GetTickCount; the timer's messages come in order of time.
#[test]
fn a_win16_message_loop_reading_the_clock_runs_alike() {
    let Some(exe) = watcom("clockloop", common::watcom::Kind::Win16Exe, &[]) else {
        return;
    };
    let full = timed_program_runs_alike(&exe);
    let lines: Vec<&str> = full.output.lines().collect();
    // A headless session fires a timer three times on an otherwise
    // empty queue (src/win16/user/timer.rs, IDLE_TICKS): the program
    // quits after the third.
    assert_eq!(lines.len(), 4, "{}", full.output);
    assert_eq!(lines[3], "quit");
    let mut last_msgtime = None;
    for (i, l) in lines[..3].iter().enumerate() {
        let w: Vec<&str> = l.split_whitespace().collect();
        assert_eq!(
            (w[0], w[1], w[2], w[4], w[6], w[8]),
            (
                "timer",
                &*i.to_string(),
                "tick",
                "msgtime",
                "waited",
                "reads"
            ),
            "{l}"
        );
        let num = |k: usize| w[k].parse::<u64>().unwrap();
        let (tick, msgtime, waited, reads) = (num(3), num(5), num(7), num(9));
        assert!(msgtime <= tick, "{l}");
        assert!(waited >= 60 && reads >= 1, "{l}");
        if let Some(m) = last_msgtime {
            assert!(msgtime > m, "{l}");
        }
        last_msgtime = Some(msgtime);
    }
    assert!(full.stop.contains("Exit"), "{}", full.stop);
}

/// DOS: busy loops reading the BIOS tick count, as Turbo Pascal's Delay
/// calibration does; the passes between ticks tell where each fell.
#[test]
fn a_dos_busy_loop_on_the_bios_tick_count_runs_alike() {
    let Some(exe) = watcom("biosspin", common::watcom::Kind::DosExe, &["-ms"]) else {
        return;
    };
    let full = timed_program_runs_alike(&exe);
    let lines: Vec<&str> = full.output.lines().collect();
    assert_eq!(lines.len(), 5, "{}", full.output);
    // Each tick is one BIOS tick (18.2 a second) after the last, so the
    // three waits after the first, which starts at an arbitrary point of
    // a tick, are full ticks of the same loop: the same number of passes
    // to within a pass.
    let passes: Vec<u64> = lines[..4]
        .iter()
        .map(|l| l.rsplit(' ').next().unwrap().parse().unwrap())
        .collect();
    assert!(passes[1] > 1000, "{passes:?}");
    for p in &passes[2..] {
        assert!(p.abs_diff(passes[1]) <= 1, "{passes:?}");
    }
    assert_eq!(lines[4], "done");
}

/// DOS programs with their own timer handlers: INT 08h chained to the
/// BIOS's (dostimer.c), INT 08h that stops chaining (tickchain.c).
#[test]
fn dos_programs_with_their_own_timer_handlers_run_alike() {
    if let Some(exe) = watcom("dostimer", common::watcom::Kind::DosExe, &["-ms"]) {
        let full = timed_program_runs_alike(&exe);
        assert!(full.output.contains("ticks 4 spins "), "{}", full.output);
    }
    if let Some(exe) = watcom("tickchain", common::watcom::Kind::DosExe, &["-ms"]) {
        let full = timed_program_runs_alike(&exe);
        assert_eq!(
            full.output,
            "chained 1 0\nchained 1 0\nchained 1 0\nunchained 0 0\nfirst same\n"
        );
    }
}

/// roms/ticks.exe: 100,000 calls of GetTickCount, each a read of the
/// clock between blocks the translated code counted.
#[test]
fn a_win16_program_calling_gettickcount_runs_alike() {
    timed_program_runs_alike(&rom("ticks.exe"));
}

/// The debugger runs a timed Win16 program without its hook on every
/// instruction between breakpoints (src/debug/mod.rs, `may_run_fast`),
/// the blocks counting themselves and the clock derived from the count:
/// the session is the one made with the hook on every instruction
/// (`TOOLHELP16_ALWAYS_HOOK=1`), stop for stop, and the program reads the
/// same clock as in a plain run (its lines, with the times it read, are the
/// plain run's). Breakpoints on USER's GetMessageTime, `finish` out of
/// it, a reverse step and a step at the end.
#[test]
fn a_debugged_win16_message_loop_reads_the_clock_of_a_plain_run() {
    let Some(exe) = watcom("clockloop", common::watcom::Kind::Win16Exe, &[]) else {
        return;
    };
    let prog = exe.to_str().unwrap();
    let plain = common::bin().args(["run", prog]).output().unwrap();
    let plain = String::from_utf8_lossy(&plain.stdout).replace("\r\n", "\n");
    let script = "break USER!GetMessageTime\ncontinue\nposition\nregs\ncontinue\nhooks\nposition\n\
                  finish\nposition\nregs\ncontinue\nposition\nreverse-stepi\nposition\n\
                  stepi\nposition\n";
    let fast = common::debug_session(&[prog], script, &[]);
    let hooked = common::debug_session(&[prog], script, &[("TOOLHELP16_ALWAYS_HOOK", "1")]);
    // `hooks` says how the program ran to the stop; the rest must agree.
    let how = |t: &str| {
        let lines: Vec<&str> = t.lines().collect();
        let k = lines.iter().position(|l| *l == "(debug) hooks").unwrap();
        (
            lines[k + 1].to_string(),
            lines
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != k + 1)
                .map(|(_, l)| *l)
                .collect::<Vec<_>>()
                .join("\n"),
        )
    };
    let ((fast_how, fast_rest), (hooked_how, hooked_rest)) = (how(&fast), how(&hooked));
    assert_eq!(
        fast_rest, hooked_rest,
        "the session differs without the hook"
    );
    assert_eq!(
        fast_how, "ran to this stop with code hooks on the breakpoints only",
        "{fast}"
    );
    assert!(hooked_how.contains("every instruction"), "{hooked}");
    let printed: Vec<&str> = fast
        .lines()
        .filter(|l| l.starts_with("timer ") || *l == "quit")
        .collect();
    let expected: Vec<&str> = plain
        .lines()
        .filter(|l| l.starts_with("timer ") || *l == "quit")
        .collect();
    assert_eq!(expected.len(), 4, "{plain}");
    assert_eq!(printed, expected, "{fast}");
    let positions: Vec<u64> = fast
        .lines()
        .collect::<Vec<_>>()
        .windows(2)
        .filter(|w| w[0] == "(debug) position")
        .map(|w| w[1].parse().unwrap())
        .collect();
    assert_eq!(positions.len(), 6, "{fast}");
    assert!(
        positions[..4].windows(2).all(|w| w[0] < w[1]),
        "{positions:?}"
    );
    assert_eq!(
        positions[4] + 1,
        positions[3],
        "reverse-stepi: {positions:?}"
    );
    assert_eq!(
        positions[5], positions[3],
        "stepi back to the end: {positions:?}"
    );
    assert!(fast.contains("exited with code 0"), "{fast}");
}
