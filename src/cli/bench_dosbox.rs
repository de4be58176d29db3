//! `toolhelp16 bench`: a real DOS tool run as a user runs it, against
//! DOSBox doing the same work (issue 19: at least 3× faster than DOSBox in
//! wall time, and no more CPU time than DOSBox).
//!
//! The workloads: MS-DOS 1.25's LINK.EXE (IBM Personal Computer Linker
//! 1.10, from the shared corpus) links OMF object modules into an .EXE
//! and a map, `N` times. Heavy: eight modules (400 far procedures and 400
//! data words with cross-module calls and fixups), where emulation
//! dominates; light: one module of 50 procedures, where start-up does.
//! The modules are generated here and assembled by `nasm -f obj` outside
//! the timing.
//!
//! * **toolhelp16** runs each link as its own process (`toolhelp16 run
//!   --dir WORK LINK.EXE -- ...`), exactly as a user would type it: every
//!   run pays our whole start-up (process, loading, sandbox, DOS), as the
//!   issue measured. Its CPU time is the children's user + system time
//!   (`getrusage(RUSAGE_CHILDREN)`).
//! * **DOSBox** (when `dosbox` is on PATH) runs all `N` links in ONE
//!   session (its `[autoexec]` mounts the work directory, runs the links
//!   with their output redirected to files, then `exit`), so its start-up
//!   is paid once: the comparison most favourable to DOSBox. Headless
//!   (`SDL_VIDEODRIVER=dummy`), `core=dynamic`, `cycles=max`, no sound.
//!   Its start-up alone (a session that only exits) is printed beside it.
//!
//! The outputs must agree before any figure is printed: for every run,
//! the linker's standard output, the map and the .EXE through the end of
//! its last segment (LINK writes the image in whole buffers; the bytes
//! past the program's end are whatever its buffer held, zeros here and
//! DOSBox's leftover memory there).
//!
//! Without the corpus, nasm or DOSBox the lines say SKIPPED and why.
//! `--quick` runs toolhelp16 once and skips DOSBox (a DOSBox session costs
//! most of a second).

use super::bench::corpus_dir;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Object modules per link of the heavy workload (the light one links
/// one), and far procedures (and data words) per module: LINK 1.10
/// refuses more than about a thousand public symbols.
const MODULES: usize = 8;
const PROCS: usize = 50;

/// The linker, in the shared corpus.
const LINKER: &str = "dos/msdos125/LINK.EXE";

/// How long a DOSBox session may take before it is killed (DOSBox ignores
/// SIGTERM; `Child::kill` sends SIGKILL).
const DOSBOX_LIMIT: Duration = Duration::from_secs(300);

/// NASM source of module `m` of `modules`: PROCS far procedures, each
/// loading, bumping and storing its own data word and calling a procedure
/// of the next module (an external: a FIXUPP LINK resolves), and PROCS
/// public data words. Module 0 holds the entry point, a message and the
/// stack.
fn module_source(m: usize, modules: usize) -> String {
    let next = (m + 1) % modules;
    let mut s = String::from("segment code public class=CODE\n");
    if m == 0 {
        s.push_str(
            "..start:\n mov ax, data\n mov ds, ax\n mov dx, msg\n mov ah, 9\n int 21h\n \
             mov ax, 4C00h\n int 21h\n",
        );
    }
    for p in 0..PROCS {
        let callee = (p * 7) % PROCS;
        if next != m {
            s.push_str(&format!("extern m{next}p{callee}\n"));
        }
        s.push_str(&format!(
            "global m{m}p{p}\nm{m}p{p}:\n mov ax, [m{m}d{p}]\n \
             add ax, {p}\n mov [m{m}d{p}], ax\n call far m{next}p{callee}\n retf\n"
        ));
    }
    s.push_str("segment data public class=DATA\n");
    if m == 0 {
        s.push_str("msg db \"linked\", 13, 10, \"$\"\n");
    }
    for p in 0..PROCS {
        s.push_str(&format!("global m{m}d{p}\nm{m}d{p} dw {p}\n"));
    }
    if m == 0 {
        // Initialised, so that every byte of the image is the program's.
        s.push_str("segment stack stack class=STACK\n times 256 dw 5A5Ah\n");
    }
    s
}

/// LINK's command tail for run `i`: every module, Pi.EXE, a map.
fn link_args(i: usize, modules: usize) -> String {
    let objs: Vec<String> = (0..modules).map(|m| format!("M{m}")).collect();
    format!("{},P{i},P{i}/M;", objs.join("+"))
}

/// User + system CPU time of this process's waited-for children so far.
#[cfg(unix)]
fn children_cpu() -> Option<Duration> {
    // SAFETY: getrusage only writes the `rusage` we pass, which lives on
    // this stack frame and is large enough (libc's own definition).
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: as above; RUSAGE_CHILDREN is a valid `who`.
    if unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut u) } != 0 {
        return None;
    }
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    Some(tv(u.ru_utime) + tv(u.ru_stime))
}

#[cfg(not(unix))]
fn children_cpu() -> Option<Duration> {
    None
}

/// Wall and CPU time of some child processes' work.
struct Cost {
    wall: Duration,
    cpu: Option<Duration>,
}

fn measure<F: FnOnce() -> Result<(), String>>(f: F) -> Result<Cost, String> {
    let c0 = children_cpu();
    let t = Instant::now();
    f()?;
    let wall = t.elapsed();
    let cpu = match (c0, children_cpu()) {
        (Some(a), Some(b)) => Some(b.saturating_sub(a)),
        _ => None,
    };
    Ok(Cost { wall, cpu })
}

/// Is `program` on PATH?
fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(program).is_file()))
}

/// The end of the program's last segment, from LINK's map (its segment
/// lines read ` 01AB0H 01CAFH 0200H  stack  stack`).
fn image_end(map: &[u8]) -> Option<usize> {
    let text = String::from_utf8_lossy(map);
    let hex = |t: &str| {
        t.strip_suffix('H')
            .and_then(|h| usize::from_str_radix(h, 16).ok())
    };
    text.lines()
        .filter_map(|l| {
            let mut w = l.split_whitespace();
            let (start, stop) = (hex(w.next()?)?, hex(w.next()?)?);
            (stop >= start).then_some(stop + 1)
        })
        .max()
}

/// The text of LINK's map: through its last line, `Program entry point
/// at SSSS:OOOO`. LINK writes the map in 128-byte FCB records, so the
/// rest of the last record is whatever its buffer held before.
fn map_text(map: &[u8]) -> Option<&[u8]> {
    const LAST: &[u8] = b"Program entry point at ";
    let at = map.windows(LAST.len()).rposition(|w| w == LAST)?;
    let eol = map[at..].windows(2).position(|w| w == b"\r\n")?;
    Some(&map[..at + eol + 2])
}

/// The bytes of an .EXE that are the program's: its header and its image
/// through `end`.
fn program_bytes(exe: &[u8], end: usize) -> Option<&[u8]> {
    let header = usize::from(u16::from_le_bytes([*exe.get(8)?, *exe.get(9)?])) * 16;
    exe.get(..(header + end).min(exe.len()))
}

/// Check that run `i` wrote the same in `ours` and `theirs` (directories),
/// with the standard outputs given.
fn same_outputs(
    ours: &Path,
    theirs: &Path,
    i: usize,
    our_out: &[u8],
    their_out: &[u8],
) -> Result<(), String> {
    if our_out != their_out {
        return Err(format!(
            "run {i}: the linker printed different text\n    toolhelp16: {:?}\n    DOSBox:     {:?}",
            String::from_utf8_lossy(our_out),
            String::from_utf8_lossy(their_out)
        ));
    }
    let read = |d: &Path, n: &str| std::fs::read(d.join(n)).map_err(|e| format!("{n}: {e}"));
    let (map_a, map_b) = (
        read(ours, &format!("P{i}.MAP"))?,
        read(theirs, &format!("P{i}.MAP"))?,
    );
    if map_a.len() != map_b.len()
        || map_text(&map_a).is_none()
        || map_text(&map_a) != map_text(&map_b)
    {
        return Err(format!("run {i}: P{i}.MAP differs"));
    }
    let end = image_end(&map_a).ok_or(format!("run {i}: P{i}.MAP names no segment"))?;
    let (exe_a, exe_b) = (
        read(ours, &format!("P{i}.EXE"))?,
        read(theirs, &format!("P{i}.EXE"))?,
    );
    match (program_bytes(&exe_a, end), program_bytes(&exe_b, end)) {
        (Some(a), Some(b)) if a == b && exe_a.len() == exe_b.len() => Ok(()),
        _ => Err(format!("run {i}: P{i}.EXE differs")),
    }
}

/// A fresh directory `name` under `dir` holding the linker and the
/// objects.
fn work_dir(
    dir: &Path,
    name: &str,
    linker: &Path,
    objs: &Path,
    modules: usize,
) -> Result<PathBuf, String> {
    let w = dir.join(name);
    let _ = std::fs::remove_dir_all(&w);
    std::fs::create_dir_all(&w).map_err(|e| e.to_string())?;
    std::fs::copy(linker, w.join("LINK.EXE")).map_err(|e| e.to_string())?;
    for m in 0..modules {
        let n = format!("M{m}.OBJ");
        std::fs::copy(objs.join(&n), w.join(&n)).map_err(|e| e.to_string())?;
    }
    Ok(w)
}

/// toolhelp16 links `n` times, one process each: the standard outputs.
fn ours(exe: &Path, work: &Path, n: usize, modules: usize) -> Result<(Cost, Vec<Vec<u8>>), String> {
    let mut outs = Vec::new();
    let cost = measure(|| {
        for i in 0..n {
            let out = Command::new(exe)
                .args(["run", "--stdin", "/dev/null", "--dir"])
                .arg(work)
                .arg(work.join("LINK.EXE"))
                .args(["--", &link_args(i, modules)])
                .stderr(Stdio::null())
                .output()
                .map_err(|e| format!("{}: {e}", exe.display()))?;
            if !out.status.success() {
                return Err(format!("toolhelp16 run {i} ended with {}", out.status));
            }
            outs.push(out.stdout);
        }
        Ok(())
    })?;
    Ok((cost, outs))
}

/// A DOSBox configuration: headless, fastest core, no sound or extra
/// hardware, and `autoexec` as its `[autoexec]` section.
fn dosbox_conf(autoexec: &str) -> String {
    format!(
        "[sdl]\nfullscreen=false\noutput=surface\n[dosbox]\nmachine=svga_s3\nmemsize=16\n\
         [render]\nframeskip=0\n[cpu]\ncore=dynamic\ncputype=auto\ncycles=max\n\
         [mixer]\nnosound=true\n[speaker]\npcspeaker=false\ntandy=off\ndisney=false\n\
         [sblaster]\nsbtype=none\noplmode=none\n[gus]\ngus=false\n[midi]\nmpu401=none\n\
         mididevice=none\n[joystick]\njoysticktype=none\n[serial]\nserial1=disabled\n\
         serial2=disabled\nserial3=disabled\nserial4=disabled\n[dos]\nxms=false\nems=false\n\
         umb=false\n[ipx]\nipx=false\n[autoexec]\n{autoexec}exit\n"
    )
}

/// Run one DOSBox session with `conf` (a file), killed after
/// [`DOSBOX_LIMIT`].
fn dosbox(conf: &Path) -> Result<Cost, String> {
    measure(|| {
        let mut child = Command::new("dosbox")
            .arg("-conf")
            .arg(conf)
            .env("SDL_VIDEODRIVER", "dummy")
            .env("SDL_AUDIODRIVER", "dummy")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("dosbox: {e}"))?;
        let t = Instant::now();
        loop {
            match child.try_wait().map_err(|e| format!("dosbox: {e}"))? {
                Some(st) if st.success() => return Ok(()),
                Some(st) => return Err(format!("dosbox ended with {st}")),
                None if t.elapsed() > DOSBOX_LIMIT => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(format!(
                        "dosbox still running after {DOSBOX_LIMIT:?}; killed"
                    ));
                }
                None => std::thread::sleep(Duration::from_millis(2)),
            }
        }
    })
}

fn secs(d: Duration) -> String {
    format!("{:7.3} s", d.as_secs_f64())
}

/// The DOSBox comparisons, heavy and light; `dir` is the bench's
/// scratch directory.
pub fn bench(dir: &Path, quick: bool) -> String {
    let n = if quick { 1 } else { 10 };
    let mut s = String::new();
    for (modules, what) in [(MODULES, "heavy"), (1, "light")] {
        s.push_str(&format!(
            "a real DOS tool against DOSBox, {what} (MS-DOS 1.25 LINK.EXE: {modules} OMF module(s), {} far procedures, into an .EXE and a map; {n} link(s), one toolhelp16 process each)\n",
            modules * PROCS
        ));
        match compare(&dir.join(format!("dosbox-{what}")), n, quick, modules) {
            Ok(body) => s.push_str(&body),
            Err(e) => s.push_str(&format!("  {e}\n")),
        }
    }
    s
}

fn compare(dir: &Path, n: usize, quick: bool, modules: usize) -> Result<String, String> {
    let linker = corpus_dir().join(LINKER);
    if !linker.is_file() {
        return Err(format!(
            "SKIPPED: {} is not there (set TOOLHELP16_CORPUS to the shared corpus)",
            linker.display()
        ));
    }
    if !on_path("nasm") {
        return Err("SKIPPED: nasm is not on PATH (it assembles the object modules)".into());
    }
    let exe = std::env::current_exe().map_err(|e| format!("FAILED: this program's path: {e}"))?;
    let objs = dir.join("objs");
    std::fs::create_dir_all(&objs).map_err(|e| format!("FAILED: {e}"))?;
    for m in 0..modules {
        let src = objs.join(format!("m{m}.asm"));
        std::fs::write(&src, module_source(m, modules)).map_err(|e| format!("FAILED: {e}"))?;
        let st = Command::new("nasm")
            .args(["-f", "obj", "-o"])
            .arg(objs.join(format!("M{m}.OBJ")))
            .arg(&src)
            .status()
            .map_err(|e| format!("FAILED: nasm: {e}"))?;
        if !st.success() {
            return Err(format!("FAILED: nasm could not assemble {}", src.display()));
        }
    }
    let w_ours =
        work_dir(dir, "ours", &linker, &objs, modules).map_err(|e| format!("FAILED: {e}"))?;
    let (mine, our_outs) = ours(&exe, &w_ours, n, modules).map_err(|e| format!("FAILED: {e}"))?;
    let cpu = |c: &Cost| c.cpu.map_or_else(|| "      ?".into(), secs);
    let mut s = format!(
        "  {:<32}wall {}   CPU {}\n",
        format!("toolhelp16 ({n} process(es))"),
        secs(mine.wall),
        cpu(&mine)
    );
    if quick {
        s.push_str("  DOSBox: SKIPPED in --quick (a DOSBox session takes about a second)\n");
        return Ok(s);
    }
    if !on_path("dosbox") {
        s.push_str("  DOSBox: SKIPPED: dosbox is not on PATH (apt-get install dosbox)\n");
        return Ok(s);
    }
    let w_box =
        work_dir(dir, "dosbox", &linker, &objs, modules).map_err(|e| format!("FAILED: {e}"))?;
    let mount = format!("mount c \"{}\"\nc:\n", w_box.display());
    let empty = w_box.join("EMPTY.CNF");
    std::fs::write(&empty, dosbox_conf("")).map_err(|e| format!("FAILED: {e}"))?;
    let mut lines = mount;
    for i in 0..n {
        lines.push_str(&format!("LINK {} > OUT{i}.TXT\n", link_args(i, modules)));
    }
    let conf = w_box.join("LINKS.CNF");
    std::fs::write(&conf, dosbox_conf(&lines)).map_err(|e| format!("FAILED: {e}"))?;
    let start = dosbox(&empty).map_err(|e| format!("FAILED: {e}"))?;
    let theirs = dosbox(&conf).map_err(|e| format!("FAILED: {e}"))?;
    for (i, out) in our_outs.iter().enumerate() {
        let their_out = std::fs::read(w_box.join(format!("OUT{i}.TXT")))
            .map_err(|e| format!("FAILED: DOSBox wrote no OUT{i}.TXT: {e}"))?;
        same_outputs(&w_ours, &w_box, i, out, &their_out)
            .map_err(|e| format!("FAILED: the outputs differ: {e}"))?;
    }
    s.push_str(&format!(
        "  {:<32}wall {}   CPU {}   (of which start-up alone: wall {}, CPU {})\n",
        "DOSBox (one session)",
        secs(theirs.wall),
        cpu(&theirs),
        secs(start.wall),
        cpu(&start)
    ));
    s.push_str(&format!(
        "  outputs agree: all {n} runs print the same text and write the same map and .EXE\n"
    ));
    let wall_ratio = theirs.wall.as_secs_f64() / mine.wall.as_secs_f64().max(1e-9);
    s.push_str(&format!(
        "  wall: {wall_ratio:.2} x faster than DOSBox   target >= 3 x faster: {}\n",
        if wall_ratio >= 3.0 { "met" } else { "NOT met" }
    ));
    match (mine.cpu, theirs.cpu) {
        (Some(a), Some(b)) => {
            let r = a.as_secs_f64() / b.as_secs_f64().max(1e-9);
            s.push_str(&format!(
                "  CPU: {r:.2} x DOSBox's   target <= DOSBox's: {}\n",
                if r <= 1.0 { "met" } else { "NOT met" }
            ));
        }
        _ => s.push_str("  CPU: not measured on this platform\n"),
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_map_gives_the_end_of_the_last_segment() {
        // The segment table of LINK 1.10's map (as it printed it for this
        // workload): the image ends after the stack, at 1CAFh.
        let map = b"\r\n Start  Stop   Length Name                   Class\r\n \
            00000H 01780H 1781H  code                   code\r\n \
            01781H 01AA9H 0329H  data                   data\r\n \
            01AB0H 01CAFH 0200H  stack                  stack\r\n\r\n  Address         Publics by Name\r\n";
        assert_eq!(image_end(map), Some(0x1CB0));
        assert_eq!(image_end(b"no segments here"), None);
        let mut last =
            b" 0178:0328       m7d49\r\n\r\nProgram entry point at 0000:0000\r\n".to_vec();
        let text_len = last.len();
        last.extend_from_slice(b"8:0302       m7d30\r\n 01");
        assert_eq!(map_text(&last).map(<[u8]>::len), Some(text_len));
        assert_eq!(map_text(b"no entry point"), None);
    }

    #[test]
    fn the_program_bytes_are_the_header_and_the_image() {
        let mut exe = vec![0u8; 0x40];
        exe[8] = 2; // two paragraphs of header
        assert_eq!(program_bytes(&exe, 8).map(<[u8]>::len), Some(0x28));
        assert_eq!(program_bytes(&exe, 0x100).map(<[u8]>::len), Some(0x40));
        assert_eq!(program_bytes(&exe[..4], 1), None);
    }

    #[test]
    fn the_command_tail_fits_dos() {
        // A DOS command tail holds at most 127 bytes.
        assert!(
            link_args(9, MODULES).len() < 127,
            "{}",
            link_args(9, MODULES)
        );
        assert!(module_source(0, MODULES).contains("..start:"));
        assert!(!module_source(1, MODULES).contains("..start:"));
        // One module calls its own procedures: nothing external.
        assert!(!module_source(0, 1).contains("extern"));
        assert!(module_source(0, 2).contains("extern m1p0"));
    }
}
