//! The `.FON` files, where they are looked for, and the catalogue of the
//! fonts they hold (see the parent module).

use std::path::{Path, PathBuf};
use std::rc::Rc;

use super::{
    ANSI_CHARSET, FF_SWISS, FW_BOLD, LOGFONT_SIZE, LogFont, MAX_FON_BYTES, PhysFont, TMPF_VARIABLE,
    dialog_base_units,
};
use crate::loader::LoadError;
use crate::loader::ne::{NeImage, ResourceId};
use crate::win16::gdi::fnt::{FntFont, FntHeader, FontDirEntry, parse_fontdir};

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
        let f = crate::win16::gdi::fontmap::map(self.catalogue(), lf);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The sample NE with one small FNT font at the end and a resource
    /// table of `count` FONT resources that all point at it.
    fn fon_of_one_font(count: u16) -> Vec<u8> {
        let fnt = crate::win16::gdi::fnt::tests::build(0x0200, "One", 0x41, &[(1, &["#"])]);
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
}
