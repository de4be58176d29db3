//! Metafiles: calls drawn into a metafile DC are recorded in the Windows
//! metafile format (METAHEADER, METARECORDs with the META_ numbers and
//! parameters in reverse order), and playing them — PlayMetaFile, or
//! record by record with PlayMetaFileRecord — draws what drawing the same
//! calls directly draws, pixel for pixel; the bits survive
//! GetMetaFileBits/SetMetaFileBits, CopyMetaFile to a file of the sandbox
//! and GetMetaFile. The calls are made as call_api makes them: through
//! the metafile hook, then the function.

mod common;

use toolhelp16::machine::{Cpu, Machine, SegKind};
use toolhelp16::system::Env;
use toolhelp16::win16::api;
use toolhelp16::win16::gdi::metafile::{self, Metafile};

const WHITENESS: u32 = 0x00FF_0062;

struct T {
    m: Machine,
    env: Env,
    data: u16,
}

impl T {
    fn new() -> T {
        let mut m = Machine::new_protected().unwrap();
        let data = m.alloc_segment(SegKind::Data, 0x8000, &[]).unwrap();
        T {
            m,
            env: Env::new(false),
            data,
        }
    }

    /// A call as call_api makes it (win16/mod.rs): the metafile hook
    /// first.
    fn call(&mut self, module: &str, ord: u16, args: &[u32]) -> u32 {
        let f = api::find(module, ord).unwrap_or_else(|| panic!("{module}.{ord}"));
        assert_eq!(f.args.len(), args.len(), "{} arguments", f.name);
        if let Some(r) = metafile::intercept(&mut self.env, &mut self.m, f, args).unwrap() {
            return r;
        }
        (f.func)(&mut self.env, &mut self.m, args).unwrap()
    }

    fn gdi(&mut self, ord: u16, args: &[u32]) -> u32 {
        self.call("GDI", ord, args)
    }

    fn put(&mut self, off: u16, b: &[u8]) -> u32 {
        self.m.write_seg(self.data, off, b).unwrap();
        u32::from(self.data) << 16 | u32::from(off)
    }

    /// A memory DC with a 64×32 VGA-format bitmap, white.
    fn canvas(&mut self) -> (u32, u16) {
        let dc = self.gdi(52, &[0]);
        let bm = self.gdi(48, &[64, 32, 4, 1, 0]) as u16;
        self.gdi(45, &[dc, u32::from(bm)]);
        self.gdi(29, &[dc, 0, 0, 64, 32, WHITENESS]);
        (dc, bm)
    }

    fn pixels(&self, bm: u16) -> Vec<u32> {
        self.env
            .win16
            .gdi
            .objects
            .bitmap(bm)
            .unwrap()
            .surface
            .px
            .clone()
    }

    /// The scene, drawn on `dc` (a metafile DC or a real one).
    fn scene(&mut self, dc: u32) {
        let red = 0x0000_00FF;
        let blue = 0x00FF_0000;
        self.gdi(2, &[dc, 1]); // SetBkMode(TRANSPARENT)
        self.gdi(9, &[dc, red]); // SetTextColor
        let pen = self.gdi(61, &[0, 2, blue]); // CreatePen(PS_SOLID, 2, blue)
        let old_pen = self.gdi(45, &[dc, pen]);
        let brush = self.gdi(66, &[0x0000_FF00]); // CreateSolidBrush(green)
        let old_brush = self.gdi(45, &[dc, brush]);
        self.gdi(27, &[dc, 2, 2, 20, 14]); // Rectangle
        self.gdi(24, &[dc, 22, 2, 40, 14]); // Ellipse
        self.gdi(20, &[dc, 0, 31]); // MoveTo
        self.gdi(19, &[dc, 63, 16]); // LineTo
        let pts = self.put(0x100, &[44, 0, 2, 0, 62, 0, 8, 0, 44, 0, 14, 0]);
        self.gdi(36, &[dc, pts, 3]); // Polygon
        let s = self.put(0x200, b"Meta");
        self.gdi(33, &[dc, 2, 16, s, 4]); // TextOut
        self.gdi(45, &[dc, old_pen]);
        self.gdi(45, &[dc, old_brush]);
        self.gdi(69, &[pen]);
        self.gdi(69, &[brush]);
    }
}

#[test]
fn recorded_and_played_draws_what_drawing_draws() {
    let mut t = T::new();
    // Directly.
    let (dc, bm) = t.canvas();
    t.scene(dc);
    let direct = t.pixels(bm);
    assert!(direct.iter().any(|&p| p != direct[0]), "the scene draws");

    // Into a memory metafile.
    let mdc = t.gdi(125, &[0]);
    assert_ne!(mdc, 0, "CreateMetaFile(NULL)");
    t.scene(mdc);
    let hmf = t.gdi(126, &[mdc]);
    assert_ne!(hmf, 0, "CloseMetaFile");

    // Its bits: the records in order. Four objects at most: the pen and
    // brush, then copies of the stock pen and brush selected back (a
    // metafile has no stock objects: each selection records a creation).
    let (bits, m) = metafile::read_handle(&t.env, &t.m, hmf as u16).unwrap();
    assert_eq!(m.header.kind, metafile::MEMORY_METAFILE);
    assert_eq!(m.header.objects, 4);
    assert_eq!(bits.len() as u32, m.header.size * 2);
    let names: Vec<&str> = m
        .records
        .iter()
        .map(|r| metafile::function_name(r.function).unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "SETBKMODE",
            "SETTEXTCOLOR",
            "CREATEPENINDIRECT",
            "SELECTOBJECT",
            "CREATEBRUSHINDIRECT",
            "SELECTOBJECT",
            "RECTANGLE",
            "ELLIPSE",
            "MOVETO",
            "LINETO",
            "POLYGON",
            "TEXTOUT",
            "CREATEPENINDIRECT",
            "SELECTOBJECT",
            "CREATEBRUSHINDIRECT",
            "SELECTOBJECT",
            "DELETEOBJECT",
            "DELETEOBJECT",
        ],
        "{:?}",
        m.records
    );
    // The rectangle's parameters: bottom, right, top, left.
    assert_eq!(m.records[6].params, vec![14, 20, 2, 2]);

    // Played onto a fresh bitmap.
    let (dc2, bm2) = t.canvas();
    assert_eq!(t.gdi(123, &[dc2, hmf]), 1);
    assert_eq!(t.pixels(bm2), direct, "PlayMetaFile");

    // Record by record, with a handle table in memory.
    let (dc3, bm3) = t.canvas();
    let table = t.put(0x1000, &[0; 8]);
    let mut off = metafile::HEADER_SIZE;
    for r in &m.records {
        let p = t.put(0x2000, &r.to_bytes());
        assert_eq!(t.gdi(176, &[dc3, table, p, 4]), 1);
        off += r.to_bytes().len();
    }
    assert_eq!(off + 6, bits.len());
    assert_eq!(t.pixels(bm3), direct, "PlayMetaFileRecord");

    // GetMetaFileBits gives the same block; SetMetaFileBits takes it back.
    let hmem = t.gdi(159, &[hmf]);
    assert_eq!(hmem, hmf);
    assert_eq!(t.gdi(160, &[hmem]), hmf);
    assert_eq!(t.gdi(127, &[hmf]), 1, "DeleteMetaFile");
    assert!(metafile::read_handle(&t.env, &t.m, hmf as u16).is_none());
}

#[test]
fn disk_metafiles_in_the_sandbox() {
    let dir = std::env::temp_dir().join(format!("th16-mf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut t = T::new();
    t.env.drive = Some(toolhelp16::dos::fs::Drive::new(dir.clone()).unwrap());
    let (dc, bm) = t.canvas();
    t.scene(dc);
    let direct = t.pixels(bm);

    // CreateMetaFile("SCENE.WMF") writes the file at CloseMetaFile.
    let name = t.put(0x300, b"SCENE.WMF\0");
    let mdc = t.gdi(125, &[name]);
    t.scene(mdc);
    let hmf = t.gdi(126, &[mdc]);
    assert_ne!(hmf, 0);
    let file = std::fs::read(dir.join("SCENE.WMF")).unwrap();
    let m = Metafile::parse(&file).unwrap();
    assert_eq!(m.header.kind, metafile::DISK_METAFILE);
    assert_eq!(file.len() as u32, m.header.size * 2);
    assert_eq!(m.to_bytes(), file, "written exactly as parsed back");

    // GetMetaFile reads it; it plays the same picture.
    let h2 = t.gdi(124, &[name]);
    assert_ne!(h2, 0);
    let (dc2, bm2) = t.canvas();
    t.gdi(123, &[dc2, h2]);
    assert_eq!(t.pixels(bm2), direct);

    // CopyMetaFile to another file, and to memory.
    let copy = t.put(0x320, b"COPY.WMF\0");
    assert_ne!(t.gdi(151, &[h2, copy]), 0);
    assert_eq!(std::fs::read(dir.join("COPY.WMF")).unwrap(), file);
    let mem = t.gdi(151, &[h2, 0]);
    let (_, mm) = metafile::read_handle(&t.env, &t.m, mem as u16).unwrap();
    assert_eq!(mm.header.kind, metafile::MEMORY_METAFILE);
    assert_eq!(mm.records, m.records);

    // Outside the sandbox: refused.
    let out = t.put(0x340, b"..\\..\\X.WMF\0");
    assert_eq!(t.gdi(125, &[out]), 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// USER's DrawText on a metafile DC records what its TextOut calls
/// would: a TEXTOUT per line, which plays back as the text drawn
/// directly.
#[test]
fn drawtext_on_a_metafile_dc_records_its_lines() {
    let mut t = T::new();
    let r = t.put(0x100, &[0, 0, 0, 0, 64, 0, 32, 0]);
    let s = t.put(0x120, b"Line one\nTwo\0");
    let (dc, bm) = t.canvas();
    t.call("USER", 85, &[dc, s, 0xFFFF, r, 0]);
    let direct = t.pixels(bm);
    let mdc = t.gdi(125, &[0]);
    let h = t.call("USER", 85, &[mdc, s, 0xFFFF, r, 0]);
    assert!(h > 0);
    let hmf = t.gdi(126, &[mdc]);
    let (_, m) = metafile::read_handle(&t.env, &t.m, hmf as u16).unwrap();
    assert_eq!(m.records.len(), 2);
    assert!(
        m.records
            .iter()
            .all(|r| r.function == metafile::META_TEXTOUT)
    );
    let (dc2, bm2) = t.canvas();
    t.gdi(123, &[dc2, hmf]);
    assert_eq!(t.pixels(bm2), direct);
}

/// Blits into a metafile DC: BitBlt and StretchBlt carry their source
/// rectangle as a packed DIB (DIBBITBLT, DIBSTRETCHBLT), a blit whose
/// raster operation takes no source carries none, StretchDIBits its own
/// DIB (STRETCHDIB); played back they draw what the blits drew.
#[test]
fn blits_are_recorded_with_their_bits() {
    let mut t = T::new();
    // A source: an 8×8 VGA bitmap with a red square and a blue line.
    let src = t.gdi(52, &[0]);
    let sbm = t.gdi(48, &[8, 8, 4, 1, 0]);
    t.gdi(45, &[src, sbm]);
    t.gdi(29, &[src, 0, 0, 8, 8, WHITENESS]);
    let red = t.gdi(66, &[0x0000_00FF]);
    t.gdi(45, &[src, red]);
    t.gdi(29, &[src, 1, 1, 4, 4, 0x00F0_0021]); // PATCOPY
    let blue = t.gdi(61, &[0, 1, 0x00FF_0000]);
    t.gdi(45, &[src, blue]);
    t.gdi(20, &[src, 0, 7]);
    t.gdi(19, &[src, 8, 0]);
    // A 2×2 monochrome DIB for StretchDIBits: BITMAPINFOHEADER, two
    // RGBQUADs (black, white), two rows of 4 bytes (bottom row first).
    let mut dib = vec![0u8; 40];
    dib[0] = 40;
    dib[4] = 2;
    dib[8] = 2;
    dib[12] = 1;
    dib[14] = 1;
    dib.extend_from_slice(&[0, 0, 0, 0, 255, 255, 255, 0]);
    let bmi = t.put(0x400, &dib);
    let bits = t.put(0x500, &[0x40, 0, 0, 0, 0x80, 0, 0, 0]);
    let scene = |t: &mut T, dc: u32| {
        t.gdi(34, &[dc, 2, 2, 8, 8, src, 0, 0, 0x00CC_0020]); // BitBlt SRCCOPY
        t.gdi(35, &[dc, 20, 2, 16, 16, src, 0, 0, 8, 8, 0x00CC_0020]); // StretchBlt
        t.gdi(34, &[dc, 40, 2, 6, 6, 0, 0, 0, 0x0000_0042]); // BitBlt BLACKNESS
        t.gdi(
            439,
            &[dc, 50, 20, 8, 8, 0, 0, 2, 2, bits, bmi, 0, 0x00CC_0020],
        );
    };
    let (dc, bm) = t.canvas();
    scene(&mut t, dc);
    let direct = t.pixels(bm);
    let mdc = t.gdi(125, &[0]);
    scene(&mut t, mdc);
    let hmf = t.gdi(126, &[mdc]);
    let (_, m) = metafile::read_handle(&t.env, &t.m, hmf as u16).unwrap();
    let f: Vec<u16> = m.records.iter().map(|r| r.function).collect();
    assert_eq!(
        f,
        [
            metafile::META_DIBBITBLT,
            metafile::META_DIBSTRETCHBLT,
            metafile::META_DIBBITBLT,
            metafile::META_STRETCHDIB
        ]
    );
    // BLACKNESS takes no source: the short record, 9 parameters.
    assert_eq!(m.records[2].params.len(), 9);
    // The copy's DIB: a 40-byte header of an 8×8, 4-bit bitmap.
    let d = m.records[0].bytes_from(8);
    assert_eq!((d[0], d[4], d[8], d[14]), (40, 8, 8, 4));
    let (dc2, bm2) = t.canvas();
    t.gdi(123, &[dc2, hmf]);
    assert_eq!(t.pixels(bm2), direct);
    assert!(direct.iter().filter(|&&p| p != direct[0]).count() > 100);
}
