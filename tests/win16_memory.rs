//! KERNEL's memory as a real program uses it: tests/watcom/memory.c,
//! built with Open Watcom in the small model (the C runtime's malloc takes
//! its blocks from the local heap, which must grow past the declared
//! HEAPSIZE) and in the large model (malloc takes far blocks from the
//! global heap). The program's header gives each line's meaning and the
//! Windows 3.1 SDK behaviour it checks.

mod common;
use common::watcom::{self, Kind};
use common::{bin, json};

/// What memory.c prints on Windows 3.1 (its header).
const WANT: &str = "malloc 40 1\r\n\
local 1 1 1 1 0 1\r\n\
zero 1 1 1 0 1 1\r\n\
discard 1 1 1 1\r\n\
modify 1 1 1\r\n\
grow 1 1 1\r\n\
fail 0 1 1\r\n\
compact 1 1\r\n\
notify 1 1\r\n\
localinit 1 1 1 1 1 1\r\n\
heapinfo 1 1\r\n";

fn run_model(name: &str, model: &str) {
    let Some(exe) = watcom::build(name, Kind::Win16Exe, &["memory.c"], None, &[model]) else {
        return;
    };
    let out = bin().args(["run", "--json"]).arg(&exe).output().unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(v["exit"]["code"], 0, "{v}");
    assert_eq!(v["output"], WANT, "{v}");
}

#[test]
fn small_model_memory_behaves_as_on_windows() {
    run_model("memory_s", "-ms");
}

#[test]
fn large_model_memory_behaves_as_on_windows() {
    run_model("memory_l", "-ml");
}
