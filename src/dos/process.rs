//! DOS processes: the memory DOS holds when a program starts, loading a
//! program (the first program and INT 21h AH=4Bh share one loader), and
//! ending one.
//!
//! **Memory at start.** MS-DOS 5 loaded low, with COMMAND.COM as the shell:
//! DOS's code and tables up to the first memory control block, the system
//! data block (owner 0008h, "SD": buffers, files, FCBs, stacks), then
//! COMMAND.COM's resident part and its master environment, and everything
//! above free. A program is loaded, as COMMAND.COM's child, at the first
//! free paragraph: its environment block first, its PSP and image after
//! it, below 64 KiB (so EXEPACK's unpacker wraps through the A20 gate).
//!
//! **Loading** follows MS-DOS's EXEC (EXEC.ASM of the MS-DOS 4.0 source,
//! as Ralf Brown's list documents AX=4B00h/4B01h/4B03h): the environment
//! is copied (the caller's, or the parent's when the block names none)
//! with the word 1 and the program's name after it, into a block of its
//! own; a file is an .EXE when its first bytes are `MZ` or `ZM` and at
//! least the 1Ah-byte header is there, else a .COM. A .COM gets the largest
//! free block (at most 64 KiB of it read), SP at the top of its segment
//! with a zero word there, CS = DS = ES = SS = PSP, IP = 100h. An .EXE
//! needs its load module (e_cp × 512 bytes less the header) plus 100h
//! bytes of PSP plus e_minalloc paragraphs, and gets that plus e_maxalloc
//! (all of the largest block when e_maxalloc asks for more; loaded at the
//! top of the largest block when both are 0). The segment relocations add
//! the load segment. The PSP inherits the caller's handles (except files
//! opened "not inherited", bit 7 of the open mode), gets FCBs 5Ch/6Ch and
//! the command tail from the parameter block, and the terminate address
//! (PSP:0Ah and INT 22h) is where the caller's INT 21h returns. On entry AX
//! = BX tells whether the drive letters of the two FCBs are valid (FFh
//! each that is not), CX = 00FFh, DX = the PSP, SI = IP, DI = SP; the DTA
//! is PSP:80h.
//!
//! **Ending** (AH=00h/4Ch, INT 20h, and AH=31h / INT 27h which keep the
//! memory): DOS restores INT 22h-24h from the PSP, frees the process's
//! memory and closes its files (unless it stays resident), keeps the exit
//! code and how it ended for AH=4Dh, makes the parent current and jumps to
//! the terminate address with the stack the caller had. The first program
//! ending ends the run.

use super::int21::error;
use super::{memory, psp};
use crate::dos::Env;
use crate::loader::mz::MzImage;
use crate::machine::{Cpu, R, Regs, Stop, Uc};

/// DOS's own data segment (the list of lists and the tables it points at).
pub const DOS_DATA: u16 = 0x0070;
/// The first memory control block: DOS's system data block.
pub const FIRST_MCB: u16 = 0x0A00;
/// Paragraphs of the system data block.
const SYSTEM_PARAS: u16 = 0x0200;
/// The owner DOS gives its own blocks.
pub const OWNER_DOS: u16 = 0x0008;
/// COMMAND.COM's PSP (its MCB is the paragraph before).
pub const COMMAND_PSP: u16 = FIRST_MCB + 1 + SYSTEM_PARAS + 1;
/// Paragraphs of COMMAND.COM's resident part (with its PSP).
const COMMAND_PARAS: u16 = 0x00B0;
/// COMMAND.COM's master environment (256 bytes).
pub const COMMAND_ENV: u16 = COMMAND_PSP + COMMAND_PARAS + 1;
const COMMAND_ENV_PARAS: u16 = 0x0010;
/// The first free paragraph's MCB when a program starts.
pub const FIRST_FREE_MCB: u16 = COMMAND_ENV + COMMAND_ENV_PARAS;

/// A program file, as EXEC tells them apart.
pub enum Executable {
    /// A memory image, loaded at PSP:100h.
    Com(Vec<u8>),
    /// An MZ executable.
    Exe(Box<MzImage>),
}

/// The length of the MZ header EXEC reads before it decides.
const EXEC_HEADER_LEN: usize = 0x1A;

impl Executable {
    /// Tell a file's bytes apart as EXEC does: empty is error 0Bh (bad
    /// format); `MZ`/`ZM` with the whole header an .EXE (error 0Bh when the
    /// header does not hold together); anything else a .COM.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Executable, u16> {
        if bytes.is_empty() {
            return Err(error::ERR_BAD_FORMAT);
        }
        if bytes.len() >= EXEC_HEADER_LEN && crate::loader::mz::has_mz_signature(&bytes) {
            return MzImage::parse(&bytes)
                .map(|m| Executable::Exe(Box::new(m)))
                .map_err(|_| error::ERR_BAD_FORMAT);
        }
        Ok(Executable::Com(bytes))
    }
}

/// What the caller of EXEC gives: the parameter block's contents.
pub struct Params {
    /// Environment to copy: Some(segment), or None for the parent's.
    pub env: Option<u16>,
    /// The 128 bytes of the command tail (count, text, CR).
    pub tail: [u8; 0x80],
    /// The first 12 bytes of the two FCBs.
    pub fcb1: [u8; 12],
    pub fcb2: [u8; 12],
}

/// A loaded program, ready to start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Started {
    pub psp: u16,
    pub env: u16,
    /// Where the image begins (PSP + 10h, or higher for a load-high .EXE;
    /// the PSP for a .COM).
    pub load_seg: u16,
    /// The first segment past its memory.
    pub top: u16,
    pub cs: u16,
    pub ip: u16,
    pub ss: u16,
    pub sp: u16,
    /// AX (and BX) on entry: FCB drive validity.
    pub ax: u16,
}

/// Whether an FCB drive byte names a drive that exists (0 is the default
/// drive; C: is the only one).
fn fcb_drive_valid(d: u8) -> bool {
    d == 0 || d == 3
}

/// The name EXEC writes into the program's MCB: the file name without
/// directory and extension, at most 8 characters.
pub fn arena_name(path: &[u8]) -> String {
    let base = path
        .rsplit(|&c| c == b'\\' || c == b'/' || c == b':')
        .next()
        .unwrap_or(b"");
    let stem = base.split(|&c| c == b'.').next().unwrap_or(b"");
    stem.iter()
        .take(8)
        .map(|&c| char::from(c.to_ascii_uppercase()))
        .collect()
}

fn mem_err(e: crate::walk::MemError) -> u16 {
    let _ = e;
    error::ERR_ARENA_TRASHED
}

/// The DOS side of a load: how the loader reaches DOS's state.
pub struct Loader<'a> {
    pub first_mcb: u16,
    pub strategy: memory::Strategy,
    /// The parent (the current PSP).
    pub parent: u16,
    pub drive: Option<&'a mut super::fs::Drive>,
    /// SFT entries opened "not inherited".
    pub no_inherit: &'a std::collections::HashSet<u8>,
    /// Where the caller returns to (the new PSP's terminate address).
    pub terminate: (u16, u16),
}

impl Loader<'_> {
    fn alloc(&self, uc: &mut Uc<'_>, paras: u16) -> Result<u16, (u16, u16)> {
        memory::allocate_with(uc, self.first_mcb, self.parent, paras, self.strategy)
    }

    fn largest(&self, uc: &mut Uc<'_>) -> Result<u16, u16> {
        match self.alloc(uc, 0xFFFF) {
            Ok(seg) => {
                // A 0FFFFh-paragraph block cannot exist below 640 KiB; give
                // it back if it somehow did.
                let _ = memory::free(uc, self.first_mcb, seg);
                Ok(0xFFFF)
            }
            Err((error::ERR_NOT_ENOUGH_MEMORY, largest)) => Ok(largest),
            Err((e, _)) => Err(e),
        }
    }

    /// Copy the environment for the child: the strings, the word 1 and
    /// the program name, in a block of its own. 0 when there is none.
    fn copy_environment(
        &self,
        uc: &mut Uc<'_>,
        from: Option<u16>,
        name: &[u8],
    ) -> Result<u16, u16> {
        let src = match from {
            Some(seg) => seg,
            None => psp::word(uc, self.parent, psp::ENVIRONMENT),
        };
        if src == 0 {
            return Ok(0);
        }
        let mut env = psp::environment_strings(uc, src).ok_or(error::ERR_BAD_ENVIRONMENT)?;
        env.extend_from_slice(&1u16.to_le_bytes());
        env.extend_from_slice(name);
        env.push(0);
        let paras = (env.len() as u32).div_ceil(16) as u16;
        let seg = self
            .alloc(uc, paras)
            .map_err(|_| error::ERR_NOT_ENOUGH_MEMORY)?;
        uc.write_seg(seg, 0, &env).map_err(mem_err)?;
        Ok(seg)
    }

    /// The child's default job file table: the parent's first 20 handles,
    /// each inherited file gaining a reference.
    fn inherit_handles(&mut self, uc: &Uc<'_>) -> [u8; psp::DEFAULT_HANDLES] {
        let mut t = [0xFFu8; psp::DEFAULT_HANDLES];
        let parent = psp::jft(uc, self.parent);
        for (i, &b) in parent.iter().take(psp::DEFAULT_HANDLES).enumerate() {
            if b == 0xFF || self.no_inherit.contains(&b) {
                continue;
            }
            t[i] = match self.drive.as_deref_mut() {
                Some(d) => {
                    if d.share_sft(b) {
                        b
                    } else {
                        0xFF
                    }
                }
                None => b,
            };
        }
        t
    }

    /// Load a program as a child of the current PSP (AX=4B00h/4B01h's load,
    /// and the first program's). Errors are DOS error codes.
    pub fn load(
        &mut self,
        uc: &mut Uc<'_>,
        exe: &Executable,
        name: &[u8],
        params: &Params,
    ) -> Result<Started, u16> {
        let env = self.copy_environment(uc, params.env, name)?;
        let placed = self.place(uc, exe);
        let (block, size, load_seg) = match placed {
            Ok(p) => p,
            Err(e) => {
                if env != 0 {
                    let _ = memory::free(uc, self.first_mcb, env);
                }
                return Err(e);
            }
        };
        let psp_seg = block;
        let top = block.wrapping_add(size);
        let (cs, ip, ss, sp) = match exe {
            Executable::Com(bytes) => {
                let room = if size >= 0x1000 {
                    0xFF00u32
                } else {
                    u32::from(size) * 16 - 0x100
                };
                let n = bytes.len().min(room as usize);
                uc.write_seg(block, 0x100, &bytes[..n]).map_err(mem_err)?;
                let sp = (room + 0xFE) as u16;
                uc.write_seg(block, sp, &[0, 0]).map_err(mem_err)?;
                (block, 0x100, block, sp)
            }
            Executable::Exe(mz) => {
                let mut image = mz.image.clone();
                for &(off, seg) in &mz.relocs {
                    let at = (u32::from(seg) * 16 + u32::from(off)) as usize;
                    if at + 2 <= image.len() {
                        let v =
                            u16::from_le_bytes([image[at], image[at + 1]]).wrapping_add(load_seg);
                        image[at..at + 2].copy_from_slice(&v.to_le_bytes());
                    }
                }
                write_big(uc, load_seg, &image)?;
                // Relocations past the load module patch memory beyond it,
                // as DOS's do.
                for &(off, seg) in &mz.relocs {
                    let at = u32::from(seg) * 16 + u32::from(off);
                    if at as usize + 2 > image.len() {
                        let lin = (u32::from(load_seg) << 4) + at;
                        let (s, o) = ((lin >> 4) as u16, (lin & 15) as u16);
                        let v = uc.read_u16_at(s, o).unwrap_or(0).wrapping_add(load_seg);
                        let _ = uc.write_u16_at(s, o, v);
                    }
                }
                let h = &mz.header;
                (
                    h.e_cs.wrapping_add(load_seg),
                    h.e_ip,
                    h.e_ss.wrapping_add(load_seg),
                    h.e_sp,
                )
            }
        };
        let v23 = super::get_vector(uc, 0x23).unwrap_or((0, 0));
        let v24 = super::get_vector(uc, 0x24).unwrap_or((0, 0));
        let vectors = [
            (self.terminate.1, self.terminate.0),
            (v23.1, v23.0),
            (v24.1, v24.0),
        ];
        let jft = self.inherit_handles(uc);
        let mut p = psp::build(psp_seg, top, self.parent, env, vectors, &jft);
        p[psp::FCB1..psp::FCB1 + 12].copy_from_slice(&params.fcb1);
        p[psp::FCB2..psp::FCB2 + 12].copy_from_slice(&params.fcb2);
        p[psp::TAIL..].copy_from_slice(&params.tail);
        // The CP/M-style size word: bytes available in the segment.
        let avail: u16 = if size >= 0x1000 {
            0xFEF0
        } else {
            (u32::from(size) * 16).saturating_sub(0x110) as u16
        };
        if avail < 0xFEF0 {
            p[psp::CPM_CALL + 1..psp::CPM_CALL + 3].copy_from_slice(&avail.to_le_bytes());
        }
        uc.write_seg(psp_seg, 0, &p).map_err(mem_err)?;
        let owner_name = arena_name(name);
        memory::set_owner(uc, block, psp_seg, Some(&owner_name));
        if env != 0 {
            memory::set_owner(uc, env, psp_seg, None);
        }
        let valid = |d: u8| if fcb_drive_valid(d) { 0u16 } else { 0xFF };
        let ax = valid(params.fcb2[0]) << 8 | valid(params.fcb1[0]);
        Ok(Started {
            psp: psp_seg,
            env,
            load_seg,
            top,
            cs,
            ip,
            ss,
            sp,
            ax,
        })
    }

    /// Allocate the program's block as EXEC does: (block, size, load
    /// segment).
    fn place(&self, uc: &mut Uc<'_>, exe: &Executable) -> Result<(u16, u16, u16), u16> {
        let largest = self.largest(uc)?;
        match exe {
            Executable::Com(bytes) => {
                if largest == 0 {
                    return Err(error::ERR_NOT_ENOUGH_MEMORY);
                }
                let room = if largest >= 0x1000 {
                    0xFF00
                } else {
                    (u32::from(largest) * 16).saturating_sub(0x100)
                };
                // DOS reads as much as fits; reading all it asked for
                // means the program did not fit.
                if bytes.len() as u32 >= room {
                    return Err(error::ERR_NOT_ENOUGH_MEMORY);
                }
                let block = self
                    .alloc(uc, largest)
                    .map_err(|_| error::ERR_NOT_ENOUGH_MEMORY)?;
                Ok((block, largest, block))
            }
            Executable::Exe(mz) => {
                let h = &mz.header;
                let image = (h.e_cp.wrapping_shl(5)).wrapping_sub(h.e_cparhdr);
                let load_high = h.e_maxalloc == 0;
                let bare = u32::from(image) + 0x10;
                if largest < 0x11 || bare > u32::from(largest) {
                    return Err(error::ERR_NOT_ENOUGH_MEMORY);
                }
                let size = if load_high {
                    largest
                } else {
                    let min = bare + u32::from(h.e_minalloc);
                    if min > u32::from(largest) || min > 0xFFFF {
                        return Err(error::ERR_NOT_ENOUGH_MEMORY);
                    }
                    let max = bare + u32::from(h.e_maxalloc);
                    if max > 0xFFFF {
                        largest
                    } else {
                        (max as u16).min(largest)
                    }
                };
                let block = self
                    .alloc(uc, size)
                    .map_err(|_| error::ERR_NOT_ENOUGH_MEMORY)?;
                let load = if load_high {
                    block.wrapping_add(size).wrapping_sub(image)
                } else {
                    block + 0x10
                };
                Ok((block, size, load))
            }
        }
    }
}

/// Write an image of any size (up to 640 KiB) at `seg`:0, 32 KiB at a time.
fn write_big(uc: &mut Uc<'_>, seg: u16, bytes: &[u8]) -> Result<(), u16> {
    for (i, chunk) in bytes.chunks(0x8000).enumerate() {
        let s = seg.wrapping_add((i * 0x800) as u16);
        uc.write_seg(s, 0, chunk).map_err(mem_err)?;
    }
    Ok(())
}

/// AX=4B03h: load an overlay at `load_seg`, relocated by `factor`; no PSP
/// and no memory of its own. A .COM is read whole.
pub fn load_overlay(
    uc: &mut Uc<'_>,
    exe: &Executable,
    load_seg: u16,
    factor: u16,
) -> Result<(), u16> {
    match exe {
        Executable::Com(bytes) => write_big(uc, load_seg, &bytes[..bytes.len().min(0xFFFF)]),
        Executable::Exe(mz) => {
            let mut image = mz.image.clone();
            for &(off, seg) in &mz.relocs {
                let at = (u32::from(seg) * 16 + u32::from(off)) as usize;
                if at + 2 <= image.len() {
                    let v = u16::from_le_bytes([image[at], image[at + 1]]).wrapping_add(factor);
                    image[at..at + 2].copy_from_slice(&v.to_le_bytes());
                }
            }
            write_big(uc, load_seg, &image)
        }
    }
}

/// A parent waiting in AX=4B00h for its child: the registers it called
/// DOS with, restored when the child ends.
#[derive(Debug, Clone, Copy)]
pub struct Waiting {
    pub child: u16,
    pub regs: Regs,
}

/// Start a loaded program: its registers, the DTA, the current PSP.
pub fn enter(env: &mut Env, uc: &mut Uc<'_>, s: &Started) -> Result<(), Stop> {
    env.dos.psp = s.psp;
    env.dos.dta = (s.psp, 0x80);
    let host = super::host;
    for (r, v) in [
        (R::AX, s.ax),
        (R::BX, s.ax),
        (R::CX, 0x00FF),
        (R::DX, s.psp),
        (R::SI, s.ip),
        (R::DI, s.sp),
        (R::BP, 0),
        (R::DS, s.psp),
        (R::ES, s.psp),
        (R::SS, s.ss),
        (R::SP, s.sp),
        (R::CS, s.cs),
        (R::IP, s.ip),
    ] {
        uc.set_reg(r, v).map_err(host)?;
    }
    uc.get_data_mut().current_task = s.psp;
    Ok(())
}

/// How a process ended (AH=4Dh's AH).
pub const ENDED_NORMALLY: u8 = 0;
pub const ENDED_BY_CTRL_C: u8 = 1;
pub const ENDED_RESIDENT: u8 = 3;

/// End the current process with exit code `code`. `resident` keeps
/// `Some(paragraphs)` of its PSP block (AH=31h, INT 27h) and its other
/// memory and files. The first program ending ends the run.
pub fn terminate(
    env: &mut Env,
    uc: &mut Uc<'_>,
    code: u8,
    resident: Option<u16>,
) -> Result<(), Stop> {
    let me = env.dos.psp;
    let first = env.dos.first_mcb;
    if first == 0 || me == env.dos.root_psp || uc.mode() != crate::walk::CpuMode::Real {
        return Err(Stop::Exited { code });
    }
    let how = match resident {
        Some(keep) => {
            let _ = memory::resize(uc, first, me, keep.max(6));
            ENDED_RESIDENT
        }
        None => {
            if let Some(d) = env.drive.as_mut() {
                psp::load_jft(uc, me, d);
                d.close_every_handle();
                psp::store_jft(uc, me, d);
            }
            let _ = memory::free_owned(uc, first, me);
            ENDED_NORMALLY
        }
    };
    for (i, n) in [0x22u8, 0x23, 0x24].into_iter().enumerate() {
        let (seg, off) = psp::far(uc, me, psp::TERMINATE + 4 * i);
        super::set_vector(uc, n, (seg, off))?;
    }
    env.dos.return_code = u16::from(how) << 8 | u16::from(code);
    let parent = psp::word(uc, me, psp::PARENT);
    let (tseg, toff) = psp::far(uc, me, psp::TERMINATE);
    env.dos.psp = parent;
    env.dos.dta = (parent, 0x80);
    uc.get_data_mut().current_task = parent;
    let host = super::host;
    if let Some(i) = env.dos.waiting.iter().rposition(|w| w.child == me) {
        let w = env.dos.waiting[i];
        env.dos.waiting.truncate(i);
        uc.set_regs(&w.regs).map_err(host)?;
        uc.set_reg(R::FLAGS, w.regs.flags & !1).map_err(host)?;
    } else {
        let (ss, sp) = psp::far(uc, parent, psp::SAVED_STACK);
        uc.set_reg(R::SS, ss).map_err(host)?;
        uc.set_reg(R::SP, sp).map_err(host)?;
    }
    uc.set_reg(R::CS, tseg).map_err(host)?;
    uc.set_reg(R::IP, toff).map_err(host)
}
