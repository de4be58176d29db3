//! Every import loads: a module that is neither built in nor found as a
//! DLL loads as an absent module (roms/absent.exe imports PRIVLIB, which
//! nobody ships). `info` says so, the program runs and walks, and only a
//! call into PRIVLIB stops it, naming the function and where PRIVLIB.DLL
//! was looked for, with the caller's walk.

mod common;
use common::{bin, json, rom};

#[test]
fn info_lists_the_absent_module_and_where_it_looked() {
    let out = bin().arg("info").arg(rom("absent.exe")).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("PRIVLIB"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        line.contains("(absent: not built in, and no PRIVLIB.DLL in")
            && line.contains("): DoThing, 5"),
        "{line}"
    );
    let out = bin()
        .args(["info", "--json"])
        .arg(rom("absent.exe"))
        .output()
        .unwrap();
    let v = json(&out);
    let imports = v["imports"].as_array().unwrap();
    assert_eq!(imports[0]["module"], "KERNEL");
    assert_eq!(imports[0]["source"], "built-in");
    assert_eq!(imports[1]["module"], "PRIVLIB");
    assert_eq!(imports[1]["source"], "absent");
}

#[test]
fn a_program_with_an_absent_module_runs_and_walks_at_winmain() {
    let out = bin().arg("run").arg(rom("absent.exe")).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = bin()
        .args(["stack", "--json", "--at", "ABSENT!WinMain"])
        .arg(rom("absent.exe"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json(&out);
    let f = &v["frames"][0];
    assert_eq!(f["module"], "ABSENT");
    assert_eq!(f["wSegment"], 1);
    assert_eq!(f["symbol"], "WinMain", "{v}");
}

#[test]
fn calling_into_the_absent_module_stops_with_its_name_and_the_walk() {
    for (tail, name) in [("o", "PRIVLIB.5"), ("n", "PRIVLIB.DoThing")] {
        let out = bin()
            .args(["run", "--json"])
            .arg(rom("absent.exe"))
            .args(["--", tail])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(124), "{tail}");
        let v = json(&out);
        assert_eq!(v["exit"]["kind"], "unimplemented");
        let what = v["unimplemented"].as_str().unwrap();
        assert!(
            what.starts_with(&format!(
                "{name} (PRIVLIB is absent: not built in, and no PRIVLIB.DLL in "
            )),
            "{what}"
        );
        let frames = v["frames"].as_array().unwrap();
        assert_eq!(frames.len(), 1, "{frames:?}");
        assert_eq!(frames[0]["module"], "ABSENT");
        assert_eq!(
            frames[0]["symbol"]
                .as_str()
                .map(|s| s.starts_with("WinMain+")),
            Some(true),
            "{frames:?}"
        );
    }
}
