//! Printing: a printer DC draws on a page (devcaps.rs: 2400×3150 pixels at
//! 300 dpi, monochrome); Escape's NEWFRAME / NEXTBAND, or StartDoc,
//! StartPage, EndPage and EndDoc, send each finished page to the sandbox
//! directory (drive C:, dosfs.rs) as a PNG file named `PRNddppp.PNG`
//! (document dd, page ppp, both from 1), and the page starts white again.
//!
//! Escapes (SDK, "Printer escapes"): NEWFRAME (1) ends a page; ABORTDOC
//! (2) drops the document; NEXTBAND (3) hands out the whole page as one
//! band, then an empty band after which the page is output; QUERYESCSUPPORT
//! (8) tells which escapes exist; SETABORTPROC (9) keeps the abort
//! procedure, which is called (hDC, 0) before each page is written (a FALSE
//! return aborts the job: SP_APPABORT); STARTDOC (10) and ENDDOC (11);
//! GETPHYSPAGESIZE (12: 2550×3300, US Letter), GETPRINTINGOFFSET (13:
//! 75, 75, the quarter-inch margins), GETSCALINGFACTOR (14: 0, 0);
//! DRAFTMODE (7) and SETCOPYCOUNT (17) are accepted. A page that cannot be
//! written returns SP_OUTOFDISK (−4); a document without a drive
//! (`run` without `--dir`) prints nowhere and says so the same way.

use std::collections::HashMap;

use super::surface::Surface;
use super::{Env, Stop, Uc, arg_h, read_struct, write_struct};
use crate::win16::api::{Api, Arg};
use crate::win16::geom::Rect;

const SP_ERROR: u32 = 0xFFFF;
const SP_APPABORT: u32 = 0xFFFE;
const SP_OUTOFDISK: u32 = 0xFFFC;

/// One DC's print job.
#[derive(Debug, Clone, Default)]
struct Job {
    doc: u32,
    page: u32,
    name: String,
    in_doc: bool,
    /// NEXTBAND: the page's band was handed out.
    band_given: bool,
}

/// Print jobs by DC, and what was written.
#[derive(Clone, Debug, Default)]
pub struct Spool {
    jobs: HashMap<u16, Job>,
    abort_procs: HashMap<u16, u32>,
    docs: u32,
    /// Files written (DOS names), in order.
    pub written: Vec<String>,
    /// GetSpoolJob's state: Print Manager's window, its procedure, the
    /// queues readied, the flag of option 23h.
    pub manager_window: u16,
    pub manager_proc: u32,
    pub queues_ready: bool,
    pub spool_flag: bool,
}

impl Spool {
    /// Forget a deleted DC's job.
    pub fn forget(&mut self, hdc: u16) {
        self.jobs.remove(&hdc);
        self.abort_procs.remove(&hdc);
    }
}

fn is_printer(env: &mut Env, hdc: u16) -> bool {
    env.win16.gdi.dc_mut(hdc).is_some_and(|d| {
        d.device == super::devcaps::Device::Printer && d.kind == super::dc::DcKind::Printer
    })
}

fn start_doc(env: &mut Env, hdc: u16, name: String) -> u32 {
    let sp = &mut env.win16.gdi.printer;
    sp.docs += 1;
    let doc = sp.docs;
    sp.jobs.insert(
        hdc,
        Job {
            doc,
            page: 0,
            name,
            in_doc: true,
            band_given: false,
        },
    );
    doc.min(0x7FFF)
}

/// Call the abort procedure, if any: false when it asks to abort.
fn ask_abort_proc(env: &mut Env, uc: &mut Uc<'_>, hdc: u16) -> Result<bool, Stop> {
    let Some(&proc_) = env.win16.gdi.printer.abort_procs.get(&hdc) else {
        return Ok(true);
    };
    let cs = env
        .win16
        .module_by_name("GDI")
        .and_then(|m| m.segments.first().copied())
        .ok_or_else(|| Stop::Error("GDI's thunk segment is missing".into()))?;
    let ds = crate::machine::Cpu::reg(uc, crate::machine::R::DS);
    let r = crate::win16::callback::call_far(
        env,
        uc,
        cs,
        crate::win16::farptr::split(proc_),
        ds,
        &[],
        &[
            crate::win16::callback::CallArg::W(hdc),
            crate::win16::callback::CallArg::W(0),
        ],
    )?;
    Ok(r.value as u16 != 0)
}

/// End the current page: write it and start a white one. The escape's
/// result.
fn end_page(env: &mut Env, uc: &mut Uc<'_>, hdc: u16) -> Result<u32, Stop> {
    if !ask_abort_proc(env, uc, hdc)? {
        env.win16.gdi.printer.jobs.remove(&hdc);
        return Ok(SP_APPABORT);
    }
    let gdi = &mut env.win16.gdi;
    let Some(job) = gdi.printer.jobs.get_mut(&hdc) else {
        return Ok(SP_ERROR);
    };
    job.page += 1;
    job.band_given = false;
    let name = format!("PRN{:02}{:03}.PNG", job.doc % 100, job.page % 1000);
    let page = gdi.dc_mut(hdc).and_then(|d| d.page.take());
    let page = match page {
        Some(p) => p,
        None => {
            let (w, h) = super::devcaps::PRINTER_PAGE;
            Surface::new(w, h, super::surface::Format::Mono, 1).expect("page size")
        }
    };
    let png = page.to_png(&|p| if p & 1 != 0 { 0x00FF_FFFF } else { 0 });
    let Ok(png) = png else {
        return Ok(SP_ERROR);
    };
    let Some(drive) = env.drive.as_mut() else {
        return Ok(SP_OUTOFDISK);
    };
    let path = format!("\\{name}");
    let ok = match drive.create(path.as_bytes(), 0) {
        Ok(h) => {
            // DOS writes at most 0xFFFF bytes a call.
            let w = png
                .chunks(0x8000)
                .all(|c| drive.write(h, c).is_ok_and(|n| n == c.len()));
            let c = drive.close(h).is_ok();
            w && c
        }
        Err(_) => false,
    };
    if !ok {
        return Ok(SP_OUTOFDISK);
    }
    env.win16.gdi.printer.written.push(name.clone());
    crate::machine::record_event(uc, format!("print page {name} written"));
    Ok(1)
}

/// GDI.38 Escape(hDC, nEscape, cbInput, lpInData, lpOutData).
fn escape(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hdc = arg_h(a[0]);
    let code = a[1] as u16;
    if !is_printer(env, hdc) {
        return Ok(0);
    }
    let point = |uc: &mut Uc<'_>, x: i16, y: i16| {
        let mut b = [0u8; 4];
        b[0..2].copy_from_slice(&x.to_le_bytes());
        b[2..4].copy_from_slice(&y.to_le_bytes());
        u32::from(write_struct(uc, a[4], &b))
    };
    Ok(match code {
        // NEWFRAME
        1 => end_page(env, uc, hdc)?,
        // ABORTDOC
        2 => {
            env.win16.gdi.printer.jobs.remove(&hdc);
            1
        }
        // NEXTBAND
        3 => {
            let given = env
                .win16
                .gdi
                .printer
                .jobs
                .get(&hdc)
                .map(|j| j.band_given)
                .unwrap_or(false);
            if !given {
                let (w, h) = super::devcaps::PRINTER_PAGE;
                if let Some(j) = env.win16.gdi.printer.jobs.get_mut(&hdc) {
                    j.band_given = true;
                }
                u32::from(super::write_rect(uc, a[4], Rect::new(0, 0, w, h)))
            } else {
                super::write_rect(uc, a[4], Rect::default());
                end_page(env, uc, hdc)?
            }
        }
        // QUERYESCSUPPORT
        8 => {
            let q = read_struct::<2>(uc, a[3])
                .map(u16::from_le_bytes)
                .unwrap_or(0);
            u32::from(matches!(
                q,
                1 | 2 | 3 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14 | 17
            ))
        }
        // SETABORTPROC
        9 => {
            env.win16.gdi.printer.abort_procs.insert(hdc, a[3]);
            1
        }
        // STARTDOC
        10 => {
            let name = crate::win16::farptr::read_cstr(uc, a[3], 128).unwrap_or_default();
            start_doc(env, hdc, String::from_utf8_lossy(&name).into_owned())
        }
        // ENDDOC
        11 => {
            env.win16.gdi.printer.jobs.remove(&hdc);
            1
        }
        // GETPHYSPAGESIZE, GETPRINTINGOFFSET, GETSCALINGFACTOR
        12 => point(uc, 2550, 3300),
        13 => point(uc, 75, 75),
        14 => point(uc, 0, 0),
        // DRAFTMODE, SETCOPYCOUNT
        7 | 17 => 1,
        _ => 0,
    })
}

/// GDI.377 StartDoc(hDC, lpdi) -> a job number, SP_ERROR on failure.
fn start_doc_call(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hdc = arg_h(a[0]);
    if !is_printer(env, hdc) {
        return Ok(SP_ERROR);
    }
    // DOCINFO: short cbSize; LPCSTR lpszDocName; LPCSTR lpszOutput.
    let name = read_struct::<6>(uc, a[1])
        .map(|b| u32::from_le_bytes([b[2], b[3], b[4], b[5]]))
        .and_then(|p| crate::win16::farptr::read_cstr(uc, p, 128))
        .unwrap_or_default();
    Ok(start_doc(
        env,
        hdc,
        String::from_utf8_lossy(&name).into_owned(),
    ))
}

/// GDI.379 StartPage(hDC) -> > 0.
fn start_page(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hdc = arg_h(a[0]);
    Ok(
        if is_printer(env, hdc) && env.win16.gdi.printer.jobs.contains_key(&hdc) {
            1
        } else {
            SP_ERROR
        },
    )
}

/// GDI.380 EndPage(hDC) -> > 0, or an SP_ error.
fn end_page_call(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hdc = arg_h(a[0]);
    if !is_printer(env, hdc) {
        return Ok(SP_ERROR);
    }
    end_page(env, uc, hdc)
}

/// GDI.378 EndDoc(hDC).
fn end_doc(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hdc = arg_h(a[0]);
    Ok(match env.win16.gdi.printer.jobs.remove(&hdc) {
        Some(_) => 1,
        None => SP_ERROR,
    })
}

/// GDI.382 AbortDoc(hDC).
fn abort_doc(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    env.win16.gdi.printer.jobs.remove(&arg_h(a[0]));
    Ok(1)
}

/// GDI.381 SetAbortProc(hDC, lpAbortProc).
fn set_abort_proc(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    env.win16.gdi.printer.abort_procs.insert(arg_h(a[0]), a[1]);
    Ok(1)
}

/// GDI.155 QueryAbort(hDC, nReserved) -> BOOL: the abort procedure's
/// answer (TRUE without one).
fn query_abort(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(ask_abort_proc(env, uc, arg_h(a[0]))?))
}

/// The document name of a DC's job (for reports).
pub fn job_name(env: &Env, hdc: u16) -> Option<&str> {
    env.win16
        .gdi
        .printer
        .jobs
        .get(&hdc)
        .filter(|j| j.in_doc)
        .map(|j| j.name.as_str())
}

/// Bytes of a job's details (GetSpoolJob option 14h).
pub const SPOOL_JOB_INFO: usize = 42;

/// GDI.245 GetSpoolJob(nOption, lParam): GDI's interface to Print Manager
/// over the spooler's queues and jobs (undocumented; what GDI.EXE 3.1
/// does, as others have read it out and measured it). No printer is
/// installed here, so there are no queues and no jobs:
/// - 19h readies the queues (from the printers, the first time; 1Ch
///   again; 1Fh lets 19h do it afresh) and answers their count, 0; 1Dh
///   answers the count, 0;
/// - 14h fills the 42 bytes at lParam with the next job's details, all 0
///   with no job, and answers 0;
/// - 15h keeps Print Manager's window (LOWORD(lParam); 0 also forgets
///   the procedure 1Bh keeps) and answers the count of jobs, 0; 22h
///   answers 1 while no window is kept, else 0;
/// - 20h and 21h answer a queue's two timeouts, 0 with no queue; 23h
///   sets or clears a flag; every other option answers 0.
fn get_spool_job(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (option, param) = (a[0] as u16, a[1]);
    let sp = &mut env.win16.gdi.printer;
    Ok(match option {
        0x14 => {
            crate::win16::farptr::write_bytes(uc, param, &[0; SPOOL_JOB_INFO]);
            0
        }
        0x15 => {
            sp.manager_window = param as u16;
            if sp.manager_window == 0 {
                sp.manager_proc = 0;
            }
            0
        }
        0x19 | 0x1C => {
            sp.queues_ready = true;
            0
        }
        0x1B => {
            sp.manager_proc = param;
            0
        }
        0x1F => {
            sp.queues_ready = false;
            0
        }
        0x22 => u32::from(sp.manager_window == 0),
        0x23 => {
            sp.spool_flag = param != 0;
            0
        }
        _ => 0,
    })
}

pub static APIS: &[Api] = &[
    Api::new("GDI", 245, "GETSPOOLJOB", &[Arg::W, Arg::L], get_spool_job),
    Api::new(
        "GDI",
        38,
        "ESCAPE",
        &[Arg::W, Arg::W, Arg::W, Arg::L, Arg::L],
        escape,
    ),
    Api::new("GDI", 155, "QUERYABORT", &[Arg::W, Arg::W], query_abort),
    Api::new("GDI", 377, "STARTDOC", &[Arg::W, Arg::L], start_doc_call),
    Api::new("GDI", 378, "ENDDOC", &[Arg::W], end_doc),
    Api::new("GDI", 379, "STARTPAGE", &[Arg::W], start_page),
    Api::new("GDI", 380, "ENDPAGE", &[Arg::W], end_page_call),
    Api::new(
        "GDI",
        381,
        "SETABORTPROC",
        &[Arg::W, Arg::L],
        set_abort_proc,
    ),
    Api::new("GDI", 382, "ABORTDOC", &[Arg::W], abort_doc),
];
