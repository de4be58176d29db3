//! Find first/next (INT 21h AH=4Eh/4Fh): a search's matches, taken when
//! 4Eh runs, and the DTA that carries the search between calls.

use super::{
    ATTR_DEVICE, ATTR_DIRECTORY, ATTR_HIDDEN, ATTR_SYSTEM, ATTR_VOLUME, DTA_LEN, DTA_TAG, DosError,
    Drive, MAX_KEPT_RESULTS, MAX_SEARCHES, SystemTime, UNIX_EPOCH, device_name, dos_datetime,
    fcb_match, fcb_pattern, fcb11, fs,
};

/// One match of find first/next (INT 21h AH=4Eh/4Fh).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FindResult {
    /// 8.3 name, upper-case, with a dot only if there is an extension.
    pub name: String,
    /// Attribute byte.
    pub attr: u8,
    /// DOS packed time.
    pub time: u16,
    /// DOS packed date.
    pub date: u16,
    /// Size in bytes.
    pub size: u32,
}

/// A find-first search: every match, taken when 4Eh ran, and a cursor.
#[derive(Clone, Debug)]
pub struct FindState {
    id: u32,
    pattern: [u8; 11],
    attr: u8,
    results: Vec<FindResult>,
    pos: usize,
}

impl FindState {
    /// The id stored in the DTA's reserved bytes.
    pub fn id(&self) -> u32 {
        self.id
    }

    /// The match the last find first/next returned.
    pub fn current(&self) -> Option<&FindResult> {
        self.results.get(self.pos)
    }

    /// The 43-byte DTA for the current match (see [`dta_bytes`]).
    pub fn dta(&self) -> Option<[u8; DTA_LEN]> {
        self.current()
            .map(|r| dta_bytes(self.id, &self.pattern, self.attr, r))
    }
}

/// Serialise the find first/next DTA (INT 21h AH=4Eh/4Fh): bytes 00h-14h
/// reserved (drive 3 = C:, the 11-byte search template, the search
/// attribute, then our tag and the search id), 15h attribute, 16h time,
/// 18h date, 1Ah size, 1Eh ASCIZ name (13 bytes).
pub fn dta_bytes(id: u32, pattern: &[u8; 11], attr: u8, r: &FindResult) -> [u8; DTA_LEN] {
    let mut d = [0u8; DTA_LEN];
    d[0] = 3;
    d[1..12].copy_from_slice(pattern);
    d[0x0C] = attr;
    d[0x0D..0x11].copy_from_slice(DTA_TAG);
    d[0x11..0x15].copy_from_slice(&id.to_le_bytes());
    d[0x15] = r.attr;
    d[0x16..0x18].copy_from_slice(&r.time.to_le_bytes());
    d[0x18..0x1A].copy_from_slice(&r.date.to_le_bytes());
    d[0x1A..0x1E].copy_from_slice(&r.size.to_le_bytes());
    for (i, b) in r.name.bytes().take(12).enumerate() {
        d[0x1E + i] = b;
    }
    d
}

/// The search id a DTA written by [`dta_bytes`] carries (INT 21h AH=4Fh),
/// or `None` if the bytes are not one of ours.
pub fn dta_search_id(dta: &[u8]) -> Option<u32> {
    if dta.len() < 0x15 || &dta[0x0D..0x11] != DTA_TAG {
        return None;
    }
    let mut id = [0u8; 4];
    id.copy_from_slice(&dta[0x11..0x15]);
    Some(u32::from_le_bytes(id))
}

impl Drive {
    /// INT 21h AH=4Eh: start a search. `pattern` is a path whose last
    /// component may hold `*` and `?`, matched FCB-style on the 11-byte
    /// `NNNNNNNNEEE` forms; `attr` (CL) admits hidden (02h), system (04h)
    /// and directory (10h) entries besides plain files; exactly 08h asks
    /// for the volume label, which this drive has none of (error 18).
    /// Subdirectories list `.` and `..` first, the rest sorted by name. A
    /// device name without wildcards matches the device (attribute 40h). No
    /// match: error 18 for a pattern with wildcards, 2 without. The matches
    /// are taken now; later changes are not seen by find next.
    pub fn find_first(&mut self, pattern: &[u8], attr: u8) -> Result<FindState, DosError> {
        let (comps, last) = self.split(pattern)?;
        let dir = self.walk(&comps)?;
        let raw = last.ok_or(DosError::PATH_NOT_FOUND)?;
        let wild = raw.iter().any(|&b| b == b'*' || b == b'?');
        let pat = fcb_pattern(&raw).ok_or(DosError::PATH_NOT_FOUND)?;
        let id = self.next_search;
        self.next_search = self.next_search.wrapping_add(1).max(1);
        let mut state = FindState {
            id,
            pattern: pat,
            attr,
            results: Vec::new(),
            pos: 0,
        };
        if attr == ATTR_VOLUME {
            return Err(DosError::NO_MORE_FILES);
        }
        if let (false, Some(d)) = (wild, device_name(&raw)) {
            let (time, date) = dos_datetime(self.stamp.unwrap_or_else(SystemTime::now));
            state.results.push(FindResult {
                name: d.to_string(),
                attr: ATTR_DEVICE,
                time,
                date,
                size: 0,
            });
            return Ok(state);
        }
        let admit = |a: u8| a & (ATTR_HIDDEN | ATTR_SYSTEM | ATTR_DIRECTORY) & !attr == 0;
        if !comps.is_empty() {
            let here = dir.upper.as_ref().or(dir.lower.first().map(|(_, l)| l));
            if let Some(md) = here.and_then(|h| fs::metadata(h).ok()) {
                let (time, date) = dos_datetime(md.modified().unwrap_or(UNIX_EPOCH));
                for name in [".", ".."] {
                    if admit(ATTR_DIRECTORY) && fcb_match(&pat, &fcb11(name)) {
                        state.results.push(FindResult {
                            name: name.to_string(),
                            attr: ATTR_DIRECTORY,
                            time,
                            date,
                            size: 0,
                        });
                    }
                }
            }
        }
        for (name, e) in self.listing(&dir)? {
            if !fcb_match(&pat, &fcb11(&name)) {
                continue;
            }
            let roots = self.lower_roots();
            let layer = if e.upper {
                self.writes_dir()
            } else {
                roots[e.layer]
            };
            let Ok(lmd) = fs::symlink_metadata(&e.host) else {
                continue;
            };
            if lmd.file_type().is_symlink() && Self::confine(layer, &e.host).is_err() {
                continue;
            }
            let Ok(md) = fs::metadata(&e.host) else {
                continue;
            };
            let mut full = comps.clone();
            full.push(name.clone());
            let a = self.attr_of(&Self::dos_string(&full), &e, &md);
            if !admit(a) {
                continue;
            }
            let (time, date) = dos_datetime(md.modified().unwrap_or(UNIX_EPOCH));
            state.results.push(FindResult {
                name,
                attr: a,
                time,
                date,
                size: if md.is_dir() {
                    0
                } else {
                    md.len().min(u64::from(u32::MAX)) as u32
                },
            });
        }
        if state.results.is_empty() {
            return Err(if wild {
                DosError::NO_MORE_FILES
            } else {
                DosError::FILE_NOT_FOUND
            });
        }
        Ok(state)
    }

    /// INT 21h AH=4Fh: advance a search to its next match; error 18 when
    /// there is none.
    pub fn find_next(state: &mut FindState) -> Result<&FindResult, DosError> {
        if state.pos < state.results.len() {
            state.pos += 1;
        }
        state.results.get(state.pos).ok_or(DosError::NO_MORE_FILES)
    }

    /// INT 21h AH=4Eh in one step: start a search, remember it, and return
    /// the DTA to store at the caller's DTA address.
    pub fn find_first_dta(&mut self, pattern: &[u8], attr: u8) -> Result<[u8; DTA_LEN], DosError> {
        let state = self.find_first(pattern, attr)?;
        let dta = state.dta().ok_or(DosError::NO_MORE_FILES)?;
        self.searches.push_back(state);
        while self.searches.len() > MAX_SEARCHES
            || self.searches.iter().map(|s| s.results.len()).sum::<usize>() > MAX_KEPT_RESULTS
        {
            self.searches.pop_front();
        }
        Ok(dta)
    }

    /// INT 21h AH=4Fh in one step: find the search a DTA from
    /// [`Drive::find_first_dta`] names and return the next DTA. Error 18
    /// when done, or when the DTA is not ours or its search was dropped.
    pub fn find_next_dta(&mut self, dta: &[u8]) -> Result<[u8; DTA_LEN], DosError> {
        let id = dta_search_id(dta).ok_or(DosError::NO_MORE_FILES)?;
        let i = self
            .searches
            .iter()
            .position(|s| s.id == id)
            .ok_or(DosError::NO_MORE_FILES)?;
        let state = &mut self.searches[i];
        if Self::find_next(state).is_err() {
            self.searches.remove(i);
            return Err(DosError::NO_MORE_FILES);
        }
        state.dta().ok_or(DosError::NO_MORE_FILES)
    }
}

#[cfg(test)]
mod tests {
    use super::super::ATTR_ARCHIVE;
    use super::super::testutil::*;
    use super::*;

    #[test]
    fn find_first_next() {
        let t = Tmp::new("find");
        let mut d = find_tree(&t);
        assert_eq!(
            find_all(&mut d, b"*.*", 0).unwrap(),
            ["A.C", "A1.C", "AB.C", "ABC.C", "README", "X.TXT", "Y.TXT"]
        );
        assert_eq!(find_all(&mut d, b"*.TXT", 0).unwrap(), ["X.TXT", "Y.TXT"]);
        assert_eq!(
            find_all(&mut d, b"*.txt", ATTR_HIDDEN).unwrap(),
            ["H.TXT", "X.TXT", "Y.TXT"]
        );
        assert_eq!(
            find_all(&mut d, b"A?.C", 0).unwrap(),
            ["A.C", "A1.C", "AB.C"]
        );
        assert_eq!(find_all(&mut d, b"*", 0).unwrap(), ["README"]);
        assert_eq!(find_all(&mut d, b"x.txt", 0).unwrap(), ["X.TXT"]);
        assert_eq!(
            find_all(&mut d, b"C:\\*.*", ATTR_DIRECTORY).unwrap(),
            [
                "A.C", "A1.C", "AB.C", "ABC.C", "README", "SUB", "X.TXT", "Y.TXT"
            ]
        );
        assert_eq!(
            find_all(&mut d, b"SUB\\*.*", ATTR_DIRECTORY).unwrap(),
            [".", "..", "S.TXT"]
        );
        assert_eq!(find_all(&mut d, b"sub/*.*", 0).unwrap(), ["S.TXT"]);
        let st = d.find_first(b"*.*", ATTR_DIRECTORY).unwrap();
        let sub = st.results.iter().find(|r| r.name == "SUB").unwrap();
        assert_eq!((sub.attr, sub.size), (ATTR_DIRECTORY, 0));
        assert_eq!(
            d.find_first(b"NOPE.TXT", 0).err(),
            Some(DosError::FILE_NOT_FOUND)
        );
        assert_eq!(
            d.find_first(b"*.ZZZ", 0).err(),
            Some(DosError::NO_MORE_FILES)
        );
        assert_eq!(
            d.find_first(b"NODIR\\*.*", 0).err(),
            Some(DosError::PATH_NOT_FOUND)
        );
        assert_eq!(
            d.find_first(b"*.*", ATTR_VOLUME).err(),
            Some(DosError::NO_MORE_FILES)
        );
        let st = d.find_first(b"NUL", 0).unwrap();
        assert_eq!(st.current().unwrap().attr, ATTR_DEVICE);
    }

    #[test]
    fn find_through_the_dta() {
        let t = Tmp::new("dta");
        let mut d = find_tree(&t);
        let dta = d.find_first_dta(b"*.TXT", 0).unwrap();
        assert_eq!(&dta[0x1E..0x24], b"X.TXT\0");
        assert_eq!(dta[0x15], ATTR_ARCHIVE);
        assert_eq!(u32::from_le_bytes(dta[0x1A..0x1E].try_into().unwrap()), 5);
        assert_eq!(&dta[1..12], b"????????TXT");
        let id = dta_search_id(&dta).unwrap();
        let dta2 = d.find_next_dta(&dta).unwrap();
        assert_eq!(&dta2[0x1E..0x24], b"Y.TXT\0");
        assert_eq!(dta_search_id(&dta2), Some(id));
        assert_eq!(d.find_next_dta(&dta2), Err(DosError::NO_MORE_FILES));
        assert_eq!(d.find_next_dta(&dta2), Err(DosError::NO_MORE_FILES));
        assert_eq!(
            d.find_next_dta(&[0u8; DTA_LEN]),
            Err(DosError::NO_MORE_FILES)
        );
        assert_eq!(d.find_next_dta(&[]), Err(DosError::NO_MORE_FILES));
        // Abandoned searches are forgotten oldest first.
        let first = d.find_first_dta(b"*.TXT", 0).unwrap();
        let mut last = first;
        for _ in 0..MAX_SEARCHES {
            last = d.find_first_dta(b"*.TXT", 0).unwrap();
        }
        assert_eq!(d.find_next_dta(&first), Err(DosError::NO_MORE_FILES));
        assert_eq!(&d.find_next_dta(&last).unwrap()[0x1E..0x24], b"Y.TXT\0");
        assert!(d.searches.len() <= MAX_SEARCHES);
    }
}
