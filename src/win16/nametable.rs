//! The name table (resource type 15, RT_NAMETABLE) that the Windows 3.0
//! resource compiler wrote, and that Windows 3.0 and 3.1's FindResource
//! consult: a resource the script named (`MAIN DIALOG ...`, or a type
//! named `MYDATA`) was stored in the resource table under an ordinal, and
//! the name table maps the names back to those ordinals.
//!
//! The format (Windows 3.1 SDK, "Name-Table Resource" and "Name-Table
//! Entry"): a sequence of entries, each
//!
//! | offset | size | member |
//! | --- | --- | --- |
//! | 0 | WORD | wBytesInEntry: the entry's length in bytes (0 ends the table) |
//! | 2 | WORD | wTypeOrdinal: the type's ordinal; its high bit set when the type had a name, replaced by this ordinal |
//! | 4 | WORD | wIDOrdinal: the resource's ordinal; its high bit set when it had a name, replaced by this ordinal |
//! | 6 | char[] | szType: the type's name, NUL-terminated (a single NUL when the type had none) |
//! | .. | char[] | szID: the resource's name, NUL-terminated (a single NUL when it had none) |
//!
//! A lookup by name ([`lookup`]) matches an entry when its type is the one
//! asked for (an integer type: wTypeOrdinal without the high bit equals
//! it and the type had no name; a type name: szType equals it, case
//! insensitively, as resource names compare) and its resource is (a
//! name: szID equals it; an integer: wIDOrdinal's low 15 bits equal it);
//! the resource is then the one of type wTypeOrdinal & 0x7FFF and id
//! wIDOrdinal & 0x7FFF in the resource table, as Wine's
//! NE_FindNameTableId resolves it. A malformed entry (shorter than its
//! header, running past the resource, strings without their NUL) ends the
//! table there.

use super::farptr::NameArg;
use super::strings::eq_nocase;

/// The resource type of a name table.
pub const RT_NAMETABLE: u16 = 15;

/// One entry of a name table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// wTypeOrdinal.
    pub type_ordinal: u16,
    /// wIDOrdinal.
    pub id_ordinal: u16,
    /// szType (without its NUL).
    pub type_name: Vec<u8>,
    /// szID (without its NUL).
    pub id_name: Vec<u8>,
}

/// The high bit of wTypeOrdinal and wIDOrdinal: the name was replaced by
/// the ordinal.
const NAMED: u16 = 0x8000;

/// The entries of a name table resource's bytes, up to its end (a zero
/// length word, the end of the bytes, or a malformed entry: module doc).
pub fn parse(data: &[u8]) -> Vec<Entry> {
    let word = |at: usize| u16::from_le_bytes([data[at], data[at + 1]]);
    let mut out = Vec::new();
    let mut at = 0usize;
    while at + 6 <= data.len() {
        let len = usize::from(word(at));
        if len < 8 || at + len > data.len() {
            break;
        }
        let body = &data[at + 6..at + len];
        let Some(t_end) = body.iter().position(|&b| b == 0) else {
            break;
        };
        let rest = &body[t_end + 1..];
        let Some(i_end) = rest.iter().position(|&b| b == 0) else {
            break;
        };
        out.push(Entry {
            type_ordinal: word(at + 2),
            id_ordinal: word(at + 4),
            type_name: body[..t_end].to_vec(),
            id_name: rest[..i_end].to_vec(),
        });
        at += len;
    }
    out
}

impl Entry {
    /// Does this entry stand for resource `name` of type `rt`?
    pub fn matches(&self, name: &NameArg, rt: &NameArg) -> bool {
        let type_ok = match rt {
            NameArg::Int(t) => self.type_ordinal & NAMED == 0 && self.type_ordinal == *t,
            NameArg::Str(s) => self.type_ordinal & NAMED != 0 && eq_nocase(&self.type_name, s),
        };
        let id_ok = match name {
            NameArg::Int(i) => self.id_ordinal & !NAMED == *i,
            NameArg::Str(s) => self.id_ordinal & NAMED != 0 && eq_nocase(&self.id_name, s),
        };
        type_ok && id_ok
    }

    /// The (type, id) ordinals of the resource it stands for.
    pub fn ordinals(&self) -> (u16, u16) {
        (self.type_ordinal & !NAMED, self.id_ordinal & !NAMED)
    }
}

/// Resource `name` of type `rt` through the name tables `tables` (each
/// one's bytes, in the resource table's order): the (type, id) ordinals
/// to look up instead, or None. Only a lookup with a name consults them.
pub fn lookup<'a>(
    tables: impl IntoIterator<Item = &'a [u8]>,
    name: &NameArg,
    rt: &NameArg,
) -> Option<(u16, u16)> {
    if matches!((name, rt), (NameArg::Int(_), NameArg::Int(_))) {
        return None;
    }
    tables
        .into_iter()
        .flat_map(parse)
        .find(|e| e.matches(name, rt))
        .map(|e| e.ordinals())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One entry's bytes.
    fn entry(t: u16, id: u16, tn: &[u8], idn: &[u8]) -> Vec<u8> {
        let len = 6 + tn.len() + 1 + idn.len() + 1;
        let mut b = Vec::new();
        b.extend_from_slice(&(len as u16).to_le_bytes());
        b.extend_from_slice(&t.to_le_bytes());
        b.extend_from_slice(&id.to_le_bytes());
        b.extend_from_slice(tn);
        b.push(0);
        b.extend_from_slice(idn);
        b.push(0);
        b
    }

    fn table() -> Vec<u8> {
        let mut b = entry(5, 0x8064, b"", b"MAIN");
        b.extend(entry(0x8100, 0x8001, b"MYDATA", b"HELLO"));
        b.extend(entry(0x8101, 7, b"OTHER", b""));
        b.extend_from_slice(&[0, 0]);
        b
    }

    fn s(v: &str) -> NameArg {
        NameArg::Str(v.as_bytes().to_vec())
    }

    #[test]
    fn parses_the_sdk_layout() {
        let e = parse(&table());
        assert_eq!(e.len(), 3);
        assert_eq!(
            e[0],
            Entry {
                type_ordinal: 5,
                id_ordinal: 0x8064,
                type_name: vec![],
                id_name: b"MAIN".to_vec()
            }
        );
        assert_eq!(e[1].type_name, b"MYDATA");
        assert_eq!(e[1].id_name, b"HELLO");
    }

    #[test]
    fn names_map_to_the_ordinals() {
        let t = table();
        let look = |n: &NameArg, r: &NameArg| lookup([t.as_slice()], n, r);
        // A named dialog stored as #100 (0x8064).
        assert_eq!(look(&s("main"), &NameArg::Int(5)), Some((5, 100)));
        // Not of another type.
        assert_eq!(look(&s("MAIN"), &NameArg::Int(4)), None);
        // A named type and a named resource.
        assert_eq!(look(&s("Hello"), &s("mydata")), Some((0x100, 1)));
        // A named type with an integer resource.
        assert_eq!(look(&NameArg::Int(7), &s("OTHER")), Some((0x101, 7)));
        // A name never given.
        assert_eq!(look(&s("NONE"), &NameArg::Int(5)), None);
        // Two integers never consult the table.
        assert_eq!(look(&NameArg::Int(100), &NameArg::Int(5)), None);
    }

    #[test]
    fn a_malformed_entry_ends_the_table() {
        let mut t = entry(5, 0x8064, b"", b"MAIN");
        // A length past the bytes.
        t.extend_from_slice(&[0x40, 0, 4, 0, 1, 0x80, 0, b'X', 0]);
        assert_eq!(parse(&t).len(), 1);
        // A length shorter than the header.
        assert!(parse(&[4, 0, 5, 0, 1, 0]).is_empty());
        // Strings without their NUL.
        assert!(parse(&[9, 0, 5, 0, 1, 0x80, 0, b'A', b'B']).is_empty());
    }

    proptest::proptest! {
        #[test]
        fn parse_takes_any_bytes(data in proptest::collection::vec(proptest::num::u8::ANY, 0..512)) {
            let e = parse(&data);
            // Each entry takes at least 8 bytes.
            proptest::prop_assert!(e.len() * 8 <= data.len());
        }
    }
}
