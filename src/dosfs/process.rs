//! What DOS processes need of the drive's handles: the job file table
//! (JFT) of each process lives in its PSP (PSP:32h entries at the far
//! pointer PSP:34h, one system file table index a byte, FFh free), so the
//! INT 21h layer loads the current process's table into the drive before a
//! handle call and stores it back after; a child inherits its parent's
//! open files (their SFT entries gain a reference) and a process that ends
//! closes its own.

use super::{DosError, Drive, Node};

/// A free JFT entry.
pub const JFT_FREE: u8 = 0xFF;

impl Drive {
    /// The current job file table as PSP bytes (SFT index, FFh free).
    pub fn jft_bytes(&self) -> Vec<u8> {
        self.jft
            .iter()
            .map(|e| match e {
                Some(i) if *i < usize::from(JFT_FREE) => *i as u8,
                _ => JFT_FREE,
            })
            .collect()
    }

    /// Make `table` (PSP bytes) the current job file table. An entry naming
    /// no open SFT entry stays as it is and answers "invalid handle".
    pub fn load_jft(&mut self, table: &[u8]) {
        self.jft = table
            .iter()
            .map(|&b| (b != JFT_FREE).then_some(usize::from(b)))
            .collect();
    }

    /// The SFT index handle `h` refers to.
    pub fn sft_index_of(&self, h: u16) -> Result<u8, DosError> {
        let i = self.sft_index(h)?;
        if self.sft.get(i).is_some_and(Option::is_some) && i < usize::from(JFT_FREE) {
            Ok(i as u8)
        } else {
            Err(DosError::INVALID_HANDLE)
        }
    }

    /// A child process inherits SFT entry `i`: one more reference. False
    /// when no file is open there.
    pub fn share_sft(&mut self, i: u8) -> bool {
        match self.sft.get_mut(usize::from(i)) {
            Some(Some(s)) => {
                s.refs += 1;
                true
            }
            _ => false,
        }
    }

    /// Close every handle of the current job file table (a process ends).
    pub fn close_every_handle(&mut self) {
        for h in 0..self.jft.len() {
            if self.jft[h].is_some() {
                let _ = self.close(h as u16);
            }
        }
    }

    /// INT 21h AH=68h: commit a file to disk. Error 6 for a closed handle.
    pub fn commit(&mut self, h: u16) -> Result<(), DosError> {
        match self.node(h)? {
            Node::Device(_) => Ok(()),
            Node::File(f) => f.file.sync_data().map_err(|_| DosError::ACCESS_DENIED),
        }
    }

    /// INT 21h AX=4406h: is input waiting? A file is ready until its
    /// position reaches its end; a device handle is always ready here.
    pub fn input_ready(&mut self, h: u16) -> Result<bool, DosError> {
        match self.node(h)? {
            Node::Device(_) => Ok(true),
            Node::File(f) => {
                let len = f.file.metadata().map(|m| m.len()).unwrap_or(0);
                Ok(u64::from(f.pos) < len)
            }
        }
    }

    /// The size of the file a handle refers to (0 for a device).
    pub fn size_of(&mut self, h: u16) -> Result<u32, DosError> {
        match self.node(h)? {
            Node::Device(_) => Ok(0),
            Node::File(f) => Ok(f
                .file
                .metadata()
                .map(|m| m.len().min(u64::from(u32::MAX)) as u32)
                .unwrap_or(0)),
        }
    }
}
