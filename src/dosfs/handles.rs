//! File handles: the job file table and the system file table behind it,
//! opening, creating, reading, writing and seeking files and devices,
//! and dup/dup2.

use super::{
    ATTR_ARCHIVE, ATTR_DIRECTORY, ATTR_HIDDEN, ATTR_READ_ONLY, ATTR_SYSTEM, ATTR_VOLUME,
    ChangeKind, DEVICES, DirAt, DosError, Drive, ENTRY_COST, Entry, File, OpenOptions, Path,
    PathBuf, Place, SeekFrom, UNIX_EPOCH, device_info_word, dos_datetime, fs, io, links,
    open_regular, set_read_only, system_time,
};
use std::io::Read;
use std::io::Seek;
use std::io::Write;

/// What a handle refers to.
#[derive(Clone, Debug)]
pub(super) enum Node {
    Device(&'static str),
    File(OpenFile),
}

#[derive(Clone, Debug)]
pub(super) struct OpenFile {
    /// The host file, shared with the checkpoints taken while it was
    /// open (checkpoint.rs reopens it by `host` when one is restored).
    pub(super) file: std::rc::Rc<File>,
    /// Its host path.
    pub(super) host: PathBuf,
    pub(super) pos: u32,
    pub(super) access: u8,
    pub(super) written: bool,
    /// The DOS path it was opened by (for the list of changes).
    pub(super) dos: String,
    /// It lies on the writable layer (its time may be set).
    pub(super) writable: bool,
    /// The time the program set (AX=5701h): DOS keeps it at the close,
    /// whatever is written after it (the host's writes would not).
    pub(super) time_set: Option<std::time::SystemTime>,
}

impl OpenFile {
    /// After a write: the file's time is the one the program set
    /// (AX=5701h), else the fixed clock's (`stamp`, [`Drive::set_stamp`]),
    /// else the host's own.
    fn stamp(&self, stamp: Option<std::time::SystemTime>) {
        if let Some(t) = self.time_set.or(stamp) {
            let _ = self.file.set_modified(t);
        }
    }
}

/// A system file table entry, shared by handles made with dup/dup2.
#[derive(Clone, Debug)]
pub(super) struct Sft {
    pub(super) node: Node,
    pub(super) refs: usize,
}

/// How [`open_host`] opens a host file.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum How {
    Open,
    Truncate,
    CreateNew,
}

pub(super) fn open_host(host: &Path, access: u8, how: How) -> Result<File, DosError> {
    let mut o = OpenOptions::new();
    o.read(true).write(access != 0 || how != How::Open);
    match how {
        How::Open => {}
        How::Truncate => {
            o.truncate(true);
        }
        How::CreateNew => {
            o.create_new(true);
        }
    }
    open_regular(&mut o, host).map_err(|e| match e.kind() {
        io::ErrorKind::NotFound => DosError::FILE_NOT_FOUND,
        _ => DosError::ACCESS_DENIED,
    })
}

impl Drive {
    pub(super) fn free_slot(&self) -> Result<usize, DosError> {
        self.jft
            .iter()
            .position(Option::is_none)
            .ok_or(DosError::TOO_MANY_OPEN_FILES)
    }

    pub(super) fn install(&mut self, slot: usize, node: Node) -> u16 {
        let sft = Sft { node, refs: 1 };
        let idx = match self.sft.iter().position(Option::is_none) {
            Some(i) => {
                self.sft[i] = Some(sft);
                i
            }
            None => {
                self.sft.push(Some(sft));
                self.sft.len() - 1
            }
        };
        self.jft[slot] = Some(idx);
        slot as u16
    }

    pub(super) fn sft_index(&self, h: u16) -> Result<usize, DosError> {
        self.jft
            .get(usize::from(h))
            .copied()
            .flatten()
            .ok_or(DosError::INVALID_HANDLE)
    }

    pub(super) fn node(&mut self, h: u16) -> Result<&mut Node, DosError> {
        let i = self.sft_index(h)?;
        self.sft
            .get_mut(i)
            .and_then(Option::as_mut)
            .map(|s| &mut s.node)
            .ok_or(DosError::INVALID_HANDLE)
    }

    pub(super) fn device_node(name: &str) -> Node {
        Node::Device(
            DEVICES
                .iter()
                .copied()
                .find(|d| *d == name)
                .unwrap_or("NUL"),
        )
    }

    /// Is a host file read-only to DOS: its permission says so, or (on
    /// the writable layer) it has another hard link, which may lie outside
    /// the sandbox.
    pub(super) fn read_only(&self, host: &Path, writable_layer: bool) -> bool {
        fs::metadata(host)
            .map(|m| m.permissions().readonly() || (writable_layer && links(&m) > 1))
            .unwrap_or(false)
    }

    pub(super) fn file_node(
        file: File,
        host: PathBuf,
        access: u8,
        dos: String,
        writable: bool,
    ) -> Node {
        Node::File(OpenFile {
            file: std::rc::Rc::new(file),
            host,
            pos: 0,
            access,
            written: false,
            dos,
            writable,
            time_set: None,
        })
    }

    /// Create `name` in `dir` (it does not exist), or truncate `existing`,
    /// with attribute `attr`; the handle's access is `access`.
    pub(super) fn make_file(
        &mut self,
        slot: usize,
        dir: &DirAt,
        name: &str,
        existing: Option<&Entry>,
        attr: u8,
        access: u8,
    ) -> Result<u16, DosError> {
        let mut comps = dir.comps.clone();
        comps.push(name.to_string());
        let dos = Self::dos_string(&comps);
        let (host, file) = match existing {
            Some(e) => {
                if e.upper {
                    if self.read_only(&e.host, true) {
                        return Err(DosError::ACCESS_DENIED);
                    }
                    let old = fs::metadata(&e.host).map(|m| m.len()).unwrap_or(0);
                    let f = open_host(&e.host, access, How::Truncate)?;
                    self.refund(old);
                    (e.host.clone(), f)
                } else {
                    if self.read_only(&e.host, false) {
                        return Err(DosError::ACCESS_DENIED);
                    }
                    // Replacing a read-only layer's file: a new, empty
                    // file on the writable layer hides it.
                    let d = self.upper_dir(&dir.comps)?;
                    let host = d.join(name);
                    if !self.charge(ENTRY_COST) {
                        return Err(DosError::ACCESS_DENIED);
                    }
                    let f = open_host(&host, access, How::CreateNew).inspect_err(|_| {
                        self.refund(ENTRY_COST);
                    })?;
                    self.made(&host);
                    (host, f)
                }
            }
            None => {
                // A new directory entry: none left in a full directory.
                self.room_in(dir)?;
                let d = self.upper_dir(&dir.comps)?;
                let host = d.join(name);
                if !self.charge(ENTRY_COST) {
                    return Err(DosError::ACCESS_DENIED);
                }
                let f = open_host(&host, access, How::CreateNew).inspect_err(|_| {
                    self.refund(ENTRY_COST);
                })?;
                self.made(&host);
                self.counted(&dir.comps, true);
                (host, f)
            }
        };
        if let Some(t) = self.stamp {
            let _ = file.set_modified(t);
        }
        if attr & ATTR_READ_ONLY != 0 {
            set_read_only(&host, true)?;
        }
        self.attrs.insert(
            dos.clone(),
            attr & (ATTR_HIDDEN | ATTR_SYSTEM | ATTR_ARCHIVE),
        );
        let kind = if existing.is_some() {
            ChangeKind::Wrote
        } else {
            ChangeKind::Created
        };
        self.touched.remove(&dos);
        self.note(kind, &dos, None);
        Ok(self.install(slot, Self::file_node(file, host, access, dos, true)))
    }

    /// INT 21h AH=3Ch: create or truncate a file, opened read/write.
    /// `attr` (CL) may not have the volume or directory bit (error 5).
    /// Error 5 for a directory or read-only file, 4 with no free handle.
    pub fn create(&mut self, path: &[u8], attr: u8) -> Result<u16, DosError> {
        if attr & (ATTR_VOLUME | ATTR_DIRECTORY) != 0 {
            return Err(DosError::ACCESS_DENIED);
        }
        let slot = self.free_slot()?;
        match self.place(path)? {
            Place::Device(d) => Ok(self.install(slot, Self::device_node(d))),
            Place::Dir(_) => Err(DosError::ACCESS_DENIED),
            Place::Named { entry: Some(e), .. } if e.dir => Err(DosError::ACCESS_DENIED),
            Place::Named { dir, name, entry } => {
                self.make_file(slot, &dir, &name, entry.as_ref(), attr, 2)
            }
        }
    }

    /// INT 21h AH=5Bh: create a file that must not exist (error 80 if it
    /// does).
    pub fn create_new(&mut self, path: &[u8], attr: u8) -> Result<u16, DosError> {
        if attr & (ATTR_VOLUME | ATTR_DIRECTORY) != 0 {
            return Err(DosError::ACCESS_DENIED);
        }
        let slot = self.free_slot()?;
        match self.place(path)? {
            Place::Named {
                dir,
                name,
                entry: None,
            } => self.make_file(slot, &dir, &name, None, attr, 2),
            _ => Err(DosError::FILE_EXISTS),
        }
    }

    /// INT 21h AH=5Ah: create a file with a name no file in the directory
    /// `dir` has (a DOS path ending in `\`, or empty for the current
    /// directory): the first free `TMPnnnnn` name from the one after the
    /// last this directory gave (from TMP00000 at first). Returns the handle and the full path, as
    /// the program's buffer receives it (its directory, then the name).
    pub fn create_temp(&mut self, dir: &[u8], attr: u8) -> Result<(u16, Vec<u8>), DosError> {
        if attr & (ATTR_VOLUME | ATTR_DIRECTORY) != 0 {
            return Err(DosError::ACCESS_DENIED);
        }
        let slot = self.free_slot()?;
        let mut prefix = dir.to_vec();
        if let Some(i) = prefix.iter().position(|&b| b == 0) {
            prefix.truncate(i);
        }
        if !prefix.is_empty()
            && !prefix.ends_with(b"\\")
            && !prefix.ends_with(b"/")
            && !prefix.ends_with(b":")
        {
            prefix.push(b'\\');
        }
        let at = match self.place(if prefix.is_empty() { b"." } else { &prefix })? {
            Place::Dir(d) => d,
            Place::Named {
                entry: Some(e),
                dir,
                name,
            } if e.dir => {
                let mut comps = dir.comps.clone();
                comps.push(name);
                self.walk(&comps)?
            }
            _ => return Err(DosError::PATH_NOT_FOUND),
        };
        // The names are tried in order from the one after the last this
        // directory gave (each a lookup in the kept listing: listing.rs),
        // so that n temporary files cost n lookups, not n listings.
        let first = self.temp_next.get(&at.comps).copied().unwrap_or(0);
        for k in 0..0x10_0000u32 {
            let n = (first + k) & 0xF_FFFF;
            let name = format!("TMP{n:05X}");
            if self.entry(&at, &name)?.is_some() {
                continue;
            }
            match self.make_file(slot, &at, &name, None, attr, 2) {
                Ok(h) => {
                    self.temp_next.insert(at.comps.clone(), (n + 1) & 0xF_FFFF);
                    let mut full = prefix;
                    full.extend_from_slice(name.as_bytes());
                    return Ok((h, full));
                }
                // Taken since the listing (by another host process).
                Err(DosError::ACCESS_DENIED)
                    if at.upper.as_ref().is_some_and(|u| u.join(&name).exists()) =>
                {
                    continue;
                }
                Err(e) => return Err(e),
            }
        }
        Err(DosError::ACCESS_DENIED)
    }

    /// INT 21h AH=3Dh: open an existing file. `mode` is AL: bits 0-2 access
    /// (0 read, 1 write, 2 read/write; else error 12); sharing and
    /// inheritance bits are accepted and ignored. Errors: 2 no such file, 3
    /// no such directory, 4 no free handle, 5 a directory or a read-only
    /// file opened for writing (a hard-linked file of a read-write drive is
    /// read-only).
    pub fn open(&mut self, path: &[u8], mode: u8) -> Result<u16, DosError> {
        let access = mode & 7;
        if access > 2 {
            return Err(DosError::INVALID_ACCESS);
        }
        let slot = self.free_slot()?;
        match self.place(path)? {
            Place::Device(d) => Ok(self.install(slot, Self::device_node(d))),
            Place::Dir(_) => Err(DosError::ACCESS_DENIED),
            Place::Named { entry: None, .. } => Err(DosError::FILE_NOT_FOUND),
            Place::Named { entry: Some(e), .. } if e.dir => Err(DosError::ACCESS_DENIED),
            Place::Named {
                dir,
                name,
                entry: Some(e),
            } => self.open_file(slot, &dir, &name, &e, access),
        }
    }

    pub(super) fn open_file(
        &mut self,
        slot: usize,
        dir: &DirAt,
        name: &str,
        e: &Entry,
        access: u8,
    ) -> Result<u16, DosError> {
        let mut comps = dir.comps.clone();
        comps.push(name.to_string());
        let dos = Self::dos_string(&comps);
        let (host, writable) = if access != 0 {
            (self.writable(&dir.comps, name, e)?, true)
        } else {
            (e.host.clone(), e.upper)
        };
        let file = open_host(&host, access, How::Open)?;
        Ok(self.install(slot, Self::file_node(file, host, access, dos, writable)))
    }

    /// INT 21h AX=6C00h: extended open/create. `mode` is BX (access in bits
    /// 0-2), `attr` CX, `action` DX: bits 0-3 if the file exists (0 fail
    /// with error 80, 1 open, 2 replace), bits 4-7 if it does not (0 fail
    /// with error 2, 1 create); anything else is error 1. Returns the
    /// handle and CX's status: 1 opened, 2 created, 3 replaced.
    pub fn extended_open(
        &mut self,
        path: &[u8],
        mode: u16,
        attr: u8,
        action: u16,
    ) -> Result<(u16, u16), DosError> {
        let (if_exists, if_missing) = (action & 0xF, (action >> 4) & 0xF);
        if action > 0xFF || if_exists > 2 || if_missing > 1 {
            return Err(DosError::INVALID_FUNCTION);
        }
        let access = (mode & 7) as u8;
        if access > 2 {
            return Err(DosError::INVALID_ACCESS);
        }
        let slot = self.free_slot()?;
        match self.place(path)? {
            Place::Device(d) => Ok((self.install(slot, Self::device_node(d)), 1)),
            Place::Dir(_) => Err(DosError::ACCESS_DENIED),
            Place::Named { entry: Some(e), .. } if e.dir => Err(DosError::ACCESS_DENIED),
            Place::Named {
                dir,
                name,
                entry: Some(e),
            } => match if_exists {
                0 => Err(DosError::FILE_EXISTS),
                1 => Ok((self.open_file(slot, &dir, &name, &e, access)?, 1)),
                _ => {
                    if attr & (ATTR_VOLUME | ATTR_DIRECTORY) != 0 {
                        return Err(DosError::ACCESS_DENIED);
                    }
                    Ok((
                        self.make_file(slot, &dir, &name, Some(&e), attr, access)?,
                        3,
                    ))
                }
            },
            Place::Named {
                dir,
                name,
                entry: None,
            } => {
                if if_missing == 0 {
                    return Err(DosError::FILE_NOT_FOUND);
                }
                if attr & (ATTR_VOLUME | ATTR_DIRECTORY) != 0 {
                    return Err(DosError::ACCESS_DENIED);
                }
                Ok((self.make_file(slot, &dir, &name, None, attr, access)?, 2))
            }
        }
    }

    /// INT 21h AH=3Eh: close a handle (error 6 if not open). Handles made
    /// by dup/dup2 share the file; it closes with the last of them.
    pub fn close(&mut self, h: u16) -> Result<(), DosError> {
        let i = self.sft_index(h)?;
        self.jft[usize::from(h)] = None;
        if let Some(slot) = self.sft.get_mut(i) {
            if let Some(s) = slot.as_mut() {
                s.refs = s.refs.saturating_sub(1);
                if s.refs == 0 {
                    *slot = None;
                }
            }
        }
        Ok(())
    }

    /// The device a handle refers to, `None` for a file (INT 21h AH=3Fh and
    /// 40h callers route CON, AUX, PRN, COMn, LPTn and CLOCK$ themselves).
    pub fn handle_device(&mut self, h: u16) -> Result<Option<&'static str>, DosError> {
        Ok(match self.node(h)? {
            Node::Device(d) => Some(d),
            Node::File(_) => None,
        })
    }

    /// INT 21h AH=3Fh: read up to `n` bytes at the handle's position. A
    /// device handle reads as NUL (nothing); the caller handles console
    /// input before calling this. Error 5 on a write-only handle.
    pub fn read(&mut self, h: u16, n: u16) -> Result<Vec<u8>, DosError> {
        let f = match self.node(h)? {
            Node::Device(_) => return Ok(Vec::new()),
            Node::File(f) => f,
        };
        if f.access == 1 {
            return Err(DosError::ACCESS_DENIED);
        }
        let mut buf = Vec::with_capacity(usize::from(n));
        (&*f.file)
            .seek(SeekFrom::Start(u64::from(f.pos)))
            .map_err(|_| DosError::ACCESS_DENIED)?;
        (&*f.file)
            .take(u64::from(n))
            .read_to_end(&mut buf)
            .map_err(|_| DosError::ACCESS_DENIED)?;
        f.pos = f.pos.wrapping_add(buf.len() as u32);
        Ok(buf)
    }

    /// INT 21h AH=40h: write at the handle's position; returns the count
    /// written. It is short, with no error, when the disk is full (the
    /// quota: a write writes what fits, as DOS's does on a full disk) or
    /// the file would pass its size limit. Writing 0 bytes truncates (or
    /// extends) the file to the position, as DOS does; an extension that
    /// does not fit changes nothing and still returns 0, as DOS 5's does.
    /// A device handle swallows the bytes as NUL does; the caller handles
    /// console output before calling this. At most 0FFFFh bytes; error 5
    /// on a read-only handle.
    pub fn write(&mut self, h: u16, data: &[u8]) -> Result<usize, DosError> {
        let max = self.max_file_size;
        let room = self.room();
        let stamp = self.stamp;
        let data = &data[..data.len().min(0xFFFF)];
        let f = match self.node(h)? {
            Node::Device(_) => return Ok(data.len()),
            Node::File(f) => f,
        };
        if f.access == 0 {
            return Err(DosError::ACCESS_DENIED);
        }
        let pos = u64::from(f.pos);
        if pos > max || (pos == max && !data.is_empty()) {
            self.capped_writes += 1;
            return Ok(0);
        }
        let len = f
            .file
            .metadata()
            .map_err(|_| DosError::ACCESS_DENIED)?
            .len();
        let dos = f.dos.clone();
        if data.is_empty() {
            if pos > len && pos - len > room {
                self.full_writes += 1;
                return Ok(0);
            }
            f.written = true;
            f.file.set_len(pos).map_err(|_| DosError::ACCESS_DENIED)?;
            f.stamp(stamp);
            if pos > len {
                self.used += pos - len;
            } else {
                self.refund(len - pos);
            }
            self.note(ChangeKind::Wrote, &dos, None);
            return Ok(0);
        }
        let mut n = data.len() as u64;
        let capped = n > max - pos;
        n = n.min(max - pos);
        let fits = (len + room).saturating_sub(pos);
        let short = n > fits;
        n = n.min(fits);
        if n == 0 {
            self.full_writes += u64::from(short);
            self.capped_writes += u64::from(capped && !short);
            return Ok(0);
        }
        f.written = true;
        (&*f.file)
            .seek(SeekFrom::Start(pos))
            .map_err(|_| DosError::ACCESS_DENIED)?;
        (&*f.file)
            .write_all(&data[..n as usize])
            .map_err(|_| DosError::ACCESS_DENIED)?;
        f.stamp(stamp);
        f.pos = f.pos.wrapping_add(n as u32);
        let end = pos + n;
        if end > len {
            self.used += end - len;
        }
        self.full_writes += u64::from(short);
        self.capped_writes += u64::from(capped && !short);
        self.note(ChangeKind::Wrote, &dos, None);
        Ok(n as usize)
    }

    /// INT 21h AH=42h: move the handle's position; `whence` is AL (0 from
    /// the start, offset unsigned; 1 from the current position; 2 from the
    /// end; else error 1). Positions wrap at 32 bits as DOS's do. Returns
    /// the new position (always 0 for a device).
    pub fn seek(&mut self, h: u16, offset: i32, whence: u8) -> Result<u32, DosError> {
        if whence > 2 {
            return Err(DosError::INVALID_FUNCTION);
        }
        let f = match self.node(h)? {
            Node::Device(_) => return Ok(0),
            Node::File(f) => f,
        };
        let base = match whence {
            0 => 0,
            1 => f.pos,
            _ => {
                let len = f
                    .file
                    .metadata()
                    .map_err(|_| DosError::ACCESS_DENIED)?
                    .len();
                len.min(u64::from(u32::MAX)) as u32
            }
        };
        f.pos = base.wrapping_add(offset as u32);
        Ok(f.pos)
    }

    /// INT 21h AH=45h: a new handle for the same open file (shared
    /// position). Errors 6, 4.
    pub fn dup(&mut self, h: u16) -> Result<u16, DosError> {
        let i = self.sft_index(h)?;
        let slot = self.free_slot()?;
        if let Some(Some(s)) = self.sft.get_mut(i) {
            s.refs += 1;
        }
        self.jft[slot] = Some(i);
        Ok(slot as u16)
    }

    /// INT 21h AH=46h: make handle `new` refer to `h`'s file, closing what
    /// `new` referred to. Error 6 if `h` is not open or `new` is out of
    /// range.
    pub fn dup2(&mut self, h: u16, new: u16) -> Result<(), DosError> {
        let i = self.sft_index(h)?;
        if usize::from(new) >= self.jft.len() {
            return Err(DosError::INVALID_HANDLE);
        }
        if h == new {
            return Ok(());
        }
        if self.jft[usize::from(new)].is_some() {
            self.close(new)?;
        }
        if let Some(Some(s)) = self.sft.get_mut(i) {
            s.refs += 1;
        }
        self.jft[usize::from(new)] = Some(i);
        Ok(())
    }

    /// INT 21h AX=4400h: the device information word (DX): 80xxh for
    /// devices ([`device_info_word`]); for files the drive number (2 = C:)
    /// with bit 6 set while the file has not been written.
    pub fn ioctl_info(&mut self, h: u16) -> Result<u16, DosError> {
        Ok(match self.node(h)? {
            Node::Device(d) => device_info_word(d),
            Node::File(f) => 2 | if f.written { 0 } else { 0x40 },
        })
    }

    /// INT 21h AX=5700h: the file's (time, date), from the host mtime in
    /// UTC. Error 1 for a device handle.
    pub fn file_time(&mut self, h: u16) -> Result<(u16, u16), DosError> {
        match self.node(h)? {
            Node::Device(_) => Err(DosError::INVALID_FUNCTION),
            Node::File(f) => {
                let md = f.file.metadata().map_err(|_| DosError::ACCESS_DENIED)?;
                Ok(dos_datetime(md.modified().unwrap_or(UNIX_EPOCH)))
            }
        }
    }

    /// INT 21h AX=5701h: set the file's time (CX) and date (DX) as the
    /// host mtime, read as UTC. Error 1 for a device handle; error 5 for a
    /// file the program cannot change (read-only on a copy-on-write drive,
    /// or hard-linked: see [`Drive::open`]).
    pub fn set_file_time(&mut self, h: u16, time: u16, date: u16) -> Result<(), DosError> {
        let f = match self.node(h)? {
            Node::Device(_) => return Err(DosError::INVALID_FUNCTION),
            Node::File(f) => f,
        };
        let md = f.file.metadata().map_err(|_| DosError::ACCESS_DENIED)?;
        if !f.writable || links(&md) > 1 {
            return Err(DosError::ACCESS_DENIED);
        }
        let t = system_time(time, date);
        f.file
            .set_modified(t)
            .map_err(|_| DosError::ACCESS_DENIED)?;
        f.time_set = Some(t);
        let dos = f.dos.clone();
        self.note(ChangeKind::SetTime, &dos, None);
        Ok(())
    }

    // ---- names -----------------------------------------------------------
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use super::super::{Duration, geometry};
    use super::*;

    #[test]
    fn create_write_read_seek_close() {
        let t = Tmp::new("rw");
        let mut d = t.drive();
        let h = d.create(b"TEST.DAT", 0).unwrap();
        assert_eq!(h, 5);
        assert_eq!(d.ioctl_info(h), Ok(0x42));
        assert_eq!(d.write(h, b"hello world"), Ok(11));
        assert_eq!(d.ioctl_info(h), Ok(0x02));
        assert_eq!(d.seek(h, 0, 0), Ok(0));
        assert_eq!(d.read(h, 5).unwrap(), b"hello");
        assert_eq!(d.seek(h, -5, 2), Ok(6));
        assert_eq!(d.read(h, 100).unwrap(), b"world");
        assert_eq!(d.read(h, 100).unwrap(), b"");
        assert_eq!(d.seek(h, 0, 3), Err(DosError::INVALID_FUNCTION));
        assert_eq!(d.seek(h, 5, 0), Ok(5));
        assert_eq!(d.write(h, b""), Ok(0));
        assert_eq!(d.seek(h, 0, 1), Ok(5));
        assert_eq!(d.close(h), Ok(()));
        assert_eq!(d.close(h), Err(DosError::INVALID_HANDLE));
        assert_eq!(d.read(h, 1), Err(DosError::INVALID_HANDLE));
        assert_eq!(d.write(h, b"x"), Err(DosError::INVALID_HANDLE));
        assert_eq!(d.read(99, 1), Err(DosError::INVALID_HANDLE));
        assert_eq!(fs::read(t.root.join("TEST.DAT")).unwrap(), b"hello");

        let h = d.open(b"test.dat", 0).unwrap();
        assert_eq!(d.write(h, b"x"), Err(DosError::ACCESS_DENIED));
        d.close(h).unwrap();
        let h = d.open(b"test.dat", 1).unwrap();
        assert_eq!(d.read(h, 1), Err(DosError::ACCESS_DENIED));
        d.close(h).unwrap();
        assert_eq!(d.open(b"test.dat", 3), Err(DosError::INVALID_ACCESS));
        assert_eq!(d.open(b"nothere.dat", 0), Err(DosError::FILE_NOT_FOUND));
        assert_eq!(d.open(b"NODIR\\X.DAT", 0), Err(DosError::PATH_NOT_FOUND));
        assert_eq!(d.open(b"\\", 0), Err(DosError::ACCESS_DENIED));
    }

    #[test]
    fn date_time() {
        // 2024-02-29 13:45:30 UTC
        let t = UNIX_EPOCH + Duration::from_secs(1_709_214_330);
        let (time, date) = dos_datetime(t);
        assert_eq!(date, (44 << 9) | (2 << 5) | 29);
        assert_eq!(time, (13 << 11) | (45 << 5) | 15);
        assert_eq!(system_time(time, date), t);
        assert_eq!(dos_datetime(UNIX_EPOCH), (0, (1 << 5) | 1));
        let _ = system_time(0xFFFF, 0xFFFF);
        let _ = system_time(0, 0);

        let tmp = Tmp::new("time");
        let mut d = tmp.drive();
        let h = d.create(b"T", 0).unwrap();
        d.set_file_time(h, time, date).unwrap();
        assert_eq!(d.file_time(h), Ok((time, date)));
        assert_eq!(d.file_time(1), Err(DosError::INVALID_FUNCTION));
        let st = d.find_first(b"T", 0).unwrap();
        let r = st.current().unwrap();
        assert_eq!((r.time, r.date), (time, date));
    }

    #[test]
    fn extended_open_and_create_new() {
        let t = Tmp::new("ext");
        let mut d = t.drive();
        assert_eq!(
            d.extended_open(b"E.TXT", 2, 0, 0x01),
            Err(DosError::FILE_NOT_FOUND)
        );
        let (h, st) = d.extended_open(b"E.TXT", 2, 0, 0x10).unwrap();
        assert_eq!(st, 2);
        d.write(h, b"abc").unwrap();
        d.close(h).unwrap();
        assert_eq!(
            d.extended_open(b"E.TXT", 2, 0, 0x10),
            Err(DosError::FILE_EXISTS)
        );
        let (h, st) = d.extended_open(b"E.TXT", 0, 0, 0x11).unwrap();
        assert_eq!(st, 1);
        assert_eq!(d.read(h, 10).unwrap(), b"abc");
        d.close(h).unwrap();
        let (h, st) = d.extended_open(b"E.TXT", 2, 0, 0x12).unwrap();
        assert_eq!(st, 3);
        d.close(h).unwrap();
        assert_eq!(fs::metadata(t.root.join("E.TXT")).unwrap().len(), 0);
        assert_eq!(
            d.extended_open(b"E.TXT", 2, 0, 0x03),
            Err(DosError::INVALID_FUNCTION)
        );
        assert_eq!(
            d.extended_open(b"E.TXT", 2, 0, 0x21),
            Err(DosError::INVALID_FUNCTION)
        );
        assert_eq!(
            d.extended_open(b"E.TXT", 7, 0, 0x01),
            Err(DosError::INVALID_ACCESS)
        );
        assert_eq!(d.create_new(b"E.TXT", 0), Err(DosError::FILE_EXISTS));
        let h = d.create_new(b"F.TXT", 0).unwrap();
        d.close(h).unwrap();
    }

    #[test]
    fn handles_devices_dup() {
        let t = Tmp::new("handles");
        let mut d = Drive::with_handles(t.root.clone(), 8).unwrap();
        for h in 0..3 {
            assert_eq!(d.handle_device(h), Ok(Some("CON")));
            assert_eq!(d.ioctl_info(h), Ok(0x80D3));
        }
        assert_eq!(d.handle_device(3), Ok(Some("AUX")));
        assert_eq!(d.handle_device(4), Ok(Some("PRN")));
        t.put("F", b"0123456789");
        let a = d.open(b"F", 0).unwrap();
        let b = d.dup(a).unwrap();
        assert_eq!(d.read(a, 3).unwrap(), b"012");
        assert_eq!(d.read(b, 3).unwrap(), b"345");
        d.close(a).unwrap();
        assert_eq!(d.read(b, 2).unwrap(), b"67");
        d.dup2(b, 1).unwrap();
        assert_eq!(d.handle_device(1), Ok(None));
        assert_eq!(d.read(1, 1).unwrap(), b"8");
        assert_eq!(d.dup2(b, 200), Err(DosError::INVALID_HANDLE));
        assert_eq!(d.dup2(200, 1), Err(DosError::INVALID_HANDLE));
        let n = d.open(b"nul", 2).unwrap();
        assert_eq!(d.ioctl_info(n), Ok(0x80C4));
        assert_eq!(d.write(n, b"abc"), Ok(3));
        assert_eq!(d.read(n, 3).unwrap(), b"");
        assert_eq!(d.seek(n, 10, 0), Ok(0));
        // The default 256 MiB quota: a 512 MiB partition as FORMAT lays
        // it out (16 KiB clusters), the quota's 256 MiB free.
        let g = geometry(0x10_0000);
        assert_eq!(d.sectors(), 0x10_0000);
        assert_eq!(d.disk_free(), (32, 16384, 512, g.clusters));
        // A small quota: the 40 MiB disk (2 KiB clusters), no more free
        // than the quota leaves.
        d.set_quota(1 << 20);
        assert_eq!(d.disk_free(), (4, 512, 512, 20431));
        assert_eq!(
            DosError::NO_MORE_FILES.to_string(),
            "DOS error 12h (no more files)"
        );
    }

    #[test]
    fn too_many_open_files() {
        let t = Tmp::new("many");
        t.put("F", b"x");
        let mut d = t.drive();
        let hs: Vec<u16> = (0..15).map(|_| d.open(b"F", 0).unwrap()).collect();
        assert_eq!(hs, (5..20).collect::<Vec<u16>>());
        assert_eq!(d.open(b"F", 0), Err(DosError::TOO_MANY_OPEN_FILES));
        assert_eq!(d.create(b"G", 0), Err(DosError::TOO_MANY_OPEN_FILES));
        assert!(!t.root.join("G").exists());
        assert_eq!(d.dup(5), Err(DosError::TOO_MANY_OPEN_FILES));
        d.close(7).unwrap();
        assert_eq!(d.open(b"F", 0), Ok(7));
        let mut d = Drive::with_handles(t.root.clone(), 5).unwrap();
        assert_eq!(d.open(b"F", 0), Err(DosError::TOO_MANY_OPEN_FILES));
    }
}
