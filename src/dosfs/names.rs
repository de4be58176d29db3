//! DOS file names: the 8.3 form a path component is normalised to, the
//! names a host file may be seen by, device names, and the 11-byte FCB
//! patterns of find first/next.

/// DOS character device names.
pub(super) const DEVICES: [&str; 12] = [
    "CON", "NUL", "PRN", "AUX", "COM1", "COM2", "COM3", "COM4", "LPT1", "LPT2", "LPT3", "CLOCK$",
];

/// IOCTL device information word (INT 21h AX=4400h) for a device.
pub fn device_info_word(name: &str) -> u16 {
    match name {
        // Device, not EOF, special (INT 29h), console input and output.
        "CON" => 0x80D3,
        // Device, not EOF, NUL device.
        "NUL" => 0x80C4,
        // Device, not EOF, clock device.
        "CLOCK$" => 0x80C8,
        _ => 0x80C0,
    }
}

/// Whether `b` may appear in a DOS file name (besides the dot and space).
pub(super) fn is_name_byte(b: u8) -> bool {
    b > 0x20 && b < 0x7F && !b"\"*+,./:;<=>?[\\]|".contains(&b)
}

/// One half of an 8.3 name: checked, upper-cased, truncated to `max`,
/// trailing spaces dropped (they are FCB padding). Bytes above 7Eh are
/// refused: there is no code page to map them to host names.
pub(super) fn name_part(p: &[u8], max: usize) -> Option<String> {
    if p.first() == Some(&b' ') || p.iter().any(|&b| b != b' ' && !is_name_byte(b)) {
        return None;
    }
    let mut s: String = p
        .iter()
        .take(max)
        .map(|&b| char::from(b.to_ascii_uppercase()))
        .collect();
    while s.ends_with(' ') {
        s.pop();
    }
    Some(s)
}

/// The canonical 8.3 name of a path component (no wildcards), or `None` if
/// DOS would refuse it.
pub(super) fn dos_name(comp: &[u8]) -> Option<String> {
    let (base, ext) = match comp.iter().position(|&b| b == b'.') {
        Some(i) => (&comp[..i], &comp[i + 1..]),
        None => (comp, &[][..]),
    };
    let base = name_part(base, 8)?;
    let ext = name_part(ext, 3)?;
    if base.is_empty() {
        return None;
    }
    Some(if ext.is_empty() {
        base
    } else {
        format!("{base}.{ext}")
    })
}

/// The device a final path component names, if any (extension and a
/// trailing colon ignored, as DOS does).
pub(super) fn device_name(comp: &[u8]) -> Option<&'static str> {
    let comp = comp.strip_suffix(b":").unwrap_or(comp);
    let base = match comp.iter().position(|&b| b == b'.') {
        Some(i) => &comp[..i],
        None => comp,
    };
    let mut base = base;
    while let Some(b) = base.strip_suffix(b" ") {
        base = b;
    }
    DEVICES
        .iter()
        .copied()
        .find(|d| d.as_bytes().eq_ignore_ascii_case(base))
}

/// The DOS name of a host entry, if DOS can see it: ASCII, a valid 8.3 name
/// with nothing truncated, and not a device name.
pub(super) fn visible_name(host: &std::ffi::OsStr) -> Option<String> {
    let s = host.to_str()?;
    if !s.is_ascii() || s.starts_with('.') {
        return None;
    }
    let n = dos_name(s.as_bytes())?;
    if n != s.to_ascii_uppercase() || device_name(n.as_bytes()).is_some() {
        return None;
    }
    Some(n)
}

/// A name in FCB form: base padded to 8, extension padded to 3.
pub(super) fn fcb11(name: &str) -> [u8; 11] {
    let mut f = [b' '; 11];
    if name == "." || name == ".." {
        f[..name.len()].copy_from_slice(name.as_bytes());
        return f;
    }
    let (base, ext) = name.split_once('.').unwrap_or((name, ""));
    for (i, b) in base.bytes().take(8).enumerate() {
        f[i] = b;
    }
    for (i, b) in ext.bytes().take(3).enumerate() {
        f[8 + i] = b;
    }
    f
}

/// A find pattern in FCB form: `*` fills the rest of its half with `?`.
pub(super) fn fcb_pattern(comp: &[u8]) -> Option<[u8; 11]> {
    if comp == b"." || comp == b".." {
        return Some(fcb11(if comp == b"." { "." } else { ".." }));
    }
    let (base, ext) = match comp.iter().position(|&b| b == b'.') {
        Some(i) => (&comp[..i], &comp[i + 1..]),
        None => (comp, &[][..]),
    };
    if base.is_empty() || ext.contains(&b'.') {
        return None;
    }
    let mut f = [b' '; 11];
    for (part, start, width) in [(base, 0usize, 8usize), (ext, 8, 3)] {
        for (i, &b) in part.iter().take(width).enumerate() {
            match b {
                b'*' => {
                    f[start + i..start + width].fill(b'?');
                    break;
                }
                b'?' | b' ' => f[start + i] = b,
                _ if is_name_byte(b) => f[start + i] = b.to_ascii_uppercase(),
                _ => return None,
            }
        }
    }
    Some(f)
}

/// FCB-style match: `?` in the pattern matches any byte, including padding.
pub(super) fn fcb_match(pattern: &[u8; 11], name: &[u8; 11]) -> bool {
    pattern.iter().zip(name).all(|(&p, &n)| p == b'?' || p == n)
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use super::super::*;

    #[test]
    fn case_insensitive_names() {
        let t = Tmp::new("case");
        t.put("Hello.Txt", b"hi");
        let mut d = t.drive();
        for name in [
            &b"HELLO.TXT"[..],
            b"hello.txt",
            b"C:\\hello.TXT",
            b"c:/HeLLo.txt",
        ] {
            let h = d.open(name, 0).unwrap();
            assert_eq!(d.read(h, 10).unwrap(), b"hi");
            d.close(h).unwrap();
        }
        match d.resolve(b"hello.txt").unwrap() {
            HostPath::File { host, dos } => {
                assert_eq!(host.file_name().unwrap(), "Hello.Txt");
                assert_eq!(dos, "\\HELLO.TXT");
            }
            other => panic!("{other:?}"),
        }
        let h = d.create(b"newfile.txt", 0).unwrap();
        d.close(h).unwrap();
        assert!(Tmp::host_names(&t.root).contains("NEWFILE.TXT"));
    }

    #[test]
    fn names_differing_only_in_case_pick_one_deterministically() {
        let t = Tmp::new("dupcase");
        t.put("dup.txt", b"lower");
        t.put("DUP.TXT", b"upper");
        if Tmp::host_names(&t.root).len() < 2 {
            return; // case-insensitive host file system
        }
        let mut d = t.drive();
        let h = d.open(b"Dup.Txt", 0).unwrap();
        assert_eq!(d.read(h, 10).unwrap(), b"upper");
        assert_eq!(find_all(&mut d, b"*.*", 0).unwrap(), ["DUP.TXT"]);
    }

    #[test]
    fn eight_three_truncation_and_invisible_names() {
        let t = Tmp::new("trunc");
        let mut d = t.drive();
        let h = d.create(b"LONGFILENAME.TEXT", 0).unwrap();
        d.write(h, b"x").unwrap();
        d.close(h).unwrap();
        assert!(Tmp::host_names(&t.root).contains("LONGFILE.TEX"));
        for name in [&b"longfile.tex"[..], b"LONGFILEXYZ.TEXXX"] {
            let h = d.open(name, 0).unwrap();
            d.close(h).unwrap();
        }
        let h = d.create(b"FOO .TXT ", 0).unwrap();
        d.close(h).unwrap();
        assert!(Tmp::host_names(&t.root).contains("FOO.TXT"));

        t.put("averylongname.txt", b"");
        t.put("two.dots.txt", b"");
        t.put("trail.", b"");
        t.put("ext.toolong", b"");
        assert_eq!(d.open(b"AVERYLON.TXT", 0), Err(DosError::FILE_NOT_FOUND));
        assert_eq!(d.open(b"EXT.TOO", 0), Err(DosError::FILE_NOT_FOUND));
        assert_eq!(
            find_all(&mut d, b"*.*", !ATTR_VOLUME).unwrap(),
            ["FOO.TXT", "LONGFILE.TEX"]
        );
    }

    #[test]
    fn invalid_names() {
        let t = Tmp::new("invalid");
        let mut d = t.drive();
        for name in [
            &b"A*B.TXT"[..],
            b"A?.TXT",
            b"A+B",
            b"A|B",
            b"A<B",
            b"A>B",
            b"A\"B",
            b"A;B",
            b"A,B",
            b"A=B",
            b"A[B]",
            b"A\x01B",
            b"\xE9T\xE9",
            b".TXT",
            b"A.B.C",
            b" LEAD",
            b"",
            b"DIR\\\\X",
            b"...",
            b"XY:Z",
        ] {
            assert_eq!(d.create(name, 0), Err(DosError::PATH_NOT_FOUND), "{name:?}");
        }
        assert_eq!(d.create(b"D:\\X", 0), Err(DosError::INVALID_DRIVE));
        assert_eq!(d.create(b"a:X", 0), Err(DosError::INVALID_DRIVE));
        assert_eq!(d.create(b"X", ATTR_DIRECTORY), Err(DosError::ACCESS_DENIED));
        assert_eq!(d.create(b"X", ATTR_VOLUME), Err(DosError::ACCESS_DENIED));
        let long = vec![b'A'; MAX_PATH + 1];
        assert_eq!(d.create(&long, 0), Err(DosError::PATH_NOT_FOUND));
        assert!(Tmp::host_names(&t.root).is_empty());
        fs::create_dir(t.root.join("D")).unwrap();
        assert_eq!(d.create(b"D", 0), Err(DosError::ACCESS_DENIED));
        assert_eq!(d.create_new(b"D", 0), Err(DosError::FILE_EXISTS));
    }
}
