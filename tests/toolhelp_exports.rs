//! TOOLHELP.DLL's exports and KERNEL's global heap, as a program sees them.
//!
//! - `roms/thwalk.exe` walks its own stack through TOOLHELP
//!   (StackTraceCSIPFirst, then StackTraceNext until it fails) and prints
//!   every frame with OutputDebugString; its frames must be the frames the
//!   host's walk (`toolhelp16 stack`) reports at the same place.
//! - tests/watcom/thexp.c (Open Watcom, small model, toolhelp.lib) is a
//!   TOOLHELP client of classes, modules, tasks, MemoryRead/MemoryWrite
//!   and TimerCount; its lines are compared exactly with what the Windows
//!   3.1 SDK documents (its header says which).
//! - The other tests call the system functions directly on a loaded
//!   program, with structures in memory that GlobalAlloc gave: structure
//!   contents, the dwSize checks, bad pointers, the heap's limits.

use std::path::{Path, PathBuf};

use toolhelp16::loader::{self, Image, KindHint};
use toolhelp16::machine::{Cpu, Machine, R, Stop};
use toolhelp16::system::Env;
use toolhelp16::walk::StackTraceEntry;
use toolhelp16::win16::api::{self, ApiFn};
use toolhelp16::win16::global::{ARENA_LIMIT, GF_PDB_OWNER, MAX_BLOCK, MAX_HUGE_BLOCK, gmem, gt};
use toolhelp16::win16::toolhelp::{self, GlobalEntry, ModuleEntry, TaskEntry};

mod common;
use common::watcom;
use common::{bin, json};

fn roms() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("roms")
}

/// One frame as thwalk prints it: (wCS, wIP, wBP, hModule, wSegment, far).
type Frame = (u64, u64, u64, u64, u64, bool);

fn parse_frame(line: &str) -> Frame {
    // frame CCCC:IIII bp=BBBB hmod=HHHH seg=SSSS far|near
    let w: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(w.len(), 6, "{line}");
    let hex = |s: &str| u64::from_str_radix(s, 16).unwrap_or_else(|_| panic!("{line}"));
    let (cs, ip) = w[1].split_once(':').unwrap();
    let field = |s: &str, k: &str| hex(s.strip_prefix(k).unwrap_or_else(|| panic!("{line}")));
    let far = match w[5] {
        "far" => true,
        "near" => false,
        _ => panic!("{line}"),
    };
    (
        hex(cs),
        hex(ip),
        field(w[2], "bp="),
        field(w[3], "hmod="),
        field(w[4], "seg="),
        far,
    )
}

#[test]
fn thwalk_walks_its_own_stack_as_the_host_walks_it() {
    let exe = roms().join("thwalk.exe");
    let out = bin().args(["run", "--json"]).arg(&exe).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "exited");
    let lines: Vec<String> = v["debug_output"]
        .as_array()
        .expect("debug_output")
        .iter()
        .map(|l| l.as_str().unwrap().to_string())
        .collect();
    let mine: Vec<Frame> = lines
        .iter()
        .filter(|l| l.starts_with("frame "))
        .map(|l| parse_frame(l))
        .collect();
    assert_eq!(mine.len(), 5, "{lines:#?}");
    assert!(lines.contains(&"frames 0005".to_string()), "{lines:#?}");

    // The frames thwalk.asm's header works out: (segment, IP, BP, far).
    let want = [
        (1, 0x52, 0x9D6, true),
        (2, 0x25, 0x9DE, true),
        (2, 0x10, 0x9E6, false),
        (1, 0x3D, 0x9F0, true),
        (1, 0x21, 0x9F8, true),
    ];
    let got: Vec<(u64, u64, u64, bool)> = mine.iter().map(|f| (f.4, f.1, f.2, f.5)).collect();
    assert_eq!(got, want, "{lines:#?}");
    let hmod = mine[0].3;
    assert!(mine.iter().all(|f| f.3 == hmod && hmod != 0));

    // The host's walk at the same place: stop where the first frame is.
    let at = format!("THWALK:{}:{:04X}", mine[0].4, mine[0].1);
    let out = bin()
        .args(["stack", "--json", "--at", &at])
        .arg(&exe)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{at}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let host: Vec<Frame> = json(&out)["frames"]
        .as_array()
        .expect("frames")
        .iter()
        .map(|f| {
            let n = |k: &str| f[k].as_u64().unwrap_or_else(|| panic!("{k} in {f}"));
            (
                n("wCS"),
                n("wIP"),
                n("wBP"),
                n("hModule"),
                n("wSegment"),
                n("wFlags") == 0,
            )
        })
        .collect();
    assert_eq!(mine, host, "the program's walk and the host's walk differ");

    // Then the task list, the module look-up and the heap.
    let task = lines
        .iter()
        .find(|l| l.starts_with("task "))
        .expect("a task line");
    assert!(task.ends_with(" module THWALK"), "{task}");
    assert_eq!(lines.iter().filter(|l| l.starts_with("task ")).count(), 1);
    let found = lines
        .iter()
        .find(|l| l.starts_with("found "))
        .expect("ModuleFindName found TOOLHELP");
    assert!(found.starts_with("found TOOLHELP hmod="), "{found}");
    assert!(lines.contains(&"freed 0000".to_string()), "{lines:#?}");
}

// ------------------------------------------------ direct calls, one program

/// A loaded (not yet started) thwalk.exe and its environment, to call
/// system functions on.
struct World {
    m: Machine,
    env: Env,
    htask: u16,
}

impl World {
    fn new() -> World {
        let path = roms().join("thwalk.exe");
        let bytes = std::fs::read(&path).unwrap();
        let Image::Ne(ne) = loader::parse(&bytes, KindHint::Auto).unwrap() else {
            panic!("thwalk.exe is an NE program");
        };
        let mut m = Machine::new_protected().unwrap();
        let mut env = Env::new(false);
        let htask =
            toolhelp16::win16::kernel::loader::load_program(&mut m, &mut env, &ne, &path, "", 1)
                .unwrap();
        toolhelp16::win16::kernel::loader::start_task(&mut m, &mut env, htask).unwrap();
        World { m, env, htask }
    }

    fn call(&mut self, f: ApiFn, args: &[u32]) -> u32 {
        f(&mut self.env, &mut self.m, args).expect("the call returns")
    }

    fn api(&mut self, module: &str, ordinal: u16, args: &[u32]) -> u32 {
        let a = api::find(module, ordinal).unwrap_or_else(|| panic!("{module}.{ordinal}"));
        assert_eq!(a.args.len(), args.len(), "{}", a.name);
        self.call(a.func, args)
    }

    /// A fixed, zeroed buffer from GlobalAlloc, as a far pointer.
    fn buffer(&mut self, size: u32) -> u32 {
        let h = self.api("KERNEL", 15, &[u32::from(gmem::ZEROINIT), size]);
        assert_ne!(h, 0, "GlobalAlloc({size:#x})");
        h << 16
    }

    fn get(&self, p: u32, n: usize) -> Vec<u8> {
        let mut b = vec![0u8; n];
        self.m.read_seg((p >> 16) as u16, p as u16, &mut b).unwrap();
        b
    }

    fn put(&mut self, p: u32, b: &[u8]) {
        self.m.write_seg((p >> 16) as u16, p as u16, b).unwrap();
    }

    fn w(&self, p: u32, off: u32) -> u16 {
        let b = self.get(p + off, 2);
        u16::from_le_bytes([b[0], b[1]])
    }

    fn d(&self, p: u32, off: u32) -> u32 {
        let b = self.get(p + off, 4);
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    }

    fn set_size(&mut self, p: u32, size: u32) {
        self.put(p, &size.to_le_bytes());
    }

    fn module(&self, name: &str) -> toolhelp16::win16::Module {
        self.env.win16.module_by_name(name).unwrap().clone()
    }
}

#[test]
fn every_block_the_loader_made_is_in_the_arena() {
    let w = World::new();
    let arena = &w.env.win16.global;
    let addrs: Vec<u32> = arena.blocks().iter().map(|b| b.address).collect();
    assert!(addrs.windows(2).all(|p| p[0] < p[1]), "address order");
    for m in &w.env.win16.modules {
        let db = arena.find(m.hmodule).expect("module database");
        assert_eq!((db.kind, db.owner), (gt::MODULE, m.hmodule), "{}", m.name);
        for (i, &sel) in m.segments.iter().enumerate() {
            let b = arena.find(sel).expect("segment block");
            assert_eq!(b.owner, m.hmodule, "{} segment {}", m.name, i + 1);
            assert_eq!(b.segment, Some(i as u16 + 1));
            assert!(!b.pdb_owner);
            let d = w.m.descriptor_of(sel).unwrap();
            assert_eq!((b.address, b.size), (d.base, d.limit + 1));
        }
    }
    let thwalk = w.module("THWALK");
    let kinds: Vec<u16> = thwalk
        .segments
        .iter()
        .map(|&s| arena.find(s).unwrap().kind)
        .collect();
    assert_eq!(kinds, [gt::CODE, gt::CODE, gt::DGROUP]);
    for name in ["KERNEL", "TOOLHELP"] {
        let m = w.module(name);
        assert_eq!(arena.find(m.segments[0]).unwrap().kind, gt::CODE, "{name}");
    }
    let task = w.env.win16.task(w.htask).unwrap().clone();
    let tdb = arena.find(task.htask).expect("TDB");
    assert_eq!((tdb.kind, tdb.owner), (gt::TASK, thwalk.hmodule));
    let psp = arena.find(task.psp).expect("PSP");
    assert_eq!((psp.owner, psp.pdb_owner), (task.psp, true));
    // hInstance is DGROUP's handle.
    assert_eq!(
        arena.find(task.hinstance).map(|b| b.selector),
        Some(task.dgroup)
    );
}

#[test]
fn global_alloc_is_bounded() {
    let mut w = World::new();
    // Past 64 KiB a block is huge (consecutive selectors); past Windows
    // 3.1's 16 MiB - 64 KiB it is refused.
    for bytes in [0, MAX_HUGE_BLOCK + 1, u32::MAX] {
        assert_eq!(w.api("KERNEL", 15, &[0, bytes]), 0, "{bytes:#x}");
    }
    let huge = w.api("KERNEL", 15, &[0, MAX_BLOCK + 1]);
    assert_ne!(huge, 0);
    assert_eq!(w.api("KERNEL", 20, &[huge]), MAX_BLOCK + 32);
    assert_eq!(w.api("KERNEL", 17, &[huge]), 0);
    let before = w.env.win16.global.used();
    let room = (ARENA_LIMIT - before) / MAX_BLOCK;
    let mut handles = Vec::new();
    loop {
        let h = w.api("KERNEL", 15, &[0, MAX_BLOCK]);
        if h == 0 {
            break;
        }
        handles.push(h);
        assert!(handles.len() <= room as usize, "past the arena limit");
    }
    assert_eq!(handles.len(), room as usize);
    assert!(w.env.win16.global.used() <= ARENA_LIMIT);
    assert_eq!(
        w.api("KERNEL", 25, &[0xFFFF_FFFF]),
        w.env.win16.global.free().min(MAX_HUGE_BLOCK)
    );
    // What is left is less than a block; take it, then nothing is left.
    let rest = w.env.win16.global.free();
    assert!(rest < MAX_BLOCK && rest % 32 == 0, "{rest:#x}");
    if rest > 0 {
        assert_eq!(w.api("KERNEL", 15, &[0, rest + 1]), 0);
        assert_ne!(w.api("KERNEL", 15, &[0, rest]), 0);
    }
    assert_eq!(w.api("KERNEL", 15, &[0, 1]), 0, "full");
    assert_eq!(w.api("KERNEL", 25, &[0]), 0);
    // Freeing makes room again.
    assert_eq!(w.api("KERNEL", 17, &[handles[3]]), 0);
    assert_ne!(w.api("KERNEL", 15, &[0, MAX_BLOCK]), 0);
    assert_eq!(w.api("KERNEL", 15, &[0, 1]), 0, "full again");
}

#[test]
fn global_lock_size_flags_handle_and_free() {
    let mut w = World::new();
    let flags = gmem::MOVEABLE | gmem::DISCARDABLE;
    let h = w.api("KERNEL", 15, &[u32::from(flags), 100]) as u16;
    assert_ne!(h, 0);
    let sel = h + 1;
    assert_eq!(sel & 7, 7, "a moveable handle is its selector minus 1");
    assert_eq!(
        w.api("KERNEL", 20, &[u32::from(h)]),
        128,
        "32-byte granules"
    );
    assert_eq!(
        w.api("KERNEL", 21, &[u32::from(sel)]),
        u32::from(sel) << 16 | u32::from(h)
    );
    assert_eq!(w.api("KERNEL", 18, &[u32::from(h)]), u32::from(sel) << 16);
    assert_eq!(w.api("KERNEL", 18, &[u32::from(h)]), u32::from(sel) << 16);
    assert_eq!(w.api("KERNEL", 22, &[u32::from(h)]), 0x0102);
    assert_eq!(w.api("KERNEL", 19, &[u32::from(h)]), 1, "still locked");
    assert_eq!(w.api("KERNEL", 19, &[u32::from(h)]), 0, "unlocked");
    assert_eq!(w.api("KERNEL", 19, &[u32::from(h)]), 0);
    assert_eq!(w.api("KERNEL", 22, &[u32::from(h)]), 0x0100);
    // LockSegment(-1) locks DS.
    w.m.set_reg(R::DS, sel).unwrap();
    assert_eq!(w.api("KERNEL", 23, &[0xFFFF]), u32::from(h));
    assert_eq!(w.api("KERNEL", 22, &[u32::from(h)]), 0x0101);
    assert_eq!(w.api("KERNEL", 24, &[u32::from(sel)]), 0);
    assert_eq!(w.api("KERNEL", 22, &[u32::from(h)]), 0x0100);
    // A fixed block has no lock count.
    let f = w.api("KERNEL", 15, &[0, 16]) as u16;
    assert_eq!(f & 7, 7, "a fixed handle is its selector");
    assert_eq!(w.api("KERNEL", 18, &[u32::from(f)]), u32::from(f) << 16);
    assert_eq!(w.api("KERNEL", 22, &[u32::from(f)]), 0);
    // Freeing clears the data segment registers that hold it.
    w.m.set_reg(R::ES, f).unwrap();
    assert_eq!(w.api("KERNEL", 17, &[u32::from(h)]), 0);
    assert_eq!(w.m.reg(R::DS), 0);
    assert_eq!(w.api("KERNEL", 17, &[u32::from(f)]), 0);
    assert_eq!(w.m.reg(R::ES), 0);
    for h in [h, f] {
        assert_eq!(w.api("KERNEL", 20, &[u32::from(h)]), 0);
        assert_eq!(w.api("KERNEL", 18, &[u32::from(h)]), 0);
        assert_eq!(w.api("KERNEL", 17, &[u32::from(h)]), u32::from(h));
        assert!(w.m.descriptor_of(h | 7).is_none());
    }
    // The loader's blocks are not the program's to free or resize.
    let code = w.module("THWALK").segments[0];
    assert_eq!(w.api("KERNEL", 17, &[u32::from(code)]), u32::from(code));
    assert_eq!(w.api("KERNEL", 16, &[u32::from(code), 64, 0]), 0);
    assert!(w.m.descriptor_of(code).is_some());
    // But a program may enlarge its own DGROUP, as KERNEL does when the
    // local heap grows: the handle and selector stay, the bytes too.
    let dg = w.env.win16.tasks[0].dgroup;
    let hdg = w.api("KERNEL", 21, &[u32::from(dg)]) & 0xFFFF;
    let size = w.api("KERNEL", 20, &[hdg]);
    let first = w.get(u32::from(dg) << 16, 16);
    assert_eq!(w.api("KERNEL", 16, &[hdg, size + 0x100, 2]), hdg);
    assert_eq!(w.api("KERNEL", 20, &[hdg]), size + 0x100);
    assert_eq!(w.m.descriptor_of(dg).unwrap().limit + 1, size + 0x100);
    assert_eq!(w.get(u32::from(dg) << 16, 16), first);
    // Unknown handles.
    for bad in [0u32, 0x0008, 0xFFFF] {
        assert_eq!(w.api("KERNEL", 20, &[bad]), 0);
        assert_eq!(w.api("KERNEL", 21, &[bad]), 0);
        assert_eq!(w.api("KERNEL", 18, &[bad]), 0);
    }
}

#[test]
fn global_realloc_keeps_the_contents_and_the_handle() {
    let mut w = World::new();
    let h = w.api("KERNEL", 15, &[u32::from(gmem::MOVEABLE), 40]);
    let sel = (h + 1) as u16;
    w.put(u32::from(sel) << 16, b"toolhelp16");
    assert_eq!(w.api("KERNEL", 16, &[h, 0x8000, 0]), h);
    assert_eq!(w.api("KERNEL", 20, &[h]), 0x8000);
    assert_eq!(w.get(u32::from(sel) << 16, 12), b"toolhelp16\0\0");
    assert!(w.m.read_seg(sel, 0x7FFF, &mut [0]).is_ok());
    let b = w.env.win16.global.find(sel).unwrap().clone();
    assert_eq!(b.address, w.m.descriptor_of(sel).unwrap().base);
    assert_eq!(w.api("KERNEL", 16, &[h, 4, 0]), h);
    assert_eq!(w.get(u32::from(sel) << 16, 4), b"tool");
    assert!(w.m.read_seg(sel, 0x20, &mut [0]).is_err());
    // Refused: too big, and zero (discard) of a block that is not
    // discardable (SDK, GlobalReAlloc: "If the block is not moveable and
    // discardable, the GlobalReAlloc will fail").
    assert_eq!(w.api("KERNEL", 16, &[h, MAX_HUGE_BLOCK + 1, 0]), 0);
    assert_eq!(w.api("KERNEL", 16, &[h, 0, u32::from(gmem::MOVEABLE)]), 0);
    assert_eq!(w.api("KERNEL", 20, &[h]), 32);
    // GMEM_MODIFY sets or clears GMEM_DISCARDABLE.
    let modify = u32::from(gmem::MODIFY | gmem::DISCARDABLE);
    assert_eq!(w.api("KERNEL", 16, &[h, 0, modify]), h);
    assert_eq!(w.api("KERNEL", 22, &[h]), 0x0100);
    // On a fixed block GMEM_DISCARDABLE alone is ignored and the handle
    // comes back; with GMEM_MOVEABLE the block becomes moveable, its
    // handle the selector minus 1 (SDK, GlobalReAlloc: "Use this flag
    // with GMEM_MODIFY to make a fixed memory block moveable").
    let fixed = w.api("KERNEL", 15, &[0, 16]);
    assert_eq!(w.api("KERNEL", 16, &[fixed, 0, modify]), fixed);
    assert_eq!(w.api("KERNEL", 22, &[fixed]), 0);
    let to_moveable = u32::from(gmem::MODIFY | gmem::MOVEABLE);
    assert_eq!(w.api("KERNEL", 16, &[fixed, 0, to_moveable]), fixed - 1);
    assert_eq!(w.api("KERNEL", 18, &[fixed - 1]), fixed << 16);
    assert_eq!(w.api("KERNEL", 22, &[fixed - 1]), 1, "a lock count now");
}

#[test]
fn structures_are_filled_only_with_the_right_dw_size() {
    let mut w = World::new();
    let p = w.buffer(0x200);
    let htask = u32::from(w.htask);
    let dgroup = u32::from(w.env.win16.tasks[0].dgroup);
    let name = p + 0x1C0;
    w.put(name, b"KERNEL\0");
    // A segment with a local heap for LocalInfo (one without names no
    // heap, and LocalInfo fails whatever dwSize says: tests/toolhelp_heap.rs).
    let heap = w.api("KERNEL", 15, &[0, 0x400]);
    assert_ne!(heap, 0);
    assert_eq!(w.api("KERNEL", 4, &[heap, 0, 0x3FF]), 1, "LocalInit");
    // (function, size, extra arguments after the pointer)
    let cases: Vec<(u16, u32, Vec<u32>)> = vec![
        (51, GlobalEntry::SIZE as u32, vec![0]),
        (53, 0x0A, vec![]),
        (54, GlobalEntry::SIZE as u32, vec![dgroup]),
        (56, 0x06, vec![heap]),
        (59, ModuleEntry::SIZE as u32, vec![]),
        (61, ModuleEntry::SIZE as u32, vec![name]),
        (63, TaskEntry::SIZE as u32, vec![]),
        (65, TaskEntry::SIZE as u32, vec![htask]),
        (67, 0x14, vec![0x1234, 0, 0x5678, 0x9ABC]),
        (71, 0x0C, vec![]),
        (72, 0x2A, vec![]),
        (80, 0x0C, vec![]),
    ];
    for (ord, size, extra) in &cases {
        for wrong in [0, 1, size - 1, size + 1, 0x0100_0000 | size] {
            w.put(p, &vec![0xEE; 0x1C0]);
            w.set_size(p, wrong);
            let mut args = vec![p];
            args.extend(extra);
            assert_eq!(
                w.api("TOOLHELP", *ord, &args),
                0,
                "TOOLHELP.{ord} {wrong:#x}"
            );
            let mut untouched = wrong.to_le_bytes().to_vec();
            untouched.extend(vec![0xEE; 0x1C0 - 4]);
            assert_eq!(w.get(p, 0x1C0), untouched, "TOOLHELP.{ord} wrote");
        }
        w.put(p, &vec![0; 0x1C0]);
        w.set_size(p, *size);
        let mut args = vec![p];
        args.extend(extra);
        assert_eq!(w.api("TOOLHELP", *ord, &args), 1, "TOOLHELP.{ord}");
        assert_eq!(w.d(p, 0), *size, "dwSize stays");
    }
}

#[test]
fn bad_pointers_fail_instead_of_stopping() {
    let mut w = World::new();
    let code = u32::from(w.module("THWALK").segments[0]) << 16;
    let small = w.buffer(0x20); // 32 bytes: too small for a TASKENTRY
    w.set_size(small, TaskEntry::SIZE as u32);
    let end = small + 0x1C; // dwSize readable, the rest past the limit
    w.set_size(end, 0x0A);
    for p in [0u32, 0x0000_0010, 0xFFFF_0000, code, small, 0x0008_0000] {
        assert_eq!(w.api("TOOLHELP", 63, &[p]), 0, "TaskFirst({p:08X})");
        assert_eq!(w.api("TOOLHELP", 59, &[p]), 0, "ModuleFirst({p:08X})");
        assert_eq!(w.api("TOOLHELP", 68, &[p]), 0, "StackTraceNext({p:08X})");
        assert_eq!(w.api("TOOLHELP", 61, &[p, p]), 0, "ModuleFindName({p:08X})");
    }
    assert_eq!(
        w.api("TOOLHELP", 53, &[end]),
        0,
        "GlobalInfo past the limit"
    );
    assert_eq!(w.get(small, 4), (TaskEntry::SIZE as u32).to_le_bytes());
    // A name with no terminator inside its segment.
    let p = w.buffer(0x200);
    w.set_size(p, ModuleEntry::SIZE as u32);
    let tail = small + 0x10;
    w.put(tail, &[b'A'; 0x10]);
    assert_eq!(w.api("TOOLHELP", 61, &[p, tail]), 0);
}

#[test]
fn tasks_and_modules_are_listed() {
    let mut w = World::new();
    let p = w.buffer(0x200);
    let task = w.env.win16.tasks[0].clone();
    w.set_size(p, TaskEntry::SIZE as u32);
    assert_eq!(w.api("TOOLHELP", 63, &[p]), 1);
    assert_eq!(w.w(p, 0x04), task.htask);
    assert_eq!(w.w(p, 0x08), task.hinstance);
    assert_eq!(w.w(p, 0x0A), task.hmodule);
    assert_eq!(w.get(p + 0x1A, 10), b"THWALK\0\0\0\0");
    assert_eq!(w.w(p, 0x24), 0x100);
    assert_eq!(w.w(p, 0x26), 0, "the only task");
    assert_eq!(w.api("TOOLHELP", 64, &[p]), 0);
    assert_eq!(w.api("TOOLHELP", 65, &[p, u32::from(task.htask)]), 1);
    assert_eq!(w.api("TOOLHELP", 65, &[p, 0x1234]), 0);
    assert_eq!(w.api("TOOLHELP", 65, &[p, 0]), 0);

    // ModuleFirst/ModuleNext: every module once, in load order.
    let p = w.buffer(0x200);
    w.set_size(p, ModuleEntry::SIZE as u32);
    let mut seen = Vec::new();
    let mut ok = w.api("TOOLHELP", 59, &[p]);
    while ok == 1 {
        let name = w.get(p + 4, 10);
        let n = name.iter().position(|&c| c == 0).unwrap();
        seen.push((String::from_utf8(name[..n].to_vec()).unwrap(), w.w(p, 0x0E)));
        assert!(seen.len() <= 16, "ModuleNext does not end");
        ok = w.api("TOOLHELP", 60, &[p]);
    }
    let want: Vec<(String, u16)> = w
        .env
        .win16
        .modules
        .iter()
        .map(|m| (m.name.clone(), m.hmodule))
        .collect();
    assert_eq!(seen, want);
    assert_eq!(seen[0].0, "KERNEL");
    // ModuleFindName ignores case; the path is the one the program sees.
    let name = p + 0x180;
    w.put(name, b"thwalk\0");
    assert_eq!(w.api("TOOLHELP", 61, &[p, name]), 1);
    let path = w.get(p + 0x12, 16);
    assert_eq!(&path, b"C:\\THWALK.EXE\0\0\0");
    assert_eq!(w.w(p, 0x10), 1, "usage count");
    w.put(name, b"TOOLHELP\0");
    assert_eq!(w.api("TOOLHELP", 61, &[p, name]), 1);
    let th = w.module("TOOLHELP").hmodule;
    assert_eq!(w.w(p, 0x0E), th);
    assert!(
        w.get(p + 0x12, 32)
            .starts_with(b"C:\\WINDOWS\\SYSTEM\\TOOLHELP.DLL\0")
    );
    w.put(name, b"NOSUCH\0");
    assert_eq!(w.api("TOOLHELP", 61, &[p, name]), 0);
    assert_eq!(w.api("TOOLHELP", 62, &[p, u32::from(th)]), 1);
    assert_eq!(w.api("TOOLHELP", 62, &[p, 0x1234]), 0);
}

#[test]
fn the_global_walk_sees_every_block() {
    let mut w = World::new();
    let lru = w.api(
        "KERNEL",
        15,
        &[u32::from(gmem::MOVEABLE | gmem::DISCARDABLE), 0x40],
    ) as u16;
    let p = w.buffer(0x40);
    w.set_size(p, GlobalEntry::SIZE as u32);
    let mut seen = Vec::new();
    let mut ok = w.api("TOOLHELP", 51, &[p, 0]);
    while ok == 1 {
        seen.push((w.d(p, 0x04), w.w(p, 0x0C), w.w(p, 0x16), w.w(p, 0x18)));
        assert!(seen.len() < 1000);
        ok = w.api("TOOLHELP", 52, &[p, 0]);
    }
    // Every block, and every free arena (hBlock 0, hOwner 0, GT_FREE),
    // between two sentinels (GT_SENTINEL, hOwner GA_SENTINEL FFFFh), in
    // address order.
    let arena = &w.env.win16.global;
    let mut want: Vec<(u32, u16, u16, u16)> = arena
        .blocks()
        .iter()
        .map(|b| (b.address, b.handle, b.owner, b.kind))
        .chain(arena.free_blocks().iter().map(|f| (f.0, 0, 0, gt::FREE)))
        .collect();
    want.sort();
    let last = arena
        .blocks()
        .iter()
        .map(|b| b.address + b.size)
        .chain(arena.free_blocks().iter().map(|f| f.0 + f.1))
        .max()
        .unwrap();
    want.insert(0, (want[0].0, 0, 0xFFFF, gt::SENTINEL));
    want.push((last, 0, 0xFFFF, gt::SENTINEL));
    assert_eq!(seen, want);
    // GLOBAL_LRU: the discardable block only; GLOBAL_FREE: the free
    // arenas, none yet.
    assert_eq!(w.api("TOOLHELP", 51, &[p, 1]), 1);
    assert_eq!(w.w(p, 0x0C), lru);
    assert_eq!(w.api("TOOLHELP", 52, &[p, 1]), 0);
    let free_before = w.env.win16.global.free_blocks().len();
    assert_eq!(w.api("TOOLHELP", 51, &[p, 2]), u32::from(free_before > 0));
    // A freed block becomes one: GLOBAL_FREE finds it, with its size.
    let gone = w.api("KERNEL", 15, &[0, 0x200]) as u16;
    assert_eq!(w.api("TOOLHELP", 54, &[p, u32::from(gone)]), 1);
    let gone_at = w.d(p, 0x04);
    assert_eq!(w.api("KERNEL", 17, &[u32::from(gone)]), 0);
    assert_eq!(w.api("TOOLHELP", 54, &[p, u32::from(gone)]), 0, "freed");
    let mut free = Vec::new();
    let mut ok = w.api("TOOLHELP", 51, &[p, 2]);
    while ok == 1 {
        free.push((
            w.d(p, 0x04),
            w.d(p, 0x08),
            w.w(p, 0x0C),
            w.w(p, 0x16),
            w.w(p, 0x18),
        ));
        assert!(free.len() < 1000);
        ok = w.api("TOOLHELP", 52, &[p, 2]);
    }
    assert!(
        free.contains(&(gone_at, 0x200, 0, 0, gt::FREE)),
        "{free:x?}"
    );
    // Taken again by the next block made in its slot.
    let again = w.api("KERNEL", 15, &[0, 0x200]) as u16;
    assert_eq!(again, gone);
    assert!(
        w.env
            .win16
            .global
            .free_blocks()
            .iter()
            .all(|f| f.0 != gone_at)
    );
    // The program's own blocks: the PSP and what it allocated are the
    // PDB's.
    let psp = w.env.win16.tasks[0].psp;
    assert_eq!(w.api("TOOLHELP", 54, &[p, u32::from(lru)]), 1);
    assert_eq!(
        (w.w(p, 0x12), w.w(p, 0x16), w.w(p, 0x18)),
        (GF_PDB_OWNER, psp, gt::UNKNOWN)
    );
    assert_eq!(w.d(p, 0x08), 0x40);
    // GlobalEntryModule: segment 2 of THWALK is code, 3 its DGROUP.
    let m = w.module("THWALK");
    assert_eq!(w.api("TOOLHELP", 55, &[p, u32::from(m.hmodule), 2]), 1);
    assert_eq!(w.w(p, 0x0C), m.segments[1]);
    assert_eq!((w.w(p, 0x18), w.w(p, 0x1A)), (gt::CODE, 2));
    assert_eq!(w.w(p, 0x16), m.hmodule);
    assert_eq!(w.api("TOOLHELP", 55, &[p, u32::from(m.hmodule), 3]), 1);
    assert_eq!(w.w(p, 0x18), gt::DGROUP);
    for seg in [0, 4, 0xFFFF] {
        assert_eq!(w.api("TOOLHELP", 55, &[p, u32::from(m.hmodule), seg]), 0);
    }
    assert_eq!(w.api("TOOLHELP", 55, &[p, 0x1234, 1]), 0);
    // GlobalHandleToSel and GlobalInfo.
    assert_eq!(w.api("TOOLHELP", 50, &[u32::from(lru)]), u32::from(lru + 1));
    assert_eq!(w.api("TOOLHELP", 50, &[0x1234]), 0);
    let gi = w.buffer(0x10);
    w.set_size(gi, 0x0A);
    assert_eq!(w.api("TOOLHELP", 53, &[gi]), 1);
    let arena = &w.env.win16.global;
    let free_now = arena.free_blocks().len();
    assert_eq!(
        usize::from(w.w(gi, 4)),
        arena.blocks().len() + free_now + 2,
        "blocks, free arenas, two sentinels"
    );
    assert_eq!((usize::from(w.w(gi, 6)), w.w(gi, 8)), (free_now, 1));
    // The item count is what GlobalFirst/Next walked, plus `gi` and the
    // block `again`.
    assert_eq!(
        usize::from(w.w(gi, 4)),
        seen.len() + 2 + free_now - free_before
    );
    w.set_size(gi, 0x0B);
    assert_eq!(w.api("TOOLHELP", 53, &[gi]), 0, "wrong dwSize");
}

#[test]
fn memory_read_and_write_are_limit_checked() {
    let mut w = World::new();
    let code = w.module("THWALK").segments[0];
    let limit = w.m.descriptor_of(code).unwrap().limit;
    let buf = w.buffer(0x100);
    let c = u32::from(code);
    // The first bytes of thwalk's code: call far (9A) InitTask.
    assert_eq!(w.api("TOOLHELP", 78, &[c, 0, buf, 5]), 5);
    assert_eq!(w.get(buf, 1), [0x9A]);
    // Cut at the limit; nothing past it.
    assert_eq!(w.api("TOOLHELP", 78, &[c, limit - 1, buf, 0x100]), 2);
    assert_eq!(w.api("TOOLHELP", 78, &[c, limit + 1, buf, 1]), 0);
    assert_eq!(w.api("TOOLHELP", 78, &[c, 0x1_0000_u32, buf, 1]), 0);
    // A destination that cannot take the bytes, or no selector.
    assert_eq!(w.api("TOOLHELP", 78, &[c, 0, buf + 0xF0, 0x20]), 0);
    assert_eq!(w.api("TOOLHELP", 78, &[c, 0, c << 16, 4]), 0);
    assert_eq!(w.api("TOOLHELP", 78, &[0, 0, buf, 4]), 0);
    assert_eq!(w.api("TOOLHELP", 78, &[0x0008, 0, buf, 4]), 0);
    // MemoryWrite reaches code (a debugger's breakpoint).
    w.put(buf, &[0xCC]);
    assert_eq!(w.api("TOOLHELP", 79, &[c, 0x10, buf, 1]), 1);
    let mut b = [0u8];
    w.m.read_seg(code, 0x10, &mut b).unwrap();
    assert_eq!(b, [0xCC]);
    assert_eq!(w.api("TOOLHELP", 79, &[c, limit, buf, 8]), 1);
    assert_eq!(w.api("TOOLHELP", 79, &[c, 0, 0, 1]), 0);
    // A huge count is cut to the segment.
    let big = w.buffer(MAX_BLOCK);
    let dgroup = u32::from(w.env.win16.tasks[0].dgroup);
    let dlimit = w.m.descriptor_of(dgroup as u16).unwrap().limit;
    assert_eq!(
        w.api("TOOLHELP", 78, &[dgroup, 0, big, u32::MAX]),
        dlimit + 1
    );
}

#[test]
fn timer_count_follows_the_instruction_clock() {
    let mut w = World::new();
    let p = w.buffer(0x10);
    w.set_size(p, 0x0C);
    assert_eq!(w.api("TOOLHELP", 80, &[p]), 1);
    assert_eq!((w.d(p, 4), w.d(p, 8)), (0, 0), "nothing ran yet");
    toolhelp16::machine::time::advance(w.m.get_data_mut(), 123_456);
    assert_eq!(w.api("TOOLHELP", 80, &[p]), 1);
    let ms = (123_456 / toolhelp::INSNS_PER_MS) as u32;
    assert_eq!((w.d(p, 4), w.d(p, 8)), (ms, ms));
}

#[test]
fn callbacks_are_registered_per_task() {
    let mut w = World::new();
    let htask = u32::from(w.htask);
    let proc_addr = 0x1007_0010;
    assert_eq!(w.api("TOOLHELP", 73, &[0, proc_addr, 0]), 1, "0: current");
    assert_eq!(w.api("TOOLHELP", 73, &[htask, proc_addr + 2, 1]), 1);
    let n = &w.env.win16.toolhelp.notify;
    assert_eq!(n.len(), 1, "one per task");
    assert_eq!((n[0].proc_addr, n[0].flags), (proc_addr + 2, 1));
    assert_eq!(w.api("TOOLHELP", 73, &[0x1234, proc_addr, 0]), 0);
    assert_eq!(w.api("TOOLHELP", 73, &[htask, 0, 0]), 0, "null callback");
    assert_eq!(w.api("TOOLHELP", 74, &[htask]), 1);
    assert_eq!(w.api("TOOLHELP", 74, &[htask]), 0);
    assert_eq!(w.api("TOOLHELP", 75, &[htask, proc_addr]), 1);
    assert_eq!(w.env.win16.toolhelp.interrupt[0].htask, w.htask);
    assert_eq!(w.api("TOOLHELP", 76, &[0]), 1);
    assert_eq!(w.api("TOOLHELP", 76, &[0]), 0);
    assert!(w.env.win16.toolhelp.interrupt.is_empty());
}

#[test]
fn terminate_app_ends_the_current_task() {
    let mut w = World::new();
    for h in [0, u32::from(w.htask)] {
        let f = api::find("TOOLHELP", 77).unwrap().func;
        let r = f(&mut w.env, &mut w.m, &[h, 1]);
        assert_eq!(r, Err(Stop::Exited { code: 0xFF }));
    }
    assert_eq!(w.api("TOOLHELP", 77, &[0x1234, 0]), 0, "unknown: nothing");
    assert_eq!(w.env.win16.tasks.len(), 1);
}

#[test]
fn stack_trace_functions_follow_the_walker() {
    let mut w = World::new();
    let p = w.buffer(0x20);
    // StackTraceFirst of the running task fails and leaves the structure.
    let mut ste = StackTraceEntry::default();
    w.put(p, &ste.to_bytes());
    assert_eq!(w.api("TOOLHELP", 66, &[p, u32::from(w.htask)]), 0);
    assert_eq!(w.get(p, 0x14), ste.to_bytes());
    // Not a TDB.
    let dgroup = u32::from(w.env.win16.tasks[0].dgroup);
    assert_eq!(w.api("TOOLHELP", 66, &[p, dgroup]), 0);
    // CSIPFirst copies the registers, fills hTask/hModule/wSegment and
    // leaves wFlags as it was.
    let m = w.module("THWALK");
    ste.w_flags = 0x5A5A;
    w.put(p, &ste.to_bytes());
    let (ss, cs) = (
        u32::from(w.env.win16.tasks[0].dgroup),
        u32::from(m.segments[1]),
    );
    assert_eq!(w.api("TOOLHELP", 67, &[p, ss, cs, 0x0010, 0x0999]), 1);
    let got = StackTraceEntry::from_bytes(&w.get(p, 0x14)).unwrap();
    assert_eq!(
        (got.w_ss, got.w_cs, got.w_ip, got.w_bp),
        (ss as u16, cs as u16, 0x10, 0x999)
    );
    assert_eq!(
        (got.h_task, got.h_module, got.w_segment),
        (w.htask, m.hmodule, 2)
    );
    assert_eq!(got.w_flags, 0x5A5A);
    // StackTraceNext from there: the word at SS:0999 is 0, the end of the
    // chain; the structure stays.
    assert_eq!(w.api("TOOLHELP", 68, &[p]), 0);
    assert_eq!(StackTraceEntry::from_bytes(&w.get(p, 0x14)), Some(got));
}

#[test]
fn a_block_that_moves_under_ds_is_still_read_through_ds() {
    use toolhelp16::machine::{RunLimits, SegKind, alloc_seg};
    let mut w = World::new();
    let h = w.api("KERNEL", 15, &[u32::from(gmem::MOVEABLE), 0x20]);
    let sel = (h + 1) as u16;
    w.put(u32::from(sel) << 16, b"AB");
    w.m.set_reg(R::DS, sel).unwrap();
    // Growing moves the block's base down (its end stays on the hole).
    let base = w.m.descriptor_of(sel).unwrap().base;
    assert_eq!(w.api("KERNEL", 16, &[h, 0x8000, 0]), h);
    assert_ne!(w.m.descriptor_of(sel).unwrap().base, base);
    // mov ax,[0000] ; hlt (a #GP at ring 3 that stops the run with the
    // registers).
    let code = alloc_seg(&mut w.m, SegKind::Code, 4, &[0xA1, 0, 0, 0xF4]).unwrap();
    let ss = w.env.win16.tasks[0].dgroup;
    w.m.set_reg(R::SS, ss).unwrap();
    w.m.set_reg(R::SP, 0x900).unwrap();
    w.m.set_csip(code, 0).unwrap();
    let stop = w.m.run(RunLimits {
        max_insns: 100,
        ..RunLimits::default()
    });
    let Stop::Fault(f) = stop else {
        panic!("{stop:?}")
    };
    assert_eq!((f.number, f.ip), (13, 3), "{f:?}");
    assert_eq!(f.regs.ax, 0x4241, "DS still points at the old base");
}

#[test]
fn classes_are_listed_with_class_first_and_class_next() {
    let mut w = World::new();
    let p = w.buffer(0x200);
    w.set_size(p, toolhelp::CLASSENTRY_SIZE as u32);
    // USER's predefined classes come first (Windows registers them at
    // start-up), owned by USER.
    let user = w
        .env
        .win16
        .module_by_name("USER")
        .map(|m| m.hmodule)
        .unwrap();
    // Register two classes through USER.RegisterClass: a WNDCLASS with the
    // class name at +0x16 and hInstance at +0x0A.
    let hinst = w.env.win16.tasks[0].hinstance;
    for name in [&b"First\0"[..], b"Second\0"] {
        let wc = w.buffer(0x40);
        let text = wc + 0x20;
        w.put(text, name);
        let mut b = [0u8; 0x1A];
        b[0x0A..0x0C].copy_from_slice(&hinst.to_le_bytes());
        b[0x16..0x1A].copy_from_slice(&text.to_le_bytes());
        w.put(wc, &b);
        assert_ne!(w.api("USER", 57, &[wc]), 0);
    }
    let mut seen = Vec::new();
    let mut ok = w.api("TOOLHELP", 69, &[p]);
    while ok == 1 {
        let name = w.get(p + 6, 16);
        let n = name.iter().position(|&c| c == 0).unwrap();
        seen.push((String::from_utf8(name[..n].to_vec()).unwrap(), w.w(p, 4)));
        assert!(seen.len() <= 16, "ClassNext does not end");
        ok = w.api("TOOLHELP", 70, &[p]);
    }
    let mut want: Vec<(String, u16)> = [
        "BUTTON",
        "EDIT",
        "STATIC",
        "LISTBOX",
        "SCROLLBAR",
        "COMBOBOX",
        "COMBOLBOX",
        "#32770",
        "MDICLIENT",
    ]
    .iter()
    .map(|n| (n.to_string(), user))
    .collect();
    want.push(("First".to_string(), hinst));
    want.push(("Second".to_string(), hinst));
    assert_eq!(seen, want);
    // The dwSize check.
    w.set_size(p, toolhelp::CLASSENTRY_SIZE as u32 - 1);
    assert_eq!(w.api("TOOLHELP", 69, &[p]), 0);
}

#[test]
fn a_toolhelp_client_gets_the_documented_answers() {
    let Some(exe) = watcom::toolhelp_client("thexp") else {
        return;
    };
    let out = bin().args(["run", "--json"]).arg(&exe).output().unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["code"], 0, "{v:#}");
    let lines = common::output_lines(&v);
    let line = |key: &str| {
        lines
            .iter()
            .find(|l| l.split_whitespace().next() == Some(key))
            .unwrap_or_else(|| panic!("no {key} in {lines:#?}"))
            .clone()
    };
    let count = |key: &str, i: usize| -> u32 {
        line(key)
            .split_whitespace()
            .nth(i)
            .unwrap()
            .parse()
            .unwrap()
    };
    // ClassFirst/ClassNext: its own class with its hInstance, its global
    // class, USER's BUTTON; every entry named; FALSE after the last.
    let classes = count("class", 5);
    assert!(classes >= 10, "USER's 8 and its 2");
    assert_eq!(line("class"), format!("class 1 1 1 1 {classes} 0 0"));
    // A wrong dwSize fails (SDK, ClassFirst: dwSize must be
    // sizeof(CLASSENTRY)).
    assert_eq!(line("classerr"), "classerr 0 0");
    // ModuleFirst gives KERNEL; the program's module, found by name
    // (case ignored) and handle; unknown names and handle 0 fail.
    let modules = count("module", 2);
    assert!(modules >= 4);
    assert_eq!(line("module"), format!("module 1 {modules} 1 1 0 1 0 0"));
    // TASKENTRY of the running task: hTask, hInst, hModule, hQueue,
    // szModule, the stack bounds of its instance data.
    let tasks = count("task", 9);
    assert_eq!(tasks, 1, "one task");
    assert_eq!(line("task"), "task 1 1 1 1 1 1 1 1 1 0");
    assert_eq!(line("taskfind"), "taskfind 1 1 0 0");
    // The PSP follows the TDB: hTask:wPSPOffset is the PSP (SDK,
    // TASKENTRY.wPSPOffset; its first bytes INT 20h).
    assert_eq!(line("psp"), "psp 256 1 1");
    // StackTraceFirst fails on the running task (toolhelp.md).
    assert_eq!(line("stf"), "stf 0");
    // MemoryRead: its own code (4 bytes, equal to what a far pointer
    // reads), cut at the limit (the 3 bytes from limit - 2), nothing past
    // the limit, nothing for selector 0 or a NULL buffer.
    assert_eq!(line("mread"), "mread 4 3 0 0 0");
    // A huge block: past the first 64 KiB, and across the tiles.
    assert_eq!(line("mhuge"), "mhuge 2 1");
    assert_eq!(line("mwrite"), "mwrite 2 1");
    assert_eq!(line("timer"), "timer 1 1 0");
}
