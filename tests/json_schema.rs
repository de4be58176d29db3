//! Every command's `--json` output against its schema in docs/schema/
//! (generated from the output types, src/cli/json.rs): the committed
//! files are what `toolhelp16 schema` prints now, and real outputs of
//! every command validate against them, errors included.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::{bin, rom};
use serde_json::Value;

fn schema_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/schema")
}

fn schema(name: &str) -> Value {
    let path = schema_dir().join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run `toolhelp16 schema --write docs/schema`)",
            path.display()
        )
    });
    serde_json::from_str(&text).unwrap()
}

/// Validate `doc` against docs/schema/NAME.json; the failure lists every
/// error with its place.
fn check(name: &str, doc: &Value) {
    let s = schema(name);
    let v = jsonschema::validator_for(&s).unwrap_or_else(|e| panic!("{name}.json: {e}"));
    let errors: Vec<String> = v
        .iter_errors(doc)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{name}: the output does not fit docs/schema/{name}.json:\n{}\n{doc:#}",
        errors.join("\n")
    );
    assert_eq!(doc["version"], 1, "{name}: version");
}

fn stdout_json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().unwrap()
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

#[test]
fn the_committed_schemas_are_the_ones_the_types_make() {
    let dir = tempfile_dir("schemas");
    let out = run(&["schema", "--write", &s(&dir)]);
    assert!(out.status.success(), "{out:?}");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut committed: Vec<String> = std::fs::read_dir(schema_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json"))
        .collect();
    committed.sort();
    assert_eq!(
        names, committed,
        "docs/schema/ has other files than the commands' schemas"
    );
    for n in &names {
        let now = std::fs::read_to_string(dir.join(n)).unwrap();
        let was = std::fs::read_to_string(schema_dir().join(n)).unwrap();
        assert!(
            now == was,
            "docs/schema/{n} is stale: run `toolhelp16 schema --write docs/schema`"
        );
        // `schema NAME` prints the same.
        let one = run(&["schema", n.trim_end_matches(".json")]);
        assert_eq!(String::from_utf8_lossy(&one.stdout), now, "schema {n}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn tempfile_dir(what: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "toolhelp16-json-schema-{what}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn run_json_fits_its_schema_for_an_exit_and_a_fault() {
    let demo = s(&rom("demo.exe"));
    let out = run(&["run", "--json", "--screen", "--events", &demo]);
    let v = stdout_json(&out);
    check("run", &v);
    assert_eq!(v["command"], "run");
    assert_eq!(v["exit"]["kind"], "exited");
    assert!(v["events"].is_array(), "--events gives events: {v:#}");
    assert!(v["screen"].is_string());
    // A fault: the fault members (cause, registers, segments) fit too.
    let faults = s(&rom("faults.exe"));
    let out = run(&["run", "--json", &faults, "--", "w"]);
    let v = stdout_json(&out);
    check("run", &v);
    assert_eq!(out.status.code(), Some(121), "{v:#}");
    assert!(v["fault"]["registers"].is_object(), "{v:#}");
}

#[test]
fn stack_and_demo_json_fit_their_schema() {
    let demo = s(&rom("demo.exe"));
    let out = run(&[
        "stack",
        "--json",
        "--at",
        "DEMO:1:003A",
        "--explain",
        "--verify",
        "--all-tasks",
        "--events",
        &demo,
    ]);
    let v = stdout_json(&out);
    check("stack", &v);
    assert!(v["frames"].as_array().unwrap().len() >= 4, "{v:#}");
    assert!(v["verify"]["agrees"].as_bool().unwrap(), "{v:#}");
    assert!(v["tasks"].is_array() && v["explain"].is_array() && v["backtrace"].is_object());
    let v = stdout_json(&run(&["demo", "--json"]));
    check("demo", &v);
    assert_eq!(v["command"], "demo");
}

#[test]
fn trace_and_disasm_json_lines_fit_their_schema() {
    let demo = s(&rom("demo.exe"));
    let out = run(&["trace", "--json", "--max", "50", "--regs", &demo]);
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 50, "{text}");
    for l in &lines {
        check("trace", &serde_json::from_str(l).unwrap());
    }
    assert!(
        lines
            .iter()
            .any(|l| serde_json::from_str::<Value>(l).unwrap()["changed"].is_object()),
        "--regs adds `changed`"
    );
    let out = run(&["disasm", "--json", &demo]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.lines().count() > 10, "{text}");
    for l in text.lines() {
        check("disasm", &serde_json::from_str(l).unwrap());
    }
}

#[test]
fn profile_info_mapsym_snapshot_and_walk_json_fit_their_schemas() {
    let dir = tempfile_dir("cmds");
    let demo = s(&rom("demo.exe"));
    let v = stdout_json(&run(&["profile", "--json", "--every", "10", &demo]));
    check("profile", &v);
    assert!(v["samples"].as_u64().unwrap() > 0, "{v:#}");
    assert!(!v["stacks"].as_array().unwrap().is_empty());

    check("info", &stdout_json(&run(&["info", "--json", &demo])));
    check(
        "info",
        &stdout_json(&run(&["info", "--json", &s(&rom("comchain.com"))])),
    );

    let sym = dir.join("demo.sym");
    let v = stdout_json(&run(&[
        "mapsym",
        "--json",
        &s(&rom("demo.map")),
        "-o",
        &s(&sym),
    ]));
    check("mapsym", &v);
    assert!(sym.exists());

    let snap = dir.join("snap.json");
    let v = stdout_json(&run(&[
        "snapshot",
        "--json",
        "--at",
        "DEMO:1:003A",
        "-o",
        &s(&snap),
        &demo,
    ]));
    check("snapshot", &v);
    assert!(v["expected_frames"].as_u64().unwrap() > 0, "{v:#}");

    // heap: the global heap and the demo's local heap at a stop; a
    // --local that names nothing is an error, which fits error.json.
    let v = stdout_json(&run(&[
        "heap",
        "--json",
        "--local",
        "DEMO",
        "--at",
        "DEMO:1:003A",
        &demo,
    ]));
    check("heap", &v);
    assert!(!v["global"].as_array().unwrap().is_empty(), "{v:#}");
    assert!(
        !v["local"]["entries"].as_array().unwrap().is_empty(),
        "{v:#}"
    );
    let v = stdout_json(&run(&["heap", "--json", "--local", "NOSUCH", &demo]));
    check("error", &v);
    for init in ["native", "istackwalker"] {
        let v = stdout_json(&run(&["walk", "--json", "--init", init, &s(&snap)]));
        check("walk", &v);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bench_json_fits_its_schema() {
    let v = stdout_json(&run(&["bench", "--quick", "--json"]));
    check("bench", &v);
    assert!(!v["lines"].as_array().unwrap().is_empty());
}

#[test]
fn an_error_under_json_is_json_on_stdout_with_the_exit_status() {
    // A file that is not there: a load error, 120.
    let out = run(&["run", "--json", "/nonexistent/toolhelp16/x.exe"]);
    assert_eq!(out.status.code(), Some(120));
    let v = stdout_json(&out);
    check("error", &v);
    assert_eq!(v["exit_code"], 120);
    assert_eq!(v["kind"], "load");
    // A usage error (clap's): 2, and JSON as well.
    let out = run(&["stack", "--json", "--no-such-option", "x.exe"]);
    assert_eq!(out.status.code(), Some(2));
    let v = stdout_json(&out);
    check("error", &v);
    assert_eq!(v["kind"], "usage");
    // A walk of a snapshot that is not JSON.
    let out = run(&["walk", "--json", &s(&rom("demo.map"))]);
    assert_eq!(out.status.code(), Some(120));
    check("error", &stdout_json(&out));
    // Without --json, nothing on stdout.
    let out = run(&["run", "/nonexistent/toolhelp16/x.exe"]);
    assert!(out.stdout.is_empty());
}

#[test]
fn run_json_output_is_the_console_text_decoded_as_code_page_437() {
    // A .COM that writes C9h CDh BBh ("╔═╗" in CP437) and 82h ("é") with
    // INT 21h AH=40h to standard output, then exits.
    let dir = tempfile_dir("cp437");
    let mut com = vec![
        0xB4, 0x40, // mov ah,40h
        0xBB, 0x01, 0x00, // mov bx,1
        0xB9, 0x04, 0x00, // mov cx,4
        0xBA, 0x12, 0x01, // mov dx,0112h
        0xCD, 0x21, // int 21h
        0xB8, 0x00, 0x4C, // mov ax,4C00h
        0xCD, 0x21, // int 21h
    ];
    assert_eq!(com.len(), 0x12);
    com.extend_from_slice(&[0xC9, 0xCD, 0xBB, 0x82]);
    let path = dir.join("box.com");
    std::fs::write(&path, &com).unwrap();
    let v = stdout_json(&run(&["run", "--json", &s(&path)]));
    check("run", &v);
    assert_eq!(v["output"], "\u{2554}\u{2550}\u{2557}\u{e9}", "{v:#}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_closed_pipe_does_not_panic_any_command() {
    use std::process::Stdio;
    let demo = s(&rom("demo.exe"));
    let cases: Vec<Vec<String>> = vec![
        vec!["run".into(), "--json".into(), demo.clone()],
        vec![
            "stack".into(),
            "--at".into(),
            "DEMO:1:003A".into(),
            demo.clone(),
        ],
        vec!["trace".into(), demo.clone()],
        vec!["trace".into(), "--json".into(), demo.clone()],
        vec!["disasm".into(), demo.clone()],
        vec!["info".into(), "--json".into(), demo.clone()],
        vec!["demo".into()],
        vec!["schema".into(), "run".into()],
        vec!["man".into()],
        vec!["completions".into(), "bash".into()],
        vec!["--help".into()],
    ];
    for args in cases {
        // `| head -c0`: the reader is gone before the command writes (a
        // pipe buffer would take small outputs whole if it read first).
        let mut child = bin()
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let o = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            !err.contains("panicked") && o.status.code() != Some(101),
            "{args:?} panicked on a closed pipe: {:?}\n{err}",
            o.status
        );
    }
}
