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

use std::path::{Path, PathBuf};
use std::rc::Rc;

use super::fnt::{FntFont, FntHeader, FontDirEntry, parse_fontdir};
use crate::loader::LoadError;
use crate::loader::ne::{NeImage, ResourceId};

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
// The catalogue.

/// The files Windows 3.1's setup installed for a VGA display, in the
/// order GDI loaded them (SYSTEM.INI's [boot] fonts, then WIN.INI's
/// [fonts]), with the faces they hold.
pub const VGA_FONT_FILES: &[(&str, &str)] = &[
    ("vgasys.fon", "System"),
    ("vgafix.fon", "Fixedsys"),
    ("vgaoem.fon", "Terminal"),
    ("sserife.fon", "MS Sans Serif"),
    ("serife.fon", "MS Serif"),
    ("coure.fon", "Courier"),
    ("smalle.fon", "Small Fonts"),
    ("symbole.fon", "Symbol"),
];

/// Debian's fonts-wine directory.
pub const WINE_FONTS: &str = "/usr/share/wine/fonts";
/// The environment variable naming more font directories.
pub const FONTS_ENV: &str = "TOOLHELP16_FONTS";

/// The VGA's resolution, dots per inch (GetDeviceCaps LOGPIXELSX/Y).
pub const VGA_DPI: u16 = 96;

/// Where font files are looked for, first first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FontSearch {
    pub dirs: Vec<PathBuf>,
}

impl FontSearch {
    /// The search path: `--fonts DIR` (when given), then
    /// `TOOLHELP16_FONTS` when set, else Debian's fonts-wine directory.
    pub fn standard(option: Option<&Path>) -> FontSearch {
        let mut dirs = Vec::new();
        if let Some(d) = option {
            dirs.push(d.to_path_buf());
        }
        match std::env::var_os(FONTS_ENV) {
            Some(v) => dirs.extend(std::env::split_paths(&v).filter(|p| !p.as_os_str().is_empty())),
            None => dirs.push(PathBuf::from(WINE_FONTS)),
        }
        FontSearch { dirs }
    }

    /// Only these directories.
    pub fn only(dirs: &[&Path]) -> FontSearch {
        FontSearch {
            dirs: dirs.iter().map(|d| d.to_path_buf()).collect(),
        }
    }

    /// The first `dir/name` that exists; names compare without case (the
    /// files are DOS names).
    pub fn find(&self, name: &str) -> Option<PathBuf> {
        for d in &self.dirs {
            let p = d.join(name);
            if p.is_file() {
                return Some(p);
            }
            if let Ok(rd) = std::fs::read_dir(d) {
                for e in rd.flatten() {
                    if e.file_name().to_string_lossy().eq_ignore_ascii_case(name) {
                        return Some(e.path());
                    }
                }
            }
        }
        None
    }
}

/// One font resource of a `.FON` file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FontResource {
    pub font: FntFont,
    /// The file it came from (None: the built-in System metrics).
    pub file: Option<PathBuf>,
    /// Its resource id in the file.
    pub id: ResourceId,
}

impl FontResource {
    pub fn header(&self) -> &FntHeader {
        &self.font.header
    }

    /// The face name.
    pub fn face(&self) -> &str {
        &self.font.face
    }

    /// Is this the metrics-only System face used when no file was found?
    pub fn is_builtin(&self) -> bool {
        self.file.is_none()
    }
}

/// A font file that failed to load: the file, and where and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FontFileError {
    pub file: PathBuf,
    pub error: LoadError,
}

impl std::fmt::Display for FontFileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.file.display(), self.error)
    }
}

/// The FONT and FONTDIR resource types.
pub const RT_FONTDIR: u16 = 7;
pub const RT_FONT: u16 = 8;

/// A `.FON` file's fonts, all resolutions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FonFile {
    pub fonts: Vec<FontResource>,
    /// The FONTDIR's entries (empty when the file has none).
    pub directory: Vec<FontDirEntry>,
}

/// Read a `.FON` file's bytes: an NE module, possibly resource-only, whose
/// FONT resources are FNT fonts. Errors name the file offset; the caller
/// adds the file name.
pub fn parse_fon(bytes: &[u8], file: Option<&Path>) -> Result<FonFile, LoadError> {
    let ne = NeImage::parse(bytes)?;
    let mut fonts = Vec::new();
    let mut directory = Vec::new();
    let mut font_bytes = 0u64;
    for t in &ne.resources {
        match t.type_id {
            ResourceId::Int(RT_FONT) => {
                for r in &t.resources {
                    if (r.data.len() as u64) < r.length {
                        return Err(LoadError::at(
                            r.file_offset,
                            "FONT resource",
                            format!(
                                "font {} is {} bytes long but the file ends after {}",
                                r.id,
                                r.length,
                                r.data.len()
                            ),
                        ));
                    }
                    // Fonts of a real file lie apart, so together they are
                    // no larger than the file; entries of a corrupt table
                    // that all point at one font would each parse it anew.
                    font_bytes += r.data.len() as u64;
                    if font_bytes > bytes.len() as u64 {
                        return Err(LoadError::at(
                            r.file_offset,
                            "FONT resource",
                            format!(
                                "the FONT resources up to font {} come to {font_bytes:#X} bytes \
                                 in a file of {:#X}: they overlap; the resource table is corrupt",
                                r.id,
                                bytes.len()
                            ),
                        ));
                    }
                    let font = FntFont::parse(&r.data).map_err(|e| LoadError {
                        offset: e.offset.map(|o| o + r.file_offset),
                        field: format!("font {}: {}", r.id, e.field),
                        message: e.message,
                    })?;
                    fonts.push(FontResource {
                        font,
                        file: file.map(Path::to_path_buf),
                        id: r.id.clone(),
                    });
                }
            }
            ResourceId::Int(RT_FONTDIR) => {
                if let Some(r) = t.resources.first() {
                    directory = parse_fontdir(&r.data).map_err(|e| LoadError {
                        offset: e.offset.map(|o| o + r.file_offset),
                        field: format!("FONTDIR: {}", e.field),
                        message: e.message,
                    })?;
                }
            }
            _ => {}
        }
    }
    if fonts.is_empty() {
        return Err(LoadError::whole(
            "resource table",
            "the module has no FONT (type 8) resources: it is not a font file",
        ));
    }
    Ok(FonFile { fonts, directory })
}

/// Read and parse a `.FON` file.
pub fn read_fon(path: &Path) -> Result<FonFile, FontFileError> {
    let bytes = crate::loader::read_capped(path, MAX_FON_BYTES, "a font file").map_err(|e| {
        FontFileError {
            file: path.to_path_buf(),
            error: LoadError::whole(
                "file",
                e.strip_prefix(&format!("{}: ", path.display()))
                    .unwrap_or(&e)
                    .to_string(),
            ),
        }
    })?;
    parse_fon(&bytes, Some(path)).map_err(|error| FontFileError {
        file: path.to_path_buf(),
        error,
    })
}

/// The VGA System font's documented metrics (see the module notes), for
/// the catalogue without a System font file.
pub fn builtin_system_header() -> FntHeader {
    FntHeader {
        version: 0x0300,
        copyright: "toolhelp16: VGA System font metrics without glyphs".into(),
        points: 10,
        vert_res: VGA_DPI,
        horiz_res: VGA_DPI,
        ascent: 13,
        internal_leading: 3,
        external_leading: 0,
        weight: FW_BOLD,
        char_set: ANSI_CHARSET,
        pix_height: 16,
        pitch_and_family: FF_SWISS | TMPF_VARIABLE,
        avg_width: 7,
        max_width: 14,
        first_char: 32,
        last_char: 255,
        default_char: 128 - 32,
        break_char: 0,
        ..FntHeader::default()
    }
}

/// The fonts a session can use.
#[derive(Debug, Clone)]
pub struct FontCatalogue {
    /// Every font resource, in load order (the order EnumFonts reports).
    pub fonts: Vec<Rc<FontResource>>,
    /// Files added by AddFontResource: the file (as the program named it)
    /// and how many times it was added.
    pub added: Vec<(String, u32)>,
    /// What the catalogue could not load or had to stand in for.
    pub warnings: Vec<String>,
    /// The faces of the standard set whose files were not found, and what
    /// to say when a program first asks for one.
    pub absent: Vec<(String, String)>,
}

impl FontCatalogue {
    /// Load the Windows 3.1 VGA font set from the search path.
    pub fn load(search: &FontSearch) -> FontCatalogue {
        let mut fonts = Vec::new();
        let mut warnings = Vec::new();
        let mut missing = Vec::new();
        for (name, face) in VGA_FONT_FILES {
            let Some(path) = search.find(name) else {
                missing.push(format!("{name} ({face})"));
                continue;
            };
            match read_fon(&path) {
                Ok(fon) => {
                    let before = fonts.len();
                    fonts.extend(fon.fonts.into_iter().filter(is_vga).map(Rc::new));
                    if fonts.len() == before {
                        warnings.push(format!(
                            "{}: no font in it is designed for the VGA's {VGA_DPI} dpi; not used",
                            path.display()
                        ));
                    }
                }
                Err(e) => warnings.push(format!("font file not used: {e}")),
            }
        }
        let dirs = search
            .dirs
            .iter()
            .map(|d| d.display().to_string())
            .collect::<Vec<_>>()
            .join(", ");
        // A missing face matters only to a program that asks for it:
        // said then, once (FontState::map_cached), not on every run.
        let mut absent = Vec::new();
        if !missing.is_empty() {
            let hint = if Path::new(WINE_FONTS).join("vgasys.fon").is_file() {
                "fonts-wine does not ship it; give --fonts DIR with Windows' own files"
            } else {
                "install Debian's fonts-wine, or give --fonts DIR or TOOLHELP16_FONTS"
            };
            for (name, face) in VGA_FONT_FILES {
                if missing.iter().any(|m| m.starts_with(&format!("{name} ("))) {
                    absent.push((
                        face.to_string(),
                        format!(
                            "the program asked for the {face} face, whose Windows 3.1 font file \
                             {name} is not found in [{dirs}]: it gets the nearest font present \
                             ({hint})"
                        ),
                    ));
                }
            }
        }
        if !fonts
            .iter()
            .any(|f| f.face().eq_ignore_ascii_case("System"))
        {
            warnings.push(
                "no System font file: GetTextMetrics answers with the VGA System font's \
                 documented metrics (16 pixels high, average width 7), every character is \
                 taken as 7 pixels wide, and text draws without glyphs"
                    .into(),
            );
            fonts.insert(0, Rc::new(builtin_system()));
        }
        FontCatalogue {
            fonts,
            added: Vec::new(),
            warnings,
            absent,
        }
    }

    /// A catalogue of exactly these fonts (tests).
    pub fn of(fonts: Vec<FontResource>) -> FontCatalogue {
        FontCatalogue {
            fonts: fonts.into_iter().map(Rc::new).collect(),
            added: Vec::new(),
            warnings: Vec::new(),
            absent: Vec::new(),
        }
    }

    /// The System font (the first face named System; the catalogue always
    /// has one).
    pub fn system(&self) -> Rc<FontResource> {
        self.fonts
            .iter()
            .find(|f| f.face().eq_ignore_ascii_case("System"))
            .cloned()
            .unwrap_or_else(|| Rc::new(builtin_system()))
    }

    /// The distinct face names, in load order.
    pub fn faces(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for f in &self.fonts {
            if !out.iter().any(|n| n.eq_ignore_ascii_case(f.face())) {
                out.push(f.face().to_string());
            }
        }
        out
    }

    /// AddFontResource: add the fonts of a `.FON` file (all of its
    /// resources, whatever their resolution: the program asked for this
    /// file) and return how many were added. A file added again only
    /// counts the addition, as Windows kept a usage count.
    pub fn add_file(&mut self, key: &str, bytes: &[u8]) -> Result<usize, LoadError> {
        if let Some(e) = self
            .added
            .iter_mut()
            .find(|e| e.0.eq_ignore_ascii_case(key))
        {
            e.1 += 1;
            return Ok(self
                .fonts
                .iter()
                .filter(|f| added_key(f).is_some_and(|k| k.eq_ignore_ascii_case(key)))
                .count());
        }
        let fon = parse_fon(bytes, Some(Path::new(key)))?;
        let n = fon.fonts.len();
        self.fonts.extend(fon.fonts.into_iter().map(Rc::new));
        self.added.push((key.to_string(), 1));
        Ok(n)
    }

    /// RemoveFontResource: drop one addition of the file; its fonts go
    /// when the last addition is removed. False when it was never added.
    pub fn remove_file(&mut self, key: &str) -> bool {
        let Some(i) = self
            .added
            .iter()
            .position(|e| e.0.eq_ignore_ascii_case(key))
        else {
            return false;
        };
        self.added[i].1 -= 1;
        if self.added[i].1 == 0 {
            self.added.remove(i);
            self.fonts
                .retain(|f| !added_key(f).is_some_and(|k| k.eq_ignore_ascii_case(key)));
        }
        true
    }
}

/// GDI's font state in a session: where fonts are looked for, and the
/// catalogue, loaded the first time a program needs a font (most runs
/// never do), with its warnings kept until the CLI says them.
#[derive(Clone, Debug)]
pub struct FontState {
    pub search: FontSearch,
    catalogue: Option<FontCatalogue>,
    warnings: std::cell::RefCell<Vec<String>>,
    /// Fonts realised so far, by the LOGFONT (device units) they were
    /// mapped from.
    cache: std::collections::HashMap<[u8; LOGFONT_SIZE], PhysFont>,
    /// SetMapperFlags' flags, by DC.
    mapper_flags: std::collections::HashMap<u16, u32>,
    /// Have the stock font objects been given their faces' LOGFONTs
    /// (text.rs, settle_stock_fonts)?
    pub stock_settled: bool,
}

impl Default for FontState {
    /// The standard search path ([`FontSearch::standard`] without
    /// `--fonts`).
    fn default() -> Self {
        FontState::new(FontSearch::standard(None))
    }
}

impl FontState {
    pub fn new(search: FontSearch) -> FontState {
        FontState {
            search,
            catalogue: None,
            warnings: Default::default(),
            cache: Default::default(),
            mapper_flags: Default::default(),
            stock_settled: false,
        }
    }

    /// SetMapperFlags: the previous flags of DC `hdc`.
    pub fn set_mapper_flags(&mut self, hdc: u16, flags: u32) -> u32 {
        if self.mapper_flags.len() >= 4096 && !self.mapper_flags.contains_key(&hdc) {
            return 0;
        }
        self.mapper_flags.insert(hdc, flags).unwrap_or(0)
    }

    /// The mapper flags of DC `hdc` (0 unless set).
    pub fn mapper_flags(&self, hdc: u16) -> u32 {
        self.mapper_flags.get(&hdc).copied().unwrap_or(0)
    }

    /// The catalogue, loaded on first use.
    pub fn catalogue(&mut self) -> &mut FontCatalogue {
        if self.catalogue.is_none() {
            let cat = FontCatalogue::load(&self.search);
            self.warnings
                .borrow_mut()
                .extend(cat.warnings.iter().cloned());
            self.catalogue = Some(cat);
        }
        self.catalogue
            .get_or_insert_with(|| FontCatalogue::of(Vec::new()))
    }

    /// The mapper's choice for `lf` (device units), remembered.
    pub fn map_cached(&mut self, lf: &LogFont) -> PhysFont {
        let key = lf.to_bytes();
        if let Some(f) = self.cache.get(&key) {
            return f.clone();
        }
        let cat = self.catalogue();
        let face = String::from_utf8_lossy(&lf.face).into_owned();
        if let Some(k) = cat
            .absent
            .iter()
            .position(|(f, _)| f.eq_ignore_ascii_case(&face))
        {
            // Said once: the face leaves the list.
            let (_, text) = cat.absent.remove(k);
            self.warnings.borrow_mut().push(text);
        }
        let f = super::fontmap::map(self.catalogue(), lf);
        if self.cache.len() < 4096 {
            self.cache.insert(key, f.clone());
        }
        f
    }

    /// Forget the realised fonts (the catalogue changed).
    pub fn forget_realized(&mut self) {
        self.cache.clear();
    }

    /// GetDialogBaseUnits' values (USER): see [`dialog_base_units`].
    pub fn dialog_base_units(&mut self) -> (u16, u16) {
        dialog_base_units(self.catalogue())
    }

    /// Has the catalogue been loaded?
    pub fn loaded(&self) -> bool {
        self.catalogue.is_some()
    }

    /// Add a warning for the CLI to say.
    pub fn warn(&self, w: String) {
        self.warnings.borrow_mut().push(w);
    }

    /// Warnings not yet taken.
    pub fn take_warnings(&self) -> Vec<String> {
        std::mem::take(&mut *self.warnings.borrow_mut())
    }
}

fn added_key(f: &FontResource) -> Option<String> {
    f.file.as_ref().map(|p| p.to_string_lossy().into_owned())
}

/// Is this resource designed for the VGA (96 × 96 dpi)?
fn is_vga(f: &FontResource) -> bool {
    f.header().vert_res == VGA_DPI && f.header().horiz_res == VGA_DPI
}

/// The metrics-only System face.
pub fn builtin_system() -> FontResource {
    FontResource {
        font: FntFont::metrics_only(builtin_system_header(), "System"),
        file: None,
        id: ResourceId::Int(0),
    }
}

// ---------------------------------------------------------------------
// Physical fonts.

/// A font resource as realised for a request: scaled and simulated.
#[derive(Debug, Clone)]
pub struct PhysFont {
    pub res: Rc<FontResource>,
    /// Whole-number scale factors (1 = the font's own size).
    pub scale_x: u16,
    pub scale_y: u16,
    /// GDI's simulations.
    pub bold: bool,
    pub italic: bool,
    pub underline: bool,
    pub strike_out: bool,
}

impl PhysFont {
    /// The font at its own size, no simulations.
    pub fn plain(res: Rc<FontResource>) -> PhysFont {
        PhysFont {
            res,
            scale_x: 1,
            scale_y: 1,
            bold: false,
            italic: false,
            underline: false,
            strike_out: false,
        }
    }

    fn h(&self) -> &FntHeader {
        self.res.header()
    }

    /// The face name.
    pub fn face(&self) -> &str {
        self.res.face()
    }

    /// Cell height in pixels.
    pub fn height(&self) -> i32 {
        i32::from(self.h().pix_height) * i32::from(self.scale_y)
    }

    /// Rows above the baseline.
    pub fn ascent(&self) -> i32 {
        i32::from(self.h().ascent) * i32::from(self.scale_y)
    }

    /// The per-string overhang of the simulations (tmOverhang).
    pub fn overhang(&self) -> i32 {
        let mut o = 0;
        if self.bold {
            o += 1;
        }
        if self.italic {
            o += (self.height() - 1) / 4;
        }
        o
    }

    /// The advance of character `ch`.
    pub fn advance(&self, ch: u8) -> i32 {
        self.res.font.char_width(ch) as i32 * i32::from(self.scale_x)
    }

    /// TEXTMETRIC, in device units.
    pub fn metrics(&self) -> TextMetric {
        let h = self.h();
        // The factors are at most fontmap::MAX_SCALE.
        let sy = self.scale_y.clamp(1, 64) as i16;
        let sx = self.scale_x.clamp(1, 64) as i16;
        let height = h.pix_height as i16 * sy;
        let ascent = h.ascent as i16 * sy;
        let weight = if self.bold { FW_BOLD } else { h.weight };
        TextMetric {
            height,
            ascent,
            descent: height - ascent,
            internal_leading: h.internal_leading as i16 * sy,
            external_leading: h.external_leading as i16 * sy,
            ave_char_width: h.avg_width as i16 * sx,
            max_char_width: h.max_width as i16 * sx,
            weight: weight as i16,
            italic: u8::from(self.italic || h.italic != 0),
            underlined: u8::from(self.underline || h.underline != 0),
            struck_out: u8::from(self.strike_out || h.strike_out != 0),
            first_char: h.first_char,
            last_char: h.last_char,
            default_char: self.res.font.default_char(),
            break_char: self.res.font.break_char(),
            pitch_and_family: h.pitch_and_family,
            char_set: h.char_set,
            overhang: self.overhang() as i16,
            digitized_aspect_x: h.horiz_res as i16,
            digitized_aspect_y: h.vert_res as i16,
        }
    }

    /// The LOGFONT that names this physical font (what EnumFonts hands a
    /// program, and GetObject's realised view).
    pub fn logfont(&self) -> LogFont {
        let tm = self.metrics();
        LogFont {
            height: tm.height,
            width: tm.ave_char_width,
            escapement: 0,
            orientation: 0,
            weight: tm.weight,
            italic: tm.italic,
            underline: tm.underlined,
            strike_out: tm.struck_out,
            char_set: tm.char_set,
            out_precision: 1,  // OUT_STRING_PRECIS, as raster fonts report
            clip_precision: 2, // CLIP_STROKE_PRECIS
            quality: 1,        // DRAFT_QUALITY
            pitch_and_family: tm.pitch_and_family,
            face: self.face().as_bytes().to_vec(),
        }
    }

    /// The sum of the advances of `text` (no overhang).
    pub fn advances(&self, text: &[u8]) -> i32 {
        text.iter().map(|&c| self.advance(c)).sum()
    }

    /// Rows (from the top of the cell) of the underline and strike-out.
    pub fn underline_row(&self) -> i32 {
        let h = self.h();
        let row = if h.descent() >= 2 {
            h.ascent + 1
        } else {
            h.ascent.min(h.pix_height - 1)
        };
        i32::from(row) * i32::from(self.scale_y)
    }

    pub fn strike_out_row(&self) -> i32 {
        let h = self.h();
        let caps = h.ascent.saturating_sub(h.internal_leading);
        let row = h.ascent.saturating_sub(1 + caps / 3);
        i32::from(row) * i32::from(self.scale_y)
    }

    /// The ink of character `ch` with its cell's top-left at (0, 0), row by
    /// row: `f(y, runs)` for every row with ink, `runs` the `[x1, x2)`
    /// spans of that row, left to right and not overlapping, after the
    /// simulations (scaling, the bold overstrike one pixel to the right,
    /// the italic shear). Underline and strike-out are drawn by the text
    /// output across the advance, not here.
    pub fn glyph_rows(&self, ch: u8, mut f: impl FnMut(i32, &[(i32, i32)])) {
        let g = self.res.font.glyph(ch);
        let (sx, sy) = (i32::from(self.scale_x), i32::from(self.scale_y));
        let height = self.height();
        let mut base: Vec<(i32, i32)> = Vec::new();
        let mut out: Vec<(i32, i32)> = Vec::new();
        for gy in 0..g.height {
            base.clear();
            let mut run: Option<i32> = None;
            let mut x = 0i32;
            g.row_bytes(gy, |_, b| {
                for bit in 0..8 {
                    let on = x < g.width as i32 && b & (0x80 >> bit) != 0;
                    match (on, run) {
                        (true, None) => run = Some(x),
                        (false, Some(s)) => {
                            base.push((s, x));
                            run = None;
                        }
                        _ => {}
                    }
                    x += 1;
                }
            });
            if let Some(s) = run {
                base.push((s, x.min(g.width as i32)));
            }
            if base.is_empty() {
                continue;
            }
            for dy in 0..sy {
                let y = gy as i32 * sy + dy;
                let shear = if self.italic { (height - 1 - y) / 4 } else { 0 };
                out.clear();
                for &(a, b) in &base {
                    let (a, b) = (a * sx + shear, b * sx + shear + i32::from(self.bold));
                    match out.last_mut() {
                        Some(last) if last.1 >= a => last.1 = last.1.max(b),
                        _ => out.push((a, b)),
                    }
                }
                f(y, &out);
            }
        }
    }

    /// Every ink pixel of character `ch` ([`PhysFont::glyph_rows`] pixel by
    /// pixel).
    pub fn glyph_pixels(&self, ch: u8, mut f: impl FnMut(i32, i32)) {
        self.glyph_rows(ch, |y, runs| {
            for &(a, b) in runs {
                for x in a..b {
                    f(x, y);
                }
            }
        });
    }
}

impl FntFont {
    /// A font with `header`'s metrics, every character `avg_width` wide and
    /// no glyph bits (the catalogue's stand-in for a missing System font).
    pub fn metrics_only(header: FntHeader, face: &str) -> FntFont {
        FntFont::from_parts(header, face, &[])
    }
}

/// The dialog base units GetDialogBaseUnits reports (USER): the System
/// font's average character width (low word) and height (high word) — the
/// Windows 3.1 SDK: "the dialog base units are computed from the height
/// and width of the system font".
pub fn dialog_base_units(cat: &FontCatalogue) -> (u16, u16) {
    let h = cat.system();
    (h.header().avg_width, h.header().pix_height)
}

// ---------------------------------------------------------------------
// The font functions that need no device context.

use crate::env::Env;
use crate::machine::{Cpu, R, Stop, Uc};
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

    /// The sample NE with one small FNT font at the end and a resource
    /// table of `count` FONT resources that all point at it.
    fn fon_of_one_font(count: u16) -> Vec<u8> {
        let fnt = super::super::fnt::tests::build(0x0200, "One", 0x41, &[(1, &["#"])]);
        let mut f = crate::loader::testdata::sample_ne();
        f.resize(f.len().next_multiple_of(16), 0);
        let at = f.len();
        f.extend_from_slice(&fnt);
        f.resize(f.len().next_multiple_of(16), 0);
        let table = f.len();
        let rel = (table - 0x40) as u16;
        f[0x40 + 0x24..0x40 + 0x26].copy_from_slice(&rel.to_le_bytes());
        f.extend_from_slice(&4u16.to_le_bytes());
        f.extend_from_slice(&0x8008u16.to_le_bytes());
        f.extend_from_slice(&count.to_le_bytes());
        f.extend_from_slice(&[0; 4]);
        for k in 0..count {
            f.extend_from_slice(&((at >> 4) as u16).to_le_bytes());
            f.extend_from_slice(&(fnt.len().div_ceil(16) as u16).to_le_bytes());
            f.extend_from_slice(&0x30u16.to_le_bytes());
            f.extend_from_slice(&(0x8001 + k).to_le_bytes());
            f.extend_from_slice(&[0; 4]);
        }
        f.extend_from_slice(&0u16.to_le_bytes());
        f
    }

    /// Issue 30 item 2: FONT resources that all point at the same font
    /// would each parse it anew; past the file's size they are an error
    /// naming the resource, not a copy per entry.
    #[test]
    fn overlapping_font_resources_are_bounded_by_the_file() {
        let one = parse_fon(&fon_of_one_font(1), None).unwrap();
        assert_eq!(one.fonts.len(), 1);
        assert_eq!(one.fonts[0].font.face, "One");
        let f = fon_of_one_font(2000);
        let e = parse_fon(&f, None).unwrap_err();
        assert_eq!(e.field, "FONT resource", "{e}");
        assert!(e.message.contains("they overlap"), "{e}");
    }

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

    #[test]
    fn builtin_system_is_the_documented_vga_system_font() {
        let f = PhysFont::plain(Rc::new(builtin_system()));
        let tm = f.metrics();
        assert_eq!(
            (tm.height, tm.ascent, tm.descent, tm.internal_leading),
            (16, 13, 3, 3)
        );
        assert_eq!((tm.ave_char_width, tm.max_char_width), (7, 14));
        assert_eq!(tm.external_leading, 0);
        assert_eq!(f.advances(b"Hello"), 35);
        let mut ink = 0;
        f.glyph_pixels(b'H', |_, _| ink += 1);
        assert_eq!(ink, 0, "no glyph bits are invented");
        let cat = FontCatalogue::load(&FontSearch::only(&[]));
        assert!(cat.fonts[0].is_builtin());
        assert!(
            cat.warnings
                .iter()
                .any(|w| w.contains("no System font file"))
        );
        assert_eq!(dialog_base_units(&cat), (7, 16));
    }

    #[test]
    fn simulations() {
        use super::super::fnt::tests::build;
        const I: &[&str] = &["#.", "#.", "#.", "#.", ".."];
        let d = build(0x0300, "T", 65, &[(2, I)]);
        let res = Rc::new(FontResource {
            font: FntFont::parse(&d).unwrap(),
            file: None,
            id: ResourceId::Int(1),
        });
        let mut f = PhysFont::plain(res.clone());
        let mut px = Vec::new();
        f.glyph_pixels(b'A', |x, y| px.push((x, y)));
        assert_eq!(px, vec![(0, 0), (0, 1), (0, 2), (0, 3)]);
        // Bold: each pixel also one to the right; overhang 1.
        f.bold = true;
        px.clear();
        f.glyph_pixels(b'A', |x, y| px.push((x, y)));
        assert_eq!(px.len(), 8);
        assert!(px.contains(&(1, 3)));
        assert_eq!(f.metrics().overhang, 1);
        assert_eq!(f.metrics().weight, 700);
        // Scaled 2 x 3.
        let mut s = PhysFont::plain(res);
        s.scale_x = 2;
        s.scale_y = 3;
        px.clear();
        s.glyph_pixels(b'A', |x, y| px.push((x, y)));
        assert_eq!(px.len(), 4 * 2 * 3);
        assert_eq!(s.metrics().height, 15);
        assert_eq!(s.advance(b'A'), 4);
        // Italic: the top row moves right by (height - 1) / 4.
        let mut it = s.clone();
        it.italic = true;
        assert_eq!(it.overhang(), (15 - 1) / 4);
        px.clear();
        it.glyph_pixels(b'A', |x, y| px.push((x, y)));
        assert!(px.contains(&(3, 0)), "{px:?}");
    }
}
