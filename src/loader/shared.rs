//! [`FileBytes`]: a range of a file's bytes, shared rather than copied.
//!
//! A parsed module keeps the bytes of its resources. Resource table entries
//! are offsets and lengths into the file, and nothing stops a corrupt (or
//! hostile) table from pointing thousands of entries at the same large range:
//! copying each range would make the parsed image grow with the square of the
//! file (a 118 KB file once took `info` to 1.19 GB). A `FileBytes` is instead
//! a window on one reference-counted copy of the file, so however many
//! entries a table holds, their bytes cost the file's size once plus a few
//! words per entry.

use std::fmt;
use std::ops::{Deref, Range};
use std::sync::Arc;

/// A range of a file's bytes, sharing one copy of the file with every other
/// range taken from it. Dereferences to `[u8]`.
#[derive(Clone, Default)]
pub struct FileBytes {
    file: Option<Arc<[u8]>>,
    range: Range<usize>,
}

impl FileBytes {
    /// The whole of `file`.
    pub fn whole(file: Arc<[u8]>) -> Self {
        let range = 0..file.len();
        FileBytes {
            file: Some(file),
            range,
        }
    }

    /// The bytes `start..start + len` of this range, clipped to its end (an
    /// empty range when `start` lies past it).
    pub fn slice(&self, start: u64, len: u64) -> Self {
        let have = self.range.len() as u64;
        let s = start.min(have);
        let e = s.saturating_add(len).min(have);
        FileBytes {
            file: self.file.clone(),
            range: self.range.start + s as usize..self.range.start + e as usize,
        }
    }

    /// The bytes, as a slice.
    pub fn as_slice(&self) -> &[u8] {
        match &self.file {
            Some(f) => &f[self.range.clone()],
            None => &[],
        }
    }

    /// Which file copy this range shares (equal keys: the same copy), or
    /// None for an empty range made without a file.
    pub fn file_key(&self) -> Option<usize> {
        self.file
            .as_ref()
            .map(|f| Arc::as_ptr(f) as *const u8 as usize)
    }

    /// The size of the file this range shares (0 for an empty range made
    /// without a file): what all ranges of one file cost together.
    pub fn file_len(&self) -> usize {
        self.file.as_ref().map_or(0, |f| f.len())
    }
}

impl From<&[u8]> for FileBytes {
    /// A copy of `bytes`, as a range of its own.
    fn from(bytes: &[u8]) -> Self {
        FileBytes::whole(Arc::from(bytes))
    }
}

impl From<Vec<u8>> for FileBytes {
    fn from(bytes: Vec<u8>) -> Self {
        FileBytes::whole(Arc::from(bytes))
    }
}

impl Deref for FileBytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.as_slice()
    }
}

impl AsRef<[u8]> for FileBytes {
    fn as_ref(&self) -> &[u8] {
        self.as_slice()
    }
}

impl PartialEq for FileBytes {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for FileBytes {}

impl PartialEq<[u8]> for FileBytes {
    fn eq(&self, other: &[u8]) -> bool {
        self.as_slice() == other
    }
}

impl PartialEq<Vec<u8>> for FileBytes {
    fn eq(&self, other: &Vec<u8>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl fmt::Debug for FileBytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FileBytes")
            .field("range", &self.range)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_share_one_copy_and_clip_to_the_end() {
        let f = FileBytes::whole(Arc::from(&b"0123456789"[..]));
        let a = f.slice(2, 3);
        let b = f.slice(8, 100);
        let c = f.slice(50, 4);
        assert_eq!(a.as_slice(), b"234");
        assert_eq!(b.as_slice(), b"89");
        assert!(c.is_empty());
        assert_eq!(a.slice(1, 1).as_slice(), b"3");
        assert!(Arc::ptr_eq(
            a.file.as_ref().unwrap(),
            b.file.as_ref().unwrap()
        ));
        assert_eq!(FileBytes::default().as_slice(), b"");
    }
}
