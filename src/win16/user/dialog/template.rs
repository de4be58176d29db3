//! Dialog box templates in the Windows 3.x layout (RT_DIALOG resources,
//! and the memory DialogBoxIndirect and CreateDialogIndirect are given).
//!
//! ```text
//! DLGTEMPLATE            DLGITEMTEMPLATE (count times, right after)
//!  00 DWORD style          00 WORD x    02 WORD y
//!  04 BYTE  count          04 WORD cx   06 WORD cy
//!  05 WORD  x              08 WORD id
//!  07 WORD  y              0A DWORD style
//!  09 WORD  cx             0E class: a byte 0x80..0x85 (BUTTON, EDIT,
//!  0B WORD  cy                STATIC, LISTBOX, SCROLLBAR, COMBOBOX) or a
//!  0D menu name               NUL-terminated name
//!     class name           .. text
//!     caption              .. BYTE n, then n bytes of creation data
//!     with DS_SETFONT:
//!       WORD point size, face name
//! ```
//!
//! Every name is a NUL-terminated string, or when its first byte is 0xFF,
//! an ordinal in the next word (the Windows 3.x dialog manager reads every
//! string of a template this way: KB Q66926, which is why a text starting
//! with character 255 breaks a dialog). An empty menu name means no menu,
//! an empty class name the dialog class.
//!
//! Dimensions are dialog units. Parsing is bounded by the bytes given: a
//! template that ends early is an error naming the offset and the field.

use std::fmt;

/// DS_SETFONT: the template names a font.
pub const DS_SETFONT: u32 = 0x0040;

/// The fixed part of a DLGTEMPLATE.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DlgTemplate {
    pub style: u32,
    pub count: u8,
    pub x: i16,
    pub y: i16,
    pub cx: i16,
    pub cy: i16,
}

/// DLGTEMPLATE's fixed size.
pub const DLGTEMPLATE_SIZE: usize = 13;

impl DlgTemplate {
    pub fn from_bytes(b: &[u8; DLGTEMPLATE_SIZE]) -> DlgTemplate {
        let w = |i: usize| i16::from_le_bytes([b[i], b[i + 1]]);
        DlgTemplate {
            style: u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
            count: b[4],
            x: w(5),
            y: w(7),
            cx: w(9),
            cy: w(11),
        }
    }

    pub fn to_bytes(&self) -> [u8; DLGTEMPLATE_SIZE] {
        let mut b = [0u8; DLGTEMPLATE_SIZE];
        b[0..4].copy_from_slice(&self.style.to_le_bytes());
        b[4] = self.count;
        for (i, v) in [self.x, self.y, self.cx, self.cy].iter().enumerate() {
            b[5 + 2 * i..7 + 2 * i].copy_from_slice(&v.to_le_bytes());
        }
        b
    }
}

/// The fixed part of a DLGITEMTEMPLATE.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DlgItemTemplate {
    pub x: i16,
    pub y: i16,
    pub cx: i16,
    pub cy: i16,
    pub id: u16,
    pub style: u32,
}

/// DLGITEMTEMPLATE's fixed size.
pub const DLGITEMTEMPLATE_SIZE: usize = 14;

impl DlgItemTemplate {
    pub fn from_bytes(b: &[u8; DLGITEMTEMPLATE_SIZE]) -> DlgItemTemplate {
        let w = |i: usize| i16::from_le_bytes([b[i], b[i + 1]]);
        DlgItemTemplate {
            x: w(0),
            y: w(2),
            cx: w(4),
            cy: w(6),
            id: u16::from_le_bytes([b[8], b[9]]),
            style: u32::from_le_bytes([b[10], b[11], b[12], b[13]]),
        }
    }

    pub fn to_bytes(&self) -> [u8; DLGITEMTEMPLATE_SIZE] {
        let mut b = [0u8; DLGITEMTEMPLATE_SIZE];
        for (i, v) in [self.x, self.y, self.cx, self.cy].iter().enumerate() {
            b[2 * i..2 * i + 2].copy_from_slice(&v.to_le_bytes());
        }
        b[8..10].copy_from_slice(&self.id.to_le_bytes());
        b[10..14].copy_from_slice(&self.style.to_le_bytes());
        b
    }
}

/// A name field: where it is in the template, and what it says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Name {
    /// A string (possibly empty), at this offset.
    Str { offset: usize, text: Vec<u8> },
    /// 0xFF and an ordinal, at this offset (of the 0xFF).
    Ord { offset: usize, id: u16 },
}

impl Name {
    /// Empty: no name.
    pub fn is_empty(&self) -> bool {
        matches!(self, Name::Str { text, .. } if text.is_empty())
    }

    pub fn offset(&self) -> usize {
        match self {
            Name::Str { offset, .. } | Name::Ord { offset, .. } => *offset,
        }
    }
}

/// A dialog item's class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ItemClass {
    /// 0x80..0xFF: a predefined class (0x80 BUTTON ... 0x85 COMBOBOX).
    Predefined(u8),
    Named(Name),
}

/// One control of the template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    pub fixed: DlgItemTemplate,
    pub class: ItemClass,
    pub text: Name,
    /// The creation data: its offset and length (after the count byte).
    pub data: (usize, usize),
}

/// A parsed template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    pub fixed: DlgTemplate,
    pub menu: Name,
    pub class: Name,
    pub caption: Name,
    /// DS_SETFONT's point size and face name.
    pub font: Option<(u16, Vec<u8>)>,
    pub items: Vec<Item>,
    /// How many bytes the template took.
    pub len: usize,
}

/// Why a template could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateError {
    pub offset: usize,
    pub what: String,
}

impl fmt::Display for TemplateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "dialog template at offset {:#x}: {}",
            self.offset, self.what
        )
    }
}

impl std::error::Error for TemplateError {}

struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn err(&self, what: impl Into<String>) -> TemplateError {
        TemplateError {
            offset: self.at,
            what: what.into(),
        }
    }

    fn take(&mut self, n: usize, what: &str) -> Result<&[u8], TemplateError> {
        if self.b.len() - self.at < n {
            return Err(self.err(format!("the template ends inside the {what}")));
        }
        let s = &self.b[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }

    fn byte(&mut self, what: &str) -> Result<u8, TemplateError> {
        Ok(self.take(1, what)?[0])
    }

    fn word(&mut self, what: &str) -> Result<u16, TemplateError> {
        let s = self.take(2, what)?;
        Ok(u16::from_le_bytes([s[0], s[1]]))
    }

    /// A NUL-terminated string (without its NUL).
    fn string(&mut self, what: &str) -> Result<Vec<u8>, TemplateError> {
        let rest = &self.b[self.at..];
        let Some(n) = rest.iter().position(|&c| c == 0) else {
            return Err(self.err(format!("the {what} has no terminating NUL")));
        };
        let s = rest[..n].to_vec();
        self.at += n + 1;
        Ok(s)
    }

    /// A name: a string, or 0xFF and an ordinal.
    fn name(&mut self, what: &str) -> Result<Name, TemplateError> {
        let offset = self.at;
        if self.b.get(self.at) == Some(&0xFF) {
            self.at += 1;
            let id = self.word(what)?;
            return Ok(Name::Ord { offset, id });
        }
        Ok(Name::Str {
            offset,
            text: self.string(what)?,
        })
    }
}

/// Read a template from its bytes.
pub fn parse(b: &[u8]) -> Result<Template, TemplateError> {
    let mut r = Reader { b, at: 0 };
    let fixed: [u8; DLGTEMPLATE_SIZE] = r
        .take(DLGTEMPLATE_SIZE, "DLGTEMPLATE header")?
        .try_into()
        .map_err(|_| r.err("DLGTEMPLATE header"))?;
    let fixed = DlgTemplate::from_bytes(&fixed);
    let menu = r.name("menu name")?;
    let class = r.name("class name")?;
    let caption = r.name("caption")?;
    let font = if fixed.style & DS_SETFONT != 0 {
        let pt = r.word("font's point size")?;
        Some((pt, r.string("font's face name")?))
    } else {
        None
    };
    let mut items = Vec::with_capacity(usize::from(fixed.count));
    for i in 0..fixed.count {
        let what = format!("item {i}'s DLGITEMTEMPLATE");
        let f: [u8; DLGITEMTEMPLATE_SIZE] = r
            .take(DLGITEMTEMPLATE_SIZE, &what)?
            .try_into()
            .map_err(|_| r.err(what.clone()))?;
        let fixed = DlgItemTemplate::from_bytes(&f);
        let class = match r.b.get(r.at) {
            Some(&c) if c >= 0x80 && c != 0xFF => {
                r.at += 1;
                ItemClass::Predefined(c)
            }
            _ => ItemClass::Named(r.name(&format!("item {i}'s class"))?),
        };
        let text = r.name(&format!("item {i}'s text"))?;
        let n = usize::from(r.byte(&format!("item {i}'s creation data count"))?);
        let offset = r.at;
        r.take(n, &format!("item {i}'s creation data"))?;
        items.push(Item {
            fixed,
            class,
            text,
            data: (offset, n),
        });
    }
    Ok(Template {
        fixed,
        menu,
        class,
        caption,
        font,
        items,
        len: r.at,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A template as RC would write it: an about box with a font, an icon
    /// by ordinal, a string-class control and creation data.
    fn sample() -> Vec<u8> {
        let mut b = DlgTemplate {
            style: 0x80C8_0000 | DS_SETFONT,
            count: 3,
            x: 22,
            y: 17,
            cx: 144,
            cy: 75,
        }
        .to_bytes()
        .to_vec();
        b.push(0); // no menu
        b.push(0); // the dialog class
        b.extend_from_slice(b"About\0");
        b.extend_from_slice(&8u16.to_le_bytes());
        b.extend_from_slice(b"Helv\0");
        let item = |b: &mut Vec<u8>, id: u16, style: u32| {
            b.extend_from_slice(
                &DlgItemTemplate {
                    x: 4,
                    y: 5,
                    cx: 32,
                    cy: 14,
                    id,
                    style,
                }
                .to_bytes(),
            );
        };
        item(&mut b, 1, 0x5001_0001);
        b.push(0x80);
        b.extend_from_slice(b"OK\0");
        b.push(0);
        item(&mut b, 0xFFFF, 0x5000_0003);
        b.push(0x82);
        b.extend_from_slice(&[0xFF, 0x65, 0x00]);
        b.push(0);
        item(&mut b, 100, 0x5000_0000);
        b.extend_from_slice(b"MyCtl\0");
        b.extend_from_slice(b"text\0");
        b.push(2);
        b.extend_from_slice(&[0xAB, 0xCD]);
        b
    }

    #[test]
    fn the_fixed_parts_have_windows_byte_layout() {
        let t = DlgTemplate {
            style: 0x1122_3344,
            count: 5,
            x: 1,
            y: -2,
            cx: 0x0304,
            cy: 0x0506,
        };
        let b = t.to_bytes();
        assert_eq!(b, [0x44, 0x33, 0x22, 0x11, 5, 1, 0, 0xFE, 0xFF, 4, 3, 6, 5]);
        assert_eq!(DlgTemplate::from_bytes(&b), t);
        let i = DlgItemTemplate {
            x: 1,
            y: 2,
            cx: 3,
            cy: 4,
            id: 0x0A0B,
            style: 0x5001_0002,
        };
        let b = i.to_bytes();
        assert_eq!(b, [1, 0, 2, 0, 3, 0, 4, 0, 0x0B, 0x0A, 2, 0, 1, 0x50]);
        assert_eq!(DlgItemTemplate::from_bytes(&b), i);
    }

    #[test]
    fn a_template_with_font_ordinals_and_creation_data() {
        let b = sample();
        let t = parse(&b).unwrap();
        assert_eq!(t.len, b.len());
        assert_eq!((t.fixed.x, t.fixed.cy, t.fixed.count), (22, 75, 3));
        assert!(t.menu.is_empty() && t.class.is_empty());
        assert_eq!(
            t.caption,
            Name::Str {
                offset: 15,
                text: b"About".to_vec()
            }
        );
        assert_eq!(t.font, Some((8, b"Helv".to_vec())));
        assert_eq!(t.items.len(), 3);
        assert_eq!(t.items[0].class, ItemClass::Predefined(0x80));
        assert_eq!(t.items[0].fixed.id, 1);
        assert!(matches!(t.items[1].text, Name::Ord { id: 0x65, .. }));
        let Name::Ord { offset, .. } = t.items[1].text else {
            unreachable!()
        };
        assert_eq!(b[offset], 0xFF);
        assert!(
            matches!(&t.items[2].class, ItemClass::Named(Name::Str { text, .. }) if text == b"MyCtl")
        );
        let (off, n) = t.items[2].data;
        assert_eq!(&b[off..off + n], &[0xAB, 0xCD]);
    }

    #[test]
    fn a_short_template_names_where_it_ends() {
        let b = sample();
        for cut in 0..b.len() {
            let e = parse(&b[..cut]).unwrap_err();
            assert!(e.offset <= cut, "{cut}: {e}");
        }
        let e = parse(&b[..25]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "dialog template at offset 0x17: the font's face name has no terminating NUL"
        );
        let e = parse(&[0; 5]).unwrap_err();
        assert!(e.what.contains("DLGTEMPLATE header"), "{e}");
    }

    use proptest::prelude::*;

    proptest! {
        #[test]
        fn arbitrary_bytes_never_panic(b in proptest::collection::vec(any::<u8>(), 0..600)) {
            if let Ok(t) = parse(&b) {
                prop_assert!(t.len <= b.len());
                prop_assert_eq!(t.items.len(), usize::from(t.fixed.count));
            }
        }
    }
}
