//! USER's heap as a TOOLHELP client sees it: tests/watcom/userheap.c
//! (Open Watcom, small model, linked with toolhelp.lib) asks
//! SystemHeapInfo for USER's data segment, walks its local heap with
//! LocalInfo/LocalFirst/LocalNext, finds its own window (an HWND is the
//! near address of the window's WND, a fixed block of USER's data
//! segment: Pietrek, "Windows Internals") and the window's class, compares
//! GetFreeSystemResources(GFSR_USERRESOURCES) with SYSHEAPINFO's
//! wUserFreePercent as windows come and go, calls UserSeeUserDo (USER.216)
//! and makes windows until CreateWindow fails. Expected values:
//! TOOLHELP.H (LF_FIXED 1, USER_HEAP 1, LT_USER_CLASS 1, LT_USER_WND 2,
//! LT_USER_USERSEEUSERDOALLOC 21), the SDK's SystemHeapInfo and
//! GetFreeSystemResources pages (the same percentage of USER's heap
//! free), KB Q90762 (USER's data segment, like each of its heaps, is at
//! most 64 KiB). `toolhelp16 heap --local USER`, stopped in the program,
//! must list the same blocks with their LT_USER_ types (named without
//! LT_, as its global heap names GT_ types without GT_).

mod common;
use common::watcom;
use common::{bin, json};

fn build() -> Option<std::path::PathBuf> {
    watcom::toolhelp_client("userheap")
}

fn run_program(exe: &std::path::Path) -> Vec<String> {
    let out = bin().args(["run", "--json"]).arg(exe).output().unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(v["exit"]["code"], 0, "{v}");
    v["output"]
        .as_str()
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

fn line<'a>(lines: &'a [String], key: &str) -> Vec<&'a str> {
    lines
        .iter()
        .find(|l| l.split_whitespace().next() == Some(key))
        .unwrap_or_else(|| panic!("no {key} line in {lines:#?}"))
        .split_whitespace()
        .skip(1)
        .collect()
}

#[test]
fn a_toolhelp_client_finds_its_window_and_class_in_users_heap() {
    let Some(exe) = build() else {
        return;
    };
    let o = run_program(&exe);
    // SystemHeapInfo succeeds with USER's segment; USER is mostly free
    // (a fresh USER's heap holds the desktop, its classes, the DC cache).
    let shi = line(&o, "shi");
    assert_eq!((shi[0], shi[2]), ("1", "1"), "{o:#?}");
    let pct: u32 = shi[1].parse().unwrap();
    assert!((90..=100).contains(&pct), "{o:#?}");
    // GetFreeSystemResources(GFSR_USERRESOURCES) is wUserFreePercent.
    assert_eq!(line(&o, "agree"), ["1"]);
    // LocalInfo counts what the walk lists; the heap is USER_HEAP (1).
    let info = line(&o, "info");
    assert_eq!(info[0], "1");
    assert_eq!(info[1], info[2], "wcItems = the walk's entries");
    assert_eq!(info[3], "1", "wHeapType USER_HEAP");
    // The HWND is a fixed block (LF_FIXED 1) of LT_USER_WND (2) holding
    // the WND and the 4 extra bytes.
    assert_eq!(line(&o, "wnd"), ["1", "1", "2", "1"]);
    // Its class pointer names a block of LT_USER_CLASS (1) with the
    // class's atom.
    assert_eq!(line(&o, "class"), ["1", "1", "1"]);
    // The WND's dwStyle, hInstance, lpfnWndProc and extra word are what
    // GetWindowLong/GetWindowWord give.
    assert_eq!(line(&o, "fields"), ["1", "1", "1", "1"]);
    // Windows made: the percentage falls, and both functions still agree;
    // destroyed: it comes back.
    assert_eq!(line(&o, "fall"), ["1", "1"]);
    assert_eq!(line(&o, "rise"), ["1", "1"]);
    // UserSeeUserDo: 4 the heap's selector, 1 a block of
    // LT_USER_USERSEEUSERDOALLOC (21), 2 frees it (0, as LocalFree).
    assert_eq!(line(&o, "usud"), ["1", "21", "0"]);
    // Windows until CreateWindow fails: a bare WND is 3Ch bytes and a
    // 4-byte arena (0x40: "about 0x40 bytes", Pietrek's WND of 3.1), in a
    // data segment of at most 64 KiB (Q90762) of which USER's statics,
    // the desktop, the classes and the DC cache take some: between 600
    // and 1024 windows. The heap is then (almost) full, and destroying
    // them all gives back what they took.
    let limit = line(&o, "limit");
    let n: u32 = limit[0].parse().unwrap();
    assert!((600..1024).contains(&n), "{n} windows");
    let full: u32 = limit[1].parse().unwrap();
    assert!(full <= 1, "{full}% free when full");
    assert_eq!(limit[2], "1");
    assert_eq!(o.last().map(String::as_str), Some("done"));
}

#[test]
fn toolhelp16_heap_lists_users_blocks_with_their_types() {
    let Some(exe) = build() else {
        return;
    };
    let o = run_program(&exe);
    let hw = line(&o, "hwnd");
    let hwnd = u64::from_str_radix(hw[0], 16).unwrap();
    let pcls = u64::from_str_radix(hw[1], 16).unwrap();
    let out = bin()
        .args(["heap", "--at", "USERHEAP!DONE", "--json", "--local", "USER"])
        .arg(&exe)
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(out.status.code(), Some(0), "{v}");
    let l = &v["local"];
    assert_eq!(l["wHeapType"], 1, "USER_HEAP");
    let entries = l["entries"].as_array().unwrap();
    let find = |h: u64| {
        entries
            .iter()
            .find(|e| e["hHandle"] == h && e["wFlags"] != 2)
            .unwrap_or_else(|| panic!("{h:04X} not in {entries:#?}"))
    };
    let w = find(hwnd);
    assert_eq!(w["wType"], 2);
    assert_eq!(w["type"], "USER_WND");
    assert_eq!(w["wAddress"], hwnd, "a fixed block's handle is its address");
    let c = find(pcls);
    assert_eq!(c["type"], "USER_CLASS");
    // The desktop's WND is there too, and USER's five cached DCs.
    assert!(entries.iter().filter(|e| e["type"] == "USER_DCE").count() == 5);
    // The same walk in text.
    let out = bin()
        .args(["heap", "--at", "USERHEAP!DONE", "--local", "USER"])
        .arg(&exe)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("USER_HEAP"), "{text}");
    let row = text
        .lines()
        .find(|l| l.trim_start().starts_with(&format!("{hwnd:04X} ")))
        .unwrap_or_else(|| panic!("no row for {hwnd:04X} in {text}"));
    assert!(row.ends_with("USER_WND"), "{row}");
    // USER's menu heap holds the menu (a header of 8 bytes and 12 an
    // item), its string heap the window's text and the items' texts
    // (Q90762: menus in one heap, menu and window text in another).
    assert_eq!(line(&o, "menu"), ["1"]);
    let local = |what: &str| {
        let out = bin()
            .args(["heap", "--at", "USERHEAP!DONE", "--json", "--local", what])
            .arg(&exe)
            .output()
            .unwrap();
        let v = json(&out);
        assert_eq!(out.status.code(), Some(0), "{v}");
        assert_eq!(v["local"]["wHeapType"], 1, "USER_HEAP");
        v["local"]["entries"].as_array().unwrap().clone()
    };
    let menus = local("USER.MENU");
    assert!(
        menus
            .iter()
            .any(|e| e["type"] == "USER_MENU" && e["wSize"].as_u64().unwrap() >= 8 + 2 * 12),
        "{menus:#?}"
    );
    let strings = local("USER.STRING");
    let sizes: Vec<u64> = strings
        .iter()
        .filter(|e| e["type"] == "USER_STRING")
        .map(|e| e["wSize"].as_u64().unwrap())
        .collect();
    // "uh", "&File", "&Edit" with their zeros (a block may be a little
    // larger than asked: the heap's smallest arena).
    assert!(sizes.len() >= 3, "{strings:#?}");
    assert!(sizes.iter().filter(|&&n| n >= 6).count() >= 2, "{sizes:?}");
}
