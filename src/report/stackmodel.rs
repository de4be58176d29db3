//! The stack picture as plain data: which words of the stack segment are
//! shown, what each one is in the walk, the band of each frame, the
//! arrows of the BP chain, the stack bounds, and how the stack selector
//! becomes a linear address. [`super::svg`] and [`super::html`] draw it;
//! the trace page draws a small one after every instruction.
//!
//! How the frames lie on the stack (toolhelp.md, "Prologue conventions the
//! walk relies on", and StackTraceNext step 3): frame i's BP points at
//! the word where its prologue saved its caller's BP; the return IP into
//! the caller (frame i + 1) lies at BP + 2, and for a far frame the
//! return CS at BP + 4. So frame i's saved BP and return address describe
//! frame i + 1, and the walk's arrows run from each saved BP up to the
//! frame it names. The words between a frame's return address and its
//! caller's BP are the arguments the caller pushed and the caller's own
//! locals: the walk cannot tell where one ends and the other begins.
//!
//! The bounds a walk trusts are `[pStackTop, pStackBot)` from the stack
//! segment's instance data (toolhelp.md, "Where the stack bounds live":
//! pStackTop at SS:0A, pStackMin at SS:0C, pStackBot at SS:0E); real mode
//! has none and uses the whole 64 KiB segment.

use std::collections::{BTreeMap, BTreeSet};

use super::{Namer, Place};
use crate::machine::Regs;
use crate::walk::{
    CpuMode, Descriptor, StackTraceEntry, StopReason, Walk, WalkMemory, stack_bounds,
};

/// How much of the stack a picture shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// At most this many word rows (gaps not counted); the rows kept are
    /// the lowest, from SP up.
    pub max_rows: usize,
    /// Two shown words further apart than this many bytes get a gap row
    /// between them instead of every word.
    pub gap: u32,
}

impl Limits {
    /// A page of its own (`stack --svg`, `stack --html`).
    pub const PAGE: Limits = Limits {
        max_rows: 4096,
        gap: 64,
    };
    /// The small picture after each instruction of a trace page.
    pub const COMPACT: Limits = Limits {
        max_rows: 20,
        gap: 16,
    };
}

/// How a segment value becomes a linear address: a real-mode paragraph
/// times 16, or a protected-mode selector's descriptor base.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Translation {
    /// The segment register value.
    pub seg: u16,
    /// Real or protected mode.
    pub mode: CpuMode,
    /// The descriptor it names (real mode: the one it implies).
    pub descriptor: Option<Descriptor>,
    /// Protected mode: the linear address of the descriptor in its table,
    /// when the memory knows where the table is.
    pub entry_linear: Option<u32>,
}

impl Translation {
    /// The translation of `seg` in `mem`.
    pub fn of(mem: &dyn WalkMemory, seg: u16) -> Translation {
        let mode = mem.mode();
        let descriptor = mem.descriptor(seg);
        let entry_linear = match mode {
            CpuMode::Real => None,
            CpuMode::Protected => mem
                .descriptor_table(seg & 4 != 0)
                .map(|t| t.base.wrapping_add(u32::from(seg & !7))),
        };
        Translation {
            seg,
            mode,
            descriptor,
            entry_linear,
        }
    }

    /// The segment's linear base.
    pub fn base(&self) -> Option<u32> {
        match self.mode {
            CpuMode::Real => Some(u32::from(self.seg) << 4),
            CpuMode::Protected => self.descriptor.map(|d| d.base),
        }
    }

    /// The linear address of offset `off`.
    pub fn linear(&self, off: u32) -> Option<u32> {
        self.base().map(|b| b.wrapping_add(off))
    }

    /// A linear address as this mode writes it: five hex digits in real
    /// mode (20 bits, more past 1 MiB), eight in protected mode.
    pub fn fmt_linear(&self, lin: u32) -> String {
        match self.mode {
            CpuMode::Real => format!("{lin:05X}"),
            CpuMode::Protected => format!("{lin:08X}"),
        }
    }

    /// The selector's fields: (descriptor index, in the LDT, RPL).
    pub fn selector_fields(&self) -> (u16, bool, u8) {
        (self.seg >> 3, self.seg & 4 != 0, (self.seg & 3) as u8)
    }

    /// The translation step by step, for the picture: `name` names the
    /// register (`SS`), `off` the offset to translate and `off_name` what
    /// it is (`SP`).
    pub fn steps(&self, name: &str, off: u16, off_name: &str) -> Vec<String> {
        let seg = self.seg;
        let mut v = Vec::new();
        match self.mode {
            CpuMode::Real => {
                let base = u32::from(seg) << 4;
                v.push(format!(
                    "{name} = {seg:04X}: real mode, a paragraph number; no descriptor"
                ));
                v.push(format!(
                    "base = segment × 16 = {seg:04X} × 16 = {}",
                    self.fmt_linear(base)
                ));
                v.push(format!(
                    "linear = seg*16+off: {name}:{off_name} = {} + {off:04X} = {}",
                    self.fmt_linear(base),
                    self.fmt_linear(base.wrapping_add(u32::from(off)))
                ));
            }
            CpuMode::Protected => {
                let (index, ldt, rpl) = self.selector_fields();
                v.push(format!(
                    "{name} = {seg:04X}: a selector: index {index:04X}, table {} (TI = {}), RPL {rpl}",
                    if ldt { "LDT" } else { "GDT" },
                    u8::from(ldt)
                ));
                let at = match self.entry_linear {
                    Some(l) => format!(
                        " at {} + {:04X} = {l:08X}",
                        if ldt { "LDT" } else { "GDT" },
                        seg & !7
                    ),
                    None => String::new(),
                };
                match self.descriptor {
                    Some(d) => {
                        v.push(format!(
                            "descriptor{at}: base {:08X}, limit {:04X}, access {:02X} ({})",
                            d.base,
                            d.limit,
                            d.access,
                            access_text(d.access)
                        ));
                        v.push(format!(
                            "linear = base + offset: {name}:{off_name} = {:08X} + {off:04X} = {:08X}",
                            d.base,
                            d.base.wrapping_add(u32::from(off))
                        ));
                    }
                    None => v.push(format!(
                        "descriptor{at}: none (a null selector, or past its table's limit): no linear address"
                    )),
                }
            }
        }
        v
    }
}

/// The access-rights byte in words: present, DPL, code or data and its
/// flags (the 286 layout, walk/memory.rs `Descriptor`).
pub fn access_text(access: u8) -> String {
    let mut parts = vec![
        if access & 0x80 != 0 {
            "present"
        } else {
            "not present"
        }
        .to_string(),
        format!("DPL {}", (access >> 5) & 3),
    ];
    if access & 0x10 == 0 {
        parts.push("system".into());
    } else if access & 0x08 != 0 {
        parts.push("code".into());
        if access & 0x02 != 0 {
            parts.push("readable".into());
        }
        if access & 0x04 != 0 {
            parts.push("conforming".into());
        }
    } else {
        parts.push("data".into());
        if access & 0x02 != 0 {
            parts.push("writable".into());
        }
        if access & 0x04 != 0 {
            parts.push("expand-down".into());
        }
    }
    parts.join(", ")
}

/// The stack bounds of the drawn stack segment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// pStackTop, the lowest usable offset ([SS:0A]; real mode 0).
    pub top: Option<u32>,
    /// pStackMin, the lowest SP seen ([SS:0C]; real mode: none).
    pub min: Option<u16>,
    /// pStackBot, the highest offset, where the stack started ([SS:0E];
    /// real mode 10000).
    pub bot: Option<u32>,
    /// The segment's limit (real mode FFFF).
    pub limit: Option<u32>,
}

/// What a word is in the walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WordKind {
    /// Below a frame's BP: its locals, saved registers, outgoing arguments.
    Local,
    /// Where BP points: the caller's BP, saved by the prologue.
    SavedBp,
    /// [BP+2]: the return IP into the next frame.
    ReturnIp,
    /// [BP+4] of a far frame: the return CS.
    ReturnCs,
    /// Between a frame's return address and its caller's BP: arguments
    /// the caller pushed, or the caller's locals.
    Argument,
    /// A word of a fault dispatch frame: the faulting IP or CS.
    Fault,
    /// A word the walk read but did not follow, or one above the walk.
    Other,
}

impl WordKind {
    /// A short CSS class name.
    pub fn class(&self) -> &'static str {
        match self {
            WordKind::Local => "local",
            WordKind::SavedBp => "saved-bp",
            WordKind::ReturnIp => "ret-ip",
            WordKind::ReturnCs => "ret-cs",
            WordKind::Argument => "arg",
            WordKind::Fault => "fault",
            WordKind::Other => "other",
        }
    }
}

/// One shown word of the stack.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    /// Its offset in the stack segment.
    pub off: u16,
    /// Its value; None when it cannot be read (past the limit).
    pub value: Option<u16>,
    /// Its linear address.
    pub linear: Option<u32>,
    /// What the walk makes of the word.
    pub kind: WordKind,
    /// The frame whose band holds it.
    pub frame: Option<usize>,
    /// What it is, in words (empty for a plain word).
    pub note: String,
    /// SP points here.
    pub sp: bool,
    /// The live BP points here.
    pub bp: bool,
}

/// A row of the picture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Row {
    /// A word.
    Word(Word),
    /// Offsets `[lo, hi)` not shown.
    Gap {
        /// The lowest offset.
        lo: u32,
        /// The offset just above.
        hi: u32,
    },
}

/// A frame's band: the words `[lo, hi)` of its activation, from its
/// lowest word up to its return address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Band {
    /// The frame's index.
    pub frame: usize,
    /// The lowest offset.
    pub lo: u32,
    /// The offset just above.
    pub hi: u32,
    /// A far frame.
    pub far: bool,
    /// A fault dispatch frame (walk/dispatch.rs).
    pub virtual_frame: bool,
}

/// One arrow of the BP chain: into frame `to_frame`'s BP at `to`, from
/// the live BP register (`from` None, frame 0) or from the saved BP at
/// `from` (frame `to_frame - 1`'s BP).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arrow {
    /// The frame the arrow points at.
    pub to_frame: usize,
    /// Where it starts: a saved BP's offset, or None for the BP register.
    pub from: Option<u16>,
    /// The offset it points at.
    pub to: u16,
}

/// A frame of the walk, named.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    /// The frame's index in the walk.
    pub index: usize,
    /// The STACKTRACEENTRY.
    pub entry: StackTraceEntry,
    /// A far frame.
    pub far: bool,
    /// A fault dispatch frame the walk saw through.
    pub virtual_frame: bool,
    /// Where its CS:IP is (module, segment, symbol).
    pub place: Place,
    /// How its CS becomes a linear address.
    pub code: Translation,
    /// Its SS is the drawn stack segment.
    pub on_stack: bool,
}

impl Frame {
    /// `CS:IP` in hex.
    pub fn csip(&self) -> String {
        format!("{:04X}:{:04X}", self.entry.w_cs, self.entry.w_ip)
    }
    /// `far`, `near`, or `virtual` for a dispatch frame.
    pub fn kind(&self) -> &'static str {
        if self.virtual_frame {
            "virtual"
        } else if self.far {
            "far"
        } else {
            "near"
        }
    }
    /// The linear address of CS:IP.
    pub fn linear(&self) -> Option<u32> {
        self.code.linear(u32::from(self.entry.w_ip))
    }
}

/// The whole picture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Picture {
    /// What is shown: the program and the stop.
    pub title: String,
    /// Real or protected mode.
    pub mode: CpuMode,
    /// The registers at the stop.
    pub regs: Regs,
    /// The stack segment drawn (frame 0's SS, else the live SS).
    pub ss: u16,
    /// SS:SP's translation to a linear address.
    pub stack: Translation,
    /// The stack bounds from the instance data.
    pub bounds: Bounds,
    /// Highest offset first: the order they are drawn in, the stack
    /// growing down the page.
    pub rows: Vec<Row>,
    /// A band per frame.
    pub bands: Vec<Band>,
    /// The BP chain's arrows.
    pub arrows: Vec<Arrow>,
    /// The walk's frames.
    pub frames: Vec<Frame>,
    /// Why the walk ended (the StopReason sentence).
    pub walk_end: String,
    /// Said when rows were left out past [`Limits::max_rows`].
    pub truncated: Option<String>,
}

/// What a picture is built from.
pub struct Input<'a> {
    /// The memory walked.
    pub mem: &'a dyn WalkMemory,
    /// What names modules and code.
    pub names: &'a dyn Namer,
    /// The walk drawn.
    pub walk: &'a Walk,
    /// The registers the walk started from.
    pub regs: Regs,
    /// The picture's title.
    pub title: String,
}

/// The labels gathered for one offset.
#[derive(Default)]
struct Label {
    kind: Option<WordKind>,
    notes: Vec<String>,
}

impl Label {
    /// Add a note; the kind is the strongest said of the word (a near
    /// frame's [BP+4] can be its caller's saved BP).
    fn set(&mut self, kind: WordKind, note: String) {
        let rank = |k: WordKind| match k {
            WordKind::SavedBp => 6,
            WordKind::ReturnIp => 5,
            WordKind::ReturnCs => 4,
            WordKind::Fault => 3,
            WordKind::Argument => 2,
            WordKind::Other => 1,
            WordKind::Local => 0,
        };
        if self.kind.is_none_or(|k| rank(kind) > rank(k)) {
            self.kind = Some(kind);
        }
        self.notes.push(note);
    }
}

/// Build the picture of `input` within `limits`. Reads memory only
/// through [`WalkMemory`]; any content gives a picture.
pub fn build(input: &Input, limits: Limits) -> Picture {
    let mem = input.mem;
    let walk = input.walk;
    let regs = input.regs;
    let ss = walk.frames.first().map_or(regs.ss, |f| f.w_ss);
    // SP belongs to the live SS: shown only when that is the stack drawn.
    let sp = (ss == regs.ss).then_some(u32::from(regs.sp));
    let stack = Translation::of(mem, ss);
    let bounds = read_bounds(mem, ss);
    let frames: Vec<Frame> = walk
        .frames
        .iter()
        .enumerate()
        .map(|(i, f)| Frame {
            index: i,
            entry: *f,
            far: f.w_flags != StackTraceEntry::FRAME_NEAR,
            virtual_frame: walk.virtual_frames.contains(&i),
            place: Place::of(mem, input.names, f, walk.exact_at(i)),
            code: Translation::of(mem, f.w_cs),
            on_stack: f.w_ss == ss,
        })
        .collect();

    // The labels, bands and arrows, frame by frame.
    let mut labels: BTreeMap<u32, Label> = BTreeMap::new();
    let mut bands = Vec::new();
    let mut arrows = Vec::new();
    let mut keys: BTreeSet<u32> = sp.into_iter().collect();
    let mut lo = sp.unwrap_or(u32::MAX);
    let mut prev_bp: Option<u16> = None;
    for (i, f) in frames.iter().enumerate() {
        if !f.on_stack {
            prev_bp = None;
            continue;
        }
        if i == 0 && matches!(walk.stop, StopReason::NoChain) {
            // Real mode with BP = 0: no chain (walk/toolhelp.rs, "Real
            // mode"). The words at SS:0000 are no frame's; the frame is
            // the words from SP, and nothing is known of its extent.
            if let Some(sp) = sp {
                bands.push(Band {
                    frame: 0,
                    lo: sp,
                    hi: sp + 2,
                    far: f.far,
                    virtual_frame: false,
                });
                labels.entry(sp).or_default().set(
                    WordKind::Other,
                    "frame 0: BP is 0 in real mode, so there is no frame chain to follow"
                        .to_string(),
                );
                lo = sp + 2;
            }
            continue;
        }
        let bp = f.entry.w_bp;
        let b = u32::from(bp);
        // From the BP register into frame 0, from the saved BP below into
        // the others (none when that frame is on another stack).
        if i == 0 || prev_bp.is_some() {
            arrows.push(Arrow {
                to_frame: i,
                from: prev_bp,
                to: bp,
            });
        }
        prev_bp = Some(bp);
        for k in [b, b + 2, b + 4] {
            if k <= 0xFFFE {
                keys.insert(k);
            }
        }
        let next = frames.get(i + 1).filter(|n| n.on_stack);
        // A dispatch frame's caller is found through the fault frame, not
        // through the words at its BP (walk/dispatch.rs).
        let through_fault = f.virtual_frame;
        let value = |off: u32| {
            u16::try_from(off)
                .ok()
                .and_then(|o| mem.read_u16(ss, o).ok())
        };
        let hex = |v: Option<u16>| v.map_or_else(|| "????".to_string(), |v| format!("{v:04X}"));
        match next {
            Some(n) if !through_fault => {
                let odd = value(b).is_some_and(|v| v & 1 != 0);
                labels.entry(b).or_default().set(
                    WordKind::SavedBp,
                    format!(
                        "frame {i}: saved BP {}{} → frame {}'s BP {:04X}",
                        hex(value(b)),
                        if odd { " (odd: far marker)" } else { "" },
                        i + 1,
                        n.entry.w_bp
                    ),
                );
                labels.entry(b + 2).or_default().set(
                    WordKind::ReturnIp,
                    format!(
                        "frame {i}: return IP {:04X} → frame {}: {} = {}",
                        n.entry.w_ip,
                        i + 1,
                        n.csip(),
                        n.place.full()
                    ),
                );
                if n.far {
                    let base = n
                        .code
                        .base()
                        .map(|x| format!(", base {}", n.code.fmt_linear(x)))
                        .unwrap_or_default();
                    labels.entry(b + 4).or_default().set(
                        WordKind::ReturnCs,
                        format!(
                            "frame {i}: return CS {:04X} (far frame{base})",
                            n.entry.w_cs
                        ),
                    );
                } else {
                    labels.entry(b + 4).or_default().set(
                        WordKind::Argument,
                        format!(
                            "[BP+4] {}: not a return CS (near frame: CS stays {:04X})",
                            hex(value(b + 4)),
                            n.entry.w_cs
                        ),
                    );
                }
            }
            Some(n) => {
                labels.entry(b).or_default().set(
                    WordKind::SavedBp,
                    format!(
                        "frame {i}: the BP at the fault; frame {} goes on from it",
                        i + 1
                    ),
                );
                // The fault frame: TOOLHELP's words after the callback's
                // return address (toolhelp.md, "InterruptRegister
                // callbacks: the fault frame").
                if let Some(p) = i.checked_sub(1).and_then(|k| frames.get(k)) {
                    let at = u32::from(p.entry.w_bp) + 2;
                    for (rel, what) in [
                        (0x04, "AX (the DS to load)".to_string()),
                        (0x06, "interrupt number".to_string()),
                        (0x08, "TOOLHELP's handle".to_string()),
                        (
                            0x0A,
                            format!("faulting IP → frame {}: {}", i + 1, n.place.full()),
                        ),
                        (0x0C, "faulting CS".to_string()),
                        (0x0E, "FLAGS at the fault".to_string()),
                    ] {
                        let k = at + rel;
                        if k <= 0xFFFE {
                            keys.insert(k);
                            labels
                                .entry(k)
                                .or_default()
                                .set(WordKind::Fault, format!("fault frame +{rel:02X}: {what}"));
                        }
                    }
                }
            }
            None => {
                labels.entry(b).or_default().set(
                    WordKind::SavedBp,
                    format!("frame {i}: saved BP {}: the walk ended here", hex(value(b))),
                );
                for (k, what) in [(b + 2, "[BP+2]"), (b + 4, "[BP+4]")] {
                    labels
                        .entry(k)
                        .or_default()
                        .set(WordKind::Other, format!("{what}: not followed"));
                }
            }
        }
        // The band: from the word above the previous band to this frame's
        // return address (or its saved BP when the walk ends here).
        let top = match next {
            Some(_) if through_fault => b,
            Some(n) if n.far => b + 6,
            Some(_) => b + 4,
            None => b + 2,
        };
        let band_lo = if lo > b { b } else { lo };
        let band_hi = top.max(band_lo);
        bands.push(Band {
            frame: i,
            lo: band_lo,
            hi: band_hi,
            far: f.far,
            virtual_frame: f.virtual_frame,
        });
        lo = band_hi;
    }

    // Where the column ends: up to pStackBot when it is near.
    let top_key = keys.iter().next_back().copied().unwrap_or(0);
    let end = bounds
        .bot
        .filter(|&bot| bot >= 2 && bot > top_key && bot - top_key <= limits.gap)
        .map(|bot| bot - 2);
    if let Some(e) = end {
        keys.insert(e);
    }

    // The offsets shown: runs of words between keys no further apart than
    // the gap, each run every word from its first key.
    let mut shown: BTreeSet<u32> = BTreeSet::new();
    let mut run: Option<(u32, u32)> = None;
    let mut runs = Vec::new();
    for &k in &keys {
        run = match run {
            Some((s, e)) if k <= e + limits.gap => Some((s, e.max(k))),
            Some(r) => {
                runs.push(r);
                Some((k, k))
            }
            None => Some((k, k)),
        };
    }
    runs.extend(run);
    for &(s, e) in &runs {
        let mut o = s;
        while o <= e && o <= 0xFFFE {
            shown.insert(o);
            o += 2;
        }
    }
    shown.extend(keys.iter().copied().filter(|&k| k <= 0xFFFE));
    let mut truncated = None;
    if shown.len() > limits.max_rows {
        let kept: BTreeSet<u32> = shown.iter().copied().take(limits.max_rows).collect();
        let last = kept.iter().next_back().copied().unwrap_or(0);
        truncated = Some(format!(
            "{} more word(s) above {last:04X} are not drawn (at most {} rows)",
            shown.len() - kept.len(),
            limits.max_rows
        ));
        shown = kept;
    }

    // The words, lowest first, then turned for drawing.
    let band_of = |off: u32| {
        bands
            .iter()
            .rev()
            .find(|b| (b.lo..b.hi).contains(&off))
            .map(|b| b.frame)
    };
    let mut rows = Vec::new();
    let mut prev: Option<u32> = None;
    for &off in &shown {
        if let Some(p) = prev {
            if off > p + 2 {
                rows.push(Row::Gap { lo: p + 2, hi: off });
            }
        }
        prev = Some(off);
        let o = off as u16;
        let frame = band_of(off);
        let (kind, note) = match labels.remove(&off) {
            Some(l) => (l.kind.unwrap_or(WordKind::Other), l.notes.join("; ")),
            None => match frame {
                Some(i) => {
                    let below_bp = frames.get(i).is_some_and(|f| off < u32::from(f.entry.w_bp));
                    if below_bp && i > 0 {
                        (
                            WordKind::Argument,
                            format!("argument to frame {}, or a local of frame {i}", i - 1),
                        )
                    } else {
                        (
                            WordKind::Local,
                            format!("frame {i}: local, saved register or outgoing argument"),
                        )
                    }
                }
                None => (WordKind::Other, String::new()),
            },
        };
        rows.push(Row::Word(Word {
            off: o,
            value: mem.read_u16(ss, o).ok(),
            linear: stack.linear(off),
            kind,
            frame,
            note,
            sp: Some(off) == sp,
            bp: ss == regs.ss && o == regs.bp,
        }));
    }
    if let (Some(p), Some(bot)) = (prev, bounds.bot) {
        if truncated.is_none() && bot > p + 2 {
            rows.push(Row::Gap { lo: p + 2, hi: bot });
        }
    }
    rows.reverse();
    Picture {
        title: input.title.clone(),
        mode: mem.mode(),
        regs,
        ss,
        stack,
        bounds,
        rows,
        bands,
        arrows,
        frames,
        walk_end: walk.stop.to_string(),
        truncated,
    }
}

/// The bounds of stack segment `ss`: the walk's `[pStackTop, pStackBot)`
/// ([`stack_bounds`]), pStackMin from [SS:0C] in protected mode, and the
/// segment's limit.
pub fn read_bounds(mem: &dyn WalkMemory, ss: u16) -> Bounds {
    let b = stack_bounds(mem, ss);
    Bounds {
        top: b.map(|b| b.0),
        bot: b.map(|b| b.1),
        min: match mem.mode() {
            CpuMode::Real => None,
            CpuMode::Protected => mem.read_u16(ss, 0x0C).ok(),
        },
        limit: match mem.mode() {
            CpuMode::Real => Some(0xFFFF),
            CpuMode::Protected => mem.descriptor(ss).map(|d| d.limit),
        },
    }
}

impl Picture {
    /// The shown words.
    pub fn words(&self) -> impl Iterator<Item = &Word> {
        self.rows.iter().filter_map(|r| match r {
            Row::Word(w) => Some(w),
            Row::Gap { .. } => None,
        })
    }

    /// The translation of SS:SP, step by step.
    pub fn stack_steps(&self) -> Vec<String> {
        self.stack.steps("SS", self.regs.sp, "SP")
    }

    /// The bounds as one sentence.
    pub fn bounds_text(&self) -> String {
        let b = &self.bounds;
        let h = |v: Option<u32>| v.map_or_else(|| "unreadable".to_string(), |v| format!("{v:04X}"));
        match self.mode {
            CpuMode::Real => format!(
                "real mode: no instance data, so the walk trusts the whole segment: pStackTop {}, pStackBot {} (limit {})",
                h(b.top),
                h(b.bot),
                h(b.limit)
            ),
            CpuMode::Protected => format!(
                "instance data of SS {:04X}: pStackTop {} ([SS:0A], the lowest usable offset), pStackMin {} ([SS:0C], the lowest SP seen), pStackBot {} ([SS:0E], where the stack started); limit {}; the walk trusts a frame only inside [pStackTop, pStackBot)",
                self.ss,
                h(b.top),
                h(b.min.map(u32::from)),
                h(b.bot),
                h(b.limit)
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::NoNames;
    use crate::walk::{StackCursor, TestMemory, walk_from_csip};

    const SS: u16 = 0x1017;
    const CS1: u16 = 0x1027;
    const CS2: u16 = 0x102F;

    fn machine() -> TestMemory {
        TestMemory::protected()
            .with_segment(SS, 0x1_0000, vec![0; 0x1000], 0xFFF, Descriptor::DATA_R3)
            .with_segment(CS1, 0x2_0000, vec![0x90; 0x800], 0x7FF, Descriptor::CODE_R3)
            .with_segment(CS2, 0x2_1000, vec![0x90; 0x400], 0x3FF, Descriptor::CODE_R3)
            .with_instance_data(SS, 0x200, 0xFF0)
    }

    fn regs(sp: u16, bp: u16) -> Regs {
        Regs {
            ss: SS,
            sp,
            bp,
            cs: CS1,
            ip: 0x500,
            ..Regs::default()
        }
    }

    #[test]
    fn a_near_and_far_chain_gets_bands_arrows_and_labels() {
        let mut m = machine();
        let mut cur = StackCursor::new(SS, 0xFF0);
        let a = m.push_near_frame(&mut cur, 0x0011);
        m.push_locals(&mut cur, 2);
        let b = m.push_far_frame(&mut cur, CS2, 0x0122, true);
        let c = m.push_near_frame(&mut cur, 0x0233);
        m.push_locals(&mut cur, 6);
        let sp = cur.sp;
        let w = walk_from_csip(&m, SS, CS1, 0x500, c, 100);
        assert_eq!(w.frames.len(), 3);
        let pic = build(
            &Input {
                mem: &m,
                names: &NoNames,
                walk: &w,
                regs: regs(sp, c),
                title: "t".into(),
            },
            Limits::PAGE,
        );
        assert_eq!(pic.bands.len(), 3);
        assert_eq!(pic.arrows.len(), 3);
        assert_eq!(pic.arrows[0].from, None);
        assert_eq!((pic.arrows[1].from, pic.arrows[1].to), (Some(c), b));
        assert_eq!((pic.arrows[2].from, pic.arrows[2].to), (Some(b), a));
        let word = |off: u16| pic.words().find(|w| w.off == off).unwrap().clone();
        assert_eq!(word(c).kind, WordKind::SavedBp);
        assert!(word(c).bp);
        assert_eq!(word(c + 2).kind, WordKind::ReturnIp);
        assert!(
            word(c + 2).note.contains("1027:0233"),
            "{}",
            word(c + 2).note
        );
        // c's [BP+4] is b's saved BP: the saved BP wins.
        assert_eq!(c + 4, b);
        assert_eq!(word(b).kind, WordKind::SavedBp);
        assert!(word(b).note.contains("odd: far marker"));
        assert_eq!(word(b + 4).kind, WordKind::ReturnCs);
        assert!(word(b + 2).note.contains("102F:0122"));
        assert!(word(sp).sp);
        // The rows run from the last frame's [BP+4] (the last word the walk
        // read, here at pStackBot) down to SP, highest first.
        let offs: Vec<u16> = pic.words().map(|w| w.off).collect();
        assert_eq!(offs.first(), Some(&(a + 4)));
        assert_eq!(a + 4, 0xFF0);
        assert_eq!(offs.last(), Some(&sp));
        assert!(offs.windows(2).all(|p| p[0] == p[1] + 2));
        assert_eq!(pic.bounds.top, Some(0x200));
        assert_eq!(pic.bounds.bot, Some(0xFF0));
        let steps = pic.stack_steps();
        assert!(
            steps[0].contains("index 0202, table LDT (TI = 1), RPL 3"),
            "{steps:?}"
        );
        assert!(steps[1].contains("base 00010000"), "{steps:?}");
    }

    #[test]
    fn far_apart_words_get_a_gap_and_rows_are_capped() {
        let mut m = machine();
        // Frame 0 at SP, its caller's frame 0x600 bytes higher.
        m.write_u16(SS, 0x300, 0x900);
        m.write_u16(SS, 0x302, 0x0044);
        let w = walk_from_csip(&m, SS, CS1, 0x500, 0x300, 100);
        assert_eq!(w.frames.len(), 2);
        let input = Input {
            mem: &m,
            names: &NoNames,
            walk: &w,
            regs: regs(0x2F0, 0x300),
            title: "t".into(),
        };
        let pic = build(&input, Limits::PAGE);
        let gaps: Vec<(u32, u32)> = pic
            .rows
            .iter()
            .filter_map(|r| match r {
                Row::Gap { lo, hi } => Some((*lo, *hi)),
                Row::Word(_) => None,
            })
            .collect();
        assert_eq!(gaps, vec![(0x906, 0xFF0), (0x306, 0x900)]);
        assert!(pic.truncated.is_none());
        let small = build(
            &input,
            Limits {
                max_rows: 8,
                gap: 16,
            },
        );
        let offs: Vec<u16> = small.words().map(|w| w.off).collect();
        assert_eq!(
            offs,
            (0..8).rev().map(|k| 0x2F0 + 2 * k).collect::<Vec<u16>>()
        );
        assert!(small.truncated.is_some());
    }

    #[test]
    fn real_mode_translates_by_sixteen() {
        let m = TestMemory::real();
        let w = walk_from_csip(&m, 0x2000, 0x1000, 0, 0xFFF0, 10);
        let pic = build(
            &Input {
                mem: &m,
                names: &NoNames,
                walk: &w,
                regs: Regs {
                    ss: 0x2000,
                    sp: 0xFFE0,
                    bp: 0xFFF0,
                    ..Regs::default()
                },
                title: "t".into(),
            },
            Limits::PAGE,
        );
        let steps = pic.stack_steps();
        assert!(steps[1].contains("2000 × 16 = 20000"), "{steps:?}");
        assert!(steps[2].contains("20000 + FFE0 = 2FFE0"), "{steps:?}");
        assert_eq!(pic.bounds.bot, Some(0x1_0000));
        assert!(pic.words().any(|w| w.off == 0xFFFE));
    }

    mod props {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #[test]
            fn any_stack_gives_a_picture(
                words in proptest::collection::vec(any::<u16>(), 0..512),
                sp in any::<u16>(),
                bp in any::<u16>(),
                top in any::<u16>(),
                bot in any::<u16>(),
                real in any::<bool>(),
            ) {
                let (mut m, ss) = if real {
                    (TestMemory::real(), 0x2000u16)
                } else {
                    (machine(), SS)
                };
                let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
                m.write_bytes(ss, sp & 0xF000, &bytes);
                if !real {
                    m.set_instance_data(ss, top, bot);
                }
                let mut rules = Vec::new();
                let w = crate::walk::walk_from_csip_narrated(&m, ss, CS1, 0, bp, 64, &mut rules);
                let told = crate::report::explain::Explained {
                    walk: w.clone(),
                    rules,
                    note: None,
                };
                let lines = crate::report::explain::lines(&m, &NoNames, &told);
                let frames = lines.iter().filter(|l| l.text.starts_with("frame ")).count();
                prop_assert_eq!(frames, w.frames.len());
                let pic = build(
                    &Input {
                        mem: &m,
                        names: &NoNames,
                        walk: &w,
                        regs: Regs { ss, sp, bp, cs: CS1, ..Regs::default() },
                        title: "<&>".into(),
                    },
                    Limits::PAGE,
                );
                prop_assert!(pic.words().count() <= Limits::PAGE.max_rows);
                prop_assert_eq!(pic.frames.len(), w.frames.len());
                let svg = crate::report::svg::render(&pic);
                prop_assert!(roxmltree::Document::parse(&svg).is_ok());
                let page = crate::report::html::page(&pic, &svg, &lines);
                let opts = roxmltree::ParsingOptions { allow_dtd: true, ..Default::default() };
                prop_assert!(roxmltree::Document::parse_with_options(&page, opts).is_ok());
            }
        }
    }
}
