//! The README against `--help`: every command's options are listed in
//! README's "Options of every command" exactly as `COMMAND --help` gives
//! them, and its exit-status table has exactly the statuses `--help` lists.

mod common;

use std::collections::BTreeSet;

use common::bin;

fn help(args: &[&str]) -> String {
    let out = bin().args(args).arg("--help").output().unwrap();
    assert!(out.status.success(), "{args:?} --help: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap()
}

/// The commands `toolhelp16 --help` lists (without `help`).
fn commands() -> Vec<String> {
    let text = help(&[]);
    let mut in_list = false;
    let mut v = Vec::new();
    for line in text.lines() {
        if line.starts_with("Commands:") {
            in_list = true;
            continue;
        }
        if in_list {
            if !line.starts_with("  ") {
                break;
            }
            let name = line.split_whitespace().next().unwrap().to_string();
            if name != "help" {
                v.push(name);
            }
        }
    }
    assert!(v.len() >= 10, "{text}");
    v
}

/// The long options of `COMMAND --help` (without --help, --version).
fn options(command: &str) -> BTreeSet<String> {
    help(&[command])
        .lines()
        .filter_map(|l| {
            let t = l.trim_start();
            let t = t
                .strip_prefix('-')
                .filter(|r| r.len() > 2 && r.as_bytes()[1] == b',')
                .map_or(t, |r| r[2..].trim_start());
            let name: String = t
                .strip_prefix("--")?
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            (!name.is_empty() && l.starts_with("  ")).then(|| format!("--{name}"))
        })
        .filter(|o| o != "--help" && o != "--version")
        .collect()
}

/// The `--options` in backquotes in `text`.
fn quoted_options(text: &str) -> BTreeSet<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|t| t.starts_with("--"))
        .map(str::to_string)
        .collect()
}

/// README's "Options of every command": the run options and, per
/// command, its list.
fn readme_options() -> (BTreeSet<String>, Vec<(String, String)>) {
    let r = readme();
    let start = r
        .find("### Options of every command")
        .expect("README has \"### Options of every command\"");
    let section = &r[start..];
    let end = section[4..].find("\n#").map_or(section.len(), |e| e + 4);
    let section = &section[..end];
    let para_end = section.find("\n\n- ").expect("the run options paragraph");
    let run = quoted_options(&section[..para_end]);
    let per = section
        .lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("- `")?;
            let (name, list) = rest.split_once("`:")?;
            Some((name.to_string(), list.to_string()))
        })
        .collect();
    (run, per)
}

#[test]
fn every_command_has_help_and_readme_lists_exactly_its_options() {
    let (run_options, per) = readme_options();
    assert!(run_options.contains("--max-insns") && run_options.contains("--events"));
    let listed: Vec<&String> = per.iter().map(|(n, _)| n).collect();
    let cmds = commands();
    assert_eq!(
        listed.iter().map(|s| s.as_str()).collect::<BTreeSet<_>>(),
        cmds.iter().map(|s| s.as_str()).collect::<BTreeSet<_>>(),
        "README's option list names other commands than --help"
    );
    for (name, list) in &per {
        // `the run options except `--a`, `--b`; `--c``: the run options
        // without --a and --b, and --c.
        let (head, tail) = match list.split_once(';') {
            Some((h, t)) if h.contains("except") => (h, t),
            _ => ("", list.as_str()),
        };
        let mut want = quoted_options(tail);
        if list.contains("the run options") {
            let except = quoted_options(head);
            want.extend(run_options.difference(&except).cloned());
        }
        let got = options(name);
        assert_eq!(
            got, want,
            "`{name}`: --help has {got:?}, README lists {want:?}"
        );
    }
}

#[test]
fn readme_lists_exactly_the_exit_statuses_help_gives() {
    let text = help(&[]);
    let start = text
        .find("Exit status:")
        .expect("--help lists the exit statuses");
    let from_help: BTreeSet<u32> = text[start..]
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next()?.parse().ok())
        .collect();
    let r = readme();
    let table = &r[r.find("### Exit status").unwrap()..];
    let table = &table[..table[4..].find("\n#").unwrap() + 4];
    let from_readme: BTreeSet<u32> = table
        .lines()
        .filter_map(|l| l.strip_prefix("| ")?.split(' ').next()?.parse().ok())
        .collect();
    assert_eq!(from_help, from_readme);
    for code in [
        0, 1, 2, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127,
    ] {
        assert!(from_help.contains(&code), "{code} is not listed");
    }
}

#[test]
fn completions_and_man_page_are_generated() {
    let out = bin().args(["completions", "bash"]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("toolhelp16") && text.contains("--max-insns"),
        "{text}"
    );
    let out = bin().arg("man").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with(".ie") || text.contains(".TH toolhelp16"),
        "{text}"
    );
    assert!(
        text.contains("Exit status"),
        "the man page lists the exit statuses"
    );
    assert!(text.contains("stack"), "the man page names the commands");
    // The LOC syntax and examples; no page it does not write (issue 31).
    assert!(
        text.contains("LOC+prologue") && text.contains("MODULE!#N"),
        "{text}"
    );
    assert!(text.contains("Examples:"), "{text}");
    assert!(!text.contains("toolhelp16\\-help(1)"), "{text}");
    // A page per command, with its options.
    let dir = std::env::temp_dir().join(format!("toolhelp16-man-{}", std::process::id()));
    let out = bin().args(["man", "--dir"]).arg(&dir).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(dir.join("toolhelp16.1").is_file());
    let stack = std::fs::read_to_string(dir.join("toolhelp16-stack.1")).unwrap();
    assert!(stack.contains("max\\-frames"), "{stack}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// What an installed binary has: `demo`, `bench --quick` and `man` work
/// from any directory, without the source tree (their programs are inside
/// the binary). (`cargo install --path . --root DIR` gives this binary.)
#[test]
fn demo_bench_and_man_work_from_any_directory() {
    let dir = std::env::temp_dir().join(format!("toolhelp16-anywhere-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for args in [&["demo"][..], &["bench", "--quick"], &["man"]] {
        let out = bin()
            .args(args)
            .current_dir(&dir)
            .env_remove("CARGO_MANIFEST_DIR")
            .env_remove("TOOLHELP16_CORPUS")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?} from {}: {}",
            dir.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!out.stdout.is_empty(), "{args:?} printed nothing");
    }
    assert!(
        std::fs::read_dir(&dir).unwrap().next().is_none(),
        "they left files in the current directory"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
