//! Window classes: RegisterClass.

use super::{MAX_CLASSES, WndClass, get, string_arg};
use crate::env::Env;
use crate::machine::{Cpu, Stop, Uc};
use crate::win16::api::{Api, Arg};
use crate::win16::farptr::split;

/// USER.57 RegisterClass(lpWndClass) -> ATOM.
fn register_class(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (seg, off) = split(a[0]);
    let mut b = [0u8; 0x1A];
    if uc.read_seg(seg, off, &mut b).is_err() {
        return Ok(0);
    }
    let name_p = u32::from(get(&b, 0x18)) << 16 | u32::from(get(&b, 0x16));
    let menu_p = u32::from(get(&b, 0x14)) << 16 | u32::from(get(&b, 0x12));
    // Class names keep their case and compare without it, like atoms.
    let name = string_arg(uc, name_p);
    let u = &mut env.win16.user;
    if u.classes.iter().any(|c| c.name.eq_ignore_ascii_case(&name))
        || u.classes.len() >= MAX_CLASSES
    {
        return Ok(0);
    }
    let atom = 0xC000 + u.classes.len() as u16;
    u.classes.push(WndClass {
        name,
        atom,
        style: get(&b, 0),
        wndproc: (get(&b, 4), get(&b, 2)),
        cls_extra: get(&b, 6),
        wnd_extra: get(&b, 8),
        hinstance: get(&b, 0x0A),
        menu: (menu_p != 0).then(|| string_arg(uc, menu_p)),
    });
    Ok(u32::from(atom))
}

/// The functions this file implements.
pub static APIS: &[Api] = &[Api::new(
    "USER",
    57,
    "REGISTERCLASS",
    &[Arg::L],
    register_class,
)];
