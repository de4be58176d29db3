//! `trace --record` with the step words written by the translated code
//! itself (engine patch 0012; src/machine/record.rs, "Cost") makes the
//! same recording as the counting hook called on every block (the way it
//! was made before, and still is on the unpatched engine), and neither
//! changes the run: the same stop, instruction count, registers and
//! memory as a run that records nothing. Cases: DOS calls, code that
//! rewrites itself stopped by the budget inside a block, budgets ending
//! on and inside blocks of a tight loop, a recording longer than the
//! ring (so the ring fills and is handed over mid-run), a timed DOS
//! program (timer interrupts), a Win16 fault, and Win16 programs whose
//! window procedures run in nested emulations.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use toolhelp16::machine::record::{BlockRecorder, Translation};
use toolhelp16::machine::{Cpu, RunLimits, Uc};
use toolhelp16::session::{LoadOptions, load};

mod common;
use common::rom;

/// What a recorder is given, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Event {
    Translation {
        linear: u64,
        cs: u16,
        ip: u16,
        icount: u32,
        bytes: Vec<u8>,
    },
    Steps(Vec<u64>),
}

struct Keep(Rc<RefCell<Vec<Event>>>);

impl BlockRecorder for Keep {
    fn translation(&mut self, _uc: &Uc<'_>, t: &Translation<'_>) -> std::io::Result<()> {
        self.0.borrow_mut().push(Event::Translation {
            linear: t.linear,
            cs: t.cs,
            ip: t.ip,
            icount: t.icount,
            bytes: t.bytes.to_vec(),
        });
        Ok(())
    }

    fn steps(&mut self, words: &mut Vec<u64>) -> std::io::Result<()> {
        self.0
            .borrow_mut()
            .push(Event::Steps(std::mem::take(words)));
        Ok(())
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum How {
    NotRecorded,
    Inline,
    ByHook,
}

/// The end of a run: the stop, instructions executed, registers, a hash
/// of the first 16 MiB of linear memory (unmapped 64 KiB pieces hashed
/// as such); the recording's events, and the words the translated code
/// wrote.
#[derive(Debug)]
struct End {
    stop: String,
    executed: Option<u64>,
    regs: String,
    memory: u64,
    events: Vec<Event>,
    words: (u64, u64),
}

fn fnv(h: &mut u64, bytes: &[u8]) {
    for &b in bytes {
        *h ^= u64::from(b);
        *h = h.wrapping_mul(0x100_0000_01b3);
    }
}

fn run(file: &str, tail: &str, max_insns: u64, how: How) -> End {
    let opts = LoadOptions {
        tail: tail.to_string(),
        stdin: Some(Vec::new()),
        clock: toolhelp16::dos::clock::Clock::Fixed(
            toolhelp16::dos::clock::DateTime::parse("1992-04-06 12:34:56").unwrap(),
        ),
        ..Default::default()
    };
    let mut p = load(&rom(file), &opts).unwrap_or_else(|e| panic!("{file}: {e}"));
    let events = Rc::new(RefCell::new(Vec::new()));
    match how {
        How::NotRecorded => p.machine.count_instructions(),
        How::Inline => p.machine.record_blocks(Box::new(Keep(events.clone()))),
        How::ByHook => p
            .machine
            .record_blocks_by_hook(Box::new(Keep(events.clone()))),
    }
    let stop = p
        .run(
            RunLimits {
                max_insns,
                timeout: Duration::from_secs(60),
            },
            None,
        )
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    if how != How::NotRecorded {
        let (_, err) = p.machine.stop_recording().expect("a recording");
        assert!(err.is_none(), "{file}: {err:?}");
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
    let events = events.borrow().clone();
    End {
        stop: format!("{stop:?}"),
        executed: p.machine.executed(),
        regs: format!("{:?}", p.machine.regs()),
        memory,
        events,
        words: p.machine.recorded_words(),
    }
}

/// The three runs of `file` agree; returns (words recorded, words the
/// translated code wrote).
fn same_three_ways(file: &str, tail: &str, max_insns: u64) -> (u64, u64) {
    let what = format!("{file} (budget {max_insns})");
    let plain = run(file, tail, max_insns, How::NotRecorded);
    let inline = run(file, tail, max_insns, How::Inline);
    let hooked = run(file, tail, max_insns, How::ByHook);
    for (name, r) in [("inline", &inline), ("by hook", &hooked)] {
        assert_eq!(r.stop, plain.stop, "{what}: {name}: the stop");
        assert_eq!(r.executed, plain.executed, "{what}: {name}: instructions");
        assert_eq!(r.regs, plain.regs, "{what}: {name}: registers");
        assert_eq!(r.memory, plain.memory, "{what}: {name}: memory");
    }
    assert!(!inline.events.is_empty(), "{what}: something was recorded");
    // The recordings alike, translation for translation and word for
    // word, handed over at the same points.
    assert_eq!(
        inline.events.len(),
        hooked.events.len(),
        "{what}: events recorded"
    );
    for (i, (a, b)) in inline.events.iter().zip(&hooked.events).enumerate() {
        assert_eq!(a, b, "{what}: event {i}");
    }
    assert_eq!(inline.words.0, hooked.words.0, "{what}: words");
    assert_eq!(
        hooked.words.1, 0,
        "{what}: by hook, the hook wrote every word"
    );
    inline.words
}

/// The words the translated code wrote, for a program that repeats
/// blocks: most of them.
fn mostly_inline((total, inline): (u64, u64), what: &str) {
    assert!(
        inline * 10 >= total * 9,
        "{what}: only {inline} of {total} words written by the translated code"
    );
}

#[test]
fn dos_calls_record_alike() {
    same_three_ways("dos21.com", "", 0);
}

/// roms/dossmc.com rewrites the instruction it runs next; the budgets
/// end inside its blocks and on the rewritten code.
#[test]
fn self_modifying_code_stopped_inside_a_block_records_alike() {
    for budget in [3001, 3002, 4097, 20_011] {
        same_three_ways("dossmc.com", "", budget);
    }
}

/// roms/hot.com's tight loops, stopped by budgets on block boundaries
/// and inside blocks, and run to its end.
#[test]
fn budgets_on_and_inside_blocks_record_alike() {
    for budget in [1, 2, 999, 1000, 1001, 77_777, 0] {
        let words = same_three_ways("hot.com", "", budget);
        if budget == 0 && cfg!(not(feature = "unpatched-engine")) {
            mostly_inline(words, "hot.com");
        }
    }
}

/// A .COM of two nested loops whose inner block is `dec cx; jnz` (three
/// times 65,535 passes, then exit): its recording is longer than the
/// ring's 65,536 words, so the ring fills in the translated code and is
/// handed over mid-run, three times; budgets stop it just before and
/// after a fill.
#[test]
fn a_recording_past_a_full_ring_records_alike() {
    // mov dx,3 / L1: mov cx,FFFFh / L2: dec cx / jnz L2 / dec dx / jnz L1
    // / mov ax,4C00h / int 21h
    let code = b"\xBA\x03\x00\xB9\xFF\xFF\x49\x75\xFD\x4A\x75\xF7\xB8\x00\x4C\xCD\x21";
    let dir = common::scratch("record-inline-ring");
    std::fs::write(dir.join("loops.com"), code).unwrap();
    let file = dir.join("loops.com");
    let file = file.to_str().unwrap();
    let words = same_three_ways(file, "", 0);
    assert!(
        words.0 > 3 * toolhelp16::machine::record::BUFFER_WORDS as u64 / 2,
        "the ring filled: {words:?}"
    );
    if cfg!(not(feature = "unpatched-engine")) {
        mostly_inline(words, "loops.com");
    }
    let n = toolhelp16::machine::record::BUFFER_WORDS as u64;
    for budget in [2 * n - 1, 2 * n + 1, 2 * n + 2] {
        same_three_ways(file, "", budget);
    }
}

/// A DOS program that keeps time (the BIOS timer interrupt): its blocks
/// record themselves up to each tick, which the hook delivers at a
/// block's entry, and the recording is the same.
#[test]
fn a_timed_dos_program_records_alike() {
    same_three_ways("dosirq.com", "", 2_000_000);
}

/// A Win16 divide error: the faulting instruction is the recording's
/// last step, a cut marked faulted.
#[test]
fn a_win16_fault_records_alike() {
    same_three_ways("faults.exe", "d", 0);
}

/// Win16 programs whose window procedures USER calls back in nested
/// emulations (roms/demo.exe's messages, roms/recurse.exe's recursion),
/// and one calling the system 100,000 times (roms/ticks.exe), to their
/// exit and stopped by budgets inside them.
#[test]
fn win16_programs_with_nested_emulations_record_alike() {
    for file in ["demo.exe", "recurse.exe", "ticks.exe"] {
        // A Win16 run keeps time (time.rs): its clock is derived from the
        // count, so its blocks record themselves as an untimed run's do
        // (tests/timed_inline.rs compares the clock with the hook's).
        let words = same_three_ways(file, "", 0);
        assert!(words.0 > 0, "{file}: {words:?}");
        let all = run(file, "", 0, How::NotRecorded)
            .executed
            .expect("counted");
        for budget in [all / 3, all / 2 + 1, all - 1] {
            same_three_ways(file, "", budget);
        }
    }
}
