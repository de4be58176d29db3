//! The global heap: every block of memory the emulated Windows knows about
//! (module databases, NE segments, DGROUPs, PSPs, TDBs, the thunk segments
//! of the built-in modules, and what programs allocate), and KERNEL's
//! global-memory functions over it.
//!
//! Each block is one LDT segment of at most 64 KiB in its own slot (see
//! `crate::machine`, "Limits"). A fixed block's handle is its selector, a
//! moveable block's handle the selector minus 1 (win16.md, "The CPU the
//! programs expect").
//!
//! # Owners and types
//!
//! toolhelp.md lists the GLOBALENTRY fields and the wType values but does
//! not say who owns which block; this follows Windows 3.1 as far as it is
//! known (Windows 3.1 SDK, GLOBALENTRY; Wine's KERNEL for the TDB):
//!
//! | block | wType | hOwner |
//! | --- | --- | --- |
//! | module database | GT_MODULE | the module (hModule) |
//! | code segment (also the built-ins' thunk segments) | GT_CODE, wData = segment number | hModule |
//! | automatic data segment | GT_DGROUP | hModule |
//! | other data segment | GT_DATA | hModule |
//! | task database | GT_TASK | the task's hModule |
//! | PSP (PDB) | GT_UNKNOWN | the PSP itself, GF_PDB_OWNER |
//! | GlobalAlloc | GT_UNKNOWN ("private") | the current task's PSP, GF_PDB_OWNER; with GMEM_DDESHARE the task's hModule |
//! | GlobalDOSAlloc | GT_UNKNOWN | as GlobalAlloc's without GMEM_DDESHARE |
//! | LoadResource, AllocResource | GT_RESOURCE, wData = the GD_* type | the resource's hModule |
//!
//! The PSP's owner and the "private" type of allocated blocks are the
//! emulator's reading of what Windows 3.1 reported (HeapWalk's "Private"
//! and CodeView's "PDB" owner); no spec states them.
//!
//! # Limits
//!
//! A program must never make the host allocate without bound, so:
//! - one selector reaches at most 64 KiB ([`MAX_BLOCK`]); a larger block
//!   (a *huge* block, up to [`MAX_HUGE_BLOCK`]) is built as Windows 3.1
//!   builds it, from consecutive selectors 8 apart (`__AHINCR`), each
//!   reaching the next 64 KiB of one contiguous block
//!   (`crate::machine::alloc_huge`); its handle is its first selector's
//!   (KB Q79194). GlobalReAlloc remakes a huge block (or one that becomes
//!   huge or small) at its first selector when the selectors it then needs
//!   after that one are its own or free, so a moveable block keeps its
//!   handle and far pointers into it stay valid, as when Windows moves a
//!   block and changes only its descriptors; only when another block holds
//!   one of them does it move to a new run under a new handle (which
//!   GlobalReAlloc returns). Each tile's limit reaches the block's end
//!   (at most 1 MiB on), so the first selector covers the whole block;
//!   GlobalHandle and GlobalSize know a huge block by its first selector
//!   (or handle) only;
//! - all blocks together stay under [`ARENA_LIMIT`] (16 MiB, a well-equipped
//!   machine of 1992); a request past it fails with 0, as Windows fails
//!   when memory runs out;
//! - a fixed block of 0 bytes is refused; a moveable one is born
//!   discarded (below).
//!
//! # Discarded blocks
//!
//! A discarded moveable block keeps its handle and loses its memory: its
//! selector stays allocated with an empty descriptor (loading it faults),
//! GlobalLock answers NULL, GlobalSize 0, GlobalFlags has GMEM_DISCARDED,
//! and GlobalReAlloc with a size gives it memory again under the same
//! handle (Windows 3.1 SDK, GlobalReAlloc and GlobalDiscard). Blocks are
//! discarded by GlobalAlloc(GMEM_MOVEABLE, 0) (born discarded),
//! GlobalReAlloc(h, 0, GMEM_MOVEABLE) (GlobalDiscard; only an unlocked
//! moveable discardable block), and GlobalCompact when less than it asks
//! for is free (every unlocked discardable block, after its task's
//! GlobalNotify procedure agreed for a GMEM_NOTIFY block). Memory never
//! runs short otherwise, so GlobalAlloc never discards. GlobalFirst and
//! GlobalNext do not show discarded blocks (they have no arena).
//!
//! Sizes are rounded up to the global heap's 32-byte granularity (win16.md,
//! "The CPU the programs expect"), and GlobalSize reports the rounded size
//! as Windows does.
//!
//! # Free memory
//!
//! KRNL386 kept the memory a block gave back as a free arena in the heap's
//! chain (owner 0), merged with free neighbours, until an allocation took
//! it again; TOOLHELP listed those arenas as GT_FREE blocks (Windows 3.1
//! SDK, GlobalFirst: GLOBAL_FREE walks the free blocks; GLOBALINFO's
//! wcItemsFree counts them). The arena does the same: the memory of a
//! block that is freed, discarded, moved or made smaller is a free range
//! ([`GlobalArena::free_blocks`]), and a block made there takes it back.
//! Each selector has its own slot of linear space, so a freed slot's
//! memory stays free until its LDT entry (and with it the slot) is used
//! again. The chain of arenas, sentinels and free arenas included, is
//! KERNEL's ([`items`]); TOOLHELP's GlobalFirst/GlobalNext walk it
//! (`crate::win16::toolhelp_global`) and the Burgermaster shows it.
//!
//! # DOS allocations
//!
//! GlobalDOSAlloc (Windows 3.1 SDK) makes a fixed block below 1 MiB and
//! returns both ways to reach it: DX = its paragraph, the real-mode segment
//! DOS and real-mode code would use, and AX = its selector. This emulator
//! has no real-mode view of a Win16 task's memory (win16.md: Win16 programs
//! run in protected mode only, and every block lies in its own slot far
//! above 1 MiB, see `crate::machine`), so no block's linear address is
//! below 1 MiB and `linear >> 4` would name nothing. The paragraph is
//! therefore a bookkeeping fiction, kept consistent:
//! - it is where the block would lie in conventional memory: paragraphs
//!   [`DOS_FIRST`] (1000h, above 64 KiB left to DOS itself) up to
//!   [`DOS_END`] (A000h, the 640 KiB line), handed out first fit, so two
//!   live DOS blocks never overlap and GlobalDOSAlloc fails, as it does on
//!   Windows, once the 576 KiB are used up;
//! - nothing is mapped there: the bytes are reachable only through the
//!   selector, and a program that hands the paragraph to real-mode code
//!   (a DPMI real-mode call, INT 31h) stops at that unimplemented
//!   interrupt rather than reading other memory;
//! - GLOBALENTRY shows the block at its true linear address.

use super::api::{Api, Arg};
use super::kernel::burgermaster::GA_SENTINEL;
use crate::machine::{Cpu, R, SegKind, Stop, Uc};
use crate::win16::Env;

/// wType values (toolhelp.md, "Structures and constants").
pub mod gt {
    pub const UNKNOWN: u16 = 0;
    pub const DGROUP: u16 = 1;
    pub const DATA: u16 = 2;
    pub const CODE: u16 = 3;
    pub const TASK: u16 = 4;
    pub const RESOURCE: u16 = 5;
    pub const MODULE: u16 = 6;
    pub const FREE: u16 = 7;
    pub const INTERNAL: u16 = 8;
    pub const SENTINEL: u16 = 9;
    pub const BURGERMASTER: u16 = 10;
}

/// GLOBALENTRY.wFlags: the block belongs to a task's PDB (Windows 3.1 SDK,
/// GLOBALENTRY).
pub const GF_PDB_OWNER: u16 = 0x0100;

/// GlobalAlloc / GlobalReAlloc / GlobalFlags flags (Windows 3.1 SDK).
pub mod gmem {
    pub const FIXED: u16 = 0x0000;
    pub const MOVEABLE: u16 = 0x0002;
    pub const NOCOMPACT: u16 = 0x0010;
    pub const NODISCARD: u16 = 0x0020;
    pub const ZEROINIT: u16 = 0x0040;
    pub const MODIFY: u16 = 0x0080;
    pub const DISCARDABLE: u16 = 0x0100;
    pub const NOT_BANKED: u16 = 0x1000;
    pub const DDESHARE: u16 = 0x2000;
    pub const NOTIFY: u16 = 0x4000;
    /// GlobalFlags: the block was discarded.
    pub const DISCARDED: u16 = 0x4000;
    /// GlobalFlags: the lock count's byte.
    pub const LOCKCOUNT: u16 = 0x00FF;
}

/// The largest block one selector reaches: 64 KiB.
pub const MAX_BLOCK: u32 = 0x1_0000;
/// The largest huge block: 16 MiB less 64 KiB, Windows 3.1's bound in
/// enhanced mode.
pub const MAX_HUGE_BLOCK: u32 = 0xFF_0000;
/// All blocks together.
pub const ARENA_LIMIT: u32 = 16 << 20;
/// The global heap's allocation granularity (win16.md).
pub const GRANULARITY: u32 = 32;

/// One block of the global heap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GlobalBlock {
    /// The handle programs use (the selector, or selector - 1 if moveable).
    pub handle: u16,
    pub selector: u16,
    /// Linear address of offset 0.
    pub address: u32,
    /// Size in bytes (the segment limit + 1).
    pub size: u32,
    /// hOwner (see the module doc).
    pub owner: u16,
    /// The owner is a PDB (GF_PDB_OWNER).
    pub pdb_owner: bool,
    /// wType, one of [`gt`].
    pub kind: u16,
    /// The 1-based NE segment number, for module segments.
    pub segment: Option<u16>,
    /// Lock count (GlobalLock, LockSegment), at most 0xFF as GlobalFlags
    /// reports it in one byte.
    pub lock: u16,
    /// The GMEM_* flags that matter later (MOVEABLE, DISCARDABLE,
    /// DDESHARE).
    pub flags: u16,
    /// Made by GlobalAlloc: the program may reallocate and free it. Blocks
    /// the loader made stay (GlobalFree and GlobalReAlloc refuse them).
    pub dynamic: bool,
    /// For a GT_RESOURCE block: which resource it holds.
    pub resource: Option<ResourceTag>,
    /// For a block made by GlobalDOSAlloc: its paragraph ("DOS
    /// allocations" in the module doc).
    pub dos_segment: Option<u16>,
    /// A discarded moveable block ("Discarded blocks" in the module doc):
    /// its handle stays, it has no memory (size and address 0).
    pub discarded: bool,
}

/// What a GT_RESOURCE block holds (resource.rs, LoadResource).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResourceTag {
    /// The resource's HRSRC in its module (the block's owner).
    pub hrsrc: u16,
    /// GLOBALENTRY.wData: the GD_* type, which is the RT_* number for the
    /// predefined types up to GD_MAX_RESOURCE (15) and GD_USERDEFINED (0)
    /// for any other (Windows 3.1 SDK, GLOBALENTRY).
    pub gd_type: u16,
    /// How many LoadResource calls hold it; FreeResource frees the block
    /// when the last lets go.
    pub usage: u16,
    /// Filled by LoadResource (and found again by a later LoadResource of
    /// the same resource), not merely allocated by AllocResource.
    pub loaded: bool,
}

impl GlobalBlock {
    /// A moveable block (handle != selector).
    pub fn moveable(&self) -> bool {
        self.flags & gmem::MOVEABLE != 0
    }
    /// A discardable block: on the LRU list of GlobalFirst(GLOBAL_LRU).
    pub fn discardable(&self) -> bool {
        self.flags & gmem::DISCARDABLE != 0
    }
}

/// Does handle-or-selector `h` name the block with selector `sel`? Both a
/// block's handle (selector - 1) and its selector do; the RPL bits are
/// ignored, the table bit must say LDT.
fn names(h: u16, sel: u16) -> bool {
    h & 4 != 0 && (h & !3) == (sel & !3)
}

/// The global heap's blocks, in linear-address order (the order GlobalFirst
/// and GlobalNext walk, as Windows walks its arena).
#[derive(Debug, Default, Clone)]
pub struct GlobalArena {
    blocks: Vec<GlobalBlock>,
    /// Memory blocks gave back, as KRNL386 kept it: free arenas
    /// (`(address, size)`, lowest first, adjacent ones merged). See
    /// "Free memory" in the module doc.
    free: Vec<(u32, u32)>,
}

impl GlobalArena {
    /// Every block, lowest address first.
    pub fn blocks(&self) -> &[GlobalBlock] {
        &self.blocks
    }

    /// Add a block (replacing any block with the same selector). Memory
    /// the replaced block held and the new one does not becomes free; the
    /// new block's memory is no longer free.
    pub fn insert(&mut self, b: GlobalBlock) {
        if let Some(i) = self.blocks.iter().position(|x| x.selector == b.selector) {
            let old = self.blocks.remove(i);
            self.give_back(old.address, old.size);
        }
        self.take(b.address, b.size);
        let at = self.blocks.partition_point(|x| x.address < b.address);
        self.blocks.insert(at, b);
    }

    /// Forget the block with this selector; its memory becomes free.
    pub fn remove(&mut self, sel: u16) -> Option<GlobalBlock> {
        let i = self.blocks.iter().position(|b| b.selector == sel)?;
        let b = self.blocks.remove(i);
        self.give_back(b.address, b.size);
        Some(b)
    }

    /// The free arenas, `(address, size)`, lowest first.
    pub fn free_blocks(&self) -> &[(u32, u32)] {
        &self.free
    }

    /// `[address, address + size)` is free now (merged with free
    /// neighbours).
    fn give_back(&mut self, address: u32, size: u32) {
        if size == 0 {
            return;
        }
        self.take(address, size);
        let (mut start, mut end) = (address, address.saturating_add(size));
        self.free.retain(|&(a, n)| {
            let e = a.saturating_add(n);
            if e == start || a == end {
                start = start.min(a);
                end = end.max(e);
                false
            } else {
                true
            }
        });
        let at = self.free.partition_point(|&(a, _)| a < start);
        self.free.insert(at, (start, end - start));
    }

    /// `[address, address + size)` is in use: no free arena covers it.
    fn take(&mut self, address: u32, size: u32) {
        if size == 0 {
            return;
        }
        let end = address.saturating_add(size);
        let mut out = Vec::with_capacity(self.free.len() + 1);
        for &(a, n) in &self.free {
            let e = a.saturating_add(n);
            if e <= address || a >= end {
                out.push((a, n));
                continue;
            }
            if a < address {
                out.push((a, address - a));
            }
            if e > end {
                out.push((end, e - end));
            }
        }
        self.free = out;
    }

    /// The block a handle or selector names.
    pub fn find(&self, h: u16) -> Option<&GlobalBlock> {
        self.blocks.iter().find(|b| names(h, b.selector))
    }

    /// The block a handle or selector names, to change it.
    pub fn find_mut(&mut self, h: u16) -> Option<&mut GlobalBlock> {
        self.blocks.iter_mut().find(|b| names(h, b.selector))
    }

    /// After the machine resized or moved the segment `sel` (a local heap
    /// grew), take its block's size and address from its descriptor.
    pub fn refresh<C: Cpu + ?Sized>(&mut self, cpu: &C, sel: u16) {
        let Some(d) = cpu.descriptor_of(sel) else {
            return;
        };
        let Some(mut b) = self.find(sel).filter(|b| b.selector == sel).cloned() else {
            return;
        };
        if b.size > MAX_BLOCK || (b.address == d.base && b.size == d.limit + 1) {
            return;
        }
        b.address = d.base;
        b.size = d.limit + 1;
        self.insert(b);
    }

    /// The block at this linear address.
    pub fn at_address(&self, address: u32) -> Option<&GlobalBlock> {
        self.blocks.iter().find(|b| b.address == address)
    }

    /// The segment `segment` (1-based) of the module `hmodule`.
    pub fn module_segment(&self, hmodule: u16, segment: u16) -> Option<&GlobalBlock> {
        self.blocks.iter().find(|b| {
            b.owner == hmodule && !b.pdb_owner && b.segment == Some(segment) && b.kind != gt::MODULE
        })
    }

    /// Bytes in all blocks.
    pub fn used(&self) -> u32 {
        self.blocks.iter().map(|b| b.size).sum()
    }

    /// Bytes that may still be allocated.
    pub fn free(&self) -> u32 {
        ARENA_LIMIT.saturating_sub(self.used())
    }
}

/// A block for a segment that already exists in the machine: its address
/// and size come from the descriptor. `None` if `sel` has none.
pub fn block_for<C: Cpu + ?Sized>(
    cpu: &C,
    sel: u16,
    moveable: bool,
    owner: u16,
    pdb_owner: bool,
    kind: u16,
    segment: Option<u16>,
) -> Option<GlobalBlock> {
    let d = cpu.descriptor_of(sel)?;
    Some(GlobalBlock {
        handle: if moveable { sel - 1 } else { sel },
        selector: sel,
        address: d.base,
        size: d.limit + 1,
        owner,
        pdb_owner,
        kind,
        segment,
        lock: 0,
        flags: if moveable {
            gmem::MOVEABLE
        } else {
            gmem::FIXED
        },
        dynamic: false,
        resource: None,
        dos_segment: None,
        discarded: false,
    })
}

/// The functions this file implements (KERNEL's global heap).
pub static APIS: &[Api] = &[
    Api::new("KERNEL", 15, "GLOBALALLOC", &[Arg::W, Arg::L], global_alloc),
    Api::new(
        "KERNEL",
        16,
        "GLOBALREALLOC",
        &[Arg::W, Arg::L, Arg::W],
        global_realloc,
    ),
    Api::new("KERNEL", 17, "GLOBALFREE", &[Arg::W], global_free),
    Api::new("KERNEL", 18, "GLOBALLOCK", &[Arg::W], global_lock),
    Api::new("KERNEL", 19, "GLOBALUNLOCK", &[Arg::W], global_unlock),
    Api::new("KERNEL", 20, "GLOBALSIZE", &[Arg::W], global_size),
    Api::new("KERNEL", 21, "GLOBALHANDLE", &[Arg::W], global_handle),
    Api::new("KERNEL", 22, "GLOBALFLAGS", &[Arg::W], global_flags),
    Api::new("KERNEL", 23, "LOCKSEGMENT", &[Arg::W], lock_segment),
    Api::new("KERNEL", 24, "UNLOCKSEGMENT", &[Arg::W], unlock_segment),
    Api::new("KERNEL", 25, "GLOBALCOMPACT", &[Arg::L], global_compact),
    Api::new("KERNEL", 184, "GLOBALDOSALLOC", &[Arg::L], global_dos_alloc),
    Api::new("KERNEL", 185, "GLOBALDOSFREE", &[Arg::W], global_dos_free),
];

/// A request's size in the heap's granularity, or `None` when it is 0 or
/// larger than one block may be.
fn rounded(bytes: u32) -> Option<u32> {
    if bytes == 0 || bytes > MAX_BLOCK {
        return None;
    }
    Some(bytes.div_ceil(GRANULARITY) * GRANULARITY)
}

/// Who owns a new block and what it is: GLOBALENTRY's hOwner, its
/// GF_PDB_OWNER flag and wType (module doc, "Owners and types").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Owner {
    pub owner: u16,
    pub pdb_owner: bool,
    pub kind: u16,
}

/// The owner of a block GlobalAlloc makes with `flags` for the current
/// task: its PSP, or with GMEM_DDESHARE its module (module doc table).
pub fn task_owner(env: &Env, uc: &Uc<'_>, flags: u16) -> Owner {
    let (owner, pdb_owner) = match env.win16.task(uc.get_data().current_task) {
        Some(t) if flags & gmem::DDESHARE != 0 => (t.hmodule, false),
        Some(t) => (t.psp, true),
        None => (0, false),
    };
    Owner {
        owner,
        pdb_owner,
        kind: gt::UNKNOWN,
    }
}

/// A GlobalAlloc request's size in the heap's granularity, huge blocks
/// included; `None` when it is 0 or past [`MAX_HUGE_BLOCK`].
fn rounded_any(bytes: u32) -> Option<u32> {
    if bytes == 0 || bytes > MAX_HUGE_BLOCK {
        return None;
    }
    Some(bytes.div_ceil(GRANULARITY) * GRANULARITY)
}

/// The number of selectors a block of `size` bytes has.
pub fn selector_count(size: u32) -> u16 {
    size.div_ceil(MAX_BLOCK).max(1) as u16
}

/// Make a block of `bytes` (rounded up; the module doc's "Limits" apply)
/// that starts with `data` (at most `bytes` of it are used) and is zero
/// after it, owned as `owner` says and moveable if `flags` says so. The
/// program may reallocate and free it. Returns its handle, or 0 when the
/// request is refused or the machine cannot make the segment. At most one
/// selector's 64 KiB (LoadResource, GlobalDOSAlloc); GlobalAlloc's huge
/// blocks come from [`alloc_block_any`].
pub fn alloc_block(
    env: &mut Env,
    uc: &mut Uc<'_>,
    flags: u16,
    bytes: u32,
    data: &[u8],
    owner: Owner,
) -> u16 {
    if bytes > MAX_BLOCK {
        return 0;
    }
    alloc_block_any(env, uc, flags, bytes, data, owner)
}

/// [`alloc_block`] for GlobalAlloc, which also makes huge blocks (module
/// doc, "Limits").
pub fn alloc_block_any(
    env: &mut Env,
    uc: &mut Uc<'_>,
    flags: u16,
    bytes: u32,
    data: &[u8],
    owner: Owner,
) -> u16 {
    if bytes == 0 && flags & gmem::MOVEABLE != 0 {
        return alloc_discarded(env, uc, flags, owner);
    }
    let Some(size) = rounded_any(bytes) else {
        return 0;
    };
    if size > env.win16.global.free() {
        return 0;
    }
    let data = &data[..data.len().min(bytes as usize)];
    let made = if size > MAX_BLOCK {
        crate::machine::alloc_huge(uc, size, data)
    } else {
        crate::machine::alloc_seg(uc, SegKind::Data, size, data)
    };
    let Ok(sel) = made else {
        return 0;
    };
    let moveable = flags & gmem::MOVEABLE != 0;
    let Some(mut b) = block_for(
        &*uc,
        sel,
        moveable,
        owner.owner,
        owner.pdb_owner,
        owner.kind,
        None,
    ) else {
        let _ = crate::machine::free_seg(uc, sel);
        return 0;
    };
    b.size = size;
    b.flags = flags & KEPT_FLAGS;
    b.dynamic = true;
    let handle = b.handle;
    env.win16.global.insert(b);
    handle
}

/// The GMEM_* flags a block keeps.
const KEPT_FLAGS: u16 = gmem::MOVEABLE | gmem::DISCARDABLE | gmem::DDESHARE | gmem::NOTIFY;

/// GlobalAlloc(GMEM_MOVEABLE, 0): a handle whose block is already
/// discarded ("Discarded blocks" in the module doc): a selector with an
/// empty descriptor and no memory.
fn alloc_discarded(env: &mut Env, uc: &mut Uc<'_>, flags: u16, owner: Owner) -> u16 {
    let none = crate::walk::Descriptor {
        base: 0,
        limit: 0,
        access: 0,
    };
    let Ok(sel) = crate::machine::alloc_alias(uc, none) else {
        return 0;
    };
    env.win16.global.insert(GlobalBlock {
        handle: sel - 1,
        selector: sel,
        address: 0,
        size: 0,
        owner: owner.owner,
        pdb_owner: owner.pdb_owner,
        kind: owner.kind,
        segment: None,
        lock: 0,
        flags: flags & KEPT_FLAGS,
        dynamic: true,
        resource: None,
        dos_segment: None,
        discarded: true,
    });
    sel - 1
}

/// Discard the moveable block `h` names: its memory goes, its handle
/// stays ("Discarded blocks" in the module doc). Not while it is the
/// stack; data segment registers holding it are cleared, as for
/// [`free_block`]. TRUE when discarded (or already).
pub fn discard_block(env: &mut Env, uc: &mut Uc<'_>, h: u16) -> bool {
    let Some(b) = env.win16.global.find(h).filter(|b| b.dynamic).cloned() else {
        return false;
    };
    if b.discarded {
        return true;
    }
    if !b.moveable() || b.size > MAX_BLOCK || names(uc.reg(R::SS), b.selector) {
        return false;
    }
    for r in DATA_SEGS {
        if names(uc.reg(r), b.selector) {
            let _ = uc.set_reg(r, 0);
        }
    }
    if crate::machine::discard_seg(uc, b.selector).is_err() {
        return false;
    }
    env.win16.local_heaps.heaps.remove(&b.selector);
    let mut nb = b;
    nb.discarded = true;
    nb.size = 0;
    nb.address = 0;
    env.win16.global.insert(nb);
    true
}

/// Allocate a block for the current task (KERNEL.15 GlobalAlloc's work):
/// the new handle, or 0 when the request is refused (module doc,
/// "Limits") or the machine cannot make the segment.
pub fn alloc(env: &mut Env, uc: &mut Uc<'_>, flags: u16, bytes: u32) -> u16 {
    let owner = task_owner(env, uc, flags);
    alloc_block_any(env, uc, flags, bytes, &[], owner)
}

/// Segment registers that may hold a data selector.
const DATA_SEGS: [R; 4] = [R::DS, R::ES, R::FS, R::GS];

/// After a block moved, load every segment register that holds its
/// selector again, so the CPU's cached base follows (Windows did the same
/// for DS and ES when it moved a block under them).
pub fn reload(uc: &mut Uc<'_>, sel: u16) {
    for r in DATA_SEGS.into_iter().chain([R::SS]) {
        let v = uc.reg(r);
        if v != 0 && names(v, sel) {
            let _ = uc.set_reg(r, v);
        }
    }
}

/// KERNEL.15 GlobalAlloc(wFlags, dwBytes): a handle, or 0.
pub fn global_alloc(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let flags = a.first().copied().unwrap_or(0) as u16;
    let bytes = a.get(1).copied().unwrap_or(0);
    Ok(u32::from(alloc(env, uc, flags, bytes)))
}

/// KERNEL.16 GlobalReAlloc(hMem, dwBytes, wFlags): the handle (unchanged:
/// in protected mode a block keeps its selector when it moves), or 0; a
/// refused request leaves the block as it was.
///
/// - GMEM_MODIFY changes GMEM_DISCARDABLE of a moveable block, and with
///   GMEM_MOVEABLE makes a fixed block moveable (its handle becomes the
///   selector minus 1).
/// - 0 bytes with GMEM_MOVEABLE discards an unlocked moveable discardable
///   block ("Discarded blocks"); a discarded block given a size gets
///   memory again.
/// - A new size follows GlobalAlloc's limits.
/// - Only blocks made by GlobalAlloc and a module's data segments (its
///   DGROUP, which a program may enlarge itself) can change; code,
///   module and task blocks cannot.
/// - A GlobalDOSAlloc block keeps its paragraph, so it grows only into
///   free conventional memory ("DOS allocations").
pub fn global_realloc(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = a.first().copied().unwrap_or(0) as u16;
    let bytes = a.get(1).copied().unwrap_or(0);
    let flags = a.get(2).copied().unwrap_or(0) as u16;
    let arena = &mut env.win16.global;
    let Some(b) = arena
        .find(h)
        .filter(|b| b.dynamic || matches!(b.kind, gt::DGROUP | gt::DATA))
        .cloned()
    else {
        return Ok(0);
    };
    if flags & gmem::MODIFY != 0 {
        let Some(m) = arena.find_mut(h) else {
            return Ok(0);
        };
        if !m.moveable() {
            // GMEM_MOVEABLE makes a fixed block moveable: its handle
            // becomes the selector minus 1; GMEM_DISCARDABLE alone is
            // ignored for a fixed block.
            if flags & gmem::MOVEABLE == 0 || m.dos_segment.is_some() {
                return Ok(u32::from(m.handle));
            }
            m.flags |= gmem::MOVEABLE;
            m.handle = m.selector - 1;
        }
        m.flags = (m.flags & !gmem::DISCARDABLE) | (flags & gmem::DISCARDABLE);
        return Ok(u32::from(m.handle));
    }
    if bytes == 0 {
        // GMEM_MOVEABLE with 0 bytes discards an unlocked moveable,
        // discardable block; anything else fails.
        let ok = flags & gmem::MOVEABLE != 0
            && b.moveable()
            && (b.discardable() || b.discarded)
            && b.lock == 0
            && discard_block(env, uc, h);
        return Ok(if ok { u32::from(b.handle) } else { 0 });
    }
    let Some(size) = rounded_any(bytes) else {
        return Ok(0);
    };
    if b.discarded {
        // A discarded block gets memory again under its handle.
        if size > MAX_BLOCK
            || size > arena.free()
            || crate::machine::restore_seg(uc, b.selector, size).is_err()
        {
            return Ok(0);
        }
        let mut nb = b;
        nb.discarded = false;
        nb.size = size;
        nb.address = uc.descriptor_of(nb.selector).map_or(0, |d| d.base);
        let handle = nb.handle;
        arena.insert(nb);
        return Ok(u32::from(handle));
    }
    if size > b.size && size - b.size > arena.free() {
        return Ok(0);
    }
    if size > MAX_BLOCK || b.size > MAX_BLOCK {
        if b.dos_segment.is_some() {
            return Ok(0);
        }
        return Ok(u32::from(realloc_huge(env, uc, &b, size)));
    }
    if let Some(p) = b.dos_segment {
        // A DOS block grows only into free conventional memory after it
        // (module doc, "DOS allocations": DOS blocks never overlap).
        let end = u32::from(p) + size / 16;
        let clash = arena.blocks().iter().any(|o| {
            o.selector != b.selector
                && o.dos_segment.is_some_and(|q| {
                    u32::from(q) < end && u32::from(q) + o.size / 16 > u32::from(p)
                })
        });
        if clash || end > u32::from(DOS_END) {
            return Ok(0);
        }
    }
    if size != b.size {
        if crate::machine::resize_seg(uc, b.selector, size).is_err() {
            return Ok(0);
        }
        reload(uc, b.selector);
    }
    let address = uc.descriptor_of(b.selector).map_or(b.address, |d| d.base);
    let mut nb = b;
    nb.size = size;
    nb.address = address;
    let handle = nb.handle;
    arena.insert(nb);
    Ok(u32::from(handle))
}

/// GlobalReAlloc of a block that is or becomes huge: the block is made
/// again at `size` bytes with its first bytes (as many as fit), flags,
/// owner and lock count. Its selectors stay where the ones it needs after
/// its first are its own or free, so a moveable block keeps its handle and
/// every far pointer into it stays valid, as in Windows 3.1 where moving a
/// block changes only its descriptors' bases; otherwise it gets a new run
/// (and a new handle). The handle, or 0 (the block unchanged).
fn realloc_huge(env: &mut Env, uc: &mut Uc<'_>, b: &GlobalBlock, size: u32) -> u16 {
    let keep = b.size.min(size);
    let Some(data) = super::kernel::memory::read_huge(uc, u32::from(b.selector) << 16, keep) else {
        return 0;
    };
    let count = selector_count(b.size);
    let tiles = |v: u16| (0..count).any(|i| names(v, b.selector + i * 8));
    if tiles(uc.reg(R::SS)) {
        return 0;
    }
    let Ok(sel) = crate::machine::remake_block(uc, b.selector, count, size, &data) else {
        // The old block is gone and no new one could be made.
        env.win16.global.remove(b.selector);
        return 0;
    };
    env.win16.global.remove(b.selector);
    let mut nb = b.clone();
    nb.selector = sel;
    nb.handle = if nb.moveable() { sel - 1 } else { sel };
    nb.size = size;
    nb.address = uc.descriptor_of(sel).map_or(0, |d| d.base);
    let handle = nb.handle;
    if sel != b.selector {
        // A local heap in it moves with it.
        if let Some(heap) = env.win16.local_heaps.heaps.remove(&b.selector) {
            env.win16.local_heaps.heaps.insert(sel, heap);
        }
    }
    env.win16.global.insert(nb);
    for r in DATA_SEGS {
        let v = uc.reg(r);
        if (0..selector_count(size)).any(|i| names(v, sel + i * 8)) {
            reload(uc, v);
        } else if tiles(v) {
            let _ = uc.set_reg(r, 0);
        }
    }
    handle
}

/// Free the block that `h` names, if the program may free it (made by
/// [`alloc_block`]) and it is not the stack. A data segment register that
/// holds its selector is cleared (loading it again would fault). TRUE if
/// it was freed.
pub fn free_block(env: &mut Env, uc: &mut Uc<'_>, h: u16) -> bool {
    let Some(b) = env.win16.global.find(h).filter(|b| b.dynamic).cloned() else {
        return false;
    };
    let count = selector_count(b.size);
    let tiles = |v: u16| (0..count).any(|i| names(v, b.selector + i * 8));
    if tiles(uc.reg(R::SS)) {
        return false;
    }
    for r in DATA_SEGS {
        if tiles(uc.reg(r)) {
            let _ = uc.set_reg(r, 0);
        }
    }
    let freed = if b.discarded {
        crate::machine::free_alias(uc, b.selector)
    } else if count > 1 {
        crate::machine::free_huge(uc, b.selector, count)
    } else {
        crate::machine::free_seg(uc, b.selector)
    };
    if freed.is_err() {
        return false;
    }
    env.win16.global.remove(b.selector);
    // A local heap LocalInit made in the block goes with it.
    env.win16.local_heaps.heaps.remove(&b.selector);
    true
}

/// KERNEL.17 GlobalFree(hMem): 0 when freed, else hMem. Only blocks made by
/// GlobalAlloc (and the other functions that use [`alloc_block`]) are
/// freed, and not while they are the stack ([`free_block`]).
pub fn global_free(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = a.first().copied().unwrap_or(0) as u16;
    Ok(if free_block(env, uc, h) {
        0
    } else {
        u32::from(h)
    })
}

/// KERNEL.18 GlobalLock(hMem): the far pointer selector:0000, or NULL. A
/// moveable block's lock count goes up (to at most 0xFF); a fixed block
/// has none.
pub fn global_lock(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = a.first().copied().unwrap_or(0) as u16;
    let Some(b) = env.win16.global.find_mut(h).filter(|b| !b.discarded) else {
        return Ok(0);
    };
    if b.moveable() {
        b.lock = (b.lock + 1).min(0xFF);
    }
    Ok(u32::from(b.selector) << 16)
}

/// KERNEL.19 GlobalUnlock(hMem): a moveable block's lock count goes down;
/// TRUE while it stays locked, FALSE once unlocked (and for fixed blocks
/// and bad handles).
pub fn global_unlock(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = a.first().copied().unwrap_or(0) as u16;
    let Some(b) = env.win16.global.find_mut(h) else {
        return Ok(0);
    };
    if !b.moveable() {
        return Ok(0);
    }
    b.lock = b.lock.saturating_sub(1);
    Ok(u32::from(b.lock != 0))
}

/// KERNEL.20 GlobalSize(hMem): the block's size in bytes, 0 if invalid.
pub fn global_size(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = a.first().copied().unwrap_or(0) as u16;
    Ok(env.win16.global.find(h).map_or(0, |b| b.size))
}

/// KERNEL.21 GlobalHandle(wSel): handle in the low word, selector in the
/// high word; 0 if the selector names no block.
pub fn global_handle(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = a.first().copied().unwrap_or(0) as u16;
    Ok(env
        .win16
        .global
        .find(h)
        .map_or(0, |b| u32::from(b.selector) << 16 | u32::from(b.handle)))
}

/// KERNEL.22 GlobalFlags(hMem): GMEM_DISCARDABLE and GMEM_DDESHARE in the
/// high byte, the lock count in the low byte; 0 if invalid.
pub fn global_flags(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = a.first().copied().unwrap_or(0) as u16;
    Ok(env.win16.global.find(h).map_or(0, |b| {
        let discarded = if b.discarded { gmem::DISCARDED } else { 0 };
        u32::from(
            (b.flags & (gmem::DISCARDABLE | gmem::DDESHARE))
                | discarded
                | (b.lock & gmem::LOCKCOUNT),
        )
    }))
}

/// The first paragraph GlobalDOSAlloc hands out (module doc, "DOS
/// allocations").
pub const DOS_FIRST: u16 = 0x1000;
/// The paragraph GlobalDOSAlloc's blocks stay below: the 640 KiB line.
pub const DOS_END: u16 = 0xA000;

/// The lowest paragraph at which `paras` paragraphs fit between
/// [`DOS_FIRST`] and [`DOS_END`] beside the DOS blocks that exist (first
/// fit), or `None`.
fn dos_paragraphs(arena: &GlobalArena, paras: u32) -> Option<u16> {
    let mut used: Vec<(u32, u32)> = arena
        .blocks()
        .iter()
        .filter_map(|b| b.dos_segment.map(|p| (u32::from(p), b.size / 16)))
        .collect();
    used.sort_unstable();
    let mut at = u32::from(DOS_FIRST);
    for (start, len) in used {
        if start >= at + paras {
            break;
        }
        at = at.max(start + len);
    }
    (at + paras <= u32::from(DOS_END)).then_some(at as u16)
}

/// KERNEL.184 GlobalDOSAlloc(dwBytes): a fixed block for the current task
/// that Windows places below 1 MiB; DX = its paragraph (real-mode segment),
/// AX = its selector; 0 when refused (GlobalAlloc's limits, or no room
/// below [`DOS_END`]). See the module doc, "DOS allocations", for what the
/// paragraph means here.
pub fn global_dos_alloc(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let bytes = a.first().copied().unwrap_or(0);
    let Some(size) = rounded(bytes) else {
        return Ok(0);
    };
    let Some(para) = dos_paragraphs(&env.win16.global, size / 16) else {
        return Ok(0);
    };
    let owner = task_owner(env, uc, gmem::FIXED);
    let h = alloc_block(env, uc, gmem::FIXED, bytes, &[], owner);
    let Some(b) = env.win16.global.find_mut(h) else {
        return Ok(0);
    };
    b.dos_segment = Some(para);
    Ok(u32::from(para) << 16 | u32::from(b.selector))
}

/// KERNEL.185 GlobalDOSFree(wSelector): free a block GlobalDOSAlloc made;
/// 0 when freed, else wSelector (also for any other block).
pub fn global_dos_free(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let sel = a.first().copied().unwrap_or(0) as u16;
    let is_dos = env
        .win16
        .global
        .find(sel)
        .is_some_and(|b| b.dos_segment.is_some());
    Ok(if is_dos && free_block(env, uc, sel) {
        0
    } else {
        u32::from(sel)
    })
}

/// The segment LockSegment/UnlockSegment mean: -1 is the current DS.
fn segment_arg(uc: &Uc<'_>, a: &[u32]) -> u16 {
    match a.first().copied().unwrap_or(0) as u16 {
        0xFFFF => uc.reg(R::DS),
        s => s,
    }
}

/// KERNEL.23 LockSegment(wSegment): lock a segment (-1: DS) as GlobalLock
/// does; its handle, or 0.
pub fn lock_segment(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let s = segment_arg(uc, a);
    let Some(b) = env.win16.global.find_mut(s) else {
        return Ok(0);
    };
    if b.moveable() {
        b.lock = (b.lock + 1).min(0xFF);
    }
    Ok(u32::from(b.handle))
}

/// KERNEL.24 UnlockSegment(wSegment): unlock a segment (-1: DS); returns
/// nothing (AX = 0).
pub fn unlock_segment(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let s = segment_arg(uc, a);
    if let Some(b) = env.win16.global.find_mut(s) {
        if b.moveable() {
            b.lock = b.lock.saturating_sub(1);
        }
    }
    Ok(0)
}

/// KERNEL.25 GlobalCompact(dwMinFree): the largest block GlobalAlloc would
/// now grant: what is left of [`ARENA_LIMIT`], at most
/// [`MAX_HUGE_BLOCK`]. Blocks never need moving here (each has its own
/// slot); when less than dwMinFree is free, every unlocked discardable
/// block is discarded first (so GlobalCompact(-1) discards them all, as
/// the SDK says), a GMEM_NOTIFY block only if its task's GlobalNotify
/// procedure agrees ([`notify_discard`]).
pub fn global_compact(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let min = a.first().copied().unwrap_or(0);
    if env.win16.global.free() < min {
        let victims: Vec<GlobalBlock> = env
            .win16
            .global
            .blocks()
            .iter()
            .filter(|b| b.dynamic && !b.discarded && b.discardable() && b.lock == 0)
            .cloned()
            .collect();
        for b in victims {
            if notify_discard(env, uc, &b)? {
                discard_block(env, uc, b.handle);
            }
        }
    }
    Ok(env.win16.global.free().min(MAX_HUGE_BLOCK))
}

/// Before a GMEM_NOTIFY block is discarded, Windows calls the procedure
/// its owner's task gave GlobalNotify with the block's handle (Windows 3.1
/// SDK, GlobalNotify): nonzero lets the block go. TRUE when it may be
/// discarded (also when there is no procedure).
fn notify_discard(env: &mut Env, uc: &mut Uc<'_>, b: &GlobalBlock) -> Result<bool, Stop> {
    if b.flags & gmem::NOTIFY == 0 {
        return Ok(true);
    }
    let task = env
        .win16
        .tasks
        .iter()
        .find(|t| t.psp == b.owner || t.hmodule == b.owner)
        .map_or(uc.get_data().current_task, |t| t.htask);
    let Some(&proc) = env.win16.kernel.memory.global_notify.get(&task) else {
        return Ok(true);
    };
    if proc == 0 {
        return Ok(true);
    }
    let Some(kernel_cs) = env.win16.module_by_name("KERNEL").map(|k| k.segments[0]) else {
        return Ok(true);
    };
    let ds = uc.reg(R::DS);
    let r = super::callback::call_far(
        env,
        uc,
        kernel_cs,
        ((proc >> 16) as u16, proc as u16),
        ds,
        &[],
        &[super::callback::CallArg::W(b.handle)],
    )?;
    Ok(r.value & 0xFFFF != 0)
}

/// A list of KERNEL's global heap, as KRNL386 chained its arenas: the
/// whole chain from sentinel to sentinel, the LRU list of discardable
/// blocks, the free arenas (module doc, "Free memory"). TOOLHELP's
/// GlobalFirst/GlobalNext walk these (GLOBAL_ALL, GLOBAL_LRU,
/// GLOBAL_FREE: `toolhelp_global`), the Burgermaster shows the first
/// (`kernel::burgermaster`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Walk {
    All,
    Lru,
    Free,
}

/// An item with no block behind it: a free arena or a sentinel.
fn pseudo(address: u32, size: u32, owner: u16, kind: u16) -> GlobalBlock {
    GlobalBlock {
        handle: 0,
        selector: 0,
        address,
        size,
        owner,
        pdb_owner: false,
        kind,
        segment: None,
        lock: 0,
        flags: gmem::FIXED,
        dynamic: false,
        resource: None,
        dos_segment: None,
        discarded: false,
    }
}

/// The items of a list, in order: for [`Walk::All`] a sentinel (owner
/// GA_SENTINEL, no size) at the lowest item's address, then every block
/// with memory and every free arena by address, then a sentinel at the
/// end of the highest (`toolhelp_global`'s module doc, "What the walks
/// list"). Discarded blocks have no arena and are in no list.
pub fn items(env: &Env, walk: Walk) -> Vec<GlobalBlock> {
    let arena = &env.win16.global;
    let live = arena.blocks().iter().filter(|b| !b.discarded);
    let free = arena
        .free_blocks()
        .iter()
        .map(|&(a, n)| pseudo(a, n, 0, gt::FREE));
    match walk {
        Walk::Lru => live.filter(|b| b.discardable()).cloned().collect(),
        Walk::Free => free.collect(),
        Walk::All => {
            let mut v: Vec<GlobalBlock> = live.cloned().chain(free).collect();
            v.sort_by_key(|b| b.address);
            let first = v.first().map_or(0, |b| b.address);
            let last = v.iter().map(|b| b.address + b.size).max().unwrap_or(0);
            v.insert(0, pseudo(first, 0, GA_SENTINEL, gt::SENTINEL));
            v.push(pseudo(last, 0, GA_SENTINEL, gt::SENTINEL));
            v
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(sel: u16, address: u32, size: u32, flags: u16) -> GlobalBlock {
        GlobalBlock {
            handle: if flags & gmem::MOVEABLE != 0 {
                sel - 1
            } else {
                sel
            },
            selector: sel,
            address,
            size,
            owner: 0x1234,
            pdb_owner: false,
            kind: gt::DATA,
            segment: None,
            lock: 0,
            flags,
            dynamic: true,
            resource: None,
            dos_segment: None,
            discarded: false,
        }
    }

    #[test]
    fn arena_orders_by_address_and_finds_by_handle_or_selector() {
        let mut a = GlobalArena::default();
        a.insert(block(0x100F, 0x0200_0000, 0x40, gmem::MOVEABLE));
        a.insert(block(0x1007, 0x0100_0000, 0x20, 0));
        a.insert(block(0x1017, 0x0300_0000, 0x60, gmem::DISCARDABLE));
        let order: Vec<u16> = a.blocks().iter().map(|b| b.selector).collect();
        assert_eq!(order, [0x1007, 0x100F, 0x1017]);
        assert_eq!(a.find(0x100E).map(|b| b.selector), Some(0x100F));
        assert_eq!(a.find(0x100F).map(|b| b.selector), Some(0x100F));
        assert_eq!(a.find(0x100C).map(|b| b.selector), Some(0x100F));
        assert!(a.find(0x1008 & !4).is_none(), "a GDT selector is no block");
        assert!(a.find(0).is_none());
        assert_eq!(a.used(), 0xC0);
        assert_eq!(a.free(), ARENA_LIMIT - 0xC0);
        assert!(a.free_blocks().is_empty());
        assert_eq!(a.remove(0x100F).map(|b| b.size), Some(0x40));
        assert!(a.find(0x100E).is_none());
        // Its memory is a free arena now.
        assert_eq!(a.free_blocks(), [(0x0200_0000, 0x40)]);
    }

    #[test]
    fn freed_memory_is_kept_as_free_arenas_until_taken_again() {
        let mut a = GlobalArena::default();
        // Two blocks side by side, freed one after the other: one free
        // arena (merged), as KRNL386 merged free neighbours.
        a.insert(block(0x1007, 0x0100_0000, 0x20, 0));
        a.insert(block(0x100F, 0x0100_0020, 0x40, 0));
        a.insert(block(0x1017, 0x0200_0000, 0x60, 0));
        a.remove(0x1007);
        assert_eq!(a.free_blocks(), [(0x0100_0000, 0x20)]);
        a.remove(0x100F);
        assert_eq!(a.free_blocks(), [(0x0100_0000, 0x60)]);
        // A block made in the middle of it splits it.
        a.insert(block(0x101F, 0x0100_0020, 0x20, 0));
        assert_eq!(a.free_blocks(), [(0x0100_0000, 0x20), (0x0100_0040, 0x20)]);
        // A block that shrinks (its base moves up to the slot's end)
        // leaves the bytes below it free; one that grows takes them.
        a.insert(block(0x1017, 0x0200_0040, 0x20, 0));
        assert_eq!(a.free_blocks()[2], (0x0200_0000, 0x40));
        a.insert(block(0x1017, 0x0200_0000, 0x60, 0));
        assert_eq!(a.free_blocks().len(), 2);
        // Free memory is not used memory.
        assert_eq!(a.used(), 0x80);
    }

    #[test]
    fn sizes_are_rounded_and_bounded() {
        assert_eq!(rounded(0), None);
        assert_eq!(rounded(1), Some(32));
        assert_eq!(rounded(32), Some(32));
        assert_eq!(rounded(33), Some(64));
        assert_eq!(rounded(0xFFFF), Some(0x1_0000));
        assert_eq!(rounded(0x1_0000), Some(0x1_0000));
        assert_eq!(rounded(0x1_0001), None);
        assert_eq!(rounded(u32::MAX), None);
    }

    fn machine() -> (crate::machine::Machine, Env) {
        (
            crate::machine::Machine::new_protected().unwrap(),
            Env::new(false),
        )
    }

    #[test]
    fn huge_blocks_are_consecutive_selectors_over_one_block() {
        let (mut m, mut env) = machine();
        assert_eq!(rounded_any(0x1_0001), Some(0x1_0020));
        assert_eq!(rounded_any(MAX_HUGE_BLOCK + 1), None);
        let h =
            global_alloc(&mut env, &mut m, &[u32::from(gmem::MOVEABLE), 0x2_8000]).unwrap() as u16;
        assert_ne!(h, 0);
        let p = global_lock(&mut env, &mut m, &[u32::from(h)]).unwrap();
        let sel = (p >> 16) as u16;
        assert_eq!(sel, h + 1);
        assert_eq!(
            global_size(&mut env, &mut m, &[u32::from(h)]).unwrap(),
            0x2_8000
        );
        // Three selectors, __AHINCR (8) apart, each 64 KiB further on.
        let base = m.descriptor_of(sel).unwrap().base;
        for i in 0..3u16 {
            let d = m.descriptor_of(sel + 8 * i).unwrap();
            assert_eq!(d.base, base + u32::from(i) * 0x1_0000);
        }
        assert_eq!(m.descriptor_of(sel + 16).unwrap().limit, 0x7FFF);
        // The last byte of the first 64 KiB and the first of the next are
        // neighbours.
        m.write_seg(sel, 0xFFFF, &[0x11]).unwrap();
        m.write_seg(sel + 8, 0, &[0x22]).unwrap();
        let mut two = [0u8; 2];
        m.mem_read(u64::from(base) + 0xFFFF, &mut two).unwrap();
        assert_eq!(two, [0x11, 0x22]);
        // The end of the block is the end of memory there.
        assert!(m.write_seg(sel + 16, 0x8000, &[0]).is_err());
        // Growing keeps the bytes and, the next selector being free, the
        // handle.
        let h2 = global_realloc(&mut env, &mut m, &[u32::from(h), 0x3_0000, 0]).unwrap() as u16;
        assert_eq!(h2, h);
        let mut b = [0u8; 1];
        m.read_seg(sel + 8, 0, &mut b).unwrap();
        assert_eq!(b, [0x22]);
        assert_eq!(m.descriptor_of(sel + 16).unwrap().limit, 0xFFFF);
        // With a block right after its selectors, it grows into a new run
        // under a new handle, its bytes kept, the old selectors gone.
        let next = global_alloc(&mut env, &mut m, &[0, 16]).unwrap() as u16;
        assert_eq!(next, sel + 24);
        let h2 = global_realloc(&mut env, &mut m, &[u32::from(h), 0x5_0000, 0]).unwrap() as u16;
        assert_ne!(h2, 0);
        assert_ne!(h2, h);
        let s2 = h2 | 1;
        m.read_seg(s2 + 8, 0, &mut b).unwrap();
        assert_eq!(b, [0x22]);
        assert!(env.win16.global.find(h).is_none());
        assert!(m.descriptor_of(sel).is_none());
        // Shrinking keeps the handle and frees the selectors past the end.
        let h3 = global_realloc(&mut env, &mut m, &[u32::from(h2), 0x2_0000, 0]).unwrap() as u16;
        assert_eq!(h3, h2);
        assert!(m.descriptor_of(s2 + 16).is_none());
        assert_eq!(
            global_size(&mut env, &mut m, &[u32::from(h2)]).unwrap(),
            0x2_0000
        );
        let h2 = global_realloc(&mut env, &mut m, &[u32::from(h2), 0x3_0000, 0]).unwrap() as u16;
        assert_eq!(h2, h3);
        let used = env.win16.global.used();
        assert_eq!(global_free(&mut env, &mut m, &[u32::from(h2)]).unwrap(), 0);
        assert_eq!(env.win16.global.used(), used - 0x3_0000);
        assert!(m.descriptor_of(s2 + 16).is_none());
    }

    #[test]
    fn discarded_blocks_keep_their_handle_and_leave_the_arena_walk() {
        let (mut m, mut env) = machine();
        let mv = u32::from(gmem::MOVEABLE);
        // Born discarded: a handle (selector - 1) whose selector names no
        // memory, loading it would fault.
        let z = global_alloc(&mut env, &mut m, &[mv, 0]).unwrap() as u16;
        assert_eq!(z & 7, 6);
        assert!(m.descriptor_of(z + 1).is_none());
        assert_eq!(
            global_flags(&mut env, &mut m, &[u32::from(z)]).unwrap(),
            0x4000
        );
        let walked = |env: &Env| {
            items(env, Walk::All)
                .iter()
                .filter(|b| b.kind != gt::SENTINEL && b.kind != gt::FREE)
                .map(|b| b.handle)
                .collect::<Vec<u16>>()
        };
        assert!(walked(&env).is_empty(), "no arena entry");
        // A fixed block of 0 bytes is refused.
        assert_eq!(global_alloc(&mut env, &mut m, &[0, 0]).unwrap(), 0);
        // Memory again under the same handle, then discarded once more
        // (GMEM_MODIFY made it discardable first).
        assert_eq!(
            global_realloc(&mut env, &mut m, &[u32::from(z), 40, mv]).unwrap(),
            u32::from(z)
        );
        assert_eq!(global_size(&mut env, &mut m, &[u32::from(z)]).unwrap(), 64);
        m.write_seg(z + 1, 63, &[1]).unwrap();
        assert_eq!(walked(&env), [z]);
        assert_eq!(
            global_realloc(&mut env, &mut m, &[u32::from(z), 0, mv]).unwrap(),
            0,
            "not discardable"
        );
        let modify = u32::from(gmem::MODIFY | gmem::DISCARDABLE);
        assert_eq!(
            global_realloc(&mut env, &mut m, &[u32::from(z), 0, modify]).unwrap(),
            u32::from(z)
        );
        let used = env.win16.global.used();
        assert_eq!(
            global_realloc(&mut env, &mut m, &[u32::from(z), 0, mv]).unwrap(),
            u32::from(z)
        );
        assert_eq!(env.win16.global.used(), used - 64);
        assert!(m.descriptor_of(z + 1).is_none());
        // Its 64 bytes are a free arena; the block left the walk.
        assert_eq!(
            env.win16
                .global
                .free_blocks()
                .iter()
                .map(|f| f.1)
                .collect::<Vec<_>>(),
            [64]
        );
        assert!(walked(&env).is_empty());
        assert_eq!(
            global_flags(&mut env, &mut m, &[u32::from(z)]).unwrap(),
            0x4100
        );
        // GlobalFree frees the handle itself.
        assert_eq!(global_free(&mut env, &mut m, &[u32::from(z)]).unwrap(), 0);
        assert!(env.win16.global.find(z).is_none());
    }

    /// GlobalDOSAlloc: (paragraph, selector).
    fn dos_alloc(m: &mut crate::machine::Machine, env: &mut Env, bytes: u32) -> (u16, u16) {
        let r = global_dos_alloc(env, m, &[bytes]).unwrap();
        ((r >> 16) as u16, r as u16)
    }

    #[test]
    fn dos_blocks_get_paragraphs_below_640k_first_fit() {
        let (mut m, mut env) = machine();
        let (p1, s1) = dos_alloc(&mut m, &mut env, 100);
        assert_eq!(p1, DOS_FIRST);
        assert_eq!(s1 & 7, 7, "a fixed block: handle = selector");
        let b = env.win16.global.find(s1).cloned().unwrap();
        assert_eq!((b.handle, b.size, b.moveable()), (s1, 128, false));
        assert_eq!(b.dos_segment, Some(p1));
        assert!(b.dynamic);
        // The selector reaches the block.
        m.write_seg(s1, 127, &[0xAB]).unwrap();
        let (p2, s2) = dos_alloc(&mut m, &mut env, 0x1000);
        assert_eq!(p2, DOS_FIRST + 8);
        assert_ne!(s2, s1);
        // Freed: its paragraphs are handed out again, first fit.
        assert_eq!(
            global_dos_free(&mut env, &mut m, &[u32::from(s1)]).unwrap(),
            0
        );
        assert!(env.win16.global.find(s1).is_none());
        let (p3, _) = dos_alloc(&mut m, &mut env, 64);
        assert_eq!(p3, DOS_FIRST);
        let (p4, _) = dos_alloc(&mut m, &mut env, 128);
        assert_eq!(
            p4,
            DOS_FIRST + 8 + 0x100,
            "the 4-paragraph hole is too small"
        );
        let (p5, _) = dos_alloc(&mut m, &mut env, 64);
        assert_eq!(p5, DOS_FIRST + 4);
        // GlobalReAlloc keeps the paragraph: a DOS block shrinks, and
        // grows only into free paragraphs. p5 (64 bytes at +4) may take
        // the 4 paragraphs up to p2's block, no more.
        let s5 = env
            .win16
            .global
            .blocks()
            .iter()
            .find(|b| b.dos_segment == Some(p5))
            .unwrap()
            .selector;
        let re = |env: &mut Env, m: &mut crate::machine::Machine, bytes: u32| {
            global_realloc(env, m, &[u32::from(s5), bytes, 0]).unwrap()
        };
        assert_eq!(re(&mut env, &mut m, 65), 0);
        assert_eq!(re(&mut env, &mut m, 32), u32::from(s5));
        assert_eq!(re(&mut env, &mut m, 64), u32::from(s5));
        let b5 = env.win16.global.find(s5).unwrap();
        assert_eq!((b5.size, b5.dos_segment), (64, Some(p5)));
        // GlobalFree frees a DOS block and its paragraphs too.
        assert_eq!(global_free(&mut env, &mut m, &[u32::from(s2)]).unwrap(), 0);
        let (p6, _) = dos_alloc(&mut m, &mut env, 0x1000);
        assert_eq!(p6, p2);
    }

    #[test]
    fn dos_allocations_are_bounded() {
        let (mut m, mut env) = machine();
        assert_eq!(dos_alloc(&mut m, &mut env, 0), (0, 0));
        assert_eq!(dos_alloc(&mut m, &mut env, 0x1_0001), (0, 0));
        // 576 KiB between paragraphs 1000h and A000h: nine 64 KiB blocks.
        for i in 0..9u16 {
            let (p, s) = dos_alloc(&mut m, &mut env, 0x1_0000);
            assert_eq!(p, DOS_FIRST + i * 0x1000);
            assert_ne!(s, 0);
        }
        let used = env.win16.global.used();
        assert_eq!(dos_alloc(&mut m, &mut env, 16), (0, 0));
        assert_eq!(env.win16.global.used(), used, "a refused block is not made");
        // Ordinary blocks do not count against conventional memory.
        assert_ne!(alloc(&mut env, &mut m, gmem::FIXED, 0x1_0000), 0);
    }

    #[test]
    fn global_dos_free_frees_only_dos_blocks() {
        let (mut m, mut env) = machine();
        let g = alloc(&mut env, &mut m, gmem::FIXED, 32);
        assert_eq!(
            global_dos_free(&mut env, &mut m, &[u32::from(g)]).unwrap(),
            u32::from(g)
        );
        assert!(env.win16.global.find(g).is_some());
        assert_eq!(
            global_dos_free(&mut env, &mut m, &[0x1234]).unwrap(),
            0x1234
        );
        // Not while it is the stack.
        let (_, s) = dos_alloc(&mut m, &mut env, 64);
        m.set_reg(R::SS, s).unwrap();
        assert_eq!(
            global_dos_free(&mut env, &mut m, &[u32::from(s)]).unwrap(),
            u32::from(s)
        );
        assert!(env.win16.global.find(s).is_some());
    }
}
