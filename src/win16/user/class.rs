//! Window classes: RegisterClass, UnregisterClass, GetClassInfo,
//! GetClassName, Get/SetClassWord and Get/SetClassLong, and USER's own
//! classes.
//!
//! As Windows 3.1 keeps them (SDK, RegisterClass and WNDCLASS; Wine's
//! 3.1-era class.c): a class name is a global atom; an application class
//! belongs to the module that registered it and only that module's
//! windows use it, unless CS_GLOBALCLASS makes it a global class;
//! CreateWindow looks for the module's own class first, then a global
//! class, then USER's own (BUTTON, EDIT, STATIC, LISTBOX, COMBOBOX,
//! SCROLLBAR, MDICLIENT and the dialog class #32770). Registering a name
//! the module (or a global class) already has fails. A class has
//! cbClsExtra bytes of its own, zeroed, and its windows cbWndExtra each.
//! The classes of a module go when its last instance ends.

use super::{
    CS_GLOBALCLASS, Env, GCL_MENUNAME, GCL_WNDPROC, GCW_ATOM, GCW_CBCLSEXTRA, GCW_CBWNDEXTRA,
    GCW_HBRBACKGROUND, GCW_HCURSOR, GCW_HICON, GCW_HMODULE, GCW_STYLE, MAX_CLASSES, Stop, Uc, User,
    WndClass, event, get, get32, makelong, put, string_arg,
};
use crate::win16::api::{Api, Arg};
use crate::win16::farptr::NameArg;

/// WNDCLASS (16-bit): style, lpfnWndProc, cbClsExtra, cbWndExtra,
/// hInstance, hIcon, hCursor, hbrBackground, lpszMenuName,
/// lpszClassName; 26 bytes.
pub const WNDCLASS_SIZE: usize = 0x1A;

/// The most extra bytes a class or window gets.
const MAX_EXTRA: u16 = 1024;

/// The module of an instance handle (0 for none).
fn module_of(env: &Env, hinstance: u16) -> u16 {
    env.win16
        .module_for_handle(hinstance)
        .map_or(0, |i| env.win16.modules[i].hmodule)
}

/// USER's own classes are registered at start-up (controls/mod.rs); the
/// first time the window manager needs them they get their cursors: the
/// I-beam for EDIT, the arrow for the others.
pub fn ensure_system_classes(env: &mut Env, uc: &mut Uc<'_>) {
    if !env
        .win16
        .user
        .classes
        .iter()
        .any(|c| c.hmodule == 0 && c.hcursor == 0)
    {
        return;
    }
    let arrow = super::cursor::stock_cursor(env, uc, super::cursor::IDC_ARROW);
    let ibeam = super::cursor::stock_cursor(env, uc, super::cursor::IDC_IBEAM);
    for c in env.win16.user.classes.iter_mut() {
        if c.hmodule == 0 && c.hcursor == 0 {
            c.hcursor = if c.name == "EDIT" { ibeam } else { arrow };
        }
    }
    super::heap::sync_classes(env, uc);
}

/// Does the class have this name (a string, compared without case, or an
/// atom)?
fn named(c: &WndClass, name: &NameArg) -> bool {
    match name {
        NameArg::Int(a) => c.atom == *a,
        NameArg::Str(s) => c.name.as_bytes().eq_ignore_ascii_case(s),
    }
}

/// The class CreateWindow (and GetClassInfo) finds for a name and an
/// instance: the module's own, then a global one, then USER's.
pub fn find_class<'a>(
    env: &'a Env,
    uc: &Uc<'_>,
    name: u32,
    hinstance: u16,
) -> Option<&'a WndClass> {
    let name = NameArg::read(uc, name)?;
    find_named(env, &name, hinstance)
}

fn find_named<'a>(env: &'a Env, name: &NameArg, hinstance: u16) -> Option<&'a WndClass> {
    let m = module_of(env, hinstance);
    let classes = &env.win16.user.classes;
    classes
        .iter()
        .find(|c| m != 0 && c.hmodule == m && !c.global && named(c, name))
        .or_else(|| {
            classes
                .iter()
                .find(|c| c.global && c.hmodule != 0 && named(c, name))
        })
        .or_else(|| classes.iter().find(|c| c.hmodule == 0 && named(c, name)))
}

/// USER.57 RegisterClass(lpWndClass) -> the class atom, 0 on failure.
fn register_class(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    ensure_system_classes(env, uc);
    let Some(b) = crate::win16::farptr::read_bytes(uc, a[0], WNDCLASS_SIZE) else {
        return Ok(0);
    };
    let name_p = get32(&b, 0x16);
    let menu_p = get32(&b, 0x12);
    let Some(NameArg::Str(name)) = NameArg::read(uc, name_p) else {
        return Ok(0);
    };
    let name = String::from_utf8_lossy(&name).into_owned();
    let style = get(&b, 0);
    let hinstance = get(&b, 0x0A);
    let hmodule = module_of(env, hinstance);
    let global = style & CS_GLOBALCLASS != 0;
    let u = &env.win16.user;
    let key = NameArg::Str(name.as_bytes().to_vec());
    let taken = u.classes.iter().any(|c| {
        named(c, &key) && c.hmodule != 0 && (c.hmodule == hmodule || (c.global && global))
    });
    if taken || u.classes.len() >= MAX_CLASSES {
        event(
            uc,
            format!("RegisterClass {name:?} fails: already registered"),
        );
        return Ok(0);
    }
    let atom = env.win16.atoms.global.add(key);
    if atom == 0 {
        return Ok(0);
    }
    let menu = (menu_p != 0).then(|| string_arg(uc, menu_p));
    let cls_extra = get(&b, 6).min(MAX_EXTRA);
    // The class structure and its extra bytes: a block of USER's data
    // segment (heap.rs).
    let block = super::heap::alloc_class(&mut env.win16, uc, cls_extra);
    if block == 0 {
        event(
            uc,
            format!("RegisterClass {name:?} fails: USER's heap has no room"),
        );
        env.win16.atoms.global.delete(atom);
        return Ok(0);
    }
    env.win16.user.classes.push(WndClass {
        name: name.clone(),
        atom,
        style,
        wndproc: (get(&b, 4), get(&b, 2)),
        cls_extra,
        wnd_extra: get(&b, 8).min(MAX_EXTRA),
        hinstance,
        hicon: get(&b, 0x0C),
        hcursor: get(&b, 0x0E),
        hbrush: get(&b, 0x10),
        menu,
        menu_ptr: menu_p,
        extra: vec![0; usize::from(cls_extra)],
        hmodule,
        global,
        block,
    });
    // A CS_CLASSDC class's DC and its entry in USER's heap (dce.rs).
    if !super::dce::class_registered(env, uc, block, style) {
        event(
            uc,
            format!("RegisterClass {name:?} fails: no room for the class DC"),
        );
        env.win16.user.classes.pop();
        env.win16.atoms.global.delete(atom);
        super::heap::free_block(&mut env.win16, uc, block);
        super::heap::sync_classes(env, uc);
        return Ok(0);
    }
    super::heap::sync_classes(env, uc);
    Ok(u32::from(atom))
}

/// USER.403 UnregisterClass(lpszClassName, hInstance) -> BOOL: FALSE
/// while windows of the class exist, or for a class the module does not
/// own.
fn unregister_class(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(name) = NameArg::read(uc, a[0]) else {
        return Ok(0);
    };
    let m = module_of(env, a[1] as u16);
    let u = &env.win16.user;
    let Some(i) = u
        .classes
        .iter()
        .position(|c| c.hmodule != 0 && c.hmodule == m && named(c, &name))
    else {
        return Ok(0);
    };
    let (atom, cname) = (u.classes[i].atom, u.classes[i].name.clone());
    if u.live().any(|w| w.class_atom == atom && w.class == cname) {
        return Ok(0);
    }
    let c = env.win16.user.classes.remove(i);
    env.win16.atoms.global.delete(atom);
    super::dce::class_gone(env, uc, c.block);
    super::heap::free_block(&mut env.win16, uc, c.block);
    super::heap::sync_classes(env, uc);
    Ok(1)
}

/// USER.404 GetClassInfo(hInstance, lpClassName, lpWndClass) -> BOOL.
fn get_class_info(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    ensure_system_classes(env, uc);
    let Some(c) = find_class(env, uc, a[1], a[0] as u16).cloned() else {
        return Ok(0);
    };
    let mut b = [0u8; WNDCLASS_SIZE];
    put(&mut b, 0, c.style);
    put(&mut b, 2, c.wndproc.1);
    put(&mut b, 4, c.wndproc.0);
    put(&mut b, 6, c.cls_extra);
    put(&mut b, 8, c.wnd_extra);
    put(&mut b, 0x0A, c.hinstance);
    put(&mut b, 0x0C, c.hicon);
    put(&mut b, 0x0E, c.hcursor);
    put(&mut b, 0x10, c.hbrush);
    b[0x12..0x16].copy_from_slice(&c.menu_ptr.to_le_bytes());
    b[0x16..0x1A].copy_from_slice(&a[1].to_le_bytes());
    Ok(u32::from(crate::win16::farptr::write_bytes(uc, a[2], &b)))
}

/// USER.58 GetClassName(hWnd, lpClassName, nMaxCount) -> the length
/// copied.
fn get_class_name(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(w) = env.win16.user.window(a[0] as u16) else {
        return Ok(0);
    };
    let name = w.class.clone().into_bytes();
    let size = crate::win16::farptr::int_size(a[2]);
    Ok(crate::win16::farptr::write_cstr_truncated(uc, a[1], &name, size).map_or(0, |n| n as u32))
}

/// The class of a window, to change.
fn class_mut(u: &mut User, hwnd: u16) -> Option<&mut WndClass> {
    let w = u.window(hwnd)?;
    let (atom, name) = (w.class_atom, w.class.clone());
    u.classes
        .iter_mut()
        .find(|c| c.atom == atom && c.name == name)
}

fn extra_get(c: &WndClass, off: i16, n: usize) -> Option<u32> {
    let o = usize::try_from(off).ok()?;
    let b = c.extra.get(o..o + n)?;
    Some(b.iter().rev().fold(0u32, |v, &x| v << 8 | u32::from(x)))
}

fn extra_set(c: &mut WndClass, off: i16, n: usize, v: u32) -> Option<u32> {
    let old = extra_get(c, off, n)?;
    let o = usize::try_from(off).ok()?;
    c.extra[o..o + n].copy_from_slice(&v.to_le_bytes()[..n]);
    Some(old)
}

/// USER.129 GetClassWord(hWnd, nIndex): the class extra bytes, or a GCW_
/// field.
fn get_class_word(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(c) = env.win16.user.class_of(a[0] as u16) else {
        return Ok(0);
    };
    Ok(match a[1] as u16 as i16 {
        GCW_HBRBACKGROUND => u32::from(c.hbrush),
        GCW_HCURSOR => u32::from(c.hcursor),
        GCW_HICON => u32::from(c.hicon),
        GCW_HMODULE => u32::from(c.hmodule),
        GCW_CBWNDEXTRA => u32::from(c.wnd_extra),
        GCW_CBCLSEXTRA => u32::from(c.cls_extra),
        GCW_STYLE => u32::from(c.style),
        GCW_ATOM => u32::from(c.atom),
        i => extra_get(c, i, 2).unwrap_or(0),
    })
}

/// USER.130 SetClassWord(hWnd, nIndex, wNewWord) -> the old value.
fn set_class_word(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let r = set_class_word_in(env, uc, a)?;
    if let Some(atom) = env.win16.user.class_of(a[0] as u16).map(|c| c.atom) {
        super::heap::sync_class(env, uc, atom);
    }
    Ok(r)
}

fn set_class_word_in(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let v = a[2] as u16;
    let Some(c) = class_mut(&mut env.win16.user, a[0] as u16) else {
        return Ok(0);
    };
    let slot = |f: &mut u16| u32::from(std::mem::replace(f, v));
    Ok(match a[1] as u16 as i16 {
        GCW_HBRBACKGROUND => slot(&mut c.hbrush),
        GCW_HCURSOR => slot(&mut c.hcursor),
        GCW_HICON => slot(&mut c.hicon),
        GCW_HMODULE => slot(&mut c.hmodule),
        GCW_CBWNDEXTRA => slot(&mut c.wnd_extra),
        GCW_CBCLSEXTRA => u32::from(c.cls_extra),
        GCW_STYLE => slot(&mut c.style),
        GCW_ATOM => u32::from(c.atom),
        i => extra_set(c, i, 2, u32::from(v)).unwrap_or(0),
    })
}

/// USER.131 GetClassLong(hWnd, nIndex): GCL_WNDPROC, GCL_MENUNAME or the
/// class extra bytes.
fn get_class_long(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(c) = env.win16.user.class_of(a[0] as u16) else {
        return Ok(0);
    };
    Ok(match a[1] as u16 as i16 {
        GCL_WNDPROC => makelong(c.wndproc.1, c.wndproc.0),
        GCL_MENUNAME => c.menu_ptr,
        i => extra_get(c, i, 4).unwrap_or(0),
    })
}

/// USER.132 SetClassLong(hWnd, nIndex, dwNewLong) -> the old value
/// (GCL_WNDPROC changes the procedure of windows created afterwards).
fn set_class_long(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let r = set_class_long_in(env, uc, a)?;
    if let Some(atom) = env.win16.user.class_of(a[0] as u16).map(|c| c.atom) {
        super::heap::sync_class(env, uc, atom);
    }
    Ok(r)
}

fn set_class_long_in(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let v = a[2];
    let menu = (a[1] as u16 as i16 == GCL_MENUNAME && v != 0).then(|| string_arg(uc, v));
    let Some(c) = class_mut(&mut env.win16.user, a[0] as u16) else {
        return Ok(0);
    };
    Ok(match a[1] as u16 as i16 {
        GCL_WNDPROC => {
            let old = makelong(c.wndproc.1, c.wndproc.0);
            c.wndproc = ((v >> 16) as u16, v as u16);
            old
        }
        GCL_MENUNAME => {
            c.menu = menu;
            std::mem::replace(&mut c.menu_ptr, v)
        }
        i => extra_set(c, i, 4, v).unwrap_or(0),
    })
}

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new("USER", 57, "REGISTERCLASS", &[Arg::L], register_class),
    Api::new(
        "USER",
        58,
        "GETCLASSNAME",
        &[Arg::W, Arg::L, Arg::W],
        get_class_name,
    ),
    Api::new(
        "USER",
        129,
        "GETCLASSWORD",
        &[Arg::W, Arg::W],
        get_class_word,
    ),
    Api::new(
        "USER",
        130,
        "SETCLASSWORD",
        &[Arg::W, Arg::W, Arg::W],
        set_class_word,
    ),
    Api::new(
        "USER",
        131,
        "GETCLASSLONG",
        &[Arg::W, Arg::W],
        get_class_long,
    ),
    Api::new(
        "USER",
        132,
        "SETCLASSLONG",
        &[Arg::W, Arg::W, Arg::L],
        set_class_long,
    ),
    Api::new(
        "USER",
        403,
        "UNREGISTERCLASS",
        &[Arg::L, Arg::W],
        unregister_class,
    ),
    Api::new(
        "USER",
        404,
        "GETCLASSINFO",
        &[Arg::W, Arg::L, Arg::L],
        get_class_info,
    ),
];

#[cfg(test)]
mod tests {
    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(super::APIS));
    }
}
