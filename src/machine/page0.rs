//! Real mode: the first 4 KiB of memory (the interrupt vector table, the
//! BIOS data area, the start of DOS's data) as device memory, so that the
//! machine sees a program look at the time without a hook per block.
//!
//! A program that waits for the BIOS timer count at 0040:006Ch to change,
//! or for the keyboard buffer's tail at 0040:001Ch to move, does it with
//! plain reads in a loop (Turbo Pascal's Crt unit calibrates its Delay
//! that way). Nothing in such a loop reaches the machine, so time would
//! stand still and the loop would never end. The page is therefore a
//! unicorn MMIO region: every access goes through [`read`] and [`write`],
//! which keep its bytes and notice, among the program's own accesses (not
//! the environment's), the reads of the timer count (006Ch-0070h) and of
//! the keyboard buffer's head and tail (001Ah-001Dh), and writes to the
//! vectors of the hardware interrupts the machine delivers (08h, 09h, 1Ch,
//! 74h) while the program runs. Any of them makes the run timed (time.rs),
//! and from then on the page is plain memory again ([`to_ram`]): the
//! counting hook keeps time. The accesses that go through the callbacks
//! before that are few (a program reads its video mode or hooks a vector
//! at start-up).
//!
//! Device memory cannot hold code: a program that jumps into the first
//! page (a boot sector relocating itself to 0000:0600h) stops with a
//! fetch error at the jump's target, the page becomes memory, the run
//! timed, and the emulation goes on there (mod.rs, `emulate`).

use std::cell::RefCell;
use std::rc::Rc;

use unicorn_engine::unicorn_const::Permission;

use super::{MachineError, Uc, uerr};

/// Bytes of the page.
pub const SIZE: usize = 0x1000;

/// The page's bytes while it is device memory.
#[derive(Debug)]
pub struct Page0 {
    bytes: RefCell<Vec<u8>>,
}

impl Page0 {
    /// The page's bytes (a checkpoint's copy, checkpoint.rs).
    pub(super) fn bytes(&self) -> Vec<u8> {
        self.bytes.borrow().clone()
    }

    /// Put the page's bytes back (a checkpoint restored).
    pub(super) fn set_bytes(&self, b: &[u8]) {
        let mut bytes = self.bytes.borrow_mut();
        let n = b.len().min(SIZE);
        bytes[..n].copy_from_slice(&b[..n]);
    }
}

/// Reads that look at the time: the BIOS timer count and its midnight
/// flag, the keyboard buffer's head and tail.
const WATCHED_READS: [(u64, u64); 2] = [(0x46C, 0x471), (0x41A, 0x41E)];

/// Vectors of the hardware interrupts the environment delivers at a
/// timer tick: 08h (IRQ 0), 09h (IRQ 1), 1Ch (the timer's user hook), 74h
/// (IRQ 12, the mouse).
const WATCHED_WRITES: [(u64, u64); 3] = [(0x20, 0x28), (0x70, 0x74), (0x1D0, 0x1D4)];

fn overlaps(set: &[(u64, u64)], off: u64, size: usize) -> bool {
    let end = off + size as u64;
    set.iter().any(|&(a, b)| off < b && end > a)
}

/// Map the page as device memory over `bytes` (its contents so far).
pub(super) fn map(uc: &mut Uc<'_>) -> Result<(), MachineError> {
    let page = Rc::new(Page0 {
        bytes: RefCell::new(vec![0; SIZE]),
    });
    let (r, w) = (page.clone(), page.clone());
    uc.mmio_map(
        0,
        SIZE,
        Some(move |uc: &mut Uc<'_>, off: u64, size: usize| {
            super::hookguard::guard(uc, "first-page read", 0, |uc| read(&r, uc, off, size))
        }),
        Some(move |uc: &mut Uc<'_>, off: u64, size: usize, v: u64| {
            super::hookguard::guard(uc, "first-page write", (), |uc| write(&w, uc, off, size, v))
        }),
    )
    .map_err(|e| uerr("mapping the first page", e))?;
    uc.get_data_mut().page0 = Some(page);
    Ok(())
}

fn read(page: &Page0, uc: &mut Uc<'_>, off: u64, size: usize) -> u64 {
    super::counter::inline_off(uc);
    let n = size.min(8);
    let mut b = [0u8; 8];
    {
        let bytes = page.bytes.borrow();
        let at = off as usize;
        if at + n <= SIZE {
            b[..n].copy_from_slice(&bytes[at..at + n]);
        }
    }
    if !uc.get_data().host.get() && overlaps(&WATCHED_READS, off, n) {
        super::time::start_timing(uc);
    }
    u64::from_le_bytes(b)
}

fn write(page: &Page0, uc: &mut Uc<'_>, off: u64, size: usize, value: u64) {
    super::counter::inline_off(uc);
    let n = size.min(8);
    {
        let mut bytes = page.bytes.borrow_mut();
        let at = off as usize;
        if at + n <= SIZE {
            bytes[at..at + n].copy_from_slice(&value.to_le_bytes()[..n]);
        }
    }
    if uc.get_data().ran && overlaps(&WATCHED_WRITES, off, n) {
        super::time::start_timing(uc);
    }
}

/// The emulation stopped fetching code: when that code is in the page
/// while it is device memory, the page is to become memory and the run
/// timed (the loop then resumes at the same CS:IP). False otherwise.
pub(super) fn fetch(uc: &mut Uc<'_>) -> bool {
    use super::Cpu;
    let st = uc.get_data();
    if st.page0.is_none() || st.mode != crate::x86::CpuMode::Real {
        return false;
    }
    let (cs, ip) = (uc.reg(super::R::CS), uc.reg(super::R::IP));
    let lin = (u64::from(cs) << 4) + u64::from(ip);
    if lin >= SIZE as u64 {
        return false;
    }
    uc.get_data_mut().page0_to_ram = true;
    super::time::start_timing(uc);
    true
}

/// Make the page plain memory with the bytes it holds (outside any
/// emulation, or between two).
pub(super) fn to_ram(uc: &mut Uc<'_>) -> Result<(), MachineError> {
    let Some(page) = uc.get_data_mut().page0.take() else {
        return Ok(());
    };
    let bytes = page.bytes.borrow().clone();
    uc.mem_unmap(0, SIZE)
        .map_err(|e| uerr("unmapping the first page", e))?;
    uc.mem_map(0, SIZE, Permission::ALL)
        .map_err(|e| uerr("mapping the first page", e))?;
    uc.mem_write(0, &bytes)
        .map_err(|e| uerr("filling the first page", e))?;
    Ok(())
}
