//! Atom tables: KERNEL's local atoms (one table per automatic data
//! segment, the caller's DS) and USER's global atoms (one table for the
//! system).
//!
//! Windows' rules, as the SDK documents them:
//! - an integer atom is `MAKEINTATOM(n)` (a far pointer whose selector word
//!   is 0) or the string `#n` in decimal; valid values are 1..=0xBFFF and
//!   it is its own atom: adding, finding or deleting one touches no table;
//! - a string atom is 0xC000 or more; names compare without regard to case
//!   and keep the case they were first added with; at most 255 characters
//!   (longer names are cut);
//! - AddAtom of a name already present returns the same atom and counts one
//!   more reference; DeleteAtom drops one and frees the atom at zero,
//!   returning 0 on success and the atom itself on failure.
//!
//! The tables live in Rust, not in the local heap (DS:08, pAtomTable, stays
//! as the program left it), each bounded to [`MAX_ATOMS`] atoms.

use std::collections::HashMap;

use super::api::{Api, Arg};
use super::farptr::{self, NameArg};
use super::strings::upper;
use crate::machine::{Cpu, R, Stop, Uc};
use crate::win16::Env;

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new("KERNEL", 68, "INITATOMTABLE", &[Arg::W], init_atom_table),
    Api::new("KERNEL", 69, "FINDATOM", &[Arg::L], find_atom),
    Api::new("KERNEL", 70, "ADDATOM", &[Arg::L], add_atom),
    Api::new("KERNEL", 71, "DELETEATOM", &[Arg::W], delete_atom),
    Api::new(
        "KERNEL",
        72,
        "GETATOMNAME",
        &[Arg::W, Arg::L, Arg::W],
        get_atom_name,
    ),
    Api::new("KERNEL", 73, "GETATOMHANDLE", &[Arg::W], get_atom_handle),
    Api::new("USER", 268, "GLOBALADDATOM", &[Arg::L], global_add_atom),
    Api::new(
        "USER",
        269,
        "GLOBALDELETEATOM",
        &[Arg::W],
        global_delete_atom,
    ),
    Api::new("USER", 270, "GLOBALFINDATOM", &[Arg::L], global_find_atom),
    Api::new(
        "USER",
        271,
        "GLOBALGETATOMNAME",
        &[Arg::W, Arg::L, Arg::W],
        global_get_atom_name,
    ),
];

/// The first string atom; integer atoms lie below it.
pub const MAXINTATOM: u16 = 0xC000;
/// The most string atoms a table holds.
pub const MAX_ATOMS: usize = 0x3FFF;
/// The longest atom name.
pub const MAX_NAME: usize = 255;

#[derive(Debug, Clone)]
struct Entry {
    name: Vec<u8>,
    refs: u16,
    /// A local atom's ATOMENTRY block in its segment's local heap (0: none,
    /// for a global atom or a segment without a heap).
    handle: u16,
}

/// One atom table: string atom `0xC000 + i` is slot `i`.
#[derive(Debug, Clone, Default)]
pub struct AtomTable {
    slots: Vec<Option<Entry>>,
    /// Slot by upper-cased name.
    index: HashMap<Vec<u8>, usize>,
    /// Empty slots below `slots.len()`, the lowest reused first.
    free: std::collections::BTreeSet<usize>,
}

/// What an atom argument names.
enum Key {
    /// An integer atom (0 when invalid).
    Int(u16),
    Name(Vec<u8>),
}

fn key_of(arg: NameArg) -> Key {
    match arg {
        NameArg::Int(n) if n < MAXINTATOM => Key::Int(n),
        NameArg::Int(_) => Key::Int(0),
        NameArg::Str(mut s) => {
            s.truncate(MAX_NAME);
            Key::Name(s)
        }
    }
}

/// The index key: names compare without regard to case.
fn folded(name: &[u8]) -> Vec<u8> {
    name.iter().map(|&c| upper(c)).collect()
}

impl AtomTable {
    fn find_slot(&self, name: &[u8]) -> Option<usize> {
        self.index.get(&folded(name)).copied()
    }

    /// AddAtom on a name or integer.
    pub fn add(&mut self, arg: NameArg) -> u16 {
        let name = match key_of(arg) {
            Key::Int(n) => return n,
            Key::Name(s) if s.is_empty() => return 0,
            Key::Name(s) => s,
        };
        if let Some(i) = self.find_slot(&name) {
            let e = self.slots[i].as_mut().expect("found");
            e.refs = e.refs.saturating_add(1);
            return MAXINTATOM + i as u16;
        }
        let key = folded(&name);
        let entry = Some(Entry {
            name,
            refs: 1,
            handle: 0,
        });
        let i = match self.free.pop_first() {
            Some(i) => {
                self.slots[i] = entry;
                i
            }
            None if self.slots.len() < MAX_ATOMS => {
                self.slots.push(entry);
                self.slots.len() - 1
            }
            None => return 0,
        };
        self.index.insert(key, i);
        MAXINTATOM + i as u16
    }

    /// FindAtom: the atom, 0 if absent.
    pub fn find(&self, arg: NameArg) -> u16 {
        match key_of(arg) {
            Key::Int(n) => n,
            Key::Name(s) => self.find_slot(&s).map_or(0, |i| MAXINTATOM + i as u16),
        }
    }

    /// DeleteAtom: 0 on success, the atom if it is not in the table.
    pub fn delete(&mut self, atom: u16) -> u16 {
        if atom < MAXINTATOM {
            return 0;
        }
        let Some(slot) = self.slots.get_mut(usize::from(atom - MAXINTATOM)) else {
            return atom;
        };
        match slot {
            Some(e) if e.refs > 1 => e.refs -= 1,
            Some(e) => {
                self.index.remove(&folded(&e.name));
                *slot = None;
                self.free.insert(usize::from(atom - MAXINTATOM));
            }
            None => return atom,
        }
        0
    }

    fn entry_mut(&mut self, atom: u16) -> Option<&mut Entry> {
        let i = usize::from(atom.checked_sub(MAXINTATOM)?);
        self.slots.get_mut(i)?.as_mut()
    }

    /// The local handle of a string atom's ATOMENTRY block, 0 for an
    /// integer atom, an atom not in the table or one without a block.
    pub fn handle(&self, atom: u16) -> u16 {
        atom.checked_sub(MAXINTATOM)
            .and_then(|i| self.slots.get(usize::from(i)))
            .and_then(|e| e.as_ref())
            .map_or(0, |e| e.handle)
    }

    /// The atom's name (`#n` for an integer atom), None for 0 or an atom
    /// not in the table.
    pub fn name(&self, atom: u16) -> Option<Vec<u8>> {
        match atom {
            0 => None,
            n if n < MAXINTATOM => Some(format!("#{n}").into_bytes()),
            n => self
                .slots
                .get(usize::from(n - MAXINTATOM))?
                .as_ref()
                .map(|e| e.name.clone()),
        }
    }
}

/// Every atom table.
#[derive(Clone, Debug, Default)]
pub struct Atoms {
    /// Local tables by the data segment's selector.
    pub local: HashMap<u16, AtomTable>,
    pub global: AtomTable,
}

fn local<'a>(env: &'a mut Env, uc: &Uc<'_>) -> &'a mut AtomTable {
    env.win16.atoms.local.entry(uc.reg(R::DS)).or_default()
}

/// GetAtomName / GlobalGetAtomName(atom, lpBuffer, cbBuffer): the number
/// of bytes copied, the name cut to cbBuffer - 1 bytes.
fn copy_name(uc: &mut Uc<'_>, name: Option<Vec<u8>>, buf: u32, size: u32) -> u32 {
    let size = farptr::int_size(size);
    match name {
        Some(n) => farptr::write_cstr_truncated(uc, buf, &n, size).map_or(0, |n| n as u32),
        None => 0,
    }
}

/// KERNEL.68 InitAtomTable(cTableEntries): TRUE (the table exists).
pub fn init_atom_table(env: &mut Env, uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    local(env, uc);
    Ok(1)
}

/// KERNEL.69 FindAtom(lpszString).
pub fn find_atom(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(NameArg::read(uc, a[0]).map_or(0, |n| u32::from(local(env, uc).find(n))))
}

/// Bring a local string atom's ATOMENTRY block up to date, as Windows
/// 3.1 keeps it in the local heap: `WORD next` (0: the table's chains are
/// kept in Rust), `WORD refCount`, `BYTE length`, the name and a NUL. The
/// block is made (LMEM_FIXED) when the atom is new and the segment has a
/// heap, and freed with the atom.
fn sync_entry(env: &mut Env, uc: &mut Uc<'_>, atom: u16) {
    let ds = uc.reg(R::DS);
    let Some(table) = env.win16.atoms.local.get_mut(&ds) else {
        return;
    };
    let heaps = &mut env.win16.local_heaps.heaps;
    if let Some(e) = table.entry_mut(atom) {
        if e.handle == 0 {
            if let Some(heap) = heaps.get_mut(&ds) {
                let size = 6 + e.name.len() as u16;
                e.handle = heap.alloc(uc, ds, 0, size);
            }
        }
        if e.handle != 0 {
            let mut b = vec![0, 0];
            b.extend_from_slice(&e.refs.to_le_bytes());
            b.push(e.name.len() as u8);
            b.extend_from_slice(&e.name);
            b.push(0);
            let _ = uc.write_seg(ds, e.handle, &b);
        }
    }
}

/// KERNEL.70 AddAtom(lpszString): the atom; a new string atom also gets
/// its ATOMENTRY block in the local heap (sync_entry).
pub fn add_atom(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let atom = NameArg::read(uc, a[0]).map_or(0, |n| local(env, uc).add(n));
    sync_entry(env, uc, atom);
    Ok(u32::from(atom))
}

/// KERNEL.71 DeleteAtom(atom): the last reference frees the atom's
/// ATOMENTRY block.
pub fn delete_atom(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let atom = a[0] as u16;
    let handle = local(env, uc).handle(atom);
    let r = local(env, uc).delete(atom);
    if r == 0 && handle != 0 {
        if local(env, uc).handle(atom) == handle {
            sync_entry(env, uc, atom);
        } else {
            let ds = uc.reg(R::DS);
            if let Some(heap) = env.win16.local_heaps.heaps.get_mut(&ds) {
                heap.free(uc, ds, handle);
            }
        }
    }
    Ok(u32::from(r))
}

/// KERNEL.73 GetAtomHandle(atom): the local handle of a local string
/// atom's ATOMENTRY block (`WORD next; WORD refCount; BYTE length;`
/// the name), 0 for an integer atom or an atom the caller's table lacks.
/// Windows 3.1 derives its string atoms from these handles
/// (0xC000 | handle >> 2); here atoms are numbered from 0xC000 in the
/// order they were made, so the two cannot be computed from each other.
pub fn get_atom_handle(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(local(env, uc).handle(a[0] as u16)))
}

/// KERNEL.72 GetAtomName(atom, lpszBuffer, cbBuffer).
pub fn get_atom_name(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let name = local(env, uc).name(a[0] as u16);
    Ok(copy_name(uc, name, a[1], a[2]))
}

/// USER.268 GlobalAddAtom(lpszString).
pub fn global_add_atom(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(NameArg::read(uc, a[0]).map_or(0, |n| u32::from(env.win16.atoms.global.add(n))))
}

/// USER.269 GlobalDeleteAtom(atom).
pub fn global_delete_atom(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(env.win16.atoms.global.delete(a[0] as u16)))
}

/// USER.270 GlobalFindAtom(lpszString).
pub fn global_find_atom(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(NameArg::read(uc, a[0]).map_or(0, |n| u32::from(env.win16.atoms.global.find(n))))
}

/// USER.271 GlobalGetAtomName(atom, lpszBuffer, cbBuffer).
pub fn global_get_atom_name(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let name = env.win16.atoms.global.name(a[0] as u16);
    Ok(copy_name(uc, name, a[1], a[2]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }
    use crate::machine::{Machine, SegKind};

    fn s(x: &str) -> NameArg {
        NameArg::parse(x.as_bytes().to_vec())
    }

    #[test]
    fn integer_atoms_are_themselves() {
        let mut t = AtomTable::default();
        assert_eq!(t.add(NameArg::Int(1)), 1);
        assert_eq!(t.add(NameArg::Int(0xBFFF)), 0xBFFF);
        assert_eq!(t.add(NameArg::Int(0xC000)), 0);
        assert_eq!(t.add(NameArg::Int(0)), 0);
        assert_eq!(t.add(s("#1234")), 1234);
        assert_eq!(t.add(s("#49152")), 0);
        assert_eq!(t.find(s("#77")), 77);
        assert_eq!(t.delete(1234), 0);
        assert_eq!(t.name(1234), Some(b"#1234".to_vec()));
        assert_eq!(t.name(0), None);
        // No table entry was made for any of them.
        assert!(t.slots.is_empty());
        // "#12a" is not a number: a string atom.
        assert!(t.add(s("#12a")) >= MAXINTATOM);
    }

    #[test]
    fn string_atoms_count_references_and_ignore_case() {
        let mut t = AtomTable::default();
        let a = t.add(s("Hello"));
        assert_eq!(a, 0xC000);
        assert_eq!(t.add(s("HELLO")), a);
        assert_eq!(t.find(s("hello")), a);
        assert_eq!(t.name(a), Some(b"Hello".to_vec()));
        let b = t.add(s("other"));
        assert_eq!(b, 0xC001);
        // Two references: the first delete keeps it.
        assert_eq!(t.delete(a), 0);
        assert_eq!(t.find(s("hello")), a);
        assert_eq!(t.delete(a), 0);
        assert_eq!(t.find(s("hello")), 0);
        assert_eq!(t.name(a), None);
        // Deleting again fails with the atom itself.
        assert_eq!(t.delete(a), a);
        assert_eq!(t.delete(0xFFFF), 0xFFFF);
        // The freed slot is reused.
        assert_eq!(t.add(s("third")), a);
        assert_eq!(t.add(s("")), 0);
        // Names longer than 255 are cut.
        let long = "x".repeat(300);
        let l = t.add(s(&long));
        assert_eq!(t.name(l).unwrap().len(), 255);
        assert_eq!(t.find(s(&long[..255])), l);
    }

    #[test]
    fn tables_are_bounded() {
        let mut t = AtomTable::default();
        for i in 0..MAX_ATOMS {
            assert_ne!(t.add(s(&format!("a{i}"))), 0);
        }
        assert_eq!(t.add(s("one too many")), 0);
        assert_eq!(t.add(s("a5")), MAXINTATOM + 5);
    }

    #[test]
    fn local_tables_follow_ds_and_global_is_shared() {
        let mut m = Machine::new_protected().unwrap();
        let mut env = Env::new(false);
        let d1 = m.alloc_segment(SegKind::Data, 0x100, b"Name\0").unwrap();
        let d2 = m.alloc_segment(SegKind::Data, 0x100, &[]).unwrap();
        let name = farptr::make(d1, 0);
        m.set_reg(R::DS, d1).unwrap();
        let a = add_atom(&mut env, &mut m, &[name]).unwrap();
        assert_eq!(a, 0xC000);
        m.set_reg(R::DS, d2).unwrap();
        assert_eq!(find_atom(&mut env, &mut m, &[name]).unwrap(), 0);
        let g = global_add_atom(&mut env, &mut m, &[name]).unwrap();
        assert_eq!(global_find_atom(&mut env, &mut m, &[name]).unwrap(), g);
        // GetAtomName into a short buffer: cut, NUL-terminated, counted.
        let buf = farptr::make(d2, 0x80);
        assert_eq!(
            global_get_atom_name(&mut env, &mut m, &[g, buf, 3]).unwrap(),
            2
        );
        assert_eq!(farptr::read_cstr(&m, buf, 10), Some(b"Na".to_vec()));
        assert_eq!(get_atom_name(&mut env, &mut m, &[42, buf, 10]).unwrap(), 3);
        assert_eq!(farptr::read_cstr(&m, buf, 10), Some(b"#42".to_vec()));
        assert_eq!(get_atom_name(&mut env, &mut m, &[42, buf, 0]).unwrap(), 0);
        // Bad pointers: 0, no fault.
        assert_eq!(add_atom(&mut env, &mut m, &[0x1234_0000]).unwrap(), 0);
        assert_eq!(get_atom_name(&mut env, &mut m, &[42, 0, 10]).unwrap(), 0);
        assert_eq!(global_delete_atom(&mut env, &mut m, &[g]).unwrap(), 0);
        assert_eq!(global_find_atom(&mut env, &mut m, &[name]).unwrap(), 0);
        assert_eq!(init_atom_table(&mut env, &mut m, &[37]).unwrap(), 1);
    }
}
