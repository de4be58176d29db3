//! `toolhelp16 disasm`: the command over [`crate::disasm`].

use std::path::{Path, PathBuf};
use std::rc::Rc;

use super::{EXIT_LOAD, fail};
use crate::loader::KindHint;
use crate::session::{self, Loc};
use crate::symbols::{Given, ModuleInfo, Registry, SymbolTable, fit::Target};

/// What `disasm` was asked.
pub struct DisasmArgs {
    pub file: PathBuf,
    pub segment: Option<u16>,
    pub at: Option<String>,
    pub count: Option<usize>,
    pub syntax: crate::trace::Syntax,
    pub json: bool,
    pub maps: Vec<String>,
    pub no_symbol_search: bool,
}

/// Run `disasm`: the listing on stdout, the exit status.
pub fn disasm(a: DisasmArgs) -> i32 {
    let file = &a.file;
    let image = match session::parse_file(file, KindHint::Auto) {
        Ok(i) => i,
        Err(e) => return fail(EXIT_LOAD, &e.to_string()),
    };
    let at: Option<Loc> = match a.at.as_deref().map(str::parse).transpose() {
        Ok(l) => l,
        Err(e) => return fail(EXIT_LOAD, &format!("--at: {e}")),
    };
    let mut given = Vec::new();
    for arg in &a.maps {
        match Given::read(arg) {
            Ok(g) => given.push(g),
            Err(e) => return fail(EXIT_LOAD, &e),
        }
    }
    let registry = Registry::new(given, !a.no_symbol_search);
    let stem = stem(file);
    let symbols = |target: &Target<'_>| -> Result<Rc<SymbolTable>, String> {
        let name = match target {
            Target::Ne(ne) => ne.module_name().unwrap_or("").to_ascii_uppercase(),
            Target::Dos { .. } => stem.clone(),
        };
        registry.table(&ModuleInfo {
            name: &name,
            path: Some(file),
            target: *target,
        })
    };
    let opts = crate::disasm::Options {
        syntax: a.syntax,
        segment: a.segment,
        at,
        count: a.count,
    };
    let listing = match crate::disasm::listing(&image, &stem, &symbols, &opts) {
        Ok(l) => l,
        Err(e) => return fail(EXIT_LOAD, &format!("{}: {e}", file.display())),
    };
    for w in registry.take_warnings() {
        super::tell(&format!("toolhelp16: warning: {w}\n"));
    }
    if a.json {
        let mut text = String::new();
        // A segment with nothing to list says so, as the text's heading
        // does: `--json` never prints nothing (issue 30; found by the
        // fuzz target `commands`, tests/fuzz_regressions.rs).
        let empty: Vec<String> = listing
            .sections
            .iter()
            .filter(|s| s.lines.is_empty())
            .map(|s| format!("{}: no instructions", s.heading.trim()))
            .collect();
        let notes = listing
            .notes
            .iter()
            .chain(&empty)
            .map(|n| super::json::DisasmOut::Note { note: n });
        let lines = listing
            .sections
            .iter()
            .flat_map(|s| &s.lines)
            .map(super::json::DisasmOut::Line);
        for body in notes.chain(lines) {
            let v = super::json::Versioned {
                version: toolhelp16::JSON_VERSION,
                body,
            };
            text.push_str(&serde_json::to_string(&v).unwrap_or_default());
            text.push('\n');
        }
        super::write_stdout(text.as_bytes());
    } else {
        let what = match &image {
            crate::loader::Image::Ne(ne) => format!(
                "NE module {}",
                crate::escape::name(ne.module_name().unwrap_or(""))
            ),
            crate::loader::Image::Mz(_) => "DOS MZ program".into(),
            crate::loader::Image::Com(_) => "DOS .COM program".into(),
            crate::loader::Image::Raw(_) => "raw image".into(),
        };
        super::say(&crate::disasm::text(
            &listing,
            &format!("{}: {what}", file.display()),
        ));
    }
    0
}

/// The DOS program's name: its file's stem, upper case.
fn stem(file: &Path) -> String {
    file.file_stem()
        .map(|s| s.to_string_lossy().to_ascii_uppercase())
        .unwrap_or_default()
}
