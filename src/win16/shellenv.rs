//! SHELL's DOS-environment functions, which Program Manager and File
//! Manager use on command lines and paths (undocumented in the Windows
//! 3.1 SDK; Wine's SHELL notes give what they do).
//!
//! Both read the current task's DOS environment block (GetDOSEnvironment:
//! `NAME=value` strings, each ending in NUL, the block in another NUL),
//! where KERNEL put it when the task started; names compare without
//! regard to case, as COMMAND.COM's upper-case names are typed in any
//! case.
//!
//! - DoEnvironmentSubst(szString, cbString) replaces each `%NAME%` of the
//!   string in place with the variable's value (a name not in the
//!   environment is left as it is, `%` signs and all). It returns
//!   MAKELONG(the new length, TRUE); when the result and its NUL do not
//!   fit in `cbString` bytes the string is not changed and it returns
//!   MAKELONG(the old length, FALSE).
//! - FindEnvironmentString(szEnvVar): a far pointer to the variable's
//!   value in the environment block (the byte after `=`), NULL when the
//!   variable is not there.

use crate::machine::{Cpu, Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};
use crate::win16::farptr;

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new(
        "SHELL",
        37,
        "DOENVIRONMENTSUBST",
        &[Arg::L, Arg::W],
        do_environment_subst,
    ),
    Api::new(
        "SHELL",
        38,
        "FINDENVIRONMENTSTRING",
        &[Arg::L],
        find_environment_string,
    ),
];

/// The environment block of the current task: (selector, bytes).
fn block(env: &Env, uc: &Uc<'_>) -> Option<(u16, Vec<u8>)> {
    let sel = env.win16.task(uc.get_data().current_task)?.env_sel;
    let size = uc.descriptor_of(sel).map_or(0, |d| d.limit + 1);
    let bytes = farptr::read_bytes(uc, u32::from(sel) << 16, size.min(0x8000) as usize)?;
    Some((sel, bytes))
}

/// The variables of an environment block: (name, offset of the value,
/// value), up to the empty string that ends the block.
pub fn variables(b: &[u8]) -> Vec<(&[u8], usize, &[u8])> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < b.len() && b[at] != 0 {
        let end = b[at..]
            .iter()
            .position(|&c| c == 0)
            .map_or(b.len(), |n| at + n);
        let s = &b[at..end];
        if let Some(eq) = s.iter().position(|&c| c == b'=') {
            out.push((&s[..eq], at + eq + 1, &s[eq + 1..]));
        }
        at = end + 1;
    }
    out
}

/// The value of `name` among `vars`.
fn lookup<'a>(vars: &[(&[u8], usize, &'a [u8])], name: &[u8]) -> Option<&'a [u8]> {
    vars.iter()
        .find(|(n, _, _)| n.eq_ignore_ascii_case(name))
        .map(|&(_, _, v)| v)
}

/// `s` with each `%NAME%` whose NAME `value` knows replaced (module doc).
pub fn substitute(s: &[u8], value: impl Fn(&[u8]) -> Option<Vec<u8>>) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        if s[i] == b'%' {
            if let Some(len) = s[i + 1..].iter().position(|&c| c == b'%') {
                let name = &s[i + 1..i + 1 + len];
                if let Some(v) = value(name).filter(|_| !name.is_empty()) {
                    out.extend_from_slice(&v);
                    i += len + 2;
                    continue;
                }
            }
        }
        out.push(s[i]);
        i += 1;
    }
    out
}

/// SHELL.37 DoEnvironmentSubst(szString, cbString) (module doc).
pub fn do_environment_subst(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let cb = usize::from(a[1] as u16);
    let Some(s) = farptr::read_cstr(uc, a[0], farptr::MAX_STRING) else {
        return Ok(0);
    };
    let b = block(env, uc).map(|(_, b)| b).unwrap_or_default();
    let vars = variables(&b);
    let new = substitute(&s, |n| lookup(&vars, n).map(<[u8]>::to_vec));
    if new.len() + 1 > cb {
        return Ok(s.len() as u32);
    }
    let mut w = new.clone();
    w.push(0);
    farptr::write_bytes(uc, a[0], &w);
    Ok(new.len() as u32 | 1 << 16)
}

/// SHELL.38 FindEnvironmentString(szEnvVar) (module doc).
pub fn find_environment_string(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(name) = farptr::read_cstr(uc, a[0], 256) else {
        return Ok(0);
    };
    let Some((sel, b)) = block(env, uc) else {
        return Ok(0);
    };
    Ok(variables(&b)
        .iter()
        .find(|(n, _, _)| n.eq_ignore_ascii_case(&name))
        .map_or(0, |&(_, off, _)| farptr::make(sel, off as u16)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variables_of_a_block() {
        let b = b"PATH=C:\\DOS\0TEMP=C:\\TMP\0\0junk";
        let v = variables(b);
        assert_eq!(v.len(), 2);
        assert_eq!(v[1], (&b"TEMP"[..], 17, &b"C:\\TMP"[..]));
    }

    #[test]
    fn substitution_keeps_unknown_names() {
        let val = |n: &[u8]| {
            n.eq_ignore_ascii_case(b"windir")
                .then(|| b"C:\\WINDOWS".to_vec())
        };
        assert_eq!(
            substitute(b"%windir%\\x %NOPE% 100%", val),
            b"C:\\WINDOWS\\x %NOPE% 100%".to_vec()
        );
        assert_eq!(substitute(b"%%", val), b"%%".to_vec());
    }

    proptest::proptest! {
        /// Any environment block and any string: no panic, and a string
        /// without `%` comes back as it was.
        #[test]
        fn any_block_and_string(b in proptest::collection::vec(proptest::num::u8::ANY, 0..200),
                                s in proptest::collection::vec(proptest::num::u8::ANY, 0..100)) {
            let vars = variables(&b);
            for (_, off, v) in &vars {
                proptest::prop_assert!(off + v.len() <= b.len());
            }
            let out = substitute(&s, |n| lookup(&vars, n).map(<[u8]>::to_vec));
            if !s.contains(&b'%') {
                proptest::prop_assert_eq!(out, s);
            }
        }
    }

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }
}
