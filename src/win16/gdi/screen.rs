//! The screen as a picture: what `run --screenshot`, `run --screenshots
//! DIR --every N`, `stack --screenshot` and the stack page show.
//!
//! The screen "as the program last showed it" is taken at the moment the
//! headless session is about to send its default WM_CLOSE (everything
//! painted, the program idle: USER calls [`before_default_close`] there).
//! A program that closes its windows itself, or shows nothing but message
//! boxes, never gets there: until that moment USER also keeps the screen
//! each time something is about to leave it ([`shown`]: a visible
//! top-level window about to be destroyed, a message box on the screen
//! while it waits for its answer). When the run ends otherwise (a fault,
//! the budget, an unimplemented function, the program's exit), the picture
//! is the screen at the stop while a top-level window is still visible,
//! else the screen last kept that way. A series
//! (`--screenshots DIR`) numbers its files `screen-00001.png` …: one each N
//! instructions (the session's observer calls [`series_shot`]) and one
//! after each WM_PAINT a window procedure handled ([`after_paint`]).
//!
//! A DOS program's screen (text or graphics) is drawn by
//! `dos::picture`; its series shares [`Series`] with this one.

use std::cell::Cell;
use std::path::PathBuf;

use super::Gdi;
use super::surface::Surface;
use crate::pngfile::encode_png;
use crate::win16::Env;

/// A series of screenshots.
#[derive(Clone, Debug)]
pub struct Series {
    pub dir: PathBuf,
    /// Instructions between shots (0: only after paints).
    pub every: u64,
    count: Cell<u32>,
    /// The most files to write.
    max: u32,
    /// The first write error, reported once.
    pub error: std::cell::RefCell<Option<String>>,
}

/// The session's screenshot state.
#[derive(Clone, Debug, Default)]
pub struct Shots {
    /// The screen taken before the default WM_CLOSE (the first time).
    pub at_close: Option<Surface>,
    /// The screen kept the last time something was about to leave it
    /// (before the default WM_CLOSE only).
    pub last_shown: Option<Surface>,
    pub series: Option<Series>,
}

impl Series {
    pub fn new(dir: PathBuf, every: u64, max: u32) -> Series {
        Series {
            dir,
            every,
            count: Cell::new(0),
            max,
            error: std::cell::RefCell::new(None),
        }
    }

    /// How many shots were written.
    pub fn written(&self) -> u32 {
        self.count.get()
    }

    /// The next file's path (counted as written), or None when the series
    /// has all its files.
    pub fn next_file(&self) -> Option<PathBuf> {
        let n = self.count.get() + 1;
        if n > self.max {
            return None;
        }
        self.count.set(n);
        Some(self.dir.join(format!("screen-{n:05}.png")))
    }

    /// Keep the first write error.
    pub fn fail(&self, e: String) {
        let mut slot = self.error.borrow_mut();
        if slot.is_none() {
            *slot = Some(e);
        }
    }
}

/// The screen as PNG bytes, if anything made it.
pub fn screen_png(gdi: &Gdi, s: &Surface) -> Result<Vec<u8>, String> {
    s.to_png(&|p| gdi.screen_rgb(p))
}

/// USER's hook: the session is about to send its default WM_CLOSE. The
/// screen is kept as the run's picture (the first time).
pub fn before_default_close(env: &mut Env) {
    let gdi = &mut env.win16.gdi;
    if gdi.shots.at_close.is_none() {
        let s = gdi.screen().clone();
        gdi.shots.at_close = Some(s);
    }
}

/// USER's hook: what is on the screen is about to leave it (a visible
/// top-level window about to be destroyed, a message box about to be
/// answered). The screen is kept as the candidate picture, unless the
/// default WM_CLOSE already took one.
pub fn shown(env: &mut Env) {
    let gdi = &mut env.win16.gdi;
    if gdi.shots.at_close.is_some() || gdi.screen_if_made().is_none() {
        return;
    }
    let s = gdi.screen().clone();
    gdi.shots.last_shown = Some(s);
}

/// USER's hook: a window procedure finished handling WM_PAINT.
pub fn after_paint(env: &mut Env) {
    series_shot(env);
}

/// Write the next file of the series (if one is asked for).
pub fn series_shot(env: &Env) {
    let gdi = &env.win16.gdi;
    let Some(series) = &gdi.shots.series else {
        return;
    };
    let Some(path) = series.next_file() else {
        return;
    };
    let res = match gdi.screen_if_made() {
        Some(s) => screen_png(gdi, s),
        None => blank_png(gdi),
    }
    .and_then(|png| std::fs::write(&path, png).map_err(|e| format!("{}: {e}", path.display())));
    if let Err(e) = res {
        series.fail(e);
    }
}

/// A screen nothing drew on: black.
fn blank_png(gdi: &Gdi) -> Result<Vec<u8>, String> {
    let d = gdi.display;
    encode_png(
        d.width as u32,
        d.height as u32,
        &vec![0u8; (d.width * d.height * 3) as usize],
    )
}

/// The run's picture (module doc): the screen kept before the default
/// WM_CLOSE; else the screen now while `windows_shown` (a top-level window
/// is visible); else the screen last kept by [`shown`]; else the screen
/// now.
pub fn final_png(gdi: &Gdi, windows_shown: bool) -> Result<Vec<u8>, String> {
    match final_surface(gdi, windows_shown) {
        Some(s) => screen_png(gdi, s),
        None => blank_png(gdi),
    }
}

/// The surface [`final_png`] encodes.
pub fn final_surface(gdi: &Gdi, windows_shown: bool) -> Option<&Surface> {
    if let Some(s) = &gdi.shots.at_close {
        return Some(s);
    }
    if !windows_shown && let Some(s) = &gdi.shots.last_shown {
        return Some(s);
    }
    gdi.screen_if_made()
}

/// The screen now (for `stack --screenshot` and the stack page).
pub fn current_png(gdi: &Gdi) -> Result<Vec<u8>, String> {
    match gdi.screen_if_made() {
        Some(s) => screen_png(gdi, s),
        None => blank_png(gdi),
    }
}

/// What DOS asks of Win16 (dos::Upper): GDI's series of screenshots,
/// which a DOS screen is written to as well.
impl crate::dos::Upper for crate::win16::Win16 {
    fn next_shot_file(&self) -> Option<std::path::PathBuf> {
        self.gdi.shots.series.as_ref()?.next_file()
    }

    fn shot_failed(&self, error: String) {
        if let Some(s) = &self.gdi.shots.series {
            s.fail(error);
        }
    }
}
