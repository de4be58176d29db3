//! DOS memory: the chain of memory control blocks (MCBs) that real programs
//! walk, and INT 21h AH=48h/49h/4Ah on it.
//!
//! An MCB is the paragraph before each block: byte 0 'M' (another block
//! follows) or 'Z' (the last), word 1 the owner's PSP (0 = free), word 3 the
//! block's size in paragraphs, bytes 8..16 the owner's name (DOS 4+). The
//! blocks tile conventional memory from the first MCB to [`TOP`].

use crate::machine::Uc;

/// The first paragraph past conventional memory (640 KiB).
pub const TOP: u16 = 0xA000;

/// DOS error codes of the memory functions.
pub const ERR_MCB_DESTROYED: u16 = 7;
pub const ERR_NO_MEMORY: u16 = 8;
pub const ERR_BAD_BLOCK: u16 = 9;

/// One memory control block, as read from memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mcb {
    /// Segment of the MCB itself (the block starts one paragraph later).
    pub seg: u16,
    pub last: bool,
    pub owner: u16,
    pub size: u16,
}

fn lin(seg: u16) -> u64 {
    u64::from(seg) * 16
}

/// Read the MCB at `seg`; None when it is not a valid 'M'/'Z' block.
pub fn read(uc: &Uc<'_>, seg: u16) -> Option<Mcb> {
    let mut b = [0u8; 5];
    uc.mem_read(lin(seg), &mut b).ok()?;
    let last = match b[0] {
        b'M' => false,
        b'Z' => true,
        _ => return None,
    };
    Some(Mcb {
        seg,
        last,
        owner: u16::from_le_bytes([b[1], b[2]]),
        size: u16::from_le_bytes([b[3], b[4]]),
    })
}

/// Write an MCB (and the owner's name, when given).
pub fn write(uc: &mut Uc<'_>, m: &Mcb, name: Option<&str>) {
    let mut b = [0u8; 16];
    b[0] = if m.last { b'Z' } else { b'M' };
    b[1..3].copy_from_slice(&m.owner.to_le_bytes());
    b[3..5].copy_from_slice(&m.size.to_le_bytes());
    let keep_name = name.is_none();
    if let Some(n) = name {
        let n = n.as_bytes();
        let k = n.len().min(8);
        b[8..8 + k].copy_from_slice(&n[..k]);
    }
    if keep_name {
        let _ = uc.mem_write(lin(m.seg), &b[..5]);
    } else {
        let _ = uc.mem_write(lin(m.seg), &b);
    }
}

/// The chain from `first`, bounded (a corrupt chain ends the walk).
pub fn chain(uc: &Uc<'_>, first: u16) -> Result<Vec<Mcb>, u16> {
    let mut out = Vec::new();
    let mut seg = first;
    for _ in 0..0x1_0000 {
        let m = read(uc, seg).ok_or(ERR_MCB_DESTROYED)?;
        out.push(m);
        if m.last {
            return Ok(out);
        }
        let next = u32::from(seg) + 1 + u32::from(m.size);
        if next >= u32::from(TOP) {
            return Err(ERR_MCB_DESTROYED);
        }
        seg = next as u16;
    }
    Err(ERR_MCB_DESTROYED)
}

/// Join each free block with the free blocks after it, as DOS does while it
/// scans.
fn coalesce(uc: &mut Uc<'_>, first: u16) -> Result<(), u16> {
    let blocks = chain(uc, first)?;
    let mut i = 0;
    while i < blocks.len() {
        let mut m = blocks[i];
        if m.owner == 0 {
            let mut j = i + 1;
            while j < blocks.len() && blocks[j].owner == 0 {
                m.size = m.size.wrapping_add(1).wrapping_add(blocks[j].size);
                m.last = blocks[j].last;
                j += 1;
            }
            if j > i + 1 {
                write(uc, &m, None);
            }
            i = j;
        } else {
            i += 1;
        }
    }
    Ok(())
}

/// How AH=48h picks a free block (AH=58h): the first that fits (DOS's
/// default), the smallest that fits, or the last that fits, taking its top.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Strategy {
    #[default]
    FirstFit,
    BestFit,
    LastFit,
}

impl Strategy {
    /// The AH=58h code (0, 1, 2).
    pub fn code(self) -> u16 {
        match self {
            Strategy::FirstFit => 0,
            Strategy::BestFit => 1,
            Strategy::LastFit => 2,
        }
    }

    /// The strategy of an AH=58h code (bits above 1 are the DOS 5 "high
    /// memory first" bits, meaningless without upper memory).
    pub fn from_code(c: u16) -> Option<Strategy> {
        match c & !0x80 {
            0 => Some(Strategy::FirstFit),
            1 => Some(Strategy::BestFit),
            2 => Some(Strategy::LastFit),
            _ => None,
        }
    }
}

/// AH=48h: allocate `paras` paragraphs for `owner` (first fit). Ok(segment of
/// the block) or Err((error, largest free block)).
pub fn allocate(uc: &mut Uc<'_>, first: u16, owner: u16, paras: u16) -> Result<u16, (u16, u16)> {
    allocate_with(uc, first, owner, paras, Strategy::FirstFit)
}

/// AH=48h with the allocation strategy of AH=58h.
pub fn allocate_with(
    uc: &mut Uc<'_>,
    first: u16,
    owner: u16,
    paras: u16,
    strategy: Strategy,
) -> Result<u16, (u16, u16)> {
    coalesce(uc, first).map_err(|e| (e, 0))?;
    let blocks = chain(uc, first).map_err(|e| (e, 0))?;
    let free = blocks.iter().filter(|m| m.owner == 0);
    let largest = free.clone().map(|m| m.size).max().unwrap_or(0);
    let mut fits = free.filter(|m| m.size >= paras);
    let pick = match strategy {
        Strategy::FirstFit => fits.next(),
        Strategy::BestFit => fits.min_by_key(|m| m.size),
        Strategy::LastFit => fits.next_back(),
    };
    let Some(m) = pick.copied() else {
        return Err((ERR_NO_MEMORY, largest));
    };
    if strategy == Strategy::LastFit && m.size > paras {
        // The top of the block: the free rest stays below it.
        let low = Mcb {
            size: m.size - paras - 1,
            last: false,
            ..m
        };
        write(uc, &low, None);
        let top = Mcb {
            seg: m.seg + 1 + low.size,
            last: m.last,
            owner,
            size: paras,
        };
        write(uc, &top, Some(""));
        return Ok(top.seg + 1);
    }
    split(uc, &m, owner, paras);
    Ok(m.seg + 1)
}

/// Free every block `owner` holds (a process ends).
pub fn free_owned(uc: &mut Uc<'_>, first: u16, owner: u16) -> Result<(), u16> {
    for m in chain(uc, first)? {
        if m.owner == owner {
            write(uc, &Mcb { owner: 0, ..m }, None);
        }
    }
    coalesce(uc, first)
}

/// Give the block at `block` (the segment after its MCB) to `owner`, and
/// name it when `name` is given.
pub fn set_owner(uc: &mut Uc<'_>, block: u16, owner: u16, name: Option<&str>) {
    if let Some(m) = read(uc, block.wrapping_sub(1)) {
        write(uc, &Mcb { owner, ..m }, name);
    }
}

/// The block that holds segment `seg`, if the chain from `first` has one.
pub fn block_of(uc: &Uc<'_>, first: u16, seg: u16) -> Option<Mcb> {
    chain(uc, first)
        .ok()?
        .into_iter()
        .find(|m| m.seg < seg && u32::from(seg) <= u32::from(m.seg) + u32::from(m.size))
}

/// Give the first `paras` paragraphs of free block `m` to `owner`, leaving
/// the rest free.
fn split(uc: &mut Uc<'_>, m: &Mcb, owner: u16, paras: u16) {
    if m.size > paras {
        let rest = Mcb {
            seg: m.seg + 1 + paras,
            last: m.last,
            owner: 0,
            size: m.size - paras - 1,
        };
        write(uc, &rest, Some(""));
        write(
            uc,
            &Mcb {
                seg: m.seg,
                last: false,
                owner,
                size: paras,
            },
            None,
        );
    } else {
        write(
            uc,
            &Mcb {
                seg: m.seg,
                last: m.last,
                owner,
                size: m.size,
            },
            None,
        );
    }
}

/// AH=49h: free the block at `block` (the segment after its MCB).
pub fn free(uc: &mut Uc<'_>, first: u16, block: u16) -> Result<(), u16> {
    let m = find(uc, first, block)?;
    write(uc, &Mcb { owner: 0, ..m }, None);
    Ok(())
}

fn find(uc: &Uc<'_>, first: u16, block: u16) -> Result<Mcb, u16> {
    let blocks = chain(uc, first)?;
    blocks
        .into_iter()
        .find(|m| m.seg.wrapping_add(1) == block)
        .ok_or(ERR_BAD_BLOCK)
}

/// AH=4Ah: resize the block at `block` to `paras`. Err((error, the largest
/// size it could have)).
pub fn resize(uc: &mut Uc<'_>, first: u16, block: u16, paras: u16) -> Result<(), (u16, u16)> {
    coalesce(uc, first).map_err(|e| (e, 0))?;
    let m = find(uc, first, block).map_err(|e| (e, 0))?;
    if paras <= m.size {
        let (owner, total) = (m.owner, m.size);
        split(uc, &Mcb { size: total, ..m }, owner, paras);
        // A freed tail joins the free block after it.
        coalesce(uc, first).map_err(|e| (e, 0))?;
        return Ok(());
    }
    // Growing: only into a free block right after.
    let next = if m.last {
        None
    } else {
        read(uc, m.seg + 1 + m.size)
    };
    let avail = match next {
        Some(n) if n.owner == 0 => u32::from(m.size) + 1 + u32::from(n.size),
        _ => u32::from(m.size),
    };
    if u32::from(paras) > avail {
        return Err((ERR_NO_MEMORY, avail.min(0xFFFF) as u16));
    }
    let n = next.expect("avail > size implies a free next block");
    let merged = Mcb {
        seg: m.seg,
        last: n.last,
        owner: m.owner,
        size: avail as u16,
    };
    split(uc, &merged, m.owner, paras);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::Machine;

    /// A chain of one free 0x1000-paragraph block at 0x1000.
    fn machine() -> (Machine, u16) {
        let mut m = Machine::new_real().unwrap();
        write(
            &mut m,
            &Mcb {
                seg: 0x1000,
                last: true,
                owner: 0,
                size: 0x1000,
            },
            Some(""),
        );
        (m, 0x1000)
    }

    #[test]
    fn allocate_free_resize_follow_dos() {
        let (mut m, first) = machine();
        let a = allocate(&mut m, first, 0x800, 0x100).unwrap();
        assert_eq!(a, 0x1001);
        let b = allocate(&mut m, first, 0x800, 0x200).unwrap();
        assert_eq!(b, 0x1102);
        let c = chain(&m, first).unwrap();
        assert_eq!(c.len(), 3);
        assert_eq!((c[2].owner, c[2].last), (0, true));
        // Too much: error 8 with the largest free block.
        assert_eq!(
            allocate(&mut m, first, 0x800, 0x2000),
            Err((ERR_NO_MEMORY, 0x1000 - 0x100 - 0x200 - 2))
        );
        // Free the first; a smaller request fits there again.
        free(&mut m, first, a).unwrap();
        assert_eq!(allocate(&mut m, first, 0x800, 0x80).unwrap(), a);
        // Resize b down, then grow into the freed tail.
        resize(&mut m, first, b, 0x100).unwrap();
        resize(&mut m, first, b, 0x300).unwrap();
        assert_eq!(
            chain(&m, first)
                .unwrap()
                .iter()
                .find(|x| x.seg + 1 == b)
                .unwrap()
                .size,
            0x300
        );
        // Bad block.
        assert_eq!(free(&mut m, first, 0x1234), Err(ERR_BAD_BLOCK));
        // The chain still tiles memory up to its end.
        let c = chain(&m, first).unwrap();
        let end = c
            .iter()
            .map(|x| u32::from(x.seg) + 1 + u32::from(x.size))
            .max()
            .unwrap();
        assert_eq!(end, 0x1000 + 1 + 0x1000);
    }

    #[test]
    fn corrupt_chain_is_error_7() {
        let (mut m, first) = machine();
        m.write_linear(0x10000, b"X").unwrap();
        assert_eq!(chain(&m, first), Err(ERR_MCB_DESTROYED));
        assert_eq!(allocate(&mut m, first, 1, 1), Err((ERR_MCB_DESTROYED, 0)));
    }
}
