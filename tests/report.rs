//! The stack pictures and the narrated walk (src/report/): for every
//! roms/ scenario, the SVG and the HTML page are well-formed XML with a
//! band and an arrow per frame, every frame's CS:IP as text, the bounds,
//! and the selector's translation (seg*16+off in real mode); the
//! narration tells the very walk `stack` reports. Then the command line:
//! `stack --svg/--html/--explain`, `trace --html`, the errors, and the
//! README's picture of the demo.

use std::path::PathBuf;

mod common;
use common::{bin, expect_scenarios, json, more_scenarios, root, run_scenario, succeed};
use toolhelp16::report::{self, explain, svg};
use toolhelp16::walk::{CpuMode, StackTraceEntry, Walk, WalkMemory};

/// A temporary directory of this test process.
/// A fresh empty directory (emptied first: a process id can come again,
/// and a directory an earlier run left must not answer for this one).
fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("toolhelp16-report-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn parse(text: &str) -> roxmltree::Document<'_> {
    let opts = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    roxmltree::Document::parse_with_options(text, opts).unwrap_or_else(|e| {
        let line = e.pos().row as usize;
        let near: Vec<&str> = text.lines().skip(line.saturating_sub(3)).take(5).collect();
        panic!("not well-formed XML: {e}\n{}", near.join("\n"))
    })
}

fn class_is(n: &roxmltree::Node, class: &str) -> bool {
    n.attribute("class")
        .is_some_and(|c| c.split_whitespace().any(|x| x == class))
}

fn with_class<'a, 'i>(
    doc: &'a roxmltree::Document<'i>,
    class: &str,
) -> Vec<roxmltree::Node<'a, 'i>> {
    doc.descendants().filter(|n| class_is(n, class)).collect()
}

/// All the text of a node and its descendants.
fn text_of(n: &roxmltree::Node) -> String {
    n.descendants()
        .filter_map(|d| d.text())
        .collect::<Vec<_>>()
        .join(" ")
}

fn csip(f: &StackTraceEntry) -> String {
    format!("{:04X}:{:04X}", f.w_cs, f.w_ip)
}

/// Checks on one scenario's SVG against its walk.
fn check_svg(name: &str, text: &str, walk: &Walk, mem: &dyn WalkMemory, ss: u16, sp: u16) {
    let doc = parse(text);
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg", "{name}");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg"),
        "{name}"
    );
    let on_stack: Vec<usize> = (0..walk.frames.len())
        .filter(|&i| walk.frames[i].w_ss == ss)
        .collect();
    assert!(!on_stack.is_empty(), "{name}: no frames");
    // A band and an arrow per frame, numbered as the walk numbers them.
    let bands: Vec<usize> = with_class(&doc, "frame-band")
        .iter()
        .map(|n| n.attribute("data-frame").unwrap().parse().unwrap())
        .collect();
    assert_eq!(bands, on_stack, "{name}: one band per frame");
    let arrows: Vec<usize> = with_class(&doc, "chain-arrow")
        .iter()
        .map(|n| n.attribute("data-to-frame").unwrap().parse().unwrap())
        .collect();
    assert_eq!(arrows, on_stack, "{name}: one arrow into each frame");
    for n in with_class(&doc, "chain-arrow") {
        let d = n.attribute("d").unwrap();
        assert!(d.starts_with("M ") && d.contains(" C "), "{name}: {d}");
    }
    // Far and near marked on each band, as the walk's wFlags say.
    for n in with_class(&doc, "frame-band") {
        let i: usize = n.attribute("data-frame").unwrap().parse().unwrap();
        let kind = n.attribute("data-kind").unwrap();
        let want = if walk.virtual_frames.contains(&i) {
            "virtual"
        } else if walk.frames[i].w_flags == StackTraceEntry::FRAME_NEAR {
            "near"
        } else {
            "far"
        };
        assert_eq!(kind, want, "{name}: frame {i}");
        assert!(text_of(&n).contains(&format!("frame {i}")), "{name}");
    }
    // Every frame's CS:IP as text, and each return address on the word
    // it was read from (BP + 2 of the frame below it).
    let all = text_of(&root);
    for (i, f) in walk.frames.iter().enumerate() {
        assert!(
            all.contains(&csip(f)),
            "{name}: frame {i}'s {} not in the picture",
            csip(f)
        );
    }
    for (i, pair) in walk.frames.windows(2).enumerate() {
        if walk.virtual_frames.contains(&i) || pair[0].w_ss != ss {
            continue;
        }
        let off = format!("{:04X}", pair[0].w_bp.wrapping_add(2));
        let word = doc
            .descendants()
            .find(|n| class_is(n, "word") && n.attribute("data-off") == Some(&off))
            .unwrap_or_else(|| panic!("{name}: no word at {off}"));
        assert!(
            class_is(&word, "ret-ip"),
            "{name}: {off} is not a return IP"
        );
        assert!(
            text_of(&word).contains(&csip(&pair[1])),
            "{name}: the return IP at {off} does not name {}",
            csip(&pair[1])
        );
    }
    // The SP word is marked.
    let sp_word = doc
        .descendants()
        .find(|n| class_is(n, "word") && n.attribute("data-off") == Some(&format!("{sp:04X}")))
        .unwrap_or_else(|| panic!("{name}: SP's word {sp:04X} not drawn"));
    assert!(text_of(&sp_word).contains("SP"), "{name}");
    // The bounds.
    let bounds: Vec<&str> = with_class(&doc, "bound")
        .iter()
        .filter_map(|n| n.attribute("data-bound"))
        .collect();
    assert!(bounds.contains(&"pStackTop"), "{name}: {bounds:?}");
    assert!(bounds.contains(&"pStackBot"), "{name}: {bounds:?}");
    if mem.mode() == CpuMode::Protected {
        assert!(bounds.contains(&"pStackMin"), "{name}: {bounds:?}");
    }
    // The translation of SS.
    let tr = with_class(&doc, "translation");
    assert_eq!(tr.len(), 1, "{name}");
    let tr = text_of(&tr[0]);
    match mem.mode() {
        CpuMode::Real => {
            let base = u32::from(ss) * 16;
            assert!(
                tr.contains(&format!("{ss:04X} × 16 = {base:05X}"))
                    && tr.contains(&format!(
                        "{base:05X} + {sp:04X} = {:05X}",
                        base + u32::from(sp)
                    ))
                    && tr.contains("seg*16+off"),
                "{name}: {tr}"
            );
        }
        CpuMode::Protected => {
            let d = mem.descriptor(ss).unwrap();
            assert!(
                tr.contains(&format!("index {:04X}", ss >> 3))
                    && tr.contains(&format!("base {:08X}", d.base))
                    && tr.contains(&format!("limit {:04X}", d.limit))
                    && tr.contains(&format!(
                        "{:08X} + {sp:04X} = {:08X}",
                        d.base,
                        d.base + u32::from(sp)
                    )),
                "{name}: {tr}"
            );
        }
    }
}

/// Checks on one scenario's HTML page.
fn check_html(name: &str, text: &str, walk: &Walk) {
    assert!(text.starts_with("<!DOCTYPE html>"), "{name}");
    let doc = parse(text);
    // The picture inline, and nothing fetched or run.
    assert!(
        doc.descendants()
            .any(|n| n.tag_name().name() == "svg" && class_is(&n, "stack-picture")),
        "{name}: no inline SVG"
    );
    for n in doc.descendants().filter(|n| n.is_element()) {
        let tag = n.tag_name().name();
        assert!(
            !matches!(tag, "script" | "link" | "img" | "iframe" | "object"),
            "{name}: <{tag}>"
        );
        for a in n.attributes() {
            assert!(
                !matches!(a.name(), "src" | "href"),
                "{name}: {}={}",
                a.name(),
                a.value()
            );
        }
    }
    assert_eq!(
        text.matches("url(").count(),
        text.matches("url(#").count(),
        "{name}: a URL that is not a reference inside the page"
    );
    // The tables: a row per frame with its CS:IP, and the narration.
    let rows = with_class(&doc, "frame");
    assert_eq!(rows.len(), walk.frames.len(), "{name}");
    for (r, f) in rows.iter().zip(&walk.frames) {
        assert!(text_of(r).contains(&csip(f)), "{name}");
    }
    let told = with_class(&doc, "explain");
    assert_eq!(told.len(), 1, "{name}: no narration");
    let t = text_of(&told[0]);
    assert!(t.contains("StackTraceCSIPFirst"), "{name}");
    assert!(t.contains(&walk.stop.to_string()), "{name}");
}

#[test]
fn every_scenario_draws_its_walk() {
    let mut scenarios = expect_scenarios();
    scenarios.extend(more_scenarios());
    assert!(scenarios.len() >= 15);
    for sc in &scenarios {
        let (p, stop, loc) = run_scenario(sc);
        let walk = p.walk_at_stop(&stop).unwrap();
        let regs = p.registers_at_stop(&stop).unwrap();
        let (pic, lines) = report::at_stop(&p, &stop, format!("{} at {loc}", sc.name)).unwrap();
        assert_eq!(pic.frames.len(), walk.frames.len(), "{}", sc.name);
        let drawing = svg::render(&pic);
        let mem = &*p.machine as &dyn WalkMemory;
        check_svg(&sc.name, &drawing, &walk, mem, pic.ss, regs.sp);
        check_html(&sc.name, &report::html::page(&pic, &drawing, &lines), &walk);
    }
}

#[test]
fn the_narration_tells_the_walk_stack_reports() {
    let mut scenarios = expect_scenarios();
    scenarios.extend(more_scenarios());
    for sc in &scenarios {
        let (p, stop, _) = run_scenario(sc);
        let walk = p.walk_at_stop(&stop).unwrap();
        let told = explain::at_stop(&p, &stop).unwrap();
        assert_eq!(told.walk, walk, "{}", sc.name);
        assert_eq!(told.note, None, "{}", sc.name);
        let mem = &*p.machine as &dyn WalkMemory;
        let lines = explain::lines(mem, &p, &told);
        // One line per frame found, numbered in order and naming its CS:IP.
        let frames: Vec<&str> = lines
            .iter()
            .filter(|l| l.depth == 0 && l.text.starts_with("frame "))
            .map(|l| l.text.as_str())
            .filter(|t| !t.contains("TOOLHELP's fault dispatch frame"))
            .collect();
        let kept: Vec<String> = walk
            .frames
            .iter()
            .enumerate()
            .map(|(i, f)| format!("frame {i}: {}", csip(f)))
            .collect();
        for k in &kept {
            assert!(
                frames.iter().any(|t| t.starts_with(k.as_str())),
                "{}: no line for {k}",
                sc.name
            );
        }
        // Every StackTraceNext call tells its steps in the spec's order.
        let mut last_step = 0;
        for l in &lines {
            if l.depth == 1 {
                let n: u32 = l.text[5..6].parse().unwrap();
                assert!(n > last_step || n == 1, "{}: {}", sc.name, l.text);
                last_step = n;
            }
        }
        // Step 5 says far or near as the frame was found.
        let fives = lines
            .iter()
            .filter(|l| l.text.starts_with("step 5:"))
            .count();
        let csip_firsts = walk.virtual_frames.len();
        assert!(fives + csip_firsts >= walk.frames.len() - 1, "{}", sc.name);
        let end = lines.last().unwrap();
        assert!(
            end.text.starts_with(&format!(
                "the walk ends with {} frame(s): ",
                walk.frames.len()
            )) && end.text.ends_with(&walk.stop.to_string()),
            "{}: {}",
            sc.name,
            end.text
        );
    }
}

#[test]
fn stack_explain_narrates_the_demo_rule_by_rule() {
    let out = succeed(bin().current_dir(root()).args([
        "stack",
        "--json",
        "--explain",
        "--at",
        "DEMO:1:3A",
        "roms/demo.exe",
    ]));
    let v = json(&out);
    let frames = v["frames"].as_array().unwrap();
    let told = common::strings(&v["explain"]);
    assert!(told[0].starts_with("StackTraceCSIPFirst: "), "{told:?}");
    // Each frame after the first is told by steps 1 to 6, and step 5 gives
    // the saved BP's parity and the CS it takes, as the frame has them.
    for (i, f) in frames.iter().enumerate().skip(1) {
        let prev = &frames[i - 1];
        let saved = told
            .iter()
            .find(|l| {
                l.contains(&format!(
                    "step 3: next = [SS:{:04X}]",
                    prev["wBP"].as_u64().unwrap()
                ))
            })
            .unwrap_or_else(|| panic!("no step 3 for frame {i}: {told:?}"));
        let next = u16::from_str_radix(&saved.split(" = ").nth(2).unwrap()[..4], 16).unwrap();
        let five = told
            .iter()
            .find(|l| l.contains(&format!("step 5: saved BP {next:04X} is ")))
            .unwrap();
        if f["far"].as_bool().unwrap() {
            assert!(five.contains("a far frame"), "{five}");
            assert!(five.contains(&format!("CS = [BP+4] = {:04X}", f["wCS"].as_u64().unwrap())));
        } else {
            assert!(five.contains("a near frame"), "{five}");
        }
        if next & 1 == 1 {
            assert!(
                five.contains("is odd (the Windows far-call marker)"),
                "{five}"
            );
        }
        assert!(told.iter().any(|l| l.starts_with(&format!(
            "frame {i}: {:04X}:{:04X}",
            f["wCS"].as_u64().unwrap(),
            f["wIP"].as_u64().unwrap()
        ))));
    }
    assert!(
        told.iter()
            .any(|l| l.contains("step 4 FAILS: saved BP at SS:")),
        "{told:?}"
    );
    // The text form says the same, indented.
    let out = bin()
        .current_dir(root())
        .args(["stack", "--explain", "--at", "DEMO:1:3A", "roms/demo.exe"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("the walk, rule by rule"), "{text}");
    assert!(text.contains("\n        step 2: SI = wBP = "), "{text}");
}

#[test]
fn stack_svg_and_html_write_the_files_real_mode_too() {
    let dir = tmp("files");
    for (file, at) in [
        ("roms/demo.exe", "DEMO:1:3A"),
        ("roms/recurse.exe", "RECURSE:1:33"),
    ] {
        let svg = dir.join("s.svg");
        let html = dir.join("s.html");
        let out = succeed(
            bin()
                .current_dir(root())
                .args(["stack", "--json", "--at", at, file, "--svg"])
                .arg(&svg)
                .arg("--html")
                .arg(&html),
        );
        let frames = json(&out)["frames"].as_array().unwrap().len();
        let text = std::fs::read_to_string(&svg).unwrap();
        let doc = parse(&text);
        assert_eq!(with_class(&doc, "frame-band").len(), frames, "{file}");
        assert_eq!(with_class(&doc, "chain-arrow").len(), frames, "{file}");
        let page = std::fs::read_to_string(&html).unwrap();
        assert_eq!(with_class(&parse(&page), "frame").len(), frames, "{file}");
    }
    // A real-mode .COM program: the picture translates by sixteen.
    let svg = dir.join("com.svg");
    let (p, _) = common::load_scenario(
        &expect_scenarios()
            .into_iter()
            .find(|s| s.name == "comchain")
            .unwrap(),
    );
    let toolhelp16::session::Loaded::Dos { psp, .. } = p.loaded else {
        panic!("not DOS")
    };
    succeed(
        bin()
            .current_dir(root())
            .args([
                "stack",
                "--at",
                &format!("{psp:04X}:0163"),
                "roms/comchain.com",
                "--svg",
            ])
            .arg(&svg),
    );
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(
        text.contains(&format!("{psp:04X} × 16 = {:05X}", u32::from(psp) * 16)),
        "{text}"
    );
    assert!(text.contains("real mode"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn unwritable_files_and_an_ended_program_are_errors() {
    let dir = tmp("errors");
    let bad = dir.join("no/such/dir/x.svg");
    for opt in ["--svg", "--html"] {
        let out = bin()
            .current_dir(root())
            .args(["stack", "--at", "DEMO:1:3A", "roms/demo.exe", opt])
            .arg(&bad)
            .output()
            .unwrap();
        assert_ne!(out.status.code(), Some(0));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(opt) && err.contains("x.svg"), "{err}");
    }
    // The location is never reached: the program ends, nothing to draw.
    let svg = dir.join("ended.svg");
    let out = bin()
        .current_dir(root())
        .args(["stack", "--at", "DEMO:1:FFF0", "roms/demo.exe", "--svg"])
        .arg(&svg)
        .output()
        .unwrap();
    assert_ne!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no stack to draw"));
    assert!(!svg.exists());
    let out = bin()
        .current_dir(root())
        .args(["trace", "--max", "3", "roms/demo.exe", "--html"])
        .arg(&bad)
        .output()
        .unwrap();
    assert_ne!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--html"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The registers table of a step: name → value.
fn step_regs(step: &roxmltree::Node) -> Vec<(String, u16)> {
    let table = step
        .descendants()
        .find(|n| class_is(n, "regs"))
        .expect("a registers table");
    let rows: Vec<_> = table.children().filter(|n| n.has_tag_name("tr")).collect();
    let names: Vec<String> = rows[0]
        .children()
        .filter_map(|c| c.text())
        .map(str::to_string)
        .collect();
    let values: Vec<u16> = rows[1]
        .children()
        .filter_map(|c| c.text())
        .map(|t| u16::from_str_radix(t, 16).unwrap())
        .collect();
    names.into_iter().zip(values).collect()
}

#[test]
fn trace_html_steps_through_the_demo() {
    let dir = tmp("trace");
    let page = dir.join("t.html");
    succeed(
        bin()
            .current_dir(root())
            .args(["trace", "--to", "DEMO:1:3A", "roms/demo.exe", "--html"])
            .arg(&page),
    );
    // The text trace of the same run, to compare with.
    let text = bin()
        .current_dir(root())
        .args(["trace", "--to", "DEMO:1:3A", "roms/demo.exe"])
        .output()
        .unwrap();
    let lines: Vec<String> = String::from_utf8_lossy(&text.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    let html = std::fs::read_to_string(&page).unwrap();
    let doc = parse(&html);
    let steps = with_class(&doc, "step");
    assert_eq!(steps.len(), lines.len(), "one step per traced instruction");
    for (st, line) in steps.iter().zip(&lines) {
        let cs = st.attribute("data-cs").unwrap();
        let ip = st.attribute("data-ip").unwrap();
        assert!(
            line.starts_with(&format!("{cs}:{ip}")),
            "{line} vs {cs}:{ip}"
        );
        // The registers after it, and the stack after it with SP marked
        // on the word SP points at.
        let regs = step_regs(st);
        let sp = regs.iter().find(|r| r.0 == "SP").unwrap().1;
        let stack = st
            .descendants()
            .find(|n| class_is(n, "stack"))
            .expect("a stack table");
        let marked: Vec<String> = stack
            .descendants()
            .filter(|n| n.has_tag_name("tr") && text_of(n).contains("◀ SP"))
            .map(|n| {
                n.children()
                    .find(|c| c.has_tag_name("td"))
                    .and_then(|c| c.text())
                    .unwrap()
                    .to_string()
            })
            .collect();
        assert_eq!(marked, vec![format!("{sp:04X}")], "{line}");
        // BP, when its word is drawn, is marked on it.
        let bp = regs.iter().find(|r| r.0 == "BP").unwrap().1;
        for row in stack
            .descendants()
            .filter(|n| n.has_tag_name("tr") && text_of(n).contains("◀ BP"))
        {
            let off = row
                .children()
                .find(|c| c.has_tag_name("td"))
                .and_then(|c| c.text());
            assert_eq!(off, Some(format!("{bp:04X}").as_str()), "{line}");
        }
    }
    // The next instruction's registers before it are this one's after it:
    // the last step's IP after it is where the run stopped.
    let last = step_regs(steps.last().unwrap());
    assert_eq!(last.iter().find(|r| r.0 == "IP").unwrap().1, 0x3A);
    // Keyboard navigation, inline; nothing fetched.
    let scripts: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("script"))
        .collect();
    assert_eq!(scripts.len(), 1);
    assert!(scripts[0].attribute("src").is_none());
    assert!(text_of(&scripts[0]).contains("ArrowRight"));
    assert!(!html.contains("id=\"truncated\""));

    // Real mode (a .COM program) too: SP is marked where it points.
    let out = bin()
        .current_dir(root())
        .args(["trace", "--max", "30", "roms/comchain.com", "--html"])
        .arg(&page)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("30 step(s)"));
    let html = std::fs::read_to_string(&page).unwrap();
    let doc = parse(&html);
    let steps = with_class(&doc, "step");
    assert_eq!(steps.len(), 30);
    for st in &steps {
        let sp = step_regs(st).iter().find(|r| r.0 == "SP").unwrap().1;
        let stack = st.descendants().find(|n| class_is(n, "stack")).unwrap();
        assert!(
            stack
                .descendants()
                .filter(|n| n.has_tag_name("tr") && text_of(n).contains("◀ SP"))
                .any(|n| text_of(&n).starts_with(&format!("{sp:04X}"))),
            "SP {sp:04X} not marked"
        );
    }

    // A cap: the page says it is truncated.
    let out = bin()
        .current_dir(root())
        .args(["trace", "--max", "5", "roms/demo.exe", "--html"])
        .arg(&page)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("5 step(s)"));
    let html = std::fs::read_to_string(&page).unwrap();
    let doc = parse(&html);
    assert_eq!(with_class(&doc, "step").len(), 5);
    assert!(html.contains("id=\"truncated\""));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The README's picture is what the tool draws now. `TOOLHELP16_BLESS=1`
/// rewrites it.
#[test]
fn the_readme_picture_is_current() {
    let committed = root().join("docs/demo-stack.svg");
    let dir = tmp("docs");
    let out_path = dir.join("demo-stack.svg");
    succeed(
        bin()
            .current_dir(root())
            .args(["stack", "--at", "DEMO:1:3A", "roms/demo.exe", "--svg"])
            .arg(&out_path),
    );
    let now = std::fs::read_to_string(&out_path).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    if std::env::var_os("TOOLHELP16_BLESS").is_some() {
        std::fs::create_dir_all(committed.parent().unwrap()).unwrap();
        std::fs::write(&committed, &now).unwrap();
    }
    let then = std::fs::read_to_string(&committed).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (TOOLHELP16_BLESS=1 writes it)",
            committed.display()
        )
    });
    assert!(
        then == now,
        "docs/demo-stack.svg is not what `toolhelp16 stack --svg` draws now; rerun with TOOLHELP16_BLESS=1"
    );
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    assert!(
        readme.contains("](docs/demo-stack.svg)"),
        "the README shows the picture"
    );
}

/// A DOS program stopped with BP = 0 (roms/dos21.com one instruction in:
/// DOS starts a .COM program with BP = 0) has no frame chain. SS:0000 is
/// its PSP, whose INT 20h (CD 20) StackTraceNext would take for an odd
/// saved BP 20CD and make a far frame 9A00:A000 of the next words. The
/// walk stops after frame 0 by toolhelp16's real-mode rule (there is no
/// TOOLHELP rule for DOS; docs/walk.md), and says so, in `stack`, the
/// narration, the pictures and every trace page.
#[test]
fn a_dos_program_stopped_with_bp_0_gets_no_invented_frame() {
    let dir = tmp("bp0");
    let svg = dir.join("s.svg");
    let html = dir.join("s.html");
    let out = succeed(
        bin()
            .current_dir(root())
            .args([
                "stack",
                "--json",
                "--explain",
                "--at",
                "+1",
                "roms/dos21.com",
            ])
            .arg("--svg")
            .arg(&svg)
            .arg("--html")
            .arg(&html),
    );
    let v = json(&out);
    let frames = v["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 1, "{v}");
    assert_eq!(frames[0]["wBP"], 0);
    let end = v["walk_end"].as_str().unwrap();
    assert!(end.contains("no frame chain"), "{end}");
    let told = v["explain"].to_string();
    assert!(told.contains("toolhelp16's rule"), "{told}");
    assert!(
        !told.contains("step 1: dwSize"),
        "StackTraceNext ran: {told}"
    );
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = parse(&text);
    assert_eq!(with_class(&doc, "frame-band").len(), 1);
    assert_eq!(with_class(&doc, "chain-arrow").len(), 0);
    assert!(!text.contains("9A00:A000"), "an invented frame is drawn");
    assert!(
        !text.contains("saved BP 20CD"),
        "the PSP's word read as a BP"
    );
    let page = std::fs::read_to_string(&html).unwrap();
    assert_eq!(with_class(&parse(&page), "frame").len(), 1);
    assert!(!page.contains("9A00:A000"));
    // Every step of a trace page walks from its registers the same way.
    let tp = dir.join("t.html");
    let out = bin()
        .current_dir(root())
        .args(["trace", "--max", "3", "roms/dos21.com", "--html"])
        .arg(&tp)
        .output()
        .unwrap();
    assert!(tp.exists(), "{}", String::from_utf8_lossy(&out.stderr));
    let page = std::fs::read_to_string(&tp).unwrap();
    assert!(!page.contains("9A00:A000"), "a trace step invents a frame");
    assert!(page.contains("no frame chain"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// What the tool shows a user points at the documentation inside the
/// repository (docs/), never at files a user does not have: the narration,
/// the HTML page, `--help`, the README and the docs themselves. Every
/// docs/ page the README links to exists.
#[test]
fn user_visible_text_points_at_docs_in_the_repository() {
    let dir = tmp("docs");
    let html = dir.join("p.html");
    let out = succeed(
        bin()
            .current_dir(root())
            .args([
                "stack",
                "--explain",
                "--at",
                "DEMO:1:3A",
                "roms/demo.exe",
                "--html",
            ])
            .arg(&html),
    );
    let told = String::from_utf8_lossy(&out.stdout).into_owned();
    let page = std::fs::read_to_string(&html).unwrap();
    let help = bin().args(["stack", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&help.stdout).into_owned();
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let mut texts = vec![
        ("stack --explain", told.clone()),
        ("the HTML page", page.clone()),
        ("stack --help", help),
        ("README.md", readme.clone()),
    ];
    for e in std::fs::read_dir(root().join("docs")).unwrap().flatten() {
        if e.path().extension().is_some_and(|x| x == "md") {
            texts.push(("a docs/ page", std::fs::read_to_string(e.path()).unwrap()));
        }
    }
    for (what, text) in &texts {
        for bad in ["shared/spec", "toolhelp.md", "dbghelp.md", "spec/win16.md"] {
            assert!(!text.contains(bad), "{what} mentions {bad}");
        }
    }
    assert!(told.contains("docs/walk.md"), "{told}");
    assert!(page.contains("docs/walk.md"));
    let mut linked = 0;
    for part in readme.split("](docs/").skip(1) {
        let name = part.split(')').next().unwrap();
        assert!(
            root().join("docs").join(name).exists(),
            "README links docs/{name}"
        );
        linked += 1;
    }
    assert!(linked >= 5, "README links {linked} docs pages");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The stack picture is at most 1200 px wide (issue 31, Why 7), and a
/// name too long for its line is not lost: the demo walked with a map
/// whose OnEraseBkgnd has a 200-character name draws every text inside the
/// picture (12 px monospace, 7.2 px a character; the title 15 px), and
/// the whole name is in the picture, wrapped or in an elided text's
/// `<title>`.
#[test]
fn the_stack_picture_fits_1200_px_without_losing_a_long_name() {
    let dir = tmp("wide");
    let long = format!("OnEraseBkgnd_{}", "x".repeat(190));
    let map = std::fs::read_to_string(root().join("roms/demo.map"))
        .unwrap()
        .replace("OnEraseBkgnd", &long);
    std::fs::write(dir.join("long.map"), map).unwrap();
    let svg = dir.join("s.svg");
    succeed(
        bin()
            .current_dir(root())
            .args(["stack", "--no-symbol-search", "--map"])
            .arg(dir.join("long.map"))
            .args(["--at", "DEMO:1:3A", "roms/demo.exe", "--svg"])
            .arg(&svg),
    );
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = parse(&text);
    let root_el = doc.root_element();
    let width: u32 = root_el.attribute("width").unwrap().parse().unwrap();
    assert!(width <= 1200, "width {width}");
    let mut whole = false;
    for t in root_el.descendants().filter(|n| n.has_tag_name("text")) {
        let x: f64 = t.attribute("x").unwrap().parse().unwrap();
        let shown: String = t
            .children()
            .filter(|c| c.is_text())
            .filter_map(|c| c.text())
            .collect();
        let class = t.attribute("class").unwrap_or("");
        let px = if class.contains("title") { 9.1 } else { 7.2 };
        let anchored = t.attribute("text-anchor").is_some();
        assert!(
            anchored || x + shown.chars().count() as f64 * px <= f64::from(width),
            "text past the right edge: {shown:?} at x {x}"
        );
        let titled = t
            .children()
            .find(|c| c.has_tag_name("title"))
            .and_then(|c| c.text())
            .unwrap_or("");
        whole |= shown.contains(&long) || titled.contains(&long);
    }
    // Wrapped legend lines hold the name whole too (a word is never cut).
    assert!(
        whole || text.contains(&long),
        "the long name is in the picture"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
