//! Where control goes as on a PC (issue 30, items 3 and 4): a jump or
//! call to 0000:0000 runs the interrupt vector table's bytes as code, as
//! an 8086 would (nothing in the machine stops at a linear address a
//! program can reach), and IP wraps at 64 KiB, for the instruction after
//! one ending at FFFFh and for the bytes of one that straddles FFFFh
//! (Intel 8086 Family User's Manual: "the instruction pointer ... wraps
//! around" within the 64 KiB code segment; an offset is 16 bits).
//!
//! The programs are .COM files assembled here with nasm (skipped without
//! it) or written as bytes.
//!
//! UNPATCHED: the tests of the wrap itself are not built against the
//! engine as published (`unpatched-engine`). The wrap is patch 0009's fix
//! of the engine's x86 translator (vendor/README.md), which fetches an
//! instruction's bytes and the next instruction linearly past FFFFh,
//! inside translated code where no hook of toolhelp16 runs: a Rust
//! workaround would need a hook on every instruction near FFFFh of every
//! code segment. Without the patch a program running across FFFFh goes on
//! at offset 10000h (the next 64 KiB) instead of 0000h.

use std::path::{Path, PathBuf};

mod common;
use common::{bin, json};

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("th16-ctl-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Assemble `src` (nasm, flat binary) into `dir/name`; None without nasm.
fn nasm(dir: &Path, name: &str, src: &str) -> Option<PathBuf> {
    if !common::need::tool("nasm", "-v", "nasm") {
        return None;
    }
    let asm = dir.join(format!("{name}.asm"));
    std::fs::write(&asm, src).unwrap();
    let out = dir.join(name);
    let st = std::process::Command::new("nasm")
        .args(["-f", "bin", "-o"])
        .arg(&out)
        .arg(&asm)
        .status()
        .unwrap();
    assert!(st.success());
    Some(out)
}

/// `run --json` of `prog` in its directory with an instruction budget.
fn run(prog: &Path, max_insns: u64) -> (Option<i32>, serde_json::Value) {
    let out = bin()
        .args(["run", "--json", "--timeout", "60", "--max-insns"])
        .arg(max_insns.to_string())
        .arg("--dir")
        .arg(prog.parent().unwrap())
        .arg(prog)
        .output()
        .unwrap();
    (out.status.code(), json(&out))
}

/// The run went into segment 0000 and stopped there for what the bytes
/// of the vector table did (a fault, the budget, a hang, or a named
/// stop), never at 0000:0000 as a stop of the machine's own (exit 125,
/// "keeps stopping at 0000:0000 for no reason").
fn ran_the_vector_table(code: Option<i32>, v: &serde_json::Value) {
    assert_ne!(code, Some(125), "{v}");
    assert_ne!(v["exit"]["kind"], "error", "{v}");
    let f = &v["frames"][0];
    assert_eq!(f["wCS"], 0, "{v}");
    let ip = f["wIP"].as_u64().unwrap();
    // Execution went on past 0000:0000: the stop is further on, among
    // the vectors (0000-03FFh) and the BIOS data after them.
    assert!(ip > 0 && ip < 0x1000, "{v}");
    if v["exit"]["kind"] == "fault" {
        assert_eq!(v["fault"]["wCS"], 0, "{v}");
        assert_eq!(v["fault"]["linear"], v["fault"]["wIP"], "{v}");
    }
}

#[test]
fn a_jump_to_0000_0000_runs_the_vector_table() {
    let d = temp("jmp00");
    let p = d.join("JMP00.COM");
    // jmp 0000:0000
    std::fs::write(&p, [0xEA, 0x00, 0x00, 0x00, 0x00]).unwrap();
    let (code, v) = run(&p, 100_000);
    ran_the_vector_table(code, &v);
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_call_through_a_null_far_pointer_runs_the_vector_table() {
    let d = temp("nullcall");
    let p = d.join("NULLCALL.COM");
    // call far [0104h] ; 0104h: dd 0 (a null far pointer)
    std::fs::write(&p, [0xFF, 0x1E, 0x04, 0x01, 0, 0, 0, 0]).unwrap();
    let (code, v) = run(&p, 100_000);
    ran_the_vector_table(code, &v);
    if v["exit"]["kind"] == "fault" {
        // The far call pushed its return address, CS:0104h, below the
        // .COM's initial SP of FFFEh.
        assert_eq!(v["fault"]["registers"]["sp"], 0xFFFA, "{v}");
    }
    std::fs::remove_dir_all(&d).ok();
}

/// The reproducer: two NOPs at FFFEh, then IP wraps to 0000h,
/// where the PSP's INT 20h ends the program (exit 0), within a handful of
/// instructions.
#[test]
#[cfg(not(feature = "unpatched-engine"))] // patch 0009 (see UNPATCHED)
fn ip_wraps_to_the_psp_s_int_20h() {
    let d = temp("wrap");
    let p = d.join("WRAP.COM");
    // mov word [0FFFEh],9090h ; jmp 0FFFEh
    std::fs::write(&p, [0xC7, 0x06, 0xFE, 0xFF, 0x90, 0x90, 0xE9, 0xF5, 0xFE]).unwrap();
    let (code, v) = run(&p, 100);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(v["exit"]["code"], 0, "{v}");
    std::fs::remove_dir_all(&d).ok();
}

/// A 0-byte .COM: its segment is zeros from 0100h, `add [bx+si],al`
/// (00 00) each; 32,640 of them reach FFFFh, IP wraps to 0000h and the
/// PSP's INT 20h ends the program. A budget short of them stops it in the
/// zeros; one a little over lets it exit 0.
#[test]
#[cfg(not(feature = "unpatched-engine"))] // patch 0009 (see UNPATCHED)
fn an_empty_com_runs_its_zeros_to_the_wrap_and_exits() {
    let d = temp("empty");
    let p = d.join("EMPTY.COM");
    std::fs::write(&p, []).unwrap();
    let (code, v) = run(&p, 40_000);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    let (code, v) = run(&p, 30_000);
    assert_eq!(code, Some(122), "{v}");
    assert_eq!(v["exit"]["kind"], "budget", "{v}");
    std::fs::remove_dir_all(&d).ok();
}

/// Instructions that straddle FFFFh take their next bytes from CS:0000h,
/// the PSP's INT 20h (CD 20): a short jump at FFFFh takes CDh (-51) as
/// its displacement and goes to 0001h - 51 = FFCEh; a near jump at FFFEh
/// takes FFh and CDh as its displacement (CDFFh) and goes to 0001h +
/// CDFFh = CE00h. Each target ends the program with its own exit code.
#[test]
#[cfg(not(feature = "unpatched-engine"))] // patch 0009 (see UNPATCHED)
fn an_instruction_straddling_ffffh_takes_its_bytes_from_cs_0000() {
    let d = temp("straddle");
    let src = |at_ffff: &str| {
        format!(
            "org 100h
    mov di, 0FFCEh
    mov si, exit42
    mov cx, 5
    rep movsb
    mov di, 0CE00h
    mov si, exit43
    mov cx, 5
    rep movsb
    {at_ffff}
exit42: mov ax, 4C2Ah
    int 21h
exit43: mov ax, 4C2Bh
    int 21h
"
        )
    };
    let Some(short) = nasm(
        &d,
        "SHORT.COM",
        &src("mov byte [0FFFFh], 0EBh\n    jmp 0FFFFh"),
    ) else {
        return;
    };
    let (code, v) = run(&short, 1000);
    assert_eq!(code, Some(42), "{v}");
    let near = nasm(
        &d,
        "NEAR.COM",
        &src("mov word [0FFFEh], 0FFE9h\n    jmp 0FFFEh"),
    )
    .unwrap();
    let (code, v) = run(&near, 1000);
    assert_eq!(code, Some(43), "{v}");
    std::fs::remove_dir_all(&d).ok();
}

/// SP wraps too (8086 manual: the stack is a 64 KiB segment; a push at
/// SP 0000h stores at SS:FFFEh): with SP 0, a push stores its word at
/// FFFEh and leaves SP FFFEh; the pop takes it back and SP wraps to
/// 0000h. The program exits 42 when all of that held, 1 otherwise.
#[test]
fn sp_wraps_at_64_kib() {
    let d = temp("spwrap");
    let Some(p) = nasm(
        &d,
        "SPWRAP.COM",
        "org 100h
    mov sp, 0
    mov ax, 4C2Ah
    push ax
    cmp sp, 0FFFEh
    jne bad
    cmp word [0FFFEh], 4C2Ah
    jne bad
    xor ax, ax
    pop ax
    cmp sp, 0
    jne bad
    int 21h
bad: mov ax, 4C01h
    int 21h
",
    ) else {
        return;
    };
    let (code, v) = run(&p, 1000);
    assert_eq!(code, Some(42), "{v}");
    std::fs::remove_dir_all(&d).ok();
}

/// Protected mode: a 16-bit code segment of 64 KiB (a code alias of a
/// 64 KiB GlobalAlloc block) with two NOPs at FFFEh and a RETF at 0000h;
/// a far call to FFFEh returns through the RETF (tests/watcom/ipwrap.c).
#[test]
#[cfg(not(feature = "unpatched-engine"))] // patch 0009 (see UNPATCHED)
fn ip_wraps_in_a_16_bit_protected_mode_segment() {
    let Some(exe) = common::watcom::win16("ipwrap") else {
        return;
    };
    let out = bin()
        .args(["run", "--json", "--max-insns", "50000000"])
        .arg(&exe)
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(out.status.code(), Some(0), "{v}");
    assert_eq!(common::output_lines(&v), ["wrapped"], "{v}");
}

/// The translation of an instruction straddling FFFFh holds bytes from
/// CS:0000h, so a store there must reach it as a store into any code
/// does: a short jump at FFFFh first takes the PSP's CDh as its
/// displacement (to FFCEh, which goes on to the second stage); the
/// second stage rewrites FFCEh to exit with 44, stores F0h (-16) at
/// CS:0000h and jumps to FFFFh again: the jump must now go to 0001h - 16
/// = FFF1h, which exits with 43. A translation kept from the first jump
/// would go to FFCEh and exit with 44 (vendor/README.md, patch 0010).
#[test]
#[cfg(not(feature = "unpatched-engine"))] // patch 0009 (see UNPATCHED)
fn a_store_to_cs_0000_reaches_the_instruction_straddling_ffffh() {
    let d = temp("straddle-store");
    let Some(prog) = nasm(
        &d,
        "RESTRAD.COM",
        "org 100h
    mov di, 0FFCEh
    mov si, to_stage2
    mov cx, to_stage2_end - to_stage2
    rep movsb
    mov di, 0FFF1h
    mov si, exit43
    mov cx, 5
    rep movsb
    mov byte [0FFFFh], 0EBh
    jmp 0FFFFh
stage2:
    mov di, 0FFCEh
    mov si, exit44
    mov cx, 5
    rep movsb
    mov byte [0], 0F0h
    jmp 0FFFFh
to_stage2:
    mov ax, stage2
    jmp ax
to_stage2_end:
exit43: mov ax, 4C2Bh
    int 21h
exit44: mov ax, 4C2Ch
    int 21h
",
    ) else {
        return;
    };
    let (code, v) = run(&prog, 1000);
    assert_eq!(code, Some(43), "{v}");
    std::fs::remove_dir_all(&d).ok();
}

/// Protected mode, self-modifying code (vendor/README.md, patch 0010):
/// a 16-bit code segment of 64 KiB (a code alias of a GlobalAlloc block)
/// whose code rewrites, through the data selector, the high byte of a
/// `MOV AX, imm16` it is about to run, where that instruction straddles
/// the 64 KiB wrap (FFFEh..0000h) and where it straddles a page boundary
/// (0FFEh..1000h); the program rewrites the low byte between calls too.
/// Every call must return the bytes as last stored (Intel SDM vol. 3A,
/// 8.1.3), on the untraced path and under an instruction budget (the
/// counting path of machine/counter.rs) (tests/watcom/pmsmc.c).
#[test]
#[cfg(not(feature = "unpatched-engine"))] // patch 0009 (see UNPATCHED)
fn a_rewritten_instruction_straddling_the_wrap_or_a_page_in_protected_mode() {
    let Some(exe) = common::watcom::win16("pmsmc") else {
        return;
    };
    prints_untraced_and_counted(&exe, &["wrap 500 of 500", "page 500 of 500"]);
}

/// Protected mode, a 64 KiB window whose base is 0804h past a page
/// boundary (a selector of the program's own inside a 128 KiB block,
/// SetSelectorBase/SetSelectorLimit, and its code alias): a `MOV AX,
/// imm16` at FFFEh fetches its high byte from offset 0000h, 64 KiB back
/// in linear memory and on another page, rewritten from outside and by
/// the code itself just before it runs; a PUSH with SP = 0000h stores at
/// FFFEh and the POP brings SP back to 0000h (80286 and i386 PRMs: IP
/// and SP wrap modulo 64 KiB in 16-bit segments). AllocDStoCSAlias of a
/// segment that neither starts nor ends on a page (the program's DS, and
/// the window) gives an alias of the same base and limit (it returned 0
/// before) (tests/watcom/pmoffwrp.c).
#[test]
#[cfg(not(feature = "unpatched-engine"))] // patch 0009 (see UNPATCHED)
fn ip_and_sp_wrap_in_a_window_off_a_page_boundary() {
    let Some(exe) = common::watcom::win16("pmoffwrp") else {
        return;
    };
    prints_untraced_and_counted(
        &exe,
        &[
            "wrap 300 of 300",
            "smc 300 of 300",
            "stack 1234 0000 1234",
            "dsalias 1 1 1",
        ],
    );
}

/// Run the Win16 program `exe` on the untraced path and under an
/// instruction budget (the counting path of machine/counter.rs): each run
/// exits 0 having printed `want`.
#[cfg(not(feature = "unpatched-engine"))] // its callers need patch 0009
fn prints_untraced_and_counted(exe: &std::path::Path, want: &[&str]) {
    for budget in [&[][..], &["--max-insns", "50000000"][..]] {
        let out = bin()
            .args(["run", "--json"])
            .args(budget)
            .arg(exe)
            .output()
            .unwrap();
        let v = json(&out);
        assert_eq!(out.status.code(), Some(0), "{budget:?}: {v}");
        assert_eq!(common::output_lines(&v), want, "{budget:?}: {v}");
    }
}
