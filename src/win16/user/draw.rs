//! What USER draws itself: icons (DrawIcon, and a minimized window's
//! class icon) and the focus rectangle (DrawFocusRect).
//!
//! **Icons** (SDK, DrawIcon and the icon resource formats): LoadIcon's
//! handle names an icon group (RT_GROUP_ICON: a directory of images, each
//! with its width, height and colour count) or one image (RT_ICON). For the
//! VGA display the image used is the 32×32 16-colour one (else the nearest
//! in size, then the most colours up to 16). An image is a
//! BITMAPINFOHEADER whose height counts both masks, its colour table, the
//! XOR bitmap and the monochrome AND mask, both bottom-up with rows padded
//! to 32 bits. DrawIcon puts it at (x, y) in the DC's logical coordinates,
//! one device pixel per icon pixel: where the AND bit is 0 the XOR colour
//! replaces the screen, where it is 1 the XOR colour is XORed onto the
//! screen (black leaves it, white inverts it).
//!
//! The predefined icons (IDI_APPLICATION, IDI_HAND, IDI_QUESTION,
//! IDI_EXCLAMATION, IDI_ASTERISK) are drawn as simple pictures of their
//! kind (a window; a red disc; a blue question mark's disc; a yellow
//! triangle; a blue "i" disc), not Windows' bitmaps.
//!
//! **DrawFocusRect** (SDK: "draws a rectangle in the style used to
//! indicate focus … by using an XOR operation; calling it a second time
//! with the same rectangle removes it"): the rectangle's one-pixel outline,
//! every other pixel of it inverted (Windows uses a 50% grey pattern with
//! PATINVERT, the pattern aligned to the screen).

use super::{Env, Point, Rect, Stop, Uc, read_rect};
use crate::win16::api::{Api, Arg};
use crate::win16::gdi::dc::Canvas;
use crate::win16::gdi::raster::Paint;
use crate::win16::resource::{LoadedResource, RT_ICON, loaded, resource_by_id, resource_bytes};

/// R2_COPYPEN and R2_NOT.
const R2_COPYPEN: u16 = 13;
const R2_NOT: u16 = 6;

/// A decoded icon image: width, height, and per pixel the AND bit and the
/// XOR colour (COLORREF).
pub struct IconImage {
    pub width: i32,
    pub height: i32,
    pub pixels: Vec<(bool, u32)>,
}

/// Pick the image for the VGA display from an icon group directory
/// (module doc): its RT_ICON id.
fn pick_from_group(dir: &[u8]) -> Option<u16> {
    let get = |o: usize| dir.get(o..o + 2).map(|b| u16::from_le_bytes([b[0], b[1]]));
    let count = usize::from(get(4)?);
    let mut best: Option<(i32, u16)> = None;
    for i in 0..count.min(64) {
        let e = 6 + i * 14;
        let (w, h, colors) = (
            i32::from(*dir.get(e)?),
            i32::from(*dir.get(e + 1)?),
            i32::from(*dir.get(e + 2)?),
        );
        let bits = get(e + 6).unwrap_or(0);
        let id = get(e + 12)?;
        let w = if w == 0 { 256 } else { w };
        let h = if h == 0 { 256 } else { h };
        let ncolors = if colors == 0 {
            if bits >= 8 { 256 } else { 1 << bits.min(8) }
        } else {
            colors
        };
        // Nearest to 32×32 first, then 16 colours, then fewer rather than
        // more.
        let size = (w - 32).abs() + (h - 32).abs();
        let colour = if ncolors == 16 {
            0
        } else if ncolors < 16 {
            16 - ncolors
        } else {
            ncolors
        };
        let score = size * 1000 + colour;
        if best.is_none_or(|(s, _)| score < s) {
            best = Some((score, id));
        }
    }
    best.map(|(_, id)| id)
}

/// Decode an icon image (module doc).
pub fn decode_image(b: &[u8]) -> Option<IconImage> {
    let d32 = |o: usize| {
        b.get(o..o + 4)
            .map(|x| u32::from_le_bytes([x[0], x[1], x[2], x[3]]))
    };
    let d16 = |o: usize| b.get(o..o + 2).map(|x| u16::from_le_bytes([x[0], x[1]]));
    let size = d32(0)? as usize;
    if size != 40 {
        return None;
    }
    let width = d32(4)? as i32;
    let height = d32(8)? as i32 / 2;
    let bits = u32::from(d16(14)?);
    if !(1..=128).contains(&width) || !(1..=128).contains(&height) {
        return None;
    }
    let used = d32(32).unwrap_or(0);
    let ncolors = match bits {
        1 | 4 | 8 => {
            if used != 0 {
                used.min(1 << bits)
            } else {
                1 << bits
            }
        }
        24 | 32 => 0,
        _ => return None,
    } as usize;
    let table: Vec<u32> = (0..ncolors)
        .map(|i| {
            let o = size + i * 4;
            b.get(o..o + 3).map_or(0, |q| {
                u32::from(q[2]) | u32::from(q[1]) << 8 | u32::from(q[0]) << 16
            })
        })
        .collect();
    let xor_at = size + ncolors * 4;
    let xor_row = ((width as u32 * bits).div_ceil(32) * 4) as usize;
    let and_at = xor_at + xor_row * height as usize;
    let and_row = (width as u32).div_ceil(32) as usize * 4;
    let mut pixels = Vec::with_capacity((width * height) as usize);
    for y in 0..height {
        // Bottom-up rows.
        let r = (height - 1 - y) as usize;
        for x in 0..width {
            let xu = x as usize;
            let row = xor_at + r * xor_row;
            let color = match bits {
                1 | 4 | 8 => {
                    let bit = xu * bits as usize;
                    let byte = *b.get(row + bit / 8).unwrap_or(&0);
                    let shift = 8 - bits as usize - bit % 8;
                    let idx = (byte >> shift) as usize & ((1 << bits) - 1);
                    table.get(idx).copied().unwrap_or(0)
                }
                _ => {
                    let step = bits as usize / 8;
                    let o = row + xu * step;
                    b.get(o..o + 3).map_or(0, |q| {
                        u32::from(q[2]) | u32::from(q[1]) << 8 | u32::from(q[0]) << 16
                    })
                }
            };
            let abyte = *b.get(and_at + r * and_row + xu / 8).unwrap_or(&0);
            let and = abyte >> (7 - xu % 8) & 1 != 0;
            pixels.push((and, color));
        }
    }
    Some(IconImage {
        width,
        height,
        pixels,
    })
}

/// A predefined icon's picture (module doc).
pub fn stock_image(id: u16) -> IconImage {
    const WHITE: u32 = 0xFF_FFFF;
    const BLACK: u32 = 0;
    let (w, h) = (32, 32);
    let mut pixels = vec![(true, BLACK); (w * h) as usize];
    let mut set = |x: i32, y: i32, c: u32| {
        if (0..w).contains(&x) && (0..h).contains(&y) {
            pixels[(y * w + x) as usize] = (false, c);
        }
    };
    let disc = |set: &mut dyn FnMut(i32, i32, u32), fill: u32| {
        for y in 0..32 {
            for x in 0..32 {
                let (dx, dy) = (2 * x - 31, 2 * y - 31);
                let d = dx * dx + dy * dy;
                if d <= 30 * 30 {
                    set(x, y, if d >= 27 * 27 { BLACK } else { fill });
                }
            }
        }
    };
    match id {
        // IDI_HAND: a red disc with a white bar.
        32513 => {
            disc(&mut set, 0x00_00FF);
            for y in 13..19 {
                for x in 7..25 {
                    set(x, y, WHITE);
                }
            }
        }
        // IDI_QUESTION and IDI_ASTERISK: a blue disc with a white mark.
        32514 | 32516 => {
            disc(&mut set, 0xFF_0000);
            for y in 8..24 {
                for x in 14..18 {
                    if y != 19 && y != 20 || id == 32516 {
                        set(x, y, WHITE);
                    }
                }
            }
        }
        // IDI_EXCLAMATION: a yellow triangle with a black mark.
        32515 => {
            for y in 2..30 {
                let half = (y - 2) / 2 + 1;
                for x in 16 - half..16 + half {
                    let edge = x == 16 - half || x == 15 + half || y == 29;
                    set(x, y, if edge { BLACK } else { 0x00_FFFF });
                }
            }
            for y in 10..27 {
                if y != 23 && y != 24 {
                    set(15, y, BLACK);
                    set(16, y, BLACK);
                }
            }
        }
        // IDI_APPLICATION: a window, blue caption on white.
        _ => {
            for y in 2..30 {
                for x in 2..30 {
                    let edge = x == 2 || x == 29 || y == 2 || y == 29;
                    let caption = (3..8).contains(&y);
                    set(
                        x,
                        y,
                        if edge {
                            BLACK
                        } else if caption {
                            0x80_0000
                        } else {
                            WHITE
                        },
                    );
                }
            }
        }
    }
    IconImage {
        width: w,
        height: h,
        pixels,
    }
}

/// The image of an icon handle from LoadIcon.
pub fn icon_image(env: &Env, hicon: u16) -> Option<IconImage> {
    match loaded(env, hicon)? {
        LoadedResource::Stock { id, .. } => Some(stock_image(id)),
        LoadedResource::Module { hmodule, hrsrc } => {
            let data = resource_bytes(env, hmodule, hrsrc)?;
            if data.len() >= 4 && data[..4] == [40, 0, 0, 0] {
                return decode_image(data);
            }
            let id = pick_from_group(data)?;
            decode_image(resource_by_id(env, hmodule, RT_ICON, id)?)
        }
    }
}

/// Draw icon `hicon` with its top left corner at logical (x, y) of DC
/// `hdc`. False when either handle is bad.
pub fn draw_icon(env: &mut Env, hdc: u16, x: i32, y: i32, hicon: u16) -> bool {
    let Some(img) = icon_image(env, hicon) else {
        return false;
    };
    draw_image(env, hdc, x, y, &img)
}

/// Draw icon image `img` with its top left corner at logical (x, y) of DC
/// `hdc` (module doc). False for a bad DC.
pub fn draw_image(env: &mut Env, hdc: u16, x: i32, y: i32, img: &IconImage) -> bool {
    let gdi = &mut env.win16.gdi;
    let Some(mut cv) = Canvas::open(gdi, hdc) else {
        return false;
    };
    let at = cv.lp_to_sp(Point::new(x, y));
    let invert = Paint::solid(0, R2_NOT);
    for py in 0..img.height {
        for px in 0..img.width {
            let (and, color) = img.pixels[(py * img.width + px) as usize];
            let (sx, sy) = (at.x + px, at.y + py);
            if !and {
                let p = Paint::solid(cv.colors().solid(color), R2_COPYPEN);
                cv.plot(sx, sy, &p);
            } else if color & 0xFF_FFFF == 0xFF_FFFF {
                cv.plot(sx, sy, &invert);
            }
        }
    }
    cv.close(gdi);
    true
}

/// USER.84 DrawIcon(hDC, x, y, hIcon) -> BOOL.
pub fn draw_icon_api(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (x, y) = (i32::from(a[1] as u16 as i16), i32::from(a[2] as u16 as i16));
    Ok(u32::from(draw_icon(env, a[0] as u16, x, y, a[3] as u16)))
}

/// Draw the focus rectangle `r` (logical coordinates) on DC `hdc`.
pub fn draw_focus_rect(env: &mut Env, hdc: u16, r: Rect) -> bool {
    let gdi = &mut env.win16.gdi;
    let Some(mut cv) = Canvas::open(gdi, hdc) else {
        return false;
    };
    let a = cv.lp_to_sp(Point::new(r.left, r.top));
    let b = cv.lp_to_sp(Point::new(r.right, r.bottom));
    let s = Rect::new(a.x.min(b.x), a.y.min(b.y), a.x.max(b.x), a.y.max(b.y));
    if !s.is_empty() {
        let invert = Paint::solid(0, R2_NOT);
        let dot = |cv: &mut Canvas, x: i32, y: i32| {
            if (x + y) % 2 == 0 {
                cv.plot(x, y, &invert);
            }
        };
        for x in s.left..s.right {
            dot(&mut cv, x, s.top);
            if s.bottom - 1 > s.top {
                dot(&mut cv, x, s.bottom - 1);
            }
        }
        for y in s.top + 1..s.bottom - 1 {
            dot(&mut cv, s.left, y);
            if s.right - 1 > s.left {
                dot(&mut cv, s.right - 1, y);
            }
        }
    }
    cv.close(gdi);
    true
}

/// USER.466 DrawFocusRect(hDC, lpRect).
pub fn draw_focus_rect_api(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if let Some(r) = read_rect(uc, a[1]) {
        draw_focus_rect(env, a[0] as u16, r);
    }
    Ok(0)
}

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new(
        "USER",
        84,
        "DRAWICON",
        &[Arg::W, Arg::W, Arg::W, Arg::W],
        draw_icon_api,
    ),
    Api::new(
        "USER",
        466,
        "DRAWFOCUSRECT",
        &[Arg::W, Arg::L],
        draw_focus_rect_api,
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(super::APIS));
    }

    #[test]
    fn a_4bpp_icon_decodes_bottom_up_with_its_mask() {
        // 32×32, 4 bits: header, 16 colours, XOR 32 rows × 16 bytes, AND 32
        // rows × 4 bytes.
        let mut b = vec![0u8; 40 + 64 + 512 + 128];
        b[0] = 40;
        b[4] = 32;
        b[8] = 64;
        b[12] = 1;
        b[14] = 4;
        // Colour 1: red (RGBQUAD blue, green, red).
        b[40 + 4 + 2] = 0xFF;
        // The bottom row (stored first): pixel 0 colour 1.
        b[104] = 0x10;
        // The AND mask: the top row (stored last) all transparent.
        for i in 0..4 {
            b[104 + 512 + 31 * 4 + i] = 0xFF;
        }
        let img = decode_image(&b).unwrap();
        assert_eq!((img.width, img.height), (32, 32));
        assert_eq!(img.pixels[31 * 32], (false, 0x0000FF));
        assert_eq!(img.pixels[0], (true, 0));
        assert_eq!(img.pixels[1], (true, 0));
        assert_eq!(img.pixels[32], (false, 0));
    }

    #[test]
    fn the_vga_image_of_a_group_is_32_by_32_in_16_colours() {
        let mut dir = vec![0, 0, 1, 0, 3, 0];
        for (w, colors, bits, id) in [(16u8, 16u8, 4u16, 1u16), (32, 2, 1, 2), (32, 16, 4, 3)] {
            dir.extend_from_slice(&[w, w, colors, 0, 1, 0]);
            dir.extend_from_slice(&bits.to_le_bytes());
            dir.extend_from_slice(&[0, 0, 0, 0]);
            dir.extend_from_slice(&id.to_le_bytes());
        }
        assert_eq!(pick_from_group(&dir), Some(3));
    }
}
