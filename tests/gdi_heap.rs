//! GDI's heap as a TOOLHELP client of the time sees it:
//! tests/watcom/gdiheap.c (Open Watcom, small model, toolhelp.lib) reads
//! SystemHeapInfo and GetFreeSystemResources(GFSR_GDIRESOURCES), makes one
//! object of each kind, walks GDI's heap with LocalInfo/LocalFirst/
//! LocalNext, deletes what it made, then creates pens until CreatePen
//! fails. The expected values: TOOLHELP.H's constants (LF_MOVEABLE 4,
//! GDI_HEAP 2, LT_GDI_PEN 1 … LT_GDI_METADC 9); KB Q90762 and Q85285 (GDI's
//! objects live in its 64 KiB heap; when it is full, creation fails);
//! KB Q61803 (the free percentage both functions report is that heap's).
//! `toolhelp16 heap --local GDI`, stopped inside the program after its
//! walk, must list the same blocks.

mod common;
use common::watcom;
use common::{bin, json};

/// A LOCALENTRY line of the program's walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Entry {
    h_handle: u16,
    w_address: u16,
    w_size: u16,
    w_flags: u16,
    wc_lock: u16,
    w_type: u16,
    h_heap: u16,
    w_heap_type: u16,
    w_next: u16,
}

fn hex(s: &str) -> u16 {
    u16::from_str_radix(s, 16).unwrap()
}

fn dec(s: &str) -> u32 {
    s.parse().unwrap()
}

struct Output {
    lines: Vec<String>,
    objs: Vec<(String, u16)>,
    entries: Vec<Entry>,
}

fn parse(text: &str) -> Output {
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut o = Output {
        lines: lines.clone(),
        objs: Vec::new(),
        entries: Vec::new(),
    };
    for l in &lines {
        let w: Vec<&str> = l.split_whitespace().collect();
        match w.as_slice() {
            ["obj", k, h] => o.objs.push((k.to_string(), hex(h))),
            ["entry", h, a, s, f, l, t, hh, ht, n] => o.entries.push(Entry {
                h_handle: hex(h),
                w_address: hex(a),
                w_size: dec(s) as u16,
                w_flags: dec(f) as u16,
                wc_lock: dec(l) as u16,
                w_type: dec(t) as u16,
                h_heap: hex(hh),
                w_heap_type: dec(ht) as u16,
                w_next: hex(n),
            }),
            _ => {}
        }
    }
    o
}

/// The numbers after `key` on its line.
fn nums(o: &Output, key: &str) -> Vec<u32> {
    o.lines
        .iter()
        .find(|l| l.split_whitespace().next() == Some(key))
        .unwrap_or_else(|| panic!("no {key} line in {:#?}", o.lines))
        .split_whitespace()
        .skip(1)
        .map(dec)
        .collect()
}

fn build() -> Option<std::path::PathBuf> {
    watcom::toolhelp_client("gdiheap")
}

fn run_program(exe: &std::path::Path) -> Output {
    let out = bin().args(["run", "--json"]).arg(exe).output().unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(v["exit"]["code"], 0, "{v}");
    parse(v["output"].as_str().unwrap())
}

#[test]
fn gdis_objects_are_blocks_of_its_heap_and_fill_it() {
    let Some(exe) = build() else {
        return;
    };
    let o = run_program(&exe);
    // Both functions give the same figure (KB Q61803's), GDI's segment is
    // there, and a fresh session has most of the heap free.
    let start = nums(&o, "start");
    assert_eq!(start[0], start[1], "GFSR = wGDIFreePercent");
    assert_eq!(start[2], 1, "SystemHeapInfo succeeds with hGDISegment");
    assert!((90..=100).contains(&start[0]), "{start:?}");
    // The walk: LocalInfo counts what LocalFirst/LocalNext give; every
    // entry is GDI_HEAP's.
    let walked = o.entries.len() as u32;
    assert_eq!(nums(&o, "info"), [1, walked]);
    assert_eq!(nums(&o, "walked"), [walked]);
    let seg = o.entries[0].h_heap;
    assert!(
        o.entries
            .iter()
            .all(|e| e.h_heap == seg && e.w_heap_type == 2)
    );
    assert_eq!(o.entries.last().unwrap().w_next, 0);
    // Each object it made is a moveable block (LF_MOVEABLE 4), its handle
    // the block's, of its LT_GDI_ type (TOOLHELP.H).
    let types = [
        ("pen", 1),
        ("brush", 2),
        ("font", 3),
        ("rgn", 6),
        ("palette", 4),
        ("bitmap", 5),
        ("memdc", 7),
        ("metadc", 9),
    ];
    assert_eq!(o.objs.len(), types.len(), "{:#?}", o.lines);
    for ((kind, h), (want_kind, want_type)) in o.objs.iter().zip(types) {
        assert_eq!(kind, want_kind);
        assert_ne!(*h, 0, "{kind} made");
        let e = o
            .entries
            .iter()
            .find(|e| e.h_handle == *h && e.w_flags != 2)
            .unwrap_or_else(|| panic!("{kind} {h:04X} not in {:#?}", o.entries));
        assert_eq!((e.w_flags, e.w_type), (4, want_type), "{kind}");
    }
    // The 40 brushes are there too, as LT_GDI_BRUSH blocks.
    assert!(o.entries.iter().filter(|e| e.w_type == 2).count() >= 41 + 6);
    // Creating lowered the figure, deleting raised it again; the two
    // functions agree all along.
    let made = nums(&o, "made");
    let deleted = nums(&o, "deleted");
    let back = nums(&o, "back");
    for f in [&made, &deleted, &back] {
        assert_eq!(f[0], f[1], "GFSR = wGDIFreePercent");
    }
    assert!(made[0] < start[0], "{made:?} < {start:?}");
    assert!(deleted[0] > made[0], "{deleted:?} > {made:?}");
    assert!(deleted[0] + 1 >= start[0]);
    // CreatePen until it fails: it fails (Q85285: the full heap refuses
    // every creation), with the heap then all but full, and deleting the
    // pens gives the room back. Each pen is a 14-byte header and its
    // 10-byte LOGPEN in a moveable arena of 32 bytes plus a 4-byte handle
    // entry (gdi/heap.rs): the 64 KiB segment less GDI's 9 KiB of statics
    // holds some 1,500.
    let pens = nums(&o, "pens");
    assert!((1400..1650).contains(&pens[0]), "{pens:?}");
    assert!(pens[1] <= 1 && pens[1] == pens[2], "{pens:?}");
    // All of it: the handle tables made for the pens' handles go too once
    // every entry in them is free (LocalFree, src/win16/local/), so the
    // figure is what it was before the pens (within a percent's rounding).
    assert!(back[0] + 1 >= deleted[0], "{back:?} {deleted:?}");
    assert_eq!(o.lines.last().map(String::as_str), Some("done"));
}

#[test]
fn toolhelp16_heap_lists_gdis_blocks_as_the_program_walked_them() {
    let Some(exe) = build() else {
        return;
    };
    let o = run_program(&exe);
    let heap = |more: &[&str]| {
        bin()
            .args(["heap", "--at", "GDIHEAP!DONE"])
            .args(more)
            .arg(&exe)
            .output()
            .unwrap()
    };
    let out = heap(&["--json", "--local", "GDI"]);
    let v = json(&out);
    assert_eq!(out.status.code(), Some(0), "{v}");
    assert_eq!(v["reached"], true, "{v}");
    let l = &v["local"];
    assert_eq!(l["wHeapType"], 2);
    assert_eq!(l["hHeap"], o.entries[0].h_heap);
    let listed: Vec<Entry> = l["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| Entry {
            h_handle: e["hHandle"].as_u64().unwrap() as u16,
            w_address: e["wAddress"].as_u64().unwrap() as u16,
            w_size: e["wSize"].as_u64().unwrap() as u16,
            w_flags: e["wFlags"].as_u64().unwrap() as u16,
            wc_lock: e["wcLock"].as_u64().unwrap() as u16,
            w_type: e["wType"].as_u64().unwrap() as u16,
            h_heap: o.entries[0].h_heap,
            w_heap_type: 2,
            w_next: e["wNext"].as_u64().unwrap() as u16,
        })
        .collect();
    assert_eq!(listed, o.entries);
    // The types by TOOLHELP.H's names.
    let names = [
        ("pen", "GDI_PEN"),
        ("brush", "GDI_BRUSH"),
        ("font", "GDI_FONT"),
        ("rgn", "GDI_RGN"),
        ("palette", "GDI_PALETTE"),
        ("bitmap", "GDI_BITMAP"),
        ("memdc", "GDI_DC"),
        ("metadc", "GDI_METADC"),
    ];
    let entries = l["entries"].as_array().unwrap();
    for ((kind, h), (_, name)) in o.objs.iter().zip(names) {
        let e = entries
            .iter()
            .find(|e| e["hHandle"] == *h && e["wFlags"] == 4)
            .unwrap_or_else(|| panic!("{kind} {h:04X}"));
        assert_eq!(e["type"], name, "{kind}");
    }
    // In text, the same rows with the same names.
    let out = heap(&["--local", "GDI"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("(hHeap"), "{text}");
    assert!(text.contains("GDI_HEAP"), "{text}");
    let (_, pen) = &o.objs[0];
    let e = o.entries.iter().find(|e| e.h_handle == *pen).unwrap();
    let want = format!(
        "  {:04X}    {:04X}     {:<5}  {:<8}  {:<4}  GDI_PEN",
        e.h_handle, e.w_address, e.w_size, "MOVEABLE", e.wc_lock
    );
    assert!(text.lines().any(|l| l == want), "{want:?} in\n{text}");
}
