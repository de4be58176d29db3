//! Builds the emulation engine toolhelp16 runs on: the C core of the crate
//! unicorn-engine 2.1.3 exactly as crates.io publishes it, with the
//! patches of `vendor/unicorn-patches/` applied in the build directory
//! (vendor/README.md says what each changes and why).
//!
//! Cargo downloads the published crate because `Cargo.toml` depends on it
//! (`Cargo.lock` holds its checksum). This script takes the `.crate` file
//! from cargo's registry cache, checks its SHA-256 against the one
//! crates.io published, unpacks it into `OUT_DIR`, applies the patches
//! there (`git apply`, or `patch -p1` without git) and builds the x86 core
//! with cmake, as the crate's own build script does. The library is linked
//! whole and first (`+whole-archive`), so its definitions are the ones the
//! binding's calls reach.
//!
//! With the feature `unpatched-engine` the same is done without the
//! patches: the engine as published (slower, and without patch 0006's
//! inline count: src/machine/counter.rs calls the block hook for every
//! block instead).
//!
//! The crate's own build script, which would build the C core a second
//! time, is overridden in `.cargo/config.toml` (its `links = "unicorn"`)
//! for the usual targets; on another target it runs, and its unpatched
//! archive, later on the link line, adds nothing.
//!
//! Part of toolhelp16 (GPL-2.0-or-later).

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// SHA-256 of `unicorn-engine-2.1.3.crate` as crates.io publishes it (the
/// checksum `Cargo.lock` records).
const CRATE_SHA256: &str = "827118d4fdedff61086fe435c6bd84f9f7e2f189a7d0fdcffdb788b23cea10d8";
const CRATE_FILE: &str = "unicorn-engine-2.1.3.crate";

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=vendor/unicorn-patches");
    println!("cargo:rerun-if-env-changed=CARGO_HOME");
    let patched = env::var_os("CARGO_FEATURE_UNPATCHED_ENGINE").is_none();
    if let Err(e) = build(patched) {
        eprintln!("toolhelp16 build.rs: {e}");
        std::process::exit(1);
    }
}

/// Unpack the published crate into OUT_DIR, apply the patches (when
/// `patched`), build the x86 core and tell cargo to link it.
fn build(patched: bool) -> Result<(), String> {
    let root = PathBuf::from(env::var("CARGO_MANIFEST_DIR").map_err(|e| e.to_string())?);
    let out = PathBuf::from(env::var("OUT_DIR").map_err(|e| e.to_string())?);
    let krate = find_crate()?;
    println!("cargo:rerun-if-changed={}", krate.display());

    let src = out.join("unicorn-engine-2.1.3");
    if src.exists() {
        fs::remove_dir_all(&src).map_err(|e| format!("{}: {e}", src.display()))?;
    }
    run(Command::new("tar")
        .arg("-xzf")
        .arg(&krate)
        .arg("-C")
        .arg(&out))?;

    let mut patches: Vec<PathBuf> = if patched {
        fs::read_dir(root.join("vendor/unicorn-patches"))
            .map_err(|e| format!("vendor/unicorn-patches: {e}"))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "patch"))
            .collect()
    } else {
        Vec::new()
    };
    patches.sort();
    let git = Command::new("git").arg("--version").output().is_ok();
    for p in &patches {
        let mut c = if git {
            let mut c = Command::new("git");
            // Outside a repository `git apply` works as patch(1) does; keep
            // it from finding one above OUT_DIR.
            c.env("GIT_CEILING_DIRECTORIES", &out)
                .args(["apply", "-p1"])
                .arg(p);
            c
        } else {
            let mut c = Command::new("patch");
            c.args(["-p1", "--forward", "--silent", "-i"]).arg(p);
            c
        };
        c.current_dir(&src);
        run(&mut c).map_err(|e| format!("{} does not apply: {e}", p.display()))?;
    }

    let compiler = cc::Build::new().get_compiler();
    let dst = cmake::Config::new(&src)
        .define("UNICORN_BUILD_TESTS", "OFF")
        .define("UNICORN_INSTALL", "OFF")
        .define("UNICORN_ARCH", "x86")
        .no_build_target(true)
        .build();
    // The combined archive under another name, so that the `-l unicorn`
    // of the crate's own build script (where it runs) cannot find it
    // instead of its own.
    let lib = out.join("lib");
    fs::create_dir_all(&lib).map_err(|e| format!("{}: {e}", lib.display()))?;
    let built = dst.join("build").join(if compiler.is_like_msvc() {
        "unicorn.lib"
    } else {
        "libunicorn.a"
    });
    let named = lib.join(if compiler.is_like_msvc() {
        "unicorn_toolhelp16.lib"
    } else {
        "libunicorn_toolhelp16.a"
    });
    fs::copy(&built, &named).map_err(|e| format!("{}: {e}", built.display()))?;
    println!("cargo:rustc-link-search=native={}", lib.display());
    println!("cargo:rustc-link-lib=static:+whole-archive=unicorn_toolhelp16");
    if compiler.is_like_msvc() {
        println!("cargo:rustc-link-arg=/FORCE:MULTIPLE");
    } else {
        // The archive holds a few symbols twice (unicorn's build says so
        // and passes the same flag), and where the crate's own build
        // script runs its unpatched archive is searched after it.
        println!("cargo:rustc-link-arg=-Wl,-allow-multiple-definition");
        println!("cargo:rustc-link-lib=pthread");
        println!("cargo:rustc-link-lib=m");
    }
    Ok(())
}

/// The published `.crate` in cargo's registry cache whose SHA-256 is
/// crates.io's.
fn find_crate() -> Result<PathBuf, String> {
    let home = env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| env::var_os("HOME").map(|h| Path::new(&h).join(".cargo")))
        .ok_or("neither CARGO_HOME nor HOME is set")?;
    let cache = home.join("registry/cache");
    let mut seen = Vec::new();
    for reg in fs::read_dir(&cache).map_err(|e| format!("{}: {e}", cache.display()))? {
        let p = reg.map_err(|e| e.to_string())?.path().join(CRATE_FILE);
        let Ok(bytes) = fs::read(&p) else { continue };
        let sum = hex(&sha256(&bytes));
        if sum == CRATE_SHA256 {
            return Ok(p);
        }
        seen.push(format!("{}: SHA-256 {sum}", p.display()));
    }
    Err(format!(
        "no {CRATE_FILE} with crates.io's SHA-256 {CRATE_SHA256} under {} ({}); \
         cargo downloads it as a dependency (`cargo fetch`)",
        cache.display(),
        if seen.is_empty() {
            "none found".to_string()
        } else {
            seen.join("; ")
        }
    ))
}

fn run(c: &mut Command) -> Result<(), String> {
    let o = c.output().map_err(|e| format!("{c:?}: {e}"))?;
    if !o.status.success() {
        return Err(format!(
            "{c:?}: {}\n{}{}",
            o.status,
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        ));
    }
    Ok(())
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// SHA-256 (FIPS 180-4), so that the check needs no tool and no crate.
fn sha256(data: &[u8]) -> [u8; 32] {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut h: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];
    let mut msg = data.to_vec();
    let bits = (data.len() as u64).wrapping_mul(8);
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&bits.to_be_bytes());
    for block in msg.chunks_exact(64) {
        let mut w = [0u32; 64];
        for (i, word) in block.chunks_exact(4).enumerate() {
            w[i] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16]
                .wrapping_add(s0)
                .wrapping_add(w[i - 7])
                .wrapping_add(s1);
        }
        let mut v = h;
        for (k, wi) in K.iter().zip(w) {
            let s1 = v[4].rotate_right(6) ^ v[4].rotate_right(11) ^ v[4].rotate_right(25);
            let ch = (v[4] & v[5]) ^ (!v[4] & v[6]);
            let t1 = v[7]
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(*k)
                .wrapping_add(wi);
            let s0 = v[0].rotate_right(2) ^ v[0].rotate_right(13) ^ v[0].rotate_right(22);
            let maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
            let t2 = s0.wrapping_add(maj);
            v = [
                t1.wrapping_add(t2),
                v[0],
                v[1],
                v[2],
                v[3].wrapping_add(t1),
                v[4],
                v[5],
                v[6],
            ];
        }
        for (a, b) in h.iter_mut().zip(v) {
            *a = a.wrapping_add(b);
        }
    }
    let mut out = [0u8; 32];
    for (i, x) in h.iter().enumerate() {
        out[i * 4..i * 4 + 4].copy_from_slice(&x.to_be_bytes());
    }
    out
}
