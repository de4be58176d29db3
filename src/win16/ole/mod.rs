//! OLE 1.0: OLECLI.DLL (the client library) and OLESVR.DLL (the server
//! library) of Windows 3.1, as built-in modules.
//!
//! OLE 1.0 links and embeds objects between programs through DDE
//! conversations that the two libraries hold on the programs' behalf,
//! with the classes, their servers and verbs recorded in the registration
//! database (SHELL's, shell.rs). The part here is what a program meets
//! when it starts and runs on a machine where no other OLE program is
//! running and none of the classes it names has a server installed:
//!
//! - [`server`]: a server program registers its class
//!   (OleRegisterServer: OLE_OK and an LHSERVER when the class is in the
//!   registration database, OLE_ERROR_CLASS when it is not), its
//!   documents (OleRegisterServerDoc), renames, saves, reverts and revokes
//!   them, blocks and unblocks its request queue (which stays empty: no
//!   client ever connects);
//! - [`client`]: a client program registers its documents
//!   (OleRegisterClientDoc at File/New and File/Open), renames, saves,
//!   reverts and revokes them, enumerates their objects, and asks whether
//!   the clipboard holds something to embed or link (the Edit menu's
//!   Paste and Paste Link), which depends on the formats on the clipboard
//!   as OLE 1.0 defines them (`Native` and `OwnerLink` for an embedded
//!   object, `ObjectLink` for a link, a picture for a static object).
//!   Creating an object needs its server: OleCreate and its relatives
//!   answer OLE_ERROR_CLASS for a class that is not registered as an
//!   StdFileEditing server, and OLE_ERROR_LAUNCH for one that is, since no
//!   server is started here; a client document therefore never holds an
//!   object, and the functions on objects answer OLE_ERROR_OBJECT (no
//!   object pointer a program can hold was made by OLECLI).
//!
//! Handles (LHSERVER, LHSERVERDOC, LHCLIENTDOC) are LONGs that OLE
//! defines as opaque; here each kind counts up from its own base, and a
//! revoked handle is never valid again.
//!
//! OleQueryClientVersion and OleQueryServerVersion return version 1.0:
//! the major version in the low byte of the low word (1), the minor in
//! its high byte (0); the high word is reserved (0). The status codes are
//! OLE.H's.

pub mod client;
pub mod server;

use std::collections::BTreeMap;

/// OLESTATUS values (OLE.H).
pub mod status {
    pub const OLE_OK: u32 = 0;
    pub const OLE_WAIT_FOR_RELEASE: u32 = 1;
    pub const OLE_ERROR_MEMORY: u32 = 4;
    pub const OLE_ERROR_CLIPBOARD: u32 = 11;
    pub const OLE_ERROR_FORMAT: u32 = 12;
    pub const OLE_ERROR_OBJECT: u32 = 13;
    pub const OLE_ERROR_OPTION: u32 = 14;
    pub const OLE_ERROR_PROTOCOL: u32 = 15;
    pub const OLE_ERROR_ADDRESS: u32 = 16;
    pub const OLE_ERROR_HANDLE: u32 = 18;
    pub const OLE_ERROR_CLASS: u32 = 20;
    pub const OLE_ERROR_NOT_EMPTY: u32 = 25;
    pub const OLE_ERROR_NAME: u32 = 29;
    pub const OLE_ERROR_LAUNCH: u32 = 35;
    pub const OLE_ERROR_ALREADY_REGISTERED: u32 = 49;
}

/// OLE 1.0's version for OleQueryClientVersion and OleQueryServerVersion
/// (module doc).
pub const OLE_VERSION: u32 = 0x0001;

/// The most handles of each kind that may be live at once.
pub const MAX_HANDLES: usize = 1024;

/// The first handle of each kind.
pub const SERVER_BASE: u32 = 0x5352_0001;
pub const SERVER_DOC_BASE: u32 = 0x5344_0001;
pub const CLIENT_DOC_BASE: u32 = 0x4344_0001;

/// A registered server (OleRegisterServer).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Server {
    pub class: String,
    /// The program's OLESERVER structure (a far pointer).
    pub lpserver: u32,
    pub hinstance: u16,
    /// OLE_SERVER_SINGLE (1) or OLE_SERVER_MULTI (0).
    pub single: bool,
    pub blocked: bool,
}

/// A registered server document (OleRegisterServerDoc).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerDoc {
    pub server: u32,
    pub name: String,
    pub lpdoc: u32,
}

/// A registered client document (OleRegisterClientDoc).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientDoc {
    pub class: String,
    pub name: String,
}

/// A table of live handles of one kind, counting up from a base.
#[derive(Debug, Clone)]
pub struct Handles<T> {
    next: u32,
    pub live: BTreeMap<u32, T>,
}

impl<T> Handles<T> {
    pub fn new(base: u32) -> Self {
        Handles {
            next: base,
            live: BTreeMap::new(),
        }
    }

    /// A new handle for `v`, or None when [`MAX_HANDLES`] are live.
    pub fn add(&mut self, v: T) -> Option<u32> {
        if self.live.len() >= MAX_HANDLES {
            return None;
        }
        let h = self.next;
        self.next = self.next.wrapping_add(1);
        self.live.insert(h, v);
        Some(h)
    }
}

/// OLECLI's and OLESVR's state.
#[derive(Debug, Clone)]
pub struct OleState {
    pub servers: Handles<Server>,
    pub server_docs: Handles<ServerDoc>,
    pub client_docs: Handles<ClientDoc>,
}

impl Default for OleState {
    fn default() -> Self {
        OleState {
            servers: Handles::new(SERVER_BASE),
            server_docs: Handles::new(SERVER_DOC_BASE),
            client_docs: Handles::new(CLIENT_DOC_BASE),
        }
    }
}

/// Is `class` registered as an OLE server of `protocol` (the registration
/// database has `class\protocol\<protocol>\server`)?
pub fn has_server(env: &mut crate::win16::Env, class: &str, protocol: &str) -> bool {
    !class.is_empty()
        && !class.contains('\\')
        && env
            .win16
            .shell
            .value_at(&format!("{class}\\protocol\\{protocol}\\server"))
            .is_some_and(|v| !v.is_empty())
}

/// Is `class` a key of the registration database?
pub fn class_registered(env: &mut crate::win16::Env, class: &str) -> bool {
    !class.is_empty() && !class.contains('\\') && env.win16.shell.key_exists(class)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_count_up_and_are_bounded() {
        let mut h = Handles::new(CLIENT_DOC_BASE);
        assert_eq!(h.add(1), Some(CLIENT_DOC_BASE));
        assert_eq!(h.add(2), Some(CLIENT_DOC_BASE + 1));
        h.live.remove(&CLIENT_DOC_BASE);
        assert_eq!(h.add(3), Some(CLIENT_DOC_BASE + 2));
        for i in 0..MAX_HANDLES {
            let _ = h.add(i);
        }
        assert_eq!(h.live.len(), MAX_HANDLES);
        assert_eq!(h.add(0), None);
    }
}
