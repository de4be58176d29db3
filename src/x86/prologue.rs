//! Where a function's frame exists: the end of its prologue.
//!
//! A stop at a function's first instruction is before its prologue has
//! run: BP is still the caller's, so a walk from there (StackTraceCSIPFirst
//! takes the live BP) names the function as frame 0 with its caller's
//! frame, and the caller itself is missing from the chain (its return
//! address is at SS:SP, where no BP points). `--at NAME+prologue` stops
//! after the prologue instead, where the walk, `--verify` and `finish`
//! see the function's own frame.
//!
//! The prologues recognised are those the Windows 3.1 SDK's Guide to
//! Programming (chapter 14, "the prologue and epilogue code") and the
//! compilers of the era emit, in 16-bit code:
//!
//! ```text
//! [mov ax,DGROUP | push ds; pop ax; nop | nop; nop; nop]   exported far functions
//! [inc bp]                       far frame marker (the odd saved BP)
//! push bp; mov bp,sp             the frame (8B EC or 89 E5)
//! [push ds; mov ds,ax]           exported: load the data segment
//! [sub sp,N]                     locals (83 EC ib / 81 EC iw)
//! enter N,0                      instead of push bp; mov bp,sp; sub sp,N
//! ```

/// How many bytes of code a prologue takes at most (the forms above).
pub const MAX_PROLOGUE: usize = 20;

/// The prologue at the start of `code` (the bytes at a function's entry):
/// its length in bytes and the instructions it is made of, or None when
/// `code` does not begin with one (no BP frame).
pub fn prologue(code: &[u8]) -> Option<(u16, Vec<&'static str>)> {
    let mut at = 0usize;
    let mut parts = Vec::new();
    let starts = |at: usize, bytes: &[u8]| code.get(at..at + bytes.len()) == Some(bytes);
    // The exported-function preamble, as compiled or as the loader
    // patched it (win16/prologue.rs).
    if code.first() == Some(&0xB8) && code.len() >= 3 {
        at = 3;
        parts.push("mov ax,DGROUP");
    } else if starts(0, &[0x1E, 0x58, 0x90]) {
        at = 3;
        parts.push("push ds; pop ax; nop");
    } else if starts(0, &[0x90, 0x90, 0x90]) {
        at = 3;
        parts.push("nop; nop; nop");
    } else if starts(0, &[0x8C, 0xD8]) || starts(0, &[0x8C, 0xD0]) {
        // `mov ax,ds` or `mov ax,ss` (Borland's exported and "smart
        // callback" entries, the latter taking DS from SS), with or
        // without the `nop` that leaves room for the loader's patch.
        at = 2;
        parts.push(if code[1] == 0xD8 {
            "mov ax,ds"
        } else {
            "mov ax,ss"
        });
        if starts(2, &[0x90]) {
            at = 3;
            parts.push("nop");
        }
    }
    if starts(at, &[0xC8]) && code.len() >= at + 4 {
        at += 4;
        parts.push("enter");
        return Some((at as u16, parts));
    }
    if starts(at, &[0x45]) {
        at += 1;
        parts.push("inc bp");
    }
    if !starts(at, &[0x55]) {
        return None;
    }
    at += 1;
    if !(starts(at, &[0x8B, 0xEC]) || starts(at, &[0x89, 0xE5])) {
        return None;
    }
    at += 2;
    parts.push("push bp; mov bp,sp");
    if starts(at, &[0x1E, 0x8E, 0xD8]) {
        at += 3;
        parts.push("push ds; mov ds,ax");
    }
    if starts(at, &[0x83, 0xEC]) && code.len() >= at + 3 {
        at += 3;
        parts.push("sub sp,N");
    } else if starts(at, &[0x81, 0xEC]) && code.len() >= at + 4 {
        at += 4;
        parts.push("sub sp,N");
    }
    Some((at as u16, parts))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sdk_prologues_are_measured() {
        // Exported far function as the loader leaves it, with locals.
        let code = [
            0x90, 0x90, 0x90, 0x45, 0x55, 0x8B, 0xEC, 0x1E, 0x8E, 0xD8, 0x83, 0xEC, 0x04,
        ];
        assert_eq!(prologue(&code).unwrap().0, 13);
        // A near function: push bp; mov bp,sp (MASM's 8B EC).
        assert_eq!(prologue(&[0x55, 0x8B, 0xEC, 0xC3]).unwrap().0, 3);
        // NASM's encoding 89 E5, far frame marker.
        assert_eq!(prologue(&[0x45, 0x55, 0x89, 0xE5, 0x90]).unwrap().0, 4);
        // Borland's entry taking DS from SS, without a nop, and with one.
        assert_eq!(
            prologue(&[0x8C, 0xD0, 0x55, 0x8B, 0xEC, 0x1E, 0x8E, 0xD8])
                .unwrap()
                .0,
            8
        );
        assert_eq!(
            prologue(&[0x8C, 0xD8, 0x90, 0x45, 0x55, 0x8B, 0xEC])
                .unwrap()
                .0,
            7
        );
        // enter 8,0
        assert_eq!(prologue(&[0xC8, 0x08, 0x00, 0x00, 0x90]).unwrap().0, 4);
        // sub sp,imm16
        assert_eq!(
            prologue(&[0x55, 0x8B, 0xEC, 0x81, 0xEC, 0x00, 0x01])
                .unwrap()
                .0,
            7
        );
    }

    #[test]
    fn code_without_a_frame_has_no_prologue() {
        assert_eq!(prologue(&[0x50, 0x53, 0xC3]), None);
        assert_eq!(prologue(&[0x55, 0x50]), None);
        assert_eq!(prologue(&[]), None);
        assert_eq!(prologue(&[0xB8]), None);
    }
}
