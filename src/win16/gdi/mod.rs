//! GDI, headless: objects are handles with what they were created from, and
//! every drawing call is recorded as a drawing event (`--events`, "draw
//! ...") instead of touching pixels. USER's FillRect and DrawText are here
//! too, being drawing calls.

pub mod fnt;
pub mod font;
pub mod fontmap;
pub mod metafile;
pub mod text;

use super::api::{Api, Arg};
use crate::env::Env;
use crate::machine::{Stop, Uc, record_event};

/// First handle of objects the program creates; stock objects are
/// `STOCK_BASE + index`.
const OBJECT_BASE: u16 = 0x6000;
const STOCK_BASE: u16 = 0x7000;
/// Most objects a session hands out before creation fails (returns 0).
const MAX_OBJECTS: u16 = 0x0FFF;

/// GDI's state.
#[derive(Debug, Default)]
pub struct Gdi {
    /// Objects created, by handle - OBJECT_BASE: what created them.
    pub objects: Vec<String>,
    /// The object selected last into each DC, by kind (pen, brush, font...)
    /// is not tracked beyond the previous handle SelectObject returns.
    pub selected: Vec<(u16, u16)>,
    /// The fonts (font.rs): the catalogue, loaded when first needed.
    pub fonts: font::FontState,
}

fn draw(uc: &mut Uc<'_>, text: String) {
    record_event(uc, format!("draw {text}"));
}

fn color(c: u32) -> String {
    format!(
        "#{:02X}{:02X}{:02X}",
        c & 0xFF,
        (c >> 8) & 0xFF,
        (c >> 16) & 0xFF
    )
}

fn new_object(env: &mut Env, what: String) -> u32 {
    let g = &mut env.win16.gdi;
    if g.objects.len() >= usize::from(MAX_OBJECTS) {
        return 0;
    }
    g.objects.push(what);
    u32::from(OBJECT_BASE + g.objects.len() as u16 - 1)
}

fn text_arg(uc: &Uc<'_>, p: u32, count: Option<u16>) -> String {
    let (seg, off) = super::farptr::split(p);
    let bytes = match count {
        Some(n) if n != 0xFFFF => {
            let mut b = vec![0u8; usize::from(n.min(1024))];
            if crate::machine::Cpu::read_seg(uc, seg, off, &mut b).is_err() {
                b.clear();
            }
            b
        }
        _ => crate::dos::read_until(uc, seg, off, 0, 1024),
    };
    String::from_utf8_lossy(&bytes).into_owned()
}

fn i(v: u32) -> i16 {
    v as u16 as i16
}

/// GDI.87 GetStockObject(i).
fn get_stock_object(_env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let n = a[0] as u16;
    Ok(if n <= 17 {
        u32::from(STOCK_BASE + n)
    } else {
        0
    })
}

/// GDI.66 CreateSolidBrush(crColor).
fn create_solid_brush(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = new_object(env, format!("brush {}", color(a[0])));
    draw(uc, format!("CreateSolidBrush {} -> {h:04X}", color(a[0])));
    Ok(h)
}

/// GDI.61 CreatePen(nPenStyle, nWidth, crColor).
fn create_pen(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = new_object(
        env,
        format!("pen style {} width {} {}", a[0], a[1], color(a[2])),
    );
    draw(
        uc,
        format!("CreatePen {} width {} -> {h:04X}", color(a[2]), a[1]),
    );
    Ok(h)
}

/// GDI.45 SelectObject(hDC, hObject) -> the previous object of that kind.
fn select_object(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (dc, obj) = (a[0] as u16, a[1] as u16);
    let g = &mut env.win16.gdi;
    let prev = g
        .selected
        .iter()
        .rev()
        .find(|(d, _)| *d == dc)
        .map(|x| x.1)
        .unwrap_or(STOCK_BASE);
    if g.selected.len() < 4096 {
        g.selected.push((dc, obj));
    }
    draw(uc, format!("SelectObject {dc:04X} {obj:04X}"));
    Ok(u32::from(prev))
}

/// GDI.69 DeleteObject(hObject).
fn delete_object(_env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(
        a[0] as u16 >= OBJECT_BASE && (a[0] as u16) < STOCK_BASE,
    ))
}

/// GDI.27 Rectangle(hDC, left, top, right, bottom).
fn rectangle(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    draw(
        uc,
        format!(
            "Rectangle {:04X} ({}, {}, {}, {})",
            a[0],
            i(a[1]),
            i(a[2]),
            i(a[3]),
            i(a[4])
        ),
    );
    Ok(1)
}

/// GDI.24 Ellipse(hDC, left, top, right, bottom).
fn ellipse(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    draw(
        uc,
        format!(
            "Ellipse {:04X} ({}, {}, {}, {})",
            a[0],
            i(a[1]),
            i(a[2]),
            i(a[3]),
            i(a[4])
        ),
    );
    Ok(1)
}

/// GDI.36 Polygon(hDC, lpPoints, nCount).
fn polygon(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let n = (a[2] as u16).min(256);
    let (seg, off) = super::farptr::split(a[1]);
    let mut b = vec![0u8; usize::from(n) * 4];
    if crate::machine::Cpu::read_seg(uc, seg, off, &mut b).is_err() {
        return Ok(0);
    }
    let pts: Vec<String> = b
        .chunks(4)
        .map(|p| {
            format!(
                "({}, {})",
                i16::from_le_bytes([p[0], p[1]]),
                i16::from_le_bytes([p[2], p[3]])
            )
        })
        .collect();
    draw(uc, format!("Polygon {:04X} {}", a[0], pts.join(" ")));
    Ok(1)
}

/// GDI.33 TextOut(hDC, x, y, lpString, nCount).
fn text_out(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let t = text_arg(uc, a[3], Some(a[4] as u16));
    draw(
        uc,
        format!("TextOut {:04X} ({}, {}) {t:?}", a[0], i(a[1]), i(a[2])),
    );
    Ok(1)
}

/// GDI.20 MoveTo(hDC, x, y) -> the previous position (not tracked: 0,0).
fn move_to(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    draw(
        uc,
        format!("MoveTo {:04X} ({}, {})", a[0], i(a[1]), i(a[2])),
    );
    Ok(0)
}

/// GDI.19 LineTo(hDC, x, y).
fn line_to(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    draw(
        uc,
        format!("LineTo {:04X} ({}, {})", a[0], i(a[1]), i(a[2])),
    );
    Ok(1)
}

/// GDI.9 SetTextColor / GDI.1 SetBkColor (hDC, crColor) -> previous
/// (black / white).
fn set_text_color(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    draw(uc, format!("SetTextColor {:04X} {}", a[0], color(a[1])));
    Ok(0)
}
fn set_bk_color(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    draw(uc, format!("SetBkColor {:04X} {}", a[0], color(a[1])));
    Ok(0x00FF_FFFF)
}

/// GDI.2 SetBkMode(hDC, mode) -> previous (OPAQUE).
fn set_bk_mode(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(2)
}

/// GDI.80 GetDeviceCaps(hDC, nIndex): a 640x480 16-colour VGA.
fn get_device_caps(_env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(match a[1] as u16 {
        0 => 0x030A,   // DRIVERVERSION
        2 => 1,        // TECHNOLOGY: DT_RASDISPLAY
        4 => 208,      // HORZSIZE mm
        6 => 156,      // VERTSIZE mm
        8 => 640,      // HORZRES
        10 => 480,     // VERTRES
        12 => 1,       // BITSPIXEL
        14 => 4,       // PLANES
        24 => 16,      // NUMCOLORS
        88 | 90 => 96, // LOGPIXELSX/Y
        _ => 0,
    })
}

/// GDI.29 PatBlt(hDC, x, y, w, h, dwRop).
fn pat_blt(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    draw(
        uc,
        format!(
            "PatBlt {:04X} ({}, {}) {}x{} rop {:08X}",
            a[0],
            i(a[1]),
            i(a[2]),
            i(a[3]),
            i(a[4]),
            a[5]
        ),
    );
    Ok(1)
}

fn rect_at(uc: &Uc<'_>, p: u32) -> String {
    let mut b = [0u8; 8];
    let (seg, off) = super::farptr::split(p);
    if crate::machine::Cpu::read_seg(uc, seg, off, &mut b).is_err() {
        return "(?)".into();
    }
    let w = |k: usize| i16::from_le_bytes([b[k], b[k + 1]]);
    format!("({}, {}, {}, {})", w(0), w(2), w(4), w(6))
}

/// USER.81 FillRect(hDC, lpRect, hBrush).
fn fill_rect(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let r = rect_at(uc, a[1]);
    draw(uc, format!("FillRect {:04X} {r} brush {:04X}", a[0], a[2]));
    Ok(1)
}

/// USER.85 DrawText(hDC, lpString, nCount, lpRect, wFormat) -> height.
fn draw_text(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let t = text_arg(uc, a[1], Some(a[2] as u16));
    let r = rect_at(uc, a[3]);
    draw(
        uc,
        format!("DrawText {:04X} {r} {t:?} format {:04X}", a[0], a[4]),
    );
    Ok(16)
}

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new("GDI", 1, "SETBKCOLOR", &[Arg::W, Arg::L], set_bk_color),
    Api::new("GDI", 2, "SETBKMODE", &[Arg::W, Arg::W], set_bk_mode),
    Api::new("GDI", 9, "SETTEXTCOLOR", &[Arg::W, Arg::L], set_text_color),
    Api::new("GDI", 19, "LINETO", &[Arg::W, Arg::W, Arg::W], line_to),
    Api::new("GDI", 20, "MOVETO", &[Arg::W, Arg::W, Arg::W], move_to),
    Api::new(
        "GDI",
        24,
        "ELLIPSE",
        &[Arg::W, Arg::W, Arg::W, Arg::W, Arg::W],
        ellipse,
    ),
    Api::new(
        "GDI",
        27,
        "RECTANGLE",
        &[Arg::W, Arg::W, Arg::W, Arg::W, Arg::W],
        rectangle,
    ),
    Api::new(
        "GDI",
        29,
        "PATBLT",
        &[Arg::W, Arg::W, Arg::W, Arg::W, Arg::W, Arg::L],
        pat_blt,
    ),
    Api::new(
        "GDI",
        33,
        "TEXTOUT",
        &[Arg::W, Arg::W, Arg::W, Arg::L, Arg::W],
        text_out,
    ),
    Api::new("GDI", 36, "POLYGON", &[Arg::W, Arg::L, Arg::W], polygon),
    Api::new("GDI", 45, "SELECTOBJECT", &[Arg::W, Arg::W], select_object),
    Api::new(
        "GDI",
        61,
        "CREATEPEN",
        &[Arg::W, Arg::W, Arg::L],
        create_pen,
    ),
    Api::new("GDI", 66, "CREATESOLIDBRUSH", &[Arg::L], create_solid_brush),
    Api::new("GDI", 69, "DELETEOBJECT", &[Arg::W], delete_object),
    Api::new(
        "GDI",
        80,
        "GETDEVICECAPS",
        &[Arg::W, Arg::W],
        get_device_caps,
    ),
    Api::new("GDI", 87, "GETSTOCKOBJECT", &[Arg::W], get_stock_object),
    Api::new("USER", 81, "FILLRECT", &[Arg::W, Arg::L, Arg::W], fill_rect),
    Api::new(
        "USER",
        85,
        "DRAWTEXT",
        &[Arg::W, Arg::L, Arg::W, Arg::L, Arg::W],
        draw_text,
    ),
];
