//! `stack`'s near pointers: which registers and stack words at the stop
//! point into a block of DS's local heap, and which block.
//!
//! A Win16 program's near pointers are offsets in its DS, and its local
//! heap lives there (win16.md, "The instance data"). At a stop, DS's heap
//! is walked in emulated memory as LocalFirst/LocalNext walk it
//! (`crate::win16::toolhelp_heap`), and a value names a block when it
//! lies within a block in use: `wAddress <= value < wAddress + wSize`.
//! Free arenas hold no block and are not named.
//!
//! Looked at, in this order:
//! - the registers AX, BX, CX, DX, SI and DI at the stop;
//! - the stack words from SP up to the outermost walked frame's
//!   arguments (its BP + 16, at most 512 words), in SS, each counted from
//!   the walked frame's BP nearest to it (`[BP-n]` a local of the function
//!   that set up that BP, `[BP+n]` one of its arguments; a word halfway
//!   goes to the lower BP). The words the walk itself reads (each frame's
//!   saved BP, return IP and, for a far frame, return CS) and the DS a
//!   Windows far prologue saved below an odd saved BP (`inc bp; push bp;
//!   mov bp,sp; push ds`, toolhelp.md) are skipped: they are links and
//!   selectors, not data.
//!
//! Only frames on the stop's SS count (a walk through a fault dispatch
//! frame may continue on another stack).

use super::json as j;
use crate::machine::{Cpu, R};
use crate::session::Program;
use crate::walk::{StackTraceEntry, Walk};
use crate::win16::toolhelp_heap as th;

/// The most stack words looked at.
const MAX_WORDS: u32 = 512;

/// The near pointers of the stop (module doc); `None` when DS holds no
/// local heap or the program is no Win16 program.
pub fn find(p: &Program, w: Option<&Walk>) -> Option<j::NearPointers> {
    let env = p.machine.environment::<crate::system::Env>()?;
    let m = &*p.machine;
    let ds = m.reg(R::DS);
    if ds == 0 {
        return None;
    }
    let heap = th::find_heap(env, m, ds)?;
    let mut pointers = Vec::new();
    let mut name = |value: u16, place: Place| {
        let Some(e) = th::block_holding(m, &heap, value) else {
            return;
        };
        let (register, ss_offset, frame, bp_offset, text) = match place {
            Place::Register(r) => (
                Some(r.name().to_string()),
                None,
                None,
                None,
                r.name().into(),
            ),
            Place::Stack { at, frame, rel } => (
                None,
                Some(at),
                Some(frame),
                Some(rel),
                if rel < 0 {
                    format!("frame {frame} [BP-{:X}]", -rel)
                } else {
                    format!("frame {frame} [BP+{rel:X}]")
                },
            ),
        };
        pointers.push(j::NearPointer {
            place: text,
            register,
            ss_offset,
            frame,
            bp_offset,
            value,
            hHandle: e.h_handle,
            wAddress: e.w_address,
            wSize: e.w_size,
            wFlags: e.w_flags,
            flags: th::lf_name(e.w_flags).to_string(),
            wcLock: e.wc_lock,
            offset: value - e.w_address,
        });
    };
    for r in [R::AX, R::BX, R::CX, R::DX, R::SI, R::DI] {
        name(m.reg(r), Place::Register(r));
    }
    let ss = m.reg(R::SS);
    let frames: Vec<&StackTraceEntry> = w
        .map(|w| w.frames.iter().filter(|f| f.w_ss == ss).collect())
        .unwrap_or_default();
    if let Some(outer) = frames.iter().map(|f| f.w_bp).max() {
        let sp = u32::from(m.reg(R::SP));
        let end = (u32::from(outer) + 16)
            .min(sp + 2 * MAX_WORDS)
            .min(0x1_0000);
        let links: Vec<u32> = frames
            .iter()
            .flat_map(|f| {
                let bp = u32::from(f.w_bp);
                let far = f.w_flags != StackTraceEntry::FRAME_NEAR;
                let odd = m.read_u16_at(ss, f.w_bp).is_ok_and(|v| v & 1 == 1);
                [
                    Some(bp),
                    Some(bp + 2),
                    far.then_some(bp + 4),
                    odd.then(|| bp.wrapping_sub(2)),
                ]
            })
            .flatten()
            .collect();
        let mut at = sp;
        while at + 2 <= end {
            if !links.contains(&at) {
                let owner = frames
                    .iter()
                    .enumerate()
                    .min_by_key(|(_, f)| (u32::from(f.w_bp).abs_diff(at), f.w_bp));
                if let (Some((i, f)), Ok(v)) = (owner, m.read_u16_at(ss, at as u16)) {
                    let rel = at as i32 - i32::from(f.w_bp);
                    name(
                        v,
                        Place::Stack {
                            at: at as u16,
                            frame: i,
                            rel,
                        },
                    );
                }
            }
            at += 2;
        }
    }
    Some(j::NearPointers {
        selector: ds,
        hHeap: heap.h_heap,
        pointers,
    })
}

/// Where a value was found.
enum Place {
    Register(R),
    Stack { at: u16, frame: usize, rel: i32 },
}

/// The text report's section (nothing when no pointer names a block):
/// one line per pointer (module doc), e.g.
/// `SI = 1234 -> local block 0F2E (MOVEABLE, locked 1) +4, 40 bytes at 1230`.
pub fn text(n: &j::NearPointers) -> String {
    if n.pointers.is_empty() {
        return String::new();
    }
    let mut s = format!(
        "near pointers into DS {:04X}'s local heap (hHeap {:04X}, LocalFirst/LocalNext):\n",
        n.selector, n.hHeap
    );
    for p in &n.pointers {
        let place = match p.ss_offset {
            Some(at) => format!("{} (SS:{at:04X})", p.place),
            None => p.place.clone(),
        };
        s.push_str(&format!(
            "  {place:<26} = {:04X} -> local block {:04X} ({}, locked {}) +{:X}, {} bytes at {:04X}\n",
            p.value,
            p.hHandle,
            p.flags,
            p.wcLock,
            p.offset,
            p.wSize,
            p.wAddress
        ));
    }
    s
}
