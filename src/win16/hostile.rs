//! The hostile-argument harness of the system functions' tests: calls
//! functions of the API table with what a bad program could pass —
//! handles of live, deleted and made-up objects (those earlier calls
//! returned among them), pointers to random bytes and to nothing, extreme
//! numbers — and checks that nothing panics and nothing hangs. The caller
//! checks what else must hold (GDI's heap stays consistent).

use crate::machine::{Machine, SegKind, Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};

/// How a round calls its function (directly, or through a hook first as
/// call_api does).
pub type Call<'a> = &'a mut dyn FnMut(&mut Env, &mut Uc<'_>, &Api, &[u32]) -> Result<u32, Stop>;

/// Run `rounds` calls, seeded by `seed` (xorshift64): `pick` chooses each
/// round's function from one random number, `call` calls it. Each
/// argument is a handle seen before, a random word, a negative word, a
/// small number, or a far pointer: null, random, a linear-looking
/// value, or into a segment of 4 KiB of random bytes. Every round must
/// finish within two minutes of the start. Returns the environment.
pub fn hostile_calls(
    seed: u64,
    rounds: usize,
    pick: &mut dyn FnMut(u64) -> &'static Api,
    call: Call<'_>,
) -> Env {
    let mut m = Machine::new_protected().expect("a protected-mode machine");
    let mut seed = seed;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let bytes: Vec<u8> = (0..0x1000).map(|_| next() as u8).collect();
    let data = m
        .alloc_segment(SegKind::Data, 0x1000, &bytes)
        .expect("a data segment");
    let mut env = Env::new(false);
    let mut handles: Vec<u32> = vec![0, 1, 0x100, 0x5001, 0xFFFF];
    let start = std::time::Instant::now();
    for round in 0..rounds {
        let api = pick(next());
        let args: Vec<u32> = api
            .args
            .iter()
            .map(|a| {
                let r = next();
                match (a, r % 8) {
                    (Arg::W, 0..=2) => handles[(r >> 8) as usize % handles.len()],
                    (Arg::W, 3) => (r >> 8) as u32 & 0xFFFF,
                    (Arg::W, 4) => 0x8000 | (r >> 8) as u32 & 0x7FFF,
                    (Arg::W, _) => (r >> 8) as u32 % 700,
                    (Arg::L, 0) => 0,
                    (Arg::L, 1) => (r >> 8) as u32,
                    (Arg::L, 2) => 0x00FF_FFFF & (r >> 8) as u32,
                    (Arg::L, _) => u32::from(data) << 16 | ((r >> 8) as u32 % 0x1000),
                }
            })
            .collect();
        if let Ok(v) = call(&mut env, &mut m, api, &args)
            && v & 0xFFFF != 0
            && handles.len() < 64
        {
            handles.push(v & 0xFFFF);
        }
        assert!(
            start.elapsed().as_secs() < 120,
            "round {round}: {} took too long",
            api.name
        );
    }
    env
}
