//! WIN87EM and floating point through roms/fpu.exe: x87 instructions in
//! Microsoft's emulator-interrupt form with OS fixup records become x87
//! code at load (none of them runs as an interrupt), an interrupt form
//! without a fixup is patched by its INT 39h handler when it runs, the
//! x87 computes with doubles in extended precision (the digits below are
//! those of IEEE arithmetic rounded to nearest), and __fpMath's services
//! answer as WIN87EM's. The program's header lists the lines.

mod common;
use common::{bin, json, rom};

#[test]
fn doubles_get_the_right_digits() {
    let out = bin()
        .args(["run", "--json", "--events"])
        .arg(rom("fpu.exe"))
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(v["exit"]["code"], 0);
    let want = [
        "init 0 1",
        // (0.1 + 0.2) * 1e9 = 300000000.0000000166...
        "sum 300000000",
        // pi * 1e8 = 314159265.358979...
        "pi 314159265",
        // sqrt(2) * 1e9 = 1414213562.373095...
        "sqrt 1414213562",
        // (1 / 3) * 1e9 * 3 in extended precision
        "third 1000000000",
        "es 250 wait 1",
        "patched 42",
        // 2.5 to nearest even, 7.9 chopped, 7.9 up, -2.5 down
        "pop 2 7 8 -3",
        // 3.2 rounded up; the control word loaded; two registers in use
        "round 4 cw 027F stack 2",
    ];
    let text = v["output"].as_str().unwrap();
    let lines: Vec<&str> = text.split("\r\n").collect();
    assert_eq!(lines[..lines.len() - 1], want[..], "{text}");
    // Only the instruction without a fixup ran as an interrupt.
    let patched: Vec<String> = v["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e.as_str())
        .filter(|e| e.contains("WIN87EM: INT"))
        .map(str::to_string)
        .collect();
    assert_eq!(patched.len(), 1, "{patched:?}");
    assert!(
        patched[0].contains("INT 39h") && patched[0].contains("[9B, DD]"),
        "{patched:?}"
    );
}
