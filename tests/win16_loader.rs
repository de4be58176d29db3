//! The NE loader on whole programs: iterated segments (roms/iterate.exe),
//! and what `info` says of them. Each program's header lists the lines it
//! prints.

mod common;
use common::{bin, json, rom};

/// Segment flag 0x0008 (iterated): Windows expands the records of every
/// segment before it applies the relocation records that follow them. All
/// three segments of iterate.exe are iterated, code and data, and each
/// has relocations (the InitTask and wsprintf imports, a far call into
/// segment 2, DGROUP's selector in segment 2).
#[test]
fn iterated_code_and_data_segments_load_and_run() {
    let out = bin()
        .args(["run", "--json"])
        .arg(rom("iterate.exe"))
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(v["exit"]["code"], 0, "{v}");
    assert_eq!(
        v["output"],
        "data abababababZZZ\r\ncode 2400 0441 1 1\r\ntail 0\r\n"
    );
}

/// An iterated segment whose records expand past its minimum allocation
/// is refused, naming the file, the record's offset and the field.
#[test]
fn an_iteration_record_past_the_allocation_is_refused() {
    let mut b = std::fs::read(rom("iterate.exe")).unwrap();
    let ne = u32::from_le_bytes(b[0x3C..0x40].try_into().unwrap()) as usize;
    let table = ne + usize::from(u16::from_le_bytes([b[ne + 0x22], b[ne + 0x23]]));
    // Segment 3 expands to 0x84 bytes; allow it 0x7F.
    let e = table + 2 * 8;
    b[e + 6..e + 8].copy_from_slice(&0x7Fu16.to_le_bytes());
    let seg3 = usize::from(u16::from_le_bytes([b[e], b[e + 1]])) << 4;
    let dir = std::env::temp_dir().join(format!("th16-baditer-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("BADITER.EXE");
    std::fs::write(&f, &b).unwrap();
    let out = bin().arg("run").arg(&f).output().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    // Records: 4 + 0x76 bytes (record 1, which fits), then 'ab' x 5 at
    // 0x7A, which would reach 0x76 + 10 = 0x80 > 0x7F.
    let at = seg3 + 4 + 0x76;
    assert!(err.contains("BADITER.EXE"), "{err}");
    assert!(
        err.contains(&format!("offset {at:#X} (segment 3 iteration count)")),
        "{err}"
    );
    assert!(err.contains("allocation of 0x7F"), "{err}");
}

#[test]
fn info_names_iterated_segments() {
    let out = bin()
        .args(["info", "--json"])
        .arg(rom("iterate.exe"))
        .output()
        .unwrap();
    let v = json(&out);
    let segs = v["segments"].as_array().unwrap();
    assert_eq!(segs.len(), 3);
    for s in segs {
        assert!(
            s["flag_names"]
                .as_array()
                .unwrap()
                .iter()
                .any(|f| f == "ITERATED"),
            "{s}"
        );
    }
    // Each segment's file data: a 4-byte header per record; the records
    // after the first expand to 0x40 NOPs (segment 1), 'xyz' x 3 (segment
    // 2), and 'ab' x 5, 'Z' x 3 and a zero (segment 3, DGROUP).
    assert_eq!(segs[0]["file_length"], 0xDA, "{v}");
    assert_eq!(segs[0]["expanded_length"], 0xDA - (4 + 4 + 1) + 0x40, "{v}");
    assert_eq!(segs[1]["file_length"], 0x2F, "{v}");
    assert_eq!(segs[1]["expanded_length"], 0x2F - (4 + 4 + 3) + 9, "{v}");
    assert_eq!(segs[2]["file_length"], 0x8A, "{v}");
    assert_eq!(
        segs[2]["expanded_length"],
        0x8A - (4 + 6 + 5 + 5) + 10 + 3 + 1,
        "{v}"
    );
    assert_eq!(v["self_loading"], false, "{v}");
    assert_eq!(v["refusal"], serde_json::Value::Null, "{v}");
    let text = bin()
        .args(["info"])
        .arg(rom("iterate.exe"))
        .output()
        .unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("[ITERATED PRELOAD RELOCINFO]"), "{text}");
    assert!(
        text.contains("iterated: its records expand to 0x00111 bytes"),
        "{text}"
    );
}

/// Two DLLs that import each other (roms/cyca.asm, roms/cycb.asm; CYCB's
/// segments are iterated), and a program importing both: each module is
/// loaded once, each one's imports resolve to the other's entry points,
/// and the LibEntries run deepest first (CYCB, loaded while CYCA was
/// being loaded, then CYCA) before the program's first instruction.
#[test]
fn dlls_that_import_each_other_load_once_and_resolve() {
    let out = bin()
        .args(["run", "--json"])
        .arg(rom("cycuse.exe"))
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["code"], 0, "{v}");
    assert_eq!(
        v["output"],
        "init CYCB\r\ninit CYCA\r\ncycle 0153 0153 00A1 00B2\r\n"
    );
    let info = bin()
        .args(["info", "--json"])
        .arg(rom("cycb.dll"))
        .output()
        .unwrap();
    let i = json(&info);
    assert_eq!(i["library"], true, "{i}");
    assert_eq!(i["segments"][0]["flag_names"][0], "ITERATED", "{i}");
    assert_eq!(i["refusal"], serde_json::Value::Null, "{i}");
}

/// A program's own copy of a system DLL that was an ordinary library in
/// Windows 3.1 (VER.DLL) is loaded and run instead of the built-in module,
/// found in the program's directory or the system directory (SDK,
/// LoadLibrary: the current directory, the Windows directory, the system
/// directory, the program's directory, PATH); USER, which Windows had in
/// memory before any program ran, never comes from a file.
#[test]
fn a_programs_own_system_dll_replaces_the_built_in_one() {
    let base = std::env::temp_dir().join(format!("th16-owndll-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let app = base.join("app");
    let drive = base.join("drive");
    std::fs::create_dir_all(&app).unwrap();
    std::fs::create_dir_all(drive.join("WINDOWS").join("SYSTEM")).unwrap();
    std::fs::copy(rom("veruse.exe"), app.join("VERUSE.EXE")).unwrap();
    std::fs::copy(rom("userfake.dll"), app.join("USER.DLL")).unwrap();
    let run = |dir: &std::path::Path| {
        json(
            &bin()
                .args(["run", "--json", "--dir"])
                .arg(dir)
                .arg(app.join("VERUSE.EXE"))
                .output()
                .unwrap(),
        )
    };
    // No VER.DLL anywhere: the built-in VER (no such file: size 0).
    let builtin = run(&drive);
    // In the system directory of drive C:.
    std::fs::copy(rom("verfake.dll"), drive.join("WINDOWS/SYSTEM/VER.DLL")).unwrap();
    let system = run(&drive);
    // Beside the program (and not in the system directory).
    std::fs::remove_file(drive.join("WINDOWS/SYSTEM/VER.DLL")).unwrap();
    std::fs::copy(rom("verfake.dll"), app.join("VER.DLL")).unwrap();
    let beside = run(&drive);
    std::fs::remove_dir_all(&base).unwrap();
    assert_eq!(builtin["output"], "ver 0000\r\n", "{builtin}");
    assert_eq!(system["output"], "init own VER\r\nver 1234\r\n", "{system}");
    assert_eq!(beside["output"], "init own VER\r\nver 1234\r\n", "{beside}");
}

/// Modules with no segments load as Windows 3.1 loaded them when a program
/// asks LoadLibrary for them: a resource-only DLL (roms/resonly.asm, a
/// string table) gives an instance handle (its module handle) that
/// LoadString reads from; a font file (the corpus's vgaoem.fon, copied as
/// FONT.FON; skipped visibly without the corpus) loads as a module.
#[test]
fn resource_only_modules_load_with_loadlibrary() {
    let dir = std::env::temp_dir().join(format!("th16-resonly-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(rom("resuse.exe"), dir.join("RESUSE.EXE")).unwrap();
    std::fs::copy(rom("resonly.dll"), dir.join("RESONLY.DLL")).unwrap();
    let font = common::corpus().map(|c| c.join("ne/vgaoem.fon"));
    if let Some(f) = &font {
        std::fs::copy(f, dir.join("FONT.FON")).unwrap();
    }
    let out = bin()
        .args(["run", "--json", "--dir"])
        .arg(&dir)
        .arg(dir.join("RESUSE.EXE"))
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["code"], 0, "{v}");
    let want_font = if font.is_some() { "font 1" } else { "font 2" };
    assert_eq!(
        v["output"],
        format!("resonly 1 21 text from no segments\r\n{want_font}\r\n")
    );
}

/// A self-loading application (NE flag 0x0800; roms/selfload.asm): KERNEL
/// loads segment 1, fills in MyAlloc, EntryAddrProc and SetOwner in its
/// loader data table, calls BootApp(hBlock, hFile), then LoadAppSeg for
/// each segment BootApp did not load (Windows 3.1 SDK, "Self-Loading
/// Windows Applications"); the program then runs from the segments its own
/// loader read through DOS and fixed up, and its ExitProc is called when
/// it ends.
#[test]
fn a_self_loading_application_loads_itself_and_runs() {
    let out = bin()
        .args(["run", "--json"])
        .arg(rom("selfload.exe"))
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["code"], 0, "{v}");
    assert_eq!(
        v["output"], "table 1 1 1\r\nloaded 6 6\r\nself-loaded 1\r\nExitProc\r\n",
        "{v}"
    );
    let info = bin()
        .args(["info", "--json"])
        .arg(rom("selfload.exe"))
        .output()
        .unwrap();
    let i = json(&info);
    assert_eq!(i["self_loading"], true, "{i}");
    assert_eq!(i["refusal"], serde_json::Value::Null, "{i}");
    assert!(
        i["flag_names"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f == "SELFLOAD"),
        "{i}"
    );
    // Its loader reads the file through DOS: a file outside drive C: is
    // refused, saying so.
    let elsewhere = std::env::temp_dir().join(format!("th16-selfload-{}", std::process::id()));
    std::fs::create_dir_all(&elsewhere).unwrap();
    let out = bin()
        .args(["run", "--json", "--dir"])
        .arg(&elsewhere)
        .arg(rom("selfload.exe"))
        .output()
        .unwrap();
    std::fs::remove_dir_all(&elsewhere).unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{text}");
    assert!(
        text.contains("self-loading application reads its own file through DOS"),
        "{text}"
    );
}

/// A font file given to AddFontResource is loaded as a module, as Windows
/// 3.1 loaded it (a resource-only library; RemoveFontResource frees it),
/// and AddFontResource also takes a loaded module's handle (SDK,
/// AddFontResource: "a handle of a loaded module"). Each returns the
/// number of fonts added: the file's RT_FONT (8) resources. Needs the
/// corpus's vgaoem.fon (module OEMFONTS); skipped visibly without it.
#[test]
fn a_font_file_is_a_module_to_addfontresource() {
    let Some(c) = common::corpus() else { return };
    let fon = std::fs::read(c.join("ne/vgaoem.fon")).unwrap();
    let ne = toolhelp16::loader::NeImage::parse(&fon).unwrap();
    let fonts = ne
        .resources
        .iter()
        .find(|t| t.type_id == toolhelp16::loader::ResourceId::Int(8))
        .map_or(0, |t| t.resources.len());
    assert!(fonts > 0);
    let dir = std::env::temp_dir().join(format!("th16-fontuse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(rom("fontuse.exe"), dir.join("FONTUSE.EXE")).unwrap();
    std::fs::write(dir.join("FONT.FON"), &fon).unwrap();
    let out = bin()
        .args(["run", "--json", "--dir"])
        .arg(&dir)
        .arg(dir.join("FONTUSE.EXE"))
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["code"], 0, "{v}");
    assert_eq!(
        v["output"],
        format!("name {fonts} 1 1 0\r\nhandle {fonts} 1\r\n"),
        "{v}"
    );
}

/// A data-only DLL (roms/datadll.asm: one data segment, no code, no entry
/// point) loads with the program that imports its table, with no LibEntry
/// to run; LoadLibrary gives its instance handle, its data segment's
/// (SDK, LoadLibrary), and GetProcAddress the entry the import resolved
/// to.
#[test]
fn a_data_only_dll_loads_and_its_exports_resolve() {
    let out = bin()
        .args(["run", "--json"])
        .arg(rom("datause.exe"))
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["code"], 0, "{v}");
    assert_eq!(v["output"], "data 1234 5678 1 1\r\n", "{v}");
}
