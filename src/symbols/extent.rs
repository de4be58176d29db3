//! Function extents in code that only the NE names tables name.
//!
//! Without a map or debug information the only names a Windows program
//! carries are its exports (the resident and non-resident names tables)
//! and its entry point (`ne_csip`). The nearest export before an address
//! is not the function holding it: the C runtime's startup, static
//! functions and WinMain itself (never exported) lie between exports, and
//! naming them `WNDPROC+0x2d2` misleads. So an export (or the entry) names
//! only the code of its own function, found by reading the code:
//!
//! - decoding runs linearly from the function's first byte;
//! - a function ends after a return (`RET`, `RET n`, `RETF`, `RETF n`,
//!   `IRET`) or an unconditional jump, unless an earlier branch of the
//!   same function jumps past it (the code after is then still the
//!   function's: a second exit, a loop's tail);
//! - a new function starts where a prologue begins at an instruction
//!   boundary after the first: `push bp; mov bp,sp` with the optional
//!   far marker `inc bp`, `enter`, and the exported-function preambles
//!   before them (`mov ax,DGROUP`, `push ds; pop ax; nop`, `mov ax,ds;
//!   nop`, `nop; nop; nop`) — the forms [`crate::x86::prologue`] lists,
//!   which the Windows 3.1 SDK's Guide to Programming (chapter 14) and
//!   the compilers of the era emit;
//! - bytes that decode to no instruction end it too.
//!
//! The rule names; it never changes a walk.

use iced_x86::{Decoder, DecoderOptions, FlowControl, OpKind};

/// The length of the prologue a function starting at `code[0..]` opens
/// with: a BP frame (or `enter`), possibly after an exported-function
/// preamble; None when it has none.
pub fn prologue_len(code: &[u8]) -> Option<usize> {
    crate::x86::prologue::prologue(code).map(|(n, _)| usize::from(n))
}

/// Whether a new function begins at `code[0..]` (see [`prologue_len`]).
pub fn starts_function(code: &[u8]) -> bool {
    prologue_len(code).is_some()
}

/// The end (exclusive offset) of the function starting at `start` in a
/// code segment's bytes `code`; `start` itself when it is past the code.
pub fn function_end(code: &[u8], start: u32) -> u32 {
    let len = code.len() as u32;
    if start >= len {
        return start;
    }
    let mut decoder: Decoder<'_> = Decoder::with_ip(
        16,
        &code[start as usize..],
        u64::from(start),
        DecoderOptions::NONE,
    );
    // The furthest forward branch target seen inside this function.
    let mut furthest = start;
    // The function's own prologue is not the next one's.
    let own = start + prologue_len(&code[start as usize..]).unwrap_or(1) as u32;
    while decoder.can_decode() {
        let pos = decoder.ip() as u32;
        if pos >= own && starts_function(&code[pos as usize..]) {
            return pos;
        }
        let insn = decoder.decode();
        if insn.is_invalid() {
            return pos;
        }
        let next = insn.next_ip() as u32;
        let near_target = matches!(insn.op0_kind(), OpKind::NearBranch16)
            .then(|| u32::from(insn.near_branch16()));
        match insn.flow_control() {
            FlowControl::ConditionalBranch => {
                if let Some(t) = near_target.filter(|&t| t > pos && t < len) {
                    furthest = furthest.max(t);
                }
            }
            FlowControl::UnconditionalBranch => {
                match near_target.filter(|&t| t > next && t < len) {
                    // A jump forward over what follows (compilers put data
                    // there: the C runtime's messages) goes on at its
                    // target, unless the target is another function (a
                    // tail call).
                    Some(t) if !starts_function(&code[t as usize..]) => {
                        furthest = furthest.max(t);
                        decoder = Decoder::with_ip(
                            16,
                            &code[t as usize..],
                            u64::from(t),
                            DecoderOptions::NONE,
                        );
                    }
                    _ if furthest < next => return next,
                    _ => {}
                }
            }
            FlowControl::IndirectBranch | FlowControl::Return if furthest < next => return next,
            _ => {}
        }
    }
    len
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_far_function_ends_at_its_retf() {
        // inc bp; push bp; mov bp,sp; xor ax,ax; pop bp; dec bp; retf 2
        // then a near function: push bp; mov bp,sp; pop bp; ret
        let code = [
            0x45, 0x55, 0x8B, 0xEC, 0x31, 0xC0, 0x5D, 0x4D, 0xCA, 0x02, 0x00, 0x55, 0x8B, 0xEC,
            0x5D, 0xC3,
        ];
        assert_eq!(function_end(&code, 0), 11);
        assert_eq!(function_end(&code, 11), 16);
    }

    #[test]
    fn a_branch_past_a_return_keeps_the_function_going() {
        // jz +1; ret; ret -- the second ret is the jz's target.
        let code = [0x74, 0x01, 0xC3, 0xC3, 0x90];
        assert_eq!(function_end(&code, 0), 4);
    }

    #[test]
    fn a_jump_over_data_goes_on_at_its_target() {
        // jmp short +2; db 'hi' (data: "push 69h" were it decoded); ret
        let code = [0xEB, 0x02, 0x68, 0x69, 0xC3, 0x55, 0x8B, 0xEC];
        assert_eq!(function_end(&code, 0), 5);
        // A jump to another function's prologue is a tail call: the end.
        let code = [0xEB, 0x01, 0x90, 0x55, 0x8B, 0xEC, 0xC3];
        assert_eq!(function_end(&code, 0), 2);
    }

    #[test]
    fn a_prologue_starts_the_next_function_without_a_return() {
        // mov ah,4Ch; int 21h; then push bp; mov bp,sp (NASM's 89 E5)
        let code = [0xB4, 0x4C, 0xCD, 0x21, 0x55, 0x89, 0xE5, 0xC3];
        assert_eq!(function_end(&code, 0), 4);
        // mov ax,ds; nop; inc bp; push bp; mov bp,sp: one preamble.
        let code = [0xC3, 0x8C, 0xD8, 0x90, 0x45, 0x55, 0x8B, 0xEC];
        assert_eq!(function_end(&code, 0), 1);
        assert!(starts_function(&code[1..]));
        // The function's own preamble and prologue do not end it.
        assert_eq!(function_end(&code, 1), 8);
        assert!(!starts_function(&code[2..]));
    }

    #[test]
    fn odd_starts_and_bad_bytes_do_not_panic() {
        assert_eq!(function_end(&[], 0), 0);
        assert_eq!(function_end(&[0xC3], 5), 5);
        assert_eq!(function_end(&[0x0F], 0), 0);
    }
}
