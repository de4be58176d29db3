//! Window properties: SetProp, GetProp, RemoveProp, EnumProps.
//!
//! A property is a word of data named by a string or an atom (SDK,
//! SetProp). Windows 3.1 names each by a global atom: a string name is
//! added to the global atom table (so GetProp finds it by the string or by
//! MAKEINTATOM of that atom) and deleted with the property. A window's
//! properties go with it; a program should remove them before.

use super::message::with_stack_data;
use super::{Env, Prop, Stop, Uc, callback};
use crate::machine::Cpu;
use crate::win16::api::{Api, Arg};
use crate::win16::callback::CallArg;
use crate::win16::farptr::NameArg;

/// The most properties a window holds.
const MAX_PROPS: usize = 256;

/// The atom a property name argument names, if it exists (`add`: a string
/// name is added).
fn atom_of(env: &mut Env, uc: &Uc<'_>, p: u32, add: bool) -> Option<(u16, bool)> {
    match NameArg::read(uc, p)? {
        NameArg::Int(a) => (a != 0).then_some((a, false)),
        n @ NameArg::Str(_) => {
            let t = &mut env.win16.atoms.global;
            let a = if add { t.add(n) } else { t.find(n) };
            (a != 0).then_some((a, true))
        }
    }
}

/// USER.26 SetProp(hWnd, lpString, hData) -> BOOL.
fn set_prop(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hwnd = a[0] as u16;
    if env.win16.user.app_window(hwnd).is_none() {
        return Ok(0);
    }
    let exists = atom_of(env, uc, a[1], false);
    let data = a[2] as u16;
    if let Some((atom, _)) = exists
        && let Some(w) = env.win16.user.window_mut(hwnd)
        && let Some(p) = w.props.iter_mut().find(|p| p.atom == atom)
    {
        p.data = data;
        super::heap::sync(env, uc, hwnd);
        return Ok(1);
    }
    if env
        .win16
        .user
        .app_window(hwnd)
        .is_some_and(|w| w.props.len() >= MAX_PROPS)
    {
        return Ok(0);
    }
    let Some((atom, string)) = atom_of(env, uc, a[1], true) else {
        return Ok(0);
    };
    // Its block in USER's data segment; none, no property.
    let block = super::heap::alloc_prop(&mut env.win16, uc);
    if block == 0 {
        if string {
            env.win16.atoms.global.delete(atom);
        }
        return Ok(0);
    }
    if let Some(w) = env.win16.user.window_mut(hwnd) {
        w.props.push(Prop {
            atom,
            string,
            data,
            block,
        });
    }
    super::heap::sync(env, uc, hwnd);
    Ok(1)
}

/// USER.25 GetProp(hWnd, lpString) -> the data, 0 when there is none.
fn get_prop(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some((atom, _)) = atom_of(env, uc, a[1], false) else {
        return Ok(0);
    };
    Ok(env
        .win16
        .user
        .window(a[0] as u16)
        .and_then(|w| w.props.iter().find(|p| p.atom == atom))
        .map_or(0, |p| u32::from(p.data)))
}

/// USER.24 RemoveProp(hWnd, lpString) -> the data it held (0 for none).
fn remove_prop(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some((atom, _)) = atom_of(env, uc, a[1], false) else {
        return Ok(0);
    };
    let Some(w) = env.win16.user.window_mut(a[0] as u16) else {
        return Ok(0);
    };
    let Some(i) = w.props.iter().position(|p| p.atom == atom) else {
        return Ok(0);
    };
    let p = w.props.remove(i);
    if p.string {
        env.win16.atoms.global.delete(p.atom);
    }
    super::heap::free_block(&mut env.win16, uc, p.block);
    super::heap::sync(env, uc, a[0] as u16);
    Ok(u32::from(p.data))
}

/// USER.27 EnumProps(hWnd, lpEnumFunc) -> the last value the function
/// returned (-1 when the window has none). The function gets (hWnd, the
/// name — a far pointer to the string, or the atom with selector 0 — and
/// the data), the most recent property first, until it returns 0.
fn enum_props(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hwnd = a[0] as u16;
    let props: Vec<Prop> = env
        .win16
        .user
        .window(hwnd)
        .map(|w| w.props.iter().rev().copied().collect())
        .unwrap_or_default();
    let ds = uc.reg(crate::machine::R::DS);
    let mut last = 0xFFFF;
    for p in props {
        let name = if p.string {
            env.win16.atoms.global.name(p.atom)
        } else {
            None
        };
        let r = match name {
            Some(mut s) => {
                s.push(0);
                with_stack_data(
                    env,
                    uc,
                    &s,
                    |_, _| {},
                    |env, uc, ptr| {
                        callback(
                            env,
                            uc,
                            a[1],
                            ds,
                            &[CallArg::W(hwnd), CallArg::L(ptr), CallArg::W(p.data)],
                        )
                    },
                )?
                .0
            }
            None => callback(
                env,
                uc,
                a[1],
                ds,
                &[
                    CallArg::W(hwnd),
                    CallArg::L(u32::from(p.atom)),
                    CallArg::W(p.data),
                ],
            )?,
        };
        last = r & 0xFFFF;
        if last == 0 {
            break;
        }
    }
    Ok(last)
}

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new("USER", 24, "REMOVEPROP", &[Arg::W, Arg::L], remove_prop),
    Api::new("USER", 25, "GETPROP", &[Arg::W, Arg::L], get_prop),
    Api::new("USER", 26, "SETPROP", &[Arg::W, Arg::L, Arg::W], set_prop),
    Api::new("USER", 27, "ENUMPROPS", &[Arg::W, Arg::L], enum_props),
];

#[cfg(test)]
mod tests {
    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(super::APIS));
    }
}
