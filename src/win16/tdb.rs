//! The task database (TDB) and the in-memory module database, as they sit in
//! emulated memory. Layouts from win16.md ("The task database (TDB) fields a
//! stack walk reads") and toolhelp.md (StackTraceFirst step 3).

/// TDB field offsets (win16.md).
pub mod off {
    pub const NEXT: u16 = 0x00;
    pub const SP: u16 = 0x02;
    pub const SS: u16 = 0x04;
    pub const EVENTS: u16 = 0x06;
    pub const HINSTANCE: u16 = 0x1C;
    pub const HMODULE: u16 = 0x1E;
    pub const HQUEUE: u16 = 0x20;
    pub const HPARENT: u16 = 0x22;
    pub const HPDB: u16 = 0x60;
    pub const MODULE_NAME: u16 = 0xF2;
    pub const SIGNATURE: u16 = 0xFA;
}

/// 'TD', the TDB signature word at +0xFA.
pub const TDB_SIGNATURE: u16 = 0x4454;
/// Size of the TDB itself.
pub const TDB_SIZE: usize = 0x100;
/// Where the task's PSP lies in the TDB's segment.
///
/// # The PSP
///
/// In Windows 3.1 the task's PDB (its PSP) immediately follows the TDB in
/// the same memory, 100h bytes in, and TOOLHELP's TASKENTRY.wPSPOffset
/// says so (Windows 3.1 SDK, TASKENTRY: the offset from the task database
/// to the PSP); GetCurrentPDB and TDB+60h give a selector of its own for
/// those bytes. So the TDB's segment is 200h bytes, the PSP's selector an
/// alias of its second half (limit FFh), and the global heap lists them
/// as two blocks side by side: the TDB (GT_TASK, 100h bytes) and the PSP
/// (global.rs's module doc, "Owners and types").
pub const PSP_OFFSET: u16 = 0x100;

/// The fields of a TDB that this emulator fills.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tdb {
    pub next: u16,
    pub sp: u16,
    pub ss: u16,
    pub events: u16,
    pub hinstance: u16,
    pub hmodule: u16,
    pub hqueue: u16,
    pub hparent: u16,
    pub hpdb: u16,
    /// Module name, at most 8 bytes.
    pub module_name: String,
}

impl Tdb {
    /// The block's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = vec![0u8; TDB_SIZE];
        let mut put =
            |o: u16, v: u16| b[o as usize..o as usize + 2].copy_from_slice(&v.to_le_bytes());
        put(off::NEXT, self.next);
        put(off::SP, self.sp);
        put(off::SS, self.ss);
        put(off::EVENTS, self.events);
        put(off::HINSTANCE, self.hinstance);
        put(off::HMODULE, self.hmodule);
        put(off::HQUEUE, self.hqueue);
        put(off::HPARENT, self.hparent);
        put(off::HPDB, self.hpdb);
        put(off::SIGNATURE, TDB_SIGNATURE);
        let name = self.module_name.as_bytes();
        let n = name.len().min(8);
        b[off::MODULE_NAME as usize..off::MODULE_NAME as usize + n].copy_from_slice(&name[..n]);
        b
    }
}

/// The scheduler frame KERNEL pushes on a task's stack when it switches away
/// (toolhelp.md, StackTraceFirst step 3), lowest address first: DX, BX, ES,
/// CX, AX, DI, SI, DS, odd BP, IP, CS.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SwitchFrame {
    pub dx: u16,
    pub bx: u16,
    pub es: u16,
    pub cx: u16,
    pub ax: u16,
    pub di: u16,
    pub si: u16,
    pub ds: u16,
    /// Saved BP, already incremented (odd) as `inc bp; push bp` leaves it.
    pub bp: u16,
    pub ip: u16,
    pub cs: u16,
}

impl SwitchFrame {
    /// Size in bytes.
    pub const SIZE: u16 = 0x16;
    /// The frame's words in memory order.
    pub fn to_bytes(&self) -> [u8; 0x16] {
        let words = [
            self.dx, self.bx, self.es, self.cx, self.ax, self.di, self.si, self.ds, self.bp,
            self.ip, self.cs,
        ];
        let mut b = [0u8; 0x16];
        for (i, w) in words.iter().enumerate() {
            b[i * 2..i * 2 + 2].copy_from_slice(&w.to_le_bytes());
        }
        b
    }
}

/// In-memory module database: 'NE', a copy of the NE header, and a segment
/// table of 10-byte entries (the file's 8 bytes plus the segment's handle)
/// at +0x40, followed by the module name. Offsets follow the Windows 3.x
/// in-memory layout where the file header's fields are reused: +02 usage
/// count, +06 next module, +22 segment table offset.
pub mod module_db {
    pub const USAGE: u16 = 0x02;
    pub const NEXT: u16 = 0x06;
    pub const SEGMENT_TABLE_PTR: u16 = 0x22;
    pub const SEGMENT_TABLE: u16 = 0x40;
    pub const SEGMENT_ENTRY_SIZE: u16 = 10;
    pub const HANDLE_IN_ENTRY: u16 = 8;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tdb_layout() {
        let t = Tdb {
            next: 0x1111,
            sp: 0x2222,
            ss: 0x3333,
            events: 0x4444,
            hinstance: 0x5555,
            hmodule: 0x6666,
            hqueue: 0x7777,
            hparent: 0x8888,
            hpdb: 0x9999,
            module_name: "DEMOPROGRAM".into(),
        };
        let b = t.to_bytes();
        let w = |o: usize| u16::from_le_bytes([b[o], b[o + 1]]);
        assert_eq!(b.len(), 0x100);
        assert_eq!(w(0x00), 0x1111);
        assert_eq!(w(0x02), 0x2222);
        assert_eq!(w(0x04), 0x3333);
        assert_eq!(w(0x06), 0x4444);
        assert_eq!(w(0x1C), 0x5555);
        assert_eq!(w(0x1E), 0x6666);
        assert_eq!(w(0x20), 0x7777);
        assert_eq!(w(0x22), 0x8888);
        assert_eq!(w(0x60), 0x9999);
        assert_eq!(&b[0xF2..0xFA], b"DEMOPROG");
        assert_eq!(&b[0xFA..0xFC], b"TD");
    }

    #[test]
    fn switch_frame_layout() {
        let f = SwitchFrame {
            dx: 1,
            bx: 2,
            es: 3,
            cx: 4,
            ax: 5,
            di: 6,
            si: 7,
            ds: 8,
            bp: 9,
            ip: 10,
            cs: 11,
        };
        let b = f.to_bytes();
        for (i, v) in (1u16..=11).enumerate() {
            assert_eq!(u16::from_le_bytes([b[i * 2], b[i * 2 + 1]]), v);
        }
        // toolhelp.md: odd BP at +10, IP at +12, CS at +14.
        assert_eq!(b[0x10], 9);
        assert_eq!(b[0x12], 10);
        assert_eq!(b[0x14], 11);
    }
}
