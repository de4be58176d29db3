//! What the CLI tests share: the binary, the roms directory, and reading
//! the JSON a run prints. Each test crate uses its own part of it.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

/// The toolhelp16 binary under test.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_toolhelp16"))
}

/// A file in roms/.
pub fn rom(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("roms")
        .join(name)
}

/// The JSON a command printed on stdout (the panic shows stdout and
/// stderr).
pub fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// A JSON array of strings.
pub fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|e| e.as_str().unwrap().to_string())
        .collect()
}
