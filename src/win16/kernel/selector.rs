//! KERNEL's selector functions and its absolute entries.
//!
//! # Absolute entries
//!
//! KERNEL exports a few entries that are not functions but values, which
//! the loader writes into an importer's code like any import (Windows 3.1
//! SDK, "Memory management", huge data and selectors of fixed memory):
//!
//! | entry | value |
//! | --- | --- |
//! | `__AHSHIFT` (113) | 3: a huge block's selectors are `1 << 3` apart |
//! | `__AHINCR` (114) | 8: what to add to a selector to reach the next 64 KiB |
//! | `__WINFLAGS` (178) | GetWinFlags' flags (system.rs) |
//! | `__0000H` (183), `__0040H` (193), `__A000H` (174), `__B000H` (181), `__B800H` (182), `__C000H` (195), `__D000H` (179), `__E000H` (190), `__F000H` (194) | a data selector whose base is that real-mode paragraph's linear address (`__0040H`: 400h, the BIOS data area) and whose limit is 64 KiB - 1 |
//! | `__ROMBIOS` (173) | the same for the system ROM at F000:0000 |
//!
//! The first use of a real-mode selector maps the first megabyte of linear
//! memory into the machine, with what a program may read there: the BIOS
//! data area (equipment word with the coprocessor bit, 640 KiB, video mode
//! 3, 80 columns, 25 rows, an empty keyboard buffer), the ROM's date at
//! F000:FFF5 and the AT's model byte FCh at F000:FFFE. A program that
//! writes to B800:0 writes to that memory; nothing displays it.
//!
//! # Selector functions
//!
//! AllocSelector, AllocSelectorArray, AllocCStoDSAlias,
//! AllocDStoCSAlias/AllocAlias and PrestoChangoSelector make selectors
//! that name existing memory or none: *aliases*, which FreeSelector frees
//! without touching the memory. Get/SetSelectorBase, Get/SetSelectorLimit,
//! LongPtrAdd and SelectorAccessRights read and change descriptors. Only aliases may
//! be changed: the selectors of global memory blocks keep the descriptors
//! their blocks need (a change is refused with the function's failure
//! value).

use std::collections::BTreeSet;

use crate::machine::{Cpu, R, Stop, Uc};
use crate::walk::Descriptor;
use crate::win16::Env;
use crate::win16::Win16;
use crate::win16::api::{Api, Arg};

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new(
        "KERNEL",
        170,
        "ALLOCCSTODSALIAS",
        &[Arg::W],
        alloc_cs_to_ds_alias,
    ),
    Api::new(
        "KERNEL",
        171,
        "ALLOCDSTOCSALIAS",
        &[Arg::W],
        alloc_ds_to_cs_alias,
    ),
    Api::new("KERNEL", 172, "ALLOCALIAS", &[Arg::W], alloc_cs_to_ds_alias),
    Api::new("KERNEL", 175, "ALLOCSELECTOR", &[Arg::W], alloc_selector),
    Api::new("KERNEL", 176, "FREESELECTOR", &[Arg::W], free_selector),
    Api::new(
        "KERNEL",
        177,
        "PRESTOCHANGOSELECTOR",
        &[Arg::W, Arg::W],
        presto_chango_selector,
    ),
    Api::new("KERNEL", 180, "LONGPTRADD", &[Arg::L, Arg::L], long_ptr_add),
    Api::new(
        "KERNEL",
        186,
        "GETSELECTORBASE",
        &[Arg::W],
        get_selector_base,
    ),
    Api::new(
        "KERNEL",
        187,
        "SETSELECTORBASE",
        &[Arg::W, Arg::L],
        set_selector_base,
    ),
    Api::new(
        "KERNEL",
        188,
        "GETSELECTORLIMIT",
        &[Arg::W],
        get_selector_limit,
    ),
    Api::new(
        "KERNEL",
        189,
        "SETSELECTORLIMIT",
        &[Arg::W, Arg::L],
        set_selector_limit,
    ),
    Api::new(
        "KERNEL",
        196,
        "SELECTORACCESSRIGHTS",
        &[Arg::W, Arg::W, Arg::W],
        selector_access_rights,
    ),
    Api::new(
        "KERNEL",
        206,
        "ALLOCSELECTORARRAY",
        &[Arg::W],
        alloc_selector_array,
    ),
];

/// `__AHSHIFT`.
pub const AHSHIFT: u16 = 3;
/// `__AHINCR`.
pub const AHINCR: u16 = 1 << AHSHIFT;

/// The real-mode paragraph of each absolute selector entry, by ordinal.
pub const REAL_MODE_ENTRIES: &[(u16, u16)] = &[
    (173, 0xF000), // __ROMBIOS
    (174, 0xA000), // __A000H
    (179, 0xD000), // __D000H
    (181, 0xB000), // __B000H
    (182, 0xB800), // __B800H
    (183, 0x0000), // __0000H
    (190, 0xE000), // __E000H
    (193, 0x0040), // __0040H
    (194, 0xF000), // __F000H
    (195, 0xC000), // __C000H
];

/// Selectors made here, and the real-mode memory's.
#[derive(Clone, Debug, Default)]
pub struct Selectors {
    /// Aliases (module notes): FreeSelector frees these.
    pub aliases: BTreeSet<u16>,
    /// The selector of each real-mode paragraph, made on first use.
    pub real: Vec<(u16, u16)>,
}

/// The value of KERNEL's absolute entry `ordinal` (module notes), making
/// its selector when it is one; None for an ordinary function.
pub fn absolute_export(uc: &mut Uc<'_>, w: &mut Win16, module: &str, ordinal: u16) -> Option<u16> {
    if let Some(v) = super::system::constant_export(module, ordinal) {
        return Some(v);
    }
    if !module.eq_ignore_ascii_case("KERNEL") {
        return None;
    }
    let &(_, para) = REAL_MODE_ENTRIES.iter().find(|(o, _)| *o == ordinal)?;
    real_mode_selector(uc, w, para)
}

/// A data selector for the real-mode paragraph `para` (64 KiB from
/// `para * 16`), mapping the first megabyte first (module notes).
pub fn real_mode_selector(uc: &mut Uc<'_>, w: &mut Win16, para: u16) -> Option<u16> {
    if let Some(&(_, s)) = w.kernel.selectors.real.iter().find(|(p, _)| *p == para) {
        return Some(s);
    }
    if crate::machine::map_real_memory(uc).ok()? {
        fill_real_memory(uc);
    }
    let sel = crate::machine::alloc_alias(
        uc,
        Descriptor {
            base: u32::from(para) << 4,
            limit: 0xFFFF,
            access: Descriptor::DATA_R3,
        },
    )
    .ok()?;
    w.kernel.selectors.real.push((para, sel));
    Some(sel)
}

/// What a program may read in the first megabyte (module notes).
fn fill_real_memory(uc: &mut Uc<'_>) {
    let bda: &[(u64, &[u8])] = &[
        // Equipment: coprocessor, 80x25 colour, no floppy bit.
        (0x410, &0x0023u16.to_le_bytes()),
        (0x413, &640u16.to_le_bytes()),
        // Keyboard buffer head and tail (empty), its start and end.
        (0x41A, &0x001Eu16.to_le_bytes()),
        (0x41C, &0x001Eu16.to_le_bytes()),
        (0x480, &0x001Eu16.to_le_bytes()),
        (0x482, &0x003Eu16.to_le_bytes()),
        (0x449, &[3]),
        (0x44A, &80u16.to_le_bytes()),
        (0x484, &[24]),
        (0xFFFF5, b"01/10/92"),
        (0xFFFFE, &[0xFC]),
    ];
    for (at, bytes) in bda {
        let _ = uc.mem_write(*at, bytes);
    }
    // The colour text screen: blanks, light grey on black.
    let blank: Vec<u8> = [0x20u8, 0x07].repeat(80 * 25);
    let _ = uc.mem_write(0xB8000, &blank);
}

/// Reload any data segment register holding `sel`, after its descriptor
/// changed.
fn reload(uc: &mut Uc<'_>, sel: u16) {
    for r in [R::DS, R::ES, R::FS, R::GS] {
        let v = uc.reg(r);
        if v != 0 && (v & !3) == (sel & !3) {
            let _ = uc.set_reg(r, v);
        }
    }
}

/// A new alias with descriptor `d`, or 0.
fn new_alias(env: &mut Env, uc: &mut Uc<'_>, d: Descriptor) -> u16 {
    match crate::machine::alloc_alias(uc, d) {
        Ok(s) => {
            env.win16.kernel.selectors.aliases.insert(s);
            s
        }
        Err(_) => 0,
    }
}

/// Code or data: the descriptor's type bit toggled the way
/// PrestoChangoSelector and the alias functions do.
fn as_kind(d: Descriptor, code: bool) -> Descriptor {
    Descriptor {
        access: if code {
            Descriptor::CODE_R3
        } else {
            Descriptor::DATA_R3
        },
        ..d
    }
}

/// An empty data descriptor: what a new uninitialized selector holds.
const EMPTY: Descriptor = Descriptor {
    base: 0,
    limit: 0,
    access: Descriptor::DATA_R3,
};

/// KERNEL.175 AllocSelector(uSelector): a new selector with the same base,
/// limit and type as uSelector, or an empty data selector for 0; 0 when
/// none is left or uSelector is invalid.
pub fn alloc_selector(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let sel = a[0] as u16;
    let d = if sel == 0 {
        EMPTY
    } else {
        match uc.descriptor_of(sel) {
            Some(d) => d,
            None => return Ok(0),
        }
    };
    Ok(u32::from(new_alias(env, uc, d)))
}

/// KERNEL.206 AllocSelectorArray(uSelectors): that many new empty data
/// selectors with consecutive indices (8 apart); the first, or 0.
pub fn alloc_selector_array(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let n = a[0] as u16;
    if n == 0 {
        return Ok(0);
    }
    let Ok(first) = crate::machine::alloc_alias_run(uc, n, EMPTY) else {
        return Ok(0);
    };
    for i in 0..n {
        env.win16
            .kernel
            .selectors
            .aliases
            .insert(first + i * AHINCR);
    }
    Ok(u32::from(first))
}

/// KERNEL.170 AllocCStoDSAlias(uSelector) and KERNEL.172 AllocAlias: a
/// data selector for the same memory as the code selector, which becomes
/// writable through it; 0 on failure.
pub fn alloc_cs_to_ds_alias(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let sel = a[0] as u16;
    let Some(d) = uc.descriptor_of(sel) else {
        return Ok(0);
    };
    if crate::machine::make_writable(uc, sel).is_err() {
        return Ok(0);
    }
    Ok(u32::from(new_alias(env, uc, as_kind(d, false))))
}

/// KERNEL.171 AllocDStoCSAlias(uSelector): a code selector for the same
/// memory as the data selector, which becomes executable; 0 on failure.
pub fn alloc_ds_to_cs_alias(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let sel = a[0] as u16;
    let Some(d) = uc.descriptor_of(sel) else {
        return Ok(0);
    };
    if crate::machine::make_writable(uc, sel).is_err() {
        return Ok(0);
    }
    Ok(u32::from(new_alias(env, uc, as_kind(d, true))))
}

/// KERNEL.176 FreeSelector(uSelector): 0 when freed, the selector when it
/// is not one the selector functions made.
pub fn free_selector(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let sel = a[0] as u16;
    let Some(&s) = env
        .win16
        .kernel
        .selectors
        .aliases
        .iter()
        .find(|&&s| (s & !3) == (sel & !3))
    else {
        return Ok(u32::from(sel));
    };
    for r in [R::DS, R::ES, R::FS, R::GS] {
        if uc.reg(r) & !3 == s & !3 {
            let _ = uc.set_reg(r, 0);
        }
    }
    if crate::machine::free_alias(uc, s).is_err() {
        return Ok(u32::from(sel));
    }
    env.win16.kernel.selectors.aliases.remove(&s);
    Ok(0)
}

/// Is `sel` an alias this file made (so its descriptor may change)?
fn is_alias(env: &Env, sel: u16) -> Option<u16> {
    env.win16
        .kernel
        .selectors
        .aliases
        .iter()
        .find(|&&s| (s & !3) == (sel & !3))
        .copied()
}

/// KERNEL.177 PrestoChangoSelector(uSourceSel, uDestSel): gives the
/// destination (an alias) the source's base and limit with the other type
/// (code becomes data, data code); uDestSel, or 0 on failure.
pub fn presto_chango_selector(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (src, dst) = (a[0] as u16, a[1] as u16);
    let (Some(d), Some(dst)) = (uc.descriptor_of(src), is_alias(env, dst)) else {
        return Ok(0);
    };
    if crate::machine::make_writable(uc, src).is_err() {
        return Ok(0);
    }
    let nd = as_kind(d, !d.is_code());
    if crate::machine::set_descriptor(uc, dst, nd).is_err() {
        return Ok(0);
    }
    reload(uc, dst);
    Ok(u32::from(a[1] as u16))
}

/// KERNEL.186 GetSelectorBase(uSelector): the linear base, 0 for an
/// invalid selector.
pub fn get_selector_base(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(uc.descriptor_of(a[0] as u16).map_or(0, |d| d.base))
}

/// KERNEL.187 SetSelectorBase(uSelector, dwBase): uSelector, or 0 when it
/// is not an alias (module notes). A base in the first megabyte maps the
/// real-mode memory.
pub fn set_selector_base(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (sel, base) = (a[0] as u16, a[1]);
    let (Some(s), Some(d)) = (is_alias(env, sel), uc.descriptor_of(sel)) else {
        return Ok(0);
    };
    if base < 0x10_0000 && crate::machine::map_real_memory(uc).unwrap_or(false) {
        fill_real_memory(uc);
    }
    if crate::machine::set_descriptor(uc, s, Descriptor { base, ..d }).is_err() {
        return Ok(0);
    }
    reload(uc, s);
    Ok(u32::from(sel))
}

/// KERNEL.180 LongPtrAdd(dwLongPtr, dwAdd) (undocumented; KRNL386 as
/// Wine's notes on it describe): moves the base of dwLongPtr's selector
/// dwAdd bytes further (modulo 4 GiB), as SetSelectorBase would; as there,
/// only an alias's descriptor changes (module notes). No return value.
pub fn long_ptr_add(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let sel = (a[0] >> 16) as u16;
    if let Some(d) = uc.descriptor_of(sel) {
        set_selector_base(env, uc, &[u32::from(sel), d.base.wrapping_add(a[1])])?;
    }
    Ok(0)
}

/// KERNEL.188 GetSelectorLimit(uSelector): the limit (the highest valid
/// offset), 0 for an invalid selector.
pub fn get_selector_limit(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(uc.descriptor_of(a[0] as u16).map_or(0, |d| d.limit))
}

/// KERNEL.189 SetSelectorLimit(uSelector, dwLimit): an alias's new limit
/// (at most 1 MiB - 1 here); always 0, as the SDK documents.
pub fn set_selector_limit(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (sel, limit) = (a[0] as u16, a[1].min(0xF_FFFF));
    if let (Some(s), Some(d)) = (is_alias(env, sel), uc.descriptor_of(sel)) {
        if crate::machine::set_descriptor(uc, s, Descriptor { limit, ..d }).is_ok() {
            reload(uc, s);
        }
    }
    Ok(0)
}

/// KERNEL.196 SelectorAccessRights(uSelector, fGet, uRights): with fGet 0
/// the rights word (the access byte in the low byte, the descriptor's
/// flags nibble in bits 12-15); with fGet 1 sets the type bits an
/// application may change (readable/writable, conforming/expand-down,
/// code) of an alias and returns 0.
pub fn selector_access_rights(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (sel, set, rights) = (a[0] as u16, a[1] as u16, a[2] as u16);
    let Some(d) = uc.descriptor_of(sel) else {
        return Ok(0);
    };
    if set == 0 {
        let flags = ((d.limit >> 16) & 0x0F) as u16;
        return Ok(u32::from(u16::from(d.access) | flags << 8));
    }
    if let Some(s) = is_alias(env, sel) {
        // Bits 1-3 (and the accessed bit) of the access byte.
        let access = (d.access & !0x0F) | (rights as u8 & 0x0F);
        if crate::machine::set_descriptor(uc, s, Descriptor { access, ..d }).is_ok() {
            reload(uc, s);
        }
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::win16::kernel::testing::kernsvc;

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }

    #[test]
    fn real_mode_selectors_name_the_first_megabyte() {
        let (mut m, mut env, _) = kernsvc();
        let w = &mut env.win16;
        assert_eq!(absolute_export(&mut m, w, "KERNEL", 113), Some(3));
        assert_eq!(absolute_export(&mut m, w, "KERNEL", 114), Some(8));
        let b800 = absolute_export(&mut m, w, "KERNEL", 182).unwrap();
        assert_eq!(m.descriptor_of(b800).unwrap().base, 0xB8000);
        assert_eq!(m.descriptor_of(b800).unwrap().limit, 0xFFFF);
        // The same selector again.
        assert_eq!(absolute_export(&mut m, w, "KERNEL", 182), Some(b800));
        let bios = absolute_export(&mut m, w, "KERNEL", 193).unwrap();
        assert_eq!(m.read_u16_at(bios, 0x13).unwrap(), 640);
        assert_eq!(m.read_u16_at(bios, 0x10).unwrap() & 2, 2);
        let rom = absolute_export(&mut m, w, "KERNEL", 173).unwrap();
        let mut model = [0u8];
        m.read_seg(rom, 0xFFFE, &mut model).unwrap();
        assert_eq!(model, [0xFC]);
        assert_eq!(m.read_u16_at(b800, 0).unwrap(), 0x0720);
        assert_eq!(absolute_export(&mut m, w, "KERNEL", 3), None);
        assert_eq!(absolute_export(&mut m, w, "USER", 182), None);
    }

    #[test]
    fn aliases_follow_their_memory() {
        let (mut m, mut env, _) = kernsvc();
        let ds = m.reg(R::DS);
        let code = env.win16.module_by_name("KERNSVC").unwrap().segments[0];
        // A data alias of the code segment reads its bytes and may write.
        let alias = alloc_cs_to_ds_alias(&mut env, &mut m, &[u32::from(code)]).unwrap() as u16;
        assert_ne!(alias, 0);
        assert!(!m.descriptor_of(alias).unwrap().is_code());
        let mut a = [0u8; 4];
        let mut c = [0u8; 4];
        m.read_seg(alias, 0, &mut a).unwrap();
        m.read_seg(code, 0, &mut c).unwrap();
        assert_eq!(a, c);
        // Base and limit follow Set*; the base of a block's own selector
        // does not change.
        let base = get_selector_base(&mut env, &mut m, &[u32::from(ds)]).unwrap();
        assert_eq!(
            set_selector_base(&mut env, &mut m, &[u32::from(alias), base]).unwrap(),
            u32::from(alias)
        );
        set_selector_limit(&mut env, &mut m, &[u32::from(alias), 0xFF]).unwrap();
        assert_eq!(
            get_selector_limit(&mut env, &mut m, &[u32::from(alias)]).unwrap(),
            0xFF
        );
        assert_eq!(
            m.read_u16_at(alias, 0x0A).unwrap(),
            m.read_u16_at(ds, 0x0A).unwrap()
        );
        assert_eq!(
            set_selector_base(&mut env, &mut m, &[u32::from(ds), 0]).unwrap(),
            0
        );
        // PrestoChangoSelector makes it code again.
        assert_eq!(
            presto_chango_selector(&mut env, &mut m, &[u32::from(ds), u32::from(alias)]).unwrap(),
            u32::from(alias)
        );
        assert!(m.descriptor_of(alias).unwrap().is_code());
        // Rights: the access byte of a data selector (the CPU has set its
        // accessed bit).
        assert_eq!(
            selector_access_rights(&mut env, &mut m, &[u32::from(ds), 0, 0]).unwrap() & 0xFE,
            u32::from(Descriptor::DATA_R3)
        );
        assert_eq!(
            free_selector(&mut env, &mut m, &[u32::from(alias)]).unwrap(),
            0
        );
        assert!(m.descriptor_of(alias).is_none());
        assert_eq!(
            free_selector(&mut env, &mut m, &[u32::from(ds)]).unwrap(),
            u32::from(ds)
        );
        // Arrays are 8 apart.
        let first = alloc_selector_array(&mut env, &mut m, &[3]).unwrap() as u16;
        assert_ne!(first, 0);
        assert!(env.win16.kernel.selectors.aliases.contains(&(first + 16)));
        let copy = alloc_selector(&mut env, &mut m, &[u32::from(ds)]).unwrap() as u16;
        assert_eq!(
            m.descriptor_of(copy).unwrap().base,
            m.descriptor_of(ds).unwrap().base
        );
    }
}
