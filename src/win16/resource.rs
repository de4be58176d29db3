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
//! - `LoadIcon`, `LoadCursor`, `LoadBitmap`, `LoadMenu` and
//!   `LoadAccelerators` create no GDI or USER object yet: they return a
//!   handle when the resource exists (or, for hInstance NULL, when the id
//!   is a predefined IDI_*, IDC_* or OBM_* one) and NULL otherwise. The
//!   handle is the same for every load of the same resource. These handles
//!   come from [`ResourceHandles`]: LDT-style values below the first
//!   selector the machine hands out, so they never name a real segment.
//!
//! Not here: `LoadResource` / `LockResource` / `FreeResource` (they need the
//! global heap) and `AccessResource` (it opens the file through DOS, and
//! the program's file need not lie in the sandboxed drive).

use super::api::{Api, Arg};
use super::farptr::{self, NameArg};
use super::strings::eq_nocase;
use crate::env::Env;
use crate::loader::ne::{NeImage, NeResource, ResourceId};
use crate::machine::{Stop, Uc};

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
        65,
        "SIZEOFRESOURCE",
        &[Arg::W, Arg::W],
        sizeof_resource,
    ),
    Api::new("USER", 150, "LOADMENU", &[Arg::W, Arg::L], load_menu),
    Api::new("USER", 173, "LOADCURSOR", &[Arg::W, Arg::L], load_cursor),
    Api::new("USER", 174, "LOADICON", &[Arg::W, Arg::L], load_icon),
    Api::new("USER", 175, "LOADBITMAP", &[Arg::W, Arg::L], load_bitmap),
    Api::new(
        "USER",
        176,
        "LOADSTRING",
        &[Arg::W, Arg::W, Arg::L, Arg::W],
        load_string,
    ),
    Api::new(
        "USER",
        177,
        "LOADACCELERATORS",
        &[Arg::W, Arg::L],
        load_accelerators,
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
const STOCK_BITMAPS: std::ops::RangeInclusive<u16> = 32734..=32767;

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
#[derive(Debug, Default)]
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

fn matches(id: &ResourceId, want: &NameArg) -> bool {
    match (id, want) {
        (ResourceId::Int(a), NameArg::Int(b)) => a == b,
        (ResourceId::Name(a), NameArg::Str(b)) => eq_nocase(a.as_bytes(), b),
        _ => false,
    }
}

/// The resource `name` of type `rt` in `ne`, with its HRSRC: the offset of
/// its entry in the resource table (module notes).
pub fn find<'a>(ne: &'a NeImage, name: &NameArg, rt: &NameArg) -> Option<(u16, &'a NeResource)> {
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
fn image(env: &Env, hinstance: u16) -> Option<(u16, &NeImage)> {
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

/// USER.176 LoadString(hInstance, idResource, lpszBuffer, cbBuffer): the
/// number of characters copied (at most cbBuffer - 1, then a NUL); 0 when
/// the string does not exist or is empty.
pub fn load_string(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let id = a[1] as u16;
    let size = farptr::int_size(a[3]);
    let block = NameArg::Int(id / 16 + 1);
    let Some(data) = image(env, a[0] as u16)
        .and_then(|(_, ne)| find(ne, &block, &NameArg::Int(RT_STRING)))
        .map(|(_, r)| r.data.clone())
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
fn load(env: &mut Env, uc: &Uc<'_>, a: &[u32], types: &[u16], stock: impl Fn(u16) -> bool) -> u32 {
    let Some(name) = NameArg::read(uc, a[1]) else {
        return 0;
    };
    let hinstance = a[0] as u16;
    let what = if hinstance == 0 {
        match name {
            NameArg::Int(id) if stock(id) => Loaded::Stock { rt: types[0], id },
            _ => return 0,
        }
    } else {
        let Some((hmodule, ne)) = image(env, hinstance) else {
            return 0;
        };
        let Some(hrsrc) = types
            .iter()
            .find_map(|&t| find(ne, &name, &NameArg::Int(t)).map(|(h, _)| h))
        else {
            return 0;
        };
        Loaded::Module { hmodule, hrsrc }
    };
    u32::from(env.win16.resources.handle(what))
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

/// USER.175 LoadBitmap(hInstance, lpszBitmap).
pub fn load_bitmap(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(load(env, uc, a, &[RT_BITMAP], |id| {
        STOCK_BITMAPS.contains(&id)
    }))
}

/// USER.150 LoadMenu(hInstance, lpszMenu).
pub fn load_menu(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(load(env, uc, a, &[RT_MENU], |_| false))
}

/// USER.177 LoadAccelerators(hInstance, lpszTableName).
pub fn load_accelerators(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(load(env, uc, a, &[RT_ACCELERATOR], |_| false))
}

#[cfg(test)]
mod tests {
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
            data: data.to_vec(),
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
    fn setup() -> (Machine, Env, u16) {
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
        assert_ne!(load_bitmap(&mut env, &mut m, &[0, 32754]).unwrap(), 0);
        assert_eq!(load_cursor(&mut env, &mut m, &[0, 1]).unwrap(), 0);
        assert_eq!(load_cursor(&mut env, &mut m, &[0x2227, 32512]).unwrap(), 0);
        assert_ne!(load_menu(&mut env, &mut m, &[0x2227, 1]).unwrap(), 0);
        assert_eq!(load_menu(&mut env, &mut m, &[0, 1]).unwrap(), 0);
        assert_eq!(
            load_accelerators(&mut env, &mut m, &[0x2227, 1]).unwrap(),
            0
        );
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
}
