//! Recorded traces (`trace --record FILE`, `trace --replay FILE`): the
//! executed blocks of a run, kept in a compact binary file while the
//! program runs at nearly untraced speed, and expanded after the run to
//! the same text or JSON lines the live tracer writes (docs/trace-recording.md).
//!
//! **While recording**, the machine hands over its steps (machine/record.rs)
//! a buffer of up to 65536 words at a time, and a block's translation the
//! first time it runs. [`RecordWriter`] does nothing per block: a buffer of
//! steps is copied and handed to a thread of its own, which encodes and
//! writes it while the run goes on. A translation is written with what
//! only the running machine knows — the module and NE segment owning the
//! code, the symbol naming each instruction and its source line (from
//! the program's debug information) — so that the expansion
//! needs neither the machine nor the program.
//!
//! **The file** (all integers little-endian; a string is a `u32` length
//! and that many bytes of UTF-8):
//!
//! ```text
//! header      "TH16REC\0"  u16 version (2; version 1 is read too)
//!             string cwd          the directory the recording was made in
//!             u16 n, n strings    the `trace` arguments that load and run
//!                                 the program again (`--replay --regs`)
//!             string program      the program's path, for people
//!             u32 check           FNV-1a of the header's bytes before it
//! records     'T' translation     u64 linear, u16 cs, u16 ip, u32 icount,
//!                                 u16 size, size bytes,
//!                                 u8 has (1: module, 2: segment),
//!                                 [string module], [u16 segment],
//!                                 u16 n, n × (u16 instruction, string symbol),
//!                                 (version 2:) u16 n, n × (u16 instruction,
//!                                 string file, u32 line): source lines,
//!                                 u32 check (FNV-1a of the record from 'T')
//!             'S' steps           u32 n steps, u32 m, m bytes: the step words
//!                                 (machine/record.rs) coded by [`steps_bytes`],
//!                                 u64 check ([`steps_check`] of the words)
//!             'E' end             u64 blocks, u64 instructions (u64::MAX:
//!                                 not counted), i32 exit status,
//!                                 string how the run ended,
//!                                 u32 check (FNV-1a of the record from 'E')
//! ```
//!
//! The end record is last; a file without one was cut short (the
//! recording stopped, or the file was truncated). Every part carries a
//! check, so a changed byte is an error rather than a different trace.
//! Reading is bounded: every
//! length is checked against a cap before anything is allocated, and a
//! malformed file is an error naming the file, the offset and what was
//! wrong ([`RecordError`]).
//!
//! **Expanding** ([`Expander`]): a translation is decoded and rendered once
//! (with the options of the expansion: syntax, JSON, `--module`), and each
//! step writes the block's cached text — a copy per block, where the live
//! tracer renders once per block too but pays the hooks while the program
//! runs, and `--regs` pays a hook and a formatted line per instruction.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use super::blocks::{self, Block};
use super::{Lines, Place, Render, Sink};
use crate::machine::Uc;
use crate::machine::record::{BlockRecorder, Step, Translation};
use crate::symbols::lines::SourceLine;

/// The first bytes of a recording.
pub const MAGIC: &[u8; 8] = b"TH16REC\0";
/// The format version this code writes and reads.
pub const VERSION: u16 = 2;
/// The oldest version read (1: no source lines).
const OLDEST: u16 = 1;

/// Caps on what a recording may declare (a larger value is malformed).
const MAX_STRING: u32 = 1 << 16;
const MAX_ARGS: u16 = 4096;
const MAX_BLOCK: u16 = 4096;
const MAX_STEPS: u32 = 1 << 20;
/// A module name is at most this long (NE names are 8 characters).
const MAX_MODULE: u32 = 255;

/// A malformed or unreadable recording: the file, the offset, what was
/// wrong.
#[derive(Debug, thiserror::Error)]
#[error("{}: offset {offset}: {what}", file.display())]
pub struct RecordError {
    /// The recording.
    pub file: PathBuf,
    /// Where in it.
    pub offset: u64,
    /// What was wrong.
    pub what: String,
}

/// What a recording's header says.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Header {
    /// The directory the recording was made in.
    pub cwd: String,
    /// The `trace` arguments that load and run the program (paths
    /// relative to `cwd`).
    pub args: Vec<String>,
    /// The program's path.
    pub program: String,
}

/// A translation as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recorded {
    /// Linear address of its first instruction.
    pub linear: u64,
    /// CS it was entered with.
    pub cs: u16,
    /// IP of its first instruction.
    pub ip: u16,
    /// Instructions the machine counted in it.
    pub icount: u32,
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// The module and segment owning it.
    pub place: Place,
    /// The symbol naming each instruction (by index), when one does.
    pub symbols: Vec<(u16, String)>,
    /// The source line of each instruction (by index), when debug
    /// information gives one.
    pub sources: Vec<(u16, SourceLine)>,
}

/// How the recorded run ended.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct End {
    /// Blocks recorded.
    pub blocks: u64,
    /// Instructions executed, when the machine counted them.
    pub instructions: Option<u64>,
    /// The exit status `trace` gave.
    pub status: i32,
    /// How the run ended, as the report says it.
    pub stop: String,
}

/// One record of a recording.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Record {
    /// A block's translation.
    Translation(Recorded),
    /// Steps (in the reader's buffer: [`Reader::steps`]).
    Steps,
    /// The end.
    End(End),
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    let mut end = s.len().min(MAX_STRING as usize);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    let b = &s.as_bytes()[..end];
    out.extend_from_slice(&(b.len() as u32).to_le_bytes());
    out.extend_from_slice(b);
}

/// FNV-1a (32 bits) of `bytes`, from `h`: the check of the header, a
/// translation and the end record.
fn fnv(mut h: u32, bytes: &[u8]) -> u32 {
    for &b in bytes {
        h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
    }
    h
}

const FNV_START: u32 = 0x811C_9DC5;

/// Append the FNV-1a check of everything in `out`.
fn seal(mut out: Vec<u8>) -> Vec<u8> {
    let h = fnv(FNV_START, &out);
    out.extend_from_slice(&h.to_le_bytes());
    out
}

/// The check of a steps record: a Fletcher-style pair of running sums
/// over its words (a changed, lost or moved word changes it).
pub fn steps_check(words: &[u64]) -> u64 {
    let (mut a, mut b) = (0u64, 0u64);
    for &w in words {
        a = a.wrapping_add(w);
        b = b.wrapping_add(a);
    }
    a ^ b.rotate_left(29)
}

/// The code of a step word that is written in full (the 8 bytes follow).
const LITERAL: u8 = 255;

/// The slot of the recent-words table where `w` is kept (0 to 254).
fn slot(w: u64) -> usize {
    ((w.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) % 255) as usize
}

/// A steps record's bytes, appended to `out`.
///
/// The steps are coded against a table of 255 recent words, empty at the
/// start of each record, each word in the slot [`slot`] gives it: a word
/// found in its slot is that slot's number (one byte); any other is
/// [`LITERAL`] and its 8 bytes, and takes the slot. A program's loops run
/// the same blocks again and again, so most steps take one byte.
pub fn steps_bytes(out: &mut Vec<u8>, words: &[u64]) {
    out.push(b'S');
    out.extend_from_slice(&(words.len() as u32).to_le_bytes());
    let len_at = out.len();
    out.extend_from_slice(&0u32.to_le_bytes());
    let start = out.len();
    // Room for the worst case at once, so that each word's bytes are
    // stored without growing the buffer.
    out.reserve(words.len() * 9 + 8);
    let mut table = [0u64; 255];
    // The check's sums in the same pass (what `steps_check` computes).
    let (mut a, mut b) = (0u64, 0u64);
    for &w in words {
        a = a.wrapping_add(w);
        b = b.wrapping_add(a);
        let k = slot(w);
        if table[k] == w {
            out.push(k as u8);
        } else {
            table[k] = w;
            out.push(LITERAL);
            out.extend_from_slice(&w.to_le_bytes());
        }
    }
    let coded = (out.len() - start) as u32;
    out[len_at..len_at + 4].copy_from_slice(&coded.to_le_bytes());
    out.extend_from_slice(&(a ^ b.rotate_left(29)).to_le_bytes());
}

/// Decode `n` steps coded as [`steps_bytes`] codes them into `words`;
/// what is wrong when `code` does not hold exactly `n` of them.
fn decode_steps(code: &[u8], n: usize, words: &mut Vec<u64>) -> Result<(), String> {
    words.clear();
    let mut table = [0u64; 255];
    let mut i = 0;
    while words.len() < n {
        let Some(&c) = code.get(i) else {
            return Err(format!(
                "the steps' code ends after {} of {n} steps",
                words.len()
            ));
        };
        i += 1;
        if c == LITERAL {
            let Some(b) = code.get(i..i + 8) else {
                return Err(format!("the steps' code ends inside step {}", words.len()));
            };
            let w = u64::from_le_bytes(b.try_into().unwrap_or_default());
            i += 8;
            table[slot(w)] = w;
            words.push(w);
        } else {
            words.push(table[usize::from(c)]);
        }
    }
    if i != code.len() {
        return Err(format!(
            "{} bytes of the steps' code are left after its {n} steps",
            code.len() - i
        ));
    }
    Ok(())
}

/// The header's bytes.
pub fn header_bytes(h: &Header) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    put_str(&mut out, &h.cwd);
    let n = h.args.len().min(usize::from(MAX_ARGS));
    out.extend_from_slice(&(n as u16).to_le_bytes());
    for a in &h.args[..n] {
        put_str(&mut out, a);
    }
    put_str(&mut out, &h.program);
    seal(out)
}

/// A translation record's bytes.
pub fn translation_bytes(r: &Recorded) -> Vec<u8> {
    let mut out = Vec::with_capacity(32 + r.bytes.len());
    out.push(b'T');
    out.extend_from_slice(&r.linear.to_le_bytes());
    out.extend_from_slice(&r.cs.to_le_bytes());
    out.extend_from_slice(&r.ip.to_le_bytes());
    out.extend_from_slice(&r.icount.to_le_bytes());
    let bytes = &r.bytes[..r.bytes.len().min(usize::from(MAX_BLOCK))];
    out.extend_from_slice(&(bytes.len() as u16).to_le_bytes());
    out.extend_from_slice(bytes);
    let has = u8::from(r.place.module.is_some()) | u8::from(r.place.segment.is_some()) << 1;
    out.push(has);
    if let Some(m) = &r.place.module {
        let mut end = m.len().min(MAX_MODULE as usize);
        while !m.is_char_boundary(end) {
            end -= 1;
        }
        put_str(&mut out, &m[..end]);
    }
    if let Some(s) = r.place.segment {
        out.extend_from_slice(&s.to_le_bytes());
    }
    out.extend_from_slice(&(r.symbols.len() as u16).to_le_bytes());
    for (k, s) in &r.symbols {
        out.extend_from_slice(&k.to_le_bytes());
        put_str(&mut out, s);
    }
    out.extend_from_slice(&(r.sources.len() as u16).to_le_bytes());
    for (k, l) in &r.sources {
        out.extend_from_slice(&k.to_le_bytes());
        put_str(&mut out, &l.file);
        out.extend_from_slice(&l.line.to_le_bytes());
    }
    seal(out)
}

/// An end record's bytes.
pub fn end_bytes(e: &End) -> Vec<u8> {
    let mut out = vec![b'E'];
    out.extend_from_slice(&e.blocks.to_le_bytes());
    out.extend_from_slice(&e.instructions.unwrap_or(u64::MAX).to_le_bytes());
    out.extend_from_slice(&e.status.to_le_bytes());
    put_str(&mut out, &e.stop);
    seal(out)
}

/// Bytes the writing thread gathers before writing them out.
const WRITE_CHUNK: usize = 1 << 19;

/// Messages on their way to the writing thread at most (then the run
/// waits for the disk).
const IN_FLIGHT: usize = 16;

/// What the run hands the writing thread.
enum Msg {
    /// A record, encoded.
    Bytes(Vec<u8>),
    /// Steps, to encode as a record.
    Steps(Vec<u64>),
    /// The end: the record to write last (its block count filled in).
    End(End),
}

/// What the writing thread wrote: blocks and bytes.
type Totals = (u64, u64);

/// What a [`RecordWriter`] has written, shared with whoever made it (the
/// machine keeps the writer until the recording stops).
///
/// A thread of its own encodes the steps and writes the file: the run
/// copies each buffer of steps it is handed and goes on. A write error
/// stops the thread; the next buffer handed over returns it (and the
/// machine stops the run), or [`Written::finish`] does.
pub struct Written {
    tx: Option<std::sync::mpsc::SyncSender<Msg>>,
    /// Step buffers encoded, back to be filled again.
    back: std::sync::mpsc::Receiver<Vec<u64>>,
    thread: Option<std::thread::JoinHandle<std::io::Result<Totals>>>,
    /// Blocks recorded (known once finished).
    pub blocks: u64,
    /// Translations recorded.
    pub translations: u64,
    /// Bytes written (known once finished).
    pub bytes: u64,
}

impl Written {
    fn send(&mut self, m: Msg) -> std::io::Result<()> {
        let sent = match &self.tx {
            Some(tx) => tx.send(m).is_ok(),
            None => false,
        };
        if sent {
            Ok(())
        } else {
            Err(self.join().err().unwrap_or_else(stopped))
        }
    }

    /// Wait for the writing thread: what it wrote, or its error.
    fn join(&mut self) -> std::io::Result<Totals> {
        self.tx = None;
        match self.thread.take().map(|t| t.join()) {
            Some(Ok(r)) => r,
            Some(Err(_)) => Err(std::io::Error::other(
                "the recording's writing thread failed",
            )),
            None => Err(stopped()),
        }
    }

    /// Write the end record, and wait for everything to be written.
    pub fn finish(&mut self, end: &End) -> std::io::Result<()> {
        self.send(Msg::End(end.clone()))?;
        let (blocks, bytes) = self.join()?;
        self.blocks = blocks;
        self.bytes = bytes;
        Ok(())
    }
}

fn stopped() -> std::io::Error {
    std::io::Error::other("the recording's writing thread has stopped")
}

/// The writing thread: encode and write what the run hands over.
fn write_recording(
    mut out: Box<dyn Write + Send>,
    rx: std::sync::mpsc::Receiver<Msg>,
    back: std::sync::mpsc::Sender<Vec<u64>>,
) -> std::io::Result<Totals> {
    let mut buf: Vec<u8> = Vec::with_capacity(WRITE_CHUNK + ((1 << 16) + 2) * 8);
    let (mut blocks, mut bytes) = (0u64, 0u64);
    for m in rx {
        match m {
            Msg::Bytes(b) => buf.extend_from_slice(&b),
            Msg::Steps(mut words) => {
                steps_bytes(&mut buf, &words);
                let cuts = words
                    .iter()
                    .filter(|&&x| x & crate::machine::record::CUT != 0)
                    .count();
                blocks += (words.len() - cuts) as u64;
                words.clear();
                let _ = back.send(words);
            }
            Msg::End(e) => buf.extend_from_slice(&end_bytes(&End { blocks, ..e })),
        }
        if buf.len() >= WRITE_CHUNK {
            out.write_all(&buf)?;
            bytes += buf.len() as u64;
            buf.clear();
        }
    }
    out.write_all(&buf)?;
    bytes += buf.len() as u64;
    out.flush()?;
    Ok((blocks, bytes))
}

/// The recorder writing a recording file: a [`BlockRecorder`] for
/// [`crate::machine::Machine::record_blocks`].
pub struct RecordWriter(pub std::rc::Rc<std::cell::RefCell<Written>>);

impl RecordWriter {
    /// A writer of `out` (best unbuffered: it is written in large pieces,
    /// by a thread of its own), the header first; the shared state, to
    /// finish it after the run.
    pub fn new(
        out: Box<dyn Write + Send>,
        header: &Header,
    ) -> std::io::Result<(RecordWriter, std::rc::Rc<std::cell::RefCell<Written>>)> {
        let (tx, rx) = std::sync::mpsc::sync_channel::<Msg>(IN_FLIGHT);
        let (back_tx, back) = std::sync::mpsc::channel::<Vec<u64>>();
        let thread = std::thread::Builder::new()
            .name("toolhelp16 recording".into())
            .spawn(move || write_recording(out, rx, back_tx))?;
        let mut w = Written {
            tx: Some(tx),
            back,
            thread: Some(thread),
            blocks: 0,
            translations: 0,
            bytes: 0,
        };
        w.send(Msg::Bytes(header_bytes(header)))?;
        let w = std::rc::Rc::new(std::cell::RefCell::new(w));
        Ok((RecordWriter(w.clone()), w))
    }
}

impl BlockRecorder for RecordWriter {
    fn translation(&mut self, uc: &Uc<'_>, t: &Translation<'_>) -> std::io::Result<()> {
        let place = Place::of(uc, t.cs);
        let b = blocks::decode(t.linear, t.cs, t.ip, t.bytes.to_vec());
        let symbols = b
            .insns
            .iter()
            .enumerate()
            .filter_map(|(k, i)| {
                let s = crate::machine::symbol_at(uc, t.cs, i.ip)?;
                Some((k as u16, s.to_string()))
            })
            .collect();
        let sources = b
            .insns
            .iter()
            .enumerate()
            .filter_map(|(k, i)| Some((k as u16, crate::machine::line_at(uc, t.cs, i.ip)?)))
            .collect();
        let r = Recorded {
            linear: t.linear,
            cs: t.cs,
            ip: t.ip,
            icount: t.icount,
            bytes: t.bytes.to_vec(),
            place,
            symbols,
            sources,
        };
        let mut w = self.0.borrow_mut();
        w.translations += 1;
        w.send(Msg::Bytes(translation_bytes(&r)))
    }

    fn steps(&mut self, words: &mut Vec<u64>) -> std::io::Result<()> {
        let mut w = self.0.borrow_mut();
        // The words are the machine's copy, made in bulk out of the ring
        // the run writes (machine/record.rs), so the buffer itself goes to
        // the writing thread, and one it has finished with comes back in
        // its place: no second copy.
        let mut v = w
            .back
            .try_recv()
            .unwrap_or_else(|_| Vec::with_capacity(crate::machine::record::BUFFER_WORDS));
        v.clear();
        std::mem::swap(words, &mut v);
        w.send(Msg::Steps(v))
    }
}

/// A bounded reader of a recording.
pub struct Reader {
    file: PathBuf,
    input: Box<dyn Read>,
    offset: u64,
    /// The header.
    pub header: Header,
    /// The steps of the last [`Record::Steps`].
    pub steps: Vec<u64>,
    scratch: Vec<u8>,
    ended: bool,
    /// The FNV-1a check of the record read so far (None while reading
    /// what it does not cover).
    hash: Option<u32>,
    /// The file's format version.
    version: u16,
}

impl Reader {
    /// Open the recording at `path` and read its header.
    pub fn open(path: &Path) -> Result<Reader, RecordError> {
        let f = std::fs::File::open(path).map_err(|e| RecordError {
            file: path.to_path_buf(),
            offset: 0,
            what: e.to_string(),
        })?;
        Reader::new(
            path,
            Box::new(std::io::BufReader::with_capacity(1 << 20, f)),
        )
    }

    /// Read the recording `input` (named `file` in errors) from its
    /// header.
    pub fn new(file: &Path, input: Box<dyn Read>) -> Result<Reader, RecordError> {
        let mut r = Reader {
            file: file.to_path_buf(),
            input,
            offset: 0,
            header: Header::default(),
            steps: Vec::new(),
            scratch: Vec::new(),
            ended: false,
            hash: Some(FNV_START),
            version: VERSION,
        };
        let mut magic = [0u8; 8];
        r.exact(&mut magic, "the magic number")?;
        if &magic != MAGIC {
            return Err(r.error_at(0, "not a toolhelp16 recording (no TH16REC magic)".into()));
        }
        let v = r.u16("the format version")?;
        if !(OLDEST..=VERSION).contains(&v) {
            return Err(r.error_at(
                8,
                format!("format version {v}; this toolhelp16 reads versions {OLDEST} to {VERSION}"),
            ));
        }
        r.version = v;
        let cwd = r.string("the directory", MAX_STRING)?;
        let n = r.u16("the argument count")?;
        if n > MAX_ARGS {
            return Err(r.error(format!("{n} arguments (at most {MAX_ARGS})")));
        }
        let mut args = Vec::with_capacity(usize::from(n));
        for _ in 0..n {
            args.push(r.string("an argument", MAX_STRING)?);
        }
        let program = r.string("the program's path", MAX_STRING)?;
        r.sealed(0, "the header")?;
        r.header = Header { cwd, args, program };
        Ok(r)
    }

    /// The recording's name.
    pub fn file(&self) -> &Path {
        &self.file
    }

    /// An error at the current offset.
    pub fn error(&self, what: String) -> RecordError {
        self.error_at(self.offset, what)
    }

    fn error_at(&self, offset: u64, what: String) -> RecordError {
        RecordError {
            file: self.file.clone(),
            offset,
            what,
        }
    }

    fn exact(&mut self, buf: &mut [u8], what: &str) -> Result<(), RecordError> {
        let mut got = 0;
        while got < buf.len() {
            match self.input.read(&mut buf[got..]) {
                Ok(0) => {
                    return Err(self.error_at(
                        self.offset + got as u64,
                        format!(
                            "truncated: {what} needs {} bytes, the file ends after {got}",
                            buf.len()
                        ),
                    ));
                }
                Ok(n) => got += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    return Err(self.error_at(self.offset + got as u64, format!("{what}: {e}")));
                }
            }
        }
        self.offset += buf.len() as u64;
        if let Some(h) = self.hash {
            self.hash = Some(fnv(h, buf));
        }
        Ok(())
    }

    /// The record that started at `at` ends with its check: compare.
    fn sealed(&mut self, at: u64, what: &str) -> Result<(), RecordError> {
        let want = self.hash.take().unwrap_or(0);
        let got = self.u32("a record's check")?;
        if got != want {
            return Err(self.error_at(
                at,
                format!("{what} is corrupt: its check is {got:#010x}, its bytes give {want:#010x}"),
            ));
        }
        Ok(())
    }

    fn u8(&mut self, what: &str) -> Result<u8, RecordError> {
        let mut b = [0u8; 1];
        self.exact(&mut b, what)?;
        Ok(b[0])
    }

    fn u16(&mut self, what: &str) -> Result<u16, RecordError> {
        let mut b = [0u8; 2];
        self.exact(&mut b, what)?;
        Ok(u16::from_le_bytes(b))
    }

    fn u32(&mut self, what: &str) -> Result<u32, RecordError> {
        let mut b = [0u8; 4];
        self.exact(&mut b, what)?;
        Ok(u32::from_le_bytes(b))
    }

    fn u64(&mut self, what: &str) -> Result<u64, RecordError> {
        let mut b = [0u8; 8];
        self.exact(&mut b, what)?;
        Ok(u64::from_le_bytes(b))
    }

    fn string(&mut self, what: &str, cap: u32) -> Result<String, RecordError> {
        let at = self.offset;
        let n = self.u32(what)?;
        if n > cap {
            return Err(self.error_at(at, format!("{what}: {n} bytes long (at most {cap})")));
        }
        let mut b = vec![0u8; n as usize];
        self.exact(&mut b, what)?;
        String::from_utf8(b).map_err(|_| self.error_at(at + 4, format!("{what}: not UTF-8")))
    }

    /// The next record; None after the end record. A file that ends
    /// without one is an error (it was cut short).
    pub fn next_record(&mut self) -> Result<Option<Record>, RecordError> {
        if self.ended {
            return Ok(None);
        }
        let at = self.offset;
        let mut tag = [0u8; 1];
        let n = loop {
            match self.input.read(&mut tag) {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(self.error(e.to_string())),
                Ok(n) => break n,
            }
        };
        if n == 0 {
            return Err(self.error(
                "truncated: the recording ends without its end record (the run or the file was cut short)"
                    .into(),
            ));
        }
        self.offset += 1;
        self.hash = Some(fnv(FNV_START, &tag));
        match tag[0] {
            b'T' => {
                let t = self.translation()?;
                self.sealed(at, "a translation record")?;
                Ok(Some(Record::Translation(t)))
            }
            b'S' => {
                self.hash = None;
                let n = self.u32("the step count")?;
                if n > MAX_STEPS {
                    return Err(self.error_at(
                        at + 1,
                        format!("{n} steps in one record (at most {MAX_STEPS})"),
                    ));
                }
                let m_at = self.offset;
                let m = self.u32("the steps' code length")?;
                // A step takes 1 to 9 bytes.
                if m < n || u64::from(m) > u64::from(n) * 9 {
                    return Err(self.error_at(
                        m_at,
                        format!("{m} bytes of code for {n} steps (each takes 1 to 9)"),
                    ));
                }
                let mut scratch = std::mem::take(&mut self.scratch);
                scratch.resize(m as usize, 0);
                let r = self.exact(&mut scratch, "the steps");
                let mut steps = std::mem::take(&mut self.steps);
                let d = r.and_then(|()| {
                    decode_steps(&scratch, n as usize, &mut steps)
                        .map_err(|what| self.error_at(m_at + 4, what))
                });
                self.steps = steps;
                self.scratch = scratch;
                d?;
                let want = steps_check(&self.steps);
                let got = self.u64("a steps record's check")?;
                if got != want {
                    return Err(self.error_at(
                        at,
                        format!("a steps record is corrupt: its check is {got:#018x}, its steps give {want:#018x}"),
                    ));
                }
                Ok(Some(Record::Steps))
            }
            b'E' => {
                let blocks = self.u64("the block count")?;
                let insns = self.u64("the instruction count")?;
                let status = self.u32("the exit status")? as i32;
                let stop = self.string("how the run ended", MAX_STRING)?;
                self.sealed(at, "the end record")?;
                let mut more = [0u8; 1];
                if matches!(self.input.read(&mut more), Ok(n) if n > 0) {
                    return Err(self.error("data after the end record".into()));
                }
                self.ended = true;
                Ok(Some(Record::End(End {
                    blocks,
                    instructions: (insns != u64::MAX).then_some(insns),
                    status,
                    stop,
                })))
            }
            t => Err(self.error_at(at, format!("unknown record type {t:#04x}"))),
        }
    }

    fn translation(&mut self) -> Result<Recorded, RecordError> {
        let linear = self.u64("a translation's address")?;
        let cs = self.u16("a translation's CS")?;
        let ip = self.u16("a translation's IP")?;
        let icount = self.u32("a translation's instruction count")?;
        let at = self.offset;
        let size = self.u16("a translation's size")?;
        if size == 0 || size > MAX_BLOCK {
            return Err(self.error_at(at, format!("a block of {size} bytes (1 to {MAX_BLOCK})")));
        }
        let mut bytes = vec![0u8; usize::from(size)];
        self.exact(&mut bytes, "a translation's bytes")?;
        let at = self.offset;
        let has = self.u8("a translation's place")?;
        if has > 3 {
            return Err(self.error_at(at, format!("place flags {has:#04x} (0 to 3)")));
        }
        let module = if has & 1 != 0 {
            Some(self.string("a module name", MAX_MODULE)?)
        } else {
            None
        };
        let segment = if has & 2 != 0 {
            Some(self.u16("a segment number")?)
        } else {
            None
        };
        let at = self.offset;
        let n = self.u16("the symbol count")?;
        if n > size {
            return Err(self.error_at(at, format!("{n} symbols for a block of {size} bytes")));
        }
        let mut symbols = Vec::with_capacity(usize::from(n));
        for _ in 0..n {
            let at = self.offset;
            let k = self.u16("a symbol's instruction")?;
            if k >= size {
                return Err(self.error_at(
                    at,
                    format!("a symbol for instruction {k} of a block of {size} bytes"),
                ));
            }
            symbols.push((k, self.string("a symbol", MAX_STRING)?));
        }
        let mut sources = Vec::new();
        if self.version >= 2 {
            let at = self.offset;
            let n = self.u16("the source line count")?;
            if n > size {
                return Err(
                    self.error_at(at, format!("{n} source lines for a block of {size} bytes"))
                );
            }
            sources.reserve(usize::from(n));
            for _ in 0..n {
                let at = self.offset;
                let k = self.u16("a source line's instruction")?;
                if k >= size {
                    return Err(self.error_at(
                        at,
                        format!("a source line for instruction {k} of a block of {size} bytes"),
                    ));
                }
                let file = self.string("a source file", MAX_STRING)?;
                let line = self.u32("a source line")?;
                sources.push((
                    k,
                    SourceLine {
                        file: file.into(),
                        line,
                    },
                ));
            }
        }
        Ok(Recorded {
            linear,
            cs,
            ip,
            icount,
            bytes,
            place: Place { module, segment },
            symbols,
            sources,
        })
    }
}

/// What to expand, and how (the `trace` options that apply to a
/// recording).
#[derive(Debug, Clone, Default)]
pub struct ExpandOptions {
    /// Syntax and JSON.
    pub render: Render,
    /// Start at this linear address (`--from`).
    pub from: Option<u64>,
    /// Only instructions of this module (`--module`).
    pub module: Option<String>,
}

/// A translation ready to expand.
struct Expanded {
    block: Block,
    lines: Lines,
}

/// Expands steps into the lines the live tracer writes for them.
pub struct Expander {
    opts: ExpandOptions,
    /// The translations by linear address and size (the newest wins, as
    /// in the machine).
    by_key: HashMap<(u64, u32), usize>,
    blocks: Vec<Expanded>,
    /// The block entered last, not yet written (a cut may follow).
    pending: Option<usize>,
    pending_skip: usize,
    active: bool,
    /// Instructions recorded (completed, and faulted ones).
    pub instructions: u64,
    /// Blocks expanded.
    pub blocks_seen: u64,
}

impl Expander {
    /// An expander with these options.
    pub fn new(opts: ExpandOptions) -> Expander {
        Expander {
            active: opts.from.is_none(),
            opts,
            by_key: HashMap::new(),
            blocks: Vec::new(),
            pending: None,
            pending_skip: 0,
            instructions: 0,
            blocks_seen: 0,
        }
    }

    /// Take a translation: decoded and rendered now, once.
    pub fn translation(&mut self, r: &Recorded, sink: &mut Sink) {
        // The block entered last ended before this one was entered.
        self.flush(None, sink);
        let block = blocks::decode(r.linear, r.cs, r.ip, r.bytes.clone());
        let wanted = r.place.selected(self.opts.module.as_deref());
        let lines = self.opts.render.block(&block, &r.place, wanted, |k| {
            let sym = r
                .symbols
                .iter()
                .find(|(i, _)| usize::from(*i) == k)
                .map(|(_, s)| s.clone());
            let src = r
                .sources
                .iter()
                .find(|(i, _)| usize::from(*i) == k)
                .map(|(_, l)| l.clone());
            (sym, src)
        });
        let key = (r.linear, r.bytes.len() as u32);
        let e = Expanded { block, lines };
        match self.by_key.get(&key) {
            Some(&k) => self.blocks[k] = e,
            None => {
                self.by_key.insert(key, self.blocks.len());
                self.blocks.push(e);
            }
        }
    }

    /// Write the pending block's first `n` instructions (all when None).
    fn flush(&mut self, n: Option<usize>, sink: &mut Sink) {
        let Some(k) = self.pending.take() else {
            return;
        };
        let b = &self.blocks[k];
        let n = n.unwrap_or(b.block.insns.len());
        self.instructions += n as u64;
        let skip = std::mem::take(&mut self.pending_skip);
        sink.write(&b.lines, skip, Some(n));
    }

    /// Expand `words` (steps, in order) into `sink`; stops early when
    /// the sink is full or failed. An error names what was wrong.
    pub fn steps(&mut self, words: &[u64], sink: &mut Sink) -> Result<(), String> {
        for (at, &w) in words.iter().enumerate() {
            if sink.full() || sink.failed() {
                self.pending = None;
                return Ok(());
            }
            match Step::from_word(w) {
                Step::Block { linear, size } => {
                    let Some(&k) = self.by_key.get(&(linear, size)) else {
                        return Err(format!(
                            "step {at}: a block at linear {linear:#x} ({size} bytes) with no translation before it"
                        ));
                    };
                    // The pending block ran to its end: when it did not,
                    // a cut came first (the machine cuts a block short by
                    // the rule the live tracer follows, `cuts_short`).
                    self.flush(None, sink);
                    if sink.full() || sink.failed() {
                        return Ok(());
                    }
                    self.blocks_seen += 1;
                    let b = &self.blocks[k].block;
                    self.pending = Some(k);
                    if !self.active {
                        let from = self.opts.from.unwrap_or(0);
                        if from < b.linear || from >= b.linear + b.bytes.len() as u64 {
                            self.pending_skip = b.insns.len();
                            continue;
                        }
                        self.active = true;
                        self.pending_skip =
                            b.before(b.ip.wrapping_add((from - b.linear) as u16)).len();
                    }
                }
                Step::Cut { linear, faulted } => {
                    let Some(p) = self.pending else {
                        return Err(format!(
                            "step {at}: a cut at linear {linear:#x} with no block before it"
                        ));
                    };
                    let b = &self.blocks[p].block;
                    let mut n = b
                        .insns
                        .iter()
                        .filter(|i| b.linear + u64::from(i.at) < linear)
                        .count();
                    if faulted && b.insns.iter().any(|i| b.linear + u64::from(i.at) == linear) {
                        n += 1;
                    }
                    self.flush(Some(n), sink);
                }
            }
        }
        Ok(())
    }

    /// The recording ended: the pending block ran to its end.
    pub fn finish(&mut self, sink: &mut Sink) {
        self.flush(None, sink);
    }
}

/// What [`expand`] did.
#[derive(Debug, Clone, Default)]
pub struct Expansion {
    /// The header.
    pub header: Header,
    /// The end record.
    pub end: End,
    /// Instructions written.
    pub written: u64,
}

/// Expand the recording `reader` into `sink` with `opts`. A malformed
/// recording is an error naming the file and offset; what was expanded
/// before it has been written.
pub fn expand(
    mut reader: Reader,
    opts: ExpandOptions,
    sink: &mut Sink,
) -> Result<Expansion, RecordError> {
    let mut x = Expander::new(opts);
    loop {
        let at = reader.offset;
        match reader.next_record()? {
            Some(Record::Translation(t)) => x.translation(&t, sink),
            Some(Record::Steps) => {
                let words = std::mem::take(&mut reader.steps);
                let r = x.steps(&words, sink);
                reader.steps = words;
                r.map_err(|what| reader.error_at(at, what))?;
            }
            Some(Record::End(end)) => {
                x.finish(sink);
                return Ok(Expansion {
                    header: reader.header.clone(),
                    end,
                    written: sink.written,
                });
            }
            None => {
                return Ok(Expansion {
                    header: reader.header.clone(),
                    end: End::default(),
                    written: sink.written,
                });
            }
        }
        if sink.full() || sink.failed() {
            // Nothing more can be written: the rest is not read.
            return Ok(Expansion {
                header: reader.header.clone(),
                end: End::default(),
                written: sink.written,
            });
        }
    }
}

/// Read a whole recording, checking it: its header, translations and
/// steps as the expansion reads them, without writing anything.
pub fn check(reader: Reader) -> Result<Expansion, RecordError> {
    let mut sink = Sink::new(Box::new(std::io::sink()), None, None);
    expand(reader, ExpandOptions::default(), &mut sink)
}

/// A recorded run's path, compared block by block with a run of the same
/// program (`--replay --regs`, `--replay --html`: the registers come
/// from running it again, and the run must take the recorded path).
pub struct Check {
    reader: Reader,
    /// Next step in the reader's buffer.
    pos: usize,
    ended: bool,
    /// Blocks compared and equal.
    pub compared: u64,
    /// Where the run left the recorded path.
    pub diverged: Option<String>,
}

fn describe(w: u64) -> String {
    match Step::from_word(w) {
        Step::Block { linear, size } => format!("the block at linear {linear:#x} ({size} bytes)"),
        Step::Cut { linear, .. } => format!("a cut at linear {linear:#x}"),
    }
}

impl Check {
    /// A check against the recording `reader` (its header read).
    pub fn new(reader: Reader) -> Check {
        Check {
            reader,
            pos: 0,
            ended: false,
            compared: 0,
            diverged: None,
        }
    }

    /// The recording's name.
    pub fn file(&self) -> &Path {
        &self.reader.file
    }

    /// The next block the recording ran (cuts are not compared: the run
    /// that checks may stop early, at `--max`).
    fn next_block(&mut self) -> Result<Option<u64>, RecordError> {
        loop {
            while let Some(&w) = self.reader.steps.get(self.pos) {
                self.pos += 1;
                if w & crate::machine::record::CUT == 0 {
                    return Ok(Some(w));
                }
            }
            if self.ended {
                return Ok(None);
            }
            self.pos = 0;
            match self.reader.next_record()? {
                Some(Record::Steps) => {}
                Some(Record::Translation(_)) => self.reader.steps.clear(),
                Some(Record::End(_)) | None => {
                    self.ended = true;
                    self.reader.steps.clear();
                }
            }
        }
    }

    /// Compare the run's steps `words` with the recording's.
    fn compare(&mut self, words: &[u64]) -> Result<(), String> {
        for &w in words {
            if self.diverged.is_some() {
                break;
            }
            if w & crate::machine::record::CUT != 0 {
                continue;
            }
            let what = match self.next_block() {
                Ok(Some(r)) if r == w => {
                    self.compared += 1;
                    continue;
                }
                Ok(Some(r)) => format!(
                    "block {}: the run entered {} where the recording has {}",
                    self.compared,
                    describe(w),
                    describe(r)
                ),
                Ok(None) => format!(
                    "block {}: the run went on ({}) past the recording's end",
                    self.compared,
                    describe(w)
                ),
                Err(e) => e.to_string(),
            };
            self.diverged = Some(what);
        }
        match &self.diverged {
            Some(d) => Err(d.clone()),
            None => Ok(()),
        }
    }

    /// The verdict after the run: the blocks compared, or where the run
    /// left the recorded path. With `complete` (the run went to its end),
    /// the recording must end there too.
    pub fn verdict(&mut self, complete: bool) -> Result<u64, String> {
        if let Some(d) = &self.diverged {
            return Err(d.clone());
        }
        if complete {
            match self.next_block() {
                Ok(Some(r)) => {
                    return Err(format!(
                        "the run ended after {} blocks; the recording goes on with {}",
                        self.compared,
                        describe(r)
                    ));
                }
                Err(e) => return Err(e.to_string()),
                Ok(None) => {}
            }
        }
        Ok(self.compared)
    }
}

/// The [`BlockRecorder`] of a [`Check`]: a run that leaves the recorded
/// path stops there.
pub struct CheckRecorder(pub std::rc::Rc<std::cell::RefCell<Check>>);

impl BlockRecorder for CheckRecorder {
    fn translation(&mut self, _uc: &Uc<'_>, _t: &Translation<'_>) -> std::io::Result<()> {
        Ok(())
    }

    fn steps(&mut self, words: &mut Vec<u64>) -> std::io::Result<()> {
        let r = self
            .0
            .borrow_mut()
            .compare(words)
            .map_err(std::io::Error::other);
        words.clear();
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn sample() -> Vec<u8> {
        let mut f = header_bytes(&Header {
            cwd: "/tmp".into(),
            args: vec!["a.com".into(), "--".into(), "x".into()],
            program: "a.com".into(),
        });
        // mov ax,1; inc ax; ret
        f.extend(translation_bytes(&Recorded {
            linear: 0x1100,
            cs: 0x100,
            ip: 0x100,
            icount: 3,
            bytes: vec![0xB8, 0x01, 0x00, 0x40, 0xC3],
            place: Place {
                module: Some("A".into()),
                segment: None,
            },
            symbols: vec![(0, "start".into())],
            sources: vec![(
                1,
                SourceLine {
                    file: "a.c".into(),
                    line: 7,
                },
            )],
        }));
        steps_bytes(
            &mut f,
            &[
                Step::Block {
                    linear: 0x1100,
                    size: 5,
                }
                .word(),
                Step::Cut {
                    linear: 0x1103,
                    faulted: true,
                }
                .word(),
            ],
        );
        f.extend(end_bytes(&End {
            blocks: 1,
            instructions: Some(1),
            status: 121,
            stop: "fault".into(),
        }));
        f
    }

    fn expand_bytes(b: &[u8]) -> Result<String, RecordError> {
        let r = Reader::new(
            Path::new("t.rec"),
            Box::new(std::io::Cursor::new(b.to_vec())),
        )?;
        let out = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
        struct Shared(std::rc::Rc<std::cell::RefCell<Vec<u8>>>);
        impl Write for Shared {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                self.0.borrow_mut().extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let mut sink = Sink::new(Box::new(Shared(out.clone())), None, None);
        expand(r, ExpandOptions::default(), &mut sink)?;
        let text = String::from_utf8(out.borrow().clone()).unwrap();
        Ok(text)
    }

    #[test]
    fn a_fault_cut_writes_through_the_faulting_instruction() {
        let text = expand_bytes(&sample()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{text}");
        assert!(lines[0].starts_with("0100:0100  A "), "{text}");
        assert!(lines[0].ends_with("; start"), "{text}");
        assert!(lines[1].contains("inc ax"), "{text}");
        // The recorded source line, as the live trace writes it.
        assert!(lines[1].ends_with("; at a.c:7"), "{text}");
    }

    #[test]
    fn every_truncation_is_a_named_error() {
        let f = sample();
        for n in 0..f.len() {
            let e = expand_bytes(&f[..n]).unwrap_err();
            let s = e.to_string();
            assert!(s.starts_with("t.rec: offset "), "{s}");
            assert!(e.offset <= n as u64, "{n}: {s}");
            assert!(s.contains("truncated"), "{n}: {s}");
        }
    }

    /// Every record carries a check: any one byte changed anywhere is an
    /// error, never a different trace passed off as the recorded one.
    #[test]
    fn every_changed_byte_is_a_named_error() {
        let f = sample();
        for at in 0..f.len() {
            for x in [0x01u8, 0x80, 0xFF] {
                let mut g = f.clone();
                g[at] ^= x;
                let e = expand_bytes(&g);
                assert!(e.is_err(), "byte {at} ^ {x:#x} passed: {:?}", e.ok());
                let s = e.unwrap_err().to_string();
                assert!(s.starts_with("t.rec: offset "), "{s}");
            }
        }
        let mut g = f.clone();
        let n = g.len();
        g[n - 5] ^= 1;
        let s = expand_bytes(&g).unwrap_err().to_string();
        assert!(s.contains("the end record is corrupt"), "{s}");
    }

    #[test]
    fn a_step_without_its_translation_is_an_error() {
        let mut f = header_bytes(&Header::default());
        steps_bytes(
            &mut f,
            &[Step::Block {
                linear: 0x500,
                size: 3,
            }
            .word()],
        );
        let e = expand_bytes(&f).unwrap_err().to_string();
        assert!(e.contains("no translation before it"), "{e}");
    }

    #[test]
    fn oversized_lengths_are_refused_before_allocating() {
        let mut f = header_bytes(&Header::default());
        f.push(b'S');
        f.extend(u32::MAX.to_le_bytes());
        let e = expand_bytes(&f).unwrap_err().to_string();
        assert!(e.contains("at most"), "{e}");
        let mut f = MAGIC.to_vec();
        f.extend(VERSION.to_le_bytes());
        f.extend(u32::MAX.to_le_bytes());
        let e = expand_bytes(&f).unwrap_err().to_string();
        assert!(e.contains("offset 10: the directory"), "{e}");
    }

    /// A loop's steps take a byte each once their words are in the table.
    #[test]
    fn repeated_steps_take_a_byte_each() {
        let words: Vec<u64> = (0..1000).map(|k| 0x1000 + (k % 3) * 0x40).collect();
        let mut out = Vec::new();
        steps_bytes(&mut out, &words);
        // 'S', the count, the code's length, 3 literals, 997 slots, the check.
        assert_eq!(out.len(), 1 + 4 + 4 + 3 * 9 + 997 + 8);
    }

    proptest! {
        #[test]
        fn steps_code_and_decode_to_themselves(
            words in proptest::collection::vec(
                prop_oneof![any::<u64>(), 0u64..6, Just(u64::MAX)], 0..600),
        ) {
            let mut out = Vec::new();
            steps_bytes(&mut out, &words);
            let n = u32::from_le_bytes(out[1..5].try_into().unwrap()) as usize;
            let m = u32::from_le_bytes(out[5..9].try_into().unwrap()) as usize;
            prop_assert_eq!(n, words.len());
            prop_assert_eq!(out.len(), 9 + m + 8);
            let mut back = Vec::new();
            decode_steps(&out[9..9 + m], n, &mut back).unwrap();
            prop_assert_eq!(back, words);
        }

        #[test]
        fn arbitrary_step_code_never_panics(
            code in proptest::collection::vec(any::<u8>(), 0..300),
            n in 0usize..100,
        ) {
            let mut back = Vec::new();
            let _ = decode_steps(&code, n, &mut back);
            prop_assert!(back.len() <= n);
        }

        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
            let _ = expand_bytes(&bytes);
        }

        #[test]
        fn a_valid_header_then_arbitrary_records_never_panic(
            bytes in proptest::collection::vec(any::<u8>(), 0..512),
            tags in proptest::collection::vec(prop_oneof![Just(b'T'), Just(b'S'), Just(b'E')], 0..4),
        ) {
            let mut f = header_bytes(&Header::default());
            let mut rest = bytes.clone();
            for (k, t) in tags.iter().enumerate() {
                rest.insert((k * 37).min(rest.len()), *t);
            }
            f.push(b'T');
            f.extend(rest);
            let _ = expand_bytes(&f);
        }

        #[test]
        fn a_corrupted_sample_never_panics(at in 0usize..200, byte in any::<u8>()) {
            let mut f = sample();
            let at = at % f.len();
            f[at] = byte;
            let _ = expand_bytes(&f);
        }
    }
}
