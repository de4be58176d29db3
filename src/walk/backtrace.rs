//! Back-trace capture as RtlCaptureStackBackTrace does it, over a 16-bit
//! walk (dbghelp.md, "Back-trace capture"; seed 003).
//!
//! `RtlCaptureStackBackTrace(FramesToSkip, FramesToCapture, BackTrace,
//! BackTraceHash)` walks from its caller, skips FramesToSkip frames, stores
//! up to FramesToCapture addresses, most recent first, and returns how many
//! it stored. Here:
//!
//! - The frames are those of a walk (the ToolHelp walk, or the STACKFRAME
//!   walk, which has the same CS:IP sequence): frame 0's CS:IP is the
//!   place the walk starts from — as RtlCaptureStackBackTrace's first entry
//!   is the address in its caller that it returns to — and every later
//!   frame's CS:IP is a return address.
//! - Each address is the far pointer CS:IP packed as a DWORD, CS in the high
//!   word, as Win16 stores a FARPROC ([`pack`]).
//! - The hash is the 32-bit wrapping sum of the stored addresses, as
//!   Windows computes BackTraceHash ([`hash`]); equal traces always hash
//!   alike. A sum does not see order, so two traces holding the same
//!   addresses in another order hash alike too.
//! - Windows XP refuses FramesToSkip + FramesToCapture >= 63; no such limit
//!   is applied here.

use serde::Serialize;

use super::toolhelp::Walk;

/// The far pointer CS:IP as a DWORD: `CS << 16 | IP`.
pub fn pack(cs: u16, ip: u16) -> u32 {
    u32::from(cs) << 16 | u32::from(ip)
}

/// BackTraceHash: the 32-bit wrapping sum of the addresses.
pub fn hash(addresses: &[u32]) -> u32 {
    addresses.iter().fold(0u32, |h, a| h.wrapping_add(*a))
}

/// A captured back trace.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BackTrace {
    /// FramesToSkip.
    pub skip: usize,
    /// FramesToCapture (`None`: as many as the walk has).
    pub max: Option<usize>,
    /// The stored addresses (packed CS:IP), most recent first; their number
    /// is what RtlCaptureStackBackTrace returns.
    pub addresses: Vec<u32>,
    /// BackTraceHash.
    pub hash: u32,
}

impl BackTrace {
    /// How many addresses were stored (the function's return value).
    pub fn count(&self) -> usize {
        self.addresses.len()
    }
}

/// Capture from a sequence of frame CS:IPs, innermost first: skip `skip`,
/// store at most `max`.
pub fn capture<I: IntoIterator<Item = (u16, u16)>>(
    frames: I,
    skip: usize,
    max: Option<usize>,
) -> BackTrace {
    let addresses: Vec<u32> = frames
        .into_iter()
        .skip(skip)
        .take(max.unwrap_or(usize::MAX))
        .map(|(cs, ip)| pack(cs, ip))
        .collect();
    BackTrace {
        skip,
        max,
        hash: hash(&addresses),
        addresses,
    }
}

/// Capture from a ToolHelp walk's frames.
pub fn capture_walk(walk: &Walk, skip: usize, max: Option<usize>) -> BackTrace {
    capture(walk.frames.iter().map(|f| (f.w_cs, f.w_ip)), skip, max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_puts_cs_in_the_high_word() {
        assert_eq!(pack(0x1017, 0x003A), 0x1017_003A);
        assert_eq!(pack(0xFFFF, 0), 0xFFFF_0000);
    }

    #[test]
    fn hash_is_the_wrapping_sum() {
        assert_eq!(hash(&[]), 0);
        assert_eq!(hash(&[1, 2, 3]), 6);
        assert_eq!(hash(&[0xFFFF_FFFF, 2]), 1);
        assert_eq!(hash(&[0x8000_0000, 0x8000_0000]), 0);
    }

    #[test]
    fn a_sum_sees_neither_order_nor_compensating_changes() {
        // The Windows hash groups identical traces; it does not tell every
        // pair of different traces apart. Two windows of roms/ scenarios
        // (mixed.exe frames 1-2, limit.exe frames 0-1) hash alike so.
        let a = [pack(0x102F, 0x0055), pack(0x102F, 0x003D)];
        let b = [pack(0x102F, 0x0056), pack(0x102F, 0x003C)];
        assert_ne!(a, b);
        assert_eq!(hash(&a), hash(&b));
        assert_eq!(hash(&[a[1], a[0]]), hash(&a));
        // One address changed alone always changes the sum.
        assert_ne!(hash(&[a[0], a[1] + 1]), hash(&a));
    }

    #[test]
    fn skip_and_max_pick_a_window_most_recent_first() {
        let frames = [(1u16, 10u16), (2, 20), (3, 30), (4, 40)];
        let all = capture(frames, 0, None);
        assert_eq!(all.count(), 4);
        assert_eq!(all.addresses[0], pack(1, 10));
        let w = capture(frames, 1, Some(2));
        assert_eq!(w.addresses, [pack(2, 20), pack(3, 30)]);
        assert_eq!(w.hash, pack(2, 20).wrapping_add(pack(3, 30)));
        assert_eq!(capture(frames, 3, Some(10)).addresses, [pack(4, 40)]);
        assert_eq!(capture(frames, 9, None).count(), 0);
        assert_eq!(capture(frames, 0, Some(0)).hash, 0);
        assert_eq!(capture(frames, usize::MAX, Some(usize::MAX)).count(), 0);
    }
}
