//! Resources of the modules loaded from NE files, read from their parsed
//! images (the resource table and each resource's bytes, see
//! [`crate::loader::ne::NeResource`]).
//!
//! - `FindResource` returns what Windows 3.1 returns: the offset of the
//!   resource's 12-byte entry in the module's resource table (which the
//!   module database holds at the NE header's resource table offset), and
//!   `SizeofResource` its length in bytes (the table's length in alignment
//!   units, shifted);
//! - `LoadString` reads the `RT_STRING` block `id / 16 + 1`: 16 strings,
//!   each a length byte and that many characters;
//! - `LoadIcon`, `LoadCursor` and LoadBitmap's predefined bitmaps create
//!   no GDI or USER object yet: they return a
//!   handle when the resource exists (or, for hInstance NULL, when the id
//!   is a predefined IDI_*, IDC_* or OBM_* one) and NULL otherwise. The
//!   handle is the same for every load of the same resource. These handles
//!   come from [`ResourceHandles`]: LDT-style values below the first
//!   selector the machine hands out, so they never name a real segment.
//!   LoadBitmap (USER's, user/bitmap.rs) makes a module's bitmap a GDI
//!   bitmap.
//!
//! - `LoadResource` copies a resource's bytes into a new global block
//!   (global.rs) owned by the module, of type GT_RESOURCE, moveable and
//!   discardable as the resource's flags say (0x0010 moveable, 0x1000
//!   discardable: the bits of a segment's flags, win16.md "The NE file");
//!   loading a resource that is loaded already returns the same handle
//!   and counts one more use, as Windows 3.1 keeps a usage count per
//!   resource. `FreeResource` counts one use less and frees the block at
//!   the last. `LockResource` is GlobalLock: nothing is ever discarded, so
//!   nothing is loaded again. `AllocResource` makes a zeroed block for a
//!   resource without loading it, DirectResAlloc a moveable block the
//!   module owns.
//! - A resource larger than 64 KiB (a large bitmap, RCDATA) is loaded
//!   into a huge block, tiled selectors `__AHINCR` apart, as GlobalAlloc
//!   makes one (global.rs, "Limits"); past the global heap's limits
//!   LoadResource returns 0.
//!
//! Not here: `AccessResource` (it opens the file through DOS, and the
//! program's file need not lie in the sandboxed drive).

use super::api::{Api, Arg};
use super::farptr::{self, NameArg};
use super::global::{self, Owner, ResourceTag, gmem, gt};
use super::strings::eq_nocase;
use crate::loader::ne::{NeImage, NeResource, ResourceId};
use crate::machine::{Stop, Uc};
use crate::win16::Env;

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new(
        "KERNEL",
        60,
        "FINDRESOURCE",
        &[Arg::W, Arg::L, Arg::L],
        find_resource,
    ),
    Api::new(
        "KERNEL",
        61,
        "LOADRESOURCE",
        &[Arg::W, Arg::W],
        load_resource,
    ),
    Api::new("KERNEL", 62, "LOCKRESOURCE", &[Arg::W], lock_resource),
    Api::new("KERNEL", 63, "FREERESOURCE", &[Arg::W], free_resource),
    Api::new(
        "KERNEL",
        66,
        "ALLOCRESOURCE",
        &[Arg::W, Arg::W, Arg::L],
        alloc_resource,
    ),
    Api::new(
        "KERNEL",
        168,
        "DIRECTRESALLOC",
        &[Arg::W, Arg::W, Arg::W],
        direct_res_alloc,
    ),
    Api::new(
        "KERNEL",
        65,
        "SIZEOFRESOURCE",
        &[Arg::W, Arg::W],
        sizeof_resource,
    ),
    Api::new("USER", 173, "LOADCURSOR", &[Arg::W, Arg::L], load_cursor),
    Api::new("USER", 174, "LOADICON", &[Arg::W, Arg::L], load_icon),
    Api::new(
        "USER",
        176,
        "LOADSTRING",
        &[Arg::W, Arg::W, Arg::L, Arg::W],
        load_string,
    ),
];

/// Resource types (RT_*).
pub const RT_CURSOR: u16 = 1;
pub const RT_BITMAP: u16 = 2;
pub const RT_ICON: u16 = 3;
pub const RT_MENU: u16 = 4;
pub const RT_STRING: u16 = 6;
pub const RT_ACCELERATOR: u16 = 9;
pub const RT_GROUP_CURSOR: u16 = 12;
pub const RT_GROUP_ICON: u16 = 14;

/// Predefined icons (IDI_APPLICATION .. IDI_ASTERISK).
const STOCK_ICONS: std::ops::RangeInclusive<u16> = 32512..=32516;
/// Predefined cursors: IDC_ARROW .. IDC_UPARROW, IDC_SIZE .. IDC_SIZENS.
fn is_stock_cursor(id: u16) -> bool {
    (32512..=32516).contains(&id) || (32640..=32645).contains(&id)
}
/// Predefined bitmaps (OBM_*).
pub const STOCK_BITMAPS: std::ops::RangeInclusive<u16> = 32734..=32767;

/// The most handles [`ResourceHandles`] gives out.
pub const MAX_HANDLES: usize = 511;

/// What a loaded-resource handle stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Loaded {
    /// Resource `hrsrc` of the module `hmodule`.
    Module { hmodule: u16, hrsrc: u16 },
    /// A predefined object of a resource type.
    Stock { rt: u16, id: u16 },
}

/// Handles for loaded icons, cursors, bitmaps, menus and accelerator
/// tables: handle `(i + 1) << 3 | 6` is entry `i` (LDT indexes 1..=511,
/// which the machine never allocates).
#[derive(Clone, Debug, Default)]
pub struct ResourceHandles {
    loaded: Vec<Loaded>,
}

impl ResourceHandles {
    fn handle(&mut self, what: Loaded) -> u16 {
        let i = match self.loaded.iter().position(|l| *l == what) {
            Some(i) => i,
            None if self.loaded.len() < MAX_HANDLES => {
                self.loaded.push(what);
                self.loaded.len() - 1
            }
            None => return 0,
        };
        ((i as u16 + 1) << 3) | 6
    }
}

/// What a handle from LoadIcon, LoadCursor, LoadBitmap, LoadMenu or
/// LoadAccelerators stands for, for the code that draws or reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoadedResource {
    /// Resource `hrsrc` (its entry's offset) of module `hmodule`.
    Module { hmodule: u16, hrsrc: u16 },
    /// A predefined object: its resource type and id (IDI_, IDC_, OBM_).
    Stock { rt: u16, id: u16 },
}

/// The resource a loaded-resource handle stands for (None for other
/// handles).
pub fn loaded(env: &Env, h: u16) -> Option<LoadedResource> {
    if h & 7 != 6 {
        return None;
    }
    let i = usize::from(h >> 3).checked_sub(1)?;
    Some(match env.win16.resources.loaded.get(i)? {
        Loaded::Module { hmodule, hrsrc } => LoadedResource::Module {
            hmodule: *hmodule,
            hrsrc: *hrsrc,
        },
        Loaded::Stock { rt, id } => LoadedResource::Stock { rt: *rt, id: *id },
    })
}

/// The bytes of resource `hrsrc` of module `hmodule`.
pub fn resource_bytes(env: &Env, hmodule: u16, hrsrc: u16) -> Option<&[u8]> {
    let (_, ne) = image(env, hmodule)?;
    by_handle(ne, hrsrc).map(|r| r.data.as_slice())
}

/// The bytes of the resource of type `rt` with the numeric id `id` in
/// module `hmodule` (an icon or cursor image a group names).
pub fn resource_by_id(env: &Env, hmodule: u16, rt: u16, id: u16) -> Option<&[u8]> {
    let (_, ne) = image(env, hmodule)?;
    find(ne, &NameArg::Int(id), &NameArg::Int(rt)).map(|(_, r)| r.data.as_slice())
}

fn matches(id: &ResourceId, want: &NameArg) -> bool {
    match (id, want) {
        (ResourceId::Int(a), NameArg::Int(b)) => a == b,
        (ResourceId::Name(a), NameArg::Str(b)) => eq_nocase(a.as_bytes(), b),
        _ => false,
    }
}

/// The resource `name` of type `rt` in `ne`, with its HRSRC: the offset of
/// its entry in the resource table (module notes). A name not in the
/// resource table is looked up in the module's name tables (RT_NAMETABLE,
/// nametable.rs), as Windows 3.0 and 3.1 did: every loader of resources by
/// name (FindResource, LoadIcon, LoadCursor, LoadBitmap, LoadMenu,
/// LoadAccelerators, the dialog functions) comes here.
pub fn find<'a>(ne: &'a NeImage, name: &NameArg, rt: &NameArg) -> Option<(u16, &'a NeResource)> {
    find_direct(ne, name, rt).or_else(|| {
        let tables = ne
            .resources
            .iter()
            .filter(|t| t.type_id == ResourceId::Int(super::nametable::RT_NAMETABLE))
            .flat_map(|t| t.resources.iter().map(|r| r.data.as_slice()));
        let (t, id) = super::nametable::lookup(tables, name, rt)?;
        find_direct(ne, &NameArg::Int(id), &NameArg::Int(t))
    })
}

/// The resource `name` of type `rt` in the resource table itself.
fn find_direct<'a>(ne: &'a NeImage, name: &NameArg, rt: &NameArg) -> Option<(u16, &'a NeResource)> {
    // Entries: after the alignment shift word, each type has an 8-byte
    // header and 12 bytes per resource.
    let mut at = u32::from(ne.header.resource_table_offset) + 2;
    for t in &ne.resources {
        at += 8;
        if matches(&t.type_id, rt) {
            for (j, r) in t.resources.iter().enumerate() {
                if matches(&r.id, name) {
                    let h = at + 12 * j as u32;
                    return u16::try_from(h).ok().map(|h| (h, r));
                }
            }
        }
        at += 12 * t.resources.len() as u32;
    }
    None
}

/// The resource whose HRSRC is `hrsrc`.
pub fn by_handle(ne: &NeImage, hrsrc: u16) -> Option<&NeResource> {
    let mut at = u32::from(ne.header.resource_table_offset) + 2;
    for t in &ne.resources {
        at += 8;
        let n = t.resources.len() as u32;
        let h = u32::from(hrsrc);
        if h >= at && h < at + 12 * n && (h - at) % 12 == 0 {
            return t.resources.get(((h - at) / 12) as usize);
        }
        at += 12 * n;
    }
    None
}

/// The parsed image and hModule of the module that `hinstance` (an
/// instance or module handle) names.
pub fn image(env: &Env, hinstance: u16) -> Option<(u16, &NeImage)> {
    let m = &env.win16.modules[env.win16.module_for_handle(hinstance)?];
    Some((m.hmodule, m.image.as_deref()?))
}

/// KERNEL.60 FindResource(hInstance, lpszName, lpszType): the HRSRC, 0 if
/// there is no such resource.
pub fn find_resource(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (Some(name), Some(rt)) = (NameArg::read(uc, a[1]), NameArg::read(uc, a[2])) else {
        return Ok(0);
    };
    Ok(image(env, a[0] as u16)
        .and_then(|(_, ne)| find(ne, &name, &rt))
        .map_or(0, |(h, _)| u32::from(h)))
}

/// KERNEL.65 SizeofResource(hInstance, hResInfo): the size in bytes, 0 for
/// a bad handle.
pub fn sizeof_resource(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(image(env, a[0] as u16)
        .and_then(|(_, ne)| by_handle(ne, a[1] as u16))
        .map_or(0, |r| r.length.min(u64::from(u32::MAX)) as u32))
}

/// A resource's type as GLOBALENTRY.wData gives it for its block (see
/// [`ResourceTag::gd_type`]).
fn gd_type(ne: &NeImage, hrsrc: u16) -> u16 {
    let mut at = u32::from(ne.header.resource_table_offset) + 2;
    for t in &ne.resources {
        at += 8;
        let end = at + 12 * t.resources.len() as u32;
        if (at..end).contains(&u32::from(hrsrc)) {
            return match t.type_id {
                ResourceId::Int(n) if n <= GD_MAX_RESOURCE => n,
                _ => GD_USERDEFINED,
            };
        }
        at = end;
    }
    GD_USERDEFINED
}

/// GLOBALENTRY.wData of a named or unlisted resource type, and the
/// highest predefined one (Windows 3.1 SDK, GLOBALENTRY).
const GD_USERDEFINED: u16 = 0;
const GD_MAX_RESOURCE: u16 = 15;

/// The resource flags that become GMEM flags (module notes).
const RES_MOVEABLE: u16 = 0x0010;
const RES_DISCARDABLE: u16 = 0x1000;

/// Make the block for resource `hrsrc` of the module `hinstance` names,
/// at least `min_bytes` long and holding the resource's bytes if `load`:
/// its handle, or 0.
fn resource_block(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hinstance: u16,
    hrsrc: u16,
    min_bytes: u32,
    load: bool,
) -> u16 {
    let Some((hmodule, ne)) = image(env, hinstance) else {
        return 0;
    };
    let Some(r) = by_handle(ne, hrsrc) else {
        return 0;
    };
    // Past 64 KiB a huge block; past the heap's limits none (module
    // notes). The clamp only keeps the length a u32.
    let bytes = u32::try_from(r.length).unwrap_or(u32::MAX).max(min_bytes);
    let mut flags = gmem::FIXED;
    if r.flags & RES_MOVEABLE != 0 {
        flags |= gmem::MOVEABLE;
    }
    if r.flags & RES_DISCARDABLE != 0 {
        flags |= gmem::DISCARDABLE;
    }
    let tag = ResourceTag {
        hrsrc,
        gd_type: gd_type(ne, hrsrc),
        usage: 1,
        loaded: load,
    };
    let data = if load { r.data.to_vec() } else { Vec::new() };
    let owner = Owner {
        owner: hmodule,
        pdb_owner: false,
        kind: gt::RESOURCE,
    };
    let h = global::alloc_block_any(env, uc, flags, bytes, &data, owner);
    if let Some(b) = env.win16.global.find_mut(h) {
        b.resource = Some(tag);
    }
    h
}

/// KERNEL.61 LoadResource(hInstance, hResInfo): the handle of a global
/// block holding the resource, the same one while it stays loaded; 0 for
/// a bad handle or when the block cannot be made (module notes).
pub fn load_resource(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hinstance, hrsrc) = (a[0] as u16, a[1] as u16);
    let Some((hmodule, _)) = image(env, hinstance) else {
        return Ok(0);
    };
    let loaded = env.win16.global.blocks().iter().find(|b| {
        b.kind == gt::RESOURCE
            && b.owner == hmodule
            && !b.pdb_owner
            && b.resource.is_some_and(|t| t.loaded && t.hrsrc == hrsrc)
    });
    if let Some(h) = loaded.map(|b| b.handle) {
        if let Some(t) = env
            .win16
            .global
            .find_mut(h)
            .and_then(|b| b.resource.as_mut())
        {
            t.usage = t.usage.saturating_add(1);
        }
        return Ok(u32::from(h));
    }
    Ok(u32::from(resource_block(
        env, uc, hinstance, hrsrc, 0, true,
    )))
}

/// KERNEL.66 AllocResource(hInstance, hResInfo, dwSize): a zeroed block
/// for the resource, of its size or dwSize bytes if that is more; not
/// filled and not found by LoadResource. 0 for a bad handle.
pub fn alloc_resource(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hinstance, hrsrc, size) = (a[0] as u16, a[1] as u16, a[2]);
    Ok(u32::from(resource_block(
        env, uc, hinstance, hrsrc, size, false,
    )))
}

/// KERNEL.168 DirectResAlloc(hInstance, wType, wSize) (undocumented; the
/// block USER's CreateCursor and CreateIcon put their bits in, as Wine's
/// notes on KRNL386 describe it): a moveable global block of wSize bytes
/// owned by hInstance's module, not the calling task, so it lives as long
/// as the module does; wType is not looked at. 0 for a handle that names
/// no module or when the block cannot be made.
pub fn direct_res_alloc(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(i) = env.win16.module_for_handle(a[0] as u16) else {
        return Ok(0);
    };
    let owner = Owner {
        owner: env.win16.modules[i].hmodule,
        pdb_owner: false,
        kind: gt::UNKNOWN,
    };
    let size = u32::from(a[2] as u16);
    Ok(u32::from(global::alloc_block(
        env,
        uc,
        gmem::MOVEABLE,
        size,
        &[],
        owner,
    )))
}

/// KERNEL.62 LockResource(hResData): the far pointer to the block (its
/// selector:0000), NULL for a bad handle; a moveable block's lock count
/// goes up, as GlobalLock's does.
pub fn lock_resource(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    global::global_lock(env, uc, a)
}

/// KERNEL.63 FreeResource(hResData): one use less of a loaded resource,
/// freeing its block at the last; 0 on success, nonzero (hResData) when
/// the handle names no resource block or the block cannot be freed.
pub fn free_resource(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = a[0] as u16;
    let Some(t) = env
        .win16
        .global
        .find_mut(h)
        .and_then(|b| b.resource.as_mut())
    else {
        return Ok(u32::from(h));
    };
    if t.usage > 1 {
        t.usage -= 1;
        return Ok(0);
    }
    Ok(if global::free_block(env, uc, h) {
        0
    } else {
        u32::from(h)
    })
}

/// USER.176 LoadString(hInstance, idResource, lpszBuffer, cbBuffer): the
/// number of characters copied (at most cbBuffer - 1, then a NUL); 0 when
/// the string does not exist or is empty.
pub fn load_string(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let id = a[1] as u16;
    let size = farptr::int_size(a[3]);
    let block = NameArg::Int(id / 16 + 1);
    let Some(data) = image(env, a[0] as u16)
        .and_then(|(_, ne)| find(ne, &block, &NameArg::Int(RT_STRING)))
        .map(|(_, r)| r.data.to_vec())
    else {
        return Ok(0);
    };
    let mut at = 0usize;
    for _ in 0..id % 16 {
        at += 1 + usize::from(*data.get(at).unwrap_or(&0));
    }
    let len = usize::from(*data.get(at).unwrap_or(&0));
    let text = data.get(at + 1..).unwrap_or(&[]);
    let text = &text[..len.min(text.len())];
    if text.is_empty() {
        return Ok(0);
    }
    Ok(farptr::write_cstr_truncated(uc, a[2], text, size).map_or(0, |n| n as u32))
}

/// The handle for LoadIcon and friends: the first of `types` that has the
/// resource, or a predefined object for hInstance NULL.
pub fn load(
    env: &mut Env,
    uc: &Uc<'_>,
    a: &[u32],
    types: &[u16],
    stock: impl Fn(u16) -> bool,
) -> u32 {
    let Some(name) = NameArg::read(uc, a[1]) else {
        return 0;
    };
    u32::from(handle_of(env, a[0] as u16, &name, types, stock))
}

fn handle_of(
    env: &mut Env,
    hinstance: u16,
    name: &NameArg,
    types: &[u16],
    stock: impl Fn(u16) -> bool,
) -> u16 {
    let what = if hinstance == 0 {
        match *name {
            NameArg::Int(id) if stock(id) => Loaded::Stock { rt: types[0], id },
            _ => return 0,
        }
    } else {
        let Some((hmodule, ne)) = image(env, hinstance) else {
            return 0;
        };
        let Some(hrsrc) = types
            .iter()
            .find_map(|&t| find(ne, name, &NameArg::Int(t)).map(|(h, _)| h))
        else {
            return 0;
        };
        Loaded::Module { hmodule, hrsrc }
    };
    env.win16.resources.handle(what)
}

/// The bytes of resource `name` of type `rt` of the module `hinstance`
/// names (an instance or module handle), with the module's name: what
/// USER parses for LoadMenu, LoadAccelerators and dialog templates.
pub fn data(env: &Env, hinstance: u16, name: &NameArg, rt: u16) -> Option<(String, Vec<u8>)> {
    let m = &env.win16.modules[env.win16.module_for_handle(hinstance)?];
    let (_, r) = find(m.image.as_deref()?, name, &NameArg::Int(rt))?;
    Some((m.name.clone(), r.data.to_vec()))
}

/// USER.174 LoadIcon(hInstance, lpszIcon).
pub fn load_icon(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(load(env, uc, a, &[RT_GROUP_ICON, RT_ICON], |id| {
        STOCK_ICONS.contains(&id)
    }))
}

/// USER.173 LoadCursor(hInstance, lpszCursor).
pub fn load_cursor(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(load(
        env,
        uc,
        a,
        &[RT_GROUP_CURSOR, RT_CURSOR],
        is_stock_cursor,
    ))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }
    use crate::loader::ne::NeResourceType;
    use crate::machine::{Cpu, Machine, SegKind};
    use crate::win16::Module;

    fn res(id: ResourceId, data: &[u8]) -> NeResource {
        NeResource {
            id,
            file_offset: 0,
            length: (data.len() as u64).div_ceil(16) * 16,
            flags: 0x30,
            data: data.into(),
        }
    }

    /// Strings 16..=18 are "first", "", "third"; 35 is "x".
    fn string_block() -> Vec<u8> {
        let mut b = vec![5];
        b.extend_from_slice(b"first");
        b.push(0);
        b.push(5);
        b.extend_from_slice(b"third");
        b.extend_from_slice(&[0; 13]);
        b
    }

    /// An environment with one module "APP" (hModule 0x2227, instance
    /// 0x222E) holding resources, a machine and a data segment.
    pub(crate) fn setup() -> (Machine, Env, u16) {
        let mut ne = NeImage::parse(&crate::loader::testdata::sample_ne()).unwrap();
        ne.header.resource_table_offset = 0x100;
        ne.resources = vec![
            NeResourceType {
                type_id: ResourceId::Int(RT_STRING),
                resources: vec![
                    res(ResourceId::Int(2), &string_block()),
                    res(ResourceId::Int(3), &[0, 0, 1, b'x']),
                ],
            },
            NeResourceType {
                type_id: ResourceId::Int(RT_GROUP_ICON),
                resources: vec![res(ResourceId::Name("APPICON".into()), &[1, 2, 3])],
            },
            NeResourceType {
                type_id: ResourceId::Name("MYDATA".into()),
                resources: vec![res(ResourceId::Int(7), &[9; 20])],
            },
            NeResourceType {
                type_id: ResourceId::Int(RT_MENU),
                resources: vec![res(ResourceId::Int(1), &[0; 4])],
            },
            // A type past GD_MAX_RESOURCE: a fixed resource, and one of
            // 128 KiB (only its first bytes are in the file).
            NeResourceType {
                type_id: ResourceId::Int(300),
                resources: vec![
                    NeResource {
                        flags: 0,
                        ..res(ResourceId::Int(1), &[5; 40])
                    },
                    NeResource {
                        length: 0x2_0000,
                        ..res(ResourceId::Int(2), &[1; 16])
                    },
                ],
            },
            // A 2×1 DIB at 4 bpp: pixel 0 is colour 1 (red), pixel 1
            // colour 0 (blue).
            NeResourceType {
                type_id: ResourceId::Int(RT_BITMAP),
                resources: vec![res(ResourceId::Int(5), &{
                    let mut b = vec![40, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 1, 0, 4, 0];
                    b.extend_from_slice(&[0; 24]);
                    b.extend_from_slice(&[255, 0, 0, 0, 0, 0, 255, 0]);
                    b.extend_from_slice(&[0; 56]);
                    b.extend_from_slice(&[0x10, 0, 0, 0]);
                    b
                })],
            },
        ];
        let mut env = Env::new(false);
        env.win16.modules.push(Module {
            name: "APP".into(),
            hmodule: 0x2227,
            segments: vec![0x222F],
            thunks: Vec::new(),
            exports: Default::default(),
            export_names: Default::default(),
            path: None,
            image: Some(Box::new(ne)),
            builtin: false,
        });
        let mut m = Machine::new_protected().unwrap();
        let ds = m.alloc_segment(SegKind::Data, 0x1000, &[]).unwrap();
        (m, env, ds)
    }

    fn str_at(m: &mut Machine, ds: u16, off: u16, s: &str) -> u32 {
        let mut b = s.as_bytes().to_vec();
        b.push(0);
        m.write_seg(ds, off, &b).unwrap();
        farptr::make(ds, off)
    }

    #[test]
    fn find_and_size() {
        let (mut m, mut env, ds) = setup();
        let inst = 0x222E; // the moveable handle of segment 0x222F
        let name = str_at(&mut m, ds, 0x100, "appicon");
        let h = find_resource(&mut env, &mut m, &[inst, name, u32::from(RT_GROUP_ICON)]).unwrap();
        // Table at 0x100: shift word, RT_STRING (8 + 2*12), RT_GROUP_ICON's
        // header (8): the first entry of the second type.
        assert_eq!(h, 0x100 + 2 + 8 + 24 + 8);
        assert_eq!(sizeof_resource(&mut env, &mut m, &[inst, h]).unwrap(), 16);
        // A string type and "#7" as the name.
        let ty = str_at(&mut m, ds, 0x200, "MyData");
        let seven = str_at(&mut m, ds, 0x210, "#7");
        let h = find_resource(&mut env, &mut m, &[0x2227, seven, ty]).unwrap();
        assert_ne!(h, 0);
        assert_eq!(sizeof_resource(&mut env, &mut m, &[0x2227, h]).unwrap(), 32);
        // Missing: 0; bad handles: 0.
        assert_eq!(find_resource(&mut env, &mut m, &[inst, 8, ty]).unwrap(), 0);
        assert_eq!(
            find_resource(&mut env, &mut m, &[0x3337, 7, ty]).unwrap(),
            0
        );
        assert_eq!(
            sizeof_resource(&mut env, &mut m, &[inst, h + 1]).unwrap(),
            0
        );
        assert_eq!(sizeof_resource(&mut env, &mut m, &[inst, 0]).unwrap(), 0);
        assert_eq!(
            find_resource(&mut env, &mut m, &[inst, 0x1234_0000, ty]).unwrap(),
            0
        );
    }

    #[test]
    fn load_string_reads_length_prefixed_strings() {
        let (mut m, mut env, ds) = setup();
        let buf = farptr::make(ds, 0);
        let mut get = |id: u32, size: u32| {
            m.write_seg(ds, 0, &[0xEE; 16]).unwrap();
            let n = load_string(&mut env, &mut m, &[0x2227, id, buf, size]).unwrap();
            let mut b = [0u8; 8];
            m.read_seg(ds, 0, &mut b).unwrap();
            (n, b)
        };
        assert_eq!(get(16, 100), (5, *b"first\0\xEE\xEE"));
        assert_eq!(get(18, 100), (5, *b"third\0\xEE\xEE"));
        assert_eq!(get(18, 3), (2, *b"th\0\xEE\xEE\xEE\xEE\xEE"));
        assert_eq!(get(34, 100), (1, *b"x\0\xEE\xEE\xEE\xEE\xEE\xEE"));
        // Empty or missing strings, missing blocks, a string past the data.
        assert_eq!(get(17, 100).0, 0);
        assert_eq!(get(31, 100).0, 0);
        assert_eq!(get(0, 100).0, 0);
        assert_eq!(get(16, 0), (0, [0xEE; 8]));
        assert_eq!(
            load_string(&mut env, &mut m, &[0x2227, 16, 0, 10]).unwrap(),
            0
        );
    }

    #[test]
    fn load_functions_hand_out_handles() {
        let (mut m, mut env, ds) = setup();
        let name = str_at(&mut m, ds, 0x100, "AppIcon");
        let i1 = load_icon(&mut env, &mut m, &[0x2227, name]).unwrap();
        assert_eq!(i1, 0x000E);
        assert_eq!(load_icon(&mut env, &mut m, &[0x222E, name]).unwrap(), i1);
        // Stock objects for hInstance NULL.
        let arrow = load_cursor(&mut env, &mut m, &[0, 32512]).unwrap();
        assert_eq!(arrow, 0x0016);
        assert_eq!(load_cursor(&mut env, &mut m, &[0, 32512]).unwrap(), arrow);
        assert_ne!(load_icon(&mut env, &mut m, &[0, 32512]).unwrap(), arrow);
        assert_eq!(load_cursor(&mut env, &mut m, &[0, 1]).unwrap(), 0);
        assert_eq!(load_cursor(&mut env, &mut m, &[0x2227, 32512]).unwrap(), 0);
        // USER parses menus and accelerator tables from these bytes.
        let (module, bytes) = data(&env, 0x222E, &NameArg::Int(1), RT_MENU).unwrap();
        assert_eq!((module.as_str(), bytes), ("APP", vec![0; 4]));
        assert!(data(&env, 0x2227, &NameArg::Int(2), RT_MENU).is_none());
        assert!(data(&env, 0, &NameArg::Int(1), RT_MENU).is_none());
        assert_eq!(
            load_icon(&mut env, &mut m, &[0x2227, 0x1234_0000]).unwrap(),
            0
        );
        // Bounded: distinct stock bitmaps until the table is full.
        let mut h = ResourceHandles::default();
        for id in 0..MAX_HANDLES as u16 {
            assert_ne!(h.handle(Loaded::Stock { rt: 2, id }), 0);
        }
        assert_eq!(h.handle(Loaded::Stock { rt: 2, id: 9999 }), 0);
        assert_eq!(h.handle(Loaded::Stock { rt: 2, id: 3 }), (4 << 3) | 6);
    }

    /// The HRSRC of resource `id` of type `rt` in the test module.
    fn hrsrc(env: &Env, id: u16, rt: u16) -> u32 {
        let ne = env.win16.modules[0].image.as_deref().unwrap();
        let (h, _) = find(ne, &NameArg::Int(id), &NameArg::Int(rt)).unwrap();
        u32::from(h)
    }

    /// The owner, GT_ type and GD_ resource type KERNEL's arena records
    /// for the block of `h` (what TOOLHELP's GlobalEntryHandle reports as
    /// hOwner, wType and wData: toolhelp_global.rs): a block with memory,
    /// in the arena chain.
    fn entry(_m: &mut Machine, env: &mut Env, _ds: u16, h: u32) -> (u16, u16, u16) {
        let b = crate::win16::global::items(env, crate::win16::global::Walk::All)
            .into_iter()
            .find(|b| b.handle != 0 && b.handle == h as u16)
            .unwrap_or_else(|| panic!("no arena for {h:04X}"));
        (b.owner, b.kind, b.resource.map_or(0, |t| t.gd_type))
    }

    #[test]
    fn load_lock_and_free_a_resource() {
        let (mut m, mut env, ds) = setup();
        let ty = str_at(&mut m, ds, 0x200, "MYDATA");
        let hrsrc = find_resource(&mut env, &mut m, &[0x2227, 7, ty]).unwrap();
        let h = load_resource(&mut env, &mut m, &[0x2227, hrsrc]).unwrap();
        // Flags 0x30: moveable, so the handle is the selector minus 1.
        assert_eq!(h & 7, 6, "{h:04X}");
        let b = env.win16.global.find(h as u16).cloned().unwrap();
        assert_eq!(b.handle, h as u16);
        assert_eq!(b.size, 32);
        assert!(b.moveable() && !b.discardable());
        assert_eq!(
            (b.owner, b.pdb_owner, b.kind),
            (0x2227, false, gt::RESOURCE)
        );
        assert_eq!(entry(&mut m, &mut env, ds, h), (0x2227, gt::RESOURCE, 0));
        // LockResource: selector:0000, the resource's bytes then zeros.
        let p = lock_resource(&mut env, &mut m, &[h]).unwrap();
        assert_eq!(p, u32::from(b.selector) << 16);
        let mut bytes = [0xEEu8; 32];
        m.read_seg(b.selector, 0, &mut bytes).unwrap();
        assert_eq!(bytes[..20], [9; 20]);
        assert_eq!(bytes[20..], [0; 12]);
        assert_eq!(env.win16.global.find(h as u16).unwrap().lock, 1);
        // Loaded again (by the instance handle too): the same block, one
        // more use; a FreeResource per load, the block goes with the last.
        assert_eq!(
            load_resource(&mut env, &mut m, &[0x222E, hrsrc]).unwrap(),
            h
        );
        assert_eq!(
            load_resource(&mut env, &mut m, &[0x2227, hrsrc]).unwrap(),
            h
        );
        let blocks = env.win16.global.blocks().len();
        assert_eq!(free_resource(&mut env, &mut m, &[h]).unwrap(), 0);
        assert_eq!(free_resource(&mut env, &mut m, &[h]).unwrap(), 0);
        assert!(env.win16.global.find(h as u16).is_some());
        assert_eq!(env.win16.global.blocks().len(), blocks);
        m.set_reg(crate::machine::R::ES, b.selector).unwrap();
        assert_eq!(free_resource(&mut env, &mut m, &[h]).unwrap(), 0);
        assert!(env.win16.global.find(h as u16).is_none());
        assert_eq!(m.reg(crate::machine::R::ES), 0, "ES held the freed block");
        assert!(m.descriptor_of(b.selector).is_none());
        assert_eq!(free_resource(&mut env, &mut m, &[h]).unwrap(), h);
        assert_eq!(lock_resource(&mut env, &mut m, &[h]).unwrap(), 0);
        // Loaded once more after that: a new block with the same bytes.
        let h2 = load_resource(&mut env, &mut m, &[0x2227, hrsrc]).unwrap();
        assert_ne!(h2, 0);
        let sel = env.win16.global.find(h2 as u16).unwrap().selector;
        assert_eq!(m.read_u16_at(sel, 18).unwrap(), 0x0909);
        assert_eq!(m.read_u16_at(sel, 20).unwrap(), 0);
    }

    #[test]
    fn resource_blocks_follow_the_resource() {
        let (mut m, mut env, ds) = setup();
        // A string block: type 6, moveable; another resource, another block.
        let (r2, r3) = (hrsrc(&env, 2, RT_STRING), hrsrc(&env, 3, RT_STRING));
        let s2 = load_resource(&mut env, &mut m, &[0x2227, r2]).unwrap();
        let s3 = load_resource(&mut env, &mut m, &[0x2227, r3]).unwrap();
        assert!(s2 != 0 && s3 != 0 && s2 != s3);
        assert_eq!(entry(&mut m, &mut env, ds, s3), (0x2227, gt::RESOURCE, 6));
        let sel = env.win16.global.find(s3 as u16).unwrap().selector;
        assert_eq!(
            m.read_u16_at(sel, 2).unwrap(),
            u16::from_le_bytes([1, b'x'])
        );
        // A fixed resource of a type past GD_MAX_RESOURCE: handle =
        // selector, wData GD_USERDEFINED.
        let fixed = hrsrc(&env, 1, 300);
        let f = load_resource(&mut env, &mut m, &[0x2227, fixed]).unwrap();
        assert_eq!(f & 7, 7);
        assert_eq!(entry(&mut m, &mut env, ds, f), (0x2227, gt::RESOURCE, 0));
        assert_eq!(lock_resource(&mut env, &mut m, &[f]).unwrap(), f << 16);
        assert_eq!(env.win16.global.find(f as u16).unwrap().lock, 0);
        // Over 64 KiB: a huge block, tiles __AHINCR apart, the bytes in
        // the file first, zeros after them.
        let big = hrsrc(&env, 2, 300);
        let hb = load_resource(&mut env, &mut m, &[0x2227, big]).unwrap() as u16;
        assert_ne!(hb, 0);
        let bsel = env.win16.global.find(hb).unwrap().selector;
        assert_eq!(env.win16.global.find(hb).unwrap().size, 0x2_0000);
        assert_eq!(m.read_u16_at(bsel, 14).unwrap(), 0x0101);
        assert_eq!(m.read_u16_at(bsel + 8, 0xFFFE).unwrap(), 0);
        assert_eq!(
            free_resource(&mut env, &mut m, &[u32::from(hb)]).unwrap(),
            0
        );
        assert!(m.descriptor_of(bsel + 8).is_none());
        // Bad handles, other modules: 0.
        assert_eq!(
            load_resource(&mut env, &mut m, &[0x2227, big + 1]).unwrap(),
            0
        );
        assert_eq!(load_resource(&mut env, &mut m, &[0x2227, 0]).unwrap(), 0);
        assert_eq!(load_resource(&mut env, &mut m, &[0x3337, r2]).unwrap(), 0);
        // FreeResource of a block that is no resource fails and frees
        // nothing.
        let g = global::alloc(&mut env, &mut m, gmem::MOVEABLE, 10);
        assert_eq!(
            free_resource(&mut env, &mut m, &[u32::from(g)]).unwrap(),
            u32::from(g)
        );
        assert!(env.win16.global.find(g).is_some());
    }

    #[test]
    fn alloc_resource_makes_an_empty_block_of_its_own() {
        let (mut m, mut env, ds) = setup();
        let h7 = hrsrc(&env, 1, RT_MENU);
        let a = alloc_resource(&mut env, &mut m, &[0x2227, h7, 100]).unwrap();
        let b = env.win16.global.find(a as u16).cloned().unwrap();
        assert_eq!(b.size, 128);
        assert_eq!(entry(&mut m, &mut env, ds, a), (0x2227, gt::RESOURCE, 4));
        let mut bytes = [0xEEu8; 4];
        m.read_seg(b.selector, 0, &mut bytes).unwrap();
        assert_eq!(bytes, [0; 4]);
        // At least the resource's own size.
        let a2 = alloc_resource(&mut env, &mut m, &[0x2227, h7, 1]).unwrap();
        assert_eq!(env.win16.global.find(a2 as u16).unwrap().size, 32);
        // LoadResource does not take an allocated block for a loaded one.
        let l = load_resource(&mut env, &mut m, &[0x2227, h7]).unwrap();
        assert!(l != 0 && l != a && l != a2);
        assert_eq!(free_resource(&mut env, &mut m, &[a]).unwrap(), 0);
        assert!(env.win16.global.find(a as u16).is_none());
        assert_eq!(
            alloc_resource(&mut env, &mut m, &[0x2227, 0, 10]).unwrap(),
            0
        );
        // Past 64 KiB a huge block, as GlobalAlloc makes one.
        let big = alloc_resource(&mut env, &mut m, &[0x2227, h7, 0x1_0001]).unwrap() as u16;
        assert_ne!(big, 0);
        assert_eq!(env.win16.global.find(big).unwrap().size, 0x1_0020);
    }
}
