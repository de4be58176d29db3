//! Menu templates: the MENU resource and LoadMenuIndirect's memory, as
//! the Windows 3.1 SDK defines them ("MENUITEMTEMPLATEHEADER",
//! "MENUITEMTEMPLATE"):
//!
//! ```text
//! MENUITEMTEMPLATEHEADER   versionNumber  WORD  0
//!                          offset         WORD  bytes from the header's end to the first item
//! MENUITEMTEMPLATE         mtOption       WORD  MF_ flags; MF_END (0x80) on the last item of a list
//!                          mtID           WORD  the command id (absent when mtOption has MF_POPUP)
//!                          mtString       the item's text, NUL-terminated
//! ```
//!
//! The items of the menu bar follow the header; an MF_POPUP item is
//! followed by its pop-up's items, each list ended by its MF_END item.
//! Building the menu is LoadMenuIndirect's work: CreateMenu for the bar,
//! CreatePopupMenu for each pop-up, AppendMenu for each item; an item
//! whose text is empty is a separator (RC writes MENUITEM SEPARATOR as
//! flags 0, id 0, ""). A template whose version is not 0 is refused (0 is
//! the only Windows 3.x version; 1 is the extended Win32 form).
//!
//! Parsing is bounded: every read is checked against the template's end,
//! pop-ups nest at most [`MAX_DEPTH`] deep and a template has at most
//! [`MAX_TEMPLATE_ITEMS`] items; a bad template is refused with the byte
//! offset and what is wrong there, which LoadMenu puts in its event (and
//! returns NULL, as Windows does for a menu it cannot load).

use super::{Content, MF_END, MF_POPUP, MF_SEPARATOR, MenuItem, Menus};
use crate::machine::{Cpu, Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};
use crate::win16::farptr::{self, NameArg};
use crate::win16::resource::{self, RT_MENU};
use crate::win16::user::event;

/// MENUITEMTEMPLATEHEADER's layout.
pub mod header {
    pub const VERSION: usize = 0;
    pub const OFFSET: usize = 2;
    pub const SIZE: usize = 4;
}

/// MENUITEMTEMPLATE's layout.
pub mod item {
    pub const OPTION: usize = 0;
    /// mtID, for items without MF_POPUP.
    pub const ID: usize = 2;
    /// mtString of a command item.
    pub const STRING: usize = 4;
    /// mtString of an MF_POPUP item (no mtID).
    pub const POPUP_STRING: usize = 2;
}

/// Deepest nesting of pop-ups a template may have.
pub const MAX_DEPTH: usize = 16;
/// Most items a template may have.
pub const MAX_TEMPLATE_ITEMS: usize = 4096;

/// One item of a template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateItem {
    /// mtOption without MF_END.
    pub flags: u16,
    /// mtID (0 for a pop-up).
    pub id: u16,
    pub text: Vec<u8>,
    /// A pop-up's items.
    pub items: Vec<TemplateItem>,
}

/// What is wrong with a template, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateError {
    /// Byte offset in the template.
    pub offset: usize,
    pub what: String,
}

impl std::fmt::Display for TemplateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "at byte {:#X}: {}", self.offset, self.what)
    }
}

fn word(b: &[u8], at: usize, what: &str) -> Result<u16, TemplateError> {
    match b.get(at..at + 2) {
        Some(w) => Ok(u16::from_le_bytes([w[0], w[1]])),
        None => Err(TemplateError {
            offset: at,
            what: format!(
                "{what} runs past the end of the template ({} bytes)",
                b.len()
            ),
        }),
    }
}

/// Parse a template's bytes into the menu bar's items.
pub fn parse(b: &[u8]) -> Result<Vec<TemplateItem>, TemplateError> {
    let version = word(b, header::VERSION, "the header's versionNumber")?;
    if version != 0 {
        return Err(TemplateError {
            offset: header::VERSION,
            what: format!("versionNumber is {version}, not 0 (a Windows 3.x menu template)"),
        });
    }
    let offset = word(b, header::OFFSET, "the header's offset")?;
    let mut at = header::SIZE + usize::from(offset);
    let mut count = 0;
    parse_list(b, &mut at, 0, &mut count)
}

fn parse_list(
    b: &[u8],
    at: &mut usize,
    depth: usize,
    count: &mut usize,
) -> Result<Vec<TemplateItem>, TemplateError> {
    let mut list = Vec::new();
    loop {
        let start = *at;
        if *count >= MAX_TEMPLATE_ITEMS {
            return Err(TemplateError {
                offset: start,
                what: format!("more than {MAX_TEMPLATE_ITEMS} items"),
            });
        }
        let flags = word(b, start, "an item's mtOption")?;
        let (id, text_at) = if flags & MF_POPUP != 0 {
            (0, start + item::POPUP_STRING)
        } else {
            (
                word(b, start + item::ID, "an item's mtID")?,
                start + item::STRING,
            )
        };
        let rest = b.get(text_at..).unwrap_or(&[]);
        let Some(len) = rest.iter().position(|&c| c == 0) else {
            return Err(TemplateError {
                offset: text_at,
                what: "an item's text has no NUL before the end of the template".into(),
            });
        };
        let text = rest[..len].to_vec();
        *at = text_at + len + 1;
        *count += 1;
        let items = if flags & MF_POPUP != 0 {
            if depth + 1 > MAX_DEPTH {
                return Err(TemplateError {
                    offset: start,
                    what: format!("pop-ups nest more than {MAX_DEPTH} deep"),
                });
            }
            parse_list(b, at, depth + 1, count)?
        } else {
            Vec::new()
        };
        list.push(TemplateItem {
            flags: flags & !MF_END,
            id,
            text,
            items,
        });
        if flags & MF_END != 0 {
            return Ok(list);
        }
    }
}

/// The bytes of a template with `items` (header offset 0): what RC
/// writes.
pub fn encode(items: &[TemplateItem]) -> Vec<u8> {
    fn list(out: &mut Vec<u8>, items: &[TemplateItem]) {
        for (i, it) in items.iter().enumerate() {
            let mut flags = it.flags;
            if i + 1 == items.len() {
                flags |= MF_END;
            }
            out.extend_from_slice(&flags.to_le_bytes());
            if flags & MF_POPUP == 0 {
                out.extend_from_slice(&it.id.to_le_bytes());
            }
            out.extend_from_slice(&it.text);
            out.push(0);
            if flags & MF_POPUP != 0 {
                list(out, &it.items);
            }
        }
    }
    let mut out = vec![0u8; header::SIZE];
    list(&mut out, items);
    out
}

/// How many menus a parsed template makes: the bar and each pop-up.
pub fn menu_count(items: &[TemplateItem]) -> usize {
    fn popups(items: &[TemplateItem]) -> usize {
        items
            .iter()
            .filter(|t| t.flags & MF_POPUP != 0)
            .map(|t| 1 + popups(&t.items))
            .sum()
    }
    1 + popups(items)
}

/// Build the menus a parsed template describes (module doc), each taking
/// the next of `handles` (the bar the first, then the pop-ups depth
/// first: the order LoadMenuIndirect makes them): the bar's handle, None
/// (and no menu left behind) when the handles or the items run out.
pub fn build(menus: &mut Menus, handles: &[u16], items: &[TemplateItem]) -> Option<u16> {
    let mut next = handles.iter().copied();
    let bar = menus.create(next.next().unwrap_or(0), false);
    if bar == 0 {
        return None;
    }
    if fill(menus, &mut next, bar, items) {
        Some(bar)
    } else {
        menus.destroy(bar);
        None
    }
}

fn fill(
    menus: &mut Menus,
    next: &mut dyn Iterator<Item = u16>,
    h: u16,
    items: &[TemplateItem],
) -> bool {
    for t in items {
        let item = if t.flags & MF_POPUP != 0 {
            let sub = menus.create(next.next().unwrap_or(0), true);
            if sub == 0 {
                return false;
            }
            let item = MenuItem::new(t.flags, sub, Content::Text(t.text.clone()));
            if !menus.insert(h, None, item) {
                menus.destroy(sub);
                return false;
            }
            if !fill(menus, next, sub, &t.items) {
                return false;
            }
            continue;
        } else if t.text.is_empty() {
            MenuItem::new(t.flags | MF_SEPARATOR, t.id, Content::Separator)
        } else {
            MenuItem::new(t.flags, t.id, Content::Text(t.text.clone()))
        };
        if !menus.insert(h, None, item) {
            return false;
        }
    }
    true
}

/// The menus of a parsed template, each with its block in USER's menu
/// heap made first (its HMENU: menu.rs, new_menu): the bar's handle, 0
/// when the menu heap or the menus run out (nothing left behind).
fn build_in_heap(env: &mut Env, uc: &mut Uc<'_>, items: &[TemplateItem]) -> u16 {
    let n = menu_count(items);
    let mut handles = Vec::with_capacity(n);
    for _ in 0..n {
        match super::super::heap::alloc_menu(&mut env.win16, uc) {
            0 => break,
            h => handles.push(h),
        }
    }
    let bar = if handles.len() == n {
        build(&mut env.win16.user.menus, &handles, items)
    } else {
        None
    };
    // Blocks no menu took go back to the heap (those of menus destroyed
    // on failure go at the sync below).
    for &h in &handles {
        if !env.win16.user.menus.exists(h) {
            super::super::heap::free_menu(&mut env.win16, uc, h);
        }
    }
    let Some(bar) = bar else {
        super::super::heap::sync_menus(env, uc);
        return 0;
    };
    let failed = super::super::heap::sync_menus(env, uc);
    if !failed.iter().any(|f| handles.contains(f)) {
        bar
    } else {
        // A menu's block could not grow for its items.
        env.win16.user.menus.destroy(bar);
        super::super::heap::sync_menus(env, uc);
        0
    }
}

/// Parse and build a template; the event says why when it fails.
fn load(env: &mut Env, uc: &mut Uc<'_>, bytes: &[u8], what: &str) -> u16 {
    super::layout::ensure_font(env);
    match parse(bytes) {
        Ok(items) => match build_in_heap(env, uc, &items) {
            0 => {
                event(uc, format!("{what}: no room for more menus or items"));
                0
            }
            h => h,
        },
        Err(e) => {
            event(uc, format!("{what}: a bad menu template: {e}"));
            0
        }
    }
}

/// LoadMenu's work for the module `hinstance` names: the new menu's
/// handle, 0 when the module has no such MENU resource or it is bad.
/// CreateWindow loads a window class's menu with it.
pub fn load_resource(env: &mut Env, uc: &mut Uc<'_>, hinstance: u16, name: &NameArg) -> u16 {
    let Some((module, bytes)) = resource::data(env, hinstance, name, RT_MENU) else {
        return 0;
    };
    let what = format!("LoadMenu {} of {module}", name_text(name));
    load(env, uc, &bytes, &what)
}

fn name_text(n: &NameArg) -> String {
    match n {
        NameArg::Int(i) => format!("#{i}"),
        NameArg::Str(s) => format!("{:?}", String::from_utf8_lossy(s)),
    }
}

/// USER.150 LoadMenu(hInstance, lpMenuName) -> HMENU: a new menu built
/// from the MENU resource (each call builds another); 0 when there is no
/// such resource or its template is bad.
fn load_menu(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(name) = NameArg::read(uc, a[1]) else {
        return Ok(0);
    };
    Ok(u32::from(load_resource(env, uc, a[0] as u16, &name)))
}

/// The bytes from far pointer `p` to the end of its segment.
fn to_segment_end(uc: &Uc<'_>, p: u32) -> Option<Vec<u8>> {
    let (sel, off) = farptr::split(p);
    let limit = uc.descriptor_of(sel)?.limit.min(0xFFFF);
    let n = (limit + 1).checked_sub(u32::from(off))? as usize;
    farptr::read_bytes(uc, p, n)
}

/// USER.220 LoadMenuIndirect(lpMenuTemplate) -> HMENU: a menu built from
/// a template in memory (read no further than its segment's end).
fn load_menu_indirect(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(bytes) = to_segment_end(uc, a[0]) else {
        return Ok(0);
    };
    let (sel, off) = farptr::split(a[0]);
    let what = format!("LoadMenuIndirect {sel:04X}:{off:04X}");
    Ok(u32::from(load(env, uc, &bytes, &what)))
}

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new("USER", 150, "LOADMENU", &[Arg::W, Arg::L], load_menu),
    Api::new(
        "USER",
        220,
        "LOADMENUINDIRECT",
        &[Arg::L],
        load_menu_indirect,
    ),
];

#[cfg(test)]
mod tests {
    use super::super::{MF_CHECKED, MF_GRAYED, MF_HELP};
    use super::*;

    fn t(flags: u16, id: u16, text: &str, items: Vec<TemplateItem>) -> TemplateItem {
        TemplateItem {
            flags,
            id,
            text: text.as_bytes().to_vec(),
            items,
        }
    }

    /// The template RC writes for
    /// ```text
    /// MENU BEGIN
    ///   POPUP "&File" BEGIN
    ///     MENUITEM "&Open...", 100
    ///     MENUITEM SEPARATOR
    ///     MENUITEM "E&xit", 101, CHECKED
    ///   END
    ///   MENUITEM "&Go!", 200, GRAYED
    ///   POPUP "&Help", HELP BEGIN MENUITEM "&About", 300 END
    /// END
    /// ```
    fn sample() -> Vec<u8> {
        let mut b = vec![0, 0, 0, 0];
        b.extend_from_slice(&0x0010u16.to_le_bytes());
        b.extend_from_slice(b"&File\0");
        b.extend_from_slice(&[0, 0, 100, 0]);
        b.extend_from_slice(b"&Open...\0");
        b.extend_from_slice(&[0, 0, 0, 0, 0]);
        b.extend_from_slice(&[0x88, 0, 101, 0]);
        b.extend_from_slice(b"E&xit\0");
        b.extend_from_slice(&[0x01, 0, 200, 0]);
        b.extend_from_slice(b"&Go!\0");
        b.extend_from_slice(&0x4090u16.to_le_bytes());
        b.extend_from_slice(b"&Help\0");
        b.extend_from_slice(&[0x80, 0, 0x2C, 0x01]);
        b.extend_from_slice(b"&About\0");
        b
    }

    #[test]
    fn layouts() {
        assert_eq!((header::VERSION, header::OFFSET, header::SIZE), (0, 2, 4));
        assert_eq!((item::OPTION, item::ID, item::STRING), (0, 2, 4));
        assert_eq!(item::POPUP_STRING, 2);
        // The encoder writes the layout the parser reads: RC's bytes.
        let items = parse(&sample()).unwrap();
        assert_eq!(encode(&items), sample());
    }

    #[test]
    fn parses_and_builds_the_tree() {
        let items = parse(&sample()).unwrap();
        assert_eq!(
            items,
            [
                t(
                    MF_POPUP,
                    0,
                    "&File",
                    vec![
                        t(0, 100, "&Open...", vec![]),
                        t(0, 0, "", vec![]),
                        t(MF_CHECKED, 101, "E&xit", vec![]),
                    ]
                ),
                t(MF_GRAYED, 200, "&Go!", vec![]),
                t(
                    MF_HELP | MF_POPUP,
                    0,
                    "&Help",
                    vec![t(0, 300, "&About", vec![])]
                ),
            ]
        );
        let mut m = Menus::default();
        assert_eq!(menu_count(&items), 3);
        let bar = build(&mut m, &fake_handles(0x100, 3), &items).unwrap();
        let menu = m.get(bar).unwrap();
        assert!(!menu.popup);
        assert_eq!(menu.items.len(), 3);
        let file = menu.items[0].popup;
        assert!(m.get(file).unwrap().popup);
        let f = &m.get(file).unwrap().items;
        assert_eq!(f[1].flags, MF_SEPARATOR);
        assert_eq!(f[1].content, Content::Separator);
        assert_eq!((f[2].id, f[2].flags), (101, MF_CHECKED));
        assert_eq!(m.locate(bar, 300, false).unwrap().1, 0);
        assert_eq!(m.item_count(), 7);
        // An offset in the header skips bytes before the first item.
        let mut shifted = vec![0, 0, 3, 0, 0xEE, 0xEE, 0xEE];
        shifted.extend_from_slice(&sample()[4..]);
        assert_eq!(parse(&shifted).unwrap(), items);
    }

    #[test]
    fn bad_templates_say_where() {
        let e = parse(&[1, 0, 0, 0]).unwrap_err();
        assert_eq!((e.offset, e.what.contains("versionNumber is 1")), (0, true));
        let e = parse(&[0, 0]).unwrap_err();
        assert_eq!(e.offset, 2);
        // No MF_END: the list runs off the end.
        let mut b = vec![0, 0, 0, 0, 0, 0, 5, 0];
        b.extend_from_slice(b"x\0");
        let e = parse(&b).unwrap_err();
        assert_eq!(e.offset, 10);
        assert!(e.to_string().contains("mtOption runs past"), "{e}");
        // A text without its NUL.
        let e = parse(&[0, 0, 0, 0, 0x80, 0, 5, 0, b'a', b'b']).unwrap_err();
        assert_eq!((e.offset, e.what.contains("no NUL")), (8, true));
        // The offset points past the end.
        assert!(parse(&[0, 0, 0xFF, 0xFF]).is_err());
        // Pop-ups nested too deep.
        let mut deep = vec![0, 0, 0, 0];
        for _ in 0..=MAX_DEPTH {
            deep.extend_from_slice(&[0x90, 0, b'p', 0]);
        }
        deep.extend_from_slice(&[0x80, 0, 1, 0, b'x', 0]);
        let e = parse(&deep).unwrap_err();
        assert!(e.what.contains("nest"), "{e}");
        // Too many items.
        let mut many = vec![0, 0, 0, 0];
        for _ in 0..=MAX_TEMPLATE_ITEMS {
            many.extend_from_slice(&[0, 0, 1, 0, 0]);
        }
        assert!(parse(&many).unwrap_err().what.contains("more than"));
    }

    /// `n` handles from `first` on, 4 apart (moveable blocks' handles).
    fn fake_handles(first: u16, n: usize) -> Vec<u16> {
        (0..n as u16).map(|i| first + 4 * i).collect()
    }

    #[test]
    fn building_gives_back_everything_when_the_menus_run_out() {
        let items = parse(&sample()).unwrap();
        let mut m = Menus::default();
        let mut next = fake_handles(0x100, super::super::MAX_MENUS + 1).into_iter();
        while m.create(next.next().unwrap(), false) != 0 {}
        let full = m.handles().count();
        // Free one slot: the bar fits, its pop-ups do not.
        let h = m.handles().next().unwrap();
        m.destroy(h);
        assert_eq!(build(&mut m, &fake_handles(0xC000, 8), &items), None);
        assert_eq!(m.handles().count(), full - 1);
        assert_eq!(m.item_count(), 0);
    }

    use proptest::prelude::*;

    proptest! {
        #[test]
        fn arbitrary_bytes_never_panic(b in proptest::collection::vec(any::<u8>(), 0..600)) {
            if let Ok(items) = parse(&b) {
                let mut m = Menus::default();
                let _ = build(&mut m, &fake_handles(0x100, 4), &items);
            }
        }

        #[test]
        fn encoded_trees_parse_back(
            texts in proptest::collection::vec("[ -~&]{0,12}", 1..12),
            ids in proptest::collection::vec(any::<u16>(), 12),
            popups in proptest::collection::vec(0usize..4, 12),
        ) {
            // A bar of items, some opening a pop-up of the next few texts.
            let mut items = Vec::new();
            let mut i = 0;
            while i < texts.len() {
                let text = texts[i].replace('\0', "").into_bytes();
                if popups[i] > 0 {
                    let sub: Vec<TemplateItem> = texts[i..(i + popups[i]).min(texts.len())]
                        .iter()
                        .enumerate()
                        .map(|(j, s)| TemplateItem {
                            flags: MF_CHECKED * (j % 2) as u16,
                            id: ids[j],
                            text: s.clone().into_bytes(),
                            items: vec![],
                        })
                        .collect();
                    items.push(TemplateItem { flags: MF_POPUP, id: 0, text, items: sub });
                } else {
                    items.push(TemplateItem { flags: MF_GRAYED, id: ids[i], text, items: vec![] });
                }
                i += 1;
            }
            prop_assert_eq!(parse(&encode(&items)).unwrap(), items);
        }
    }
}
