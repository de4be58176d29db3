//! Choosing from a menu: Windows' menu loop, driven headless by the
//! `--messages` script, and the menu keys of DefWindowProc.
//!
//! # How a menu is entered
//!
//! As on Windows 3.1, through DefWindowProc:
//!
//! - a click on the menu bar is WM_NCLBUTTONDOWN with HTMENU (HTSYSMENU on
//!   the system menu box); DefWindowProc sends WM_SYSCOMMAND SC_MOUSEMENU
//!   (+ HTSYSMENU for the box) with the point, and DefWindowProc runs the
//!   menu loop for it. The script's `menu "&File" "E&xit"` and `sysmenu
//!   close` lines post that click at the item's centre and tell the loop
//!   which items the mouse then chooses;
//! - pressing and releasing Alt or F10 alone (WM_SYSKEYDOWN, then
//!   WM_SYSKEYUP or WM_KEYUP of the same key with no key between) makes
//!   DefWindowProc send WM_SYSCOMMAND SC_KEYMENU with lParam 0: the loop
//!   selects the first item of the bar without opening it. A character
//!   typed with Alt (WM_SYSCHAR) sends SC_KEYMENU with the character:
//!   Alt+Space opens the system menu, Alt+letter the bar item whose
//!   mnemonic (the letter after `&`) it is. Alt+F4 posts WM_SYSCOMMAND
//!   SC_CLOSE. A WM_SYSCHAR without Alt (or Alt+Tab, Alt+Esc) does not
//!   enter a menu; one without Alt beeps (MessageBeep(0)).
//!
//! # The loop
//!
//! It sends the window that owns the menu (the top-level window):
//!
//! 1. WM_INITMENU (wParam: the menu bar; the system menu for a window
//!    without a bar; the pop-up for TrackPopupMenu), once;
//! 2. WM_MENUSELECT each time the selection moves: wParam the item's id
//!    (the pop-up's handle for an item that opens one), lParam
//!    MAKELONG(the item's flags with MF_HILITE, and MF_MOUSESELECT when the
//!    mouse chose it, MF_SYSMENU for the system menu; the menu's handle);
//! 3. WM_INITMENUPOPUP before a pop-up opens (wParam its handle, lParam
//!    MAKELONG(the position of the item that opens it, fSystemMenu)),
//!    then WM_MEASUREITEM for its owner-drawn items not measured yet;
//! 4. WM_MENUCHAR when a typed character is no item's mnemonic (wParam
//!    the character, lParam MAKELONG(MF_POPUP for a pop-up | MF_SYSMENU,
//!    the menu)): the answer's high word 0 discards it with a beep, 1
//!    closes the menu, 2 chooses the item at the low word's position;
//! 5. when the menu closes, chosen or not, WM_MENUSELECT with wParam 0
//!    and lParam MAKELONG(0xFFFF, 0) (SDK, WM_MENUSELECT: "This occurs
//!    both when the menu is closed because the user pressed ESC or
//!    clicked outside the menu and when the user has selected a menu
//!    item");
//! 6. for a chosen item, WM_COMMAND (wParam the id, lParam 0) posted —
//!    or WM_SYSCOMMAND (the SC_ id, lParam the click's point) for the
//!    system menu.
//!
//! Grayed or disabled items can be selected but not chosen: choosing one
//! closes the menu without a command; a grayed pop-up does not open.
//! Keys in the loop: Left and Right move along the bar (through the
//! system menu box, wrapping; an open pop-up follows); Right also opens a
//! pop-up item's pop-up, Left closes a second-level pop-up; Up and Down
//! move in a pop-up (over separators, wrapping) and open the bar's
//! pop-up; Enter chooses or opens; Escape closes the innermost pop-up
//! (at the bar, the menu); Alt or F10 closes the menu; a character picks
//! the item of the innermost menu whose mnemonic it is. A pop-up opened
//! from the keyboard gets its first item selected.
//!
//! The loop takes its input as Windows' does, from the task's queue —
//! here the key messages waiting there (the rest of the key that entered
//! the menu), then the task's next script lines while they are `key` or
//! `char` lines. When the input runs out (another kind of line, or none)
//! the menu is cancelled, as if the user clicked elsewhere; the line is
//! left for the program. EndMenu (from a message the loop sent) closes
//! the menu; so does the window's destruction.
//!
//! # TrackPopupMenu
//!
//! TrackPopupMenu(hMenu, wFlags, x, y, nReserved, hWnd, lpRect) sends
//! hWnd WM_INITMENU and WM_INITMENUPOPUP (hMenu, MAKELONG(0, FALSE)), then
//! takes the task's next `popup` script line: its item path is chosen in
//! the pop-up as the mouse would choose it; without one (or with `popup
//! cancel`) the menu is cancelled. It returns TRUE when an item was
//! chosen, FALSE when the menu was cancelled or the arguments are bad,
//! and the WM_COMMAND is posted (the window gets it after TrackPopupMenu
//! returns). A menu loop running already (TrackPopupMenu called from a
//! message of a menu) makes TrackPopupMenu fail.
//!
//! Not sent: WM_ENTERIDLE (a headless loop never waits for the user).

use super::sysmenu::{self, SC_CLOSE, SC_KEYMENU, SC_MOUSEMENU};
use super::{MF_HILITE, MF_MOUSESELECT, MF_POPUP, MF_SEPARATOR, MF_SYSMENU, window_menu};
use super::{draw, layout};
use crate::machine::{Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};
use crate::win16::script::{Action, Line};
use crate::win16::user::{
    Msg, WM_CHAR, WM_COMMAND, WM_INITMENU, WM_KEYDOWN, WM_KEYUP, WM_SYSCOMMAND, event, post, send,
};

pub const WM_INITMENUPOPUP: u16 = 0x0117;
pub const WM_MENUSELECT: u16 = 0x011F;
pub const WM_MENUCHAR: u16 = 0x0120;
pub const WM_NCLBUTTONDOWN: u16 = 0x00A1;
pub const WM_SYSKEYDOWN: u16 = 0x0104;
pub const WM_SYSKEYUP: u16 = 0x0105;
pub const WM_SYSCHAR: u16 = 0x0106;
pub const HTSYSMENU: u16 = 3;
pub const HTMENU: u16 = 5;

pub const VK_TAB: u16 = 0x09;
pub const VK_RETURN: u16 = 0x0D;
pub const VK_MENU: u16 = 0x12;
pub const VK_ESCAPE: u16 = 0x1B;
pub const VK_SPACE: u16 = 0x20;
pub const VK_LEFT: u16 = 0x25;
pub const VK_UP: u16 = 0x26;
pub const VK_RIGHT: u16 = 0x27;
pub const VK_DOWN: u16 = 0x28;
pub const VK_F4: u16 = 0x73;
pub const VK_F10: u16 = 0x79;

/// lParam bit 29 of a key message: Alt was down.
const KF_ALTDOWN: u32 = 1 << 29;

/// DefWindowProc's menu-key state: Alt or F10 went down with no other key
/// since.
#[derive(Debug, Default, Clone, Copy)]
pub struct MenuKeys {
    pub pending: Option<u16>,
}

/// The menu loop running now.
#[derive(Debug, Clone)]
pub struct Active {
    pub hwnd: u16,
    /// EndMenu was called.
    pub ended: bool,
}

/// What a script's `menu` or `sysmenu` line asked the mouse to choose,
/// kept until DefWindowProc's SC_MOUSEMENU runs the loop.
#[derive(Debug, Clone)]
pub struct PendingClick {
    pub hwnd: u16,
    pub system: bool,
    pub path: Vec<String>,
    pub line: usize,
}

/// Which item of a level is selected: the system menu box (on the bar) or
/// an item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    Sys,
    Item(usize),
}

/// One open menu of the loop: the bar (menu 0 for a window with only a
/// system menu) or a pop-up.
#[derive(Debug, Clone, Copy)]
struct Level {
    menu: u16,
    sel: Option<Slot>,
    /// The bar level (where the system menu box is a slot).
    bar: bool,
}

/// A run of the menu loop.
struct Track {
    hwnd: u16,
    htask: u16,
    sys: u16,
    mouse: bool,
    open: Vec<Level>,
    /// The chosen item: (its menu, its id).
    chosen: Option<(u16, u16)>,
    /// lParam of a WM_SYSCOMMAND (the click's point).
    point: u32,
}

/// One input of the keyboard loop.
enum Input {
    Key(u16),
    Char(u8),
}

fn lparam(lo: u16, hi: u16) -> u32 {
    u32::from(hi) << 16 | u32::from(lo)
}

/// The top-level window `hwnd` is in (itself for a top-level window).
fn top_level(env: &Env, mut hwnd: u16) -> u16 {
    for _ in 0..64 {
        match env.win16.user.window(hwnd) {
            Some(w) if w.style & super::WS_CHILD != 0 && w.parent != 0 => hwnd = w.parent,
            _ => break,
        }
    }
    hwnd
}

fn beep(uc: &mut Uc<'_>, why: &str) {
    event(uc, format!("MessageBeep(0): {why}"));
}

impl Track {
    fn new(env: &mut Env, uc: &Uc<'_>, hwnd: u16, mouse: bool) -> Track {
        Track {
            hwnd,
            htask: env
                .win16
                .user
                .window(hwnd)
                .map_or(uc.get_data().current_task, |w| w.htask),
            sys: 0,
            mouse,
            open: Vec::new(),
            chosen: None,
            point: 0,
        }
    }

    /// May the loop go on: the window is there and EndMenu was not called.
    fn alive(&self, env: &Env) -> bool {
        env.win16.user.window(self.hwnd).is_some()
            && env
                .win16
                .user
                .menus
                .active
                .as_ref()
                .is_some_and(|a| !a.ended)
    }

    /// The slots of a level, in order.
    fn slots(&self, env: &Env, level: Level) -> Vec<Slot> {
        let mut v = Vec::new();
        if level.bar && self.sys != 0 {
            v.push(Slot::Sys);
        }
        if let Some(m) = env.win16.user.menus.get(level.menu) {
            v.extend((0..m.items.len()).map(Slot::Item));
        }
        v
    }

    /// Set or clear MF_HILITE on a slot's item.
    fn hilite(env: &mut Env, level: Level, slot: Slot, on: bool) {
        if let Slot::Item(i) = slot
            && let Some(it) = env
                .win16
                .user
                .menus
                .get_mut(level.menu)
                .and_then(|m| m.items.get_mut(i))
        {
            it.flags = if on {
                it.flags | MF_HILITE
            } else {
                it.flags & !MF_HILITE
            };
        }
    }

    /// Set or clear a slot's MF_HILITE and draw its item again: a menu-bar
    /// item in the window, an owner-drawn pop-up item by its owner
    /// (draw.rs).
    fn set_hilite(
        &self,
        env: &mut Env,
        uc: &mut Uc<'_>,
        level: Level,
        slot: Slot,
        on: bool,
    ) -> Result<(), Stop> {
        Self::hilite(env, level, slot, on);
        let Slot::Item(i) = slot else {
            return Ok(());
        };
        if level.bar {
            if level.menu == window_menu(env, self.hwnd) {
                draw::redraw_bar_item(env, uc, self.hwnd, i)?;
            }
        } else {
            draw::draw_popup_items(env, uc, self.hwnd, level.menu, Some(i))?;
        }
        Ok(())
    }

    /// Close the levels below `keep` (their selections lose MF_HILITE).
    fn close_below(&mut self, env: &mut Env, uc: &mut Uc<'_>, keep: usize) -> Result<(), Stop> {
        while self.open.len() > keep {
            let l = self.open.pop().expect("len > keep");
            if let Some(s) = l.sel {
                self.set_hilite(env, uc, l, s, false)?;
            }
        }
        // The level that stays keeps its selection, but what it opened
        // is closed.
        Ok(())
    }

    /// Select `slot` in level `li` (closing what was open below it) and
    /// send WM_MENUSELECT. False when the loop must stop.
    fn select(
        &mut self,
        env: &mut Env,
        uc: &mut Uc<'_>,
        li: usize,
        slot: Slot,
    ) -> Result<bool, Stop> {
        self.close_below(env, uc, li + 1)?;
        let level = self.open[li];
        if let Some(old) = level.sel {
            self.set_hilite(env, uc, level, old, false)?;
        }
        self.open[li].sel = Some(slot);
        self.set_hilite(env, uc, level, slot, true)?;
        if !self.alive(env) {
            return Ok(false);
        }
        let mouse = if self.mouse { MF_MOUSESELECT } else { 0 };
        let (wparam, flags, menu) = match slot {
            Slot::Sys => (
                self.sys,
                MF_POPUP | MF_SYSMENU | MF_HILITE | mouse,
                self.sys,
            ),
            Slot::Item(i) => {
                let m = &env.win16.user.menus;
                let Some(menu) = m.get(level.menu) else {
                    return Ok(false);
                };
                let Some(it) = menu.items.get(i) else {
                    return Ok(false);
                };
                let sys = if menu.system { MF_SYSMENU } else { 0 };
                let w = if it.flags & MF_POPUP != 0 {
                    it.popup
                } else {
                    it.id
                };
                (w, it.flags | sys | mouse, level.menu)
            }
        };
        send(
            env,
            uc,
            self.hwnd,
            WM_MENUSELECT,
            wparam,
            lparam(flags, menu),
        )?;
        Ok(self.alive(env))
    }

    /// The pop-up a slot opens, with its position and whether it is the
    /// system menu: None for a command item or a grayed pop-up.
    fn popup_of(&self, env: &Env, level: Level, slot: Slot) -> Option<(u16, u16, bool)> {
        match slot {
            Slot::Sys => Some((self.sys, 0, true)),
            Slot::Item(i) => {
                let menu = env.win16.user.menus.get(level.menu)?;
                let it = menu.items.get(i)?;
                (it.flags & MF_POPUP != 0 && it.enabled() && env.win16.user.menus.exists(it.popup))
                    .then_some((it.popup, i as u16, menu.system))
            }
        }
    }

    /// Open the pop-up of the innermost level's selection: WM_INITMENUPOPUP,
    /// measuring, layout. Some(false) when the loop must stop, None when
    /// the selection opens nothing.
    fn open_selected(&mut self, env: &mut Env, uc: &mut Uc<'_>) -> Result<Option<bool>, Stop> {
        let level = *self.open.last().expect("a level");
        let Some(slot) = level.sel else {
            return Ok(None);
        };
        let Some((popup, pos, system)) = self.popup_of(env, level, slot) else {
            return Ok(None);
        };
        if system {
            sysmenu::init_states(env, self.hwnd, popup);
        }
        send(
            env,
            uc,
            self.hwnd,
            WM_INITMENUPOPUP,
            popup,
            lparam(pos, u16::from(system)),
        )?;
        if !self.alive(env) {
            return Ok(Some(false));
        }
        layout::measure_owner_drawn(env, uc, self.hwnd, popup)?;
        if !self.alive(env) {
            return Ok(Some(false));
        }
        let font = layout::measure_for(env, popup);
        if let Some(m) = env.win16.user.menus.get_mut(popup) {
            let size = layout::lay_out_popup(&mut m.items, &font);
            m.size = Some(size);
        }
        self.open.push(Level {
            menu: popup,
            sel: None,
            bar: false,
        });
        draw::draw_popup_items(env, uc, self.hwnd, popup, None)?;
        Ok(Some(self.alive(env)))
    }

    /// Select the first item of the innermost level that is not a
    /// separator (a pop-up opened from the keyboard).
    fn select_first(&mut self, env: &mut Env, uc: &mut Uc<'_>) -> Result<bool, Stop> {
        let li = self.open.len() - 1;
        match self.step(env, li, None, true) {
            Some(s) => self.select(env, uc, li, s),
            None => Ok(true),
        }
    }

    /// The next (or previous) slot after `from` in level `li`, over
    /// separators, wrapping.
    fn step(&self, env: &Env, li: usize, from: Option<Slot>, forward: bool) -> Option<Slot> {
        let level = self.open[li];
        let slots = self.slots(env, level);
        let n = slots.len();
        if n == 0 {
            return None;
        }
        let start = from.and_then(|f| slots.iter().position(|&s| s == f));
        for k in 1..=n {
            let idx = match (start, forward) {
                (Some(s), true) => (s + k) % n,
                (Some(s), false) => (s + n - k) % n,
                (None, true) => k - 1,
                (None, false) => n - k,
            };
            let s = slots[idx];
            let sep = match s {
                Slot::Item(i) => env
                    .win16
                    .user
                    .menus
                    .item(level.menu, i)
                    .is_none_or(|it| it.flags & MF_SEPARATOR != 0),
                Slot::Sys => false,
            };
            if !sep {
                return Some(s);
            }
        }
        None
    }

    /// Choose a slot's item (a command): the loop ends; a grayed or
    /// disabled item ends it without a command.
    fn choose(&mut self, env: &Env, level: Level, slot: Slot) {
        if let Slot::Item(i) = slot
            && let Some(it) = env.win16.user.menus.item(level.menu, i)
            && it.enabled()
            && it.flags & MF_POPUP == 0
        {
            self.chosen = Some((level.menu, it.id));
        }
    }

    /// Act on the innermost selection as Enter (or a click) does: open its
    /// pop-up and select the pop-up's first item when `first`, or choose
    /// it. Returns whether the loop goes on.
    fn activate(&mut self, env: &mut Env, uc: &mut Uc<'_>, first: bool) -> Result<bool, Stop> {
        let level = *self.open.last().expect("a level");
        let Some(slot) = level.sel else {
            return Ok(true);
        };
        let opens = match slot {
            Slot::Sys => true,
            Slot::Item(i) => env
                .win16
                .user
                .menus
                .item(level.menu, i)
                .is_some_and(|it| it.flags & MF_POPUP != 0),
        };
        if !opens {
            self.choose(env, level, slot);
            return Ok(false);
        }
        match self.open_selected(env, uc)? {
            Some(true) if first => self.select_first(env, uc),
            Some(go) => Ok(go),
            // A grayed pop-up: nothing opens, the menu stays.
            None => Ok(true),
        }
    }

    /// Close the menu: selections lose MF_HILITE, the closing
    /// WM_MENUSELECT, then the chosen item's command is posted.
    fn finish(&mut self, env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
        // The pop-ups under the top menu close with their items deselected
        // (drawn again); a top menu that is a pop-up (TrackPopupMenu) goes
        // with its window first, so its item is not drawn again.
        self.close_below(env, uc, 1)?;
        if let Some(top) = self.open.pop()
            && let Some(s) = top.sel
        {
            if top.bar {
                self.set_hilite(env, uc, top, s, false)?;
            } else {
                Self::hilite(env, top, s, false);
            }
        }
        if env.win16.user.window(self.hwnd).is_some() {
            send(env, uc, self.hwnd, WM_MENUSELECT, 0, lparam(0xFFFF, 0))?;
        }
        if let Some((menu, id)) = self.chosen {
            let system = env.win16.user.menus.get(menu).is_some_and(|m| m.system);
            let m = if system {
                Msg::new(self.hwnd, WM_SYSCOMMAND, id, self.point)
            } else {
                Msg::new(self.hwnd, WM_COMMAND, id, 0)
            };
            event(
                uc,
                format!(
                    "menu: item {id:04X} chosen, {} posted",
                    crate::win16::user::message_name(m.message)
                ),
            );
            crate::win16::user::message::post_to(env, uc, self.htask, m, false);
        } else {
            event(uc, "menu: closed without a choice".into());
        }
        Ok(())
    }

    /// Choose the items named by `path` from the innermost level down, as
    /// the mouse does. Returns whether the path was followed to a command.
    fn follow(&mut self, env: &mut Env, uc: &mut Uc<'_>, path: &[String]) -> Result<(), Stop> {
        for (k, name) in path.iter().enumerate() {
            let li = self.open.len() - 1;
            let level = self.open[li];
            let Some(slot) = find_slot(env, level, name) else {
                event(uc, format!("menu: no item {name:?} here"));
                return Ok(());
            };
            if !self.select(env, uc, li, slot)? {
                return Ok(());
            }
            let last = k + 1 == path.len();
            match self.popup_of(env, level, slot) {
                Some(_) => {
                    if self.open_selected(env, uc)? != Some(true) {
                        return Ok(());
                    }
                }
                None => {
                    let is_popup = matches!(slot, Slot::Item(i) if env
                        .win16
                        .user
                        .menus
                        .item(level.menu, i)
                        .is_some_and(|it| it.flags & MF_POPUP != 0));
                    if is_popup {
                        event(uc, format!("menu: {name:?} is grayed and does not open"));
                        return Ok(());
                    }
                    if !last {
                        event(uc, format!("menu: {name:?} opens no pop-up"));
                        return Ok(());
                    }
                    self.choose(env, level, slot);
                    if self.chosen.is_none() {
                        event(uc, format!("menu: {name:?} is grayed or disabled"));
                    }
                }
            }
        }
        Ok(())
    }

    /// The keyboard loop (module doc), from the current state.
    fn keys(&mut self, env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
        while self.alive(env) && self.chosen.is_none() {
            let Some(input) = next_input(env, uc, self.htask) else {
                event(uc, "menu: no more key input; the menu is cancelled".into());
                return Ok(());
            };
            let go = match input {
                Input::Key(VK_ESCAPE) => {
                    if self.open.len() > 1 {
                        // The level now innermost keeps its selection.
                        self.close_below(env, uc, self.open.len() - 1)?;
                        true
                    } else {
                        false
                    }
                }
                Input::Key(VK_MENU | VK_F10) => false,
                Input::Key(VK_LEFT) if self.open.len() > 2 => {
                    let keep = self.open.len() - 1;
                    self.close_below(env, uc, keep)?;
                    true
                }
                Input::Key(VK_RIGHT)
                    if self.open.len() > 1
                        && self.open.last().and_then(|l| l.sel).is_some_and(|s| {
                            self.popup_of(env, *self.open.last().expect("a level"), s)
                                .is_some()
                        }) =>
                {
                    self.activate(env, uc, true)?
                }
                Input::Key(k @ (VK_LEFT | VK_RIGHT)) => {
                    let was_open = self.open.len() > 1;
                    let from = self.open[0].sel;
                    match self.step(env, 0, from, k == VK_RIGHT) {
                        Some(s) => {
                            self.select(env, uc, 0, s)?
                                && (!was_open || self.activate(env, uc, true)?)
                        }
                        None => true,
                    }
                }
                Input::Key(k @ (VK_UP | VK_DOWN)) => {
                    if self.open.len() == 1 {
                        self.activate(env, uc, true)?
                    } else {
                        let li = self.open.len() - 1;
                        let from = self.open[li].sel;
                        match self.step(env, li, from, k == VK_DOWN) {
                            Some(s) => self.select(env, uc, li, s)?,
                            None => true,
                        }
                    }
                }
                Input::Key(VK_RETURN) => self.activate(env, uc, true)?,
                Input::Key(_) => true,
                Input::Char(c) => self.mnemonic(env, uc, c)?,
            };
            if !go {
                return Ok(());
            }
        }
        Ok(())
    }

    /// A typed character in the innermost menu (module doc).
    fn mnemonic(&mut self, env: &mut Env, uc: &mut Uc<'_>, c: u8) -> Result<bool, Stop> {
        let li = self.open.len() - 1;
        let level = self.open[li];
        let up = crate::win16::strings::upper(c);
        let found = env.win16.user.menus.get(level.menu).and_then(|m| {
            m.items
                .iter()
                .position(|it| it.mnemonic() == Some(up))
                .map(Slot::Item)
        });
        let slot = match found {
            Some(s) => s,
            None => {
                let (popup, system) = env
                    .win16
                    .user
                    .menus
                    .get(level.menu)
                    .map_or((false, false), |m| (!level.bar, m.system));
                let flags = if popup { MF_POPUP } else { 0 } | if system { MF_SYSMENU } else { 0 };
                let r = send(
                    env,
                    uc,
                    self.hwnd,
                    WM_MENUCHAR,
                    u16::from(c),
                    lparam(flags, level.menu),
                )?;
                if !self.alive(env) {
                    return Ok(false);
                }
                match r >> 16 {
                    0 => {
                        beep(uc, "no menu item has this mnemonic");
                        return Ok(true);
                    }
                    1 => return Ok(false),
                    _ => {
                        let i = usize::from(r as u16);
                        if env.win16.user.menus.item(level.menu, i).is_none() {
                            return Ok(true);
                        }
                        Slot::Item(i)
                    }
                }
            }
        };
        if !self.select(env, uc, li, slot)? {
            return Ok(false);
        }
        self.activate(env, uc, true)
    }
}

/// Does menu item text `t` answer to a script's name `name`? `#N` is the
/// item at position N; otherwise the text before any `\t` is compared
/// without regard to case — with its `&` prefixes when `name` has an
/// `&`, without them when it has none.
fn name_matches(t: &[u8], name: &str) -> bool {
    let before_tab = t.split(|&c| c == b'\t').next().unwrap_or(&[]);
    let (a, b) = if name.contains('&') {
        (before_tab.to_vec(), name.as_bytes().to_vec())
    } else {
        (layout::shown_text(before_tab), name.as_bytes().to_vec())
    };
    crate::win16::strings::eq_nocase(&a, &b)
}

/// The slot of level `level` that `name` names (see [`name_matches`]).
fn find_slot(env: &Env, level: Level, name: &str) -> Option<Slot> {
    let m = env.win16.user.menus.get(level.menu)?;
    if let Some(n) = name.strip_prefix('#').and_then(|n| n.parse::<usize>().ok()) {
        return (n < m.items.len()).then_some(Slot::Item(n));
    }
    m.items
        .iter()
        .position(|it| it.text().is_some_and(|t| name_matches(t, name)))
        .map(Slot::Item)
}

/// The keyboard loop's next input (module doc): a key message waiting in
/// the task's queue (posted, as TranslateMessage's characters are, or
/// input), else its next script line if that is a `key` or `char` line.
fn next_input(env: &mut Env, uc: &mut Uc<'_>, htask: u16) -> Option<Input> {
    let is_key = |m: &Msg| {
        matches!(
            m.message,
            WM_KEYDOWN | WM_SYSKEYDOWN | WM_CHAR | WM_SYSCHAR | WM_KEYUP | WM_SYSKEYUP
        )
    };
    loop {
        let q = env.win16.user.queue(htask);
        let m = match (q.msgs.front().copied(), q.input.front().copied()) {
            (Some(m), _) if is_key(&m) => {
                q.msgs.pop_front();
                m
            }
            (None, Some(m)) if is_key(&m) => {
                q.input.pop_front();
                m
            }
            _ => break,
        };
        let input = match m.message {
            WM_KEYDOWN | WM_SYSKEYDOWN => Some(match key_char(m.wparam) {
                Some(c) => Input::Char(c),
                None => Input::Key(m.wparam),
            }),
            WM_CHAR | WM_SYSCHAR => Some(Input::Char(m.wparam as u8)),
            _ => None,
        };
        // Taken from the queue as GetMessage takes it: the keyboard state
        // follows.
        crate::win16::user::message::note_key_state(env, &m);
        if input.is_some() {
            return input;
        }
    }
    let q = env.win16.user.queue(htask);
    let line = q.script.front()?;
    let input = match line.action {
        Action::Key(k) => match k.ch.filter(|c| c.is_ascii_alphanumeric()) {
            Some(c) => Input::Char(c),
            None => Input::Key(k.vk),
        },
        Action::Char(c) => Input::Char(c),
        _ => return None,
    };
    let l = q.script.pop_front()?;
    event(
        uc,
        format!("script line {}: {} (in the menu)", l.number, l.action),
    );
    Some(input)
}

/// The character a letter or digit key types (the menu takes those as
/// mnemonics).
fn key_char(vk: u16) -> Option<u8> {
    match vk {
        0x30..=0x39 | 0x41..=0x5A => Some(vk as u8),
        _ => None,
    }
}

/// Start a menu loop on window `hwnd`: None when one runs already or
/// the window has neither a menu bar nor a system menu.
fn start(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, mouse: bool) -> Option<(Track, u16)> {
    if env.win16.user.menus.active.is_some() {
        return None;
    }
    let bar = window_menu(env, hwnd);
    let bar = if env.win16.user.menus.exists(bar) {
        bar
    } else {
        0
    };
    let mut t = Track::new(env, uc, hwnd, mouse);
    t.sys = sysmenu::of_window(env, uc, hwnd);
    if bar == 0 && t.sys == 0 {
        return None;
    }
    env.win16.user.menus.active = Some(Active { hwnd, ended: false });
    t.open.push(Level {
        menu: bar,
        sel: None,
        bar: true,
    });
    let init = if bar != 0 { bar } else { t.sys };
    Some((t, init))
}

fn stop_active(env: &mut Env) {
    env.win16.user.menus.active = None;
}

/// DefWindowProc's SC_MOUSEMENU: the menu loop for a click on the bar
/// (`system`: on the system menu box) at screen point `point`, choosing
/// what the script's pending `menu`/`sysmenu` line says.
pub fn track_mouse(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    system: bool,
    point: u32,
) -> Result<(), Stop> {
    let hwnd = top_level(env, hwnd);
    let pending = match env.win16.user.menus.pending.take() {
        Some(p) if p.hwnd == hwnd && p.system == system => Some(p),
        _ => None,
    };
    let Some((mut t, init)) = start(env, uc, hwnd, true) else {
        return Ok(());
    };
    t.point = point;
    let r = (|| -> Result<(), Stop> {
        send(env, uc, hwnd, WM_INITMENU, init, 0)?;
        if !t.alive(env) {
            return Ok(());
        }
        if system {
            if t.sys == 0 || !t.select(env, uc, 0, Slot::Sys)? {
                return Ok(());
            }
            if t.open_selected(env, uc)? != Some(true) {
                return Ok(());
            }
        }
        match pending {
            Some(p) => {
                event(
                    uc,
                    format!(
                        "menu: script line {} chooses {}",
                        p.line,
                        p.path.join(" > ")
                    ),
                );
                t.follow(env, uc, &p.path)
            }
            None => {
                // A click the script did not make: the item under it opens,
                // then the input runs out.
                let x = point as u16 as i16;
                if let Some(slot) = hit_bar(env, hwnd, t.open[0].menu, i32::from(x))
                    && t.select(env, uc, 0, slot)?
                {
                    t.open_selected(env, uc)?;
                }
                Ok(())
            }
        }
    })();
    let done = r.and_then(|_| t.finish(env, uc));
    stop_active(env);
    done
}

/// The bar item under screen x coordinate `x` (the bar's items keep their
/// rectangles relative to the bar).
fn hit_bar(env: &Env, hwnd: u16, bar: u16, x: i32) -> Option<Slot> {
    let (left, _) = bar_origin(env, hwnd);
    let m = env.win16.user.menus.get(bar)?;
    m.items
        .iter()
        .position(|it| it.rect.left <= x - left && x - left < it.rect.right)
        .map(Slot::Item)
}

/// DefWindowProc's SC_KEYMENU: the keyboard loop (module doc); `ch` is 0
/// for Alt or F10 alone, else the character typed with Alt.
pub fn track_keys(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, ch: u16) -> Result<(), Stop> {
    let hwnd = top_level(env, hwnd);
    let Some((mut t, init)) = start(env, uc, hwnd, false) else {
        beep(uc, "no menu to enter");
        return Ok(());
    };
    let r = (|| -> Result<(), Stop> {
        send(env, uc, hwnd, WM_INITMENU, init, 0)?;
        if !t.alive(env) {
            return Ok(());
        }
        let c = ch as u8;
        let go = if ch == 0 {
            match t.step(env, 0, None, true) {
                Some(Slot::Sys) if t.open[0].menu != 0 => {
                    // Alt selects the first item of the bar, not the box.
                    let s = t.step(env, 0, Some(Slot::Sys), true).unwrap_or(Slot::Sys);
                    t.select(env, uc, 0, s)?
                }
                Some(s) => t.select(env, uc, 0, s)?,
                None => false,
            }
        } else if c == b' ' {
            t.sys != 0 && t.select(env, uc, 0, Slot::Sys)? && t.activate(env, uc, true)?
        } else {
            let level = t.open[0];
            let up = crate::win16::strings::upper(c);
            match env
                .win16
                .user
                .menus
                .get(level.menu)
                .and_then(|m| m.items.iter().position(|it| it.mnemonic() == Some(up)))
            {
                Some(i) => t.select(env, uc, 0, Slot::Item(i))? && t.activate(env, uc, true)?,
                None => {
                    // WM_MENUCHAR decides; a beep ends the menu here.
                    // A window without a bar: the system menu is asked.
                    let (flags, menu) = if level.menu != 0 {
                        (0, level.menu)
                    } else {
                        (MF_SYSMENU, t.sys)
                    };
                    let r = send(env, uc, hwnd, WM_MENUCHAR, ch, lparam(flags, menu))?;
                    match (r >> 16, t.alive(env)) {
                        (_, false) | (1, _) => false,
                        (2, _)
                            if env
                                .win16
                                .user
                                .menus
                                .item(level.menu, usize::from(r as u16))
                                .is_some() =>
                        {
                            t.select(env, uc, 0, Slot::Item(usize::from(r as u16)))?
                                && t.activate(env, uc, true)?
                        }
                        _ => {
                            beep(uc, "no menu item has this mnemonic");
                            false
                        }
                    }
                }
            }
        };
        if go { t.keys(env, uc) } else { Ok(()) }
    })();
    let done = r.and_then(|_| t.finish(env, uc));
    stop_active(env);
    done
}

/// Where window `hwnd`'s menu bar starts, in screen coordinates: inside
/// its frame and below its caption (the window manager's non-client
/// layout, winpos.rs).
pub fn bar_origin(env: &Env, hwnd: u16) -> (i32, i32) {
    let u = &env.win16.user;
    let (Some(parts), Some(wr)) = (
        crate::win16::user::winpos::nc_parts(env, hwnd),
        u.window_rect_screen(hwnd),
    ) else {
        return (0, 0);
    };
    let at = parts.menu.unwrap_or(crate::win16::geom::Rect::new(
        parts.inside.left,
        parts.client.top,
        parts.inside.right,
        parts.client.top,
    ));
    (wr.left + at.left, wr.top + at.top)
}

/// The centre of window `hwnd`'s system-menu box, in screen coordinates.
fn sysmenu_point(env: &Env, hwnd: u16) -> (i32, i32) {
    use crate::win16::user::metrics::{SM_CXSIZE, SM_CYSIZE, fixed};
    let u = &env.win16.user;
    match (
        crate::win16::user::winpos::nc_parts(env, hwnd).and_then(|p| p.caption),
        u.window_rect_screen(hwnd),
    ) {
        (Some(c), Some(wr)) => (
            wr.left + c.left + fixed(SM_CXSIZE) / 2,
            wr.top + c.top + fixed(SM_CYSIZE) / 2,
        ),
        _ => (0, 0),
    }
}

/// A script `menu` or `sysmenu` line for main window `hwnd`: the click
/// message to post (WM_NCLBUTTONDOWN with HTMENU at the first item's
/// centre, or HTSYSMENU at the system menu box), with the path kept for
/// the loop. None (and an event saying why) when there is nothing to
/// click.
pub fn script_click(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, line: &Line) -> Option<Msg> {
    let system = matches!(line.action, Action::SysMenu);
    let (x0, y0) = bar_origin(env, hwnd);
    let (wparam, x, y) = if system {
        if sysmenu::of_window(env, uc, hwnd) == 0 {
            event(
                uc,
                format!("script line {}: the window has no system menu", line.number),
            );
            return None;
        }
        let (x, y) = sysmenu_point(env, hwnd);
        (HTSYSMENU, x, y)
    } else {
        let bar = window_menu(env, hwnd);
        if !env.win16.user.menus.exists(bar) {
            event(
                uc,
                format!("script line {}: the window has no menu bar", line.number),
            );
            return None;
        }
        let width = crate::win16::user::winpos::nc_parts(env, hwnd).map_or(0, |p| p.inside.width());
        layout::lay_out_window_bar(env, bar, width);
        let level = Level {
            menu: bar,
            sel: None,
            bar: true,
        };
        let first = line.args.first().map(String::as_str).unwrap_or("");
        let r = find_slot(env, level, first)
            .and_then(|s| match s {
                Slot::Item(i) => env.win16.user.menus.item(bar, i),
                Slot::Sys => None,
            })
            .map(|it| it.rect)
            .unwrap_or_default();
        (
            HTMENU,
            x0 + (r.left + r.right) / 2,
            y0 + (r.top + r.bottom) / 2,
        )
    };
    env.win16.user.menus.pending = Some(PendingClick {
        hwnd,
        system,
        path: line.args.clone(),
        line: line.number,
    });
    Some(Msg::new(
        hwnd,
        WM_NCLBUTTONDOWN,
        wparam,
        lparam(x as u16, y as u16),
    ))
}

/// DefWindowProc's menu work (module doc, "How a menu is entered"): the
/// answer when it handles `msg`, None for the rest of DefWindowProc.
pub fn def_window_proc(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    msg: u16,
    wparam: u16,
    lparam: u32,
) -> Result<Option<u32>, Stop> {
    let keys = &mut env.win16.user.menus.keys;
    match msg {
        WM_NCLBUTTONDOWN if wparam == HTMENU || wparam == HTSYSMENU => {
            let sc = if wparam == HTSYSMENU {
                SC_MOUSEMENU + HTSYSMENU
            } else {
                SC_MOUSEMENU
            };
            send(env, uc, hwnd, WM_SYSCOMMAND, sc, lparam)?;
        }
        WM_SYSCOMMAND if wparam & 0xFFF0 == SC_MOUSEMENU => {
            track_mouse(env, uc, hwnd, wparam & 0x000F == HTSYSMENU, lparam)?;
        }
        WM_SYSCOMMAND if wparam & 0xFFF0 == SC_KEYMENU => {
            track_keys(env, uc, hwnd, lparam as u16)?;
        }
        WM_SYSKEYDOWN => {
            if lparam & KF_ALTDOWN != 0 {
                keys.pending = (wparam == VK_MENU && keys.pending.is_none()).then_some(VK_MENU);
                if wparam == VK_F4 {
                    let top = top_level(env, hwnd);
                    post(env, uc, Msg::new(top, WM_SYSCOMMAND, SC_CLOSE, 0));
                }
            } else {
                keys.pending = (wparam == VK_F10).then_some(VK_F10);
            }
        }
        WM_KEYUP | WM_SYSKEYUP => {
            // Alt released alone is WM_SYSKEYUP; released after another
            // key it is WM_KEYUP, which enters no menu.
            let hit = keys.pending == Some(wparam)
                && (wparam == VK_F10 || (wparam == VK_MENU && msg == WM_SYSKEYUP));
            keys.pending = None;
            if hit {
                let top = top_level(env, hwnd);
                send(env, uc, top, WM_SYSCOMMAND, SC_KEYMENU, 0)?;
            }
        }
        WM_SYSCHAR => {
            keys.pending = None;
            if lparam & KF_ALTDOWN != 0 && wparam != 0 {
                if wparam == VK_TAB || wparam == VK_ESCAPE {
                    return Ok(Some(0));
                }
                let child = env
                    .win16
                    .user
                    .window(hwnd)
                    .filter(|w| w.style & super::WS_CHILD != 0)
                    .map(|w| w.parent);
                match child {
                    Some(parent) if wparam == VK_SPACE && parent != 0 => {
                        send(env, uc, parent, msg, wparam, lparam)?;
                    }
                    _ => {
                        send(env, uc, hwnd, WM_SYSCOMMAND, SC_KEYMENU, u32::from(wparam))?;
                    }
                }
            } else if wparam != VK_ESCAPE {
                beep(uc, "WM_SYSCHAR without Alt");
            }
        }
        _ => return Ok(None),
    }
    Ok(Some(0))
}

/// The first `popup` answer of task `htask`'s script (module doc).
fn take_popup_answer(env: &mut Env, htask: u16) -> Option<Line> {
    crate::win16::user::message::claim_script(env, htask);
    let q = env.win16.user.queue(htask);
    let i = q
        .answers
        .iter()
        .position(|l| matches!(l.action, Action::Popup))?;
    q.answers.remove(i)
}

/// USER.416 TrackPopupMenu(hMenu, wFlags, x, y, nReserved, hWnd, lpRect)
/// -> BOOL (module doc).
fn track_popup_menu(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (h, hwnd) = (a[0] as u16, a[5] as u16);
    if !env.win16.user.menus.exists(h)
        || env.win16.user.window(hwnd).is_none()
        || env.win16.user.menus.active.is_some()
    {
        return Ok(0);
    }
    let htask = uc.get_data().current_task;
    let answer = take_popup_answer(env, htask);
    let mut t = Track::new(env, uc, hwnd, true);
    env.win16.user.menus.active = Some(Active { hwnd, ended: false });
    let r = (|| -> Result<(), Stop> {
        send(env, uc, hwnd, WM_INITMENU, h, 0)?;
        if !t.alive(env) {
            return Ok(());
        }
        send(env, uc, hwnd, WM_INITMENUPOPUP, h, 0)?;
        if !t.alive(env) {
            return Ok(());
        }
        layout::measure_owner_drawn(env, uc, hwnd, h)?;
        let font = layout::measure_for(env, h);
        if let Some(m) = env.win16.user.menus.get_mut(h) {
            let size = layout::lay_out_popup(&mut m.items, &font);
            m.size = Some(size);
        }
        t.open.push(Level {
            menu: h,
            sel: None,
            bar: false,
        });
        draw::draw_popup_items(env, uc, hwnd, h, None)?;
        match answer {
            Some(l) if !l.args.is_empty() => {
                event(
                    uc,
                    format!(
                        "TrackPopupMenu: script line {} chooses {}",
                        l.number,
                        l.args.join(" > ")
                    ),
                );
                t.follow(env, uc, &l.args)
            }
            Some(l) => {
                event(
                    uc,
                    format!("TrackPopupMenu: cancelled by script line {}", l.number),
                );
                Ok(())
            }
            None => {
                event(
                    uc,
                    "TrackPopupMenu: no popup line in the script; cancelled".into(),
                );
                Ok(())
            }
        }
    })();
    let chosen = t.chosen.is_some();
    let done = r.and_then(|_| t.finish(env, uc));
    stop_active(env);
    done?;
    Ok(u32::from(chosen))
}

/// USER.187 EndMenu(): ends the menu loop running now, if any.
fn end_menu(env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    if let Some(a) = env.win16.user.menus.active.as_mut() {
        a.ended = true;
    }
    Ok(0)
}

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new("USER", 187, "ENDMENU", &[], end_menu),
    Api::new(
        "USER",
        416,
        "TRACKPOPUPMENU",
        &[Arg::W, Arg::W, Arg::W, Arg::W, Arg::W, Arg::W, Arg::L],
        track_popup_menu,
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_with_or_without_prefixes() {
        assert!(name_matches(b"E&xit\tAlt+F4", "exit"));
        assert!(name_matches(b"E&xit\tAlt+F4", "E&xit"));
        assert!(!name_matches(b"E&xit", "&Exit"));
        assert!(name_matches(b"&Close\tAlt+F4", "close"));
        assert!(name_matches(b"S&witch To...\tCtrl+Esc", "switch to..."));
        assert!(!name_matches(b"&File", "fil"));
        assert!(!name_matches(b"A&&B", "A&B"));
        assert!(name_matches(b"A&&B", "A&&B"));
    }
}
