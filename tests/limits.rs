//! What a program cannot do to the tool: outrun its instruction budget by
//! rewriting its own code, grow the tool's memory without bound, or end a
//! run cleanly with HLT.

use std::time::Duration;

mod common;
use common::{bin, json, rom, run_measured};

/// HLT with interrupts enabled waits for the next timer interrupt: the
/// emulated clock skips to the next tick, the program's INT 1Ch handler
/// runs there, and the program goes on after the HLT (roms/doshlt.asm:
/// three HLTs, three ticks, three calls of the handler). HLT with
/// interrupts disabled would hang a PC: the run stops there with its own
/// stop kind, exit 117, and the walk from the HLT (halt_here, called by
/// main).
#[test]
fn hlt_waits_for_the_timer_or_hangs() {
    let out = bin()
        .args(["run", "--json"])
        .arg(rom("doshlt.com"))
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(out.status.code(), Some(117), "{v}");
    assert_eq!(v["output"], "ticks 0003 handler 0003\r\n");
    assert_eq!(v["exit"]["kind"], "hung");
    assert!(
        v["exit"]["text"]
            .as_str()
            .unwrap()
            .contains("halted with interrupts disabled"),
        "{v}"
    );
    let frames = v["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 2, "{v}");
    // Frame 0 is the HLT itself, one byte after the CLI.
    let (cs, ip) = (
        frames[0]["wCS"].as_u64().unwrap(),
        frames[0]["wIP"].as_u64().unwrap(),
    );
    let code = std::fs::read(rom("doshlt.com")).unwrap();
    let at = (ip - 0x100) as usize;
    assert_eq!(
        &code[at - 1..=at],
        [0xFA, 0xF4],
        "CLI; HLT at {cs:04X}:{ip:04X}"
    );
    // Text: the sentence and the walk.
    let out = bin().arg("run").arg(rom("doshlt.com")).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("the machine would hang"), "{err}");
    assert!(err.contains("walk ended:"), "{err}");
}

/// A program rewriting the instruction it is about to run makes the
/// emulator retranslate on every pass; the budget still holds, exactly.
#[test]
fn self_modifying_code_keeps_to_the_budget() {
    let m = run_measured(
        bin()
            .args(["run", "--json", "--timeout", "120", "--max-insns", "100000"])
            .arg(rom("dossmc.com")),
        Duration::from_secs(180),
    );
    let v = json(&m.out);
    assert_eq!(m.out.status.code(), Some(122), "{v}");
    assert_eq!(v["exit"]["kind"], "budget");
}

/// Every kind of self-modifying program ends by its instruction budget,
/// never by the wall clock: roms/smc8.com (8 bytes, rewrites the
/// instruction it runs next), roms/dossmc.com (rewrites an instruction of
/// its own block), roms/smcdata.com (stores next to its code every pass)
/// and roms/smcboot.img (a boot sector copying code over itself). Each
/// runs forever; with `--max-insns 2000000` each stops with exit 122 and
/// the stop kind `budget` (README, exit codes). The wall-clock limit
/// given is far past what the budget takes (vendor/README.md, patch
/// 0010; `bench` measures the time), so a 123 is a program that outran
/// its budget.
#[test]
fn every_self_modifying_program_ends_by_its_budget() {
    for name in ["smc8.com", "dossmc.com", "smcdata.com", "smcboot.img"] {
        let m = run_measured(
            bin()
                .args([
                    "run",
                    "--json",
                    "--timeout",
                    "300",
                    "--max-insns",
                    "2000000",
                ])
                .arg(rom(name)),
            Duration::from_secs(400),
        );
        let v = json(&m.out);
        assert_eq!(m.out.status.code(), Some(122), "{name}: {v}");
        assert_eq!(v["exit"]["kind"], "budget", "{name}");
    }
}

/// However long a program rewrites its own code, the tool's memory stays
/// bounded: QEMU's own translation buffer would grow by up to 1 GiB, the
/// machine's is 32 MiB (machine/mod.rs, TCG_BUFFER_BYTES). Ten seconds of
/// roms/dossmc.asm stay well under 200 MiB.
#[test]
fn self_modifying_code_keeps_memory_bounded() {
    let m = run_measured(
        bin()
            .args(["run", "--timeout", "10", "--max-insns", "0"])
            .arg(rom("dossmc.com")),
        Duration::from_secs(60),
    );
    assert_eq!(m.out.status.code(), Some(123));
    if m.peak_kib == 0 {
        common::need::tool_missing("/proc (peak memory is not measured)", "a Linux host has it");
        return;
    }
    assert!(
        m.peak_kib < 200 * 1024,
        "peak resident memory {} KiB",
        m.peak_kib
    );
}

/// A system function that calls back into the program needs room on the
/// program's stack for the callback's frame (win16/callback.rs). Without
/// it, Windows' own push faults: a stack fault (exception 12), reported
/// with its number and walk, never an emulator error. roms/winmsg.exe
/// runs WinMain with SS:SP moved to 0040: CreateWindow's arguments still
/// fit, its WM_GETMINMAXINFO callback's frame does not.
#[test]
fn no_room_for_a_callback_frame_is_a_stack_fault() {
    use toolhelp16::machine::{Cpu, R, RunLimits, Stop};
    use toolhelp16::session::{self, LoadOptions, Loc};
    let mut p = session::load(&rom("winmsg.exe"), &LoadOptions::default()).unwrap();
    let winmain = p.resolve(&"WINMSG!WinMain".parse().unwrap()).unwrap();
    let limits = RunLimits {
        max_insns: 1_000_000,
        ..Default::default()
    };
    for _ in 0..1000 {
        if (p.machine.reg(R::CS), p.machine.reg(R::IP)) == winmain {
            break;
        }
        let stop = p.run(limits, Some(&Loc::After(1))).unwrap();
        assert_eq!(stop, Stop::Budget);
    }
    assert_eq!((p.machine.reg(R::CS), p.machine.reg(R::IP)), winmain);
    // WinMain's arguments and return address go with the stack.
    let (ss, sp) = (p.machine.reg(R::SS), p.machine.reg(R::SP));
    let mut top = [0u8; 6];
    p.machine.read_seg(ss, sp, &mut top).unwrap();
    p.machine.write_seg(ss, 0x40, &top).unwrap();
    p.machine.set_reg(R::SP, 0x40).unwrap();
    let stop = p.run(limits, None).unwrap();
    let Stop::Fault(f) = &stop else {
        panic!("not a fault: {stop:?}");
    };
    assert_eq!(f.number, 12, "{}", f.detail);
    let w = p.walk_at_stop(&stop).expect("a walk from the fault");
    assert!(!w.frames.is_empty());
}

/// A system function given a pointer past its segment (GetMessage's MSG
/// buffer at DS:FFF0 in a data segment of 100h bytes) faults as Windows'
/// USER faulted writing there: a general-protection fault, never an
/// emulator error. roms/winmsg.exe's GetMessage call is at WINMSG:1:008D,
/// its lpMsg offset at SS:SP+6.
#[test]
fn a_bad_pointer_given_to_a_system_function_is_a_fault() {
    use toolhelp16::machine::{Cpu, R, RunLimits, Stop};
    use toolhelp16::session::{self, LoadOptions, Loc};
    let mut p = session::load(&rom("winmsg.exe"), &LoadOptions::default()).unwrap();
    let call = p.resolve(&"WINMSG:1:008D".parse().unwrap()).unwrap();
    let limits = RunLimits {
        max_insns: 1_000_000,
        ..Default::default()
    };
    // The first GetMessage call is the 640th instruction the program runs
    // (`toolhelp16 trace roms/winmsg.exe`, line 640: after the messages
    // CreateWindow, ShowWindow and UpdateWindow send).
    let stop = p.run(limits, Some(&Loc::After(639))).unwrap();
    assert_eq!(stop, Stop::Budget);
    assert_eq!((p.machine.reg(R::CS), p.machine.reg(R::IP)), call);
    let (ss, sp) = (p.machine.reg(R::SS), p.machine.reg(R::SP));
    assert_eq!(p.machine.read_u16_at(ss, sp + 6).unwrap(), 0x2A, "lpMsg");
    p.machine.write_u16_at(ss, sp + 6, 0xFFF0).unwrap();
    let stop = p.run(limits, None).unwrap();
    let Stop::Fault(f) = &stop else {
        panic!("not a fault: {stop:?}");
    };
    assert_eq!(f.number, 13, "{}", f.detail);
    assert!(f.detail.contains("FFF0"), "{}", f.detail);
}
