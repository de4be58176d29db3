//! Menus: the item tree of every menu, the functions that build, edit and
//! query it, and a window's menu bar.
//!
//! # The model
//!
//! A menu is a list of items; an item is a command (an id), a pop-up (the
//! handle of another menu) or a separator, shown as text, a bitmap or
//! drawn by its owner (MF_OWNERDRAW, with a 32-bit item data word). Each
//! item keeps the flags Windows 3.1 keeps (WINDOWS.H values): its type
//! (MF_STRING, MF_BITMAP, MF_OWNERDRAW, MF_SEPARATOR, MF_POPUP,
//! MF_MENUBREAK, MF_MENUBARBREAK, MF_HELP) and its state (MF_GRAYED,
//! MF_DISABLED, MF_CHECKED, MF_HILITE, MF_USECHECKBITMAPS). Menus live in
//! [`Menus`] by handle. An HMENU is the local handle of the menu's
//! moveable block of type LT_USER_MENU in USER's menu heap (Windows 3.1
//! kept menus in a heap of their own, KB Q90762, and a menu's handle was
//! its block's handle there, Pietrek, "Windows Internals"): the block is
//! made first ([`new_menu`]; LoadMenu makes the bar's and each pop-up's,
//! in that order) and freed after the menu is destroyed, so a destroyed
//! menu's handle may name the next menu made, as in Windows.
//!
//! The rooms of the concept:
//!
//! | file | what |
//! | --- | --- |
//! | `menu.rs` | the tree and the functions that edit and query it |
//! | `menu/template.rs` | the MENU resource (MENUITEMTEMPLATEHEADER, MENUITEMTEMPLATE), LoadMenu, LoadMenuIndirect |
//! | `menu/layout.rs` | the menu bar's lines for a window width ([`menu_bar_height`]), pop-up sizes, owner-draw measuring |
//! | `menu/sysmenu.rs` | the system menu: GetSystemMenu, its items and their states |
//! | `menu/draw.rs` | the menu bar drawn in the Windows 3.1 look ([`draw::draw_menu_bar`]), WM_DRAWITEM for owner-drawn items |
//! | `menu/track.rs` | choosing from a menu: the mouse path and the keyboard loop of a headless session, TrackPopupMenu, EndMenu, the menu keys of DefWindowProc |
//!
//! # Rules (Windows 3.1 SDK, "Menus" and each function's page)
//!
//! - **MF_BYCOMMAND / MF_BYPOSITION.** An item is named by its position
//!   (0-based, MF_BYPOSITION) in the given menu, or by its command id
//!   (MF_BYCOMMAND, the default), looked up in the menu and then in every
//!   pop-up it opens, depth first in item order: a by-command call acts on
//!   the item wherever it is in the tree. Pop-up items have no command id
//!   (GetMenuItemID returns -1 for them); a by-command id equal to a
//!   pop-up's handle names that pop-up's item when nothing deeper matches.
//!   The walk visits each menu once, so a menu that contains itself
//!   (Windows would recurse until its stack overflowed) is harmless.
//! - **Return values.** CheckMenuItem returns the previous check state
//!   (MF_CHECKED or MF_UNCHECKED), EnableMenuItem the previous enable
//!   state (MF_ENABLED, MF_GRAYED, MF_DISABLED), GetMenuState the item's
//!   flags (for a pop-up: the count of its items in the high byte, its
//!   flags in the low byte), GetMenuItemCount the count, GetMenuItemID
//!   the id (-1 for a pop-up or a position past the end) — each -1
//!   (0xFFFF) when the item or the menu does not exist. GetMenuString
//!   copies at most nMaxCount - 1 characters and a NUL and returns the
//!   count copied. The editing functions return TRUE or FALSE.
//! - **Adding items** (AppendMenu, InsertMenu, ModifyMenu, ChangeMenu):
//!   lpNewItem is a far pointer to the text (MF_STRING; NULL makes a
//!   separator, as Windows 3.1 did), the bitmap handle in its low word
//!   (MF_BITMAP) or the item data (MF_OWNERDRAW); for MF_POPUP wIDNewItem
//!   is the pop-up's handle; MF_SEPARATOR ignores both. MF_HILITE and
//!   MF_USECHECKBITMAPS are never taken from the flags (HiliteMenuItem and
//!   SetMenuItemBitmaps set them). A text that starts with a backspace
//!   (`\b`, what RC writes for `\a`) is right-justified: the backspace is
//!   dropped and the item gets MF_HELP. InsertMenu inserts before the
//!   named item, in the (sub)menu that holds it; a position past the end
//!   (or -1) appends, as does a command id that no item has.
//! - **Destroying.** DestroyMenu destroys the menu and every pop-up it
//!   opens; DeleteMenu removes an item and destroys its pop-up, RemoveMenu
//!   removes it and leaves the pop-up to the program; ModifyMenu destroys
//!   an item's pop-up when it gives the item another pop-up.
//! - **ChangeMenu** (the Windows 2 form, still exported): MF_APPEND,
//!   MF_DELETE, MF_CHANGE, MF_REMOVE, in that order of precedence, select
//!   AppendMenu, DeleteMenu, ModifyMenu and RemoveMenu; none of them
//!   InsertMenu (MF_INSERT is 0). For MF_REMOVE the item is wIDChangeItem
//!   by position and wIDNewItem by command.
//! - **The menu bar.** A top-level window's menu is its menu bar (its
//!   hMenu: CreateWindow's, its class's, or SetMenu's); a child window has
//!   none (GetMenu answers 0, SetMenu fails). SetMenu and DrawMenuBar lay
//!   the bar out again for the window's width (layout.rs); when its
//!   height changes the window's client area changes with it
//!   ([`bar_changed`]). DestroyWindow destroys the window's menu and its
//!   system menu ([`window_destroyed`]).
//!
//! Bounds: at most [`MAX_MENUS`] menus and [`MAX_ITEMS`] items in all,
//! item texts of at most [`MAX_TEXT`] bytes (longer ones are cut there):
//! a runaway program gets failures, never unbounded host memory.

pub mod draw;
pub mod layout;
pub mod sysmenu;
pub mod template;
pub mod track;

use std::collections::BTreeSet;

use super::{WS_CHILD, event};
use crate::machine::{Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};
use crate::win16::farptr;
use crate::win16::geom::Rect;

pub use layout::menu_bar_height;

// ------------------------------------------------------------ MF_ flags
// WINDOWS.H of the Windows 3.1 SDK.
pub const MF_INSERT: u16 = 0x0000;
pub const MF_CHANGE: u16 = 0x0080;
pub const MF_APPEND: u16 = 0x0100;
pub const MF_DELETE: u16 = 0x0200;
pub const MF_REMOVE: u16 = 0x1000;
pub const MF_BYCOMMAND: u16 = 0x0000;
pub const MF_BYPOSITION: u16 = 0x0400;
pub const MF_SEPARATOR: u16 = 0x0800;
pub const MF_ENABLED: u16 = 0x0000;
pub const MF_GRAYED: u16 = 0x0001;
pub const MF_DISABLED: u16 = 0x0002;
pub const MF_UNCHECKED: u16 = 0x0000;
pub const MF_CHECKED: u16 = 0x0008;
pub const MF_USECHECKBITMAPS: u16 = 0x0200;
pub const MF_STRING: u16 = 0x0000;
pub const MF_BITMAP: u16 = 0x0004;
pub const MF_OWNERDRAW: u16 = 0x0100;
pub const MF_POPUP: u16 = 0x0010;
pub const MF_MENUBARBREAK: u16 = 0x0020;
pub const MF_MENUBREAK: u16 = 0x0040;
pub const MF_UNHILITE: u16 = 0x0000;
pub const MF_HILITE: u16 = 0x0080;
pub const MF_SYSMENU: u16 = 0x2000;
pub const MF_HELP: u16 = 0x4000;
pub const MF_MOUSESELECT: u16 = 0x8000;
/// In a menu template only: the last item of its list (= MF_HILITE's bit).
pub const MF_END: u16 = 0x0080;

/// The flags an item keeps.
const ITEM_FLAGS: u16 = MF_GRAYED
    | MF_DISABLED
    | MF_BITMAP
    | MF_CHECKED
    | MF_POPUP
    | MF_MENUBARBREAK
    | MF_MENUBREAK
    | MF_HILITE
    | MF_OWNERDRAW
    | MF_USECHECKBITMAPS
    | MF_SEPARATOR
    | MF_HELP;
/// The flags AppendMenu, InsertMenu and ModifyMenu take from the caller.
const NEW_ITEM_FLAGS: u16 = ITEM_FLAGS & !(MF_HILITE | MF_USECHECKBITMAPS);
/// The enable state bits.
pub const MF_ENABLE_MASK: u16 = MF_GRAYED | MF_DISABLED;

/// Most menus at once.
pub const MAX_MENUS: usize = 4096;
/// Most items in all menus together.
pub const MAX_ITEMS: usize = 32_768;
/// Longest item text kept, in bytes.
pub const MAX_TEXT: usize = 1024;

/// What an item shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Content {
    /// MF_STRING: the text (Windows ANSI bytes, with its `&` prefixes and
    /// any `\t` accelerator text).
    Text(Vec<u8>),
    /// MF_BITMAP: the bitmap handle.
    Bitmap(u16),
    /// MF_OWNERDRAW: the item data the owner gets in WM_MEASUREITEM and
    /// WM_DRAWITEM.
    OwnerDraw(u32),
    /// MF_SEPARATOR.
    Separator,
}

/// One menu item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MenuItem {
    /// Type and state flags (module doc).
    pub flags: u16,
    /// The command id; 0 for a separator; a pop-up's handle for a pop-up.
    pub id: u16,
    /// The pop-up it opens (MF_POPUP), else 0.
    pub popup: u16,
    pub content: Content,
    /// SetMenuItemBitmaps: (unchecked, checked) bitmaps.
    pub check_bitmaps: (u16, u16),
    /// Where the item lies in its menu's last layout: menu-bar items in
    /// window coordinates of the bar, pop-up items in the pop-up.
    pub rect: Rect,
    /// An owner-drawn item's (width, height) from WM_MEASUREITEM, once
    /// asked (asked again after the item changes).
    pub measured: Option<(u16, u16)>,
}

impl MenuItem {
    /// An item from the flags, id and content of AppendMenu & co.
    pub fn new(flags: u16, id: u16, content: Content) -> MenuItem {
        let mut flags = flags & NEW_ITEM_FLAGS;
        let content = match content {
            Content::Text(mut t) if t.first() == Some(&0x08) => {
                t.remove(0);
                flags |= MF_HELP;
                Content::Text(t)
            }
            c => c,
        };
        let popup = if flags & MF_POPUP != 0 { id } else { 0 };
        let id = if flags & MF_SEPARATOR != 0 && popup == 0 {
            0
        } else {
            id
        };
        MenuItem {
            flags,
            id,
            popup,
            content,
            check_bitmaps: (0, 0),
            rect: Rect::default(),
            measured: None,
        }
    }

    /// The text of a string item.
    pub fn text(&self) -> Option<&[u8]> {
        match &self.content {
            Content::Text(t) => Some(t),
            _ => None,
        }
    }

    /// Can the item be chosen (not grayed, not disabled, not a separator)?
    pub fn enabled(&self) -> bool {
        self.flags & (MF_ENABLE_MASK | MF_SEPARATOR) == 0
    }

    /// Its mnemonic: the character after the first single `&`, upper case.
    pub fn mnemonic(&self) -> Option<u8> {
        let t = self.text()?;
        let mut i = 0;
        while i + 1 < t.len() {
            if t[i] == b'&' {
                if t[i + 1] != b'&' {
                    return Some(crate::win16::strings::upper(t[i + 1]));
                }
                i += 1;
            }
            i += 1;
        }
        None
    }
}

/// One menu.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Menu {
    pub items: Vec<MenuItem>,
    /// Made by CreatePopupMenu (or as a pop-up of a template).
    pub popup: bool,
    /// A system menu (items send WM_SYSCOMMAND).
    pub system: bool,
    /// The (width, height) of its last layout: the bar's height for the
    /// width it was laid out for, a pop-up's size.
    pub size: Option<(i32, i32)>,
}

/// USER's menus (module doc), by handle: each handle is the local handle
/// of the menu's block in USER's menu heap (heap.rs).
#[derive(Clone, Debug, Default)]
pub struct Menus {
    menus: std::collections::BTreeMap<u16, Menu>,
    items: usize,
    /// The system menu copies (GetSystemMenu) by window.
    pub(crate) system: std::collections::BTreeMap<u16, u16>,
    /// DefWindowProc's menu key state (track.rs).
    pub(crate) keys: track::MenuKeys,
    /// A menu is being chosen from (track.rs): EndMenu ends it.
    pub(crate) active: Option<track::Active>,
    /// The height each window's menu bar took at its last layout
    /// (layout::frame_changed).
    pub(crate) bar_heights: std::collections::BTreeMap<u16, i32>,
    /// A script's click on the menu bar waiting for its SC_MOUSEMENU.
    pub(crate) pending: Option<track::PendingClick>,
    /// The System font menus are measured with (layout.rs).
    pub(crate) font: Option<std::rc::Rc<crate::win16::gdi::font::FontResource>>,
    /// Each menu's blocks in USER's menu and string heaps (heap.rs).
    pub(crate) blocks: std::collections::BTreeMap<u16, super::heap::MenuBlocks>,
    /// A menu was made, changed or destroyed since its blocks were last
    /// brought up to date (heap.rs, sync_menus).
    pub(crate) dirty: bool,
}

impl Menus {
    /// The menu `h`.
    pub fn get(&self, h: u16) -> Option<&Menu> {
        self.menus.get(&h)
    }

    /// The menu `h`, to change.
    pub fn get_mut(&mut self, h: u16) -> Option<&mut Menu> {
        self.dirty = true;
        self.menus.get_mut(&h)
    }

    /// Is `h` a menu (IsMenu)?
    pub fn exists(&self, h: u16) -> bool {
        self.menus.contains_key(&h)
    }

    /// Can another menu be made (fewer than [`MAX_MENUS`] exist)?
    pub fn has_room(&self) -> bool {
        self.menus.len() < MAX_MENUS
    }

    /// A new empty menu with handle `h` (its block's local handle in the
    /// menu heap, [`new_menu`]); `h`, or 0 when `h` is 0 or already a
    /// menu or [`MAX_MENUS`] exist.
    pub fn create(&mut self, h: u16, popup: bool) -> u16 {
        if h == 0 || self.exists(h) || !self.has_room() {
            return 0;
        }
        self.dirty = true;
        let menu = Menu {
            popup,
            ..Menu::default()
        };
        self.menus.insert(h, menu);
        h
    }

    /// Destroy menu `h` and every pop-up it opens; false if `h` is no menu.
    pub fn destroy(&mut self, h: u16) -> bool {
        if !self.exists(h) {
            return false;
        }
        self.dirty = true;
        let mut todo = vec![h];
        while let Some(m) = todo.pop() {
            let Some(menu) = self.menus.remove(&m) else {
                continue;
            };
            self.items -= menu.items.len();
            self.system.retain(|_, s| *s != m);
            todo.extend(menu.items.iter().filter(|i| i.popup != 0).map(|i| i.popup));
        }
        true
    }

    /// The menu and index of an item: position `item` of `h`
    /// (`by_position`), or the item with command id `item` anywhere in the
    /// tree under `h` (module doc).
    pub fn locate(&self, h: u16, item: u16, by_position: bool) -> Option<(u16, usize)> {
        let menu = self.get(h)?;
        if by_position {
            return (usize::from(item) < menu.items.len()).then_some((h, usize::from(item)));
        }
        let mut seen = BTreeSet::new();
        self.find_command(h, item, &mut seen)
    }

    fn find_command(&self, h: u16, id: u16, seen: &mut BTreeSet<u16>) -> Option<(u16, usize)> {
        if !seen.insert(h) {
            return None;
        }
        let menu = self.get(h)?;
        let mut fallback = None;
        for (i, it) in menu.items.iter().enumerate() {
            if it.flags & MF_POPUP != 0 {
                if let Some(found) = self.find_command(it.popup, id, seen) {
                    return Some(found);
                }
                if it.popup == id && fallback.is_none() {
                    fallback = Some((h, i));
                }
            } else if it.id == id && it.flags & MF_SEPARATOR == 0 {
                return Some((h, i));
            }
        }
        fallback
    }

    /// The item at (menu, index).
    pub fn item(&self, h: u16, i: usize) -> Option<&MenuItem> {
        self.get(h)?.items.get(i)
    }

    /// The item at (menu, index), to change; the menu's layout is stale
    /// afterwards.
    pub fn item_mut(&mut self, h: u16, i: usize) -> Option<&mut MenuItem> {
        let m = self.get_mut(h)?;
        m.size = None;
        m.items.get_mut(i)
    }

    /// Insert `item` into `h` at `pos` (None or past the end: append);
    /// false if `h` is no menu or [`MAX_ITEMS`] exist.
    pub fn insert(&mut self, h: u16, pos: Option<usize>, item: MenuItem) -> bool {
        if self.items >= MAX_ITEMS {
            return false;
        }
        let Some(m) = self.get_mut(h) else {
            return false;
        };
        let at = pos.unwrap_or(usize::MAX).min(m.items.len());
        m.items.insert(at, item);
        m.size = None;
        self.items += 1;
        true
    }

    /// Take item `i` out of `h`.
    pub fn take(&mut self, h: u16, i: usize) -> Option<MenuItem> {
        let m = self.get_mut(h)?;
        if i >= m.items.len() {
            return None;
        }
        m.size = None;
        let it = m.items.remove(i);
        self.items -= 1;
        Some(it)
    }

    /// The handles of every menu, in handle order.
    pub fn handles(&self) -> impl Iterator<Item = u16> + '_ {
        self.menus.keys().copied()
    }

    /// Items of all menus together.
    pub fn item_count(&self) -> usize {
        self.items
    }
}

// ----------------------------------------------------------- helpers

/// The content of a new item from AppendMenu & co's flags and lpNewItem:
/// None when lpNewItem should point at a text and does not.
fn new_content(uc: &Uc<'_>, flags: u16, lp: u32) -> Option<Content> {
    Some(if flags & MF_OWNERDRAW != 0 {
        Content::OwnerDraw(lp)
    } else if flags & MF_BITMAP != 0 {
        Content::Bitmap(lp as u16)
    } else if flags & MF_SEPARATOR != 0 || lp == 0 {
        Content::Separator
    } else {
        let mut t = read_text(uc, lp)?;
        t.truncate(MAX_TEXT);
        Content::Text(t)
    })
}

/// A NUL-terminated item text at `p` (at most [`MAX_TEXT`] bytes are
/// kept; a text without NUL before the segment's end is refused).
fn read_text(uc: &Uc<'_>, p: u32) -> Option<Vec<u8>> {
    let mut t = farptr::read_cstr(uc, p, farptr::MAX_STRING)?;
    t.truncate(MAX_TEXT);
    Some(t)
}

/// An item as MF_SEPARATOR makes it when the flags say so, or as the
/// content says (a NULL text is a separator, as in Windows 3.1).
fn build_item(flags: u16, id: u16, content: Content) -> MenuItem {
    let flags = if content == Content::Separator && flags & MF_POPUP == 0 {
        flags | MF_SEPARATOR
    } else {
        flags
    };
    MenuItem::new(flags, id, content)
}

/// -1 as a 16-bit int return value.
const MINUS_ONE: u32 = 0xFFFF;

fn menus(env: &mut Env) -> &mut Menus {
    &mut env.win16.user.menus
}

/// The menu bar of top-level window `hwnd` (0 without one).
pub fn window_menu(env: &Env, hwnd: u16) -> u16 {
    env.win16
        .user
        .window(hwnd)
        .filter(|w| w.style & WS_CHILD == 0)
        .map_or(0, |w| w.id)
}

// ----------------------------------------------------------- functions

/// A new empty menu: its block in USER's menu heap is made first, and
/// the block's local handle is the HMENU (module doc); 0 when the heap
/// cannot take the block or [`MAX_MENUS`] exist.
pub fn new_menu(env: &mut Env, uc: &mut Uc<'_>, popup: bool) -> u16 {
    layout::ensure_font(env);
    if !menus(env).has_room() {
        return 0;
    }
    let h = super::heap::alloc_menu(&mut env.win16, uc);
    if h != 0 && menus(env).create(h, popup) == 0 {
        super::heap::free_menu(&mut env.win16, uc, h);
        return 0;
    }
    h
}

/// USER.151 CreateMenu() -> HMENU: a new, empty menu (0 when USER's menu
/// heap cannot take it).
fn create_menu(env: &mut Env, uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(new_menu(env, uc, false)))
}

/// USER.415 CreatePopupMenu() -> HMENU.
fn create_popup_menu(env: &mut Env, uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(new_menu(env, uc, true)))
}

/// USER.152 DestroyMenu(hMenu) -> BOOL: the menu and its pop-ups.
fn destroy_menu(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(menus(env).destroy(a[0] as u16)))
}

/// USER.358 IsMenu(hMenu) -> BOOL.
fn is_menu(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(menus(env).exists(a[0] as u16)))
}

/// Insert a new item made from AppendMenu & co's arguments into `h` at
/// `pos` (None: append).
fn add_item(
    env: &mut Env,
    uc: &mut Uc<'_>,
    h: u16,
    pos: Option<usize>,
    flags: u16,
    id: u16,
    lp: u32,
) -> bool {
    if flags & MF_POPUP != 0 && !menus(env).exists(id) {
        return false;
    }
    let Some(content) = new_content(uc, flags, lp) else {
        return false;
    };
    if !menus(env).insert(h, pos, build_item(flags, id, content)) {
        return false;
    }
    fits(env, uc, h, pos)
}

/// Menu `h` just got an item at `pos` (None: the end): true when its block
/// in the menu heap could grow for it; else the item is taken out again
/// and false (the function that added it fails, as when LocalReAlloc
/// fails in Windows).
fn fits(env: &mut Env, uc: &mut Uc<'_>, h: u16, pos: Option<usize>) -> bool {
    if !super::heap::sync_menus(env, uc).contains(&h) {
        return true;
    }
    let n = menus(env).get(h).map_or(0, |m| m.items.len());
    let at = pos.unwrap_or(usize::MAX).min(n.saturating_sub(1));
    menus(env).take(h, at);
    super::heap::sync_menus(env, uc);
    false
}

/// USER.411 AppendMenu(hMenu, wFlags, wIDNewItem, lpNewItem) -> BOOL.
fn append_menu(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (h, flags, id) = (a[0] as u16, a[1] as u16, a[2] as u16);
    Ok(u32::from(add_item(env, uc, h, None, flags, id, a[3])))
}

/// InsertMenu's rule for where the new item goes: (menu, position).
fn insert_place(m: &Menus, h: u16, item: u16, flags: u16) -> Option<(u16, Option<usize>)> {
    m.get(h)?;
    if flags & MF_BYPOSITION != 0 {
        return Some((h, (item != 0xFFFF).then_some(usize::from(item))));
    }
    Some(match m.locate(h, item, false) {
        Some((menu, i)) => (menu, Some(i)),
        None => (h, None),
    })
}

fn insert_impl(
    env: &mut Env,
    uc: &mut Uc<'_>,
    h: u16,
    item: u16,
    flags: u16,
    id: u16,
    lp: u32,
) -> bool {
    match insert_place(menus(env), h, item, flags) {
        Some((menu, pos)) => add_item(env, uc, menu, pos, flags, id, lp),
        None => false,
    }
}

/// USER.410 InsertMenu(hMenu, nPosition, wFlags, wIDNewItem, lpNewItem)
/// -> BOOL.
fn insert_menu(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (h, item, flags, id) = (a[0] as u16, a[1] as u16, a[2] as u16, a[3] as u16);
    Ok(u32::from(insert_impl(env, uc, h, item, flags, id, a[4])))
}

fn modify_impl(
    env: &mut Env,
    uc: &Uc<'_>,
    h: u16,
    item: u16,
    flags: u16,
    id: u16,
    lp: u32,
) -> bool {
    let Some((menu, i)) = menus(env).locate(h, item, flags & MF_BYPOSITION != 0) else {
        return false;
    };
    if flags & MF_POPUP != 0 && !menus(env).exists(id) {
        return false;
    }
    let Some(content) = new_content(uc, flags, lp) else {
        return false;
    };
    let mut new = build_item(flags, id, content);
    let m = menus(env);
    let Some(old) = m.item_mut(menu, i) else {
        return false;
    };
    new.rect = old.rect;
    let old_popup = old.popup;
    *old = new;
    if old_popup != 0 && flags & MF_POPUP != 0 && old_popup != id {
        m.destroy(old_popup);
    }
    true
}

/// USER.414 ModifyMenu(hMenu, nPosition, wFlags, wIDNewItem, lpNewItem)
/// -> BOOL: the item becomes what the arguments describe (its flags are
/// replaced); a pop-up it opened is destroyed when it gets another.
fn modify_menu(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (h, item, flags, id) = (a[0] as u16, a[1] as u16, a[2] as u16, a[3] as u16);
    Ok(u32::from(modify_impl(env, uc, h, item, flags, id, a[4])))
}

fn remove_impl(env: &mut Env, h: u16, item: u16, flags: u16, destroy: bool) -> bool {
    let m = menus(env);
    let Some((menu, i)) = m.locate(h, item, flags & MF_BYPOSITION != 0) else {
        return false;
    };
    let Some(it) = m.take(menu, i) else {
        return false;
    };
    if destroy && it.popup != 0 {
        m.destroy(it.popup);
    }
    true
}

/// USER.413 DeleteMenu(hMenu, nPosition, wFlags) -> BOOL: the item goes
/// and its pop-up is destroyed.
fn delete_menu(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (h, item, flags) = (a[0] as u16, a[1] as u16, a[2] as u16);
    Ok(u32::from(remove_impl(env, h, item, flags, true)))
}

/// USER.412 RemoveMenu(hMenu, nPosition, wFlags) -> BOOL: the item goes,
/// its pop-up stays.
fn remove_menu(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (h, item, flags) = (a[0] as u16, a[1] as u16, a[2] as u16);
    Ok(u32::from(remove_impl(env, h, item, flags, false)))
}

/// USER.153 ChangeMenu(hMenu, wIDChangeItem, lpNewItem, wIDNewItem,
/// wFlags) -> BOOL (module doc).
fn change_menu(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (h, change, lp, id, flags) = (a[0] as u16, a[1] as u16, a[2], a[3] as u16, a[4] as u16);
    let ok = if flags & MF_APPEND != 0 {
        add_item(env, uc, h, None, flags & !MF_APPEND, id, lp)
    } else if flags & MF_DELETE != 0 {
        remove_impl(env, h, change, flags & !MF_DELETE, true)
    } else if flags & MF_CHANGE != 0 {
        modify_impl(env, uc, h, change, flags & !MF_CHANGE, id, lp)
    } else if flags & MF_REMOVE != 0 {
        let item = if flags & MF_BYPOSITION != 0 {
            change
        } else {
            id
        };
        remove_impl(env, h, item, flags & !MF_REMOVE, false)
    } else {
        insert_impl(env, uc, h, change, flags, id, lp)
    };
    Ok(u32::from(ok))
}

/// USER.159 GetSubMenu(hMenu, nPos) -> HMENU: the pop-up item `nPos`
/// opens, 0 for another item or position.
fn get_sub_menu(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(menus(env)
        .item(a[0] as u16, usize::from(a[1] as u16))
        .map_or(0, |it| u32::from(it.popup)))
}

/// USER.263 GetMenuItemCount(hMenu) -> int: -1 for no menu.
fn get_menu_item_count(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(menus(env)
        .get(a[0] as u16)
        .map_or(MINUS_ONE, |m| m.items.len() as u32))
}

/// USER.264 GetMenuItemID(hMenu, nPos) -> WORD: the command id; -1 for a
/// pop-up item or no item; 0 for a separator.
fn get_menu_item_id(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(
        match menus(env).item(a[0] as u16, usize::from(a[1] as u16)) {
            Some(it) if it.flags & MF_POPUP == 0 => u32::from(it.id),
            _ => MINUS_ONE,
        },
    )
}

/// GetMenuState's answer for an item.
pub fn item_state(m: &Menus, it: &MenuItem) -> u16 {
    if it.flags & MF_POPUP != 0 {
        let n = m
            .get(it.popup)
            .map_or(0, |p| p.items.len().min(0xFF) as u16);
        n << 8 | (it.flags & 0xFF)
    } else {
        it.flags
    }
}

/// USER.250 GetMenuState(hMenu, wId, wFlags) -> WORD (module doc).
pub fn get_menu_state(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let m = menus(env);
    Ok(
        match m
            .locate(a[0] as u16, a[1] as u16, a[2] as u16 & MF_BYPOSITION != 0)
            .and_then(|(h, i)| m.item(h, i))
        {
            Some(it) => u32::from(item_state(m, it)),
            None => MINUS_ONE,
        },
    )
}

/// Set the `mask` bits of an item's flags to `flags`'s, returning the
/// previous ones (None: no such item).
pub fn set_item_flags(m: &mut Menus, h: u16, item: u16, flags: u16, mask: u16) -> Option<u16> {
    let (menu, i) = m.locate(h, item, flags & MF_BYPOSITION != 0)?;
    let it = m.get_mut(menu)?.items.get_mut(i)?;
    let old = it.flags & mask;
    it.flags = it.flags & !mask | flags & mask;
    Some(old)
}

/// USER.154 CheckMenuItem(hMenu, wIDCheckItem, wCheck) -> the previous
/// check state (MF_CHECKED or MF_UNCHECKED), -1 for no item.
pub fn check_menu_item(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (h, item, flags) = (a[0] as u16, a[1] as u16, a[2] as u16);
    Ok(set_item_flags(menus(env), h, item, flags, MF_CHECKED).map_or(MINUS_ONE, u32::from))
}

/// USER.155 EnableMenuItem(hMenu, wIDEnableItem, wEnable) -> the previous
/// state (MF_ENABLED, MF_GRAYED, MF_DISABLED or both), -1 for no item.
fn enable_menu_item(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (h, item, flags) = (a[0] as u16, a[1] as u16, a[2] as u16);
    Ok(set_item_flags(menus(env), h, item, flags, MF_ENABLE_MASK).map_or(MINUS_ONE, u32::from))
}

/// USER.162 HiliteMenuItem(hWnd, hMenu, wIDHiliteItem, wHilite) -> BOOL:
/// sets or clears MF_HILITE of the item (hMenu is the window's top-level
/// menu; by command the item may be in one of its pop-ups); FALSE when
/// the window or the item is not there.
fn hilite_menu_item(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hwnd, h, item, flags) = (a[0] as u16, a[1] as u16, a[2] as u16, a[3] as u16);
    if env.win16.user.window(hwnd).is_none() {
        return Ok(0);
    }
    let m = menus(env);
    let Some((menu, i)) = m.locate(h, item, flags & MF_BYPOSITION != 0) else {
        return Ok(0);
    };
    let it = &mut m.get_mut(menu).expect("located").items[i];
    it.flags = it.flags & !MF_HILITE | flags & MF_HILITE;
    Ok(1)
}

/// USER.161 GetMenuString(hMenu, wIDItem, lpString, nMaxCount, wFlag) ->
/// int: the bytes copied (without the NUL); 0 for an item without text
/// or no item, and nothing is written when nMaxCount is 0.
fn get_menu_string(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (h, item, buf, max, flags) = (a[0] as u16, a[1] as u16, a[2], a[3], a[4] as u16);
    let m = menus(env);
    let Some(it) = m
        .locate(h, item, flags & MF_BYPOSITION != 0)
        .and_then(|(h, i)| m.item(h, i))
    else {
        return Ok(0);
    };
    let text = it.text().unwrap_or(&[]).to_vec();
    let size = farptr::int_size(max);
    Ok(farptr::write_cstr_truncated(uc, buf, &text, size).map_or(0, |n| n as u32))
}

/// USER.418 SetMenuItemBitmaps(hMenu, nPosition, wFlags,
/// hBitmapUnchecked, hBitmapChecked) -> BOOL: both 0 gives the item back
/// the standard check mark.
fn set_menu_item_bitmaps(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (h, item, flags) = (a[0] as u16, a[1] as u16, a[2] as u16);
    let (unchecked, checked) = (a[3] as u16, a[4] as u16);
    let m = menus(env);
    let Some((menu, i)) = m.locate(h, item, flags & MF_BYPOSITION != 0) else {
        return Ok(0);
    };
    let it = m.item_mut(menu, i).expect("located");
    it.check_bitmaps = (unchecked, checked);
    if unchecked == 0 && checked == 0 {
        it.flags &= !MF_USECHECKBITMAPS;
    } else {
        it.flags |= MF_USECHECKBITMAPS;
    }
    Ok(1)
}

/// USER.417 GetMenuCheckMarkDimensions() -> DWORD: the standard check
/// mark's width (low word) and height (high word) (layout.rs).
fn get_menu_check_mark_dimensions(
    _env: &mut Env,
    _uc: &mut Uc<'_>,
    _a: &[u32],
) -> Result<u32, Stop> {
    let (w, h) = layout::CHECK_MARK;
    Ok(u32::from(h as u16) << 16 | u32::from(w as u16))
}

/// USER.217 LookupMenuHandle(hMenu, wID) -> HMENU (undocumented): the
/// menu of the tree under hMenu that holds command `wID`, 0 if none.
fn lookup_menu_handle(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(menus(env)
        .locate(a[0] as u16, a[1] as u16, false)
        .map_or(0, |(h, _)| u32::from(h)))
}

/// USER.157 GetMenu(hWnd) -> HMENU: a top-level window's menu bar; 0 for
/// a child window (whose hMenu word is its id) or no window.
fn get_menu(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(window_menu(env, a[0] as u16)))
}

/// USER.158 SetMenu(hWnd, hMenu) -> BOOL: the window's menu bar becomes
/// hMenu (0 removes it; the old menu is not destroyed); the frame is
/// laid out again ([`bar_changed`]). FALSE for a child window or when
/// hMenu is not a menu.
pub fn set_menu(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hwnd, h) = (a[0] as u16, a[1] as u16);
    if h != 0 && !menus(env).exists(h) {
        return Ok(0);
    }
    match env.win16.user.window_mut(hwnd) {
        Some(w) if w.style & WS_CHILD == 0 => w.id = h,
        _ => return Ok(0),
    }
    if let Some(m) = menus(env).get_mut(h) {
        m.size = None;
    }
    bar_changed(env, uc, hwnd)?;
    Ok(1)
}

/// USER.160 DrawMenuBar(hWnd): the bar is laid out again (its items may
/// have changed) and the frame follows its height ([`bar_changed`]).
fn draw_menu_bar(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hwnd = a[0] as u16;
    let h = window_menu(env, hwnd);
    if let Some(m) = menus(env).get_mut(h) {
        m.size = None;
    }
    bar_changed(env, uc, hwnd)?;
    Ok(0)
}

/// The window's menu bar changed (SetMenu, DrawMenuBar): measure its
/// owner-drawn items, lay it out for the window's width, and let the
/// window manager recompute the frame (Windows: SetWindowPos with
/// SWP_FRAMECHANGED, which sends WM_NCCALCSIZE and, when the client size
/// changes, WM_SIZE; then WM_NCPAINT, whose DefWindowProc draws the bar).
pub fn bar_changed(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Result<(), Stop> {
    let h = window_menu(env, hwnd);
    layout::measure_owner_drawn(env, uc, hwnd, h)?;
    layout::frame_changed(env, uc, hwnd)
}

/// Window `hwnd` is being destroyed: its menu bar and its system menu
/// copy go with it, as DestroyWindow destroys them (SDK, DestroyWindow).
pub fn window_destroyed(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) {
    let bar = window_menu(env, hwnd);
    let m = menus(env);
    if bar != 0 && m.destroy(bar) {
        event(uc, format!("menu {bar:04X} of window {hwnd:04X} destroyed"));
    }
    if let Some(s) = m.system.remove(&hwnd) {
        m.destroy(s);
    }
    if m.active.as_ref().is_some_and(|a| a.hwnd == hwnd) {
        m.active = None;
    }
}

/// Window `hwnd` went with its task (user/mod.rs, forget_task): its menu
/// bar and system menu go too, as when Windows destroys the windows of a
/// task that ends; their blocks leave the menu heap at the next sync.
pub fn task_window_gone(env: &mut Env, hwnd: u16) {
    let bar = window_menu(env, hwnd);
    let m = menus(env);
    if bar != 0 {
        m.destroy(bar);
    }
    if let Some(s) = m.system.remove(&hwnd) {
        m.destroy(s);
    }
    if m.active.as_ref().is_some_and(|a| a.hwnd == hwnd) {
        m.active = None;
    }
}

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new("USER", 151, "CREATEMENU", &[], create_menu),
    Api::new("USER", 152, "DESTROYMENU", &[Arg::W], destroy_menu),
    Api::new(
        "USER",
        153,
        "CHANGEMENU",
        &[Arg::W, Arg::W, Arg::L, Arg::W, Arg::W],
        change_menu,
    ),
    Api::new(
        "USER",
        154,
        "CHECKMENUITEM",
        &[Arg::W, Arg::W, Arg::W],
        check_menu_item,
    ),
    Api::new(
        "USER",
        155,
        "ENABLEMENUITEM",
        &[Arg::W, Arg::W, Arg::W],
        enable_menu_item,
    ),
    Api::new("USER", 157, "GETMENU", &[Arg::W], get_menu),
    Api::new("USER", 158, "SETMENU", &[Arg::W, Arg::W], set_menu),
    Api::new("USER", 159, "GETSUBMENU", &[Arg::W, Arg::W], get_sub_menu),
    Api::new("USER", 160, "DRAWMENUBAR", &[Arg::W], draw_menu_bar),
    Api::new(
        "USER",
        161,
        "GETMENUSTRING",
        &[Arg::W, Arg::W, Arg::L, Arg::W, Arg::W],
        get_menu_string,
    ),
    Api::new(
        "USER",
        162,
        "HILITEMENUITEM",
        &[Arg::W, Arg::W, Arg::W, Arg::W],
        hilite_menu_item,
    ),
    Api::new(
        "USER",
        217,
        "LOOKUPMENUHANDLE",
        &[Arg::W, Arg::W],
        lookup_menu_handle,
    ),
    Api::new(
        "USER",
        250,
        "GETMENUSTATE",
        &[Arg::W, Arg::W, Arg::W],
        get_menu_state,
    ),
    Api::new(
        "USER",
        263,
        "GETMENUITEMCOUNT",
        &[Arg::W],
        get_menu_item_count,
    ),
    Api::new(
        "USER",
        264,
        "GETMENUITEMID",
        &[Arg::W, Arg::W],
        get_menu_item_id,
    ),
    Api::new("USER", 358, "ISMENU", &[Arg::W], is_menu),
    Api::new(
        "USER",
        410,
        "INSERTMENU",
        &[Arg::W, Arg::W, Arg::W, Arg::W, Arg::L],
        insert_menu,
    ),
    Api::new(
        "USER",
        411,
        "APPENDMENU",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        append_menu,
    ),
    Api::new(
        "USER",
        412,
        "REMOVEMENU",
        &[Arg::W, Arg::W, Arg::W],
        remove_menu,
    ),
    Api::new(
        "USER",
        413,
        "DELETEMENU",
        &[Arg::W, Arg::W, Arg::W],
        delete_menu,
    ),
    Api::new(
        "USER",
        414,
        "MODIFYMENU",
        &[Arg::W, Arg::W, Arg::W, Arg::W, Arg::L],
        modify_menu,
    ),
    Api::new("USER", 415, "CREATEPOPUPMENU", &[], create_popup_menu),
    Api::new(
        "USER",
        417,
        "GETMENUCHECKMARKDIMENSIONS",
        &[],
        get_menu_check_mark_dimensions,
    ),
    Api::new(
        "USER",
        418,
        "SETMENUITEMBITMAPS",
        &[Arg::W, Arg::W, Arg::W, Arg::W, Arg::W],
        set_menu_item_bitmaps,
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn text(flags: u16, id: u16, t: &str) -> MenuItem {
        MenuItem::new(flags, id, Content::Text(t.as_bytes().to_vec()))
    }

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
        assert!(crate::win16::api::is_registered(template::APIS));
        assert!(crate::win16::api::is_registered(sysmenu::APIS));
        assert!(crate::win16::api::is_registered(track::APIS));
    }

    #[test]
    fn by_command_searches_depth_first_and_survives_cycles() {
        let mut m = Menus::default();
        let bar = m.create(0x104, false);
        let a = m.create(0x108, true);
        let b = m.create(0x10C, true);
        m.insert(bar, None, text(MF_POPUP, a, "&A"));
        m.insert(bar, None, text(0, 7, "Seven on the bar"));
        m.insert(a, None, text(MF_POPUP, b, "&B"));
        m.insert(a, None, text(0, 7, "Seven in A"));
        m.insert(b, None, text(0, 9, "Nine in B"));
        // Depth first in item order: A's pop-up B is searched before
        // A's own items and before the bar's later items.
        assert_eq!(m.locate(bar, 9, false), Some((b, 0)));
        assert_eq!(m.locate(bar, 7, false), Some((a, 1)));
        assert_eq!(m.locate(bar, 1, true), Some((bar, 1)));
        assert_eq!(m.locate(bar, 2, true), None);
        // A pop-up item answers to its handle when nothing deeper does.
        assert_eq!(m.locate(bar, b, false), Some((a, 0)));
        // A menu that contains itself: found once, no endless walk.
        m.insert(b, None, text(MF_POPUP, bar, "&Loop"));
        assert_eq!(m.locate(bar, 12345, false), None);
        assert_eq!(m.locate(b, 7, false), Some((a, 1)));
        // Separators have no command.
        m.insert(
            bar,
            Some(0),
            MenuItem::new(MF_SEPARATOR, 0, Content::Separator),
        );
        assert_eq!(m.locate(bar, 0, false), None);
        // Destroying the bar destroys every pop-up it reaches, once.
        assert!(m.destroy(bar));
        assert!(!m.exists(a) && !m.exists(b) && !m.destroy(bar));
        assert_eq!(m.item_count(), 0);
    }

    #[test]
    fn new_items_keep_what_windows_keeps() {
        // MF_HILITE and MF_USECHECKBITMAPS are not taken from the caller;
        // a separator has no id; a pop-up's id is its handle.
        let it = text(
            MF_HILITE | MF_USECHECKBITMAPS | MF_CHECKED | MF_GRAYED,
            5,
            "x",
        );
        assert_eq!(it.flags, MF_CHECKED | MF_GRAYED);
        assert!(!it.enabled());
        let sep = MenuItem::new(MF_SEPARATOR, 5, Content::Separator);
        assert_eq!((sep.id, sep.flags), (0, MF_SEPARATOR));
        let p = text(MF_POPUP, 0x8010, "&P");
        assert_eq!((p.id, p.popup), (0x8010, 0x8010));
        assert_eq!(text(0, 1, "Save &As").mnemonic(), Some(b'A'));
        assert_eq!(text(0, 1, "A&&B &c").mnemonic(), Some(b'C'));
        assert_eq!(text(0, 1, "none&").mnemonic(), None);
        assert_eq!(build_item(0, 3, Content::Separator).flags, MF_SEPARATOR);
    }

    #[test]
    fn handles_are_the_blocks_and_menus_are_bounded() {
        let mut m = Menus::default();
        // The handle is the one given (the block's), once.
        assert_eq!(m.create(0x0A2C, false), 0x0A2C);
        assert_eq!(m.create(0x0A2C, true), 0);
        assert_eq!(m.create(0, true), 0);
        assert!(m.destroy(0x0A2C));
        assert!(!m.exists(0x0A2C));
        // A freed block's handle may name the next menu, as in Windows.
        assert_eq!(m.create(0x0A2C, true), 0x0A2C);
        let mut h = 0x1000u16;
        while m.has_room() {
            assert_eq!(m.create(h, true), h);
            h += 4;
        }
        assert_eq!(m.handles().count(), MAX_MENUS);
        assert_eq!(m.create(h, false), 0);
        // Items are bounded in all.
        let mut m = Menus::default();
        let h = m.create(0x20, false);
        for i in 0..MAX_ITEMS {
            assert!(m.insert(h, None, text(0, i as u16, "i")));
        }
        assert!(!m.insert(h, None, text(0, 0, "one too many")));
        assert_eq!(m.take(h, 0).map(|i| i.id), Some(0));
        assert!(m.insert(h, None, text(0, 0, "fits again")));
    }

    use proptest::prelude::*;

    proptest! {
        /// Any sequence of edits keeps the item count, never panics, and
        /// every by-command answer names an item with that command.
        #[test]
        fn edits_keep_the_tree_consistent(ops in proptest::collection::vec(
            (0u8..6, 0usize..6, 0u16..8, 0usize..8), 0..80)) {
            let mut m = Menus::default();
            let mut hs: Vec<u16> = Vec::new();
            let mut next = 0x100u16;
            for (op, a, id, pos) in ops {
                let h = hs.get(a % hs.len().max(1)).copied().unwrap_or(0);
                match op {
                    0 => {
                        next += 4;
                        hs.push(m.create(next, a % 2 == 0));
                    }
                    1 => { m.insert(h, Some(pos), text(0, id, "t")); }
                    2 => {
                        let sub = hs.get(pos % hs.len().max(1)).copied().unwrap_or(0);
                        if m.exists(sub) {
                            m.insert(h, Some(pos), text(MF_POPUP, sub, "p"));
                        }
                    }
                    3 => { m.take(h, pos); }
                    4 => { m.destroy(h); }
                    _ => {
                        if let Some((menu, i)) = m.locate(h, id, false) {
                            let it = m.item(menu, i).unwrap();
                            prop_assert!(it.id == id);
                        }
                    }
                }
                let n: usize = m.handles().map(|h| m.get(h).unwrap().items.len()).sum();
                prop_assert_eq!(n, m.item_count());
            }
        }
    }
}
