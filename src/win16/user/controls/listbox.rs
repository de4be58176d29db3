//! The LISTBOX class (USER.307 LBoxCtlWndProc) and COMBOLBOX, the list of
//! a combo box (the same procedure, its owner being the combo box).
//!
//! Windows 3.1 behaviour (SDK: "List Box Styles", the LB_ messages, LBN_
//! notifications, WM_MEASUREITEM, WM_DRAWITEM, WM_DELETEITEM,
//! WM_COMPAREITEM, WM_VKEYTOITEM, WM_CHARTOITEM):
//!
//! - **Items** are strings, or for an owner-draw list box without
//!   LBS_HASSTRINGS, 32-bit values the owner draws (LB_ADDSTRING's lParam
//!   itself); each also has a 32-bit item data (LB_SETITEMDATA).
//!   LB_ADDSTRING appends, or with LBS_SORT inserts in order: strings by
//!   lstrcmpi (case-insensitive, the ANSI character set's order), owner-draw
//!   items without strings by asking the owner with WM_COMPAREITEM
//!   (COMPAREITEMSTRUCT; the new item is item 1, with itemID1 = -1). The
//!   place is found by binary search; an item equal to one already there
//!   goes before the one the search meets. LB_INSERTSTRING never sorts
//!   (index -1: at the end). Both answer the new item's index, LB_ERR for
//!   a bad index, LB_ERRSPACE when the list is full ([`MAX_ITEMS`]).
//! - **Selection.** A single-selection list box has one selected item or
//!   none (LB_SETCURSEL, LB_GETCURSEL; LB_SETCURSEL(-1) clears it and
//!   answers LB_ERR). LBS_MULTIPLESEL and LBS_EXTENDEDSEL boxes have a
//!   selected flag per item (LB_SETSEL, LB_GETSEL, LB_GETSELCOUNT,
//!   LB_GETSELITEMS, LB_SELITEMRANGE), and LB_SETCURSEL / LB_SELECTSTRING
//!   answer LB_ERR there, as the single-selection messages do in a
//!   multiple-selection box (LB_GETSELCOUNT in a single-selection box).
//!   An LBS_EXTENDEDSEL box selects the clicked item alone, with Shift the
//!   items from the anchor (the last item clicked alone) to it, with Ctrl
//!   toggles it.
//!   Every box has a caret item (the focus rectangle: LB_GETCARETINDEX,
//!   LB_SETCARETINDEX); LB_GETCURSEL of a multiple-selection box answers
//!   it. Messages never notify; the user does: clicking an item selects it
//!   (toggles it with LBS_MULTIPLESEL) and, with LBS_NOTIFY, sends
//!   LBN_SELCHANGE, a double click LBN_DBLCLK; the arrow keys, Page Up/Down,
//!   Home and End move the selection (the caret in a LBS_MULTIPLESEL box,
//!   where the space bar toggles), a character goes to the next item
//!   starting with it. LBN_SETFOCUS and LBN_KILLFOCUS go to the owner
//!   whatever the style. With LBS_WANTKEYBOARDINPUT the owner first gets
//!   WM_VKEYTOITEM for keys (and WM_CHARTOITEM for characters, in an
//!   owner-draw box without strings): -1 lets the box act, -2 means done,
//!   an index moves there.
//! - **Searching.** LB_FINDSTRING finds the first item after wParam
//!   (-1: from the start), going round, whose text starts with the string
//!   without regard to case; LB_FINDSTRINGEXACT one whose whole text is
//!   equal; LB_SELECTSTRING selects what LB_FINDSTRING finds. Owner-draw
//!   items without strings are compared by value.
//! - **Owner draw.** LBS_OWNERDRAWFIXED boxes send the owner one
//!   WM_MEASUREITEM when created, LBS_OWNERDRAWVARIABLE ones one per item
//!   as it is added (itemHeight preset to the font's height); the items are
//!   painted by WM_DRAWITEM (ODT_LISTBOX) and deleted with WM_DELETEITEM
//!   (LB_DELETESTRING, LB_RESETCONTENT and the box's destruction), which
//!   Windows 3.1 sent for owner-draw boxes only.
//! - **Geometry.** An item is as high as the font's cell (the System
//!   font's 16 pixels on a VGA) unless owner-draw; LB_GETITEMRECT gives
//!   the item's rectangle in the client area from the top index;
//!   LB_SETTOPINDEX scrolls.
//! - **Scroll bar.** A box made with WS_VSCROLL shows its vertical scroll
//!   bar only while its items do not fit (range 0 to the last top index);
//!   with LBS_DISABLENOSCROLL the bar stays, disabled (`sync_scroll_bar`).

use super::button::{
    DLGC_WANTARROWS, DLGC_WANTCHARS, DrawItem, ODA_DRAWENTIRE, ODS_FOCUS, ODS_SELECTED,
    ODT_COMBOBOX, ODT_LISTBOX,
};
use super::wm::{
    self, WM_CHARTOITEM, WM_COMPAREITEM, WM_DELETEITEM, WM_DRAWITEM, WM_GETDLGCODE, WM_GETFONT,
    WM_KILLFOCUS, WM_LBUTTONDBLCLK, WM_MEASUREITEM, WM_SETFONT, WM_VKEYTOITEM,
};
use super::{Control, notify};
use crate::machine::{Stop, Uc};
use crate::win16::Env;
use crate::win16::farptr;
use crate::win16::strings::compare_nocase;
use crate::win16::user::{
    WM_CHAR, WM_CREATE, WM_DESTROY, WM_KEYDOWN, WM_LBUTTONDOWN, WM_LBUTTONUP, WM_NCDESTROY,
    WM_PAINT, WM_SETFOCUS,
};

pub const LBS_NOTIFY: u32 = 0x0001;
pub const LBS_SORT: u32 = 0x0002;
pub const LBS_NOREDRAW: u32 = 0x0004;
pub const LBS_MULTIPLESEL: u32 = 0x0008;
pub const LBS_OWNERDRAWFIXED: u32 = 0x0010;
pub const LBS_OWNERDRAWVARIABLE: u32 = 0x0020;
pub const LBS_HASSTRINGS: u32 = 0x0040;
pub const LBS_USETABSTOPS: u32 = 0x0080;
pub const LBS_NOINTEGRALHEIGHT: u32 = 0x0100;
pub const LBS_MULTICOLUMN: u32 = 0x0200;
pub const LBS_WANTKEYBOARDINPUT: u32 = 0x0400;
pub const LBS_EXTENDEDSEL: u32 = 0x0800;
pub const LBS_DISABLENOSCROLL: u32 = 0x1000;

pub const LB_ADDSTRING: u16 = 0x0401;
pub const LB_INSERTSTRING: u16 = 0x0402;
pub const LB_DELETESTRING: u16 = 0x0403;
pub const LB_RESETCONTENT: u16 = 0x0405;
pub const LB_SETSEL: u16 = 0x0406;
pub const LB_SETCURSEL: u16 = 0x0407;
pub const LB_GETSEL: u16 = 0x0408;
pub const LB_GETCURSEL: u16 = 0x0409;
pub const LB_GETTEXT: u16 = 0x040A;
pub const LB_GETTEXTLEN: u16 = 0x040B;
pub const LB_GETCOUNT: u16 = 0x040C;
pub const LB_SELECTSTRING: u16 = 0x040D;
pub const LB_DIR: u16 = 0x040E;
pub const LB_GETTOPINDEX: u16 = 0x040F;
pub const LB_FINDSTRING: u16 = 0x0410;
pub const LB_GETSELCOUNT: u16 = 0x0411;
pub const LB_GETSELITEMS: u16 = 0x0412;
pub const LB_SETTABSTOPS: u16 = 0x0413;
pub const LB_GETHORIZONTALEXTENT: u16 = 0x0414;
pub const LB_SETHORIZONTALEXTENT: u16 = 0x0415;
pub const LB_SETCOLUMNWIDTH: u16 = 0x0416;
pub const LB_SETTOPINDEX: u16 = 0x0418;
pub const LB_GETITEMRECT: u16 = 0x0419;
pub const LB_GETITEMDATA: u16 = 0x041A;
pub const LB_SETITEMDATA: u16 = 0x041B;
pub const LB_SELITEMRANGE: u16 = 0x041C;
pub const LB_SETCARETINDEX: u16 = 0x041F;
pub const LB_GETCARETINDEX: u16 = 0x0420;
pub const LB_SETITEMHEIGHT: u16 = 0x0421;
pub const LB_GETITEMHEIGHT: u16 = 0x0422;
pub const LB_FINDSTRINGEXACT: u16 = 0x0423;

pub const LB_OKAY: u32 = 0;
pub const LB_ERR: u32 = 0xFFFF_FFFF;
pub const LB_ERRSPACE: u32 = 0xFFFF_FFFE;

pub const LBN_ERRSPACE: u16 = 0xFFFE;
pub const LBN_SELCHANGE: u16 = 1;
pub const LBN_DBLCLK: u16 = 2;
pub const LBN_SELCANCEL: u16 = 3;
pub const LBN_SETFOCUS: u16 = 4;
pub const LBN_KILLFOCUS: u16 = 5;

/// The most items a list box holds before LB_ERRSPACE (Windows 3.1's
/// limit was its 64 KiB heap; this one bounds host memory).
pub const MAX_ITEMS: usize = 32767;
/// The most bytes of one item's text kept.
const MAX_TEXT: usize = 4096;

/// One item.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Item {
    /// Its text (empty for owner-draw items without strings).
    pub text: Vec<u8>,
    /// LB_SETITEMDATA's value; for owner-draw items without strings, the
    /// value LB_ADDSTRING was given.
    pub data: u32,
    /// Selected (multiple-selection boxes).
    pub selected: bool,
    /// Height (LBS_OWNERDRAWVARIABLE).
    pub height: u16,
}

/// A list box's state.
#[derive(Debug, Clone, Default)]
pub struct ListBox {
    pub items: Vec<Item>,
    /// The selected item of a single-selection box.
    pub sel: Option<usize>,
    pub caret: usize,
    /// The anchor of an extended selection.
    pub anchor: usize,
    pub top: usize,
    /// Item height (fixed boxes).
    pub item_height: u16,
    pub font: u16,
    pub focus: bool,
    pub tab_stops: Vec<u16>,
    pub column_width: u16,
    pub horizontal_extent: u16,
    /// Who gets notifications and owner-draw messages: the parent, or the
    /// combo box a COMBOLBOX belongs to.
    pub owner: u16,
    /// The mouse went down in it and has not come up yet.
    pub tracking: bool,
    /// It was made with WS_VSCROLL: the scroll bar comes and goes with
    /// the items (the style bit goes with it, so it is kept here).
    pub vscroll: bool,
    /// The (item count, top index, page) the scroll bar was last set for.
    pub scroll_for: Option<(usize, usize, usize)>,
}

fn state(env: &mut Env, hwnd: u16) -> &mut ListBox {
    super::state_of(env, hwnd)
}

/// The state of list box `hwnd`, if it is one.
pub fn get(env: &Env, hwnd: u16) -> Option<&ListBox> {
    match env.win16.user.controls.state.get(&hwnd) {
        Some(Control::ListBox(l)) => Some(l),
        _ => None,
    }
}

/// Set who gets a list box's notifications (combobox.rs).
pub fn set_owner(env: &mut Env, hwnd: u16, owner: u16) {
    state(env, hwnd).owner = owner;
}

/// Who gets the owner-draw and keyboard messages (WM_DRAWITEM,
/// WM_VKEYTOITEM ...): the parent, or a COMBOLBOX's combo box's parent.
fn owner(env: &mut Env, hwnd: u16) -> u16 {
    match state(env, hwnd).owner {
        0 => wm::parent(env, hwnd),
        combo => wm::parent(env, combo),
    }
}

fn multi(style: u32) -> bool {
    style & (LBS_MULTIPLESEL | LBS_EXTENDEDSEL) != 0
}

fn owner_draw(style: u32) -> bool {
    style & (LBS_OWNERDRAWFIXED | LBS_OWNERDRAWVARIABLE) != 0
}

/// Does the box keep strings (every box but owner-draw ones without
/// LBS_HASSTRINGS)?
fn has_strings(style: u32) -> bool {
    !owner_draw(style) || style & LBS_HASSTRINGS != 0
}

/// The owner-draw control type: a COMBOLBOX draws for a combo box.
fn ctl_type(env: &mut Env, hwnd: u16) -> u16 {
    if state(env, hwnd).owner != 0 {
        ODT_COMBOBOX
    } else {
        ODT_LISTBOX
    }
}

/// The id the owner knows the box by (a COMBOLBOX: its combo box's).
fn ctl_id(env: &mut Env, hwnd: u16) -> u16 {
    match state(env, hwnd).owner {
        0 => wm::id(env, hwnd),
        combo => wm::id(env, combo),
    }
}

fn notify_owner(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, code: u16) -> Result<(), Stop> {
    match state(env, hwnd).owner {
        0 => {
            notify(env, uc, hwnd, code)?;
        }
        combo => super::combobox::list_notification(env, uc, combo, code)?,
    }
    Ok(())
}

/// WM_COMPAREITEM: how owner-draw item `data` (new, item 1) compares with
/// item `index` (item 2): negative, 0 or positive.
fn compare_item(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    data: u32,
    index: usize,
) -> Result<i16, Stop> {
    let other = state(env, hwnd).items[index].data;
    let (t, id, to) = (ctl_type(env, hwnd), ctl_id(env, hwnd), owner(env, hwnd));
    // COMPAREITEMSTRUCT (18 bytes): CtlType, CtlID, hwndItem, itemID1,
    // itemData1, itemID2, itemData2.
    let mut full = Vec::with_capacity(18);
    for v in [t, id, hwnd, 0xFFFF] {
        full.extend_from_slice(&v.to_le_bytes());
    }
    full.extend_from_slice(&data.to_le_bytes());
    full.extend_from_slice(&(index as u16).to_le_bytes());
    full.extend_from_slice(&other.to_le_bytes());
    let (r, _) = wm::send_data(env, uc, to, WM_COMPAREITEM, id, &full)?;
    Ok(r as u16 as i16)
}

/// Where a new item goes in a sorted box: binary search.
fn sorted_position(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    item: &Item,
    strings: bool,
) -> Result<usize, Stop> {
    let (mut lo, mut hi) = (0usize, state(env, hwnd).items.len());
    while lo < hi {
        let mid = (lo + hi) / 2;
        let c = if strings {
            compare_nocase(&item.text, &state(env, hwnd).items[mid].text)
        } else {
            compare_item(env, uc, hwnd, item.data, mid)?
        };
        match c {
            0 => return Ok(mid),
            c if c < 0 => hi = mid,
            _ => lo = mid + 1,
        }
    }
    Ok(hi)
}

/// MEASUREITEMSTRUCT (14 bytes): CtlType, CtlID, itemID, itemWidth,
/// itemHeight, itemData. Sends WM_MEASUREITEM to the owner and answers
/// the height it gave.
fn measure(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, item: u16, data: u32) -> Result<u16, Stop> {
    let (t, id, to) = (ctl_type(env, hwnd), ctl_id(env, hwnd), owner(env, hwnd));
    let (cx, _) = wm::client_size(env, hwnd);
    let h = font_height(env, hwnd);
    let mut b = [0u8; 14];
    for (i, v) in [t, id, item, cx as u16, h].iter().enumerate() {
        b[i * 2..i * 2 + 2].copy_from_slice(&v.to_le_bytes());
    }
    b[10..14].copy_from_slice(&data.to_le_bytes());
    let (_, out) = wm::send_data(env, uc, to, WM_MEASUREITEM, id, &b)?;
    Ok(u16::from_le_bytes([out[8], out[9]]))
}

/// The height of the box's font's cell.
fn font_height(env: &mut Env, hwnd: u16) -> u16 {
    let f = state(env, hwnd).font;
    super::font_metrics(env, f).height as u16
}

/// Insert `item` at `index` (≤ the count): the index, or LB_ERRSPACE.
fn insert_at(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    index: usize,
    mut item: Item,
) -> Result<u32, Stop> {
    if state(env, hwnd).items.len() >= MAX_ITEMS {
        notify_owner(env, uc, hwnd, LBN_ERRSPACE)?;
        return Ok(LB_ERRSPACE);
    }
    if wm::style(env, hwnd) & LBS_OWNERDRAWVARIABLE != 0 {
        item.height = measure(env, uc, hwnd, index as u16, item.data)?;
    }
    let lb = state(env, hwnd);
    let index = index.min(lb.items.len());
    lb.items.insert(index, item);
    if let Some(s) = lb.sel.filter(|&s| s >= index) {
        lb.sel = Some(s + 1);
    }
    if lb.caret >= index && lb.items.len() > 1 {
        lb.caret += 1;
    }
    redraw(env, uc, hwnd)?;
    Ok(index as u32)
}

fn redraw(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Result<(), Stop> {
    if wm::style(env, hwnd) & LBS_NOREDRAW == 0 {
        wm::invalidate(env, uc, hwnd)?;
    }
    Ok(())
}

/// The item a string argument makes: the text, or the value itself for an
/// owner-draw box without strings.
fn new_item(uc: &Uc<'_>, style: u32, lparam: u32) -> Item {
    if has_strings(style) {
        let mut text = wm::cstr(uc, lparam);
        text.truncate(MAX_TEXT);
        Item {
            text,
            ..Item::default()
        }
    } else {
        Item {
            data: lparam,
            ..Item::default()
        }
    }
}

/// WM_DELETEITEM for item `index` of an owner-draw box.
fn delete_item(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, index: usize) -> Result<(), Stop> {
    if !owner_draw(wm::style(env, hwnd)) {
        return Ok(());
    }
    let data = state(env, hwnd).items[index].data;
    let (t, id, to) = (ctl_type(env, hwnd), ctl_id(env, hwnd), owner(env, hwnd));
    // DELETEITEMSTRUCT: CtlType, CtlID, itemID, hwndItem, itemData.
    let mut b = [0u8; 12];
    for (i, v) in [t, id, index as u16, hwnd].iter().enumerate() {
        b[i * 2..i * 2 + 2].copy_from_slice(&v.to_le_bytes());
    }
    b[8..12].copy_from_slice(&data.to_le_bytes());
    wm::send_data(env, uc, to, WM_DELETEITEM, id, &b)?;
    Ok(())
}

/// Remove item `index`.
fn delete_at(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, index: usize) -> Result<(), Stop> {
    delete_item(env, uc, hwnd, index)?;
    let lb = state(env, hwnd);
    if index >= lb.items.len() {
        return Ok(());
    }
    lb.items.remove(index);
    lb.sel = match lb.sel {
        Some(s) if s == index => None,
        Some(s) if s > index => Some(s - 1),
        s => s,
    };
    if lb.caret > index || (lb.caret == index && lb.caret >= lb.items.len()) {
        lb.caret = lb.caret.saturating_sub(1);
    }
    if lb.top >= lb.items.len() {
        lb.top = lb.items.len().saturating_sub(1);
    }
    redraw(env, uc, hwnd)
}

/// LB_FINDSTRING / LB_FINDSTRINGEXACT from after `start` (-1: the first
/// item), going round.
fn find(env: &mut Env, uc: &Uc<'_>, hwnd: u16, start: u16, lparam: u32, exact: bool) -> u32 {
    let style = wm::style(env, hwnd);
    let key = if has_strings(style) {
        Some(wm::cstr(uc, lparam))
    } else {
        None
    };
    let lb = state(env, hwnd);
    let n = lb.items.len();
    if n == 0 {
        return LB_ERR;
    }
    let first = if start == 0xFFFF || usize::from(start) >= n {
        0
    } else {
        usize::from(start) + 1
    };
    for k in 0..n {
        let i = (first + k) % n;
        let it = &lb.items[i];
        let hit = match &key {
            Some(key) if exact => compare_nocase(&it.text, key) == 0,
            Some(key) => {
                it.text.len() >= key.len() && compare_nocase(&it.text[..key.len()], key) == 0
            }
            None => it.data == lparam,
        };
        if hit {
            return i as u32;
        }
    }
    LB_ERR
}

/// Select item `index` of a single-selection box (None: no selection).
fn set_cur(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, index: Option<usize>) -> Result<bool, Stop> {
    let lb = state(env, hwnd);
    let changed = lb.sel != index;
    lb.sel = index;
    if let Some(i) = index {
        lb.caret = i;
        ensure_visible(env, hwnd, i);
    }
    if changed {
        redraw(env, uc, hwnd)?;
    }
    Ok(changed)
}

/// Rows that fit in the client area.
fn page(env: &mut Env, hwnd: u16) -> usize {
    let (_, cy) = wm::client_size(env, hwnd);
    let h = state(env, hwnd).item_height.max(1);
    (cy.max(0) as u16 / h).max(1) as usize
}

/// Scroll so that item `i` is visible.
fn ensure_visible(env: &mut Env, hwnd: u16, i: usize) {
    let page = page(env, hwnd);
    let lb = state(env, hwnd);
    if i < lb.top {
        lb.top = i;
    } else if i >= lb.top + page {
        lb.top = i + 1 - page;
    }
}

/// The height of item `i`.
fn height_of(env: &mut Env, hwnd: u16, i: usize) -> u16 {
    let variable = wm::style(env, hwnd) & LBS_OWNERDRAWVARIABLE != 0;
    let lb = state(env, hwnd);
    if variable {
        lb.items.get(i).map_or(lb.item_height, |it| it.height)
    } else {
        lb.item_height
    }
}

/// Item `i`'s rectangle in the client area.
fn item_rect(env: &mut Env, hwnd: u16, i: usize) -> (i16, i16, i16, i16) {
    let (cx, _) = wm::client_size(env, hwnd);
    let top = state(env, hwnd).top;
    let mut y: i32 = 0;
    if i >= top {
        for k in top..i {
            y += i32::from(height_of(env, hwnd, k));
        }
    } else {
        for k in i..top {
            y -= i32::from(height_of(env, hwnd, k));
        }
    }
    let h = i32::from(height_of(env, hwnd, i));
    let clamp = |v: i32| v.clamp(-32768, 32767) as i16;
    (0, clamp(y), cx, clamp(y + h))
}

/// The item at client point y (None below the last).
fn item_at(env: &mut Env, hwnd: u16, y: i16) -> Option<usize> {
    if y < 0 {
        return None;
    }
    let (top, n) = {
        let lb = state(env, hwnd);
        (lb.top, lb.items.len())
    };
    let mut at = 0i32;
    for i in top..n {
        let h = i32::from(height_of(env, hwnd, i));
        if i32::from(y) < at + h {
            return Some(i);
        }
        at += h;
    }
    None
}

/// What the user's choice of item `i` does: select it (toggle it in a
/// LBS_MULTIPLESEL box), then LBN_SELCHANGE with LBS_NOTIFY.
fn user_select(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    i: usize,
    toggle: bool,
) -> Result<(), Stop> {
    let style = wm::style(env, hwnd);
    if i >= state(env, hwnd).items.len() {
        return Ok(());
    }
    let changed = if style & LBS_MULTIPLESEL != 0 {
        let lb = state(env, hwnd);
        lb.caret = i;
        if toggle {
            lb.items[i].selected = !lb.items[i].selected;
        }
        ensure_visible(env, hwnd, i);
        redraw(env, uc, hwnd)?;
        toggle
    } else if style & LBS_EXTENDEDSEL != 0 {
        // Shift extends from the anchor, Ctrl toggles one item, neither
        // selects just this one.
        let shift = wm::key_down(env, uc, 0x10)?;
        let ctrl = wm::key_down(env, uc, 0x11)?;
        let lb = state(env, hwnd);
        let before: Vec<bool> = lb.items.iter().map(|it| it.selected).collect();
        if shift {
            let (a, b) = (lb.anchor.min(i), lb.anchor.max(i));
            for (k, it) in lb.items.iter_mut().enumerate() {
                if (a..=b).contains(&k) {
                    it.selected = true;
                } else if !ctrl {
                    it.selected = false;
                }
            }
        } else if ctrl {
            lb.items[i].selected = !lb.items[i].selected;
            lb.anchor = i;
        } else {
            for (k, it) in lb.items.iter_mut().enumerate() {
                it.selected = k == i;
            }
            lb.anchor = i;
        }
        lb.caret = i;
        let after: Vec<bool> = lb.items.iter().map(|it| it.selected).collect();
        ensure_visible(env, hwnd, i);
        redraw(env, uc, hwnd)?;
        before != after
    } else {
        set_cur(env, uc, hwnd, Some(i))?
    };
    if changed && style & LBS_NOTIFY != 0 {
        notify_owner(env, uc, hwnd, LBN_SELCHANGE)?;
    }
    Ok(())
}

/// Send WM_DRAWITEM for every visible item of an owner-draw box.
fn paint_items(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, hdc: u16) -> Result<(), Stop> {
    let style = wm::style(env, hwnd);
    if !owner_draw(style) {
        return paint_text_items(env, uc, hwnd, hdc);
    }
    let (_, cy) = wm::client_size(env, hwnd);
    let (t, id, to) = (ctl_type(env, hwnd), ctl_id(env, hwnd), owner(env, hwnd));
    let (top, n) = {
        let lb = state(env, hwnd);
        (lb.top, lb.items.len())
    };
    for i in top..n {
        let rect = item_rect(env, hwnd, i);
        if rect.1 >= cy {
            break;
        }
        let lb = state(env, hwnd);
        let selected = if multi(style) {
            lb.items[i].selected
        } else {
            lb.sel == Some(i)
        };
        let mut st = 0;
        if selected {
            st |= ODS_SELECTED;
        }
        if lb.focus && lb.caret == i {
            st |= ODS_FOCUS;
        }
        let di = DrawItem {
            ctl_type: t,
            ctl_id: id,
            item_id: i as u16,
            action: ODA_DRAWENTIRE,
            state: st,
            hwnd,
            hdc,
            rect,
            data: lb.items[i].data,
        };
        wm::send_data(env, uc, to, WM_DRAWITEM, id, &di.to_bytes())?;
    }
    Ok(())
}

/// Paint a list box of strings (paint.rs): the visible items from 2 pixels
/// in, the selected ones highlighted, the caret item's focus rectangle.
fn paint_text_items(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, hdc: u16) -> Result<(), Stop> {
    use super::paint::{self, CTLCOLOR_LISTBOX, Painter};
    let style = wm::style(env, hwnd);
    let p = Painter::new(env, uc, hwnd, hdc, CTLCOLOR_LISTBOX)?;
    let (cx, cy) = wm::client_size(env, hwnd);
    p.fill(env, uc, (0, 0, cx, cy), p.background)?;
    let lb = state(env, hwnd).clone();
    let font = super::font_of(env, lb.font);
    let old = p.select(env, uc, lb.font)?;
    let base = i32::from(crate::win16::user::dialog::base_units(env).0);
    let stops: Vec<i32> = lb
        .tab_stops
        .iter()
        .map(|&t| i32::from(t) * base / 4)
        .collect();
    let every = match stops.as_slice() {
        [one] => *one,
        _ => 32 * base / 4,
    };
    let stops = if stops.len() > 1 { stops } else { Vec::new() };
    for i in lb.top..lb.items.len() {
        let r = item_rect(env, hwnd, i);
        if r.1 >= cy {
            break;
        }
        let selected = if multi(style) {
            lb.items[i].selected
        } else {
            lb.sel == Some(i)
        };
        paint::item_line(env, uc, &p, hwnd, r, 2, &[], selected)?;
        let text = &lb.items[i].text;
        if style & LBS_USETABSTOPS != 0 {
            paint::tabbed_text(env, uc, &p, &font, 2, r.1, text, &stops, every)?;
        } else {
            p.text_out(env, uc, 2, r.1, text)?;
        }
        if lb.focus && lb.caret == i {
            paint::focus_rect(env, uc, hdc, r)?;
        }
    }
    p.select(env, uc, old)?;
    Ok(())
}

/// The keys a list box acts on: the item a key moves the caret to.
fn key_target(env: &mut Env, hwnd: u16, vk: u16) -> Option<usize> {
    let page = page(env, hwnd);
    let lb = state(env, hwnd);
    let n = lb.items.len();
    if n == 0 {
        return None;
    }
    let cur = if multi(wm::style(env, hwnd)) {
        state(env, hwnd).caret
    } else {
        state(env, hwnd).sel.unwrap_or(0)
    };
    let had = multi(wm::style(env, hwnd)) || state(env, hwnd).sel.is_some();
    Some(match vk {
        0x26 | 0x25 => {
            if had {
                cur.saturating_sub(1)
            } else {
                0
            }
        } // VK_UP, VK_LEFT
        0x28 | 0x27 => {
            if had {
                (cur + 1).min(n - 1)
            } else {
                0
            }
        } // VK_DOWN, VK_RIGHT
        0x21 => cur.saturating_sub(page.saturating_sub(1).max(1)), // VK_PRIOR
        0x22 => (cur + page.saturating_sub(1).max(1)).min(n - 1),  // VK_NEXT
        0x24 => 0,                                                 // VK_HOME
        0x23 => n - 1,                                             // VK_END
        _ => return None,
    })
}

/// USER.307 LBoxCtlWndProc(hWnd, msg, wParam, lParam).
pub fn lbox_wnd_proc(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let r = lbox_message(env, uc, a)?;
    sync_scroll_bar(env, uc, a[0] as u16)?;
    Ok(r)
}

/// The vertical scroll bar of a list box made with WS_VSCROLL follows its
/// items after each message: shown, with the range 0 to the last top
/// index and the top index as position, while the items do not fit;
/// hidden when they do (SetScrollRange to nothing), or with
/// LBS_DISABLENOSCROLL (new in 3.1) shown with both arrows disabled (SDK,
/// "List Box Styles": "shows a disabled vertical scroll bar for the list
/// box when the box does not contain enough items to scroll"; without
/// it, "the scroll bar is hidden"). A combo box's list is a list box and
/// follows the same rule.
fn sync_scroll_bar(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Result<(), Stop> {
    use crate::win16::user::scroll;
    if !wm::exists(env, hwnd) {
        return Ok(());
    }
    let Some(lb) = get(env, hwnd) else {
        return Ok(());
    };
    if !lb.vscroll {
        return Ok(());
    }
    let (n, top) = (lb.items.len(), lb.top);
    let page = page(env, hwnd);
    let key = (n, top, page);
    if state(env, hwnd).scroll_for == Some(key) {
        return Ok(());
    }
    // Noted first: showing or hiding the bar sends the list box messages
    // of its own (WM_NCCALCSIZE, WM_SIZE), which come back here.
    state(env, hwnd).scroll_for = Some(key);
    const SB_VERT: u16 = crate::win16::user::SB_VERT;
    let last = n.saturating_sub(page).min(0x7FFF);
    if last > 0 {
        scroll::set_bar(env, uc, hwnd, SB_VERT, 0, last as i16, top.min(last) as i16)?;
        if let Some(b) = scroll::bar_mut(env, hwnd, SB_VERT) {
            b.disabled = 0;
        }
    } else if wm::style(env, hwnd) & LBS_DISABLENOSCROLL != 0 {
        if let Some(b) = scroll::bar_mut(env, hwnd, SB_VERT) {
            b.min = 0;
            b.max = 0;
            b.pos = 0;
            // ESB_DISABLE_BOTH.
            b.disabled = 3;
        }
        scroll::show_bars(env, uc, hwnd, SB_VERT, true)?;
        // The frame shows the bar's new state.
        if let Some(w) = env.win16.user.window_mut(hwnd) {
            w.frame = true;
        }
    } else {
        scroll::set_bar(env, uc, hwnd, SB_VERT, 0, 0, 0)?;
    }
    Ok(())
}

fn lbox_message(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hwnd, msg, wparam, lparam) = (a[0] as u16, a[1] as u16, a[2] as u16, a[3]);
    if !wm::exists(env, hwnd) {
        return Ok(0);
    }
    let style = wm::style(env, hwnd);
    let count = state(env, hwnd).items.len();
    let index = usize::from(wparam);
    match msg {
        WM_CREATE => {
            if wm::window(env, hwnd).is_some_and(|w| w.class.eq_ignore_ascii_case("COMBOLBOX")) {
                let combo = wm::parent(env, hwnd);
                state(env, hwnd).owner = combo;
            }
            let h = font_height(env, hwnd);
            state(env, hwnd).item_height = h;
            state(env, hwnd).vscroll = style & crate::win16::user::WS_VSCROLL != 0;
            if style & LBS_OWNERDRAWFIXED != 0 {
                let h = measure(env, uc, hwnd, 0, 0)?;
                state(env, hwnd).item_height = h;
            }
            Ok(0)
        }
        LB_ADDSTRING => {
            let item = new_item(uc, style, lparam);
            let at = if style & LBS_SORT != 0 {
                sorted_position(env, uc, hwnd, &item, has_strings(style))?
            } else {
                count
            };
            insert_at(env, uc, hwnd, at, item)
        }
        LB_INSERTSTRING => {
            let at = if wparam == 0xFFFF { count } else { index };
            if at > count {
                return Ok(LB_ERR);
            }
            let item = new_item(uc, style, lparam);
            insert_at(env, uc, hwnd, at, item)
        }
        LB_DELETESTRING => {
            if index >= count {
                return Ok(LB_ERR);
            }
            delete_at(env, uc, hwnd, index)?;
            Ok(state(env, hwnd).items.len() as u32)
        }
        LB_RESETCONTENT => {
            for i in 0..count {
                delete_item(env, uc, hwnd, i)?;
            }
            let lb = state(env, hwnd);
            lb.items.clear();
            lb.sel = None;
            lb.caret = 0;
            lb.anchor = 0;
            lb.top = 0;
            redraw(env, uc, hwnd)?;
            Ok(LB_OKAY)
        }
        LB_GETCOUNT => Ok(count as u32),
        LB_GETTEXT => {
            let Some(it) = state(env, hwnd).items.get(index).cloned() else {
                return Ok(LB_ERR);
            };
            if has_strings(style) {
                let mut t = it.text.clone();
                t.push(0);
                Ok(if wm::write(uc, lparam, &t) {
                    it.text.len() as u32
                } else {
                    LB_ERR
                })
            } else {
                Ok(if wm::write(uc, lparam, &it.data.to_le_bytes()) {
                    4
                } else {
                    LB_ERR
                })
            }
        }
        LB_GETTEXTLEN => Ok(match state(env, hwnd).items.get(index) {
            Some(it) if has_strings(style) => it.text.len() as u32,
            Some(_) => 4,
            None => LB_ERR,
        }),
        LB_SETCURSEL => {
            if multi(style) {
                return Ok(LB_ERR);
            }
            if wparam == 0xFFFF || index >= count {
                set_cur(env, uc, hwnd, None)?;
                return Ok(LB_ERR);
            }
            set_cur(env, uc, hwnd, Some(index))?;
            Ok(index as u32)
        }
        LB_GETCURSEL => {
            let lb = state(env, hwnd);
            Ok(if multi(style) {
                if count == 0 { LB_ERR } else { lb.caret as u32 }
            } else {
                lb.sel.map_or(LB_ERR, |s| s as u32)
            })
        }
        LB_SETSEL => {
            if !multi(style) {
                return Ok(LB_ERR);
            }
            let i = lparam as u16;
            let lb = state(env, hwnd);
            if i == 0xFFFF {
                for it in &mut lb.items {
                    it.selected = wparam != 0;
                }
            } else if usize::from(i) < count {
                lb.items[usize::from(i)].selected = wparam != 0;
                lb.caret = usize::from(i);
            } else {
                return Ok(LB_ERR);
            }
            redraw(env, uc, hwnd)?;
            Ok(LB_OKAY)
        }
        LB_GETSEL => {
            let lb = state(env, hwnd);
            Ok(match lb.items.get(index) {
                None => LB_ERR,
                Some(it) if multi(style) => u32::from(it.selected),
                Some(_) => u32::from(lb.sel == Some(index)),
            })
        }
        LB_GETSELCOUNT => {
            if !multi(style) {
                return Ok(LB_ERR);
            }
            Ok(state(env, hwnd).items.iter().filter(|i| i.selected).count() as u32)
        }
        LB_GETSELITEMS => {
            if !multi(style) {
                return Ok(LB_ERR);
            }
            let sel: Vec<u16> = state(env, hwnd)
                .items
                .iter()
                .enumerate()
                .filter(|(_, it)| it.selected)
                .map(|(i, _)| i as u16)
                .take(index)
                .collect();
            let bytes: Vec<u8> = sel.iter().flat_map(|v| v.to_le_bytes()).collect();
            if !bytes.is_empty() && !wm::write(uc, lparam, &bytes) {
                return Ok(LB_ERR);
            }
            Ok(sel.len() as u32)
        }
        LB_SELITEMRANGE => {
            if !multi(style) {
                return Ok(LB_ERR);
            }
            let (first, last) = (
                usize::from(lparam as u16),
                usize::from((lparam >> 16) as u16),
            );
            let lb = state(env, hwnd);
            for i in first.min(last)..=last.max(first) {
                if let Some(it) = lb.items.get_mut(i) {
                    it.selected = wparam != 0;
                }
            }
            redraw(env, uc, hwnd)?;
            Ok(LB_OKAY)
        }
        LB_FINDSTRING | LB_FINDSTRINGEXACT => Ok(find(
            env,
            uc,
            hwnd,
            wparam,
            lparam,
            msg == LB_FINDSTRINGEXACT,
        )),
        LB_SELECTSTRING => {
            if multi(style) {
                return Ok(LB_ERR);
            }
            let i = find(env, uc, hwnd, wparam, lparam, false);
            if i != LB_ERR {
                set_cur(env, uc, hwnd, Some(i as usize))?;
            }
            Ok(i)
        }
        LB_GETITEMDATA => Ok(state(env, hwnd)
            .items
            .get(index)
            .map_or(LB_ERR, |it| it.data)),
        LB_SETITEMDATA => match state(env, hwnd).items.get_mut(index) {
            Some(it) => {
                it.data = lparam;
                Ok(LB_OKAY)
            }
            None => Ok(LB_ERR),
        },
        LB_GETTOPINDEX => Ok(state(env, hwnd).top as u32),
        LB_SETTOPINDEX => {
            if index >= count && !(count == 0 && index == 0) {
                return Ok(LB_ERR);
            }
            state(env, hwnd).top = index;
            redraw(env, uc, hwnd)?;
            Ok(LB_OKAY)
        }
        LB_GETITEMRECT => {
            if index >= count && !(count == 0 && index == 0) {
                return Ok(LB_ERR);
            }
            let r = item_rect(env, hwnd, index);
            let mut b = [0u8; 8];
            for (k, v) in [r.0, r.1, r.2, r.3].iter().enumerate() {
                b[k * 2..k * 2 + 2].copy_from_slice(&v.to_le_bytes());
            }
            Ok(if wm::write(uc, lparam, &b) { 1 } else { LB_ERR })
        }
        LB_SETITEMHEIGHT => {
            let h = lparam as u16;
            if h > 255 {
                return Ok(LB_ERR);
            }
            if style & LBS_OWNERDRAWVARIABLE != 0 {
                match state(env, hwnd).items.get_mut(index) {
                    Some(it) => it.height = h,
                    None => return Ok(LB_ERR),
                }
            } else {
                state(env, hwnd).item_height = h;
            }
            redraw(env, uc, hwnd)?;
            Ok(LB_OKAY)
        }
        LB_GETITEMHEIGHT => {
            if style & LBS_OWNERDRAWVARIABLE != 0 {
                return Ok(state(env, hwnd)
                    .items
                    .get(index)
                    .map_or(LB_ERR, |it| u32::from(it.height)));
            }
            Ok(u32::from(state(env, hwnd).item_height))
        }
        LB_GETCARETINDEX => Ok(if count == 0 {
            0
        } else {
            state(env, hwnd).caret as u32
        }),
        LB_SETCARETINDEX => {
            if index >= count {
                return Ok(LB_ERR);
            }
            state(env, hwnd).caret = index;
            ensure_visible(env, hwnd, index);
            redraw(env, uc, hwnd)?;
            Ok(LB_OKAY)
        }
        LB_SETTABSTOPS => {
            if style & LBS_USETABSTOPS == 0 {
                return Ok(0);
            }
            let stops = match (wparam, lparam) {
                (0, _) => Vec::new(),
                (1, p) => vec![farptr::read_u16(uc, p).unwrap_or(0)],
                (n, p) => farptr::read_bytes(uc, p, usize::from(n.min(1024)) * 2)
                    .map(|b| {
                        b.chunks(2)
                            .map(|c| u16::from_le_bytes([c[0], c[1]]))
                            .collect()
                    })
                    .unwrap_or_default(),
            };
            state(env, hwnd).tab_stops = stops;
            Ok(1)
        }
        LB_SETCOLUMNWIDTH => {
            state(env, hwnd).column_width = wparam;
            redraw(env, uc, hwnd)?;
            Ok(0)
        }
        LB_SETHORIZONTALEXTENT => {
            state(env, hwnd).horizontal_extent = wparam;
            Ok(0)
        }
        LB_GETHORIZONTALEXTENT => Ok(u32::from(state(env, hwnd).horizontal_extent)),
        LB_DIR => crate::win16::user::dialog::dir::list_dir(env, uc, hwnd, wparam, lparam, false),
        WM_GETDLGCODE => Ok(DLGC_WANTARROWS | DLGC_WANTCHARS),
        wm::WM_VSCROLL => {
            // The list's own scroll bar: SB_LINEUP/DOWN by an item,
            // SB_PAGEUP/DOWN by a page, SB_THUMBPOSITION/TRACK to the
            // position, SB_TOP/BOTTOM.
            let page = page(env, hwnd);
            let top = state(env, hwnd).top;
            let last = count.saturating_sub(page);
            let to = match wparam {
                0 => top.saturating_sub(1),
                1 => (top + 1).min(last),
                2 => top.saturating_sub(page),
                3 => (top + page).min(last),
                4 | 5 => usize::from(lparam as u16).min(last),
                6 => 0,
                7 => last,
                _ => top,
            };
            if to != top {
                state(env, hwnd).top = to;
                redraw(env, uc, hwnd)?;
            }
            Ok(0)
        }
        WM_LBUTTONDOWN | WM_LBUTTONDBLCLK => {
            let y = (lparam >> 16) as u16 as i16;
            if !state(env, hwnd).focus {
                wm::set_focus(env, uc, hwnd)?;
            }
            state(env, hwnd).tracking = true;
            if let Some(i) = item_at(env, hwnd, y) {
                user_select(env, uc, hwnd, i, true)?;
                if msg == WM_LBUTTONDBLCLK && style & LBS_NOTIFY != 0 {
                    notify_owner(env, uc, hwnd, LBN_DBLCLK)?;
                }
            }
            Ok(0)
        }
        WM_LBUTTONUP => {
            state(env, hwnd).tracking = false;
            Ok(0)
        }
        WM_KEYDOWN => {
            let mut target = None;
            if style & LBS_WANTKEYBOARDINPUT != 0 {
                let caret = state(env, hwnd).caret as u16;
                let to = owner(env, hwnd);
                let r = wm::send(
                    env,
                    uc,
                    to,
                    WM_VKEYTOITEM,
                    wparam,
                    u32::from(caret) << 16 | u32::from(hwnd),
                )? as u16 as i16;
                match r {
                    -2 => return Ok(0),
                    -1 => {}
                    i if i >= 0 => target = Some(i as usize),
                    _ => return Ok(0),
                }
            }
            if style & LBS_MULTIPLESEL != 0 && wparam == 0x20 {
                let c = state(env, hwnd).caret;
                user_select(env, uc, hwnd, c, true)?;
                return Ok(0);
            }
            let target = target.or_else(|| key_target(env, hwnd, wparam));
            if let Some(i) = target {
                let toggle = false;
                if style & LBS_MULTIPLESEL != 0 {
                    state(env, hwnd).caret = i.min(count.saturating_sub(1));
                    ensure_visible(env, hwnd, i);
                    redraw(env, uc, hwnd)?;
                } else {
                    user_select(env, uc, hwnd, i, toggle)?;
                }
            }
            Ok(0)
        }
        WM_CHAR => {
            if style & LBS_WANTKEYBOARDINPUT != 0 && !has_strings(style) {
                let caret = state(env, hwnd).caret as u16;
                let to = owner(env, hwnd);
                let r = wm::send(
                    env,
                    uc,
                    to,
                    WM_CHARTOITEM,
                    wparam,
                    u32::from(caret) << 16 | u32::from(hwnd),
                )? as u16 as i16;
                if r >= 0 {
                    user_select(env, uc, hwnd, r as usize, false)?;
                }
                return Ok(0);
            }
            if !has_strings(style) || wparam == 0x20 {
                return Ok(0);
            }
            let from = if multi(style) {
                state(env, hwnd).caret + 1
            } else {
                state(env, hwnd).sel.map_or(0, |s| s + 1)
            };
            let ch = crate::win16::strings::upper(wparam as u8);
            let hit = (0..count).map(|k| (from + k) % count).find(|&i| {
                state(env, hwnd).items[i]
                    .text
                    .first()
                    .is_some_and(|&c| crate::win16::strings::upper(c) == ch)
            });
            if let Some(i) = hit {
                user_select(env, uc, hwnd, i, false)?;
            }
            Ok(0)
        }
        WM_SETFOCUS => {
            state(env, hwnd).focus = true;
            redraw(env, uc, hwnd)?;
            notify_owner(env, uc, hwnd, LBN_SETFOCUS)?;
            Ok(0)
        }
        WM_KILLFOCUS => {
            state(env, hwnd).focus = false;
            redraw(env, uc, hwnd)?;
            notify_owner(env, uc, hwnd, LBN_KILLFOCUS)?;
            Ok(0)
        }
        WM_SETFONT => {
            state(env, hwnd).font = wparam;
            if !owner_draw(style) {
                let h = font_height(env, hwnd);
                state(env, hwnd).item_height = h;
            }
            if lparam & 0xFFFF != 0 {
                wm::invalidate(env, uc, hwnd)?;
            }
            Ok(0)
        }
        WM_GETFONT => Ok(u32::from(state(env, hwnd).font)),
        WM_PAINT => {
            wm::paint(env, uc, hwnd, |env, uc, hdc| {
                paint_items(env, uc, hwnd, hdc)
            })?;
            Ok(0)
        }
        WM_DESTROY => {
            for i in 0..count {
                delete_item(env, uc, hwnd, i)?;
            }
            state(env, hwnd).items.clear();
            wm::def_proc(env, uc, hwnd, msg, wparam, lparam)
        }
        WM_NCDESTROY => {
            super::forget(env, hwnd);
            wm::def_proc(env, uc, hwnd, msg, wparam, lparam)
        }
        _ => wm::def_proc(env, uc, hwnd, msg, wparam, lparam),
    }
}

/// The user chooses item `i` (a click on it; the script's `select`).
pub fn user_choose(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, i: usize) -> Result<(), Stop> {
    user_select(env, uc, hwnd, i, true)
}

/// COMBOLBOX's procedure (internal): the list box's, its owner being the
/// combo box (combobox.rs sets it when it makes the list).
pub fn combolbox_wnd_proc(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    lbox_wnd_proc(env, uc, a)
}

/// Add `text` to list box `hwnd` as LB_ADDSTRING would, from Rust (LB_DIR,
/// DlgDirList): the text is copied to the stack for the message.
pub fn add_string(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, text: &[u8]) -> Result<u32, Stop> {
    let mut t = text.to_vec();
    t.push(0);
    let (r, _) = super::with_data(env, uc, &t, |env, uc, p| {
        wm::send(env, uc, hwnd, LB_ADDSTRING, 0, p)
    })?;
    Ok(r)
}
