//! What Windows 3.1 refuses to run: OS/2 modules, self-loading
//! applications without their loader, and the other refusals of
//! `check_runnable`.

use super::{NEF_LINK_ERRORS, NEF_SELF_LOADING, NeImage, OS2_MODULES, RelocTarget, target_os_name};
use crate::loader::LoadError;
use crate::loader::mz::MzImage;

impl NeImage {
    /// Is this an OS/2 1.x module: target OS 1, or target OS 0 (unknown)
    /// with imports from OS/2's system modules ([`OS2_MODULES`])?
    pub fn is_os2(&self) -> bool {
        self.header.target_os == 1 || (self.header.target_os == 0 && !self.os2_imports().is_empty())
    }

    /// The real-mode program of an OS/2 *bound* (Family API) program, when
    /// this is one: the DOS part of the file, which DOS runs while OS/2
    /// runs the NE part.
    ///
    /// Microsoft's BIND links the OS/2 program's imports against API.LIB,
    /// whose stub loader and emulation of the Family API become the DOS
    /// part; run under DOS, that loader opens its own file, reads the NE
    /// segments and runs them in real mode (bind.hlp, "Internal Layout of
    /// a Bound Program"). Every NE file has a DOS part, but an ordinary
    /// OS/2 program's is a message stub ("This program cannot be run in
    /// DOS mode": a few hundred bytes, no relocations), which Windows and
    /// this tool refuse to run in its stead. No header flag marks a bound
    /// program, so this is toolhelp16's rule: an OS/2 module whose DOS
    /// part has segment relocations or a load module of more than 1 KiB is
    /// a real-mode program of its own, bound (Microsoft LIB of MS-DOS 4.0,
    /// corpus `ne/os2lib.exe`: 11 KiB and 79 relocations).
    pub fn bound_dos_program(&self) -> Option<&MzImage> {
        let stub = self.stub.as_deref()?;
        let program = !stub.relocs.is_empty() || stub.image.len() > 0x400;
        (self.is_os2() && program).then_some(stub)
    }

    /// The OS/2 system modules this module imports from, if any.
    pub fn os2_imports(&self) -> Vec<&str> {
        self.module_refs
            .iter()
            .filter(|m| OS2_MODULES.iter().any(|o| o.eq_ignore_ascii_case(m)))
            .map(|s| s.as_str())
            .collect()
    }

    /// Refuse what Windows 3.1 would not run (win16.md: "Self-loading
    /// applications, OS/2 (target OS 1) and zero-segment resource files are
    /// real and must be refused with a message that says what they are").
    ///
    /// `as_program`: the module is to be started as a task (not loaded as a
    /// library by another module).
    pub fn check_runnable(&self, as_program: bool) -> Result<(), LoadError> {
        let h = &self.header;
        let at = h.file_offset;
        let os2 = self.os2_imports();
        match h.target_os {
            1 => {
                return Err(LoadError::at(
                    at + 0x36,
                    "ne_exetyp",
                    "this is an OS/2 NE executable (target OS 1), not a Windows program",
                ));
            }
            0 if !os2.is_empty() => {
                return Err(LoadError::at(
                    at + 0x36,
                    "ne_exetyp",
                    format!(
                        "this is an OS/2 NE executable (target OS 0, imports {}), not a Windows \
                         program",
                        os2.join(", ")
                    ),
                ));
            }
            0 | 2 | 4 => {}
            os => {
                return Err(LoadError::at(
                    at + 0x36,
                    "ne_exetyp",
                    format!(
                        "this NE module targets {} (target OS {os}), not Windows",
                        target_os_name(os)
                    ),
                ));
            }
        }
        if h.flags & NEF_SELF_LOADING != 0 {
            self.check_self_loader()?;
        }
        if h.flags & NEF_LINK_ERRORS != 0 {
            return Err(LoadError::at(
                at + 0x0C,
                "ne_flags",
                format!(
                    "the linker reported errors in this module (flags {:#06X} has bit 0x2000); \
                     Windows refuses to load it",
                    h.flags
                ),
            ));
        }
        if as_program && self.segments.is_empty() {
            return Err(LoadError::at(
                at + 0x1C,
                "ne_cseg",
                "this NE module has no segments: a resource-only module such as a font cannot \
                 be run",
            ));
        }
        if as_program && h.is_library() {
            return Err(LoadError::at(
                at + 0x0C,
                "ne_flags",
                format!(
                    "this is a library module (DLL; flags {:#06X} has bit 0x8000), not a program",
                    h.flags
                ),
            ));
        }
        let nseg = self.segments.len();
        let in_table = |n: u16| n != 0 && (n as usize) <= nseg;
        if (as_program || h.cs != 0) && !in_table(h.cs) {
            return Err(LoadError::at(
                at + 0x16,
                "ne_csip",
                format!(
                    "entry point CS is segment {}, outside the segment table (1..={nseg})",
                    h.cs
                ),
            ));
        }
        if h.ss != 0 && !in_table(h.ss) {
            return Err(LoadError::at(
                at + 0x1A,
                "ne_sssp",
                format!(
                    "stack SS is segment {}, outside the segment table (1..={nseg})",
                    h.ss
                ),
            ));
        }
        if h.auto_data_segment != 0 && !in_table(h.auto_data_segment) {
            return Err(LoadError::at(
                at + 0x0E,
                "ne_autodata",
                format!(
                    "automatic data segment {} is outside the segment table (1..={nseg})",
                    h.auto_data_segment
                ),
            ));
        }
        for s in &self.segments {
            // Relocation records follow the data: count word, 8-byte records.
            let first = s.file_offset + s.file_length() as u64 + 2;
            for (i, r) in s.relocs.iter().enumerate() {
                let at = first + i as u64 * 8 + 4;
                let bad = match &r.target {
                    RelocTarget::Internal { segment, .. } if !in_table(*segment as u16) => {
                        format!("segment {segment}, outside the segment table (1..={nseg})")
                    }
                    RelocTarget::ImportOrdinal { module, .. }
                    | RelocTarget::ImportName { module, .. }
                        if self.module_ref_name(*module).is_none() =>
                    {
                        format!(
                            "module #{module}, outside the module reference table (1..={})",
                            self.module_refs.len()
                        )
                    }
                    _ => continue,
                };
                return Err(LoadError::at(
                    at,
                    format!("segment {} relocation {i}", s.number),
                    format!("the relocation target names {bad}"),
                ));
            }
        }
        if let Some(s) = self.segments.iter().find(|s| s.truncated) {
            return Err(LoadError::at(
                s.file_offset,
                format!("segment {} data", s.number),
                format!(
                    "segment {} has {:#X} bytes at file offset {:#X}, which runs past the end of \
                     the file (size {:#X}); the file is truncated",
                    s.number,
                    s.file_length(),
                    s.file_offset,
                    self.file_size
                ),
            ));
        }
        Ok(())
    }
}

/// The size of a self-loading application's loader data table at the start
/// of its segment 1 (Windows 3.1 SDK, "Loader Data Table"): the version
/// word, a reserved word, then far pointers BootApp (04), LoadAppSeg (08),
/// reserved (0C), MyAlloc (10), EntryAddrProc (14), ExitProc (18), four
/// reserved words (1C..23) and SetOwner (24).
pub const SELF_LOAD_TABLE_SIZE: u32 = 0x28;

impl NeImage {
    /// A self-loading application (flag 0x0800) brings its loader in
    /// segment 1, which starts with the loader data table
    /// ([`SELF_LOAD_TABLE_SIZE`]): refused when there is no segment 1 with
    /// data in the file for the table.
    fn check_self_loader(&self) -> Result<(), LoadError> {
        let Some(s1) = self.segment(1) else {
            return Err(LoadError::at(
                self.header.file_offset + 0x1C,
                "ne_cseg",
                "a self-loading application (flags bit 0x0800) needs segment 1 for its loader, \
                 and the module has no segments",
            ));
        };
        if s1.is_data() || (s1.data.len() as u32) < SELF_LOAD_TABLE_SIZE {
            return Err(LoadError::at(
                s1.table_entry_offset,
                "segment 1 table entry",
                format!(
                    "a self-loading application's segment 1 is its loader, code starting with \
                     the {SELF_LOAD_TABLE_SIZE:#X}-byte loader data table; this one is {} with \
                     {:#X} bytes of data",
                    if s1.is_data() { "data" } else { "code" },
                    s1.data.len()
                ),
            ));
        }
        Ok(())
    }

    /// True for a self-loading application (flag 0x0800).
    pub fn is_self_loading(&self) -> bool {
        self.header.flags & NEF_SELF_LOADING != 0
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::build_ne;
    use super::*;

    #[test]
    fn refusals() {
        let base = build_ne();
        let with = |o: usize, v: &[u8]| {
            let mut f = base.clone();
            f[o..o + v.len()].copy_from_slice(v);
            NeImage::parse(&f).unwrap()
        };
        let e = with(0x40 + 0x36, &[1]).check_runnable(true).unwrap_err();
        assert!(
            e.message.contains("OS/2 NE executable (target OS 1)"),
            "{e}"
        );
        assert_eq!(e.offset, Some(0x76));
        // Target OS 0 with an OS/2 import.
        let mut f = base.clone();
        f[0x76] = 0;
        f[0xA7..0xAB].copy_from_slice(b"\x03MSG");
        let e = NeImage::parse(&f)
            .unwrap()
            .check_runnable(false)
            .unwrap_err();
        assert!(
            e.message.contains("OS/2") && e.message.contains("MSG"),
            "{e}"
        );
        // Self-loading: the sample's segment 1 (0x20 bytes) is too short
        // for the loader data table (0x28 bytes).
        let e = with(0x4D, &[0x08]).check_runnable(true).unwrap_err();
        assert!(e.message.contains("self-loading"), "{e}");
        assert!(e.message.contains("0x28-byte loader data table"), "{e}");
        assert_eq!(e.offset, Some(0x80));
        let e = with(0x4D, &[0x80]).check_runnable(true).unwrap_err();
        assert!(e.message.contains("library module"), "{e}");
        with(0x4D, &[0x80]).check_runnable(false).unwrap();
        let e = with(0x56, &[3]).check_runnable(true).unwrap_err();
        assert!(e.message.contains("entry point CS is segment 3"), "{e}");
        assert_eq!(e.offset, Some(0x56));
        let e = with(0x4E, &[9]).check_runnable(true).unwrap_err();
        assert!(e.message.contains("automatic data segment 9"), "{e}");
        // Relocation naming module 3 of 2 (record 0's target at 0x220 + 2 + 4).
        let e = with(0x226, &[3]).check_runnable(true).unwrap_err();
        assert!(e.message.contains("module #3"), "{e}");
        assert_eq!(e.offset, Some(0x226));
        // Internal relocation naming segment 7 (record 1's target).
        let e = with(0x22E, &[7]).check_runnable(true).unwrap_err();
        assert!(e.message.contains("segment 7"), "{e}");
        assert_eq!(e.offset, Some(0x22E));
        let e = with(0x5C, &[0]).check_runnable(true).unwrap_err();
        assert!(e.message.contains("no segments"), "{e}");
        assert!(e.message.contains("resource-only"), "{e}");
    }

    #[test]
    fn a_bound_os2_program_is_one_whose_dos_part_is_a_program() {
        let f = build_ne();
        let mut ne = NeImage::parse(&f).unwrap();
        // A Windows module: never bound, whatever its stub.
        assert!(!ne.is_os2());
        assert!(ne.bound_dos_program().is_none());
        // OS/2 with a message stub (no relocations, a few bytes): not bound.
        ne.header.target_os = 1;
        assert!(ne.is_os2());
        let stub = ne.stub.as_deref().unwrap().clone();
        assert!(stub.relocs.is_empty() && stub.image.len() <= 0x400);
        assert!(ne.bound_dos_program().is_none());
        // A DOS part with segment relocations is a program of its own.
        let mut program = stub.clone();
        program.relocs.push((0x0010, 0x0000));
        ne.stub = Some(Box::new(program));
        assert!(ne.bound_dos_program().is_some());
        // So is one of more than 1 KiB.
        let mut big = stub;
        big.image.resize(0x401, 0x90);
        ne.stub = Some(Box::new(big));
        assert!(ne.bound_dos_program().is_some());
        // Without the stub (a module parsed from its NE header alone).
        ne.stub = None;
        assert!(ne.bound_dos_program().is_none());
    }
}
