//! The LDT allocator: one segment per 128 KiB slot of linear space (see
//! the machine's module doc), huge blocks of consecutive selectors, and
//! aliases of other memory.

use super::{
    CODE_PAD, CpuMode, Descriptor, FIRST_LDT_INDEX, LDT_BASE, MachineError, PAGE, Permission,
    SLOT_BASE, SLOT_SIZE, SegKind, Uc, descriptor, tlb, uerr,
};
use crate::machine::Cpu;

/// Allow writes to a code segment's pages (for a data alias of it, and for
/// code written by the loader). Usable from inside a hook.
pub fn make_writable(uc: &mut Uc<'_>, sel: u16) -> Result<(), MachineError> {
    let d = uc
        .descriptor_of(sel)
        .ok_or_else(|| MachineError(format!("no selector {sel:04X}")))?;
    // Whole pages: a segment need not start or end on one (a selector a
    // program moved inside a block with SetSelectorBase).
    let start = u64::from(d.base) & !(PAGE - 1);
    let end = (u64::from(d.base) + u64::from(d.limit) + 1).next_multiple_of(PAGE);
    tlb::protect(uc, start, (end - start) as usize, Permission::ALL)
        .map_err(|e| uerr("unprotecting", e))
}

/// The linear slot of LDT index `index`: slots and LDT indices go in
/// lockstep, which is how [`Machine::locate`] finds a segment from an
/// address in its hole.
pub(super) fn slot_of(index: u16) -> u64 {
    SLOT_BASE + u64::from(index - FIRST_LDT_INDEX) * SLOT_SIZE
}

/// The LDT index of an allocated program selector, if `sel` is one.
pub(super) fn allocated_index(uc: &Uc<'_>, sel: u16) -> Option<u16> {
    let st = uc.get_data();
    let index = sel >> 3;
    let ok = st.mode == CpuMode::Protected
        && sel & 4 != 0
        && (FIRST_LDT_INDEX..st.next_ldt).contains(&index)
        && !st.free_ldt.contains(&index);
    ok.then_some(index)
}

/// Allocate a protected-mode segment of `size` bytes (1..=0x10000) in its
/// own slot, with `data` at offset 0 and zeros after it; the limit is
/// exactly `size - 1` (module doc, "Limits"). A freed LDT entry (and its
/// slot) is used again before a new one. Usable from inside a hook
/// (KERNEL's GlobalAlloc runs there).
pub fn alloc_seg(
    uc: &mut Uc<'_>,
    kind: SegKind,
    size: u32,
    data: &[u8],
) -> Result<u16, MachineError> {
    if uc.get_data().mode != CpuMode::Protected {
        return Err(MachineError(
            "segments are allocated only in protected mode".into(),
        ));
    }
    if size == 0 || size > 0x1_0000 || data.len() > size as usize {
        return Err(MachineError(format!(
            "bad segment size {size:#x} for {} data bytes",
            data.len()
        )));
    }
    let st = uc.get_data_mut();
    let index = match st.free_ldt.pop_first() {
        Some(i) => i,
        None if st.next_ldt < 8192 => {
            st.next_ldt += 1;
            st.next_ldt - 1
        }
        None => return Err(MachineError("the LDT is full".into())),
    };
    let res = map_segment(uc, index, kind, size, data);
    if res.is_err() {
        uc.get_data_mut().free_ldt.insert(index);
    }
    res
}

pub(super) fn map_segment(
    uc: &mut Uc<'_>,
    index: u16,
    kind: SegKind,
    size: u32,
    data: &[u8],
) -> Result<u16, MachineError> {
    let slot = slot_of(index);
    let end = slot + 0x1_0000;
    let base = end - u64::from(size);
    let map_start = base & !(PAGE - 1);
    let perms = match kind {
        SegKind::Code => Permission::READ | Permission::EXEC,
        SegKind::Data => Permission::READ | Permission::WRITE,
    };
    // Map writable first to fill it, then set the final protection.
    tlb::map(uc, map_start, (end - map_start) as usize, Permission::ALL)
        .map_err(|e| uerr("mapping a segment", e))?;
    uc.mem_write(base, data)
        .map_err(|e| uerr("filling a segment", e))?;
    tlb::protect(uc, map_start, (end - map_start) as usize, perms)
        .map_err(|e| uerr("protecting a segment", e))?;
    if kind == SegKind::Code {
        tlb::map(uc, end, CODE_PAD as usize, Permission::ALL)
            .map_err(|e| uerr("code padding", e))?;
        uc.mem_write(end, &vec![0xF4; CODE_PAD as usize])
            .map_err(|e| uerr("code padding", e))?;
        tlb::protect(uc, end, CODE_PAD as usize, Permission::EXEC)
            .map_err(|e| uerr("code padding", e))?;
    }
    let access = match kind {
        SegKind::Code => Descriptor::CODE_R3,
        SegKind::Data => Descriptor::DATA_R3,
    };
    let d = Descriptor {
        base: base as u32,
        limit: size - 1,
        access,
    };
    uc.mem_write(LDT_BASE + u64::from(index) * 8, &descriptor::encode(&d))
        .map_err(|e| uerr("writing the LDT", e))?;
    Ok(descriptor::ldt_selector(index))
}

/// Free a segment made by [`alloc_seg`]: its memory is unmapped, its LDT
/// entry cleared (so loading the selector faults, as on Windows), and both
/// are handed out again by a later allocation. The caller makes sure no
/// segment register still holds it.
pub fn free_seg(uc: &mut Uc<'_>, sel: u16) -> Result<(), MachineError> {
    let index = allocated_index(uc, sel)
        .ok_or_else(|| MachineError(format!("{sel:04X} is not an allocated segment")))?;
    let d = uc
        .descriptor_of(sel)
        .ok_or_else(|| MachineError(format!("{sel:04X} has no descriptor")))?;
    let end = slot_of(index) + 0x1_0000;
    let map_start = u64::from(d.base) & !(PAGE - 1);
    tlb::unmap(uc, map_start, (end - map_start) as usize)
        .map_err(|e| uerr("unmapping a segment", e))?;
    if d.is_code() {
        tlb::unmap(uc, end, CODE_PAD as usize).map_err(|e| uerr("unmapping code padding", e))?;
    }
    uc.mem_write(LDT_BASE + u64::from(index) * 8, &[0u8; 8])
        .map_err(|e| uerr("writing the LDT", e))?;
    uc.get_data_mut().free_ldt.insert(index);
    Ok(())
}

/// Give a data segment made by [`alloc_seg`] a new size (1..=0x10000),
/// keeping its selector and the first `min(old, new)` bytes; bytes past
/// the old size read as zero. The base moves so that the limit still ends
/// at the slot's 64 KiB mark (module doc, "Limits"). The caller reloads
/// any segment register that holds the selector.
pub fn resize_seg(uc: &mut Uc<'_>, sel: u16, size: u32) -> Result<(), MachineError> {
    let index = allocated_index(uc, sel)
        .ok_or_else(|| MachineError(format!("{sel:04X} is not an allocated segment")))?;
    let d = uc
        .descriptor_of(sel)
        .ok_or_else(|| MachineError(format!("{sel:04X} has no descriptor")))?;
    if d.is_code() {
        return Err(MachineError(format!("{sel:04X} is a code segment")));
    }
    if size == 0 || size > 0x1_0000 {
        return Err(MachineError(format!("bad segment size {size:#x}")));
    }
    let keep = (d.limit + 1).min(size) as usize;
    let mut data = vec![0u8; keep];
    uc.mem_read(u64::from(d.base), &mut data)
        .map_err(|e| uerr("reading a segment", e))?;
    let end = slot_of(index) + 0x1_0000;
    let old_start = u64::from(d.base) & !(PAGE - 1);
    tlb::unmap(uc, old_start, (end - old_start) as usize)
        .map_err(|e| uerr("unmapping a segment", e))?;
    let base = end - u64::from(size);
    let map_start = base & !(PAGE - 1);
    tlb::map(uc, map_start, (end - map_start) as usize, Permission::ALL)
        .map_err(|e| uerr("mapping a segment", e))?;
    uc.mem_write(base, &data)
        .map_err(|e| uerr("filling a segment", e))?;
    tlb::protect(
        uc,
        map_start,
        (end - map_start) as usize,
        Permission::READ | Permission::WRITE,
    )
    .map_err(|e| uerr("protecting a segment", e))?;
    let nd = Descriptor {
        base: base as u32,
        limit: size - 1,
        access: d.access,
    };
    uc.mem_write(LDT_BASE + u64::from(index) * 8, &descriptor::encode(&nd))
        .map_err(|e| uerr("writing the LDT", e))
}

/// Discard a data segment made by [`alloc_seg`] (a discarded moveable
/// block): its memory is unmapped and its descriptor cleared, so loading
/// the selector faults, but the selector stays allocated for
/// [`restore_seg`] or [`free_alias`].
pub fn discard_seg(uc: &mut Uc<'_>, sel: u16) -> Result<(), MachineError> {
    let index = allocated_index(uc, sel)
        .ok_or_else(|| MachineError(format!("{sel:04X} is not an allocated segment")))?;
    let d = uc
        .descriptor_of(sel)
        .ok_or_else(|| MachineError(format!("{sel:04X} has no descriptor")))?;
    if d.is_code() {
        return Err(MachineError(format!("{sel:04X} is a code segment")));
    }
    let end = slot_of(index) + 0x1_0000;
    let map_start = u64::from(d.base) & !(PAGE - 1);
    tlb::unmap(uc, map_start, (end - map_start) as usize)
        .map_err(|e| uerr("unmapping a segment", e))?;
    uc.mem_write(LDT_BASE + u64::from(index) * 8, &[0u8; 8])
        .map_err(|e| uerr("writing the LDT", e))
}

/// Give an allocated selector that names no memory (one from
/// [`alloc_alias`] with an empty descriptor, or a segment
/// [`discard_seg`] discarded) a zero-filled data segment of `size` bytes
/// (1..=0x10000) in its own slot, as [`alloc_seg`] would have.
pub fn restore_seg(uc: &mut Uc<'_>, sel: u16, size: u32) -> Result<(), MachineError> {
    let index = allocated_index(uc, sel)
        .ok_or_else(|| MachineError(format!("{sel:04X} is not an allocated selector")))?;
    if uc.descriptor_of(sel).is_some_and(|d| d.access & 0x80 != 0) {
        return Err(MachineError(format!("{sel:04X} still names memory")));
    }
    if size == 0 || size > 0x1_0000 {
        return Err(MachineError(format!("bad segment size {size:#x}")));
    }
    map_segment(uc, index, SegKind::Data, size, &[]).map(|_| ())
}

pub(super) fn mmr(selector: u16, base: u64, limit: u32, flags: u32) -> Vec<u8> {
    // uc_x86_mmr: u16 selector, padding to 8, u64 base, u32 limit, u32 flags.
    let mut v = Vec::with_capacity(24);
    v.extend_from_slice(&u64::from(selector).to_le_bytes());
    v.extend_from_slice(&base.to_le_bytes());
    v.extend_from_slice(&limit.to_le_bytes());
    v.extend_from_slice(&flags.to_le_bytes());
    v
}

// ---- Selectors that are not one segment in its own slot: huge blocks,
// aliases of other memory, the real-mode first megabyte. KERNEL's
// selector functions and GlobalAlloc of more than 64 KiB use these.

/// Take `count` LDT entries with consecutive indices (fresh ones at the
/// end of the table): the first index.
pub(super) fn take_ldt_run(uc: &mut Uc<'_>, count: u16) -> Result<u16, MachineError> {
    let st = uc.get_data_mut();
    if count == 0 || u32::from(st.next_ldt) + u32::from(count) > 8192 {
        return Err(MachineError("the LDT is full".into()));
    }
    let first = st.next_ldt;
    st.next_ldt += count;
    Ok(first)
}

/// Allocate a huge data block of `size` bytes (more than 64 KiB, at most
/// 16 MiB) as Windows 3.1 does: `ceil(size / 64 KiB)` consecutive LDT
/// selectors, 8 apart (`__AHINCR`), selector `i` based at byte `i * 64 KiB`
/// of one contiguous block and limited to the bytes left from there, so
/// `sel + i * 8 : off` reaches byte `i * 65536 + off`. The block ends on
/// a page boundary, so an access past its end faults. Zero-filled, with
/// `data` at its start. Returns the first selector.
pub fn alloc_huge(uc: &mut Uc<'_>, size: u32, data: &[u8]) -> Result<u16, MachineError> {
    if uc.get_data().mode != CpuMode::Protected {
        return Err(MachineError(
            "segments are allocated only in protected mode".into(),
        ));
    }
    if size <= 0x1_0000 || size > 16 << 20 || data.len() > size as usize {
        return Err(MachineError(format!("bad huge block size {size:#x}")));
    }
    let count = size.div_ceil(0x1_0000) as u16;
    let first = take_ldt_run(uc, count)?;
    map_huge(uc, first, count, size, data)
}

/// Map a huge block of `size` bytes (`count` selectors) at the LDT run
/// that starts at index `first`, already taken; on failure the run is
/// handed back.
pub(super) fn map_huge(
    uc: &mut Uc<'_>,
    first: u16,
    count: u16,
    size: u32,
    data: &[u8],
) -> Result<u16, MachineError> {
    // The slots of the run's indices span count * 128 KiB: the block sits
    // in their first count * 64 KiB, ending at a 64 KiB mark.
    let end = slot_of(first) + u64::from(count) * 0x1_0000;
    let base = end - u64::from(size);
    let map_start = base & !(PAGE - 1);
    let res = (|| {
        tlb::map(
            uc,
            map_start,
            (end - map_start) as usize,
            Permission::READ | Permission::WRITE,
        )
        .map_err(|e| uerr("mapping a huge block", e))?;
        uc.mem_write(base, data)
            .map_err(|e| uerr("filling a huge block", e))?;
        for i in 0..count {
            let off = u32::from(i) * 0x1_0000;
            let d = Descriptor {
                base: (base + u64::from(off)) as u32,
                limit: (size - off - 1).min(0xF_FFFF),
                access: Descriptor::DATA_R3,
            };
            uc.mem_write(LDT_BASE + u64::from(first + i) * 8, &descriptor::encode(&d))
                .map_err(|e| uerr("writing the LDT", e))?;
        }
        Ok(descriptor::ldt_selector(first))
    })();
    if res.is_err() {
        let st = uc.get_data_mut();
        for i in 0..count {
            st.free_ldt.insert(first + i);
        }
    }
    res
}

/// Free a huge block made by [`alloc_huge`] whose first selector is `sel`
/// and which has `count` selectors: its memory is unmapped and its LDT
/// entries cleared and handed out again.
pub fn free_huge(uc: &mut Uc<'_>, sel: u16, count: u16) -> Result<(), MachineError> {
    let first = allocated_index(uc, sel)
        .ok_or_else(|| MachineError(format!("{sel:04X} is not an allocated segment")))?;
    let d = uc
        .descriptor_of(sel)
        .ok_or_else(|| MachineError(format!("{sel:04X} has no descriptor")))?;
    let end = slot_of(first) + u64::from(count) * 0x1_0000;
    let map_start = u64::from(d.base) & !(PAGE - 1);
    tlb::unmap(uc, map_start, (end - map_start) as usize)
        .map_err(|e| uerr("unmapping a huge block", e))?;
    for i in 0..count {
        uc.mem_write(LDT_BASE + u64::from(first + i) * 8, &[0u8; 8])
            .map_err(|e| uerr("writing the LDT", e))?;
        uc.get_data_mut().free_ldt.insert(first + i);
    }
    Ok(())
}

/// Give a data block made by [`alloc_seg`] or [`alloc_huge`] (`count`
/// selectors from `sel`) a new `size` (1 byte to 16 MiB), small or huge,
/// holding `data` at its start and zeros after it. The block keeps its
/// first selector when the selectors it then needs after it are its own
/// or free, as Windows 3.1's GlobalReAlloc keeps a moveable block's handle;
/// otherwise it gets a new run. Returns the first selector, or an error
/// (and the block is gone) when the machine cannot make it.
pub fn remake_block(
    uc: &mut Uc<'_>,
    sel: u16,
    count: u16,
    size: u32,
    data: &[u8],
) -> Result<u16, MachineError> {
    let first = allocated_index(uc, sel)
        .ok_or_else(|| MachineError(format!("{sel:04X} is not an allocated segment")))?;
    if size == 0 || size > 16 << 20 || data.len() > size as usize {
        return Err(MachineError(format!("bad block size {size:#x}")));
    }
    if count > 1 {
        free_huge(uc, sel, count)?;
    } else {
        free_seg(uc, sel)?;
    }
    let need = size.div_ceil(0x1_0000).max(1) as u16;
    let st = uc.get_data_mut();
    let end = u32::from(first) + u32::from(need);
    let free_run =
        end <= 8192 && (first..first + need).all(|i| i >= st.next_ldt || st.free_ldt.contains(&i));
    if !free_run {
        return if need > 1 {
            alloc_huge(uc, size, data)
        } else {
            alloc_seg(uc, SegKind::Data, size, data)
        };
    }
    for i in first..first + need {
        st.free_ldt.remove(&i);
    }
    // Indices skipped between the old end of the LDT and the run are free.
    for i in st.next_ldt..first {
        st.free_ldt.insert(i);
    }
    st.next_ldt = st.next_ldt.max(first + need);
    if need > 1 {
        map_huge(uc, first, need, size, data)
    } else {
        let res = map_segment(uc, first, SegKind::Data, size, data);
        if res.is_err() {
            uc.get_data_mut().free_ldt.insert(first);
        }
        res
    }
}

/// A new selector for memory that already exists (or for none yet): its
/// descriptor says `d`. Nothing is mapped; the caller frees it with
/// [`free_alias`], never [`free_seg`].
pub fn alloc_alias(uc: &mut Uc<'_>, d: Descriptor) -> Result<u16, MachineError> {
    if uc.get_data().mode != CpuMode::Protected {
        return Err(MachineError("no selectors in real mode".into()));
    }
    let st = uc.get_data_mut();
    let index = match st.free_ldt.pop_first() {
        Some(i) => i,
        None if st.next_ldt < 8192 => {
            st.next_ldt += 1;
            st.next_ldt - 1
        }
        None => return Err(MachineError("the LDT is full".into())),
    };
    if let Err(e) = uc.mem_write(LDT_BASE + u64::from(index) * 8, &descriptor::encode(&d)) {
        uc.get_data_mut().free_ldt.insert(index);
        return Err(uerr("writing the LDT", e));
    }
    Ok(descriptor::ldt_selector(index))
}

/// Change the descriptor of an allocated selector (an alias's base or
/// limit, a code selector turned data). The caller reloads segment
/// registers that hold it.
pub fn set_descriptor(uc: &mut Uc<'_>, sel: u16, d: Descriptor) -> Result<(), MachineError> {
    let index = allocated_index(uc, sel)
        .ok_or_else(|| MachineError(format!("{sel:04X} is not an allocated selector")))?;
    uc.mem_write(LDT_BASE + u64::from(index) * 8, &descriptor::encode(&d))
        .map_err(|e| uerr("writing the LDT", e))
}

/// Free a selector made by [`alloc_alias`]: its descriptor is cleared; the
/// memory it named stays.
pub fn free_alias(uc: &mut Uc<'_>, sel: u16) -> Result<(), MachineError> {
    let index = allocated_index(uc, sel)
        .ok_or_else(|| MachineError(format!("{sel:04X} is not an allocated selector")))?;
    uc.mem_write(LDT_BASE + u64::from(index) * 8, &[0u8; 8])
        .map_err(|e| uerr("writing the LDT", e))?;
    uc.get_data_mut().free_ldt.insert(index);
    Ok(())
}

/// Map the first megabyte of linear memory (zeroed, read-write) in a
/// protected-mode machine, once: the real-mode memory that selectors of
/// fixed real-mode paragraphs (`__B800H`, `__0040H`, ...) name. True when
/// this call mapped it.
pub fn map_real_memory(uc: &mut Uc<'_>) -> Result<bool, MachineError> {
    if uc.get_data().mode != CpuMode::Protected {
        return Ok(false);
    }
    let mapped = uc
        .mem_regions()
        .map_err(|e| uerr("listing memory", e))?
        .iter()
        .any(|r| r.begin == 0);
    if mapped {
        return Ok(false);
    }
    tlb::map(uc, 0, 0x10_0000, Permission::READ | Permission::WRITE)
        .map_err(|e| uerr("mapping real-mode memory", e))?;
    Ok(true)
}

/// [`alloc_alias`] for `count` selectors with consecutive indices (8
/// apart), each with descriptor `d`: the first.
pub fn alloc_alias_run(uc: &mut Uc<'_>, count: u16, d: Descriptor) -> Result<u16, MachineError> {
    if uc.get_data().mode != CpuMode::Protected {
        return Err(MachineError("no selectors in real mode".into()));
    }
    let first = take_ldt_run(uc, count)?;
    for i in 0..count {
        uc.mem_write(LDT_BASE + u64::from(first + i) * 8, &descriptor::encode(&d))
            .map_err(|e| uerr("writing the LDT", e))?;
    }
    Ok(descriptor::ldt_selector(first))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Slots follow LDT indices one to one from the first index handed
    /// out, so an address in a slot's hole names its segment.
    #[test]
    fn slots_go_in_lockstep_with_ldt_indices() {
        assert_eq!(slot_of(FIRST_LDT_INDEX), SLOT_BASE);
        assert_eq!(slot_of(FIRST_LDT_INDEX + 1), SLOT_BASE + SLOT_SIZE);
        assert_eq!(
            slot_of(8191),
            SLOT_BASE + u64::from(8191 - FIRST_LDT_INDEX) * SLOT_SIZE
        );
        // The last slot ends below 4 GiB: every segment is reachable.
        assert!(slot_of(8191) + SLOT_SIZE <= 1 << 32);
    }

    /// unicorn's uc_x86_mmr: selector (padded to 8 bytes), base, limit,
    /// flags, little-endian.
    #[test]
    fn mmr_layout() {
        let v = mmr(0x1007, 0x0123_4567_89AB_CDEF, 0xFFFF, 0x00F3);
        assert_eq!(v.len(), 24);
        assert_eq!(&v[0..8], &[0x07, 0x10, 0, 0, 0, 0, 0, 0]);
        assert_eq!(&v[8..16], &0x0123_4567_89AB_CDEFu64.to_le_bytes());
        assert_eq!(&v[16..20], &[0xFF, 0xFF, 0, 0]);
        assert_eq!(&v[20..24], &[0xF3, 0, 0, 0]);
    }
}
