//! `toolhelp16 stack` names the local block a near pointer points into
//! (issue 29, part 6): tests/watcom/nearptr.c (Open Watcom, small model)
//! allocates a moveable block (locked once) and a fixed one from its
//! DGROUP's local heap and stops, through `--at NEARPTR!MARK`, inside
//! Look(hm, pm + 4, pf) with pf + 10 in a local. The expected blocks are
//! what LocalAlloc and LocalLock told the program: a fixed block's handle
//! is its address, a moveable one's data is LocalLock's answer and its
//! lock count 1 (Windows 3.1 SDK, LocalAlloc, LocalLock, LOCALENTRY);
//! the arguments of a far PASCAL function lie above its BP from BP+6 on,
//! the last argument first (toolhelp.md, "Prologue conventions").

mod common;
use common::watcom::{self, Kind};
use common::{bin, json};
use serde_json::Value;

fn words(output: &str, key: &str) -> Vec<u16> {
    let line = output
        .lines()
        .find(|l| l.starts_with(key))
        .unwrap_or_else(|| panic!("no {key} in {output}"));
    line.split_whitespace()
        .skip(1)
        .map(|w| u16::from_str_radix(w, 16).unwrap())
        .collect()
}

fn pointer<'a>(ptrs: &'a [Value], place: &str) -> &'a Value {
    ptrs.iter()
        .find(|p| p["place"] == place)
        .unwrap_or_else(|| panic!("no {place} in {ptrs:#?}"))
}

#[test]
fn stack_names_the_local_blocks_near_pointers_point_into() {
    let Some(exe) = watcom::build("nearptr", Kind::Win16Exe, &["nearptr.c"], None, &["-ms"]) else {
        return;
    };
    let run = bin().args(["run", "--json"]).arg(&exe).output().unwrap();
    let v = json(&run);
    let output = v["output"].as_str().unwrap().to_string();
    let b = words(&output, "blocks ");
    let (hm, pm, pf) = (b[0], b[1], b[2]);
    let mid = words(&output, "look ")[2];
    assert_eq!(mid, pf + 10);
    assert_ne!(hm, pm, "a moveable block's handle is not its address");

    let out = bin()
        .args(["stack", "--json", "--at", "NEARPTR!MARK"])
        .arg(&exe)
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["reached"], true, "{v:#}");
    let n = &v["near_pointers"];
    let ptrs = n["pointers"].as_array().unwrap();
    // Look's arguments: pf at [BP+6] (the fixed block itself), pm + 4 at
    // [BP+8] (4 bytes into the moveable block, locked once).
    let p = pointer(ptrs, "frame 0 [BP+6]");
    assert_eq!(
        (
            &p["value"],
            &p["hHandle"],
            &p["wAddress"],
            &p["flags"],
            &p["wcLock"],
            &p["offset"]
        ),
        (
            &pf.into(),
            &pf.into(),
            &pf.into(),
            &"FIXED".into(),
            &0.into(),
            &0.into()
        ),
        "{p}"
    );
    assert_eq!(p["wFlags"], 1, "LF_FIXED");
    let p = pointer(ptrs, "frame 0 [BP+8]");
    assert_eq!(
        (
            &p["value"],
            &p["hHandle"],
            &p["wAddress"],
            &p["flags"],
            &p["wcLock"],
            &p["offset"]
        ),
        (
            &(pm + 4).into(),
            &hm.into(),
            &pm.into(),
            &"MOVEABLE".into(),
            &1.into(),
            &4.into()
        ),
        "{p}"
    );
    assert_eq!(p["wFlags"], 4, "LF_MOVEABLE");
    // hm itself is a near pointer too: to its handle-table entry, inside
    // the heap's handle table (a fixed block), not to the block's data.
    let p = pointer(ptrs, "frame 0 [BP+A]");
    assert_eq!(p["value"], hm);
    assert_eq!(p["flags"], "FIXED");
    assert_ne!(p["hHandle"], hm);
    // Look's local pf + 10: 10 bytes into the fixed block, below BP.
    let local = ptrs
        .iter()
        .find(|p| p["frame"] == 0 && p["bp_offset"].as_i64().unwrap_or(0) < 0 && p["value"] == mid)
        .unwrap_or_else(|| panic!("the local pf + 10 in {ptrs:#?}"));
    assert_eq!(
        (&local["hHandle"], &local["offset"]),
        (&pf.into(), &10.into())
    );
    // Every pointer lies in the block named; registers come first, then
    // the stack from SP up; the frame links (saved BP, return CS:IP) are
    // never named.
    let mut seen_stack = false;
    let mut last = 0;
    for p in ptrs {
        let (value, at, size) = (
            p["value"].as_u64().unwrap(),
            p["wAddress"].as_u64().unwrap(),
            p["wSize"].as_u64().unwrap(),
        );
        assert!(at <= value && value < at + size, "{p}");
        assert_eq!(p["offset"].as_u64().unwrap(), value - at);
        match p["ss_offset"].as_u64() {
            Some(o) => {
                seen_stack = true;
                assert!(o > last, "{ptrs:#?}");
                last = o;
                let rel = p["bp_offset"].as_i64().unwrap();
                assert!(!matches!(rel, -2 | 0 | 2 | 4), "a frame link: {p}");
            }
            None => assert!(!seen_stack, "registers first: {ptrs:#?}"),
        }
    }

    // The text report says the same.
    let out = bin()
        .args(["stack", "--at", "NEARPTR!MARK"])
        .arg(&exe)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let want = format!(
        "= {:04X} -> local block {hm:04X} (MOVEABLE, locked 1) +4, ",
        pm + 4
    );
    assert!(
        text.lines()
            .any(|l| l.trim_start().starts_with("frame 0 [BP+8] (SS:") && l.contains(&want)),
        "{want:?} in\n{text}"
    );
    assert!(text.contains("near pointers into DS "), "{text}");
}
