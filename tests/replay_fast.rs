//! Replays without the hook on every instruction (issue 33; module notes
//! of src/debug/mod.rs, "Reverse execution"): reverse-stepi, goto and
//! reverse-continue restore the nearest checkpoint and, on the patched
//! engine, run from it without the debugger's instruction hook until a
//! few thousand positions before their target (or the next change from
//! the debugger they make again), then with it. Each test runs the same
//! session twice: as it is, and with `TOOLHELP16_ALWAYS_HOOK=1`, which
//! keeps the instruction hook on for the whole session, replays
//! included (as every replay ran before). The two transcripts must be
//! the same line for line: the same stops and positions, registers, and
//! `digest` (hashes of memory, the VGA planes, output and the clock).
//! Where the programs' own arithmetic gives a value, it is asserted too.
//! On the unpatched engine both sessions keep the hook (its count is not
//! exact under self-modifying code: machine::debug::EXACT_COUNT) and
//! still agree.

mod common;

use common::{after, rom, watcom::line_of};

/// The transcript of `debug --commands SCRIPT` with `args`, the hook on
/// every instruction all the time when `hooked`. The hook on every
/// instruction all the time is slow in a debug build (and slower on the
/// unpatched engine): no wall-clock limit that a loaded machine could
/// reach.
fn session(args: &[&str], script: &str, hooked: bool) -> String {
    let args: Vec<&str> = ["--timeout", "600"].iter().chain(args).copied().collect();
    let envs: &[(&str, &str)] = if hooked {
        &[("TOOLHELP16_ALWAYS_HOOK", "1")]
    } else {
        &[]
    };
    common::debug_session(&args, script, envs)
}

/// The script run both ways: the transcript, checked the same (the
/// `hooks` command's answers left out: they say how each ran).
fn both_ways(args: &[&str], script: &str) -> String {
    let fast = session(args, script, false);
    let hooked = session(args, script, true);
    assert_eq!(
        without_hooks(&fast),
        without_hooks(&hooked),
        "the session differs with the hook on every instruction all the time"
    );
    fast
}

fn without_hooks(out: &str) -> Vec<&str> {
    let lines: Vec<&str> = out.lines().collect();
    (0..lines.len())
        .filter(|&i| !(i > 0 && lines[i - 1] == "(debug) hooks"))
        .map(|i| lines[i])
        .collect()
}

fn positions(out: &str) -> Vec<u64> {
    after(out, "position")
        .iter()
        .map(|l| l.parse().unwrap_or_else(|_| panic!("{l}: {out}")))
        .collect()
}

/// The lines after each `(debug) regs` (two lines each).
fn regs(out: &str) -> Vec<String> {
    let lines: Vec<&str> = out.lines().collect();
    (0..lines.len())
        .filter(|&i| lines[i] == "(debug) regs" && i + 2 < lines.len())
        .map(|i| format!("{}\n{}", lines[i + 1], lines[i + 2]))
        .collect()
}

/// Where each replay went on with the hook, from the `hooks` answers of
/// the session run as it is: None where it kept the hook all the way.
fn left_fast_at(out: &str) -> Vec<Option<u64>> {
    after(out, "hooks")
        .iter()
        .map(|l| {
            l.strip_prefix("ran with code hooks on the breakpoints only to position ")
                .and_then(|r| r.split(',').next())
                .and_then(|n| n.parse().ok())
        })
        .collect()
}

/// On the patched engine each replay ran without the hook to within
/// 8192 positions of its stop (`NEAR_POSITION` is 4096, and a poll comes
/// at a block's entry).
fn assert_replays_ran_fast(out: &str, stops: &[u64]) {
    if cfg!(feature = "unpatched-engine") {
        return;
    }
    let at = left_fast_at(out);
    assert_eq!(at.len(), stops.len(), "{out}");
    for (a, &s) in at.iter().zip(stops) {
        let a = a.unwrap_or_else(|| panic!("a replay to {s} kept the hook: {out}"));
        assert!(
            a < s && s - a <= 8192,
            "replay to {s} left it at {a}: {out}"
        );
    }
}

#[test]
fn replays_in_a_timed_dos_program_agree_with_the_hook_all_the_way() {
    // dosirq.com (roms/dosirq.asm) at 0CC9:0100: its INT 1Ch handler
    // `on_tick` at offset 01A3 runs once per BIOS tick, and its first
    // instruction `inc word [cs:ticks]` counts the ticks in 0CC9:024A. The
    // program keeps time by the instructions (machine/time.rs), so the
    // ticks must fall at the same instructions in every replay. From
    // position 900,000: one step back (from the checkpoint before, every
    // 100,000), back to 456,789, back to the last pass of the handler
    // (a breakpoint), back to the last write of the count before it (a
    // watchpoint: the handler's pass before, one tick earlier), one step
    // back and one forward over the write, and forward to the next.
    let prog = rom("dosirq.com");
    let args = [
        "--keys",
        "q",
        "--checkpoint-every",
        "100000",
        prog.to_str().unwrap(),
    ];
    let out = both_ways(
        &args,
        "break +900000\ncontinue\nposition\nregs\ndigest\nreverse-stepi\nhooks\nposition\nregs\n\
         digest\ngoto 612345\nhooks\nposition\nregs\ndigest\nbreak 0CC9:01A3\n\
         reverse-continue\nhooks\nposition\nregs\ndigest\nx/1 0CC9:024A\ndelete 0CC9:01A3\n\
         watch 0CC9:024A 2\nreverse-continue\nhooks\nposition\nregs\ndigest\nx/1 0CC9:024A\n\
         reverse-stepi\nposition\nx/1 0CC9:024A\nstepi\nposition\ncontinue\nposition\n\
         x/1 0CC9:024A\nkill\n",
    );
    let pos = positions(&out);
    assert_eq!(pos.len(), 8, "{out}");
    assert_eq!(&pos[..3], [900_000, 899_999, 612_345], "{out}");
    let (bp, w) = (pos[3], pos[4]);
    assert!(bp < 612_345 && w < bp, "{out}");
    assert!(regs(&out)[3].contains("IP=01A3"), "{out}");
    // The write stops after the `inc` (gdb's rule), at the handler's
    // second instruction; back over it is before it, the step writes it
    // again, and the next write is the next tick's, after 456,789.
    assert!(regs(&out)[4].contains("IP=01A8"), "{out}");
    assert_eq!(&pos[5..7], [w - 1, w], "{out}");
    assert!(pos[7] > bp, "{out}");
    let ticks: Vec<u16> = after(&out, "x/1 0CC9:024A")
        .iter()
        .map(|l| u16::from_str_radix(l.split_whitespace().last().unwrap(), 16).unwrap())
        .collect();
    assert_eq!(ticks.len(), 4, "{out}");
    // Before the handler's pass at `bp` the count is what the pass before
    // left; one less before that write; one more after the next.
    assert!(ticks[0] > 0, "{out}");
    assert_eq!(&ticks[1..], [ticks[0], ticks[0] - 1, ticks[0] + 1], "{out}");
    assert_replays_ran_fast(&out, &[899_999, 612_345, bp, w]);
    // The step back from 900,000 shows the registers and state a forward
    // run stopped at 899,999 shows.
    let forward = session(
        &args,
        "break +899999\ncontinue\nposition\nregs\ndigest\nkill\n",
        false,
    );
    assert_eq!(positions(&forward), [899_999], "{forward}");
    assert_eq!(regs(&forward)[0], regs(&out)[1], "{forward}\n{out}");
    assert_eq!(
        after(&forward, "digest"),
        after(&out, "digest")[1..2],
        "{forward}\n{out}"
    );
}

#[test]
fn replays_over_self_modifying_code_agree_with_the_hook_all_the_way() {
    // smc8.com (roms/smc8.asm): `inc byte [0105h]` at 0100 rewrites the
    // immediate of `mov bl,imm8` at 0104, which runs next, then `jmp`
    // back: three instructions a pass, the `inc` at positions 3m, the
    // `mov` at 3m + 1. Before position p the immediate was incremented
    // ceil(p / 3) times and BL holds the immediate the last `mov` loaded,
    // ceil((p - 1) / 3) (both mod 256). Every block is cut by the store
    // into it (machine/counter.rs, "Self-modifying code"), which the
    // count without the hook must place exactly.
    let prog = rom("smc8.com");
    let args = ["--checkpoint-every", "20000", prog.to_str().unwrap()];
    let out = both_ways(
        &args,
        "break +150001\ncontinue\nposition\nregs\nx/1 0CC9:0104\ndigest\nreverse-stepi\nhooks\n\
         position\nregs\nx/1 0CC9:0104\ndigest\ngoto 133457\nhooks\nposition\nregs\n\
         x/1 0CC9:0104\ndigest\nbreak 0CC9:0104\nreverse-continue\nhooks\nposition\nregs\n\
         x/1 0CC9:0104\nwatch 0CC9:0105 1\ndelete 0CC9:0104\nreverse-continue\nhooks\nposition\n\
         regs\nx/1 0CC9:0104\nkill\n",
    );
    let pos = positions(&out);
    // The last `mov` before 133,457 is at 133,456; the last write of
    // 0105 before that stop is the `inc` at 133,452 (the one at 133,455
    // stops after it at 133,456, the stop itself), which stops at
    // 133,453. The search meets a write every three positions: after 16
    // run again with the hook (`REPLAY_REDOS`) it keeps the hook; the
    // replay to what it found runs without it. (Small positions: with the hook on every instruction the
    // unpatched engine runs this program slowly, a debug build at some
    // 30,000 instructions a second.)
    assert_eq!(pos, [150_001, 150_000, 133_457, 133_456, 133_453], "{out}");
    let imm = |p: u64| p.div_ceil(3) % 256;
    let bl = |p: u64| (p - 1).div_ceil(3) % 256;
    let code = after(&out, "x/1 0CC9:0104");
    let r = regs(&out);
    for (i, &p) in pos.iter().enumerate() {
        assert_eq!(
            code[i],
            format!("0CC9:0104  {:02X}B3", imm(p)),
            "at {p}: {out}"
        );
        assert!(
            r[i].contains(&format!("BX=00{:02X}", bl(p))),
            "at {p}: {out}"
        );
    }
    assert_replays_ran_fast(&out, &[150_000, 133_457, 133_456, 133_453]);
}

/// replaywnd.c's globals after each message, as the program computes
/// them (16-bit unsigned arithmetic): `total` after the k-th message at
/// index k - 1, and the final `mix`.
fn replaywnd_totals() -> (Vec<u16>, u16) {
    let (mut total, mut mix) = (0u16, 1u16);
    let mut after = Vec::new();
    for i in 0..64u16 {
        for j in 0..1000u16 {
            mix = mix.wrapping_mul(33).wrapping_add(i).wrapping_add(j);
        }
        total = total.wrapping_add((mix & 0xFF) + 1);
        after.push(total);
    }
    (after, mix)
}

#[test]
fn replays_in_a_win16_window_procedure_agree_with_the_hook_all_the_way() {
    // tests/watcom/replaywnd.c (Win16, protected mode, -d2): WndProc, run
    // by SendMessage in a nested emulation 64 times, mixes for about
    // 12,000 instructions and then adds to the global `total` with one
    // instruction. Deep in the run (700,000 of about 770,000): one step
    // back, back to 400,000, back to the last pass of the writing line
    // (a breakpoint), back to the last write of `total` before it (a
    // watchpoint), one step back over it and forward again; then on to
    // the end.
    let Some(built) = common::watcom::build(
        "replaywnd",
        common::watcom::Kind::Win16Exe,
        &["replaywnd.c"],
        None,
        &["-d2"],
    ) else {
        return;
    };
    let prog = built.to_str().unwrap();
    let run = common::bin().args(["run", prog]).output().unwrap();
    let printed = String::from_utf8_lossy(&run.stdout).into_owned();
    let (totals, mix) = replaywnd_totals();
    assert!(
        printed.contains(&format!("total {} mix {mix}", totals[63])),
        "{printed}"
    );
    let off = printed
        .lines()
        .find_map(|l| l.strip_prefix("total at "))
        .unwrap_or_else(|| panic!("{printed}"))
        .trim()
        .to_string();
    let write = line_of("replaywnd.c", "LINE-REPLAY-WRITE");
    let args = ["--checkpoint-every", "100000", prog];
    let out = both_ways(
        &args,
        &format!(
            "break +700000\ncontinue\nposition\nregs\ndigest\nreverse-stepi\nhooks\nposition\nregs\n\
             digest\ngoto 400000\nhooks\nposition\nregs\ndigest\nbreak replaywnd.c:{write}\n\
             reverse-continue\nhooks\nposition\nregs\nx/1 DS:{off}\ndelete replaywnd.c:{write}\n\
             watch DS:{off} 2\nreverse-continue\nhooks\nposition\nregs\nx/1 DS:{off}\ndigest\n\
             reverse-stepi\nposition\nx/1 DS:{off}\nstepi\nposition\nx/1 DS:{off}\ndelete DS:{off}\ndelete +700000\n\
             continue\nposition\n"
        ),
    );
    let pos = positions(&out);
    assert_eq!(pos.len(), 8, "{out}");
    assert_eq!(&pos[..3], [700_000, 699_999, 400_000], "{out}");
    let (bp, w) = (pos[3], pos[4]);
    // The writing line's last pass before 400,000; the write of `total`
    // before that pass is the message's before (the search goes back
    // from the stop, before this pass's write).
    assert!(bp < 400_000 && w < bp, "{out}");
    assert_eq!(&pos[5..7], [w - 1, w], "{out}");
    assert!(pos[7] > 700_000, "{out}");
    assert!(out.contains("exited with code 0"), "{out}");
    // `total` at the breakpoint (before its message's write) and after
    // the write before: the same, the total after some message k; before
    // that write, the total after message k - 1.
    let values: Vec<u16> = after(&out, &format!("x/1 DS:{off}"))
        .iter()
        .map(|l| u16::from_str_radix(l.split_whitespace().last().unwrap(), 16).unwrap())
        .collect();
    assert_eq!(values.len(), 4, "{out}");
    let k = totals
        .iter()
        .position(|&t| t == values[0])
        .unwrap_or_else(|| panic!("{:04X} is no total: {out}", values[0]));
    assert!(k > 0, "{out}");
    assert_eq!(&values[1..], [totals[k], totals[k - 1], totals[k]], "{out}");
    assert_replays_ran_fast(&out, &[699_999, 400_000, bp, w]);
    // The step back from 700,000 shows the registers and the state a
    // forward run stopped at 699,999 shows.
    let forward = session(
        &args,
        "break +699999\ncontinue\nposition\nregs\ndigest\nkill\n",
        false,
    );
    assert_eq!(positions(&forward), [699_999], "{forward}");
    assert_eq!(regs(&forward)[0], regs(&out)[1], "{forward}\n{out}");
    assert_eq!(
        after(&forward, "digest"),
        after(&out, "digest")[1..2],
        "{forward}\n{out}"
    );
}

fn have_gdb() -> bool {
    common::need::tool("gdb", "--version", "gdb")
}

/// The real gdb in batch mode against a fresh server for `args` (the
/// hook on every instruction all the time when `hooked`): gdb's output.
fn gdb_session(args: &[&str], commands: &[&str], hooked: bool) -> String {
    let envs: &[(&str, &str)] = if hooked {
        &[("TOOLHELP16_ALWAYS_HOOK", "1")]
    } else {
        &[]
    };
    let (mut server, addr) = common::gdbserver_env(args, envs);
    let (ended, text) = common::gdb_batch(&addr, commands, 120.0);
    let _ = common::wait_for(&mut server, 10.0);
    assert!(ended, "gdb ended: {text}");
    text
}

/// gdb's `info registers` lines (name, hex value), in order.
fn gdb_regs(out: &str) -> Vec<Vec<(String, String)>> {
    let mut all = Vec::new();
    let mut cur: Vec<(String, String)> = Vec::new();
    for l in out.lines() {
        let w: Vec<&str> = l.split_whitespace().collect();
        let reg = w.len() >= 2
            && w[1].starts_with("0x")
            && matches!(
                w[0],
                "eax"
                    | "ecx"
                    | "edx"
                    | "ebx"
                    | "esp"
                    | "ebp"
                    | "esi"
                    | "edi"
                    | "eip"
                    | "eflags"
                    | "cs"
                    | "ss"
                    | "ds"
                    | "es"
                    | "fs"
                    | "gs"
            );
        if reg {
            if w[0] == "eax" && !cur.is_empty() {
                all.push(std::mem::take(&mut cur));
            }
            cur.push((w[0].to_string(), w[1].to_string()));
        }
    }
    if !cur.is_empty() {
        all.push(cur);
    }
    all
}

/// The `monitor CMD` answers: the line after each that starts with
/// `what`.
fn lines_starting<'a>(out: &'a str, what: &str) -> Vec<&'a str> {
    out.lines().filter(|l| l.starts_with(what)).collect()
}

#[test]
fn gdb_reverse_steps_deep_in_a_run_show_what_a_forward_run_shows() {
    // The real gdb: deep in dosirq.com (a timed DOS program, roms/
    // dosirq.asm), at position 800,000, two stepi and three reverse-stepi
    // (each a replay from the checkpoint before) reach 799,999; a
    // forward run stopped at 799,999 shows the same registers and the
    // same digest (memory, VGA planes, output, clock).
    if !have_gdb() {
        return;
    }
    let prog = rom("dosirq.com");
    let args = ["--keys", "q", prog.to_str().unwrap()];
    let back = gdb_session(
        &args,
        &[
            "monitor break +800000",
            "continue",
            "stepi",
            "stepi",
            "reverse-stepi",
            "reverse-stepi",
            "reverse-stepi",
            "monitor position",
            "info registers",
            "monitor digest",
            "monitor hooks",
            "kill",
        ],
        false,
    );
    let forward = gdb_session(
        &args,
        &[
            "monitor break +799999",
            "continue",
            "monitor position",
            "info registers",
            "monitor digest",
            "kill",
        ],
        false,
    );
    assert!(back.lines().any(|l| l == "799999"), "{back}");
    assert!(forward.lines().any(|l| l == "799999"), "{forward}");
    let (b, f) = (gdb_regs(&back), gdb_regs(&forward));
    assert_eq!(b.len(), 1, "{back}");
    assert!(b[0].len() >= 10, "{back}");
    assert_eq!(b, f, "{back}\n{forward}");
    let digest = |t: &str| lines_starting(t, "memory ").join("\n");
    assert!(!digest(&back).is_empty(), "{back}");
    assert_eq!(digest(&back), digest(&forward), "{back}\n{forward}");
    if !cfg!(feature = "unpatched-engine") {
        let hooks = lines_starting(
            &back,
            "ran with code hooks on the breakpoints only to position ",
        );
        assert_eq!(
            hooks.len(),
            1,
            "the last replay ran without the hook: {back}"
        );
    }
}

#[test]
fn gdb_edits_are_made_again_by_replays_without_the_hook() {
    // The real gdb changes the program at position 300,000 of dosirq.com
    // (roms/dosirq.asm): its tick count `ticks` (linear 0CEDAh, 0CC9:024A)
    // to 2 and SI to 4321h. Its wait loop ends at the third tick, so the
    // change shortens the run. At 500,000 (before the next tick), two
    // steps back replay the run from its start (no checkpoints): the
    // replay makes the changes again at their position, without the
    // hook on every instruction before and after them. The session agrees
    // line for line with one that keeps the hook all the time.
    if !have_gdb() {
        return;
    }
    let prog = rom("dosirq.com");
    let args = [
        "--keys",
        "q",
        "--checkpoint-memory",
        "0",
        prog.to_str().unwrap(),
    ];
    let commands = [
        "monitor break +300000",
        "continue",
        "set {short}0xceda = 2",
        "set $esi = 0x4321",
        "monitor delete +300000",
        "monitor break +500000",
        "continue",
        "monitor position",
        "info registers",
        "monitor x/1 0CC9:024A",
        "monitor digest",
        "reverse-stepi",
        "reverse-stepi",
        "monitor position",
        "info registers",
        "monitor x/1 0CC9:024A",
        "monitor digest",
        "monitor hooks",
        "monitor delete +500000",
        "continue",
    ];
    let fast = gdb_session(&args, &commands, false);
    let hooked = gdb_session(&args, &commands, true);
    let same = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| !l.starts_with("ran "))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(same(&fast), same(&hooked), "{fast}\n{hooked}");
    assert!(fast.lines().any(|l| l == "500000"), "{fast}");
    assert!(fast.lines().any(|l| l == "499998"), "{fast}");
    // The changes hold after the replay: the count is 2 and SI 4321h.
    assert_eq!(
        lines_starting(&fast, "0CC9:024A"),
        ["0CC9:024A  0002", "0CC9:024A  0002"],
        "{fast}"
    );
    let r = gdb_regs(&fast);
    assert_eq!(r.len(), 2, "{fast}");
    for regs in &r {
        assert!(
            regs.iter().any(|(n, v)| n == "esi" && v == "0x4321"),
            "{fast}"
        );
    }
    // The program then ends at its third tick (`ticks 3`).
    assert!(fast.contains("exited with code"), "{fast}");
    if !cfg!(feature = "unpatched-engine") {
        let hooks = lines_starting(
            &fast,
            "ran with code hooks on the breakpoints only to position ",
        );
        assert_eq!(hooks.len(), 1, "the replay ran without the hook: {fast}");
    }
}

#[test]
fn replays_keep_the_instruction_budget_without_the_hook() {
    // `--max-insns 900000` (src/debug/mod.rs, "Limits": no instruction
    // at position 900,000 or beyond runs, in a replay too). dosirq.com
    // runs to the budget; a step back and a goto replay without the hook
    // on every instruction; the continue from there meets the budget at
    // the same position and instruction (the `je` of the wait loop at
    // 0CC9:014C).
    let prog = rom("dosirq.com");
    let args = [
        "--max-insns",
        "900000",
        "--keys",
        "q",
        "--checkpoint-every",
        "100000",
        prog.to_str().unwrap(),
    ];
    let script = "continue\nposition\nregs\nreverse-stepi\nhooks\nposition\nregs\ngoto 456789\n\
                  hooks\nposition\nregs\ncontinue\nposition\nregs\nkill\n";
    let out = both_ways(&args, script);
    assert_eq!(
        positions(&out),
        [900_000, 899_999, 456_789, 900_000],
        "{out}"
    );
    assert_eq!(
        out.matches("the program has ended: the instruction budget ran out")
            .count(),
        2,
        "{out}"
    );
    let r = regs(&out);
    assert!(r[0].contains("IP=014C"), "{out}");
    assert_eq!(r[3], r[0], "{out}");
    assert_replays_ran_fast(&out, &[899_999, 456_789]);
}
