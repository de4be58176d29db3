//! docs/functions.md is the list of Win16 functions the API tables hold
//! now (src/win16/catalog.rs makes it). `TOOLHELP16_BLESS=1` rewrites it.
//! The README links to it.

use std::path::PathBuf;

#[test]
fn the_function_list_is_current() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let committed = root.join("docs/functions.md");
    let now = toolhelp16::win16::catalog::markdown();
    if std::env::var_os("TOOLHELP16_BLESS").is_some() {
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
        "docs/functions.md is not the API tables' list; rerun with TOOLHELP16_BLESS=1"
    );
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    assert!(
        readme.contains("](docs/functions.md)"),
        "the README links to the list"
    );
}
