//! EXEPACK: a packer of our own, in the format Microsoft's EXEPACK 4.x and
//! LINK /EXEPACK wrote, with roms/exepack.asm as the unpacker stub; the
//! packed roms/packme.exe runs as on a PC with DOS 5 loaded low (the A20
//! line off), and fails as "Packed file is corrupt" with the line on, as
//! on DOS 5 loaded high, unless it is loaded above 64 KiB (LOADFIX).
//!
//! The format, as this packer writes it (sources: David Fifield's notes and
//! commented stub disassemblies in his exepack repository, the DOS Game
//! Modding Wiki's "Microsoft EXEPACK" page, OS/2 Museum's "EXEPACK and the
//! A20-Gate"; the stub's header of roms/exepack.asm names every field):
//!
//! - An MZ header with no relocations, CS:IP = the EXEPACK block : 0012h.
//! - The load module: the compressed image, padded with FFh to a paragraph
//!   (at most 15 bytes: the stub skips them), then the block: the 18-byte
//!   header (real_IP, real_CS, mem_start, exepack_size, real_SP, real_SS,
//!   dest_len, skip_len, signature "RB"), the stub, the packed
//!   relocation table. skip_len is 1 (no padding paragraphs).
//! - The compressed stream is read from its end down: a command byte, the
//!   16-bit length below it, then for B0h (fill) the byte to repeat, for
//!   B2h (copy) the bytes themselves; bit 0 set (B1h, B3h) marks the last
//!   command. What lies below the last command is the start of the image
//!   stored as it is. The image unpacks in place, from its end down, so no
//!   write may land on compressed bytes not yet read.
//! - The relocation table: 16 sections, for the image's 64 KiB segments
//!   0000h, 1000h ... F000h, each a count and that many offsets.

use std::path::PathBuf;

mod common;
use common::{bin, json, rom};

/// The EXEPACK header's length (the variant with an explicit skip_len).
const HEADER_LEN: usize = 18;
/// The longest command: the stub normalises each pointer to an offset of
/// at least FFF0h, so a longer one would wrap within its segment.
const MAX_COMMAND: usize = 0xFFF0;
/// Runs at least this long are filled rather than copied.
const MIN_FILL: usize = 6;
/// The stack the stub uses (SP at the packed file's entry).
const STUB_STACK: u16 = 0x80;

const FILL: u8 = 0xB0;
const COPY: u8 = 0xB2;
const LAST: u8 = 0x01;

fn word(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

/// The parts of an MZ executable the packer needs.
#[derive(Debug, Clone, PartialEq)]
struct Mz {
    min_alloc: u16,
    max_alloc: u16,
    ss: u16,
    sp: u16,
    ip: u16,
    cs: u16,
    /// The load module.
    image: Vec<u8>,
    /// (offset, segment) of each word to relocate.
    relocs: Vec<(u16, u16)>,
}

fn parse_mz(b: &[u8]) -> Mz {
    assert_eq!(&b[..2], b"MZ");
    let pages = usize::from(word(b, 4));
    let last = usize::from(word(b, 2));
    let size = if last == 0 {
        pages * 512
    } else {
        (pages - 1) * 512 + last
    };
    let header = usize::from(word(b, 8)) * 16;
    let table = usize::from(word(b, 0x18));
    let relocs = (0..usize::from(word(b, 6)))
        .map(|i| (word(b, table + 4 * i), word(b, table + 4 * i + 2)))
        .collect();
    Mz {
        min_alloc: word(b, 0x0A),
        max_alloc: word(b, 0x0C),
        ss: word(b, 0x0E),
        sp: word(b, 0x10),
        ip: word(b, 0x14),
        cs: word(b, 0x16),
        image: b[header..size].to_vec(),
        relocs,
    }
}

/// One command of the stream, over `len` bytes of the image from `at`.
#[derive(Debug, Clone, Copy)]
enum Token {
    Copy { at: usize, len: usize },
    Fill { at: usize, len: usize },
}

impl Token {
    fn len(self) -> usize {
        match self {
            Token::Copy { len, .. } | Token::Fill { len, .. } => len,
        }
    }
    /// Its bytes in the stream.
    fn encoded(self) -> usize {
        match self {
            Token::Copy { len, .. } => len + 3,
            Token::Fill { .. } => 4,
        }
    }
}

/// Cut the image into fills (runs of at least [`MIN_FILL`]) and copies,
/// none longer than [`MAX_COMMAND`].
fn tokens(image: &[u8]) -> Vec<Token> {
    let mut out = Vec::new();
    let mut copy_from = 0;
    let mut i = 0;
    let flush_copy = |out: &mut Vec<Token>, from: usize, to: usize| {
        let mut at = from;
        while at < to {
            let len = (to - at).min(MAX_COMMAND);
            out.push(Token::Copy { at, len });
            at += len;
        }
    };
    while i < image.len() {
        let run = image[i..].iter().take_while(|&&b| b == image[i]).count();
        if run >= MIN_FILL {
            flush_copy(&mut out, copy_from, i);
            let mut at = i;
            while at < i + run {
                let len = (i + run - at).min(MAX_COMMAND);
                out.push(Token::Fill { at, len });
                at += len;
            }
            i += run;
            copy_from = i;
        } else {
            i += run;
        }
    }
    flush_copy(&mut out, copy_from, image.len());
    out
}

/// The compressed stream (unpadded) of `image`. The stub unpacks in place
/// from the end down, so the commands kept must each start at least as
/// high in the image as their bytes start in the stream; the commands
/// before the first that allows this become the stored prefix.
fn compress(image: &[u8]) -> Vec<u8> {
    let toks = tokens(image);
    // Command j is safe when the bytes the commands from `first` up to j
    // gained (image bytes minus stream bytes) are never negative.
    let first = (0..=toks.len())
        .find(|&m| {
            let mut gained: isize = 0;
            toks[m..].iter().all(|t| {
                gained += t.len() as isize - t.encoded() as isize;
                gained >= 0
            })
        })
        .unwrap_or(toks.len());
    let prefix = toks.get(first).map_or(image.len(), |t| match *t {
        Token::Copy { at, .. } | Token::Fill { at, .. } => at,
    });
    let mut out = image[..prefix].to_vec();
    let mut last_command = None;
    for t in &toks[first..] {
        match *t {
            Token::Copy { at, len } => {
                out.extend_from_slice(&image[at..at + len]);
                out.extend_from_slice(&(len as u16).to_le_bytes());
                out.push(COPY);
            }
            Token::Fill { at, len } => {
                out.push(image[at]);
                out.extend_from_slice(&(len as u16).to_le_bytes());
                out.push(FILL);
            }
        }
        last_command.get_or_insert(out.len() - 1);
    }
    match last_command {
        Some(i) => out[i] |= LAST,
        // Nothing worth packing: one empty copy ends the stream.
        None => out.extend_from_slice(&[0, 0, COPY | LAST]),
    }
    out
}

/// The packed relocation table: 16 sections of a count and offsets.
fn pack_relocs(relocs: &[(u16, u16)]) -> Vec<u8> {
    let mut sections: Vec<Vec<u16>> = vec![Vec::new(); 16];
    for &(off, seg) in relocs {
        let linear = (u32::from(seg) << 4) + u32::from(off);
        sections[(linear >> 16) as usize].push(linear as u16);
    }
    let mut out = Vec::new();
    for s in sections {
        out.extend_from_slice(&(s.len() as u16).to_le_bytes());
        for off in s {
            out.extend_from_slice(&off.to_le_bytes());
        }
    }
    out
}

/// Pack an MZ executable with `stub` (roms/exepack.bin: the header
/// template, then the code). Like Microsoft's EXEPACK ("file not suitable
/// for packing"), it refuses an image the stream would not be shorter
/// than: the stub copies its block to the end of the unpacked image, last
/// byte first, which is only right when that end is not below the block.
fn pack(exe: &[u8], stub: &[u8]) -> Result<Vec<u8>, String> {
    let mz = parse_mz(exe);
    let mut image = mz.image.clone();
    image.resize(image.len().div_ceil(16) * 16, 0);
    let dest_len = image.len() / 16;
    let mut data = compress(&image);
    data.resize(data.len().div_ceil(16) * 16, 0xFF);
    if data.len() > image.len() {
        return Err(format!(
            "not suitable for packing: {} bytes pack into {}",
            image.len(),
            data.len()
        ));
    }
    let relocs = pack_relocs(&mz.relocs);
    let size = stub.len() + relocs.len();
    let mut block = stub.to_vec();
    for (at, v) in [
        (0, mz.ip),
        (2, mz.cs),
        (4, 0),
        (6, size as u16),
        (8, mz.sp),
        (10, mz.ss),
        (12, dest_len as u16),
        (14, 1),
    ] {
        block[at..at + 2].copy_from_slice(&v.to_le_bytes());
    }
    block[16..18].copy_from_slice(b"RB");
    block.extend_from_slice(&relocs);
    let load_paras = (data.len() + block.len()).div_ceil(16);
    let block_paras = block.len().div_ceil(16);
    // The stack lies past the block's copy; memory must also hold what the
    // unpacked program asked for.
    let stack_seg = dest_len + block_paras;
    let need = (stack_seg + usize::from(STUB_STACK) / 16).max(dest_len + usize::from(mz.min_alloc));
    let file = 0x20 + data.len() + block.len();
    let mut h = vec![0u8; 0x20];
    h[..2].copy_from_slice(b"MZ");
    for (at, v) in [
        (2, (file % 512) as u16),
        (4, file.div_ceil(512) as u16),
        (6, 0),
        (8, 2),
        (0x0A, need.saturating_sub(load_paras) as u16),
        (0x0C, mz.max_alloc),
        (0x0E, stack_seg as u16),
        (0x10, STUB_STACK),
        (0x14, HEADER_LEN as u16),
        (0x16, (data.len() / 16) as u16),
        (0x18, 0x1C),
    ] {
        h[at..at + 2].copy_from_slice(&v.to_le_bytes());
    }
    h.extend_from_slice(&data);
    h.extend_from_slice(&block);
    Ok(h)
}

/// What the stub does, as a model: unpack a packed file in one buffer, in
/// place and from the end down, and read its relocation table. Errors are
/// what would make the stub say "Packed file is corrupt" (or read outside
/// the image).
fn unpack(packed: &[u8], stub_len: usize) -> Result<Mz, String> {
    let p = parse_mz(packed);
    let block_at = usize::from(p.cs) * 16;
    let hdr = &p.image[block_at..block_at + HEADER_LEN];
    assert_eq!(&hdr[16..18], b"RB");
    let dest = usize::from(word(hdr, 12)) * 16;
    let skip = (usize::from(word(hdr, 14)) - 1) * 16;
    let mut buf = p.image[..block_at - skip].to_vec();
    buf.resize(buf.len().max(dest), 0);
    let mut src = block_at - skip;
    let pad = (0..16.min(src))
        .take_while(|&k| buf[src - 1 - k] == 0xFF)
        .count();
    src -= pad;
    let mut dst = dest - skip;
    loop {
        let take = |src: &mut usize| -> Result<u8, String> {
            *src = src.checked_sub(1).ok_or("read below the image")?;
            Ok(buf[*src])
        };
        let cmd = take(&mut src)?;
        let hi = take(&mut src)?;
        let lo = take(&mut src)?;
        let len = usize::from(u16::from_le_bytes([lo, hi]));
        dst = dst.checked_sub(len).ok_or("write below the image")?;
        match cmd & !LAST {
            FILL => {
                let b = take(&mut src)?;
                buf[dst..dst + len].fill(b);
            }
            COPY => {
                src = src.checked_sub(len).ok_or("copy below the image")?;
                for k in (0..len).rev() {
                    buf[dst + k] = buf[src + k];
                }
            }
            _ => return Err(format!("command {cmd:02X}h: Packed file is corrupt")),
        }
        if cmd & LAST != 0 {
            break;
        }
    }
    if dst != src {
        return Err(format!(
            "the stored prefix ends at {src}, the image at {dst}"
        ));
    }
    buf.truncate(dest - skip);
    let size = usize::from(word(hdr, 6));
    let table = &p.image[block_at + stub_len..block_at + size];
    let mut relocs = Vec::new();
    let mut at = 0;
    for section in 0..16u16 {
        let n = word(table, at);
        at += 2;
        for _ in 0..n {
            relocs.push((word(table, at), section * 0x1000));
            at += 2;
        }
    }
    Ok(Mz {
        min_alloc: 0,
        max_alloc: p.max_alloc,
        ss: word(hdr, 10),
        sp: word(hdr, 8),
        ip: word(hdr, 0),
        cs: word(hdr, 2),
        image: buf,
        relocs,
    })
}

fn stub() -> Vec<u8> {
    let s = std::fs::read(rom("exepack.bin")).unwrap();
    assert_eq!(
        &s[16..18],
        b"RB",
        "the stub starts with the header template"
    );
    assert!(s.ends_with(b"Packed file is corrupt"));
    s
}

fn packed_packme() -> Vec<u8> {
    pack(&std::fs::read(rom("packme.exe")).unwrap(), &stub()).unwrap()
}

/// The same relocations, as linear addresses in the image.
fn linear(relocs: &[(u16, u16)]) -> Vec<u32> {
    let mut v: Vec<u32> = relocs
        .iter()
        .map(|&(o, s)| (u32::from(s) << 4) + u32::from(o))
        .collect();
    v.sort();
    v
}

#[test]
fn the_packer_writes_the_exepack_layout_and_the_model_unpacks_it() {
    let exe = std::fs::read(rom("packme.exe")).unwrap();
    let orig = parse_mz(&exe);
    let packed = packed_packme();
    let p = parse_mz(&packed);
    assert!(p.relocs.is_empty(), "no relocations at the outer layer");
    assert_eq!(p.ip, 0x12, "entry just past the 18-byte header");
    let block = &p.image[usize::from(p.cs) * 16..];
    assert_eq!(&block[16..18], b"RB");
    let size = usize::from(word(block, 6));
    assert_eq!(
        block.len(),
        size,
        "exepack_size covers the rest of the file"
    );
    // 64 KiB of zeros and a run of 5Ah: the packed file is far smaller.
    assert!(packed.len() < exe.len() / 10, "{} bytes", packed.len());
    let u = unpack(&packed, stub().len()).unwrap();
    let mut image = orig.image.clone();
    image.resize(image.len().div_ceil(16) * 16, 0);
    assert_eq!(u.image, image);
    assert_eq!(
        (u.cs, u.ip, u.ss, u.sp),
        (orig.cs, orig.ip, orig.ss, orig.sp)
    );
    assert_eq!(linear(&u.relocs), linear(&orig.relocs));
    assert!(
        u.relocs.iter().any(|&(_, s)| s == 0x1000),
        "one relocation in the second 64 KiB section"
    );
}

mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        /// Any image (runs and noise) packs and unpacks in place to itself.
        #[test]
        fn any_image_round_trips(
            parts in proptest::collection::vec((any::<u8>(), 1usize..40, any::<bool>()), 0..60)
        ) {
            let mut image = Vec::new();
            for (b, n, run) in parts {
                if run {
                    image.extend(std::iter::repeat_n(b, n));
                } else {
                    image.extend((0..n).map(|k| b.wrapping_mul(31).wrapping_add((k as u8).wrapping_mul(7))));
                }
            }
            image.resize(image.len().div_ceil(16) * 16, 0);
            let mut exe = vec![0u8; 0x20];
            exe[..2].copy_from_slice(b"MZ");
            let size = 0x20 + image.len();
            exe[2..4].copy_from_slice(&((size % 512) as u16).to_le_bytes());
            exe[4..6].copy_from_slice(&(size.div_ceil(512) as u16).to_le_bytes());
            exe[8..10].copy_from_slice(&2u16.to_le_bytes());
            exe[0x18..0x1A].copy_from_slice(&0x1Cu16.to_le_bytes());
            exe.extend_from_slice(&image);
            let stub = stub();
            let Ok(packed) = pack(&exe, &stub) else {
                // Refused, as EXEPACK refused: it would not get shorter.
                prop_assert!(compress(&image).len().div_ceil(16) * 16 > image.len());
                return Ok(());
            };
            let u = unpack(&packed, stub.len()).map_err(TestCaseError::fail)?;
            prop_assert_eq!(u.image, image);
        }
    }
}

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("th16-exepack-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Run `prog` (a path) with the packed program in a fresh sandbox as
/// PACKED.EXE.
fn run(prog: &std::path::Path, tail: &[&str], name: &str) -> serde_json::Value {
    let d = temp(name);
    std::fs::write(d.join("PACKED.EXE"), packed_packme()).unwrap();
    let out = bin()
        .args(["run", "--json", "--stdin", "/dev/null", "--dir"])
        .arg(&d)
        .arg(prog)
        .arg("--")
        .args(tail)
        .output()
        .unwrap();
    let v = json(&out);
    std::fs::remove_dir_all(&d).ok();
    v
}

const PACKME_SAYS: &str = "packme: table, run, zeros, relocations ok\r\n";

#[test]
fn packme_itself_runs() {
    let out = bin()
        .args(["run", "--json", "--stdin", "/dev/null"])
        .arg(rom("packme.exe"))
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["code"], 3, "{v}");
    assert_eq!(v["output"], PACKME_SAYS);
}

/// The first program loads below 64 KiB (PSP 0CC9h, as DOS 5 loaded low):
/// the stub's normalised segments go below 0 and wrap past 1 MiB, where the
/// A20 line, off, makes them low memory again. It unpacks and runs.
#[test]
fn a_packed_program_loaded_low_unpacks_through_the_a20_wrap() {
    let d = temp("low");
    std::fs::write(d.join("PACKED.EXE"), packed_packme()).unwrap();
    let out = bin()
        .args(["run", "--json", "--stdin", "/dev/null", "--dir"])
        .arg(&d)
        .arg(d.join("PACKED.EXE"))
        .output()
        .unwrap();
    let v = json(&out);
    std::fs::remove_dir_all(&d).ok();
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(v["exit"]["code"], 3, "{v}");
    assert_eq!(v["output"], PACKME_SAYS);
}

/// With the A20 line on (as DOS=HIGH leaves it) and the program loaded
/// below 64 KiB, the wrapped segments address the HMA instead of low
/// memory: the stub reads no valid command there and ends as it did on
/// such PCs, "Packed file is corrupt" and exit code 255.
#[test]
fn with_a20_on_a_packed_program_loaded_low_is_corrupt() {
    let v = run(&rom("a20exec.com"), &["PACKED.EXE"], "high");
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(v["exit"]["code"], 255, "{v}");
    assert_eq!(
        v["output"],
        "a20 on 0001 0\r\nPacked file is corruptchild exit 00FF\r\n"
    );
}

/// LOADFIX's cure: the same with 64 KiB allocated first, so the program
/// loads above the first 64 KiB and no segment goes below 0.
#[test]
fn with_a20_on_a_packed_program_loaded_above_64k_runs() {
    let v = run(&rom("a20exec.com"), &["/L", "PACKED.EXE"], "loadfix");
    assert_eq!(v["exit"]["code"], 3, "{v}");
    assert_eq!(
        v["output"],
        format!("a20 on 0001 0\r\n{PACKME_SAYS}child exit 0003\r\n")
    );
}
