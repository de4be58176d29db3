//! Symbols on frames from every source: the LINK maps beside the roms/
//! programs (made by roms/build.sh), the hand-written DOS maps (LINK and
//! wlink formats), MAPSYM files made from the maps and by hand, and the NE
//! names tables; maps that do not fit; the edge cases of a lookup.

use std::path::{Path, PathBuf};

use toolhelp16::session::Program;
use toolhelp16::symbols::{self, Source, SymbolTable, fit::Target};

mod common;
use common::{Scenario, bin, expect_scenarios, json, rom, root, run_scenario, succeed};

/// The publics of a LINK map's "Publics by Value" list, read here by the
/// test itself (not by the tool): (frame, offset, name).
fn map_publics(map: &Path) -> Vec<(u16, u32, String)> {
    let text = std::fs::read_to_string(map).unwrap();
    let mut on = false;
    let mut v = Vec::new();
    for line in text.lines() {
        if line.contains("Publics by Value") {
            on = true;
            continue;
        }
        let t: Vec<&str> = line.split_whitespace().collect();
        if on && t.len() == 2 {
            if let Some((f, o)) = t[0].split_once(':') {
                v.push((
                    u16::from_str_radix(f, 16).unwrap(),
                    u32::from_str_radix(o, 16).unwrap(),
                    t[1].to_string(),
                ));
            }
        }
    }
    v
}

/// The frames' symbols, as `stack` shows them.
fn frame_symbols(p: &Program) -> Vec<Option<String>> {
    let w = p
        .walk_at_stop(&toolhelp16::machine::Stop::Budget)
        .expect("a walk");
    (0..w.frames.len())
        .map(|i| p.frame_symbol(&w, i).map(|s| s.to_string()))
        .collect()
}

fn ne_scenarios_with_maps() -> Vec<Scenario> {
    expect_scenarios()
        .into_iter()
        .filter(|s| s.at.starts_with('s'))
        .filter(|s| root().join(&s.file).with_extension("map").is_file())
        .collect()
}

#[test]
fn every_frame_of_each_roms_walk_is_named_by_the_nearest_preceding_public_of_its_map() {
    let scenarios = ne_scenarios_with_maps();
    assert!(
        scenarios.len() >= 10,
        "the NE roms have maps: {scenarios:?}"
    );
    for sc in &scenarios {
        let (p, stop, _) = run_scenario(sc);
        let w = p.walk_at_stop(&stop).unwrap();
        let publics = map_publics(&root().join(&sc.file).with_extension("map"));
        for (i, f) in w.frames.iter().enumerate() {
            let sym = p
                .frame_symbol(&w, i)
                .unwrap_or_else(|| panic!("{}: frame {i} {f:?} has no symbol", sc.name));
            assert_eq!(sym.source, Source::Map, "{}: frame {i}", sc.name);
            // The test's own lookup: the last public at or before the
            // address (a return address one byte back) in that segment.
            let ip = u32::from(f.w_ip) - u32::from(i > 0);
            let (_, off, name) = publics
                .iter()
                .filter(|(seg, off, _)| *seg == f.w_segment && *off <= ip)
                .max_by_key(|(_, off, _)| *off)
                .unwrap_or_else(|| panic!("{}: no public precedes frame {i}", sc.name));
            assert_eq!(sym.raw, *name, "{}: frame {i}", sc.name);
            assert_eq!(
                sym.displacement,
                u32::from(f.w_ip) - off,
                "{}: frame {i}",
                sc.name
            );
        }
    }
}

#[test]
fn the_dos_roms_are_named_by_their_hand_written_maps_in_both_formats() {
    for (file, at, want) in [
        // LINK's DOS format (linear segments, FRAME:OFFSET publics).
        (
            "mzfar.exe",
            "MZFAR!leaf_stop",
            ["leaf_stop", "helper+0xa", "Worker+0xa", "main+0xa"].as_slice(),
        ),
        // wlink's format, for a .COM (ORG 100h addresses).
        (
            "comchain.com",
            "COMCHAIN!inner_stop",
            [
                "inner_stop",
                "frameless+0x5",
                "near_a+0x9",
                "FarOdd+0xa",
                "main+0xd",
            ]
            .as_slice(),
        ),
    ] {
        let out = bin()
            .args(["stack", "--json", "--at", at])
            .arg(rom(file))
            .output()
            .unwrap();
        let v = json(&out);
        assert_eq!(v["reached"], true, "{file}: {v}");
        let got: Vec<&str> = v["frames"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["symbol"].as_str().unwrap_or("(none)"))
            .collect();
        assert_eq!(got, want, "{file}");
    }
}

/// A fresh directory under the temp dir.
fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("toolhelp16-sym-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn load_with(
    sc: &Scenario,
    file: &Path,
    symbol_files: Vec<String>,
    beside: bool,
) -> Result<Program, String> {
    let mut o = common::scenario_options(sc);
    o.symbol_files = symbol_files;
    o.symbols_beside = beside;
    let mut p = toolhelp16::session::load(file, &o).map_err(|e| e.to_string())?;
    let loc = common::scenario_loc(&p, sc);
    common::run_to(&mut p, sc, &loc);
    Ok(p)
}

#[test]
fn a_sym_file_made_by_mapsym_names_the_frames_as_the_map_does() {
    let dir = temp_dir("mapsym");
    for sc in ne_scenarios_with_maps() {
        let exe = root().join(&sc.file);
        let map = exe.with_extension("map");
        let sym = dir.join(format!("{}.sym", sc.name));
        succeed(bin().args(["mapsym", "-o"]).arg(&sym).arg(&map));
        let by_map = load_with(&sc, &exe, vec![map.display().to_string()], false).unwrap();
        let by_sym = load_with(&sc, &exe, vec![sym.display().to_string()], false).unwrap();
        let names = frame_symbols(&by_map);
        assert!(names.iter().all(Option::is_some), "{}: {names:?}", sc.name);
        assert_eq!(frame_symbols(&by_sym), names, "{}", sc.name);
        // And the table says where the names came from.
        let t = by_sym
            .env()
            .symbols
            .cached(
                &by_sym
                    .env()
                    .win16
                    .modules
                    .iter()
                    .rev()
                    .find(|m| !m.builtin)
                    .unwrap()
                    .name,
            )
            .unwrap();
        assert!(t.symbols().iter().any(|s| s.source == Source::Sym));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn demo() -> Scenario {
    expect_scenarios()
        .into_iter()
        .find(|s| s.name == "demo")
        .unwrap()
}

#[test]
fn a_wlink_map_names_the_demo_as_the_link_map_does() {
    let sc = demo();
    let exe = root().join(&sc.file);
    let wlink = root().join("tests/symbols/demo_wlink.map");
    let link = load_with(
        &sc,
        &exe,
        vec![exe.with_extension("map").display().to_string()],
        false,
    )
    .unwrap();
    let watcom = load_with(&sc, &exe, vec![wlink.display().to_string()], false).unwrap();
    let names = frame_symbols(&watcom);
    assert_eq!(names, frame_symbols(&link));
    assert_eq!(
        names,
        [
            Some("paint_stop".to_string()),
            Some("OnEraseBkgnd+0xa".to_string()),
            Some("MainWndProc+0x10".to_string()),
            Some("WinMain+0xa".to_string()),
        ]
    );
}

#[test]
fn without_a_map_the_ne_names_tables_name_what_they_can() {
    let sc = demo();
    let p = load_with(&sc, &root().join(&sc.file), Vec::new(), false).unwrap();
    // PAINTLINE and MAINWNDPROC are exported and name their own
    // functions; OnEraseBkgnd follows MainWndProc's RETF and WinMain the
    // entry's code, and no export names them (symbols/extent.rs).
    assert_eq!(
        frame_symbols(&p),
        [
            Some("PAINTLINE+0xa".to_string()),
            Some("SEG2+0x27".to_string()),
            Some("MAINWNDPROC+0x10".to_string()),
            Some("SEG1+0x28".to_string()),
        ]
    );
}

#[test]
fn a_given_map_that_does_not_fit_is_an_error_naming_the_file_and_the_misfit() {
    let demo = rom("demo.exe");
    for (map, why) in [
        // mixed's segment 1 is longer than demo's.
        ("DEMO=roms/mixed.map", "spans"),
        // Three segments but the second is data.
        (
            "DEMO=tests/symbols/demo_class.map",
            "is data but NE segment 2 is code",
        ),
        // More segments than demo has.
        ("DEMO=tests/symbols/demo_extra.map", "physical segments"),
    ] {
        let out = bin()
            .current_dir(root())
            .args(["stack", "--at", "DEMO:1:3A", "--map", map])
            .arg(&demo)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(120), "{map}");
        let err = String::from_utf8_lossy(&out.stderr);
        let file = map.split_once('=').unwrap().1;
        assert!(
            err.contains(file) && err.contains("does not fit DEMO"),
            "{err}"
        );
        assert!(err.contains(why), "{map}: {err}");
    }
}

#[test]
fn a_map_beside_the_program_that_does_not_fit_is_said_and_not_used() {
    let dir = temp_dir("beside");
    let exe = dir.join("DEMO.EXE");
    std::fs::copy(rom("demo.exe"), &exe).unwrap();
    // The map of another program, with demo's stem (and another case).
    std::fs::copy(rom("mixed.map"), dir.join("demo.Map")).unwrap();
    let out = bin()
        .args(["stack", "--json", "--at", "DEMO:1:3A"])
        .arg(&exe)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("warning") && err.contains("demo.Map") && err.contains("not used"),
        "{err}"
    );
    let v = json(&out);
    assert_eq!(v["frames"][0]["symbol"], "PAINTLINE+0xa", "{v}");
    // The right map, found by stem in any case, is used.
    std::fs::copy(rom("demo.map"), dir.join("demo.Map")).unwrap();
    let out = bin()
        .args(["stack", "--json", "--at", "DEMO:1:3A"])
        .arg(&exe)
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("warning"));
    assert_eq!(json(&out)["frames"][0]["symbol"], "paint_stop");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn names_locate_stops_and_duplicates_are_refused_by_name_but_named_by_address() {
    let demo = rom("demo.exe");
    let dup = root().join("tests/symbols/demo_dup.map");
    // `start` at offset 0 of segment 1 names the very first instruction.
    let out = bin()
        .args(["trace", "--json", "--max", "1", "--map"])
        .arg(&dup)
        .arg(&demo)
        .output()
        .unwrap();
    let first: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&out.stdout).lines().next().unwrap()).unwrap();
    assert_eq!(first["ip"], 0);
    assert_eq!(first["symbol"], "start");
    // `dup` is in both code segments: by name it is ambiguous ...
    let out = bin()
        .args(["stack", "--at", "DEMO!dup", "--map"])
        .arg(&dup)
        .arg(&demo)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(0));
    assert!(err.contains("ambiguous") && err.contains("dup"), "{err}");
    // ... a name from the map stops the run ...
    let out = bin()
        .args(["stack", "--json", "--at", "DEMO!PaintLine", "--map"])
        .arg(&dup)
        .arg(&demo)
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["at"]["ip"], 0x30, "{v}");
    assert_eq!(v["frames"][0]["symbol"], "PaintLine", "{v}");
    // ... and by address both are named.
    let out = bin()
        .args(["stack", "--json", "--at", "DEMO:1:3A", "--map"])
        .arg(&dup)
        .arg(&demo)
        .output()
        .unwrap();
    let v = json(&out);
    let syms: Vec<&str> = v["frames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["symbol"].as_str().unwrap_or("-"))
        .collect();
    // Segment 2 has only `dup` at 0: MainWndProc's code is dup+N.
    assert_eq!(
        syms,
        ["PaintLine+0xa", "dup+0x27", "dup+0x10", "WinMain+0xa"]
    );
}

#[test]
fn thousands_of_symbols_look_up_as_a_brute_force_search_does() {
    // A DOS map with 6000 publics in two segments, in LINK's format.
    let mut text = String::from(
        "\n Start  Stop   Length Name                   Class\n 00000H 07FFFH 08000H _TEXT CODE\n 08000H 0FFFFH 08000H FAR_TEXT CODE\n\n  Address         Publics by Value\n\n",
    );
    let mut want = Vec::new();
    for i in 0..6000u32 {
        let lin = i * 7 + (i % 5);
        let name = format!("function_with_a_long_name_{i:05}");
        text.push_str(&format!(
            " {:04X}:{:04X}       {name}\n",
            lin >> 4,
            lin & 15
        ));
        want.push((lin, name));
    }
    let layouts = symbols::parse_bytes(text.as_bytes(), Some("map")).unwrap();
    let mut t = SymbolTable::new();
    symbols::fit::fit(&layouts[0], &Target::Dos { image_len: 0x10000 }, &mut t).unwrap();
    t.finish();
    for probe in (0..0x10000u32).step_by(37) {
        let seg_start = if probe < 0x8000 { 0 } else { 0x8000 };
        let brute = want
            .iter()
            .filter(|(lin, _)| *lin <= probe && *lin >= seg_start)
            .max_by_key(|(lin, _)| *lin);
        let got = t.lookup_linear(probe);
        match brute {
            Some((lin, name)) => {
                let g = got.unwrap_or_else(|| panic!("{probe:#X}"));
                assert_eq!((&g.raw, g.displacement), (name, probe - lin), "{probe:#X}");
            }
            None => assert_eq!(got, None, "{probe:#X}"),
        }
    }
    // The same symbols through a MAPSYM file: past 64 KiB of symbol data,
    // so three-byte symbol pointers.
    let sym = symbols::mapsym::write_layout("BIG", &layouts[0]).unwrap();
    assert!(sym.len() > 0x10000);
    let back = symbols::parse_bytes(&sym, Some("sym")).unwrap();
    assert_eq!(back[0].publics.len(), 6000);
    let names: std::collections::HashSet<&str> =
        back[0].publics.iter().map(|p| p.name.as_str()).collect();
    assert!(want.iter().all(|(_, n)| names.contains(n.as_str())));
}

#[test]
fn a_hand_made_sym_file_names_the_demo() {
    // MAPSYM 4.0 layout, written byte by byte here: module DEMO, segment 1
    // with PaintLine at 0x30 and WinMain at 0x1E, segment 2 with
    // MainWndProc at 0 (tests/symbols/demo.sym is this file).
    let sym = root().join("tests/symbols/demo.sym");
    let bytes = std::fs::read(&sym).unwrap();
    assert_eq!(symbols::mapsym::version(&bytes).unwrap(), (4, 0));
    let sc = demo();
    let p = load_with(
        &sc,
        &root().join(&sc.file),
        vec![sym.display().to_string()],
        false,
    )
    .unwrap();
    assert_eq!(
        frame_symbols(&p),
        [
            Some("PaintLine+0xa".to_string()),
            Some("MainWndProc+0x27".to_string()),
            Some("MainWndProc+0x10".to_string()),
            Some("WinMain+0xa".to_string()),
        ]
    );
}

#[test]
fn a_broken_sym_file_is_an_error_naming_file_and_offset() {
    let dir = temp_dir("broken");
    let mut bytes = std::fs::read(root().join("tests/symbols/demo.sym")).unwrap();
    bytes.truncate(0x30);
    let bad = dir.join("bad.sym");
    std::fs::write(&bad, &bytes).unwrap();
    let out = bin()
        .args(["stack", "--at", "DEMO:1:3A", "--sym"])
        .arg(&bad)
        .arg(rom("demo.exe"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(120));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.sym: offset 0x"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `mapsym` of a DOS program's map: the .SYM places the symbols where the
/// map does (the map's frames are paragraphs, the first 0000), so a stop
/// by a .SYM name is reached and `disasm --sym` lists what `--map` lists
/// (issue 31, Why 2).
#[test]
fn a_sym_made_from_a_dos_map_places_symbols_as_the_map_does() {
    let dir = temp_dir("dossym");
    let sym = dir.join("mzfar.sym");
    let out = bin()
        .args(["mapsym", "-o"])
        .arg(&sym)
        .arg(rom("mzfar.map"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stack = |opt: &str, file: &Path| {
        let out = bin()
            .args(["stack", "--json", "--no-symbol-search", opt])
            .arg(file)
            .args(["--at", "MZFAR!leaf_stop"])
            .arg(rom("mzfar.exe"))
            .output()
            .unwrap();
        json(&out)
    };
    let by_map = stack("--map", &rom("mzfar.map"));
    let by_sym = stack("--sym", &sym);
    assert_eq!(by_sym["stop"]["kind"], "breakpoint", "{by_sym}");
    let symbols = |v: &serde_json::Value| {
        v["frames"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["symbol"].to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(symbols(&by_sym), symbols(&by_map));
    assert_eq!(by_sym["frames"][0]["symbol"], "leaf_stop");
    let disasm = |opt: &str, file: &Path| {
        let out = bin()
            .args(["disasm", "--no-symbol-search", opt])
            .arg(file)
            .arg(rom("mzfar.exe"))
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let listing = disasm("--sym", &sym);
    assert_eq!(listing, disasm("--map", &rom("mzfar.map")));
    // `main:` labels the instruction at 0000:0015, as the map says.
    let lines: Vec<&str> = listing.lines().collect();
    let at = lines.iter().position(|l| l.trim() == "main:").unwrap();
    assert!(lines[at + 1].starts_with("0000:0015"), "{listing}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// An Open Watcom map lists absolute publics at frame 0000 (`pLocalHeap`
/// and the other instance-data words): they are values, not a segment,
/// so the .SYM made from it has the program's two physical segments and
/// fits it (issue 31, Why 2).
#[test]
fn a_sym_made_from_an_open_watcom_map_fits_the_program() {
    let Some(exe) = common::watcom::build(
        "symwat",
        common::watcom::Kind::Win16Exe,
        &["sysbreak.c"],
        None,
        &["-fm=symwat.map"],
    ) else {
        return;
    };
    let dir = exe.parent().unwrap();
    let map = dir.join("symwat.map");
    assert!(
        std::fs::read_to_string(&map)
            .unwrap()
            .contains("0000:0006* ")
    );
    let sym = dir.join("watcom.sym");
    let out = bin()
        .args(["mapsym", "-o"])
        .arg(&sym)
        .arg(&map)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = bin()
        .args(["stack", "--json", "--no-symbol-search", "--sym"])
        .arg(&sym)
        .args(["--at", "SYMWAT!WinMain"])
        .arg(&exe)
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["stop"]["kind"], "breakpoint", "{v}");
    assert_eq!(v["frames"][0]["symbol"], "WINMAIN", "{v}");
}

/// Both a .MAP and a .SYM beside the program: the linker's map names the
/// code (the .SYM is made from it, and may be stale), and the run says
/// which file it used and which it left (issue 31, Why 2).
#[test]
fn a_map_beside_the_program_comes_before_a_sym_beside_it() {
    let dir = temp_dir("mapfirst");
    let exe = dir.join("demo.exe");
    std::fs::copy(rom("demo.exe"), &exe).unwrap();
    std::fs::copy(rom("demo.map"), dir.join("demo.map")).unwrap();
    // A stale .SYM: made from a map whose label has another name.
    let wrong = std::fs::read_to_string(rom("demo.map"))
        .unwrap()
        .replace("paint_stop", "stale_name");
    std::fs::write(dir.join("old.map"), wrong).unwrap();
    let out = bin()
        .args(["mapsym", "-o"])
        .arg(dir.join("demo.sym"))
        .arg(dir.join("old.map"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let out = bin()
        .args(["stack", "--json", "--at", "DEMO:1:3A"])
        .arg(&exe)
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["frames"][0]["symbol"], "paint_stop", "{v}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("names from")
            && err.contains("demo.map")
            && err.contains("demo.sym beside it is not used"),
        "{err}"
    );
    // Given with --sym, the .SYM is used.
    let out = bin()
        .args(["stack", "--json", "--at", "DEMO:1:3A", "--sym"])
        .arg(dir.join("demo.sym"))
        .arg(&exe)
        .output()
        .unwrap();
    assert_eq!(json(&out)["frames"][0]["symbol"], "stale_name");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The code-segment publics of an Open Watcom map (`0001:00cc  _cstart_`),
/// read here by the test itself: (offset, name), sorted by offset.
fn watcom_code_publics(map: &Path, segment: &str) -> Vec<(u32, String)> {
    let text = std::fs::read_to_string(map).unwrap();
    let mut v: Vec<(u32, String)> = text
        .lines()
        .filter_map(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            let (s, o) = t.first()?.split_once(':')?;
            let o = o.trim_end_matches(['*', '+']);
            (s == segment && t.len() == 2)
                .then(|| (u32::from_str_radix(o, 16).ok(), t[1].to_string()))
                .and_then(|(o, n)| Some((o?, n)))
        })
        .collect();
    v.sort();
    v
}

/// Without a map, an export names only its own function: the code after
/// it (a static helper, WinMain, the C runtime) is `SEGn+0xOFF`, and the
/// program's entry (`ne_csip`) is `(entry)` over the startup code it
/// begins (issue 31, Why 7: the C runtime's entry was named as a window
/// procedure plus 0x2d2). The truth is wlink's own map of the program.
#[test]
fn without_a_map_an_export_names_only_its_own_function() {
    let Some(exe) = common::watcom::build(
        "extents",
        common::watcom::Kind::Win16Exe,
        &["extents.c"],
        None,
        &["-ms", "-fm=extents.map"],
    ) else {
        return;
    };
    let run = bin().arg("run").arg(&exe).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&run.stdout), "report 25\r\n");
    let publics = watcom_code_publics(&exe.parent().unwrap().join("extents.map"), "0001");
    let at = |name: &str| {
        publics
            .iter()
            .find(|(_, n)| n == name)
            .unwrap_or_else(|| panic!("{name} in the map: {publics:?}"))
            .0
    };
    let next_after = |off: u32| publics.iter().map(|&(o, _)| o).find(|&o| o > off).unwrap();
    let (report, helper, winmain, cstart) =
        (at("REPORT"), at("Helper_"), at("WINMAIN"), at("_cstart_"));
    let out = bin()
        .args(["disasm", "--json", "--no-symbol-search", "--segment", "1"])
        .arg(&exe)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut seen = 0;
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let off = v["offset"].as_u64().unwrap() as u32;
        let sym = v["symbol"].as_str().unwrap_or("-").to_string();
        let disp = |base: u32, name: &str| {
            if off == base {
                name.to_string()
            } else {
                format!("{name}+{:#x}", off - base)
            }
        };
        if (report..helper).contains(&off) {
            assert_eq!(sym, disp(report, "REPORT"));
        } else if (helper..next_after(winmain)).contains(&off) {
            // Helper and WinMain: exported by nobody.
            assert_eq!(sym, format!("SEG1+{off:#x}"));
        } else if (cstart..next_after(cstart)).contains(&off) {
            assert_eq!(sym, disp(cstart, "(entry)"));
        }
        assert!(
            off < helper || !sym.starts_with("REPORT"),
            "{off:#x} is past REPORT's function: {sym}"
        );
        seen += 1;
    }
    assert!(seen > 100, "{seen} instructions listed");
    // The walk from inside Report: Helper's and WinMain's frames are not
    // Report's (the frames' return addresses, from the map).
    let out = bin()
        .args([
            "stack",
            "--json",
            "--no-symbol-search",
            "--at",
            "EXTENTS!REPORT+prologue",
        ])
        .arg(&exe)
        .output()
        .unwrap();
    let v = json(&out);
    let frames = v["frames"].as_array().unwrap();
    assert!(frames.len() >= 3, "{v}");
    assert!(
        frames[0]["symbol"].as_str().unwrap().starts_with("REPORT+"),
        "{v}"
    );
    for f in &frames[1..3] {
        let ip = f["wIP"].as_u64().unwrap() as u32;
        assert!((helper..next_after(winmain)).contains(&ip), "{v}");
        assert_eq!(f["symbol"], format!("SEG1+{ip:#x}"), "{v}");
    }
}

/// roms/demo.exe without its map: the exports MAINWNDPROC and PAINTLINE
/// name their own functions; OnEraseBkgnd (after MainWndProc) and WinMain
/// (after the entry's code, which ends where WinMain's prologue begins)
/// are segment offsets, not `MAINWNDPROC+0x27` or `(entry)+0x28`
/// (demo.map gives the functions: WinMain 0001:001E, OnEraseBkgnd
/// 0002:001D).
#[test]
fn the_demo_without_its_map_names_unexported_functions_by_segment() {
    let out = bin()
        .args(["stack", "--json", "--no-symbol-search", "--at", "DEMO:1:3A"])
        .arg(rom("demo.exe"))
        .output()
        .unwrap();
    let v = json(&out);
    let names: Vec<&str> = v["frames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["symbol"].as_str().unwrap_or("-"))
        .collect();
    assert_eq!(
        names,
        [
            "PAINTLINE+0xa",
            "SEG2+0x27",
            "MAINWNDPROC+0x10",
            "SEG1+0x28"
        ],
        "{v}"
    );
    // The entry's own code is `(entry)`.
    let out = bin()
        .args([
            "disasm",
            "--json",
            "--no-symbol-search",
            "--at",
            "DEMO:1:5",
            "--count",
            "1",
        ])
        .arg(rom("demo.exe"))
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_str(
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(v["symbol"], "(entry)+0x5");
}

/// `stack --json` says where each frame module's names came from
/// (`symbols`: exports, map, sym, debug information) and carries the note
/// text mode prints after a walk stopped at a function's entry
/// (`entry_note`; x86/prologue.rs), null elsewhere.
#[test]
fn stack_json_names_the_symbol_sources_and_the_entry_note() {
    let run = |args: &[&str]| {
        let out = bin()
            .arg("stack")
            .arg("--json")
            .args(args)
            .arg(rom("demo.exe"))
            .output()
            .unwrap();
        json(&out)
    };
    let kinds = |v: &serde_json::Value| -> Vec<String> {
        let m = v["symbols"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["module"] == "DEMO")
            .unwrap_or_else(|| panic!("DEMO in {v}"));
        m["used"]
            .as_array()
            .unwrap()
            .iter()
            .map(|u| u["kind"].as_str().unwrap().to_string())
            .collect()
    };
    // demo.map beside the program: the names tables and the map.
    let v = run(&["--at", "DEMO!WinMain"]);
    assert_eq!(kinds(&v), ["exports", "map"], "{v}");
    let m = &v["symbols"][0]["used"][1];
    assert!(m["from"].as_str().unwrap().ends_with("demo.map"), "{v}");
    // WinMain's first instruction is its prologue's push bp.
    let note = v["entry_note"].as_str().unwrap_or_else(|| panic!("{v}"));
    assert!(
        note.contains("before its prologue (push bp; mov bp,sp)"),
        "{note}"
    );
    // Without the map: the names tables only; after the prologue no note.
    let v = run(&["--no-symbol-search", "--at", "DEMO:1:3A"]);
    assert_eq!(kinds(&v), ["exports"], "{v}");
    assert!(v["entry_note"].is_null(), "{v}");
}
