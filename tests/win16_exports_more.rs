//! More Windows 3.1 exports that real programs import (issue 28):
//! KERNEL's GetModuleName and LongPtrAdd, GDI's IsValidMetaFile and
//! GetGlyphOutline, GetDCState and SetDCState, IsDCCurrentPalette, and
//! KERNEL's DirectResAlloc and FlushCachedFileHandle, each exercised by
//! an Open Watcom C program in tests/watcom/.

mod common;

use common::{bin, json, strings, watcom};

/// Run a built program with a fresh drive C: of its own; its debug output.
fn run(exe: &std::path::Path) -> Vec<String> {
    let dir = exe.parent().unwrap().join("drive");
    std::fs::create_dir_all(&dir).unwrap();
    let name = exe.file_name().unwrap();
    std::fs::copy(exe, dir.join(name)).unwrap();
    let out = bin()
        .args(["run", "--json", "--dir"])
        .arg(&dir)
        .arg(dir.join(name))
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    strings(&v["debug_output"])
}

/// tests/watcom/exportsmore.c. Expected values:
/// - GetModuleName(hInstance, lpName, cbName) (KERNEL.27, undocumented;
///   KRNL386's behaviour as Wine's krnl386 notes record it): TRUE and the
///   module's name from its resident-name table (`KERNEL`), cut to
///   cbName - 1 characters and NUL-ended (`US` for 3), nothing written
///   for 0; FALSE for a handle that names no module.
/// - LongPtrAdd(dwLongPtr, dwAdd) (KERNEL.180, undocumented; the same
///   source): the selector's base moves dwAdd (16) bytes, so offset n
///   through it reads what offset n + 16 held (`g` of the digits and
///   letters).
/// - IsValidMetaFile(hmf) (GDI.410, undocumented; GDI 3.1 as Wine's notes
///   record it): TRUE for CloseMetaFile's metafile and for a block whose
///   METAHEADER says mtType 2, mtHeaderSize 9, mtVersion 0300h (Windows
///   3.1 SDK, "Metafile Format"); FALSE for zeros, for version 0100h and
///   for a block too small for the header.
/// - GetGlyphOutline (GDI.309): -1 for the System font of the display
///   (Windows 3.1 SDK: "This function works only with TrueType fonts";
///   the return value on error is -1), and the GLYPHMETRICS structure is
///   not written.
/// - GetDCState(hdc) / SetDCState(hdc, hdcSaved) (GDI.179/180,
///   undocumented: the pair SaveDC and RestoreDC are built on in GDI 3.1,
///   as Schulman's *Undocumented Windows* and Wine's notes describe them):
///   the copy is a new DC answering with the attributes hdc had (blue
///   text 0xFF0000, TRANSPARENT 1, MM_LOMETRIC 2); after hdc changed
///   them, SetDCState gives them back, the selected brush included (the
///   red brush comes out of the next SelectObject); DeleteDC frees the
///   copy (TRUE), and then the brush can be deleted; a handle that is no
///   DC gives no copy.
/// - DirectResAlloc(hInstance, wType, wSize) (KERNEL.168, undocumented;
///   KRNL386 as Wine's notes record it): a moveable, non-discardable
///   block of at least wSize bytes whose owner (TOOLHELP's GlobalEntry
///   hOwner) is the instance's module (TaskFindHandle's hModule), where
///   GlobalAlloc's block belongs to the task; a handle that names no
///   module: NULL.
/// - IsDCCurrentPalette(hdc) (GDI.412, undocumented; GDI 3.1 as Wine's
///   notes record it: TRUE when the DC's palette is the primary palette,
///   the last one selected as a foreground palette): a palette selected
///   with bForceBackground FALSE into a memory DC (no window) is current;
///   one selected with TRUE is not and leaves the other current; selected
///   again with FALSE it is current and the first no longer is. Selected
///   with FALSE into the DC of a window that is not the active one, a
///   palette is a background palette (Windows 3.1 SDK, SelectPalette: a
///   foreground palette "when the window has input focus"), so the
///   primary palette stays. A handle that is no DC: FALSE.
/// - FlushCachedFileHandle(hExe) (KERNEL.319, undocumented; KRNL386's
///   source: it closes hExe's entry of KERNEL's cache of EXE file handles,
///   if there is one, and keeps AX, BX, CX and DI): returns to the caller
///   with AX as it was (1234h, 5678h), for the program's own module and
///   for 0.
#[test]
fn more_windows_31_exports() {
    let Some(exe) = watcom::build(
        "exportsmore",
        watcom::Kind::Win16Exe,
        &["exportsmore.c"],
        None,
        &["toolhelp.lib"],
    ) else {
        return;
    };
    assert_eq!(
        run(&exe),
        [
            "modname 1 KERNEL 1 US 1 x 0",
            "ptradd 16 g",
            "validmf 1 0 1 0 0",
            "glyph -1 1",
            "dcstate copy 1 FF0000 1 2",
            "dcstate back FF0000 1 2 1",
            "dcstate freed 1 1 1",
            "resalloc 1 1 1 1 1 1",
            "palette 1 0 1 1 0 1 0",
            "flush 1234 5678",
        ]
    );
}
