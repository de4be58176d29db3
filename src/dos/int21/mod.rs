//! INT 21h, the DOS function dispatcher of MS-DOS 5.0: one table from AH to
//! the function that serves it, each function in the file of its concept.
//!
//! | room | functions |
//! | --- | --- |
//! | [`console`] | 01h-0Ch character and line I/O |
//! | [`fcb`] | 0Fh-17h, 21h-24h, 27h-29h: file control blocks (DOS 1.x) |
//! | [`disk`] | 0Dh, 0Eh, 19h, 1Ah, 1Bh, 1Ch, 1Fh, 2Fh, 32h, 36h, 53h, 69h: drives, DTA, drive parameter blocks |
//! | [`file`] | 3Ch-42h, 45h, 46h, 57h, 5Ah-5Ch, 67h, 68h, 6Ah, 6Ch: handles |
//! | [`dir`] | 39h-3Bh, 41h, 43h, 47h, 4Eh, 4Fh, 56h, 60h: directories and names |
//! | [`ioctl`] | 44h |
//! | [`memory`] | 48h-4Ah, 58h |
//! | [`process`] | 00h, 26h, 31h, 4Bh-4Dh, 50h, 51h, 55h, 62h, and the CP/M entry |
//! | [`country`] | 38h, 63h, 65h, 66h |
//! | [`time`] | 2Ah-2Dh |
//! | [`system`] | 18h, 1Dh, 1Eh, 20h, 25h, 2Eh, 30h, 33h-35h, 37h, 52h, 54h, 59h, 5Dh-5Fh, 61h, 64h, 6Bh |
//!
//! A function number past 6Ch is no DOS 5 function: DOS returns AL = 0 and
//! changes nothing else, and so does this dispatcher. Every failing call
//! leaves its extended error (AH=59h, [`error`]).

pub mod console;
pub mod country;
pub mod dir;
pub mod disk;
pub mod error;
pub mod fcb;
pub mod file;
pub mod ioctl;
pub mod memory;
pub mod process;
pub mod system;
pub mod time;

use super::fs::{DosError, Drive};
use super::{Dos, host, psp, set_al, set_carry};
use crate::dos::Env;
use crate::machine::{Cpu, R, Stop, Uc};

/// A DOS function: reads its arguments from the registers and guest
/// memory, and leaves its results there.
pub type Handler = fn(&mut Env, &mut Uc<'_>) -> Result<(), Stop>;

/// One entry of the dispatch table.
pub struct Function {
    /// AH.
    pub ah: u8,
    /// What the MS-DOS documentation calls it.
    pub name: &'static str,
    pub run: Handler,
}

const fn f(ah: u8, name: &'static str, run: Handler) -> Function {
    Function { ah, name, run }
}

/// The functions of MS-DOS 5.0, by AH.
pub static TABLE: [Function; 0x6D] = [
    f(0x00, "terminate program", process::terminate_00),
    f(0x01, "character input with echo", console::input_echo),
    f(0x02, "character output", console::output),
    f(0x03, "auxiliary input", console::aux_input),
    f(0x04, "auxiliary output", console::aux_output),
    f(0x05, "printer output", console::printer_output),
    f(0x06, "direct console I/O", console::direct_io),
    f(0x07, "direct character input", console::direct_input),
    f(0x08, "character input without echo", console::input_no_echo),
    f(0x09, "display string", console::print_string),
    f(0x0A, "buffered keyboard input", console::buffered_input),
    f(0x0B, "check input status", console::input_status),
    f(0x0C, "flush buffer and read", console::flush_and_read),
    f(0x0D, "disk reset", disk::reset),
    f(0x0E, "select default drive", disk::select_drive),
    f(0x0F, "open file (FCB)", fcb::run),
    f(0x10, "close file (FCB)", fcb::run),
    f(0x11, "find first (FCB)", fcb::run),
    f(0x12, "find next (FCB)", fcb::run),
    f(0x13, "delete file (FCB)", fcb::run),
    f(0x14, "sequential read (FCB)", fcb::run),
    f(0x15, "sequential write (FCB)", fcb::run),
    f(0x16, "create file (FCB)", fcb::run),
    f(0x17, "rename file (FCB)", fcb::run),
    f(0x18, "CP/M null function", system::null_function),
    f(0x19, "get default drive", disk::current_drive),
    f(0x1A, "set DTA", disk::set_dta),
    f(
        0x1B,
        "allocation information (default drive)",
        disk::allocation_default,
    ),
    f(0x1C, "allocation information", disk::allocation),
    f(0x1D, "CP/M null function", system::null_function),
    f(0x1E, "CP/M null function", system::null_function),
    f(0x1F, "get default drive parameter block", disk::default_dpb),
    f(0x20, "CP/M null function", system::null_function),
    f(0x21, "random read (FCB)", fcb::run),
    f(0x22, "random write (FCB)", fcb::run),
    f(0x23, "file size (FCB)", fcb::run),
    f(0x24, "set random record (FCB)", fcb::run),
    f(0x25, "set interrupt vector", system::set_vector),
    f(0x26, "create PSP", process::create_psp),
    f(0x27, "random block read (FCB)", fcb::run),
    f(0x28, "random block write (FCB)", fcb::run),
    f(0x29, "parse file name", fcb::parse_name),
    f(0x2A, "get date", time::get_date),
    f(0x2B, "set date", time::set_date),
    f(0x2C, "get time", time::get_time),
    f(0x2D, "set time", time::set_time),
    f(0x2E, "set verify flag", system::set_verify),
    f(0x2F, "get DTA", disk::get_dta),
    f(0x30, "get DOS version", system::version),
    f(0x31, "terminate and stay resident", process::keep),
    f(0x32, "get drive parameter block", disk::dpb),
    f(
        0x33,
        "Ctrl-Break, boot drive, true version",
        system::break_and_version,
    ),
    f(0x34, "get InDOS flag address", system::indos),
    f(0x35, "get interrupt vector", system::get_vector),
    f(0x36, "get free disk space", disk::free_space),
    f(0x37, "switch character", system::switch_char),
    f(0x38, "country information", country::info),
    f(0x39, "create directory", dir::mkdir),
    f(0x3A, "remove directory", dir::rmdir),
    f(0x3B, "change directory", dir::chdir),
    f(0x3C, "create file", file::create),
    f(0x3D, "open file", file::open),
    f(0x3E, "close file", file::close),
    f(0x3F, "read", file::read),
    f(0x40, "write", file::write),
    f(0x41, "delete file", dir::delete),
    f(0x42, "move file pointer", file::seek),
    f(0x43, "file attributes", dir::attributes),
    f(0x44, "IOCTL", ioctl::run),
    f(0x45, "duplicate handle", file::dup),
    f(0x46, "force duplicate handle", file::dup2),
    f(0x47, "get current directory", dir::getcwd),
    f(0x48, "allocate memory", memory::allocate),
    f(0x49, "free memory", memory::free),
    f(0x4A, "resize memory block", memory::resize),
    f(0x4B, "EXEC", process::exec),
    f(0x4C, "terminate with return code", process::exit),
    f(0x4D, "get return code", process::return_code),
    f(0x4E, "find first", dir::find_first),
    f(0x4F, "find next", dir::find_next),
    f(0x50, "set PSP", process::set_psp),
    f(0x51, "get PSP", process::get_psp),
    f(0x52, "get list of lists", system::list_of_lists),
    f(0x53, "translate BPB to DPB", disk::bpb_to_dpb),
    f(0x54, "get verify flag", system::get_verify),
    f(0x55, "create child PSP", process::child_psp),
    f(0x56, "rename file", dir::rename),
    f(0x57, "file date and time", file::date_time),
    f(0x58, "memory allocation strategy", memory::strategy),
    f(0x59, "get extended error", system::extended_error),
    f(0x5A, "create temporary file", file::create_temp),
    f(0x5B, "create new file", file::create_new),
    f(0x5C, "lock or unlock region", file::lock),
    f(0x5D, "server functions", system::server),
    f(0x5E, "network machine name and printer", system::network),
    f(0x5F, "network redirection", system::network),
    f(0x60, "canonical file name", dir::truename),
    f(0x61, "unused", system::null_function),
    f(0x62, "get PSP", process::get_psp),
    f(0x63, "DBCS lead byte table", country::dbcs),
    f(0x64, "set device driver lookahead", system::null_function),
    f(0x65, "extended country information", country::extended),
    f(0x66, "code page", country::code_page),
    f(0x67, "set handle count", file::handle_count),
    f(0x68, "commit file", file::commit),
    f(0x69, "disk serial number", disk::serial),
    f(0x6A, "commit file", file::commit),
    f(0x6B, "null function", system::null_function),
    f(0x6C, "extended open or create", file::extended_open),
];

/// INT 21h.
pub fn int21(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    env.dos.check_input_loop()?;
    let ah = ah(uc);
    env.dos.call_ah = ah;
    match TABLE.get(usize::from(ah)) {
        Some(func) => (func.run)(env, uc),
        None => set_al(uc, 0),
    }
}

/// AH of the call.
pub fn ah(uc: &Uc<'_>) -> u8 {
    (uc.reg(R::AX) >> 8) as u8
}

/// AL of the call.
pub fn al(uc: &Uc<'_>) -> u8 {
    uc.reg(R::AX) as u8
}

/// Remember `code` as the extended error of the running call.
pub fn record(env: &mut Env, code: u16) {
    let ah = env.dos.call_ah;
    env.dos.ext_error = error::describe(code, error::call_locus(ah));
}

/// Fail the running call with `code`: the extended error is set, AX holds
/// the code the call documents, CF is set.
pub fn fail(env: &mut Env, uc: &mut Uc<'_>, code: u16) -> Result<(), Stop> {
    record(env, code);
    let ah = env.dos.call_ah;
    uc.set_reg(R::AX, error::returned(ah, code)).map_err(host)?;
    set_carry(uc, true)
}

/// The call succeeded: CF clear.
pub fn ok(uc: &mut Uc<'_>) -> Result<(), Stop> {
    set_carry(uc, false)
}

/// Set a register, as a stop when the host cannot.
pub fn set(uc: &mut Uc<'_>, r: R, v: u16) -> Result<(), Stop> {
    uc.set_reg(r, v).map_err(host)
}

/// Run a call on the drive with the current process's handles: the PSP's
/// job file table is loaded before and stored after (real mode). The call
/// returns a DOS error to fail with. Without a drive the call stops the
/// program as unimplemented.
pub fn with_drive(
    env: &mut Env,
    uc: &mut Uc<'_>,
    f: impl FnOnce(&mut Drive, &mut Uc<'_>, &mut Dos) -> Result<(), DosError>,
) -> Result<(), Stop> {
    let Some(drive) = env.drive.as_mut() else {
        let ah = ah(uc);
        return Err(super::unimplemented(
            uc,
            format!("INT 21h AH={ah:02X}h without a drive (--dir)"),
        ));
    };
    let real = uc.mode() == crate::walk::CpuMode::Real && env.dos.psp != 0;
    let p = env.dos.psp;
    if real {
        psp::load_jft(uc, p, drive);
    }
    let r = f(drive, uc, &mut env.dos);
    if real {
        psp::store_jft(uc, p, drive);
    }
    match r {
        Ok(()) => ok(uc),
        Err(e) => fail(env, uc, e.0),
    }
}

/// The ASCIZ path at seg:off (DOS reads at most 128 bytes).
pub fn path_at(uc: &Uc<'_>, seg: u16, off: u16) -> Vec<u8> {
    super::read_until(uc, seg, off, 0, 128)
}

/// Guest memory as DOS reaches it (`reg` names the segment register the
/// program passed it in): its 16-bit offsets wrap past FFFFh to the start
/// of the same segment (real mode), as the 8086's address arithmetic does.
/// A protected-mode segment that ends before is a general-protection fault
/// at the caller (the INT 21h).
pub(crate) fn read_wrapping(
    uc: &Uc<'_>,
    reg: &'static str,
    seg: u16,
    off: u16,
    buf: &mut [u8],
) -> Result<(), Stop> {
    let first = buf.len().min(0x1_0000 - usize::from(off));
    let (a, b) = buf.split_at_mut(first);
    uc.read_seg(seg, off, a)
        .and_then(|()| uc.read_seg(seg, 0, b))
        .map_err(|_| access_fault(uc, reg, seg, off, false))
}

/// [`read_wrapping`] for writing.
pub(crate) fn write_wrapping(
    uc: &mut Uc<'_>,
    reg: &'static str,
    seg: u16,
    off: u16,
    data: &[u8],
) -> Result<(), Stop> {
    let first = data.len().min(0x1_0000 - usize::from(off));
    let (a, b) = data.split_at(first);
    uc.write_seg(seg, off, a)
        .and_then(|()| uc.write_seg(seg, 0, b))
        .map_err(|_| access_fault(uc, reg, seg, off, true))
}

fn access_fault(uc: &Uc<'_>, reg: &'static str, seg: u16, off: u16, write: bool) -> Stop {
    let regs = uc.regs();
    let mut r = regs;
    r.ip = regs.ip.wrapping_sub(2);
    let d = uc.descriptor_of(seg);
    Stop::Fault(crate::machine::Fault::with_cause(
        13,
        r,
        crate::machine::Cause::Access {
            segment: reg,
            selector: seg,
            offset: off,
            size: 1,
            write,
            limit: d.map(|d| d.limit),
            linear: d.map(|d| d.base.wrapping_add(u32::from(off))),
        },
    ))
}

/// How many of `cx` bytes at `seg:off` a handle read or write transfers.
/// DOS cuts a transfer that would run past the end of its buffer's segment
/// at that end (MS-DOS 2.0's SETUP, DISK.ASM: "see if it will fit in one
/// segment"; a buffer at offset 0 gets at most FFFFh bytes) and returns
/// the shorter count, with no error. A protected-mode segment ends at its
/// limit; a selector that is no segment is error 5.
fn transfer_len(uc: &Uc<'_>, seg: u16, off: u16, cx: u16) -> Result<u16, DosError> {
    let d = uc.descriptor_of(seg).ok_or(DosError::ACCESS_DENIED)?;
    let end = if d.limit >= 0xFFFF && off == 0 {
        0xFFFF
    } else {
        (d.limit + 1).saturating_sub(u32::from(off))
    };
    Ok(cx.min(end.min(0xFFFF) as u16))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_indexed_by_ah() {
        for (i, func) in TABLE.iter().enumerate() {
            assert_eq!(usize::from(func.ah), i, "{}", func.name);
        }
    }
}
