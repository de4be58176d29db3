//! Fonts: the structures programs see (LOGFONT, TEXTMETRIC, NEWTEXTMETRIC,
//! ENUMLOGFONT), the catalogue of raster fonts loaded from `.FON` files,
//! and physical fonts — a font resource as realised for a request, with
//! GDI's integer scaling and its bold, italic, underline and strike-out
//! simulations.
//!
//! # Where the fonts come from
//!
//! A `.FON` file is a resource-only NE module (no segments) whose FONT
//! resources (type 8) are FNT fonts (fnt.rs) and whose FONTDIR resource
//! (type 7) lists them. Windows 3.1's VGA setup installed these files; the
//! catalogue looks for the same names, each in the first directory of the
//! search path that has it:
//!
//! 1. the `--fonts DIR` option,
//! 2. the directories of the `TOOLHELP16_FONTS` environment variable
//!    (separated as `PATH` is) when it is set — they *replace* the next
//!    one, so `TOOLHELP16_FONTS=` (empty) means "no system fonts",
//! 3. otherwise `/usr/share/wine/fonts` (Debian's `fonts-wine`: Wine's
//!    own LGPL recreations of the Windows raster fonts, with the same
//!    face names and VGA metrics; `./x` installs it).
//!
//! Of every file only the resources designed for the VGA's 96 × 96 dpi are
//! taken, as Windows chose the font files matching the display's
//! resolution (GetDeviceCaps LOGPIXELSX/Y = 96 for VGA).
//!
//! Without any System font file the catalogue still has a System face:
//! the VGA System font's documented metrics (Petzold, *Programming
//! Windows 3.1*, chapter 2, figure 2-3: cell 16 pixels, ascent 13,
//! descent 3, internal leading 3, no external leading, average width 7,
//! widest character 14), every character as wide as the average, and no
//! glyph bits. GetTextMetrics then answers as Windows did; text widths are
//! approximations and text draws as nothing but its background. The
//! catalogue says so in a warning (`Program::font_warnings`, printed by
//! the CLI on stderr) — it never pretends silently.
//!
//! # Physical fonts
//!
//! A [`PhysFont`] is a font resource as the font mapper (fontmap.rs)
//! realised it for a LOGFONT:
//!
//! - **integer scaling**: GDI enlarges a raster font only by whole
//!   multiples, duplicating rows and columns (Petzold, chapter 14: "in
//!   integral multiples only and within certain limits"); every height
//!   metric is multiplied by the vertical factor, every width by the
//!   horizontal one;
//! - **bold**: GDI draws the string twice, the second time one pixel to
//!   the right, so the ink of each character is a pixel wider; the advance
//!   widths stay those of the font and the string's extent grows by the
//!   overhang, 1 (KB Q74298, "Calculating Text Extents of Bold and Italic
//!   Text");
//! - **italic**: GDI shears the glyphs, the top sheared past the bottom by
//!   tmOverhang (SDK, TEXTMETRIC); the advances stay, the extent grows by
//!   the overhang. The shear here is one pixel per four rows, the bottom
//!   row unmoved — so tmOverhang = (tmHeight - 1) / 4; the amount is this
//!   project's choice, the rule (extent = sum of advances + overhang) is
//!   the KB's;
//! - **underline and strike-out**: a line one pixel (times the vertical
//!   factor) high across each character's advance, the underline on the
//!   second row below the baseline (the first when the font has only one
//!   row of descent), the strike-out a third of the way from the baseline
//!   up to the top of the capitals (tmAscent - tmInternalLeading).
//!
//! # The functions here
//!
//! AddFontResource/RemoveFontResource (a `.FON` of the program's
//! sandbox, counted as Windows counted additions), EnumFonts and
//! EnumFontFamilies (callbacks with LOGFONT + TEXTMETRIC or ENUMLOGFONT +
//! NEWTEXTMETRIC copies on the stack, RASTER_FONTTYPE), and Windows 3.1's
//! TrueType queries answered as for a system of raster fonts only
//! (GetRasterizerCaps: no TrueType; GetOutlineTextMetrics,
//! GetCharABCWidths, GetKerningPairs, GetFontData, GetGlyphOutline:
//! none), with SetMapperFlags/GetAspectRatioFilter.
//!
//! # Files
//!
//! - this file: the structures (LOGFONT, TEXTMETRIC, ...) and the GDI font
//!   functions (AddFontResource, EnumFonts, ...).
//! - `font/catalogue.rs`: the `.FON` files, where they are looked for, and
//!   the catalogue of the fonts they hold.
//! - `font/phys.rs`: a physical font, a font resource realised for a
//!   request with GDI's scaling and simulations.

mod catalogue;
mod phys;

pub use catalogue::{
    FONTS_ENV, FonFile, FontCatalogue, FontFileError, FontResource, FontSearch, FontState, RT_FONT,
    RT_FONTDIR, VGA_DPI, VGA_FONT_FILES, WINE_FONTS, builtin_system, builtin_system_header,
    parse_fon, read_fon,
};
pub use phys::{PhysFont, dialog_base_units};

// ---------------------------------------------------------------------
// Constants (SDK, "LOGFONT" and "TEXTMETRIC").

pub const FW_DONTCARE: u16 = 0;
pub const FW_NORMAL: u16 = 400;
pub const FW_SEMIBOLD: u16 = 600;
pub const FW_BOLD: u16 = 700;

pub const ANSI_CHARSET: u8 = 0;
pub const DEFAULT_CHARSET: u8 = 1;
pub const SYMBOL_CHARSET: u8 = 2;
pub const OEM_CHARSET: u8 = 255;

pub const DEFAULT_PITCH: u8 = 0;
pub const FIXED_PITCH: u8 = 1;
pub const VARIABLE_PITCH: u8 = 2;

pub const FF_DONTCARE: u8 = 0x00;
pub const FF_ROMAN: u8 = 0x10;
pub const FF_SWISS: u8 = 0x20;
pub const FF_MODERN: u8 = 0x30;
pub const FF_SCRIPT: u8 = 0x40;
pub const FF_DECORATIVE: u8 = 0x50;

/// tmPitchAndFamily bits: 0x01 set means *variable* pitch (the SDK's
/// TMPF_FIXED_PITCH name notwithstanding), 0x02 a vector font, 0x04
/// TrueType, 0x08 a device font.
pub const TMPF_VARIABLE: u8 = 0x01;
pub const TMPF_VECTOR: u8 = 0x02;
pub const TMPF_DEVICE: u8 = 0x08;

/// EnumFonts/EnumFontFamilies' FontType bits.
pub const RASTER_FONTTYPE: u16 = 0x0001;
pub const DEVICE_FONTTYPE: u16 = 0x0002;
pub const TRUETYPE_FONTTYPE: u16 = 0x0004;

/// LF_FACESIZE: bytes of a face name, NUL included.
pub const LF_FACESIZE: usize = 32;

// ---------------------------------------------------------------------
// Structures in emulated memory.

/// LOGFONT (Win16, 50 bytes): the GDI object's record (logfont.rs).
pub use super::logfont::LogFont;

/// Bytes of a LOGFONT.
pub const LOGFONT_SIZE: usize = LogFont::SIZE;

/// TEXTMETRIC (Win16): 31 bytes.
///
/// ```text
///  0 tmHeight 2 tmAscent 4 tmDescent 6 tmInternalLeading
///  8 tmExternalLeading 10 tmAveCharWidth 12 tmMaxCharWidth 14 tmWeight
/// 16 tmItalic 17 tmUnderlined 18 tmStruckOut 19 tmFirstChar
/// 20 tmLastChar 21 tmDefaultChar 22 tmBreakChar 23 tmPitchAndFamily
/// 24 tmCharSet 25 tmOverhang 27 tmDigitizedAspectX 29 tmDigitizedAspectY
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TextMetric {
    pub height: i16,
    pub ascent: i16,
    pub descent: i16,
    pub internal_leading: i16,
    pub external_leading: i16,
    pub ave_char_width: i16,
    pub max_char_width: i16,
    pub weight: i16,
    pub italic: u8,
    pub underlined: u8,
    pub struck_out: u8,
    pub first_char: u8,
    pub last_char: u8,
    pub default_char: u8,
    pub break_char: u8,
    pub pitch_and_family: u8,
    pub char_set: u8,
    pub overhang: i16,
    pub digitized_aspect_x: i16,
    pub digitized_aspect_y: i16,
}

pub const TEXTMETRIC_SIZE: usize = 31;
/// NEWTEXTMETRIC (Windows 3.1): TEXTMETRIC, then ntmFlags (DWORD),
/// ntmSizeEM, ntmCellHeight, ntmAvgWidth (UINTs): 41 bytes.
pub const NEWTEXTMETRIC_SIZE: usize = 41;
/// ENUMLOGFONT (Windows 3.1): LOGFONT, elfFullName[64], elfStyle[32].
pub const ENUMLOGFONT_SIZE: usize = LOGFONT_SIZE + 64 + 32;

impl TextMetric {
    pub fn to_bytes(&self) -> [u8; TEXTMETRIC_SIZE] {
        let mut b = [0u8; TEXTMETRIC_SIZE];
        let words = [
            self.height,
            self.ascent,
            self.descent,
            self.internal_leading,
            self.external_leading,
            self.ave_char_width,
            self.max_char_width,
            self.weight,
        ];
        for (i, v) in words.into_iter().enumerate() {
            b[i * 2..i * 2 + 2].copy_from_slice(&v.to_le_bytes());
        }
        b[16] = self.italic;
        b[17] = self.underlined;
        b[18] = self.struck_out;
        b[19] = self.first_char;
        b[20] = self.last_char;
        b[21] = self.default_char;
        b[22] = self.break_char;
        b[23] = self.pitch_and_family;
        b[24] = self.char_set;
        b[25..27].copy_from_slice(&self.overhang.to_le_bytes());
        b[27..29].copy_from_slice(&self.digitized_aspect_x.to_le_bytes());
        b[29..31].copy_from_slice(&self.digitized_aspect_y.to_le_bytes());
        b
    }

    pub fn from_bytes(src: &[u8]) -> TextMetric {
        let mut b = [0u8; TEXTMETRIC_SIZE];
        let n = src.len().min(TEXTMETRIC_SIZE);
        b[..n].copy_from_slice(&src[..n]);
        let w = |o: usize| i16::from_le_bytes([b[o], b[o + 1]]);
        TextMetric {
            height: w(0),
            ascent: w(2),
            descent: w(4),
            internal_leading: w(6),
            external_leading: w(8),
            ave_char_width: w(10),
            max_char_width: w(12),
            weight: w(14),
            italic: b[16],
            underlined: b[17],
            struck_out: b[18],
            first_char: b[19],
            last_char: b[20],
            default_char: b[21],
            break_char: b[22],
            pitch_and_family: b[23],
            char_set: b[24],
            overhang: w(25),
            digitized_aspect_x: w(27),
            digitized_aspect_y: w(29),
        }
    }

    /// NEWTEXTMETRIC for a raster font: ntmFlags from the style bits
    /// (NTM_ITALIC 0x01, NTM_BOLD 0x20, NTM_REGULAR 0x40), ntmSizeEM and
    /// ntmCellHeight the cell height, ntmAvgWidth the average width.
    pub fn to_new_bytes(&self) -> [u8; NEWTEXTMETRIC_SIZE] {
        let mut b = [0u8; NEWTEXTMETRIC_SIZE];
        b[..TEXTMETRIC_SIZE].copy_from_slice(&self.to_bytes());
        let mut flags = 0u32;
        if self.italic != 0 {
            flags |= 0x01;
        }
        if self.weight >= FW_BOLD as i16 {
            flags |= 0x20;
        }
        if flags == 0 {
            flags = 0x40;
        }
        b[31..35].copy_from_slice(&flags.to_le_bytes());
        let em = self.height - self.internal_leading;
        b[35..37].copy_from_slice(&em.to_le_bytes());
        b[37..39].copy_from_slice(&self.height.to_le_bytes());
        b[39..41].copy_from_slice(&self.ave_char_width.to_le_bytes());
        b
    }
}

// ---------------------------------------------------------------------
// The font functions that need no device context.

use crate::machine::{Cpu, R, Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};
use crate::win16::callback::{CallArg, call_far};
use crate::win16::farptr;

/// The largest `.FON` file AddFontResource reads (Windows 3.1's own are
/// under 100 KB).
const MAX_FON_BYTES: u64 = 4 << 20;

/// GDI's thunk segment: where callbacks from GDI return.
fn gdi_cs(env: &Env) -> Result<u16, Stop> {
    env.win16
        .module_by_name("GDI")
        .and_then(|m| m.segments.first().copied())
        .ok_or_else(|| Stop::Error("GDI is not loaded".into()))
}

/// The file a program names, read from its sandbox: (the DOS path as the
/// key, the bytes), or None when it is missing, outside the sandbox or too
/// big.
fn read_sandbox_file(env: &Env, name: &[u8]) -> Option<(String, Vec<u8>)> {
    let drive = env.drive.as_ref()?;
    match drive.resolve(name).ok()? {
        crate::dos::fs::HostPath::File { dos, .. } => {
            Some((dos, drive.read_file(name, MAX_FON_BYTES).ok()?))
        }
        _ => None,
    }
}

/// The catalogue key and bytes of the file of the loaded module `h` (a
/// font module's handle given to AddFontResource or RemoveFontResource):
/// its DOS path as the drive names it, without the drive letter.
fn module_font_file(env: &Env, h: u16) -> Option<(String, Vec<u8>)> {
    let m = &env.win16.modules[env.win16.module_for_handle(h)?];
    let path = m.path.clone()?;
    let dos = crate::win16::kernel::module::dos_path(env, Some(&path), &m.name);
    let key = dos.strip_prefix("C:").unwrap_or(&dos).to_string();
    let bytes = crate::loader::read_capped(&path, MAX_FON_BYTES, "a font file").ok()?;
    Some((key, bytes))
}

/// GDI.119 AddFontResource(lpszFilename) -> the number of fonts added, 0
/// on failure. `lpszFilename` names a `.FON` in the program's sandbox, or
/// is the handle of a loaded module whose fonts are added (SDK,
/// AddFontResource). A font file named is also loaded as a library module,
/// as Windows loaded it (kernel/library.rs; RemoveFontResource frees it).
fn add_font_resource(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (key, bytes, name) = if farptr::is_int(a[0]) {
        let Some((key, bytes)) = module_font_file(env, a[0] as u16) else {
            return Ok(0);
        };
        (key, bytes, None)
    } else {
        let Some(name) = farptr::read_cstr(uc, a[0], 260) else {
            return Ok(0);
        };
        let Some((key, bytes)) = read_sandbox_file(env, &name) else {
            return Ok(0);
        };
        (key, bytes, Some(name))
    };
    env.win16.gdi.fonts.forget_realized();
    let cat = env.win16.gdi.fonts.catalogue();
    match cat.add_file(&key, &bytes) {
        Ok(n) => {
            if let Some(name) = name {
                let name = String::from_utf8_lossy(&name).into_owned();
                crate::win16::kernel::library::load_library_named(env, uc, &name)?;
            }
            Ok(n as u32)
        }
        Err(e) => {
            let w = format!("AddFontResource {key}: {e}");
            env.win16.gdi.fonts.warn(w);
            Ok(0)
        }
    }
}

/// GDI.136 RemoveFontResource(lpszFilename) -> TRUE when the file had
/// been added.
fn remove_font_resource(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if farptr::is_int(a[0]) {
        let Some((key, _)) = module_font_file(env, a[0] as u16) else {
            return Ok(0);
        };
        env.win16.gdi.fonts.forget_realized();
        return Ok(u32::from(env.win16.gdi.fonts.catalogue().remove_file(&key)));
    }
    let Some(name) = farptr::read_cstr(uc, a[0], 260) else {
        return Ok(0);
    };
    let (key, host) = match env.drive.as_ref().and_then(|d| d.resolve(&name).ok()) {
        Some(crate::dos::fs::HostPath::File { dos, host }) => (dos, Some(host)),
        Some(crate::dos::fs::HostPath::Missing { dos, .. }) => (dos, None),
        _ => return Ok(0),
    };
    env.win16.gdi.fonts.forget_realized();
    let removed = env.win16.gdi.fonts.catalogue().remove_file(&key);
    // The module AddFontResource loaded for the file loses that use.
    let same = |p: &std::path::Path| {
        let h = host.as_ref().and_then(|h| std::fs::canonicalize(h).ok());
        h.is_some() && std::fs::canonicalize(p).ok() == h
    };
    let module = env
        .win16
        .modules
        .iter()
        .find(|m| !m.builtin && m.path.as_deref().is_some_and(same))
        .map(|m| m.hmodule);
    if let (true, Some(h)) = (removed, module) {
        crate::win16::kernel::library::free_library_handle(env, uc, h)?;
    }
    Ok(u32::from(removed))
}

/// The fonts EnumFonts/EnumFontFamilies report: with no face, the first
/// font of each face (SDK: "one font of each available typeface"), else
/// every font of that face, in the catalogue's order.
pub fn enumerated(cat: &FontCatalogue, face: Option<&[u8]>) -> Vec<PhysFont> {
    let mut out: Vec<PhysFont> = Vec::new();
    for f in &cat.fonts {
        let take = match face {
            Some(want) => f.face().as_bytes().eq_ignore_ascii_case(want),
            None => !out.iter().any(|o| o.face().eq_ignore_ascii_case(f.face())),
        };
        if take {
            out.push(PhysFont::plain(f.clone()));
        }
    }
    out
}

/// ENUMLOGFONT for a font: its LOGFONT, the full name (the face, for a
/// raster font) and the style ("Regular", "Bold", "Italic", "Bold
/// Italic").
pub fn enum_logfont(f: &PhysFont) -> Vec<u8> {
    let lf = f.logfont();
    let mut b = lf.to_bytes().to_vec();
    let mut full = [0u8; 64];
    let n = lf.face.len().min(63);
    full[..n].copy_from_slice(&lf.face[..n]);
    b.extend_from_slice(&full);
    let style = match (lf.weight >= FW_BOLD as i16, lf.italic != 0) {
        (false, false) => "Regular",
        (true, false) => "Bold",
        (false, true) => "Italic",
        (true, true) => "Bold Italic",
    };
    let mut st = [0u8; 32];
    st[..style.len()].copy_from_slice(style.as_bytes());
    b.extend_from_slice(&st);
    b
}

/// EnumFonts and EnumFontFamilies: call `proc_(lpLogFont, lpTextMetric,
/// nFontType, lpData)` for each font until it returns 0; the result is the
/// callback's last value (1 when nothing was enumerated).
fn enumerate(
    env: &mut Env,
    uc: &mut Uc<'_>,
    face_ptr: u32,
    proc_: u32,
    data: u32,
    families: bool,
) -> Result<u32, Stop> {
    let face = if face_ptr == 0 {
        None
    } else {
        farptr::read_cstr(uc, face_ptr, LF_FACESIZE)
    };
    let list = enumerated(env.win16.gdi.fonts.catalogue(), face.as_deref());
    let cs = gdi_cs(env)?;
    let ds = uc.reg(R::DS);
    let mut last = 1u32;
    for f in list {
        let (mut scratch, tm) = if families {
            (enum_logfont(&f), f.metrics().to_new_bytes().to_vec())
        } else {
            (
                f.logfont().to_bytes().to_vec(),
                f.metrics().to_bytes().to_vec(),
            )
        };
        let lf_len = scratch.len() as u16;
        scratch.extend_from_slice(&tm);
        let args = [
            CallArg::Scratch,
            CallArg::ScratchAt(lf_len),
            CallArg::W(RASTER_FONTTYPE),
            CallArg::L(data),
        ];
        let r = call_far(env, uc, cs, farptr::split(proc_), ds, &scratch, &args)?;
        last = r.value & 0xFFFF;
        if last == 0 {
            break;
        }
    }
    Ok(last)
}

/// GDI.70 EnumFonts(hDC, lpFacename, lpFontFunc, lpData).
fn enum_fonts(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    enumerate(env, uc, a[1], a[2], a[3], false)
}

/// GDI.330 EnumFontFamilies(hDC, lpszFamily, lpEnumFontFamProc, lParam):
/// ENUMLOGFONT and NEWTEXTMETRIC.
fn enum_font_families(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    enumerate(env, uc, a[1], a[2], a[3], true)
}

// The TrueType functions of Windows 3.1, answered as Windows answered
// them for raster fonts on a system without TrueType (this catalogue has
// only raster fonts): no rasterizer, no outlines, no ABC widths, no
// kerning pairs, no font data.

/// GDI.313 GetRasterizerCaps(lpraststat, cb) -> TRUE: RASTERIZER_STATUS
/// {nSize, wFlags, nLanguageID} with wFlags 0 (TrueType neither
/// available nor enabled).
fn get_rasterizer_caps(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let n = usize::from(a[1] as u16).min(6);
    let mut b = [0u8; 6];
    b[0..2].copy_from_slice(&6u16.to_le_bytes());
    if n > 0 && a[0] != 0 && !farptr::write_bytes(uc, a[0], &b[..n]) {
        return Ok(0);
    }
    Ok(1)
}

/// GDI.308 GetOutlineTextMetrics(hdc, cbData, lpotm) -> 0: the font is not
/// a TrueType font.
fn get_outline_text_metrics(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(0)
}

/// GDI.307 GetCharABCWidths(hdc, uFirstChar, uLastChar, lpabc) -> FALSE:
/// ABC widths exist for TrueType fonts only (the SDK).
fn get_char_abc_widths(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(0)
}

/// GDI.332 GetKerningPairs(hdc, cPairs, lpkrnpair) -> 0 pairs: raster
/// fonts have none.
fn get_kerning_pairs(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(0)
}

/// GDI.309 GetGlyphOutline(hdc, uChar, fuFormat, lpgm, cbBuffer,
/// lpBuffer, lpmat2) -> -1: glyph outlines and metrics come from the
/// TrueType rasterizer and this DC's font is a raster font (the SDK:
/// "This function works only with TrueType fonts"); nothing is written.
fn get_glyph_outline(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(0xFFFF_FFFF)
}

/// GDI.311 GetFontData(hdc, dwTable, dwOffset, lpvBuffer, cbData) ->
/// GDI_ERROR (-1): there is no TrueType font data.
fn get_font_data(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(0xFFFF_FFFF)
}

/// GDI.310 CreateScalableFontResource(fHidden, lpszResourceFile,
/// lpszFontFile, lpszCurrentPath) -> FALSE: no TrueType rasterizer.
fn create_scalable_font_resource(
    _env: &mut Env,
    _uc: &mut Uc<'_>,
    _a: &[u32],
) -> Result<u32, Stop> {
    Ok(0)
}

/// GDI.349 SetMapperFlags(hdc, dwFlag) -> the previous flags. ASPECT_
/// FILTERING (1) makes the mapper take only fonts designed for the
/// device's aspect ratio: every font here is a 96 × 96 dpi one, so it
/// changes no choice.
fn set_mapper_flags(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hdc = a[0] as u16;
    if env.win16.gdi.dc_mut(hdc).is_none() {
        return Ok(0xFFFF_FFFF);
    }
    Ok(env.win16.gdi.fonts.set_mapper_flags(hdc, a[1]))
}

/// GDI.353 GetAspectRatioFilter(hdc) -> the aspect ratio the filter keeps
/// (x in the low word, y in the high): the device's 96 × 96 with
/// ASPECT_FILTERING set, 0 without.
fn get_aspect_ratio_filter(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hdc = a[0] as u16;
    Ok(if env.win16.gdi.fonts.mapper_flags(hdc) & 1 != 0 {
        u32::from(VGA_DPI) << 16 | u32::from(VGA_DPI)
    } else {
        0
    })
}

/// GDI.486 GetAspectRatioFilterEx(hdc, lpAspectRatio) -> BOOL: the
/// filter GetAspectRatioFilter answers, as a SIZE (cx, cy) (Windows 3.1
/// SDK).
fn get_aspect_ratio_filter_ex(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if env.win16.gdi.dc_mut(a[0] as u16).is_none() {
        return Ok(0);
    }
    let v = get_aspect_ratio_filter(env, uc, &a[..1])?;
    let mut b = [0u8; 4];
    b[0..2].copy_from_slice(&(v as u16).to_le_bytes());
    b[2..4].copy_from_slice(&((v >> 16) as u16).to_le_bytes());
    Ok(u32::from(crate::win16::farptr::write_bytes(uc, a[1], &b)))
}

/// The functions of this file.
pub static APIS: &[Api] = &[
    Api::new(
        "GDI",
        486,
        "GETASPECTRATIOFILTEREX",
        &[Arg::W, Arg::L],
        get_aspect_ratio_filter_ex,
    ),
    Api::new(
        "GDI",
        70,
        "ENUMFONTS",
        &[Arg::W, Arg::L, Arg::L, Arg::L],
        enum_fonts,
    ),
    Api::new("GDI", 119, "ADDFONTRESOURCE", &[Arg::L], add_font_resource),
    Api::new(
        "GDI",
        136,
        "REMOVEFONTRESOURCE",
        &[Arg::L],
        remove_font_resource,
    ),
    Api::new(
        "GDI",
        307,
        "GETCHARABCWIDTHS",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        get_char_abc_widths,
    ),
    Api::new(
        "GDI",
        308,
        "GETOUTLINETEXTMETRICS",
        &[Arg::W, Arg::W, Arg::L],
        get_outline_text_metrics,
    ),
    Api::new(
        "GDI",
        310,
        "CREATESCALABLEFONTRESOURCE",
        &[Arg::W, Arg::L, Arg::L, Arg::L],
        create_scalable_font_resource,
    ),
    Api::new(
        "GDI",
        309,
        "GETGLYPHOUTLINE",
        &[Arg::W, Arg::W, Arg::W, Arg::L, Arg::L, Arg::L, Arg::L],
        get_glyph_outline,
    ),
    Api::new(
        "GDI",
        311,
        "GETFONTDATA",
        &[Arg::W, Arg::L, Arg::L, Arg::L, Arg::L],
        get_font_data,
    ),
    Api::new(
        "GDI",
        313,
        "GETRASTERIZERCAPS",
        &[Arg::L, Arg::W],
        get_rasterizer_caps,
    ),
    Api::new(
        "GDI",
        332,
        "GETKERNINGPAIRS",
        &[Arg::W, Arg::W, Arg::L],
        get_kerning_pairs,
    ),
    Api::new(
        "GDI",
        349,
        "SETMAPPERFLAGS",
        &[Arg::W, Arg::L],
        set_mapper_flags,
    ),
    Api::new(
        "GDI",
        353,
        "GETASPECTRATIOFILTER",
        &[Arg::W],
        get_aspect_ratio_filter,
    ),
    Api::new(
        "GDI",
        330,
        "ENUMFONTFAMILIES",
        &[Arg::W, Arg::L, Arg::L, Arg::L],
        enum_font_families,
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn structure_layouts() {
        let lf = LogFont {
            height: -11,
            width: 2,
            escapement: 3,
            orientation: 4,
            weight: 700,
            italic: 1,
            underline: 2,
            strike_out: 3,
            char_set: 255,
            out_precision: 5,
            clip_precision: 6,
            quality: 7,
            pitch_and_family: 0x31,
            face: b"MS Sans Serif".to_vec(),
        };
        let b = lf.to_bytes();
        assert_eq!(b.len(), 50);
        assert_eq!(&b[0..2], &(-11i16).to_le_bytes());
        assert_eq!(&b[8..10], &700i16.to_le_bytes());
        assert_eq!(b[13], 255);
        assert_eq!(b[17], 0x31);
        assert_eq!(&b[18..31], b"MS Sans Serif");
        assert_eq!(b[31], 0);
        assert_eq!(LogFont::from_bytes(&b), lf);
        // A face name filling all 32 bytes keeps 31.
        let mut long = b;
        long[18..50].fill(b'A');
        assert_eq!(LogFont::from_bytes(&long).face.len(), 31);

        let tm = TextMetric {
            height: 16,
            ascent: 13,
            descent: 3,
            internal_leading: 3,
            external_leading: 0,
            ave_char_width: 7,
            max_char_width: 14,
            weight: 700,
            italic: 0,
            underlined: 1,
            struck_out: 0,
            first_char: 32,
            last_char: 255,
            default_char: 128,
            break_char: 32,
            pitch_and_family: 0x21,
            char_set: 0,
            overhang: 1,
            digitized_aspect_x: 96,
            digitized_aspect_y: 96,
        };
        let b = tm.to_bytes();
        assert_eq!(b.len(), 31);
        assert_eq!(&b[10..12], &7i16.to_le_bytes());
        assert_eq!(b[17], 1);
        assert_eq!(b[21], 128);
        assert_eq!(b[23], 0x21);
        assert_eq!(&b[25..27], &1i16.to_le_bytes());
        assert_eq!(&b[29..31], &96i16.to_le_bytes());
        assert_eq!(TextMetric::from_bytes(&b), tm);
        let n = tm.to_new_bytes();
        assert_eq!(&n[31..35], &0x20u32.to_le_bytes()); // NTM_BOLD
        assert_eq!(&n[37..39], &16i16.to_le_bytes());
        assert_eq!(ENUMLOGFONT_SIZE, 146);
    }
}
