//! Message boxes: MessageBox.
//!
//! Every box shown is kept for the run's report ([`Shown`]): the boxes
//! the program asked for with MessageBox, and those the environment showed
//! on its behalf (the Application Error box of an unhandled fault,
//! fault.rs; the "File Error" box of a LoadLibrary that finds no file,
//! kernel/library.rs), so a run that "exited cleanly" after an error box
//! says so.
//!
//! Message boxes are recorded (`--events`) and answered with the task's
//! next `msgbox` script line, else with their first button (IDOK for MB_OK
//! and MB_OKCANCEL, IDYES for MB_YESNO[CANCEL], IDABORT, IDRETRY). A box
//! shown after the session's default WM_CLOSE (message.rs: the session
//! closing the program's main window at the end) is answered as a user
//! closing without saving would: IDNO to a "Save changes?" MB_YESNO or
//! MB_YESNOCANCEL box, IDOK, IDCANCEL to MB_RETRYCANCEL, IDIGNORE to
//! MB_ABORTRETRYIGNORE, so that a program asking before it closes still
//! ends.
//!
//! While it waits for its answer the box is on the screen, drawn as
//! Windows 3.1 drew its message-box dialog (a picture: no window of its
//! own; what was under it is put back afterwards, as the dialog class's
//! CS_SAVEBITS did): a WS_POPUP | WS_CAPTION | WS_SYSMENU window with a
//! dialog frame (user/frame.rs), COLOR_WINDOW inside, the MB_ICON icon at
//! the left, the text in the System font word-wrapped (DrawText
//! DT_WORDBREAK | DT_EXPANDTABS | DT_NOPREFIX) at most three quarters of
//! the screen wide, and the buttons in a row centred under them, the
//! MB_DEFBUTTON one the default push button with the focus. Sizes in
//! dialog units of the System font (GetDialogBaseUnits): margins of 8,
//! buttons 40 × 14 (wider when their label needs it) 6 apart. The box is
//! centred on the screen.

use super::message::take_answer;
use super::{event, string_arg};
use crate::machine::{Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};
use crate::win16::geom::{Point, Rect, Region};
use crate::win16::scheduler;
use crate::win16::scheduler::{Resume, Wait};

/// USER.1 MessageBox(hWnd, lpText, lpCaption, wType): recorded, answered
/// with the task's next `msgbox` script line, else with the first button
/// (module doc).
fn message_box(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let text = string_arg(uc, a[1]);
    let caption = if a[2] == 0 {
        "Error".to_string()
    } else {
        string_arg(uc, a[2])
    };
    let htask = uc.get_data().current_task;
    let closing = env
        .win16
        .user
        .queues
        .get(&htask)
        .is_some_and(|q| q.close_sent);
    let default = if closing {
        closing_answer(a[3] as u16)
    } else {
        first_button(a[3] as u16)
    };
    let (answer, by) = match take_answer(env, htask, false) {
        Some((line, answer)) => (u32::from(answer), format!(" (script line {line})")),
        None => (default, String::new()),
    };
    event(
        uc,
        format!(
            "message box {}: {} answered {answer}{by}",
            crate::escape::quoted(&caption),
            crate::escape::quoted(&text)
        ),
    );
    let module = scheduler::task_name(env, htask);
    env.win16.user.boxes.record(ShownBox {
        htask,
        module,
        caption: caption.clone(),
        text: text.clone(),
        style: Some(a[3] as u16),
        answer: Some(answer as u16),
        by: ShownBy::Program,
    });
    let saved = picture(env, uc, caption.as_bytes(), text.as_bytes(), a[3] as u16);
    // The box's modal loop lets the other tasks run.
    let r = scheduler::yield_now(env, uc, Wait::Ready, Resume::After(answer));
    if let Some(s) = saved {
        s.restore(env);
    }
    r?;
    Ok(answer)
}

/// The first button of a box of type `ty` (IDOK, IDABORT, IDYES,
/// IDRETRY): what Enter chooses in a box without MB_DEFBUTTONn.
fn first_button(ty: u16) -> u32 {
    match ty & 0x0F {
        2 => 3,     // MB_ABORTRETRYIGNORE: IDABORT
        3 | 4 => 6, // MB_YESNOCANCEL, MB_YESNO: IDYES
        5 => 4,     // MB_RETRYCANCEL: IDRETRY
        _ => 1,     // MB_OK, MB_OKCANCEL: IDOK
    }
}

/// The answer to a box shown while the session closes the program (after
/// its default WM_CLOSE, module doc): the one that lets the close go on,
/// as a user leaving without saving gives it: IDNO to "Save changes?"
/// (MB_YESNO, MB_YESNOCANCEL), IDOK to MB_OK and MB_OKCANCEL, IDCANCEL to
/// MB_RETRYCANCEL, IDIGNORE to MB_ABORTRETRYIGNORE.
fn closing_answer(ty: u16) -> u32 {
    match ty & 0x0F {
        2 => 5,     // MB_ABORTRETRYIGNORE: IDIGNORE
        3 | 4 => 7, // MB_YESNOCANCEL, MB_YESNO: IDNO
        5 => 2,     // MB_RETRYCANCEL: IDCANCEL
        _ => 1,     // MB_OK, MB_OKCANCEL: IDOK
    }
}

/// Who showed a message box.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShownBy {
    /// The program, with MessageBox.
    Program,
    /// The environment on the program's behalf (the Application Error box
    /// of an unhandled fault, the File Error box of LoadLibrary).
    Environment,
}

impl ShownBy {
    /// As the report names it.
    pub fn name(self) -> &'static str {
        match self {
            ShownBy::Program => "program",
            ShownBy::Environment => "environment",
        }
    }
}

/// A box of the system's own for task `htask` (KERNEL's File Error box,
/// kernel/signal.rs; the Application Error box of a fault, fault.rs and
/// TerminateApp's UAE_BOX, toolhelp_notify.rs): kept with the run's
/// boxes, as the environment's, with no style and no answer.
pub fn system_box(env: &mut Env, htask: u16, caption: &str, text: String) {
    let module = scheduler::task_name(env, htask);
    env.win16.user.boxes.record(ShownBox {
        htask,
        module,
        caption: caption.to_string(),
        text,
        style: None,
        answer: None,
        by: ShownBy::Environment,
    });
}

/// A message box that was shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShownBox {
    /// The task it was shown for.
    pub htask: u16,
    /// That task's module name.
    pub module: String,
    /// The caption ("Error" for a NULL lpCaption, as the SDK's MessageBox
    /// page says).
    pub caption: String,
    /// The text.
    pub text: String,
    /// MessageBox's wType; None for the environment's own boxes.
    pub style: Option<u16>,
    /// The button that answered it (IDOK ...); None when the box had no
    /// answer the program saw (it was ended with its task).
    pub answer: Option<u16>,
    /// Who showed it.
    pub by: ShownBy,
}

/// The boxes a run keeps: the first [`Shown::MAX`], and a count of the
/// rest.
#[derive(Debug, Clone, Default)]
pub struct Shown {
    pub boxes: Vec<ShownBox>,
    pub dropped: u64,
}

impl Shown {
    /// At most this many boxes are kept.
    pub const MAX: usize = 256;

    /// Keep `b` (or count it past [`Shown::MAX`]).
    pub fn record(&mut self, b: ShownBox) {
        if self.boxes.len() < Self::MAX {
            self.boxes.push(b);
        } else {
            self.dropped += 1;
        }
    }
}

/// The name of a MessageBox answer (IDOK = 1 ... IDNO = 7).
pub fn answer_name(id: u16) -> &'static str {
    match id {
        1 => "IDOK",
        2 => "IDCANCEL",
        3 => "IDABORT",
        4 => "IDRETRY",
        5 => "IDIGNORE",
        6 => "IDYES",
        7 => "IDNO",
        _ => "?",
    }
}

/// The screen under the box, to put back.
struct Under {
    at: Rect,
    pixels: Vec<u32>,
}

impl Under {
    fn take(env: &mut Env, at: Rect) -> Under {
        let s = env.win16.gdi.screen();
        let mut pixels = Vec::with_capacity((at.width() * at.height()).max(0) as usize);
        for y in at.top..at.bottom {
            pixels.extend_from_slice(&s.row(y)[at.left as usize..at.right as usize]);
        }
        Under { at, pixels }
    }

    fn restore(self, env: &mut Env) {
        let s = env.win16.gdi.screen();
        let w = self.at.width() as usize;
        for (k, y) in (self.at.top..self.at.bottom).enumerate() {
            s.row_mut(y)[self.at.left as usize..self.at.right as usize]
                .copy_from_slice(&self.pixels[k * w..(k + 1) * w]);
        }
    }
}

/// The buttons of MB_OK ... MB_RETRYCANCEL (wType & 0x0F).
fn buttons(kind: u16) -> &'static [&'static str] {
    match kind {
        1 => &["OK", "Cancel"],
        2 => &["&Abort", "&Retry", "&Ignore"],
        3 => &["&Yes", "&No", "Cancel"],
        4 => &["&Yes", "&No"],
        5 => &["&Retry", "Cancel"],
        _ => &["OK"],
    }
}

/// Draw the message box on the screen (module doc): what was under it.
fn picture(env: &mut Env, uc: &mut Uc<'_>, caption: &[u8], text: &[u8], ty: u16) -> Option<Under> {
    use super::controls::paint::{DT_EXPANDTABS, DT_NOPREFIX, DT_SINGLELINE, DT_WORDBREAK};
    use super::metrics::{SM_CXDLGFRAME, SM_CYBORDER, SM_CYCAPTION, SM_CYDLGFRAME, fixed};
    use crate::win16::gdi::dc::Fill;
    use crate::win16::user::text::draw_text_rs;
    const DT_CALCRECT: u16 = 0x0400;
    let screen = env.win16.gdi.screen_rect();
    let (bx, by) = super::dialog::base_units(env);
    let (dx, dy) = (
        |n: i32| n * i32::from(bx) / 4,
        |n: i32| n * i32::from(by) / 8,
    );
    let labels = buttons(ty & 0x0F);
    let icon = match (ty >> 4) & 0x0F {
        1 => Some(32513), // MB_ICONHAND: IDI_HAND
        2 => Some(32514), // MB_ICONQUESTION
        3 => Some(32515), // MB_ICONEXCLAMATION
        4 => Some(32516), // MB_ICONASTERISK
        _ => None,
    };
    let default = usize::from((ty >> 8) & 0x0F).min(labels.len() - 1);
    let hdc = crate::win16::gdi::dc::create_window_dc(
        &mut env.win16,
        uc,
        0,
        Point::new(0, 0),
        Region::rect(screen),
    )?;
    // Measure.
    let wrap = DT_WORDBREAK | DT_EXPANDTABS | DT_NOPREFIX;
    let max_text = screen.width() * 3 / 4;
    let (_, t) = draw_text_rs(
        env,
        hdc,
        text,
        Rect::new(0, 0, max_text, 0),
        wrap | DT_CALCRECT,
    )
    .unwrap_or((0, Rect::default()));
    let (tw, th) = (t.width(), t.height());
    let mut bw = dx(40);
    for l in labels {
        let (_, r) = draw_text_rs(
            env,
            hdc,
            l.as_bytes(),
            Rect::default(),
            DT_SINGLELINE | DT_CALCRECT,
        )
        .unwrap_or((0, Rect::default()));
        bw = bw.max(r.width() + dx(8));
    }
    let (bh, gap, mx, my) = (dy(14), dx(6), dx(8), dy(8));
    let n = labels.len() as i32;
    let row = n * bw + (n - 1) * gap;
    let text_left = mx + if icon.is_some() { 32 + mx } else { 0 };
    let area = th.max(if icon.is_some() { 32 } else { 0 });
    let cw = (text_left + tw + mx).max(row + 2 * mx);
    let ch = my + area + my + bh + my;
    let (fx, fy) = (fixed(SM_CXDLGFRAME), fixed(SM_CYDLGFRAME));
    let ww = (cw + 2 * fx).min(screen.width());
    let wh = (ch + 2 * fy + fixed(SM_CYCAPTION) - fixed(SM_CYBORDER)).min(screen.height());
    let left = (screen.width() - ww) / 2;
    let top = (screen.height() - wh) / 2;
    let at = Rect::new(left, top, left + ww, top + wh);
    let under = Under::take(env, at);
    // Draw.
    let client = super::frame::draw_dialog_popup(env, hdc, at, caption, true);
    let window = env.win16.user.sys.colors[5];
    let text_color = env.win16.user.sys.colors[8];
    env.win16.gdi.fill_rect(hdc, client, Fill::Color(window));
    let (cl, ct) = (client.left, client.top);
    if let Some(id) = icon {
        let img = super::draw::stock_image(id);
        super::draw::draw_image(env, hdc, cl + mx, ct + my + (area - 32) / 2, &img);
    }
    if let Some(d) = env.win16.gdi.dc_mut(hdc) {
        d.state.text_color = text_color;
        d.state.bk_mode = 1; // TRANSPARENT
    }
    let ty0 = ct + my + (area - th) / 2;
    draw_text_rs(
        env,
        hdc,
        text,
        Rect::new(cl + text_left, ty0, cl + text_left + tw, ty0 + th),
        wrap,
    );
    let mut x = cl + (client.width() - row) / 2;
    let y = ct + my + area + my;
    for (k, l) in labels.iter().enumerate() {
        let r = Rect::new(x, y, x + bw, y + bh);
        push_button(env, hdc, r, l.as_bytes(), k == default);
        x += bw + gap;
    }
    crate::win16::gdi::dc::release_dc(&mut env.win16, uc, hdc);
    // The screen as the program last showed it (gdi/screen.rs).
    crate::win16::gdi::screen::shown(env);
    crate::win16::gdi::screen::after_paint(env);
    Some(under)
}

/// A push button at `r` of the screen DC `hdc` (controls/paint.rs's
/// look): the default one with a two-pixel frame and the focus rectangle
/// round its label.
fn push_button(env: &mut Env, hdc: u16, r: Rect, label: &[u8], default: bool) {
    use super::controls::paint::{DT_CENTER, DT_SINGLELINE, DT_VCENTER};
    use crate::win16::gdi::dc::Fill;
    use crate::win16::user::text::draw_text_rs;
    const DT_CALCRECT: u16 = 0x0400;
    let c = |i: usize| env.win16.user.sys.colors[i];
    let (frame, face, light, shadow, ink) = (c(6), c(15), c(20), c(16), c(18));
    let gdi = &mut env.win16.gdi;
    let mut fill = |x1: i32, y1: i32, x2: i32, y2: i32, color: u32| {
        gdi.fill_rect(hdc, Rect::new(x1, y1, x2, y2), Fill::Color(color));
    };
    let (l, t, rr, b) = (r.left, r.top, r.right, r.bottom);
    fill(l + 1, t, rr - 1, t + 1, frame);
    fill(l + 1, b - 1, rr - 1, b, frame);
    fill(l, t + 1, l + 1, b - 1, frame);
    fill(rr - 1, t + 1, rr, b - 1, frame);
    let mut inner = Rect::new(l + 1, t + 1, rr - 1, b - 1);
    if default {
        fill(inner.left, inner.top, inner.right, inner.top + 1, frame);
        fill(
            inner.left,
            inner.bottom - 1,
            inner.right,
            inner.bottom,
            frame,
        );
        fill(inner.left, inner.top, inner.left + 1, inner.bottom, frame);
        fill(inner.right - 1, inner.top, inner.right, inner.bottom, frame);
        inner = Rect::new(
            inner.left + 1,
            inner.top + 1,
            inner.right - 1,
            inner.bottom - 1,
        );
    }
    fill(inner.left, inner.top, inner.right, inner.bottom, face);
    super::frame::relief_fills(inner, 2, 2, &mut |f, dark| {
        fill(
            f.left,
            f.top,
            f.right,
            f.bottom,
            if dark { shadow } else { light },
        );
    });
    if let Some(d) = env.win16.gdi.dc_mut(hdc) {
        d.state.text_color = ink;
        d.state.bk_mode = 1;
    }
    draw_text_rs(
        env,
        hdc,
        label,
        inner,
        DT_CENTER | DT_VCENTER | DT_SINGLELINE,
    );
    if default {
        // The focus rectangle round the label (Wine's 3.1-era PB_Paint).
        let (_, t) = draw_text_rs(
            env,
            hdc,
            label,
            Rect::default(),
            DT_SINGLELINE | DT_CALCRECT,
        )
        .unwrap_or((0, Rect::default()));
        let (w, h) = (t.width().min(inner.width()), t.height().min(inner.height()));
        let x = inner.left + (inner.width() - w - 1) / 2;
        let y = inner.top + (inner.height() - h - 1) / 2;
        super::draw::draw_focus_rect(env, hdc, Rect::new(x, y, x + w + 2, y + h + 2));
    }
}

/// The functions this file implements.
pub static APIS: &[Api] = &[Api::new(
    "USER",
    1,
    "MESSAGEBOX",
    &[Arg::W, Arg::L, Arg::L, Arg::W],
    message_box,
)];

#[cfg(test)]
mod tests {
    use super::*;

    /// The first button of each MB_ type, and the closing answer (module
    /// doc; IDOK 1, IDCANCEL 2, IDABORT 3, IDRETRY 4, IDIGNORE 5, IDYES 6,
    /// IDNO 7: SDK, MessageBox).
    #[test]
    fn answers_by_box_type() {
        // MB_OK, MB_OKCANCEL, MB_ABORTRETRYIGNORE, MB_YESNOCANCEL,
        // MB_YESNO, MB_RETRYCANCEL; the icon bits do not matter.
        let first: Vec<u32> = (0..6).map(|t| first_button(t | 0x30)).collect();
        assert_eq!(first, [1, 1, 3, 6, 6, 4]);
        let closing: Vec<u32> = (0..6).map(|t| closing_answer(t | 0x20)).collect();
        assert_eq!(closing, [1, 1, 5, 7, 7, 2]);
        assert_eq!(answer_name(7), "IDNO");
        assert_eq!(answer_name(9), "?");
    }

    #[test]
    fn a_run_keeps_at_most_max_boxes() {
        let mut s = Shown::default();
        for i in 0..Shown::MAX + 3 {
            s.record(ShownBox {
                htask: 1,
                module: "APP".into(),
                caption: String::new(),
                text: i.to_string(),
                style: Some(0),
                answer: Some(1),
                by: ShownBy::Program,
            });
        }
        assert_eq!(s.boxes.len(), Shown::MAX);
        assert_eq!(s.dropped, 3);
        assert_eq!(s.boxes[0].text, "0");
    }
}
