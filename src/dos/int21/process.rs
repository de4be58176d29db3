//! INT 21h functions on processes: ending one (00h, 4Ch, 31h), starting a
//! child or loading an overlay (4Bh, EXEC), the child's exit code (4Dh),
//! the current PSP (50h, 51h, 62h), making PSPs (26h, 55h), and DOS's
//! CP/M-style entry (`CALL 5`). The loader and the ending are
//! [`crate::dos::process`]'s.

use super::{al, fail, ok, path_at, set};
use crate::dos::Env;
use crate::dos::fs::DosError;
use crate::dos::process::{self, Executable, Loader, Params, Waiting};
use crate::dos::{memory, psp};
use crate::machine::{Cpu, R, Stop, Uc};
use crate::walk::CpuMode;

/// AH=00h: end the program (CS must be its PSP), exit code 0.
pub fn terminate_00(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    process::terminate(env, uc, 0, None)
}

/// AH=4Ch: end the program with exit code AL.
pub fn exit(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let code = al(uc);
    process::terminate(env, uc, code, None)
}

/// AH=31h: end with exit code AL and stay resident in DX paragraphs of
/// the PSP's block (at least 6); files stay open.
pub fn keep(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let (code, dx) = (al(uc), uc.reg(R::DX));
    process::terminate(env, uc, code, Some(dx))
}

/// AH=4Dh: AX = the last child's exit code (AL) and how it ended (AH: 0
/// normally, 1 Ctrl-C, 2 critical error, 3 resident). DOS clears it once
/// read.
pub fn return_code(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let rc = std::mem::take(&mut env.dos.return_code);
    set(uc, R::AX, rc)?;
    ok(uc)
}

/// AH=50h: make BX the current PSP.
pub fn set_psp(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    env.dos.psp = uc.reg(R::BX);
    if uc.mode() == CpuMode::Real {
        uc.get_data_mut().current_task = env.dos.psp;
    }
    Ok(())
}

/// AH=51h and 62h: BX = the current PSP.
pub fn get_psp(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    set(uc, R::BX, env.dos.psp)
}

/// AH=26h: a new PSP at DX:0, copied from the current one, with INT 22h-24h
/// from the vector table and the size of memory from DX's block.
pub fn create_psp(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let dx = uc.reg(R::DX);
    let mut p = [0u8; 0x100];
    uc.read_seg(env.dos.psp, 0, &mut p)
        .map_err(|e| Stop::Error(e.to_string()))?;
    for (i, n) in [0x22u8, 0x23, 0x24].into_iter().enumerate() {
        let (seg, off) = crate::dos::get_vector(uc, n)?;
        let at = psp::TERMINATE + 4 * i;
        p[at..at + 2].copy_from_slice(&off.to_le_bytes());
        p[at + 2..at + 4].copy_from_slice(&seg.to_le_bytes());
    }
    if let Some(b) = memory::block_of(uc, env.dos.first_mcb, dx) {
        let top = b.seg.wrapping_add(1).wrapping_add(b.size);
        p[psp::TOP..psp::TOP + 2].copy_from_slice(&top.to_le_bytes());
    }
    // The copy's own job file table pointer points into itself.
    p[psp::JFT_POINTER + 2..psp::JFT_POINTER + 4].copy_from_slice(&dx.to_le_bytes());
    uc.write_seg(dx, 0, &p)
        .map_err(|e| Stop::Error(e.to_string()))
}

/// AH=55h: a child PSP at DX:0 owning memory up to SI: the current
/// process's handles inherited, parent the current PSP; it becomes the
/// current PSP.
pub fn child_psp(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let (dx, si) = (uc.reg(R::DX), uc.reg(R::SI));
    let parent = env.dos.psp;
    let table = psp::jft(uc, parent);
    let mut jft = [0xFFu8; psp::DEFAULT_HANDLES];
    for (i, &b) in table.iter().take(psp::DEFAULT_HANDLES).enumerate() {
        if b == 0xFF || env.dos.no_inherit.contains(&b) {
            continue;
        }
        let shared = match env.drive.as_mut() {
            Some(d) => d.share_sft(b),
            None => true,
        };
        if shared {
            jft[i] = b;
        }
    }
    let vec = |uc: &Uc<'_>, n: u8| {
        crate::dos::get_vector(uc, n)
            .map(|(s, o)| (o, s))
            .unwrap_or((0, 0))
    };
    let vectors = [vec(uc, 0x22), vec(uc, 0x23), vec(uc, 0x24)];
    let env_seg = psp::word(uc, parent, psp::ENVIRONMENT);
    let p = psp::build(dx, si, parent, env_seg, vectors, &jft);
    uc.write_seg(dx, 0, &p)
        .map_err(|e| Stop::Error(e.to_string()))?;
    env.dos.psp = dx;
    Ok(())
}

/// Read a file of the drive whole (at most `max` bytes), as EXEC opens and
/// reads it: through a handle of the current process. A device is error 2.
fn read_program(env: &mut Env, uc: &mut Uc<'_>, path: &[u8], max: usize) -> Result<Vec<u8>, u16> {
    let p = env.dos.psp;
    let Some(d) = env.drive.as_mut() else {
        return Err(DosError::FILE_NOT_FOUND.0);
    };
    psp::load_jft(uc, p, d);
    let r = (|| {
        let h = d.open(path, 0)?;
        if d.handle_device(h)?.is_some() {
            let _ = d.close(h);
            return Err(DosError::FILE_NOT_FOUND);
        }
        let mut bytes = Vec::new();
        loop {
            let chunk = d.read(h, 0x8000)?;
            if chunk.is_empty() || bytes.len() >= max {
                break;
            }
            bytes.extend_from_slice(&chunk);
        }
        bytes.truncate(max);
        d.close(h)?;
        Ok(bytes)
    })();
    psp::store_jft(uc, p, d);
    r.map_err(|e: DosError| e.0)
}

/// The most of a program file EXEC reads: the whole of conventional
/// memory, and the header before it.
const MAX_PROGRAM: usize = 0xA_0000 + 0x1_0000;

fn far_at(uc: &Uc<'_>, seg: u16, off: u16) -> (u16, u16) {
    let o = uc.read_u16_at(seg, off).unwrap_or(0);
    let s = uc.read_u16_at(seg, off.wrapping_add(2)).unwrap_or(0);
    (s, o)
}

/// AH=4Bh, EXEC: AL=00h load and run the program DS:DX as a child, with
/// the parameter block at ES:BX (environment segment, command tail, two
/// FCBs); the caller continues, with its registers, when the child ends.
/// AL=01h loads it without running it and fills the block's SS:SP (the
/// child's AX on its stack) and CS:IP, leaving the child current (as
/// DEBUG needs). AL=03h loads an overlay at the block's segment,
/// relocated by its factor. Other AL: error 1.
pub fn exec(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let mode = al(uc);
    if uc.mode() != CpuMode::Real || env.dos.first_mcb == 0 {
        return Err(crate::dos::unimplemented(
            uc,
            format!("INT 21h AX=4B{mode:02X}h outside a DOS program"),
        ));
    }
    if !matches!(mode, 0 | 1 | 3) {
        // EXEC says "locus unknown" for a bad AL (EXEC.ASM).
        fail(env, uc, DosError::INVALID_FUNCTION.0)?;
        env.dos.ext_error.locus = super::error::locus::UNKNOWN;
        return Ok(());
    }
    let (ds, dx, es, bx) = (uc.reg(R::DS), uc.reg(R::DX), uc.reg(R::ES), uc.reg(R::BX));
    let name = path_at(uc, ds, dx);
    let bytes = match read_program(env, uc, &name, MAX_PROGRAM) {
        Ok(b) => b,
        Err(code) => return fail(env, uc, code),
    };
    let exe = match Executable::from_bytes(bytes) {
        Ok(e) => e,
        Err(code) => return fail(env, uc, code),
    };
    if mode == 3 {
        let load_seg = uc.read_u16_at(es, bx).unwrap_or(0);
        let factor = uc.read_u16_at(es, bx.wrapping_add(2)).unwrap_or(0);
        return match process::load_overlay(uc, &exe, load_seg, factor) {
            Ok(()) => ok(uc),
            Err(code) => fail(env, uc, code),
        };
    }
    let env_seg = uc.read_u16_at(es, bx).unwrap_or(0);
    let (tseg, toff) = far_at(uc, es, bx.wrapping_add(2));
    let (f1s, f1o) = far_at(uc, es, bx.wrapping_add(6));
    let (f2s, f2o) = far_at(uc, es, bx.wrapping_add(10));
    let mut params = Params {
        env: (env_seg != 0).then_some(env_seg),
        tail: [0; 0x80],
        fcb1: [0; 12],
        fcb2: [0; 12],
    };
    let _ = uc.read_seg(tseg, toff, &mut params.tail);
    let _ = uc.read_seg(f1s, f1o, &mut params.fcb1);
    let _ = uc.read_seg(f2s, f2o, &mut params.fcb2);
    let caller = uc.regs();
    let parent = env.dos.psp;
    let no_inherit = env.dos.no_inherit.clone();
    if let Some(d) = env.drive.as_mut() {
        psp::load_jft(uc, parent, d);
    }
    let mut loader = Loader {
        first_mcb: env.dos.first_mcb,
        strategy: env.dos.strategy,
        parent,
        drive: env.drive.as_mut(),
        no_inherit: &no_inherit,
        terminate: (caller.cs, caller.ip),
    };
    let started = match loader.load(uc, &exe, &name, &params) {
        Ok(s) => s,
        Err(code) => return fail(env, uc, code),
    };
    // INT 22h is where the caller's INT 21h returns, as the child's PSP:0Ah.
    crate::dos::set_vector(uc, 0x22, (caller.cs, caller.ip))?;
    if mode == 1 {
        let sp = started.sp.wrapping_sub(2);
        let _ = uc.write_u16_at(started.ss, sp, started.ax);
        for (off, v) in [
            (0x0E, sp),
            (0x10, started.ss),
            (0x12, started.ip),
            (0x14, started.cs),
        ] {
            let _ = uc.write_u16_at(es, bx.wrapping_add(off), v);
        }
        env.dos.psp = started.psp;
        env.dos.dta = (started.psp, 0x80);
        uc.get_data_mut().current_task = started.psp;
        return ok(uc);
    }
    // The parent's SS:SP at its call, as DOS keeps it in the parent's PSP.
    psp::set_word(uc, parent, psp::SAVED_STACK, caller.sp);
    psp::set_word(uc, parent, psp::SAVED_STACK + 2, caller.ss);
    env.dos.waiting.push(Waiting {
        child: started.psp,
        regs: caller,
    });
    process::enter(env, uc, &started)?;
    let flags = uc.reg(R::FLAGS);
    set(uc, R::FLAGS, (flags & !0x0001) | 0x0200)
}

/// DOS's CP/M-style entry: a program's `CALL 5` (a near call to PSP:05,
/// whose far call reaches here through 0000:00C0) runs INT 21h function CL
/// (00h-24h; others return AL = 0) and returns to the instruction after
/// the `CALL 5`, in the program's segment.
pub fn cpm_entry(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let (ss, sp) = (uc.reg(R::SS), uc.reg(R::SP));
    // The far call's return (PSP:000Ah), then the near call's return.
    let seg = uc.read_u16_at(ss, sp.wrapping_add(2)).unwrap_or(0);
    let ip = uc.read_u16_at(ss, sp.wrapping_add(4)).unwrap_or(0);
    set(uc, R::SP, sp.wrapping_add(6))?;
    set(uc, R::CS, seg)?;
    set(uc, R::IP, ip)?;
    let cl = uc.reg(R::CX) as u8;
    if cl > 0x24 {
        return crate::dos::set_al(uc, 0);
    }
    let ax = uc.reg(R::AX);
    set(uc, R::AX, u16::from(cl) << 8 | (ax & 0xFF))?;
    super::int21(env, uc)
}
