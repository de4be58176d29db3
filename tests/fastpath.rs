//! The fast path changes no result (issue 19): a run with no hook at all,
//! a run under an instruction budget (the block counter,
//! machine/counter.rs), a traced run (block observers) and a run with a
//! hook per instruction end at the same fault, at the same CS:IP, with the
//! same registers; and a budget of N instructions stops after exactly N,
//! in a loop, in the middle of a block, and in code that rewrites itself.
//!
//! Expected values come from the x86 semantics of the few instructions
//! each program runs (Intel's SDM: MOV, INC, DEC, JNZ, ADD), worked out
//! here by hand, never from what a run prints.

use std::time::Duration;

use toolhelp16::machine::{Cpu, Machine, Observer, R, RunLimits, SegKind, Stop, Uc};
use toolhelp16::session::{LoadOptions, Program, load};
use toolhelp16::trace::{TraceOptions, Tracer};

mod common;
use common::{rom, scratch};

/// The ways a run can be watched.
#[derive(Debug, Clone, Copy)]
enum Path {
    /// No hook: neither budget nor observer.
    Bare,
    /// A budget far beyond the run: the block counter.
    Budget,
    /// The tracer writing to nowhere: a block observer.
    Traced,
    /// A hook per instruction (what `trace --regs` installs).
    PerInsn,
}

const PATHS: [Path; 4] = [Path::Bare, Path::Budget, Path::Traced, Path::PerInsn];

/// Counts the instructions its per-instruction hook sees.
struct Counter(u64);

impl Observer for Counter {
    fn on_block(&mut self, _: &Uc<'_>, _: u64, _: u32, _: u16, _: u16) -> Option<Stop> {
        None
    }
    fn on_insn(&mut self, _: &Uc<'_>, _: u64, _: u32) {
        self.0 += 1;
    }
}

fn limits(path: Path) -> RunLimits {
    RunLimits {
        max_insns: match path {
            Path::Budget => 1 << 40,
            _ => 0,
        },
        timeout: Duration::from_secs(60),
    }
}

fn watch(m: &mut Machine, path: Path) {
    match path {
        Path::Bare | Path::Budget => {}
        Path::Traced => m.add_observer(Box::new(Tracer::new(
            TraceOptions::default(),
            Box::new(std::io::sink()),
        ))),
        Path::PerInsn => {
            m.add_observer(Box::new(Counter(0)));
            m.watch_instructions().unwrap();
        }
    }
}

/// roms/faults.exe with the command-tail `letter`, run along `path`.
fn faults_run(letter: &str, path: Path) -> Stop {
    let o = LoadOptions {
        tail: format!(" {letter}"),
        dir: Some(rom("faults.exe").parent().unwrap().to_path_buf()),
        ..Default::default()
    };
    let mut p: Program = load(&rom("faults.exe"), &o).unwrap();
    watch(&mut p.machine, path);
    p.run(limits(path), None).unwrap()
}

/// Every fault of roms/faults.exe (divide error, invalid opcode, INT 3,
/// single step, four general-protection faults, a stack fault) is the same
/// fault, at the same CS:IP, with the same registers, on every path.
#[test]
fn every_fault_of_faults_exe_is_the_same_on_every_path() {
    for letter in ["d", "u", "i", "s", "w", "v", "n", "o", "r"] {
        let want = faults_run(letter, Path::Bare);
        assert!(
            matches!(want, Stop::Fault(_)),
            "faults {letter}: untraced run: {want:?}"
        );
        for path in PATHS {
            let got = faults_run(letter, path);
            assert_eq!(got, want, "faults {letter}: {path:?} against no hook");
        }
    }
}

/// roms/smcpages.com keeps data and code in the same 4 KiB pages every
/// way the engine's store rules tell apart (vendor/README.md): data
/// stores around live code from another page (enough of them that the
/// engine drops the page's translations), a function that stores into its
/// own page and then rewrites itself, code written into a page that has
/// only held data, an unaligned word store that rewrites an opcode's
/// immediate, and a function whose block spans two pages. Each function
/// is `mov al, imm8; ret`, so AL is the immediate the CPU executed (Intel
/// SDM, MOV): the one written last, on every path, or a stale
/// translation ran.
#[test]
fn code_rewritten_among_data_runs_as_rewritten_on_every_path() {
    let want = "a 0011 0011 0022\r\nb 0044\r\nc 0055 0066\r\nd 0077 0088\r\ne 0099 00AA\r\n";
    for path in PATHS {
        let o = LoadOptions {
            dir: Some(rom("smcpages.com").parent().unwrap().to_path_buf()),
            ..Default::default()
        };
        let mut p: Program = load(&rom("smcpages.com"), &o).unwrap();
        watch(&mut p.machine, path);
        let stop = p.run(limits(path), None).unwrap();
        assert_eq!(stop, Stop::Exited { code: 0 }, "{path:?}");
        assert_eq!(
            String::from_utf8_lossy(&p.env().console),
            want,
            "{path:?}: the values the rewritten functions returned"
        );
    }
}

/// A .COM that loops with LOOP, LOOPNZ and JCXZ and calls a far
/// procedure, whose blocks the engine chains into each other (vendor/
/// README.md, patch 0005) instead of passing through its main loop:
///
/// ```text
/// 0100 B9 05 00     mov cx, 5
/// 0103 40           inc ax          ; 5 times
/// 0104 E2 FD        loop 0103
/// 0106 B9 04 00     mov cx, 4
/// 0109 43           inc bx          ; 4 times: CX reaches 0 with ZF 0
/// 010A 39 C3        cmp bx, ax      ; BX 1..4 against AX 5: never equal
/// 010C E0 FB        loopnz 0109
/// 010E E3 02        jcxz 0112       ; CX is 0: taken
/// 0110 EB FE        jmp $           ; (never)
/// 0112 0E           push cs
/// 0113 E8 05 00     call 011B       ; near call to a far procedure
/// 0116 B8 00 4C     mov ax, 4C00h
/// 0119 CD 21        int 21h
/// 011B 42           inc dx          ; the far procedure
/// 011C CB           retf
/// ```
///
/// The path (Intel SDM: LOOP decrements CX and jumps while it is not 0;
/// LOOPNZ also stops when ZF is 1; JCXZ jumps when CX is 0; RETF pops IP
/// then CS) is 1 + 5×2 + 1 + 4×3 + 1 (jcxz) + 1 (push) + 1 (call) + 1
/// (inc dx) + 1 (retf) = 29 instructions before `mov ax`, 31 with the
/// exit. A budget of N stops after exactly N, with the registers of those
/// N; unbudgeted, the program exits on every path.
#[test]
fn loops_and_far_returns_count_exactly_under_a_budget() {
    let code: &[u8] = &[
        0xB9, 0x05, 0x00, 0x40, 0xE2, 0xFD, 0xB9, 0x04, 0x00, 0x43, 0x39, 0xC3, 0xE0, 0xFB, 0xE3,
        0x02, 0xEB, 0xFE, 0x0E, 0xE8, 0x05, 0x00, 0xB8, 0x00, 0x4C, 0xCD, 0x21, 0x42, 0xCB,
    ];
    // The IPs of the 31 instructions, in order.
    let mut ips = vec![0x100u16];
    for _ in 0..5 {
        ips.extend([0x103, 0x104]);
    }
    ips.push(0x106);
    for _ in 0..4 {
        ips.extend([0x109, 0x10A, 0x10C]);
    }
    ips.extend([0x10E, 0x112, 0x113, 0x11B, 0x11C, 0x116, 0x119]);
    assert_eq!(ips.len(), 31);
    // (AX, BX, CX, DX) after the first n instructions, from the start's.
    let state = |n: usize, (ax0, bx0, cx0, dx0): (u16, u16, u16, u16)| {
        let (mut ax, mut bx, mut cx, mut dx) = (ax0, bx0, cx0, dx0);
        for &ip in &ips[..n] {
            match ip {
                0x100 => cx = 5,
                0x103 => ax = ax.wrapping_add(1),
                0x104 | 0x10C => cx -= 1,
                0x106 => cx = 4,
                0x109 => bx = bx.wrapping_add(1),
                0x11B => dx = dx.wrapping_add(1),
                0x116 => ax = 0x4C00,
                _ => {}
            }
        }
        (ax, bx, cx, dx)
    };
    for n in 1..=30u64 {
        let mut p = load_com("loops-exact", code);
        let m = &p.machine;
        // AX and BX start at 0 in a .COM (DOS's values), so BX never
        // meets AX = 5 inside the LOOPNZ: the path above holds.
        let start = (m.reg(R::AX), m.reg(R::BX), m.reg(R::CX), m.reg(R::DX));
        assert_eq!((start.0, start.1), (0, 0), "a .COM starts with AX = BX = 0");
        run_budget(&mut p, n);
        let m = &p.machine;
        assert_eq!(
            (
                m.reg(R::IP),
                (m.reg(R::AX), m.reg(R::BX), m.reg(R::CX), m.reg(R::DX))
            ),
            (ips[n as usize], state(n as usize, start)),
            "N = {n}: IP and AX, BX, CX, DX"
        );
    }
    for path in PATHS {
        let mut p = load_com("loops-path", code);
        watch(&mut p.machine, path);
        let stop = p.run(limits(path), None).unwrap();
        assert_eq!(stop, Stop::Exited { code: 0 }, "{path:?}");
    }
}

/// A protected-mode machine running `code` at offset 0 of a code segment,
/// DS = SS = a 0x100-byte data segment, SP = 0x100.
fn pm(code: &[u8]) -> Machine {
    let mut m = Machine::new_protected().expect("machine");
    let cs = m
        .alloc_segment(SegKind::Code, code.len() as u32, code)
        .unwrap();
    let ds = m.alloc_segment(SegKind::Data, 0x100, &[]).unwrap();
    m.set_reg(R::SS, ds).unwrap();
    m.set_reg(R::SP, 0x100).unwrap();
    m.set_reg(R::DS, ds).unwrap();
    m.set_csip(cs, 0).unwrap();
    m
}

/// A fault in the middle of a long translation block: 40 `inc ax` then a
/// word write one byte past DS's limit (a general-protection fault, 13),
/// then more code in the same block. On every path the fault is at the
/// write (IP 40), with AX = 40 (the forty increments done) and BX = 0
/// (the `inc bx` after the write never ran).
#[test]
fn a_fault_in_the_middle_of_a_long_block_is_exact_on_every_path() {
    let mut code = vec![0x40; 40]; // inc ax x 40
    code.extend_from_slice(&[0x89, 0x06, 0xFF, 0x00]); // mov [00FFh], ax
    code.extend_from_slice(&[0x43; 8]); // inc bx x 8
    code.extend_from_slice(&[0xEB, 0xFE]); // jmp $
    for path in PATHS {
        let mut m = pm(&code);
        m.set_reg(R::AX, 0).unwrap();
        m.set_reg(R::BX, 0).unwrap();
        watch(&mut m, path);
        let stop = m.run(RunLimits {
            max_insns: match path {
                Path::Budget => 1_000_000,
                _ => 0,
            },
            timeout: Duration::from_secs(10),
        });
        let Stop::Fault(f) = stop else {
            panic!("{path:?}: {stop:?}");
        };
        assert_eq!(f.number, 13, "{path:?}: {f:?}");
        assert_eq!(f.ip, 40, "{path:?}: the write is the 41st instruction");
        assert_eq!((f.regs.ax, f.regs.bx, f.regs.ip), (40, 0, 40), "{path:?}");
        if let Path::Budget = path {
            assert_eq!(m.executed(), Some(40), "forty increments completed");
        }
    }
}

/// The bench loop (src/cli/bench.rs): `mov dx,OUTER; outer: mov cx,INNER;
/// inner: 8 ALU instructions; dec cx; jnz inner; dec dx; jnz outer; mov
/// ax,4C00h; int 21h`, at 0100h of a .COM.
fn loop_com(outer: u16, inner: u16) -> Vec<u8> {
    let mut c = vec![0xBA];
    c.extend_from_slice(&outer.to_le_bytes());
    c.push(0xB9);
    c.extend_from_slice(&inner.to_le_bytes());
    c.extend_from_slice(&[
        0x01, 0xD8, 0x31, 0xC6, 0x47, 0x11, 0xF3, 0xD1, 0xC0, 0x29, 0xC7, 0x09, 0xFB, 0x21, 0xDE,
        0x49, 0x75, 0xEE, 0x4A, 0x75, 0xE8, 0xB8, 0x00, 0x4C, 0xCD, 0x21,
    ]);
    c
}

/// The offsets of the instructions the loop executes, in order, each with
/// what it does to (CX, DX): its control flow and its counters by hand.
fn loop_path(outer: u16, inner: u16) -> Vec<u16> {
    // add ax,bx; xor si,ax; inc di; adc bx,si; rol ax,1; sub di,ax;
    // or bx,di; and si,bx; dec cx; jnz inner
    const INNER: [u16; 10] = [
        0x106, 0x108, 0x10A, 0x10B, 0x10D, 0x10F, 0x111, 0x113, 0x115, 0x116,
    ];
    let mut p = vec![0x100]; // mov dx, OUTER
    for _ in 0..outer {
        p.push(0x103); // mov cx, INNER
        for _ in 0..inner {
            p.extend_from_slice(&INNER);
        }
        p.extend_from_slice(&[0x118, 0x119]); // dec dx; jnz outer
    }
    p.extend_from_slice(&[0x11B, 0x11E]); // mov ax, 4C00h; int 21h
    p
}

/// (IP, CX, DX) after the first `n` instructions of `path`, from CX and
/// DX as the program started (DOS's values for a .COM).
fn loop_state(
    path: &[u16],
    start: (u16, u16),
    outer: u16,
    inner: u16,
    n: usize,
) -> (u16, u16, u16) {
    let (mut cx, mut dx) = start;
    for &at in &path[..n] {
        match at {
            0x100 => dx = outer,
            0x103 => cx = inner,
            0x115 => cx -= 1,
            0x118 => dx -= 1,
            _ => {}
        }
    }
    (path[n], cx, dx)
}

fn load_com(name: &str, code: &[u8]) -> Program {
    let dir = scratch(name);
    let file = dir.join(format!("{name}.com"));
    std::fs::write(&file, code).unwrap();
    load(&file, &LoadOptions::default()).unwrap()
}

/// Run `p` under a budget of `n` instructions: it must stop for the
/// budget with exactly `n` counted.
fn run_budget(p: &mut Program, n: u64) {
    let stop = p
        .run(
            RunLimits {
                max_insns: n,
                timeout: Duration::from_secs(60),
            },
            None,
        )
        .unwrap();
    assert_eq!(stop, Stop::Budget, "N = {n}");
    assert_eq!(p.machine.executed(), Some(n), "N = {n}");
}

/// A budget of N stops before instruction N+1, wherever N falls: at a
/// block's first instruction, in its middle, at a jump; and the machine
/// counts exactly N.
#[test]
fn the_budget_stops_after_exactly_n_instructions() {
    let (outer, inner) = (3u16, 7u16);
    let code = loop_com(outer, inner);
    let path = loop_path(outer, inner);
    // Everything but the final `int 21h` (which ends the run).
    let last = path.len() - 1;
    let mut ns: Vec<usize> = (1..=40).collect();
    ns.extend([71, 72, 73, 74, 75, 76, 150, last - 2, last - 1, last]);
    for n in ns {
        let mut p = load_com("budget-exact", &code);
        let start = (p.machine.reg(R::CX), p.machine.reg(R::DX));
        run_budget(&mut p, n as u64);
        let (ip, cx, dx) = loop_state(&path, start, outer, inner, n);
        let m = &p.machine;
        assert_eq!(
            (m.reg(R::IP), m.reg(R::CX), m.reg(R::DX)),
            (ip, cx, dx),
            "N = {n}: IP, CX, DX"
        );
    }
}

/// A run counted to its end executes exactly the instructions of the
/// loop's path (int 21h included): the bench's instruction count.
#[test]
fn a_counted_run_counts_every_instruction() {
    let (outer, inner) = (4u16, 9u16);
    let mut p = load_com("count-all", &loop_com(outer, inner));
    p.machine.count_instructions();
    let stop = p.run(limits(Path::Bare), None).unwrap();
    assert_eq!(stop, Stop::Exited { code: 0 });
    assert_eq!(
        p.machine.executed(),
        Some(loop_path(outer, inner).len() as u64)
    );
}

/// roms/dossmc.com rewrites the immediate of its `mov bl, imm8` on every
/// pass (`mov [patch+1], al; inc al; patch: mov bl, 0; jmp again`: four
/// instructions a pass). After N instructions the registers are those of
/// the code as rewritten: the budget is exact and the rewritten byte is
/// what ran, pass after pass.
#[test]
fn self_modifying_code_stops_after_exactly_n_instructions() {
    let code = std::fs::read(rom("dossmc.com")).unwrap();
    for n in [1u64, 2, 3, 4, 5, 7, 8, 401, 402, 403, 404, 40_003, 100_000] {
        let mut p = load_com("smc-exact", &code);
        let al0 = p.machine.reg(R::AX) as u8;
        let bl0 = p.machine.reg(R::BX) as u8;
        run_budget(&mut p, n);
        // Passes completed and the instructions of the pass under way.
        let (k, r) = (n / 4, n % 4);
        let al = al0.wrapping_add((k + u64::from(r >= 2)) as u8);
        // BL: the byte stored by the last pass whose `mov bl` ran.
        let bl = if r >= 3 {
            al0.wrapping_add(k as u8)
        } else if k > 0 {
            al0.wrapping_add((k - 1) as u8)
        } else {
            bl0
        };
        let ip = [0x100u16, 0x103, 0x105, 0x107][r as usize];
        let m = &p.machine;
        assert_eq!(
            (m.reg(R::IP), m.reg(R::AX) as u8, m.reg(R::BX) as u8),
            (ip, al, bl),
            "N = {n}: IP, AL, BL"
        );
    }
}

/// roms/smc8.com increments the immediate of the `mov bl, imm8` right
/// after the store, in the same block, then jumps back (`inc byte
/// [patch+1]; patch: mov bl, 0; jmp again`: three instructions a pass).
/// Under the engine's one-instruction blocks for code rewritten in place
/// (vendor/README.md, patch 0010) the budget stays exact and each `mov
/// bl` runs the byte stored just before it (Intel SDM vol. 3A, 8.1.3,
/// "Handling Self- and Cross-Modifying Code": a store into the code
/// about to run is seen by the instructions fetched after it), pass
/// after pass: after N = 3k + r instructions BL = k (r < 2) or k + 1
/// (r = 2), and the immediate byte is k + (r >= 1), mod 256.
#[test]
fn code_rewriting_its_next_instruction_runs_it_as_rewritten() {
    let code = std::fs::read(rom("smc8.com")).unwrap();
    for n in [
        1u64, 2, 3, 4, 5, 6, 7, 299, 300, 301, 302, 3_000, 30_001, 300_002,
    ] {
        let mut p = load_com("smc8-exact", &code);
        run_budget(&mut p, n);
        let (k, r) = (n / 3, n % 3);
        let bl = (k + u64::from(r == 2)) as u8;
        let imm = (k + u64::from(r >= 1)) as u8;
        let ip = [0x100u16, 0x104, 0x106][r as usize];
        let cs = p.machine.reg(R::CS);
        let mut byte = [0u8];
        p.machine.read_seg(cs, 0x105, &mut byte).unwrap();
        assert_eq!(
            (p.machine.reg(R::IP), p.machine.reg(R::BX) as u8, byte[0]),
            (ip, bl, imm),
            "N = {n}: IP, BL, the immediate"
        );
    }
}

/// roms/smcnow.com rewrites code that runs at once, in six ways (its
/// header works out each value): the next instruction in the same block,
/// an immediate rewritten on each of 300 passes, an instruction adding
/// its own immediate to itself, `rep stosb` over the jump after it, a
/// jump's displacement flipped on each of 100 passes, code copied over
/// itself 1000 times. The store is seen by the next instruction fetched
/// (Intel SDM vol. 3A, 8.1.3; what QEMU and DOSBox do), on every path.
#[test]
fn rewritten_code_runs_as_rewritten_at_once_on_every_path() {
    for path in PATHS {
        let o = LoadOptions {
            dir: Some(rom("smcnow.com").parent().unwrap().to_path_buf()),
            ..Default::default()
        };
        let mut p: Program = load(&rom("smcnow.com"), &o).unwrap();
        watch(&mut p.machine, path);
        let stop = p.run(limits(path), None).unwrap();
        assert_eq!(stop, Stop::Exited { code: 0 }, "{path:?}");
        assert_eq!(
            String::from_utf8_lossy(&p.env().console),
            "42 5E 20 P 32 66\r\n",
            "{path:?}: the values the rewritten code produced"
        );
    }
}

/// The hook API a debugger uses (machine/mod.rs, `Machine::add_breakpoint`): a
/// breakpoint stops before its instruction; `resume` goes on from it and
/// stops there again one round of the loop later (CX one less: one `dec
/// cx` ran); `step(1)` runs one instruction at a time along the loop's
/// path, over a breakpoint it stands on; a removed breakpoint no longer
/// stops the run.
#[test]
fn breakpoints_resume_and_single_steps() {
    let (outer, inner) = (2u16, 3u16);
    let path = loop_path(outer, inner);
    let mut p = load_com("hook-api", &loop_com(outer, inner));
    let cs = p.machine.reg(R::CS);
    let start = (p.machine.reg(R::CX), p.machine.reg(R::DX));
    let t = Duration::from_secs(10);
    // Single steps from the start, checked against the path by hand.
    for n in 1..=30 {
        assert_eq!(p.machine.step(1, t), Stop::Budget, "step {n}");
        let want = loop_state(&path, start, outer, inner, n);
        let m = &p.machine;
        assert_eq!(
            (m.reg(R::IP), m.reg(R::CX), m.reg(R::DX)),
            want,
            "after {n} single steps"
        );
    }
    // A breakpoint at the inner loop's head (0106h).
    let mut p = load_com("hook-api", &loop_com(outer, inner));
    p.machine.add_breakpoint(cs, 0x106).unwrap();
    p.machine.add_breakpoint(cs, 0x106).unwrap();
    let lim = RunLimits {
        max_insns: 0,
        timeout: t,
    };
    assert_eq!(p.machine.run(lim), Stop::Breakpoint { cs, ip: 0x106 });
    assert_eq!(p.machine.reg(R::CX), inner);
    // run() from a breakpoint stops on it at once; resume() goes on.
    assert_eq!(p.machine.run(lim), Stop::Breakpoint { cs, ip: 0x106 });
    assert_eq!(p.machine.reg(R::CX), inner);
    assert_eq!(p.machine.resume(lim), Stop::Breakpoint { cs, ip: 0x106 });
    assert_eq!(p.machine.reg(R::CX), inner - 1);
    // A single step off the breakpoint: the `add ax,bx` at 0106h ran.
    assert_eq!(p.machine.step(1, t), Stop::Budget);
    assert_eq!(p.machine.reg(R::IP), 0x108);
    assert!(p.machine.remove_breakpoint(cs, 0x106).unwrap());
    assert!(!p.machine.remove_breakpoint(cs, 0x106).unwrap());
    assert_eq!(p.machine.run(lim), Stop::Exited { code: 0 });
}

/// `--events` names each port instruction at its own CS:IP, also the
/// second of a block and in a block entered again: `mov cx,2` (0100h),
/// `in al,40h` (0103h), `out 61h,al` (0105h), `loop` (0107h), then `mov
/// ah,4Ch; int 21h` (0109h, 010Bh). The events' IPs are the instructions'
/// offsets, worked out from their lengths.
#[test]
fn port_events_name_each_port_instruction() {
    let d = scratch("port-sites");
    let file = d.join("P.COM");
    std::fs::write(
        &file,
        [
            0xB9, 2, 0, 0xE4, 0x40, 0xE6, 0x61, 0xE2, 0xFA, 0xB4, 0x4C, 0xCD, 0x21,
        ],
    )
    .unwrap();
    let out = common::bin()
        .args(["run", "--json", "--events", "--dir"])
        .arg(&d)
        .arg(&file)
        .output()
        .unwrap();
    let v = common::json(&out);
    let ips: Vec<String> = v["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| {
            let e = e.as_str()?;
            e.contains("port").then(|| e[5..9].to_string())
        })
        .collect();
    assert_eq!(ips, ["0103", "0105", "0103", "0105"], "{v}");
}

/// What a recording expands to: the linear address of every completed
/// instruction, in order, and the faulted ones (machine/record.rs).
#[derive(Default)]
struct Expanded {
    blocks: std::collections::HashMap<(u64, u32), Vec<u64>>,
    insns: Vec<u64>,
    /// Instructions of the block entered last, in `insns` from this index.
    last: Option<(usize, Vec<u64>)>,
    faulted: Vec<u64>,
    unknown_blocks: usize,
}

/// A recorder expanding as it goes (tests need no file).
struct Expand(std::rc::Rc<std::cell::RefCell<Expanded>>);

impl toolhelp16::machine::record::BlockRecorder for Expand {
    fn translation(
        &mut self,
        _uc: &Uc<'_>,
        t: &toolhelp16::machine::record::Translation<'_>,
    ) -> std::io::Result<()> {
        let mut d =
            iced_x86::Decoder::with_ip(16, t.bytes, t.linear, iced_x86::DecoderOptions::NONE);
        let mut at = Vec::new();
        while d.can_decode() {
            at.push(d.ip());
            let _ = d.decode();
        }
        assert_eq!(at.len() as u32, t.icount, "QEMU's count and the decoder's");
        self.0
            .borrow_mut()
            .blocks
            .insert((t.linear, t.bytes.len() as u32), at);
        Ok(())
    }

    fn steps(&mut self, words: &mut Vec<u64>) -> std::io::Result<()> {
        use toolhelp16::machine::record::Step;
        let mut e = self.0.borrow_mut();
        for w in words.drain(..) {
            match Step::from_word(w) {
                Step::Block { linear, size } => {
                    let Some(at) = e.blocks.get(&(linear, size)).cloned() else {
                        e.unknown_blocks += 1;
                        continue;
                    };
                    let from = e.insns.len();
                    e.insns.extend_from_slice(&at);
                    e.last = Some((from, at));
                }
                Step::Cut { linear, faulted } => {
                    let (from, at) = e.last.take().expect("a cut follows a block");
                    let done = at.iter().take_while(|&&a| a < linear).count();
                    e.insns.truncate(from + done);
                    if faulted {
                        e.faulted.push(linear);
                    }
                }
            }
        }
        Ok(())
    }
}

/// Record `p`'s run: the stop, the instructions executed as counted, and
/// the expansion.
fn recorded(mut p: Program, max_insns: u64) -> (Stop, Option<u64>, Expanded) {
    let shared = std::rc::Rc::new(std::cell::RefCell::new(Expanded::default()));
    p.machine.record_blocks(Box::new(Expand(shared.clone())));
    let stop = p
        .run(
            RunLimits {
                max_insns,
                timeout: Duration::from_secs(60),
            },
            None,
        )
        .unwrap();
    let (_, err) = p.machine.stop_recording().expect("a recording");
    assert!(err.is_none());
    let executed = p.machine.executed();
    drop(p);
    let e = std::rc::Rc::try_unwrap(shared).ok().unwrap().into_inner();
    (stop, executed, e)
}

/// A recording holds every completed instruction, in order: the loop's
/// path instruction by instruction (worked out by hand in `loop_path`),
/// whole and cut by a budget anywhere, including inside a block.
#[test]
fn a_recording_expands_to_the_instructions_executed() {
    let (outer, inner) = (3u16, 7u16);
    let code = loop_com(outer, inner);
    let path: Vec<u64> = loop_path(outer, inner)
        .iter()
        .map(|&ip| 0x10000 + u64::from(ip))
        .collect();
    let base = {
        let p = load_com("record-loop", &code);
        u64::from(p.machine.reg(R::CS)) * 16
    };
    let path: Vec<u64> = path.iter().map(|a| a - 0x10000 + base).collect();
    let (stop, executed, e) = recorded(load_com("record-loop", &code), 0);
    assert_eq!(stop, Stop::Exited { code: 0 });
    assert_eq!(e.unknown_blocks, 0, "every block's translation came first");
    assert_eq!(e.insns, path, "the whole path");
    assert_eq!(executed, Some(path.len() as u64));
    for n in [1usize, 2, 5, 11, 12, 13, 40, 75, path.len() - 1] {
        let (stop, executed, e) = recorded(load_com("record-loop", &code), n as u64);
        assert_eq!(stop, Stop::Budget, "N = {n}");
        assert_eq!(executed, Some(n as u64));
        assert_eq!(e.insns, path[..n], "N = {n}");
    }
}

/// Self-modifying code (roms/dossmc.com, four instructions a pass, the
/// third rewritten by the first): the recording counts what ran, and a
/// fault of roms/faults.exe ends the recording with its faulting
/// instruction, marked, at the fault's CS:IP.
#[test]
fn a_recording_follows_rewritten_code_and_ends_at_a_fault() {
    let code = std::fs::read(rom("dossmc.com")).unwrap();
    for n in [3u64, 4, 401, 40_003] {
        let (_, executed, e) = recorded(load_com("record-smc", &code), n);
        assert_eq!(executed, Some(n));
        assert_eq!(e.insns.len() as u64, n, "N = {n}");
        assert_eq!(e.unknown_blocks, 0);
    }
    let o = LoadOptions {
        tail: " d".into(),
        dir: Some(rom("faults.exe").parent().unwrap().to_path_buf()),
        ..Default::default()
    };
    let p: Program = load(&rom("faults.exe"), &o).unwrap();
    let (stop, executed, e) = recorded(p, 0);
    let Stop::Fault(f) = stop else {
        panic!("faults.exe d faults: {stop:?}")
    };
    assert_eq!(executed, Some(e.insns.len() as u64));
    let p: Program = load(&rom("faults.exe"), &o).unwrap();
    let base = p.machine.descriptor_of(f.cs).unwrap().base;
    assert_eq!(
        e.faulted.last().copied(),
        Some(u64::from(base) + u64::from(f.ip))
    );
}
