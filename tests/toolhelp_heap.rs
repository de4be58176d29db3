//! TOOLHELP's heap walks as a heap walker of the time uses them:
//! tests/watcom/heapwalk.c (Open Watcom, small model, linked with
//! toolhelp.lib) allocates local blocks, walks its own local heap with
//! LocalInfo/LocalFirst/LocalNext and the global heap with GlobalInfo,
//! GlobalFirst/GlobalNext, GlobalEntryHandle and GlobalEntryModule, and
//! prints what it found beside what LocalAlloc, LocalLock, LocalSize and
//! LocalFlags told it. The expected values are TOOLHELP.H's constants
//! (LF_FIXED 1, LF_FREE 2, LF_MOVEABLE 4, LT_NORMAL 0, LT_FREE FFh,
//! NORMAL_HEAP 0, GT_DGROUP 1, GT_CODE 3, GT_UNKNOWN 0, GT_TASK 4,
//! GT_MODULE 6, GT_FREE 7, GT_SENTINEL 9, GF_PDB_OWNER 0100h) and the
//! Windows 3.1 SDK's pages (LOCALENTRY, LocalFirst, LocalInfo, "Walking
//! the Local Heap", GLOBALENTRY, GLOBALINFO, GlobalFirst,
//! GlobalEntryHandle, GlobalEntryModule). `toolhelp16 heap`, stopped
//! inside the program after its walk, must list the same blocks.

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

/// A block the program allocated: kind, handle, address, size, flags.
#[derive(Debug)]
struct Mine {
    kind: String,
    handle: u16,
    address: u16,
    size: u16,
    flags: u16,
}

fn hex(s: &str) -> u16 {
    u16::from_str_radix(s, 16).unwrap()
}

fn dec(s: &str) -> u16 {
    s.parse().unwrap()
}

struct Output {
    lines: Vec<String>,
    mine: Vec<Mine>,
    entries: Vec<Entry>,
    heap: u16,
}

fn parse(text: &str) -> Output {
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut o = Output {
        lines: lines.clone(),
        mine: Vec::new(),
        entries: Vec::new(),
        heap: 0,
    };
    for l in &lines {
        let w: Vec<&str> = l.split_whitespace().collect();
        match w.as_slice() {
            ["mine", kind, h, a, s, f] => o.mine.push(Mine {
                kind: kind.to_string(),
                handle: hex(h),
                address: hex(a),
                size: dec(s),
                flags: hex(f),
            }),
            ["heap", h] => o.heap = hex(h),
            ["entry", h, a, s, f, l, t, hh, ht, n] => o.entries.push(Entry {
                h_handle: hex(h),
                w_address: hex(a),
                w_size: dec(s),
                w_flags: dec(f),
                wc_lock: dec(l),
                w_type: dec(t),
                h_heap: hex(hh),
                w_heap_type: dec(ht),
                w_next: hex(n),
            }),
            _ => {}
        }
    }
    o
}

fn line<'a>(o: &'a Output, key: &str) -> &'a str {
    o.lines
        .iter()
        .find(|l| l.split_whitespace().next() == Some(key))
        .unwrap_or_else(|| panic!("no {key} line in {:#?}", o.lines))
}

fn build() -> Option<std::path::PathBuf> {
    watcom::toolhelp_client("heapwalk")
}

fn run_program(exe: &std::path::Path) -> Output {
    let out = bin().args(["run", "--json"]).arg(exe).output().unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(v["exit"]["code"], 0, "{v}");
    parse(v["output"].as_str().unwrap())
}

#[test]
fn a_heap_walker_finds_its_own_blocks_as_toolhelp_reported_them() {
    let Some(exe) = build() else {
        return;
    };
    let o = run_program(&exe);
    assert_eq!(o.mine.len(), 4, "{:#?}", o.lines);
    // LocalInfo succeeds and counts exactly the entries the walk yields
    // (SDK, "Walking the Local Heap": the count to make room for).
    let walked = o.entries.len();
    assert_eq!(line(&o, "info"), format!("info 1 {walked}"));
    assert_eq!(line(&o, "walked"), format!("walked {walked}"));
    // LocalNext after the last entry fails.
    assert_eq!(line(&o, "after"), "after 0");
    // Every entry: this heap, a normal heap (NORMAL_HEAP 0); the walk
    // climbs through the segment and its last wNext is 0.
    for e in &o.entries {
        assert_eq!((e.h_heap, e.w_heap_type), (o.heap, 0), "{e:?}");
        assert!(matches!(e.w_flags, 1 | 2 | 4), "{e:?}");
        let free = e.w_flags == 2;
        assert_eq!(e.w_type, if free { 0xFF } else { 0 }, "{e:?}");
    }
    for pair in o.entries.windows(2) {
        assert!(pair[0].w_next > pair[0].w_address.saturating_sub(6));
        assert!(pair[1].w_address > pair[0].w_address, "{pair:?}");
        assert!(pair[0].w_next != 0);
        // Each block ends where the next arena starts.
        if pair[0].w_flags != 2 {
            assert_eq!(pair[0].w_address + pair[0].w_size, pair[0].w_next);
        }
    }
    assert_eq!(o.entries.last().unwrap().w_next, 0);
    // Each block the program holds, as LocalAlloc/LocalLock/LocalSize/
    // LocalFlags told it: the handle, the data's address, the size, fixed
    // or moveable (LF_FIXED 1, LF_MOVEABLE 4), the lock count (LocalFlags'
    // low byte), LT_NORMAL.
    for m in o.mine.iter().filter(|m| m.kind != "freed") {
        let e = o
            .entries
            .iter()
            .find(|e| e.h_handle == m.handle && e.w_flags != 2)
            .unwrap_or_else(|| panic!("{m:?} not in the walk {:#?}", o.entries));
        let want_flags = if m.kind == "fixed" { 1 } else { 4 };
        assert_eq!(
            (e.w_address, e.w_size, e.w_flags, e.wc_lock, e.w_type),
            (m.address, m.size, want_flags, m.flags & 0xFF, 0),
            "{m:?}"
        );
        if m.kind == "fixed" {
            assert_eq!(m.handle, m.address, "a fixed block's handle is its address");
        } else {
            assert_ne!(m.handle, m.address);
        }
    }
    let locked = o.mine.iter().find(|m| m.kind == "locked").unwrap();
    assert_eq!(locked.flags, 1, "locked once");
    let discard = o.mine.iter().find(|m| m.kind == "discard").unwrap();
    assert_eq!(discard.flags, 0x0F00, "LMEM_DISCARDABLE, unlocked");
    // The freed block is gone: a free entry (LF_FREE, LT_FREE) covers its
    // bytes, and no block in use has its handle.
    let freed = o.mine.iter().find(|m| m.kind == "freed").unwrap();
    assert!(
        !o.entries
            .iter()
            .any(|e| e.h_handle == freed.handle && e.w_flags != 2)
    );
    assert!(
        o.entries.iter().any(|e| e.w_flags == 2
            && e.w_type == 0xFF
            && e.w_address <= freed.address
            && freed.address + freed.size <= e.w_address + e.w_size),
        "{freed:?} in {:#?}",
        o.entries
    );
    // TOOLHELP's failures: a wrong dwSize, hHeap 0, a block with no heap,
    // LocalInfo's dwSize off by one.
    assert_eq!(line(&o, "errors"), "errors 0 0 0 0");
    // The global heap: GlobalInfo's counts are what the walks give.
    let g: Vec<u32> = line(&o, "global")
        .split_whitespace()
        .skip(1)
        .map(|x| x.parse().unwrap())
        .collect();
    assert_eq!(g[0], g[1], "wcItems = GLOBAL_ALL walk");
    assert_eq!(g[2], g[3], "wcItemsLRU = GLOBAL_LRU walk");
    assert!(g[0] > 4);
    // DGROUP: GT_DGROUP, a local heap present, owned by the module, its
    // size GlobalSize's, wData its segment number (the small model's
    // DGROUP is the NE file's second segment).
    assert_eq!(line(&o, "dgroup"), "dgroup 1 1 1 1 1 2");
    // The module's segment 1: GT_CODE, wData 1; no segment 99.
    assert_eq!(line(&o, "code"), "code 1 3 1 1");
    assert_eq!(line(&o, "noseg"), "noseg 0");
    // A GlobalAlloc'd block: GT_UNKNOWN, no local heap, GlobalSize bytes.
    assert_eq!(line(&o, "private"), "private 1 0 0 1");
    // A GMEM_DISCARDABLE block is on the LRU list (SDK, GlobalFirst:
    // GLOBAL_LRU walks the discardable blocks); wcItemsLRU counts it.
    assert_eq!(line(&o, "lru"), "lru 1");
    assert!(g[2] >= 1);
    // MemManInfo agrees with GlobalCompact and GetFreeSpace; 4 KiB pages.
    assert_eq!(line(&o, "memman"), "memman 1 1 1 4096");
    // A block just freed is a free arena (GT_FREE 7, hBlock 0, hOwner 0)
    // on the GLOBAL_FREE walk, which wcItemsFree counts (SDK, GlobalFirst,
    // GLOBALINFO).
    let f: Vec<u32> = line(&o, "freed")
        .split_whitespace()
        .skip(1)
        .map(|x| x.parse().unwrap())
        .collect();
    assert_eq!(f[0], 1, "the freed block is a free arena");
    assert_eq!(f[1], f[2], "wcItemsFree = GLOBAL_FREE walk");
    // The GLOBAL_ALL walk runs from sentinel to sentinel (GT_SENTINEL 9,
    // no bytes), as KRNL386 chained its arenas.
    assert_eq!(line(&o, "ends"), "ends 9 0 9 0");
    // GlobalEntryHandle: the TDB is GT_TASK (4), the module database
    // GT_MODULE (6), the PSP a private block (0) owned by a PDB
    // (GF_PDB_OWNER 0100h) (SDK, GLOBALENTRY).
    assert_eq!(line(&o, "kinds"), "kinds 4 6 0 0100");
    // Every documented failure answers FALSE: an unknown wFlags, a wrong
    // dwSize (GlobalFirst, GlobalInfo), handle 0, a freed handle, a
    // discarded block (no arena), hModule 0, segment 0, GlobalNext past
    // the last item.
    assert_eq!(line(&o, "gerrors"), "gerrors 0 0 0 0 0 0 0 0 0");
    // HEAPWALK's list: GlobalEntryHandle agrees with the walk on every
    // item with a handle; only free arenas and sentinels have none; the
    // walk and wcItems agree; the ends are sentinels.
    let items = walk_items(&o);
    assert!(items.len() > 4);
    for g in &items {
        let handleless = g.w_type == 7 || g.w_type == 9;
        assert_eq!(g.same == "-", handleless, "{g:?}");
        if !handleless {
            assert_eq!(g.same, "1", "{g:?}");
        } else {
            assert_eq!(g.h_block, 0, "{g:?}");
        }
        if g.w_type == 7 {
            assert_eq!(g.h_owner, 0, "{g:?}");
        }
    }
    assert_eq!((items[0].w_type, items[0].dw_block_size), (9, 0));
    let last = items.last().unwrap();
    assert_eq!((last.w_type, last.dw_block_size), (9, 0));
    for pair in items.windows(2) {
        assert!(pair[0].dw_address <= pair[1].dw_address, "{pair:?}");
    }
    assert!(
        items.iter().any(|g| g.w_type == 7),
        "a free arena is listed"
    );
    assert_eq!(
        line(&o, "gend"),
        format!("gend {} {}", items.len(), items.len())
    );
    assert_eq!(line(&o, "dg"), format!("dg {:04X} 1 {walked}", o.heap));
    assert_eq!(o.lines.last().map(String::as_str), Some("done"));
}

/// A `g` line: one item of the program's last GLOBAL_ALL walk.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Item {
    dw_address: u32,
    dw_block_size: u32,
    h_block: u16,
    wc_lock: u16,
    wc_page_lock: u16,
    w_flags: u16,
    w_heap_present: u16,
    h_owner: u16,
    w_type: u16,
    w_data: u16,
    same: String,
}

fn walk_items(o: &Output) -> Vec<Item> {
    o.lines
        .iter()
        .filter_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            match w.as_slice() {
                ["g", a, s, h, l, pl, f, hp, ow, t, d, same] => Some(Item {
                    dw_address: u32::from_str_radix(a, 16).unwrap(),
                    dw_block_size: u32::from_str_radix(s, 16).unwrap(),
                    h_block: hex(h),
                    wc_lock: dec(l),
                    wc_page_lock: dec(pl),
                    w_flags: hex(f),
                    w_heap_present: dec(hp),
                    h_owner: hex(ow),
                    w_type: dec(t),
                    w_data: dec(d),
                    same: same.to_string(),
                }),
                _ => None,
            }
        })
        .collect()
}

#[test]
fn toolhelp16_heap_lists_the_blocks_the_program_walked() {
    let Some(exe) = build() else {
        return;
    };
    let o = run_program(&exe);
    let heap = |more: &[&str]| {
        let out = bin()
            .args(["heap", "--at", "HEAPWALK!DONE"])
            .args(more)
            .arg(&exe)
            .output()
            .unwrap();
        (out.status.code(), out)
    };
    let (code, out) = heap(&["--json", "--local", "HEAPWALK"]);
    let v = json(&out);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(v["command"], "heap");
    assert_eq!(v["reached"], true, "{v}");
    let l = &v["local"];
    assert_eq!(l["hHeap"], o.heap);
    assert_eq!(l["wHeapType"], 0);
    assert_eq!(l["wcItems"], o.entries.len());
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
            h_heap: o.heap,
            w_heap_type: 0,
            w_next: e["wNext"].as_u64().unwrap() as u16,
        })
        .collect();
    assert_eq!(listed, o.entries);
    // The global heap: exactly the items of the program's last
    // GLOBAL_ALL walk, made just before Done (sentinels and free arenas
    // included), DGROUP among them with its local heap.
    let g = v["global"].as_array().unwrap();
    let listed: Vec<Item> = g
        .iter()
        .map(|b| Item {
            dw_address: b["dwAddress"].as_u64().unwrap() as u32,
            dw_block_size: b["dwBlockSize"].as_u64().unwrap() as u32,
            h_block: b["hBlock"].as_u64().unwrap() as u16,
            wc_lock: b["wcLock"].as_u64().unwrap() as u16,
            wc_page_lock: b["wcPageLock"].as_u64().unwrap() as u16,
            w_flags: b["wFlags"].as_u64().unwrap() as u16,
            w_heap_present: u16::from(b["wHeapPresent"] == true),
            h_owner: b["hOwner"].as_u64().unwrap() as u16,
            w_type: b["wType"].as_u64().unwrap() as u16,
            w_data: b["wData"].as_u64().unwrap() as u16,
            same: String::new(),
        })
        .collect();
    let walked: Vec<Item> = walk_items(&o)
        .into_iter()
        .map(|i| Item {
            same: String::new(),
            ..i
        })
        .collect();
    assert_eq!(listed, walked);
    assert_eq!(g[0]["type"], "SENTINEL");
    assert!(g.iter().any(|b| b["type"] == "FREE" && b["owner"] == ""));
    let dg = g
        .iter()
        .find(|b| b["hBlock"] == o.heap)
        .expect("DGROUP listed");
    assert_eq!(
        (
            &dg["type"],
            &dg["wType"],
            &dg["wHeapPresent"],
            &dg["owner"],
            &dg["wData"]
        ),
        (
            &"DGROUP".into(),
            &1.into(),
            &true.into(),
            &"HEAPWALK".into(),
            &2.into()
        )
    );
    // Besides USER's data segment and its menu and string heaps (KB
    // Q90762) and GDI's data segment (its objects' heap, gdi/heap.rs), no
    // other block holds a local heap.
    assert!(
        g.iter()
            .filter(|b| b["hBlock"] != o.heap && b["owner"] != "USER" && b["owner"] != "GDI")
            .all(|b| b["wHeapPresent"] == false)
    );
    // The same heap named by its selector, in text.
    let sel = format!("{:04X}", l["selector"].as_u64().unwrap());
    let (code, out) = heap(&["--local", &sel]);
    assert_eq!(code, Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    let free = walked.iter().filter(|i| i.w_type == 7).count();
    assert!(
        text.contains(&format!(
            "global heap (GlobalFirst, GlobalNext): {} items (blocks, {free} free, 2 sentinels)",
            walked.len()
        )),
        "{text}"
    );
    for m in o.mine.iter().filter(|m| m.kind != "freed") {
        let kind = if m.kind == "fixed" {
            "FIXED"
        } else {
            "MOVEABLE"
        };
        let want = format!(
            "  {:04X}    {:04X}     {:<5}  {:<8}  {:<4}  NORMAL",
            m.handle,
            m.address,
            m.size,
            kind,
            m.flags & 0xFF
        );
        assert!(text.lines().any(|l| l == want), "{want:?} in\n{text}");
    }
    // A module with no such name and no heap there: a load error (120)
    // naming what is wrong.
    let (code, out) = heap(&["--local", "NOSUCH"]);
    assert_eq!(code, Some(120));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--local NOSUCH"), "{err}");
    assert!(err.contains("holds no local heap"), "{err}");
}
