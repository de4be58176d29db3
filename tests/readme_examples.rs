//! README's examples are what the tool prints: every fenced block in
//! README.md is either an example the test runs — its command on a `$
//! toolhelp16 ...` first line, or in an `<!-- example: ARGS -->` comment
//! just before it — whose lines must appear, in order and one after the
//! other, in the command's output (stdout, then stderr; `...` in a line
//! stands for any text), or is marked `<!-- not an example: WHY -->`.
//! A new block without either fails, so README cannot rot; an indented
//! block (inside a list item) is an example like any other. (A session
//! that cannot be replayed by running one command, such as gdb's, is
//! marked not an example even when it starts with `$ toolhelp16`.)

mod common;

use common::bin;

struct Block {
    line: usize,
    /// The command's arguments (after `toolhelp16`), when it is an example.
    args: Option<Vec<String>>,
    body: Vec<String>,
}

fn blocks() -> Vec<Block> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        // A fence may be indented (a block inside a list item): its
        // lines lose that indentation.
        let indent = lines[i].len() - lines[i].trim_start().len();
        if !lines[i].trim_start().starts_with("```") {
            i += 1;
            continue;
        }
        let start = i;
        let mut body = Vec::new();
        i += 1;
        while i < lines.len() && !lines[i].trim_start().starts_with("```") {
            let l = lines[i];
            let cut = l.len() - l.trim_start().len();
            body.push(l[cut.min(indent)..].to_string());
            i += 1;
        }
        i += 1;
        // The comment before the block (blank lines allowed between).
        let before = lines[..start]
            .iter()
            .rev()
            .find(|l| !l.trim().is_empty())
            .map(|l| l.trim_start())
            .unwrap_or("");
        let marker_args = before
            .strip_prefix("<!-- example: ")
            .and_then(|r| r.strip_suffix(" -->"))
            .map(|a| a.split_whitespace().map(str::to_string).collect::<Vec<_>>());
        let dollar = body
            .first()
            .and_then(|l| l.strip_prefix("$ toolhelp16 "))
            .map(|a| a.split_whitespace().map(str::to_string).collect::<Vec<_>>());
        let args = match (marker_args, dollar) {
            _ if before.starts_with("<!-- not an example: ") => None,
            (Some(a), _) => Some(a),
            (None, Some(a)) => {
                body.remove(0);
                Some(a)
            }
            (None, None) => {
                assert!(
                    before.starts_with("<!-- not an example: "),
                    "README.md:{}: a fenced block that is neither an example (`$ toolhelp16 ...` \
                     or `<!-- example: ARGS -->`) nor marked `<!-- not an example: WHY -->`",
                    start + 1
                );
                None
            }
        };
        out.push(Block {
            line: start + 1,
            args,
            body,
        });
    }
    out
}

/// `line` matches `pattern`, where `...` stands for any text.
fn matches(pattern: &str, line: &str) -> bool {
    let parts: Vec<&str> = pattern.split("...").collect();
    if parts.len() == 1 {
        return pattern == line;
    }
    let mut rest = match line.strip_prefix(parts[0]) {
        Some(r) => r,
        None => return false,
    };
    for (k, p) in parts.iter().enumerate().skip(1) {
        if k == parts.len() - 1 {
            return rest.ends_with(p);
        }
        match rest.find(p) {
            Some(at) => rest = &rest[at + p.len()..],
            None => return false,
        }
    }
    true
}

#[test]
fn every_readme_example_is_what_the_tool_prints() {
    let all = blocks();
    let examples: Vec<&Block> = all.iter().filter(|b| b.args.is_some()).collect();
    assert!(
        examples.len() >= 4,
        "README has {} examples",
        examples.len()
    );
    for b in examples {
        let args = b.args.as_ref().unwrap();
        let out = bin()
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap();
        let printed = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let got: Vec<&str> = printed.lines().map(str::trim_end).collect();
        let want: Vec<&str> = b.body.iter().map(|l| l.trim_end()).collect();
        let found = (0..got.len().saturating_sub(want.len()) + 1).any(|s| {
            got.len() >= s + want.len() && want.iter().zip(&got[s..]).all(|(w, g)| matches(w, g))
        });
        assert!(
            found,
            "README.md:{}: `toolhelp16 {}` does not print the example.\nREADME:\n{}\n\nprinted:\n{}",
            b.line,
            args.join(" "),
            want.join("\n"),
            printed
        );
    }
}

#[test]
fn the_wildcard_matches_as_documented() {
    assert!(matches(
        "/tmp/x-.../demo.exe: stopped",
        "/tmp/x-123/demo.exe: stopped"
    ));
    assert!(!matches(
        "/tmp/x-.../demo.exe: stopped",
        "/tmp/y-123/demo.exe: stopped"
    ));
    assert!(matches("abc", "abc"));
    assert!(!matches("abc", "abcd"));
}
