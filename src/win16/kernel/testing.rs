//! Test support: a machine with a real program loaded.

use crate::loader::ne::NeImage;
use crate::machine::Machine;
use crate::win16::Env;
use crate::win16::kernel::loader::{load_program, start_task};
use std::path::Path;

/// roms/kernsvc.exe loaded as a task (not started): the machine, its
/// environment (not installed in the machine: tests call system
/// functions directly) and hTask.
pub fn kernsvc() -> (Machine, Env, u16) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("roms/kernsvc.exe");
    let ne = NeImage::parse(&std::fs::read(&path).unwrap()).unwrap();
    let mut m = Machine::new_protected().unwrap();
    let mut env = Env::new(false);
    let htask = load_program(&mut m, &mut env, &ne, &path, "", 1).unwrap();
    start_task(&mut m, &mut env, htask).unwrap();
    (m, env, htask)
}
