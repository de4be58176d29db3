//! COMMDLG's PrintDlg with the default printer a fresh Windows 3.1 has
//! (WIN.INI `[windows] device=HP LaserJet III,HPPCL5A,LPT1:`), through a
//! program built with Open Watcom (tests/watcom/printdlg.c, whose header
//! lists what it prints and where the expected values come from).

mod common;
use common::{bin, json, watcom};

#[test]
fn print_dlg_returns_the_default_printer_as_windows_did() {
    let Some(exe) = watcom::build(
        "printdlg",
        watcom::Kind::Win16Exe,
        &["printdlg.c"],
        None,
        &["commdlg.lib"],
    ) else {
        return;
    };
    let out = bin().args(["run", "--json"]).arg(&exe).output().unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(v["exit"]["code"], 0, "{v}");
    let text = v["output"].as_str().unwrap();
    let lines = common::output_lines(&v);
    assert_eq!(
        lines,
        [
            // lStructSize 0: CDERR_STRUCTSIZE.
            "size 0 1",
            // PD_RETURNDEFAULT | PD_RETURNIC: TRUE, both blocks and an IC.
            "default 1 0 1 1 1",
            // DEVNAMES: the three offsets after the 8-byte header, and
            // DN_DEFAULTPRN.
            "devnames 8 16 32 1 HPPCL5A|HP LaserJet III|LPT1:",
            // DEVMODE: the device's name, DM_SPECVERSION 0x30A, Windows
            // 3.1's 68 bytes, DMORIENT_PORTRAIT, one copy.
            "devmode HP LaserJet III|30a 68 1 1",
            // DT_RASPRINTER; DeleteDC TRUE.
            "ic 2 1",
            // PD_RETURNDEFAULT with a hDevNames given: PDERR_RETDEFFAILURE.
            "again 0 1009",
            // The Print dialog with no one to answer it: cancelled.
            "dialog 0 0",
        ],
        "{text}"
    );
}
