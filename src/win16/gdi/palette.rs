//! Logical palettes and the palette manager.
//!
//! A logical palette (CreatePalette from a LOGPALETTE: WORD palVersion
//! (0x300), WORD palNumEntries, PALETTEENTRY[] of BYTE peRed, peGreen,
//! peBlue, peFlags) is selected into a DC (SelectPalette, USER.282, which
//! calls GDI.361) and realized (RealizePalette, USER.283 → GDI.362): on a
//! palette device (the 256-colour display) each entry is given a slot of
//! the system palette — a static colour equal to it, else a free slot of
//! the 236 between the static ones (PC_NOCOLLAPSE entries always take a
//! free slot; PC_EXPLICIT entries name a slot), else the nearest colour
//! already there. RealizePalette returns how many entries it mapped. On
//! the VGA (no palette manager) realizing maps nothing and returns 0;
//! PALETTEINDEX colours then draw as their entries' RGB matched to the
//! VGA's colours. DEFAULT_PALETTE holds the 20 static colours.
//!
//! A palette selected as a foreground palette (GDISelectPalette's wBkg
//! FALSE; USER's SelectPalette passes that only for a DC of the active
//! window, its descendants, or no window) becomes GDI's *primary* palette;
//! IsDCCurrentPalette asks whether a DC holds it. USER's two
//! (SelectPalette, RealizePalette) are in user/palette.rs: which window a
//! DC belongs to and which window is active are USER's to know.

use super::color::{STATIC_COLORS, nearest_in, static_slot};
use super::{Env, Stop, Uc, arg_h, write_struct};
use crate::win16::api::{Api, Arg};
use crate::win16::farptr::read_bytes;

pub const PC_RESERVED: u8 = 1;
pub const PC_EXPLICIT: u8 = 2;
pub const PC_NOCOLLAPSE: u8 = 4;

/// A logical palette.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Palette {
    /// Red, green, blue, flags.
    pub entries: Vec<[u8; 4]>,
    /// The system palette slot of each entry once realized (empty before).
    pub mapping: Vec<u8>,
}

impl Palette {
    /// DEFAULT_PALETTE: the 20 static colours, already in their slots.
    pub fn default_palette() -> Palette {
        Palette {
            entries: STATIC_COLORS
                .iter()
                .map(|&c| [c as u8, (c >> 8) as u8, (c >> 16) as u8, 0])
                .collect(),
            mapping: (0..20).map(static_slot).collect(),
        }
    }

    /// Entry `i` as a COLORREF.
    pub fn rgb(&self, i: usize) -> u32 {
        self.entries.get(i).map_or(0, |e| {
            u32::from(e[0]) | u32::from(e[1]) << 8 | u32::from(e[2]) << 16
        })
    }

    /// The entry nearest to an RGB (GetNearestPaletteIndex).
    pub fn nearest(&self, c: u32) -> usize {
        let table: Vec<u32> = (0..self.entries.len()).map(|i| self.rgb(i)).collect();
        nearest_in(&table, c)
    }

    /// The system slot of entry `i`: its realized slot, else the nearest
    /// colour of the system palette.
    pub fn system_index(&self, i: usize, syspal: &[u32; 256]) -> u8 {
        match self.mapping.get(i) {
            Some(&s) => s,
            None => nearest_in(syspal, self.rgb(i)) as u8,
        }
    }
}

/// Realize `pal` into the system palette `sys` (`used` marks the slots
/// other palettes took): the number of entries given a new slot.
pub fn realize(pal: &mut Palette, sys: &mut [u32; 256], used: &mut [bool; 256]) -> u32 {
    let mut mapped = 0;
    let mut mapping = Vec::with_capacity(pal.entries.len());
    for i in 0..pal.entries.len() {
        let c = pal.rgb(i);
        let flags = pal.entries[i][3];
        let slot = if flags & PC_EXPLICIT != 0 {
            // The low word of the entry names a slot.
            (u16::from(pal.entries[i][0]) | u16::from(pal.entries[i][1]) << 8) as u8
        } else if let Some(s) = (flags & PC_NOCOLLAPSE == 0)
            .then(|| (0..256).find(|&s| (!(10..246).contains(&s) || used[s]) && sys[s] == c))
            .flatten()
        {
            s as u8
        } else if let Some(s) = (10..246).find(|&s| !used[s]) {
            used[s] = true;
            sys[s] = c;
            mapped += 1;
            s as u8
        } else {
            nearest_in(sys, c) as u8
        };
        mapping.push(slot);
    }
    pal.mapping = mapping;
    mapped
}

fn entries_bytes(p: &Palette, start: usize, n: usize) -> Vec<u8> {
    p.entries
        .iter()
        .skip(start)
        .take(n)
        .flat_map(|e| e.iter().copied())
        .collect()
}

/// GDI.360 CreatePalette(lpLogPalette) -> HPALETTE (0 for a version other
/// than 0x300 or no entries).
fn create_palette(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(h) = read_bytes(uc, a[0], 4) else {
        return Ok(0);
    };
    let (ver, n) = (
        u16::from_le_bytes([h[0], h[1]]),
        usize::from(u16::from_le_bytes([h[2], h[3]])),
    );
    if ver != 0x300 || n == 0 || n > 1024 {
        return Ok(0);
    }
    let Some(b) = read_bytes(uc, crate::win16::farptr::add(a[0], 4), n * 4) else {
        return Ok(0);
    };
    let entries = b.chunks(4).map(|e| [e[0], e[1], e[2], e[3]]).collect();
    let p = super::objects::Obj::Palette(Box::new(Palette {
        entries,
        mapping: Vec::new(),
    }));
    Ok(super::objects::create(&mut env.win16, uc, p).map_or(0, u32::from))
}

/// GDI.363 GetPaletteEntries(hPalette, wStart, wNumEntries, lpEntries) ->
/// entries copied.
fn get_palette_entries(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(p) = env.win16.gdi.objects.palette(arg_h(a[0])) else {
        return Ok(0);
    };
    let b = entries_bytes(p, a[1] as u16 as usize, a[2] as u16 as usize);
    if b.is_empty() || !write_struct(uc, a[3], &b) {
        return Ok(0);
    }
    Ok((b.len() / 4) as u32)
}

/// GDI.364 SetPaletteEntries(hPalette, wStart, wNumEntries, lpEntries) ->
/// entries set.
fn set_palette_entries(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = arg_h(a[0]);
    if env.win16.gdi.objects.is_stock(h) {
        return Ok(0);
    }
    let Some(p) = env.win16.gdi.objects.palette(h) else {
        return Ok(0);
    };
    let start = a[1] as u16 as usize;
    let n = (a[2] as u16 as usize).min(p.entries.len().saturating_sub(start));
    if n == 0 {
        return Ok(0);
    }
    let Some(b) = read_bytes(uc, a[3], n * 4) else {
        return Ok(0);
    };
    let p = env.win16.gdi.objects.palette_mut(h).expect("checked");
    for (k, e) in b.chunks(4).enumerate() {
        p.entries[start + k] = [e[0], e[1], e[2], e[3]];
    }
    p.mapping.clear();
    // The block's LOGPALETTE follows (gdi/heap.rs).
    super::heap::sync(&mut env.win16, uc, h);
    Ok(n as u32)
}

/// GDI.368 ResizePalette(hPalette, nNumEntries) -> BOOL: new entries are
/// black; FALSE, the palette unchanged, when GDI's heap cannot hold the
/// larger block (gdi/heap.rs).
fn resize_palette(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = arg_h(a[0]);
    let n = a[1] as u16 as usize;
    if env.win16.gdi.objects.is_stock(h) || n == 0 || n > 1024 {
        return Ok(0);
    }
    let Some(p) = env.win16.gdi.objects.palette_mut(h) else {
        return Ok(0);
    };
    let old = p.clone();
    p.entries.resize(n, [0; 4]);
    p.mapping.clear();
    if super::heap::sync(&mut env.win16, uc, h) {
        return Ok(1);
    }
    if let Some(p) = env.win16.gdi.objects.palette_mut(h) {
        *p = old;
    }
    Ok(0)
}

/// GDI.367 AnimatePalette(hPalette, wStart, wNumEntries, lpEntries):
/// replaces PC_RESERVED entries (and their system slots when realized).
fn animate_palette(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = arg_h(a[0]);
    let start = a[1] as u16 as usize;
    let gdi = &mut env.win16.gdi;
    let Some(p) = gdi.objects.palette(h) else {
        return Ok(0);
    };
    let n = (a[2] as u16 as usize).min(p.entries.len().saturating_sub(start));
    let Some(b) = read_bytes(uc, a[3], n * 4) else {
        return Ok(0);
    };
    let p = gdi.objects.palette_mut(h).expect("checked");
    let mut changed = Vec::new();
    for (k, e) in b.chunks(4).enumerate() {
        let i = start + k;
        if p.entries[i][3] & PC_RESERVED != 0 {
            p.entries[i] = [e[0], e[1], e[2], p.entries[i][3]];
            if let Some(&s) = p.mapping.get(i) {
                changed.push((s, p.rgb(i)));
            }
        }
    }
    for (s, c) in changed {
        gdi.syspal[usize::from(s)] = c;
    }
    super::heap::sync(&mut env.win16, uc, h);
    Ok(1)
}

/// GDI.370 GetNearestPaletteIndex(hPalette, crColor) -> index.
fn get_nearest_palette_index(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(env
        .win16
        .gdi
        .objects
        .palette(arg_h(a[0]))
        .filter(|p| !p.entries.is_empty())
        .map_or(0, |p| p.nearest(a[1] & 0x00FF_FFFF) as u32))
}

/// GDI.361 GDISelectPalette(hDC, hPalette, wBkg) -> the previous palette,
/// 0 for a bad handle. With wBkg FALSE the palette becomes GDI's primary
/// (foreground) palette, the one IsDCCurrentPalette compares with.
pub fn select_palette(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hdc, h) = (arg_h(a[0]), arg_h(a[1]));
    let gdi = &mut env.win16.gdi;
    if gdi.objects.palette(h).is_none() {
        return Ok(0);
    }
    let Some(dc) = gdi.dc_mut(hdc) else {
        return Ok(0);
    };
    let prev = dc.state.palette;
    dc.state.palette = h;
    if a[2] as u16 == 0 {
        gdi.primary_palette = h;
    }
    Ok(u32::from(prev))
}

/// GDI.412 IsDCCurrentPalette(hDC) (undocumented; GDI 3.1 as Wine's notes
/// describe it) -> TRUE when the palette selected in hDC is the primary
/// palette, the last one selected as a foreground palette; FALSE for a
/// bad handle.
fn is_dc_current_palette(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let gdi = &env.win16.gdi;
    Ok(gdi.dc(arg_h(a[0])).map_or(0, |d| {
        u32::from(gdi.primary_palette != 0 && d.state.palette == gdi.primary_palette)
    }))
}

/// USER.283 RealizePalette / GDI.362 GDIRealizePalette(hDC) -> entries
/// mapped to new system slots.
pub fn realize_palette(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let gdi = &mut env.win16.gdi;
    let Some(dc) = gdi.dc_mut(arg_h(a[0])) else {
        return Ok(0);
    };
    let palette_device = dc.format() == super::surface::Format::Pal8;
    let h = dc.state.palette;
    if !palette_device {
        return Ok(0);
    }
    let mut sys = gdi.syspal;
    let mut used = gdi.syspal_used;
    let Some(p) = gdi.objects.palette_mut(h) else {
        return Ok(0);
    };
    let n = realize(p, &mut sys, &mut used);
    gdi.syspal = sys;
    gdi.syspal_used = used;
    Ok(n)
}

/// GDI.365 RealizeDefaultPalette(hDC): the system palette's free slots are
/// given back.
fn realize_default_palette(env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    let gdi = &mut env.win16.gdi;
    gdi.syspal_used = [false; 256];
    Ok(0)
}

/// GDI.366 UpdateColors(hDC): the screen's pixels already name system
/// slots; nothing to redo.
fn update_colors(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(0)
}

/// GDI.375 GetSystemPaletteEntries(hDC, wStart, wNumEntries, lpEntries) ->
/// entries copied (0 on a device without a palette).
fn get_system_palette_entries(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let gdi = &mut env.win16.gdi;
    let Some(dc) = gdi.dc_mut(arg_h(a[0])) else {
        return Ok(0);
    };
    if dc.format() != super::surface::Format::Pal8 {
        return Ok(0);
    }
    let start = (a[1] as u16 as usize).min(256);
    let n = (a[2] as u16 as usize).min(256 - start);
    let b: Vec<u8> = gdi.syspal[start..start + n]
        .iter()
        .flat_map(|&c| [c as u8, (c >> 8) as u8, (c >> 16) as u8, 0])
        .collect();
    if b.is_empty() || !write_struct(uc, a[3], &b) {
        return Ok(0);
    }
    Ok(n as u32)
}

/// GDI.373 SetSystemPaletteUse(hDC, wUsage) -> the previous (SYSPAL_STATIC
/// 1; SYSPAL_NOSTATIC 2 is remembered but the static colours stay).
fn set_system_palette_use(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let gdi = &mut env.win16.gdi;
    let prev = gdi.syspal_use;
    if matches!(a[1] as u16, 1 | 2) {
        gdi.syspal_use = a[1] as u16;
    }
    Ok(u32::from(prev))
}

/// GDI.374 GetSystemPaletteUse(hDC).
fn get_system_palette_use(env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(env.win16.gdi.syspal_use))
}

/// GDI.154 GetNearestColor(hDC, crColor) -> the colour the device shows
/// for it (a solid colour, as a pen draws it).
fn get_nearest_color(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let gdi = &mut env.win16.gdi;
    let hdc = arg_h(a[0]);
    let Some(c) = gdi.colors_of(hdc).map(|c| c.to_rgb(c.solid(a[1]))) else {
        return Ok(0x8000_0000);
    };
    Ok(c)
}

pub static APIS: &[Api] = &[
    Api::new(
        "GDI",
        154,
        "GETNEARESTCOLOR",
        &[Arg::W, Arg::L],
        get_nearest_color,
    ),
    Api::new("GDI", 360, "CREATEPALETTE", &[Arg::L], create_palette),
    Api::new(
        "GDI",
        361,
        "GDISELECTPALETTE",
        &[Arg::W, Arg::W, Arg::W],
        select_palette,
    ),
    Api::new("GDI", 362, "GDIREALIZEPALETTE", &[Arg::W], realize_palette),
    Api::new(
        "GDI",
        412,
        "ISDCCURRENTPALETTE",
        &[Arg::W],
        is_dc_current_palette,
    ),
    Api::new(
        "GDI",
        363,
        "GETPALETTEENTRIES",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        get_palette_entries,
    ),
    Api::new(
        "GDI",
        364,
        "SETPALETTEENTRIES",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        set_palette_entries,
    ),
    Api::new(
        "GDI",
        365,
        "REALIZEDEFAULTPALETTE",
        &[Arg::W],
        realize_default_palette,
    ),
    Api::new("GDI", 366, "UPDATECOLORS", &[Arg::W], update_colors),
    Api::new(
        "GDI",
        367,
        "ANIMATEPALETTE",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        animate_palette,
    ),
    Api::new(
        "GDI",
        368,
        "RESIZEPALETTE",
        &[Arg::W, Arg::W],
        resize_palette,
    ),
    Api::new(
        "GDI",
        370,
        "GETNEARESTPALETTEINDEX",
        &[Arg::W, Arg::L],
        get_nearest_palette_index,
    ),
    Api::new(
        "GDI",
        373,
        "SETSYSTEMPALETTEUSE",
        &[Arg::W, Arg::W],
        set_system_palette_use,
    ),
    Api::new(
        "GDI",
        374,
        "GETSYSTEMPALETTEUSE",
        &[Arg::W],
        get_system_palette_use,
    ),
    Api::new(
        "GDI",
        375,
        "GETSYSTEMPALETTEENTRIES",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        get_system_palette_entries,
    ),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::win16::gdi::color::{default_system_palette, rgb};

    #[test]
    fn realizing_takes_free_slots_and_reuses_static_colours() {
        let mut sys = default_system_palette();
        let mut used = [false; 256];
        let mut p = Palette {
            entries: vec![[0xFF, 0, 0, 0], [1, 2, 3, 0], [1, 2, 3, PC_NOCOLLAPSE]],
            mapping: Vec::new(),
        };
        assert_eq!(realize(&mut p, &mut sys, &mut used), 2);
        // Red is static colour 13: slot 249.
        assert_eq!(p.mapping[0], 249);
        assert_eq!(p.mapping[1], 10);
        assert_eq!(p.mapping[2], 11);
        assert_eq!(sys[10], rgb(1, 2, 3));
        // Realized again: the colour is found where it is.
        let mut q = Palette {
            entries: vec![[1, 2, 3, 0]],
            mapping: Vec::new(),
        };
        assert_eq!(realize(&mut q, &mut sys, &mut used), 0);
        assert_eq!(q.mapping[0], 10);
        assert_eq!(Palette::default_palette().nearest(rgb(250, 250, 250)), 19);
    }
}
