//! WINSOCK: Windows Sockets 1.1 on a machine without a network stack.
//!
//! The emulated program is sandboxed and has no network. WSAStartup
//! therefore fails as Windows Sockets fails when the underlying network
//! subsystem is not ready: WSASYSNOTREADY (10091), and every socket
//! function after it fails with SOCKET_ERROR (or INVALID_SOCKET, or NULL)
//! and WSAGetLastError() WSANOTINITIALISED (10093) (Windows Sockets 1.1
//! specification). The byte-order and address functions need no network
//! and work: htons, htonl, ntohs, ntohl, inet_addr (dotted forms with 1 to
//! 4 parts, decimal, octal or hex), inet_ntoa (into a buffer of the task's
//! that the next call overwrites).

use crate::machine::{Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};
use crate::win16::farptr;

/// Functions that fail for want of WSAStartup: (ordinal, name, arguments,
/// what they return).
macro_rules! failing {
    ($($ord:literal $name:literal [$($arg:ident),*] $ret:ident;)*) => {
        &[$(Api::new("WINSOCK", $ord, $name, &[$(Arg::$arg),*], $ret)),*]
    };
}

/// The functions that fail without the network (module notes).
pub static FAILING: &[Api] = failing! {
    1 "ACCEPT" [W, L, L] invalid_socket;
    2 "BIND" [W, L, W] socket_error;
    3 "CLOSESOCKET" [W] socket_error;
    4 "CONNECT" [W, L, W] socket_error;
    5 "GETPEERNAME" [W, L, L] socket_error;
    6 "GETSOCKNAME" [W, L, L] socket_error;
    7 "GETSOCKOPT" [W, W, W, L, L] socket_error;
    12 "IOCTLSOCKET" [W, L, L] socket_error;
    13 "LISTEN" [W, W] socket_error;
    16 "RECV" [W, L, W, W] socket_error;
    17 "RECVFROM" [W, L, W, W, L, L] socket_error;
    18 "SELECT" [W, L, L, L, L] socket_error;
    19 "SEND" [W, L, W, W] socket_error;
    20 "SENDTO" [W, L, W, W, L, W] socket_error;
    21 "SETSOCKOPT" [W, W, W, L, W] socket_error;
    22 "SHUTDOWN" [W, W] socket_error;
    23 "SOCKET" [W, W, W] invalid_socket;
    51 "GETHOSTBYADDR" [L, W, W] null;
    52 "GETHOSTBYNAME" [L] null;
    53 "GETPROTOBYNAME" [L] null;
    54 "GETPROTOBYNUMBER" [W] null;
    55 "GETSERVBYNAME" [L, L] null;
    56 "GETSERVBYPORT" [W, L] null;
    57 "GETHOSTNAME" [L, W] socket_error;
    101 "WSAASYNCSELECT" [W, W, W, L] socket_error;
    102 "WSAASYNCGETHOSTBYADDR" [W, W, L, W, W, L, W] null;
    103 "WSAASYNCGETHOSTBYNAME" [W, W, L, L, W] null;
    104 "WSAASYNCGETPROTOBYNUMBER" [W, W, W, L, W] null;
    105 "WSAASYNCGETPROTOBYNAME" [W, W, L, L, W] null;
    106 "WSAASYNCGETSERVBYPORT" [W, W, W, L, L, W] null;
    107 "WSAASYNCGETSERVBYNAME" [W, W, L, L, L, W] null;
    108 "WSACANCELASYNCREQUEST" [W] socket_error;
    109 "WSASETBLOCKINGHOOK" [L] null;
    110 "WSAUNHOOKBLOCKINGHOOK" [] socket_error;
    113 "WSACANCELBLOCKINGCALL" [] socket_error;
    116 "WSACLEANUP" [] socket_error;
};

/// The functions that work (module notes).
pub static APIS: &[Api] = &[
    Api::new("WINSOCK", 8, "HTONL", &[Arg::L], swap32),
    Api::new("WINSOCK", 9, "HTONS", &[Arg::W], swap16),
    Api::new("WINSOCK", 10, "INET_ADDR", &[Arg::L], inet_addr),
    Api::new("WINSOCK", 11, "INET_NTOA", &[Arg::L], inet_ntoa),
    Api::new("WINSOCK", 14, "NTOHL", &[Arg::L], swap32),
    Api::new("WINSOCK", 15, "NTOHS", &[Arg::W], swap16),
    Api::new("WINSOCK", 111, "WSAGETLASTERROR", &[], wsa_get_last_error),
    Api::new(
        "WINSOCK",
        112,
        "WSASETLASTERROR",
        &[Arg::W],
        wsa_set_last_error,
    ),
    Api::new("WINSOCK", 114, "WSAISBLOCKING", &[], wsa_is_blocking),
    Api::new("WINSOCK", 115, "WSASTARTUP", &[Arg::W, Arg::L], wsa_startup),
    Api::new(
        "WINSOCK",
        151,
        "__WSAFDISSET",
        &[Arg::W, Arg::L],
        wsa_fd_is_set,
    ),
    Api::new("WINSOCK", 500, "WEP", &[Arg::W], wep),
];

/// WSASYSNOTREADY.
pub const WSASYSNOTREADY: u32 = 10091;
/// WSANOTINITIALISED.
pub const WSANOTINITIALISED: u32 = 10093;
/// INADDR_NONE.
pub const INADDR_NONE: u32 = 0xFFFF_FFFF;

/// WINSOCK's state: the last error, inet_ntoa's buffer.
#[derive(Clone, Debug, Default)]
pub struct WinsockState {
    pub last_error: u32,
    /// A global block per task for inet_ntoa's text.
    ntoa: std::collections::BTreeMap<u16, u16>,
}

fn fail(env: &mut Env, v: u32) -> Result<u32, Stop> {
    env.win16.winsock.last_error = WSANOTINITIALISED;
    Ok(v)
}

/// SOCKET_ERROR (-1) and WSANOTINITIALISED.
pub fn socket_error(env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    fail(env, 0xFFFF)
}

/// INVALID_SOCKET (-1) and WSANOTINITIALISED.
pub fn invalid_socket(env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    fail(env, 0xFFFF)
}

/// NULL and WSANOTINITIALISED.
pub fn null(env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    fail(env, 0)
}

/// WINSOCK.115 WSAStartup(wVersionRequired, lpWSAData): WSASYSNOTREADY,
/// no network (module notes).
pub fn wsa_startup(env: &mut Env, uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    crate::machine::record_event(uc, "WSAStartup: no network stack".into());
    env.win16.winsock.last_error = WSASYSNOTREADY;
    Ok(WSASYSNOTREADY)
}

/// WINSOCK.111 WSAGetLastError().
pub fn wsa_get_last_error(env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(env.win16.winsock.last_error)
}

/// WINSOCK.112 WSASetLastError(iError).
pub fn wsa_set_last_error(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    env.win16.winsock.last_error = a[0] & 0xFFFF;
    Ok(0)
}

/// WINSOCK.114 WSAIsBlocking(): FALSE.
pub fn wsa_is_blocking(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(0)
}

/// WINSOCK.151 __WSAFDIsSet(s, lpfdset): whether the socket is in the set
/// (u_short fd_count, then the sockets).
pub fn wsa_fd_is_set(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let n = farptr::read_u16(uc, a[1]).unwrap_or(0).min(64);
    let set = farptr::read_bytes(uc, farptr::add(a[1], 2), usize::from(n) * 2).unwrap_or_default();
    Ok(u32::from(
        set.chunks(2)
            .any(|c| u16::from_le_bytes([c[0], c[1]]) == a[0] as u16),
    ))
}

/// WINSOCK.500 WEP: 1.
pub fn wep(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(1)
}

/// htons, ntohs.
pub fn swap16(_env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from((a[0] as u16).swap_bytes()))
}

/// htonl, ntohl.
pub fn swap32(_env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(a[0].swap_bytes())
}

/// One part of a dotted address: decimal, 0-octal or 0x-hex.
fn part(s: &str) -> Option<u32> {
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u32::from_str_radix(h, 16).ok()
    } else if s.len() > 1 && s.starts_with('0') {
        u32::from_str_radix(&s[1..], 8).ok()
    } else {
        s.parse().ok()
    }
}

/// The address in network byte order (as the in_addr's bytes read little
/// endian) of a dotted string; INADDR_NONE when it is not one.
pub fn parse_addr(s: &str) -> u32 {
    let parts: Option<Vec<u32>> = s.trim().split('.').map(part).collect();
    let Some(p) = parts else {
        return INADDR_NONE;
    };
    let host = match p.as_slice() {
        [a] => Some(*a),
        [a, b] if *a < 256 && *b < 1 << 24 => Some(a << 24 | b),
        [a, b, c] if *a < 256 && *b < 256 && *c < 1 << 16 => Some(a << 24 | b << 16 | c),
        [a, b, c, d] if [a, b, c, d].iter().all(|v| **v < 256) => {
            Some(a << 24 | b << 16 | c << 8 | d)
        }
        _ => None,
    };
    host.map_or(INADDR_NONE, u32::swap_bytes)
}

/// WINSOCK.10 inet_addr(cp).
pub fn inet_addr(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let s = farptr::read_cstr(uc, a[0], 64).unwrap_or_default();
    Ok(parse_addr(&String::from_utf8_lossy(&s)))
}

/// WINSOCK.11 inet_ntoa(in): a far pointer to "a.b.c.d" (module notes).
pub fn inet_ntoa(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let b = a[0].to_le_bytes();
    let text = format!("{}.{}.{}.{}\0", b[0], b[1], b[2], b[3]);
    let task = uc.get_data().current_task;
    let block = match env.win16.winsock.ntoa.get(&task) {
        Some(&h) => h,
        None => {
            let h = crate::win16::global::alloc(env, uc, 0, 32);
            if h == 0 {
                return Ok(0);
            }
            env.win16.winsock.ntoa.insert(task, h);
            h
        }
    };
    let p = farptr::make(crate::win16::selector_of_handle(block), 0);
    Ok(if farptr::write_bytes(uc, p, text.as_bytes()) {
        p
    } else {
        0
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_registered() {
        assert!(crate::win16::api::is_registered(APIS));
        assert!(crate::win16::api::is_registered(FAILING));
    }

    #[test]
    fn dotted_addresses() {
        assert_eq!(parse_addr("127.0.0.1"), 0x0100_007F);
        assert_eq!(parse_addr("10.1"), 0x0100_000A);
        assert_eq!(parse_addr("0x7f.1"), 0x0100_007F);
        assert_eq!(parse_addr("010.0.0.1"), 0x0100_0008);
        assert_eq!(parse_addr("256.0.0.1"), INADDR_NONE);
        assert_eq!(parse_addr("a.b"), INADDR_NONE);
    }
}
