//! DWARF debug information as Open Watcom's linker appends it to a 16-bit
//! executable (`wcc -d2`, DWARF being its default format, or `-hd`; wlink
//! `debug dwarf`).
//!
//! wlink writes the DWARF sections into a small ELF32 image placed after
//! the executable's last byte and ends the file with a 16-byte "TIS"
//! trailer (Tool Interface Standard): the signature `TIS\0`, a vendor and
//! a type (both 0 for DWARF) and the size in bytes of everything appended,
//! trailer included, as little-endian 32-bit words. So the image starts
//! `size` bytes before the end of the file.
//!
//! Watcom's DWARF is version 2 with 16-bit addresses (`address_size` 2 in
//! C compile units, 4 in its assembler units) and two segmented additions
//! read here: a subprogram or label's `DW_AT_segment` is a location
//! expression pushing the segment value (`DW_OP_const2u N`), and the line
//! program sets the segment with extended opcode 4 (which DWARF 4 later
//! took for `DW_LNE_set_discriminator`). The segment value is what the
//! linker relocated: the NE segment number in a Windows executable, the
//! paragraph from the load image's start in a DOS one. Parameters and
//! locals are placed `DW_OP_fbreg N` from a frame base of `DW_OP_regx 33`,
//! Watcom's number for BP (its 16-bit registers are numbered AX 27, BX 28,
//! CX 29, DX 30, SI 31, DI 32, BP 33, SP 34).
//!
//! The sections are read with the `gimli` crate; the container and the
//! line program's state machine (for the segment opcode) are read here.

use gimli::{EndianSlice, LittleEndian};

use super::SymError;
use super::lines::{DebugInfo, Param, RawFunction, RawRow};

/// The TIS trailer's signature.
const TIS_SIGNATURE: &[u8; 4] = b"TIS\0";
/// The most compile units read.
const MAX_UNITS: usize = 100_000;
/// The most entries read from all units.
const MAX_ENTRIES: usize = 5_000_000;
/// The most line-program instructions run in all units.
const MAX_INSTRUCTIONS: usize = 20_000_000;
/// Watcom's DWARF number for BP.
const WATCOM_BP: u64 = 33;

/// Where the appended DWARF image starts, when the file ends in a TIS
/// trailer of type DWARF: (start of the ELF image, its length without
/// the trailer).
pub fn find(bytes: &[u8]) -> Option<(usize, usize)> {
    let n = bytes.len();
    let t = bytes.get(n.checked_sub(16)?..)?;
    if &t[..4] != TIS_SIGNATURE {
        return None;
    }
    let word = |i: usize| u32::from_le_bytes([t[i], t[i + 1], t[i + 2], t[i + 3]]);
    let (vendor, kind, size) = (word(4), word(8), word(12) as usize);
    if vendor != 0 || kind != 0 || size < 16 || size > n {
        return None;
    }
    Some((n - size, size - 16))
}

/// Whether the file ends in a DWARF TIS trailer.
pub fn present(bytes: &[u8]) -> bool {
    find(bytes).is_some()
}

/// Read the DWARF appended to executable `bytes`. Errors give the file
/// offset of what is wrong.
pub fn parse(bytes: &[u8]) -> Result<DebugInfo, SymError> {
    let (start, len) = find(bytes).ok_or_else(|| {
        SymError::file("no DWARF debug information (no TIS trailer at the end of the file)")
    })?;
    let elf = &bytes[start..start + len];
    let sections = elf_sections(elf, start as u64)?;
    let section = |name: &str| -> &[u8] {
        sections
            .iter()
            .find(|(n, _, _)| n == name)
            .map(|&(_, off, size)| &elf[off..off + size])
            .unwrap_or(&[])
    };
    let offset_of = |name: &str| {
        sections
            .iter()
            .find(|(n, _, _)| n == name)
            .map(|&(_, off, _)| (start + off) as u64)
            .unwrap_or(start as u64)
    };
    let dwarf = gimli::Dwarf::load(|id| -> Result<_, gimli::Error> {
        Ok(EndianSlice::new(section(id.name()), LittleEndian))
    })
    .map_err(|e| SymError::offset(start as u64, format!("DWARF sections: {e}")))?;
    let info_at = offset_of(".debug_info");
    let mut out = DebugInfo {
        format: "DWARF (Open Watcom)".into(),
        ..DebugInfo::default()
    };
    let mut budget = Budget {
        entries: MAX_ENTRIES,
        instructions: MAX_INSTRUCTIONS,
    };
    let mut units = dwarf.units();
    let mut n = 0usize;
    loop {
        let header = match units.next() {
            Ok(Some(h)) => h,
            Ok(None) => break,
            Err(e) => {
                return Err(SymError::offset(
                    info_at,
                    format!(".debug_info: unit header {n}: {e}"),
                ));
            }
        };
        n += 1;
        if n > MAX_UNITS {
            return Err(SymError::offset(
                info_at,
                format!(".debug_info: more than {MAX_UNITS} compile units"),
            ));
        }
        let unit_at = info_at
            + header
                .offset()
                .as_debug_info_offset()
                .map_or(0, |o| o.0 as u64);
        let unit = dwarf.unit(header).map_err(|e| {
            SymError::offset(unit_at, format!(".debug_info: compile unit {n}: {e}"))
        })?;
        read_entries(&dwarf, &unit, &mut out, &mut budget).map_err(|e| {
            SymError::offset(unit_at, format!(".debug_info: compile unit {n}: {e}"))
        })?;
        if let Some(program) = &unit.line_program {
            let line_at = offset_of(".debug_line");
            read_lines(&dwarf, &unit, program, &mut out, &mut budget).map_err(|e| {
                SymError::offset(
                    line_at,
                    format!(".debug_line: the line program of compile unit {n}: {e}"),
                )
            })?;
        }
    }
    Ok(out)
}

struct Budget {
    entries: usize,
    instructions: usize,
}

/// The named sections of an ELF32 little-endian image: (name, offset,
/// size), every range checked to lie inside the image. `base` is the
/// image's offset in the file, for messages.
fn elf_sections(elf: &[u8], base: u64) -> Result<Vec<(String, usize, usize)>, SymError> {
    let err = |at: usize, what: &str| SymError::offset(base + at as u64, what.to_string());
    let u16_at = |at: usize| -> Result<u16, SymError> {
        elf.get(at..at + 2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
            .ok_or_else(|| err(at, "the DWARF image ends inside its ELF header"))
    };
    let u32_at = |at: usize| -> Result<u32, SymError> {
        elf.get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .ok_or_else(|| err(at, "the DWARF image ends inside its ELF header"))
    };
    if elf.get(..4) != Some(b"\x7fELF") {
        return Err(err(
            0,
            "the TIS trailer points at no ELF image (no \\x7fELF)",
        ));
    }
    if elf.get(4) != Some(&1) || elf.get(5) != Some(&1) {
        return Err(err(4, "the DWARF image is not 32-bit little-endian ELF"));
    }
    let shoff = u32_at(0x20)? as usize;
    let shentsize = usize::from(u16_at(0x2E)?);
    let shnum = usize::from(u16_at(0x30)?);
    let shstrndx = usize::from(u16_at(0x32)?);
    if shentsize < 40 {
        return Err(err(
            0x2E,
            "e_shentsize is less than the 40 bytes of a section header",
        ));
    }
    let header = |i: usize| -> Result<(u32, usize, usize), SymError> {
        let at = shoff
            .checked_add(
                i.checked_mul(shentsize)
                    .ok_or_else(|| err(0x20, "e_shoff overflows"))?,
            )
            .ok_or_else(|| err(0x20, "e_shoff overflows"))?;
        if elf.len() < at.saturating_add(40) {
            return Err(err(
                at.min(elf.len()),
                &format!("section header {i} lies past the image's end"),
            ));
        }
        let name = u32_at(at)?;
        let off = u32_at(at + 16)? as usize;
        let size = u32_at(at + 20)? as usize;
        if off.checked_add(size).is_none_or(|e| e > elf.len()) {
            return Err(err(
                at + 16,
                &format!(
                    "section {i} (sh_offset {off:#X}, sh_size {size:#X}) lies past the image's end"
                ),
            ));
        }
        Ok((name, off, size))
    };
    if shstrndx >= shnum {
        return Err(err(0x32, "e_shstrndx names no section"));
    }
    let (_, str_off, str_size) = header(shstrndx)?;
    let strtab = &elf[str_off..str_off + str_size];
    let mut out = Vec::new();
    for i in 0..shnum {
        let (name, off, size) = header(i)?;
        let name = strtab
            .get(name as usize..)
            .and_then(|s| s.split(|&b| b == 0).next())
            .map(|s| String::from_utf8_lossy(s).into_owned())
            .unwrap_or_default();
        out.push((name, off, size));
    }
    Ok(out)
}

type Slice<'a> = EndianSlice<'a, LittleEndian>;

/// A segment value from `DW_AT_segment`'s location expression
/// (`DW_OP_constNu`).
fn segment_of(v: &gimli::AttributeValue<Slice<'_>>) -> Option<u16> {
    let b = match v {
        gimli::AttributeValue::Exprloc(e) => e.0.slice(),
        gimli::AttributeValue::Block(b) => b.slice(),
        gimli::AttributeValue::Data1(d) => return Some(u16::from(*d)),
        gimli::AttributeValue::Data2(d) => return Some(*d),
        gimli::AttributeValue::Udata(d) => return u16::try_from(*d).ok(),
        _ => return None,
    };
    match b {
        [0x08, v, ..] => Some(u16::from(*v)),
        [0x0A, a, b, ..] => Some(u16::from_le_bytes([*a, *b])),
        [0x0C, a, b, c, d, ..] => u16::try_from(u32::from_le_bytes([*a, *b, *c, *d])).ok(),
        _ => None,
    }
}

/// The BP offset of a location `DW_OP_fbreg N`.
fn fbreg(v: &gimli::AttributeValue<Slice<'_>>) -> Option<i32> {
    let gimli::AttributeValue::Exprloc(e) = v else {
        return None;
    };
    let mut r = e.0;
    use gimli::Reader;
    if r.read_u8().ok()? != 0x91 {
        return None;
    }
    let n = r.read_sleb128().ok()?;
    if !r.is_empty() {
        return None;
    }
    i32::try_from(n).ok()
}

/// Whether a frame base is BP (`DW_OP_regx 33` or `DW_OP_breg`-free
/// forms naming it).
fn frame_base_is_bp(v: &gimli::AttributeValue<Slice<'_>>) -> bool {
    let gimli::AttributeValue::Exprloc(e) = v else {
        return false;
    };
    let mut r = e.0;
    use gimli::Reader;
    matches!(r.read_u8(), Ok(0x90)) && r.read_uleb128().ok() == Some(WATCOM_BP) && r.is_empty()
}

fn name_of(
    dwarf: &gimli::Dwarf<Slice<'_>>,
    unit: &gimli::Unit<Slice<'_>>,
    entry: &gimli::DebuggingInformationEntry<'_, '_, Slice<'_>>,
) -> Result<Option<String>, gimli::Error> {
    Ok(match entry.attr_value(gimli::DW_AT_name)? {
        Some(v) => Some(dwarf.attr_string(unit, v)?.to_string_lossy().into_owned()),
        None => None,
    })
}

fn read_entries(
    dwarf: &gimli::Dwarf<Slice<'_>>,
    unit: &gimli::Unit<Slice<'_>>,
    out: &mut DebugInfo,
    budget: &mut Budget,
) -> Result<(), String> {
    let mut cursor = unit.entries();
    let mut depth: isize = 0;
    // The function being read and its depth.
    let mut current: Option<(RawFunction, isize, bool)> = None;
    while let Some((delta, entry)) = cursor.next_dfs().map_err(|e| e.to_string())? {
        if budget.entries == 0 {
            return Err(format!("more than {MAX_ENTRIES} entries"));
        }
        budget.entries -= 1;
        depth += delta;
        if let Some((f, d, _)) = &current {
            if depth <= *d {
                out.push_function(f.clone());
                current = None;
            }
        }
        let tag = entry.tag();
        if tag == gimli::DW_TAG_subprogram || tag == gimli::DW_TAG_label {
            let name = name_of(dwarf, unit, entry).map_err(|e| e.to_string())?;
            let low = match entry
                .attr_value(gimli::DW_AT_low_pc)
                .map_err(|e| e.to_string())?
            {
                Some(gimli::AttributeValue::Addr(a)) => Some(a),
                _ => None,
            };
            let segment = entry
                .attr_value(gimli::DW_AT_segment)
                .map_err(|e| e.to_string())?
                .as_ref()
                .and_then(segment_of);
            let (Some(name), Some(low), Some(segment)) = (name, low, segment) else {
                continue;
            };
            let Ok(start) = u32::try_from(low) else {
                continue;
            };
            let end = match entry
                .attr_value(gimli::DW_AT_high_pc)
                .map_err(|e| e.to_string())?
            {
                Some(gimli::AttributeValue::Addr(a)) => u32::try_from(a).ok(),
                Some(gimli::AttributeValue::Udata(n)) => {
                    u32::try_from(n).ok().and_then(|n| start.checked_add(n))
                }
                _ => None,
            }
            .filter(|&e| e > start);
            let bp = entry
                .attr_value(gimli::DW_AT_frame_base)
                .map_err(|e| e.to_string())?
                .as_ref()
                .is_some_and(frame_base_is_bp);
            let f = RawFunction {
                name,
                segment,
                start,
                end,
                params: Vec::new(),
            };
            if tag == gimli::DW_TAG_subprogram {
                current = Some((f, depth, bp));
            } else {
                out.push_function(f);
            }
        } else if tag == gimli::DW_TAG_formal_parameter || tag == gimli::DW_TAG_variable {
            let Some((f, _, true)) = &mut current else {
                continue;
            };
            if f.params.len() >= super::lines::MAX_PARAMS {
                continue;
            }
            let Some(off) = entry
                .attr_value(gimli::DW_AT_location)
                .map_err(|e| e.to_string())?
                .as_ref()
                .and_then(fbreg)
            else {
                continue;
            };
            let Some(name) = name_of(dwarf, unit, entry).map_err(|e| e.to_string())? else {
                continue;
            };
            f.params.push(Param {
                name: super::clip_name(&name),
                is_param: tag == gimli::DW_TAG_formal_parameter,
                bp_offset: off,
            });
        }
    }
    if let Some((f, _, _)) = current {
        out.push_function(f);
    }
    Ok(())
}

#[derive(Clone, Copy)]
struct State {
    address: u64,
    file: u64,
    line: i64,
    segment: u16,
}

/// End the open row at `s`'s address (a row covers the code up to the
/// next row's address in its sequence). At the end of a sequence (`last`)
/// the row may be empty: Open Watcom ends its sequences at the last row's
/// address (lines::DebugInfo::push_row).
fn emit(
    files: &[Option<u32>],
    s: &State,
    open: &mut Option<State>,
    out: &mut DebugInfo,
    last: bool,
) {
    if let Some(p) = open.take() {
        if p.segment == s.segment && (s.address > p.address || (last && s.address == p.address)) {
            if let (Some(Some(file)), Ok(line), Ok(start), Ok(end)) = (
                files.get(p.file as usize),
                u32::try_from(p.line),
                u32::try_from(p.address),
                u32::try_from(s.address),
            ) {
                out.push_row(RawRow {
                    segment: p.segment,
                    start,
                    end,
                    file: *file,
                    line,
                });
            }
        }
    }
}

/// The line program's state machine (DWARF 2, 6.2.5), with Watcom's
/// extended opcode 4 setting the segment.
fn read_lines(
    dwarf: &gimli::Dwarf<Slice<'_>>,
    unit: &gimli::Unit<Slice<'_>>,
    program: &gimli::IncompleteLineProgram<Slice<'_>>,
    out: &mut DebugInfo,
    budget: &mut Budget,
) -> Result<(), String> {
    let header = program.header();
    let line_range = header.line_range();
    if line_range == 0 {
        return Err("line_range is 0".into());
    }
    let min_len = u64::from(header.minimum_instruction_length());
    let opcode_base = header.opcode_base();
    let line_base = i64::from(header.line_base());
    let file_name = |e: &gimli::FileEntry<Slice<'_>>| -> String {
        let name = dwarf
            .attr_string(unit, e.path_name())
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let dir = e
            .directory(header)
            .and_then(|d| dwarf.attr_string(unit, d).ok())
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        if dir.is_empty() || name.starts_with(['/', '\\']) || name.get(1..2) == Some(":") {
            name
        } else {
            format!("{dir}/{name}")
        }
    };
    // File numbers are 1-based in DWARF 2; index 0 of this list is unused.
    let mut files: Vec<Option<u32>> = vec![None];
    for f in header.file_names() {
        if files.len() > 10_000 {
            break;
        }
        let name = file_name(f);
        files.push(Some(out.file_index(&name)));
    }
    let initial = State {
        address: 0,
        file: 1,
        line: 1,
        segment: 0,
    };
    let mut s = initial;
    // The row emitted last, waiting for the next address to end it.
    let mut open: Option<State> = None;
    let mut insts = header.instructions();
    loop {
        let inst = match insts.next_instruction(header) {
            Ok(Some(i)) => i,
            Ok(None) => break,
            Err(e) => return Err(e.to_string()),
        };
        if budget.instructions == 0 {
            return Err(format!("more than {MAX_INSTRUCTIONS} instructions"));
        }
        budget.instructions -= 1;
        use gimli::LineInstruction as I;
        let mut row = false;
        match inst {
            I::Special(op) => {
                let adj = u64::from(op.saturating_sub(opcode_base));
                s.address = s
                    .address
                    .wrapping_add((adj / u64::from(line_range)) * min_len);
                s.line = s
                    .line
                    .wrapping_add(line_base + (adj % u64::from(line_range)) as i64);
                row = true;
            }
            I::Copy => row = true,
            I::AdvancePc(n) => s.address = s.address.wrapping_add(n.wrapping_mul(min_len)),
            I::AdvanceLine(n) => s.line = s.line.wrapping_add(n),
            I::SetFile(f) => s.file = f,
            I::ConstAddPc => {
                let adj = u64::from(255u8.saturating_sub(opcode_base));
                s.address = s
                    .address
                    .wrapping_add((adj / u64::from(line_range)) * min_len);
            }
            I::FixedAddPc(n) => s.address = s.address.wrapping_add(u64::from(n)),
            I::SetAddress(a) => s.address = a,
            // Watcom's set-segment (extended opcode 4).
            I::SetDiscriminator(seg) => {
                if let Ok(seg) = u16::try_from(seg) {
                    s.segment = seg;
                }
            }
            I::DefineFile(f) if files.len() <= 10_000 => {
                let name = file_name(&f);
                files.push(Some(out.file_index(&name)));
            }
            I::EndSequence => {
                emit(&files, &s, &mut open, out, true);
                s = initial;
                continue;
            }
            _ => {}
        }
        if row {
            emit(&files, &s, &mut open, out, false);
            open = Some(s);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_trailer_no_dwarf() {
        assert_eq!(find(b"MZ"), None);
        assert!(parse(&[0u8; 64]).is_err());
    }

    #[test]
    fn a_trailer_whose_size_exceeds_the_file_is_ignored() {
        let mut b = vec![0u8; 8];
        b.extend_from_slice(b"TIS\0");
        b.extend_from_slice(&[0; 8]);
        b.extend_from_slice(&100u32.to_le_bytes());
        assert_eq!(find(&b), None);
    }

    #[test]
    fn a_trailer_pointing_at_garbage_is_an_error_with_its_offset() {
        let mut b = vec![0u8; 8];
        b.extend_from_slice(b"TIS\0");
        b.extend_from_slice(&[0; 8]);
        b.extend_from_slice(&24u32.to_le_bytes());
        let e = parse(&b).unwrap_err();
        assert_eq!(e.at, super::super::At::Offset(0));
        assert!(e.what.contains("ELF"), "{}", e.what);
    }
}
