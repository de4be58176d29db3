//! OLESVR: a server program's registration of its class and documents
//! (the module doc of `ole` says what part of OLE 1.0 is here).
//!
//! Results (Windows 3.1 SDK, OLE functions; codes from OLE.H):
//! - OleRegisterServer(lpszClass, lpsrvr, lplhserver, hinst, srvruse):
//!   OLE_ERROR_ADDRESS for an unreadable class name or OLESERVER, or an
//!   unwritable LHSERVER; OLE_ERROR_CLASS when the class is not in the
//!   registration database; else OLE_OK and the new LHSERVER.
//! - OleRegisterServerDoc(lhsrvr, lpszDocName, lpdoc, lplhdoc):
//!   OLE_ERROR_HANDLE for a server not registered, OLE_ERROR_ADDRESS for
//!   an unreadable name or document or an unwritable LHSERVERDOC, else
//!   OLE_OK and the new LHSERVERDOC.
//! - OleRevokeServer revokes the server and all its documents; OLE_OK
//!   (never OLE_WAIT_FOR_RELEASE: no client holds a conversation).
//! - OleRevokeServerDoc, OleRenameServerDoc (the new name kept),
//!   OleSavedServerDoc, OleRevertServerDoc: OLE_OK for a registered
//!   document, OLE_ERROR_HANDLE otherwise; there is no client to notify.
//! - OleBlockServer queues the requests of clients from then on;
//!   OleUnblockServer(lhsrvr, lpfRequest) handles one queued request and
//!   sets `*lpfRequest` to whether more remain: the queue is always empty
//!   here, so it sets FALSE, and the server is no longer blocked.
//! - OleRevokeObject(lpclient): OLE_OK; no client is linked to an object
//!   of the server, so there is nothing to revoke.

use super::status::*;
use super::{OLE_VERSION, Server, ServerDoc};
use crate::machine::{Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};
use crate::win16::farptr;

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new(
        "OLESVR",
        2,
        "OLEREGISTERSERVER",
        &[Arg::L, Arg::L, Arg::L, Arg::W, Arg::W],
        ole_register_server,
    ),
    Api::new("OLESVR", 3, "OLEREVOKESERVER", &[Arg::L], ole_revoke_server),
    Api::new("OLESVR", 4, "OLEBLOCKSERVER", &[Arg::L], ole_block_server),
    Api::new(
        "OLESVR",
        5,
        "OLEUNBLOCKSERVER",
        &[Arg::L, Arg::L],
        ole_unblock_server,
    ),
    Api::new(
        "OLESVR",
        6,
        "OLEREGISTERSERVERDOC",
        &[Arg::L, Arg::L, Arg::L, Arg::L],
        ole_register_server_doc,
    ),
    Api::new(
        "OLESVR",
        7,
        "OLEREVOKESERVERDOC",
        &[Arg::L],
        ole_revoke_server_doc,
    ),
    Api::new(
        "OLESVR",
        8,
        "OLERENAMESERVERDOC",
        &[Arg::L, Arg::L],
        ole_rename_server_doc,
    ),
    Api::new(
        "OLESVR",
        9,
        "OLEREVERTSERVERDOC",
        &[Arg::L],
        ole_server_doc_ok,
    ),
    Api::new(
        "OLESVR",
        10,
        "OLESAVEDSERVERDOC",
        &[Arg::L],
        ole_server_doc_ok,
    ),
    Api::new(
        "OLESVR",
        11,
        "OLEREVOKEOBJECT",
        &[Arg::L],
        ole_revoke_object,
    ),
    Api::new(
        "OLESVR",
        12,
        "OLEQUERYSERVERVERSION",
        &[],
        ole_query_server_version,
    ),
];

/// A name argument: None when the pointer is NULL or unreadable.
pub(super) fn name_arg(uc: &Uc<'_>, p: u32) -> Option<String> {
    if p == 0 {
        return None;
    }
    farptr::read_cstr(uc, p, farptr::MAX_STRING).map(|s| String::from_utf8_lossy(&s).into_owned())
}

/// Store a LONG handle at `p`; false when `p` is NULL or unwritable.
pub(super) fn put_long(uc: &mut Uc<'_>, p: u32, v: u32) -> bool {
    p != 0 && farptr::write_bytes(uc, p, &v.to_le_bytes())
}

/// Can the program's structure at `p` be read (its first far pointer)?
pub(super) fn readable(uc: &Uc<'_>, p: u32) -> bool {
    p != 0 && farptr::read_bytes(uc, p, 4).is_some()
}

/// OLESVR.2 OleRegisterServer (module doc).
pub fn ole_register_server(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(class) = name_arg(uc, a[0]) else {
        return Ok(OLE_ERROR_ADDRESS);
    };
    if !readable(uc, a[1]) || !put_long(uc, a[2], 0) {
        return Ok(OLE_ERROR_ADDRESS);
    }
    if !super::class_registered(env, &class) {
        return Ok(OLE_ERROR_CLASS);
    }
    let server = Server {
        class,
        lpserver: a[1],
        hinstance: a[3] as u16,
        single: a[4] as u16 == 1,
        blocked: false,
    };
    let Some(h) = env.win16.ole.servers.add(server) else {
        return Ok(OLE_ERROR_MEMORY);
    };
    put_long(uc, a[2], h);
    Ok(OLE_OK)
}

/// OLESVR.3 OleRevokeServer(lhsrvr) (module doc).
pub fn ole_revoke_server(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let ole = &mut env.win16.ole;
    if ole.servers.live.remove(&a[0]).is_none() {
        return Ok(OLE_ERROR_HANDLE);
    }
    ole.server_docs.live.retain(|_, d| d.server != a[0]);
    Ok(OLE_OK)
}

/// OLESVR.4 OleBlockServer(lhsrvr) (module doc).
pub fn ole_block_server(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    match env.win16.ole.servers.live.get_mut(&a[0]) {
        Some(s) => {
            s.blocked = true;
            Ok(OLE_OK)
        }
        None => Ok(OLE_ERROR_HANDLE),
    }
}

/// OLESVR.5 OleUnblockServer(lhsrvr, lpfRequest) (module doc).
pub fn ole_unblock_server(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(s) = env.win16.ole.servers.live.get_mut(&a[0]) else {
        return Ok(OLE_ERROR_HANDLE);
    };
    if a[1] == 0 || !farptr::write_bytes(uc, a[1], &0u16.to_le_bytes()) {
        return Ok(OLE_ERROR_ADDRESS);
    }
    s.blocked = false;
    Ok(OLE_OK)
}

/// OLESVR.6 OleRegisterServerDoc (module doc).
pub fn ole_register_server_doc(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if !env.win16.ole.servers.live.contains_key(&a[0]) {
        return Ok(OLE_ERROR_HANDLE);
    }
    let Some(name) = name_arg(uc, a[1]) else {
        return Ok(OLE_ERROR_ADDRESS);
    };
    if !readable(uc, a[2]) || !put_long(uc, a[3], 0) {
        return Ok(OLE_ERROR_ADDRESS);
    }
    let doc = ServerDoc {
        server: a[0],
        name,
        lpdoc: a[2],
    };
    let Some(h) = env.win16.ole.server_docs.add(doc) else {
        return Ok(OLE_ERROR_MEMORY);
    };
    put_long(uc, a[3], h);
    Ok(OLE_OK)
}

/// OLESVR.7 OleRevokeServerDoc(lhdoc) (module doc).
pub fn ole_revoke_server_doc(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(match env.win16.ole.server_docs.live.remove(&a[0]) {
        Some(_) => OLE_OK,
        None => OLE_ERROR_HANDLE,
    })
}

/// OLESVR.8 OleRenameServerDoc(lhdoc, lpszDocName) (module doc).
pub fn ole_rename_server_doc(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let name = name_arg(uc, a[1]);
    let Some(d) = env.win16.ole.server_docs.live.get_mut(&a[0]) else {
        return Ok(OLE_ERROR_HANDLE);
    };
    let Some(name) = name else {
        return Ok(OLE_ERROR_ADDRESS);
    };
    d.name = name;
    Ok(OLE_OK)
}

/// OLESVR.9 OleRevertServerDoc(lhdoc), OLESVR.10 OleSavedServerDoc(lhdoc)
/// (module doc).
pub fn ole_server_doc_ok(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(if env.win16.ole.server_docs.live.contains_key(&a[0]) {
        OLE_OK
    } else {
        OLE_ERROR_HANDLE
    })
}

/// OLESVR.11 OleRevokeObject(lpclient) (module doc).
pub fn ole_revoke_object(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(if readable(uc, a[0]) {
        OLE_OK
    } else {
        OLE_ERROR_ADDRESS
    })
}

/// OLESVR.12 OleQueryServerVersion(): OLE 1.0 (`ole` module doc).
pub fn ole_query_server_version(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(OLE_VERSION)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }
}
