//! Hand-built sample files for tests (unit, integration and property
//! tests). Not part of the loader proper.

use super::ne::{
    NEF_MULTIPLEDATA, NESEG_DATA, NESEG_ITERATED, NESEG_MOVEABLE, NESEG_PRELOAD, NESEG_RELOCS,
    RELOC_ADDITIVE, RELOC_FARPTR, RELOC_OFFSET, RELOC_SELECTOR,
};

/// Offsets in segment 1 of [`sample_ne`] that its far-pointer chain visits.
pub const SAMPLE_CHAIN: [usize; 3] = [0x02, 0x08, 0x10];

/// A minimal but complete NE file, built by hand:
/// MZ stub (0x40 bytes) + NE header at 0x40 + tables + two segments.
/// Segment 1 (code, 0x20 bytes at 0x200) has 5 relocations: a chain of
/// three far pointers to USER.1 (at 0x02 -> 0x08 -> 0x10 -> end), an
/// additive offset to segment 2:0x0010 at 0x14, an import by name
/// KERNEL.INITTASK selector at 0x18 (single), and an OS fixup.
/// Segment 2 is data with no file data (min alloc 0x100).
pub fn sample_ne() -> Vec<u8> {
    let mut f = vec![0u8; 0x200];
    let w = |f: &mut Vec<u8>, o: usize, v: u16| f[o..o + 2].copy_from_slice(&v.to_le_bytes());
    // MZ stub.
    f[0] = b'M';
    f[1] = b'Z';
    w(&mut f, 2, 0x40);
    w(&mut f, 4, 1);
    w(&mut f, 8, 4);
    w(&mut f, 0x18, 0x40);
    f[0x3C] = 0x40;
    // NE header at 0x40.
    let ne = 0x40;
    f[ne] = b'N';
    f[ne + 1] = b'E';
    f[ne + 2] = 5;
    f[ne + 3] = 10;
    // Tables, relative to ne: segtab 0x40 (2*8), rsrctab 0x50 (== restab,
    // none), restab 0x50, modtab 0x62, imptab 0x66, enttab 0x80.
    w(&mut f, ne + 0x04, 0x80); // enttab
    w(&mut f, ne + 0x06, 0x10); // cbenttab
    w(&mut f, ne + 0x0C, NEF_MULTIPLEDATA);
    w(&mut f, ne + 0x0E, 2); // autodata
    w(&mut f, ne + 0x10, 0x400); // heap
    w(&mut f, ne + 0x12, 0x1000); // stack
    w(&mut f, ne + 0x14, 0x0000); // ip
    w(&mut f, ne + 0x16, 1); // cs
    w(&mut f, ne + 0x18, 0); // sp
    w(&mut f, ne + 0x1A, 2); // ss
    w(&mut f, ne + 0x1C, 2); // cseg
    w(&mut f, ne + 0x1E, 2); // cmod
    w(&mut f, ne + 0x20, 0x0C); // cbnrestab
    w(&mut f, ne + 0x22, 0x40);
    w(&mut f, ne + 0x24, 0x50);
    w(&mut f, ne + 0x26, 0x50);
    w(&mut f, ne + 0x28, 0x62);
    w(&mut f, ne + 0x2A, 0x66);
    w(&mut f, ne + 0x2C, 0x100); // nrestab file offset 0x100
    w(&mut f, ne + 0x30, 0); // cmovent
    w(&mut f, ne + 0x32, 4); // align shift 4
    f[ne + 0x36] = 2; // Windows
    w(&mut f, ne + 0x3E, 0x030A);
    // Segment table at 0x80: seg 1 at 0x200 (sector 0x20 << 4), 0x20
    // bytes, code with relocs; seg 2 no data, data, min alloc 0x100.
    w(&mut f, 0x80, 0x20);
    w(&mut f, 0x82, 0x20);
    w(&mut f, 0x84, NESEG_RELOCS | NESEG_PRELOAD);
    w(&mut f, 0x86, 0x20);
    w(&mut f, 0x88, 0);
    w(&mut f, 0x8A, 0);
    w(&mut f, 0x8C, NESEG_DATA | NESEG_MOVEABLE);
    w(&mut f, 0x8E, 0x100);
    // Resident names at 0x90: "HELLO" ord 0, "EXPFN" ord 1, end.
    f[0x90..0x96].copy_from_slice(b"\x05HELLO");
    w(&mut f, 0x96, 0);
    f[0x98..0x9E].copy_from_slice(b"\x05EXPFN");
    w(&mut f, 0x9E, 1);
    f[0xA0] = 0;
    // Module reference table at 0xA2: offsets 1 (USER), 6 (KERNEL).
    w(&mut f, 0xA2, 1);
    w(&mut f, 0xA4, 6);
    // Imported names at 0xA6: 0 byte, "USER", "KERNEL", "INITTASK".
    f[0xA6] = 0;
    f[0xA7..0xAC].copy_from_slice(b"\x04USER");
    f[0xAC..0xB3].copy_from_slice(b"\x06KERNEL");
    f[0xB3..0xBC].copy_from_slice(b"\x08INITTASK");
    // Entry table at 0xC0: one fixed entry in seg 1 (ordinal 1), a skip
    // of 1, one moveable entry in seg 1 (ordinal 3), end.
    f[0xC0..0xC5].copy_from_slice(&[1, 1, 0x01, 0x04, 0x00]);
    f[0xC5..0xC7].copy_from_slice(&[1, 0]);
    f[0xC7..0xCF].copy_from_slice(&[1, 0xFF, 0x03, 0xCD, 0x3F, 1, 0x08, 0x00]);
    f[0xCF] = 0;
    // Non-resident names at 0x100: "Demo" ord 0, end.
    f[0x100..0x105].copy_from_slice(b"\x04Demo");
    w(&mut f, 0x105, 0);
    f[0x107] = 0;
    // Segment 1 data at 0x200, 0x20 bytes.
    let mut data = vec![0x90u8; 0x20];
    data[0x02..0x04].copy_from_slice(&0x0008u16.to_le_bytes());
    data[0x08..0x0A].copy_from_slice(&0x0010u16.to_le_bytes());
    data[0x10..0x12].copy_from_slice(&0xFFFFu16.to_le_bytes());
    data[0x14..0x16].copy_from_slice(&0x0003u16.to_le_bytes());
    data[0x18..0x1A].copy_from_slice(&0xFFFFu16.to_le_bytes());
    f.extend_from_slice(&data);
    // Relocations: count 4.
    f.extend_from_slice(&4u16.to_le_bytes());
    // Chain of far pointers to USER ordinal 1, starting at 0x02.
    f.extend_from_slice(&[RELOC_FARPTR, 1, 0x02, 0x00, 1, 0, 1, 0]);
    // Additive offset to internal segment 2 : 0x0010 at 0x14.
    f.extend_from_slice(&[RELOC_OFFSET, RELOC_ADDITIVE, 0x14, 0x00, 2, 0, 0x10, 0]);
    // Selector of KERNEL 'INITTASK' (by name) at 0x18.
    f.extend_from_slice(&[RELOC_SELECTOR, 2, 0x18, 0x00, 2, 0, 0x0D, 0]);
    // OS fixup type 1 at 0x1C.
    f.extend_from_slice(&[RELOC_OFFSET, 3, 0x1C, 0x00, 1, 0, 0, 0]);
    f
}

/// [`sample_ne`] with segment 1 iterated (flag 0x0008): its 0x20 bytes as
/// one record of 1 repetition, then 'Q' repeated 0x10 times; minimum
/// allocation 0x40; the same relocation records after the 0x29 bytes of
/// records (at 0x229). It loads as 0x30 bytes: the plain sample's 0x20,
/// then 16 'Q's.
pub fn sample_iterated_ne() -> Vec<u8> {
    let f = sample_ne();
    let body = &f[0x200..0x220];
    let relocs = &f[0x220..];
    let mut g = f[..0x200].to_vec();
    g.extend_from_slice(&[1, 0, 0x20, 0]);
    g.extend_from_slice(body);
    g.extend_from_slice(&[0x10, 0, 1, 0, b'Q']);
    g.extend_from_slice(relocs);
    let w = |g: &mut Vec<u8>, o: usize, v: u16| g[o..o + 2].copy_from_slice(&v.to_le_bytes());
    w(&mut g, 0x82, 0x29);
    w(&mut g, 0x84, NESEG_RELOCS | NESEG_PRELOAD | NESEG_ITERATED);
    w(&mut g, 0x86, 0x40);
    g
}
