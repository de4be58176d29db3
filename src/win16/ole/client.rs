//! OLECLI: a client program's documents, its questions about the
//! clipboard, and object creation (the module doc of `ole` says what part
//! of OLE 1.0 is here).
//!
//! Results (Windows 3.1 SDK, OLE functions; codes from OLE.H):
//! - OleRegisterClientDoc(lpszClass, lpszDoc, reserved, lplhdoc): OLE_OK
//!   and a new LHCLIENTDOC; OLE_ERROR_ADDRESS for an unreadable name or
//!   an unwritable handle. OleRenameClientDoc keeps the new name;
//!   OleSavedClientDoc and OleRevertClientDoc: OLE_OK. OleRevokeClientDoc
//!   forgets the document (OLE_ERROR_NOT_EMPTY would say it still holds
//!   objects, which never happens here). A handle not registered:
//!   OLE_ERROR_HANDLE.
//! - OleEnumObjects(lhdoc, lplpobj): the document's objects one by one,
//!   `*lplpobj` NULL after the last; a document has none here, so it sets
//!   NULL and returns OLE_OK.
//! - OleQueryCreateFromClip(lpszProtocol, renderopt, cfFormat): for
//!   `StdFileEditing`, OLE_OK when the clipboard holds the registered
//!   formats `Native` and `OwnerLink`; for `Static`, when it holds a
//!   picture (CF_METAFILEPICT, CF_DIB or CF_BITMAP); OLE_ERROR_FORMAT
//!   otherwise, and also when `renderopt` is olerender_format and
//!   `cfFormat` is not there. OleQueryLinkFromClip: OLE_OK when the
//!   clipboard holds `ObjectLink` (StdFileEditing only: a static object
//!   cannot be linked, OLE_ERROR_PROTOCOL). Another protocol:
//!   OLE_ERROR_PROTOCOL; a render option past olerender_format:
//!   OLE_ERROR_OPTION.
//! - OleCreate, OleCreateInvisible, OleCreateFromTemplate,
//!   OleCreateFromFile, OleCreateLinkFromFile, OleCreateFromClip,
//!   OleCreateLinkFromClip: `*lplpobj` is set to NULL first
//!   (OLE_ERROR_ADDRESS when it cannot be); OLE_ERROR_HANDLE for a client
//!   document not registered; the protocol and render option as above;
//!   the clipboard's formats as above for the two clipboard functions;
//!   then the object's class (named, or for a file with none named the
//!   class its extension is associated with in the registration
//!   database, or for the clipboard the class in its `OwnerLink` or
//!   `ObjectLink` data) must have an StdFileEditing server registered:
//!   OLE_ERROR_CLASS when it has none, and OLE_ERROR_LAUNCH when it has,
//!   since no server program is started here. A `Static` object from a
//!   picture on the clipboard needs no server, but OLECLI's objects are
//!   not made here: that call stops the run as unimplemented.
//! - The functions on an object (OleDelete, OleRelease, OleDraw,
//!   OleQueryType, ...): OLE_ERROR_OBJECT, since no object exists;
//!   OleEnumFormats answers 0 (no format). OleUnlockServer:
//!   OLE_ERROR_HANDLE (no server was locked).
//! - OleIsDcMeta(hdc): TRUE for a metafile DC (CreateMetaFile's).

use super::server::{name_arg, put_long};
use super::status::*;
use super::{ClientDoc, OLE_VERSION};
use crate::machine::{Cpu, R, Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};
use crate::win16::farptr::{self, NameArg};

use Arg::{L, W};

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new("OLECLI", 2, "OLEDELETE", &[L], no_object),
    Api::new("OLECLI", 3, "OLESAVETOSTREAM", &[L, L], no_object),
    Api::new("OLECLI", 6, "OLECLONE", &[L, L, L, L, L], no_object),
    Api::new(
        "OLECLI",
        7,
        "OLECOPYFROMLINK",
        &[L, L, L, L, L, L],
        no_object,
    ),
    Api::new("OLECLI", 8, "OLEEQUAL", &[L, L], no_object),
    Api::new(
        "OLECLI",
        9,
        "OLEQUERYLINKFROMCLIP",
        &[L, W, W],
        ole_query_link_from_clip,
    ),
    Api::new(
        "OLECLI",
        10,
        "OLEQUERYCREATEFROMCLIP",
        &[L, W, W],
        ole_query_create_from_clip,
    ),
    Api::new(
        "OLECLI",
        11,
        "OLECREATELINKFROMCLIP",
        &[L, L, L, L, L, W, W],
        ole_create_link_from_clip,
    ),
    Api::new(
        "OLECLI",
        12,
        "OLECREATEFROMCLIP",
        &[L, L, L, L, L, W, W],
        ole_create_from_clip,
    ),
    Api::new("OLECLI", 13, "OLECOPYTOCLIPBOARD", &[L], no_object),
    Api::new("OLECLI", 14, "OLEQUERYTYPE", &[L, L], no_object),
    Api::new("OLECLI", 15, "OLESETHOSTNAMES", &[L, L, L], no_object),
    Api::new("OLECLI", 16, "OLESETTARGETDEVICE", &[L, W], no_object),
    Api::new("OLECLI", 17, "OLESETBOUNDS", &[L, L], no_object),
    Api::new("OLECLI", 18, "OLEQUERYBOUNDS", &[L, L], no_object),
    Api::new("OLECLI", 19, "OLEDRAW", &[L, W, L, L, W], no_object),
    Api::new("OLECLI", 20, "OLEQUERYOPEN", &[L], no_object),
    Api::new("OLECLI", 21, "OLEACTIVATE", &[L, W, W, W, W, L], no_object),
    Api::new("OLECLI", 22, "OLEUPDATE", &[L], no_object),
    Api::new("OLECLI", 23, "OLERECONNECT", &[L], no_object),
    Api::new("OLECLI", 24, "OLEGETLINKUPDATEOPTIONS", &[L, L], no_object),
    Api::new("OLECLI", 25, "OLESETLINKUPDATEOPTIONS", &[L, W], no_object),
    Api::new("OLECLI", 26, "OLEENUMFORMATS", &[L, W], ole_enum_formats),
    Api::new("OLECLI", 27, "OLECLOSE", &[L], no_object),
    Api::new("OLECLI", 28, "OLEGETDATA", &[L, W, L], no_object),
    Api::new("OLECLI", 29, "OLESETDATA", &[L, W, W], no_object),
    Api::new("OLECLI", 30, "OLEQUERYPROTOCOL", &[L, L], no_object),
    Api::new("OLECLI", 31, "OLEQUERYOUTOFDATE", &[L], no_object),
    Api::new(
        "OLECLI",
        32,
        "OLEOBJECTCONVERT",
        &[L, L, L, L, L, L],
        no_object,
    ),
    Api::new(
        "OLECLI",
        33,
        "OLECREATEFROMTEMPLATE",
        &[L, L, L, L, L, L, W, W],
        ole_create_from_template,
    ),
    Api::new(
        "OLECLI",
        34,
        "OLECREATE",
        &[L, L, L, L, L, L, W, W],
        ole_create,
    ),
    Api::new("OLECLI", 35, "OLEQUERYRELEASESTATUS", &[L], no_object),
    Api::new("OLECLI", 36, "OLEQUERYRELEASEERROR", &[L], no_object),
    Api::new("OLECLI", 37, "OLEQUERYRELEASEMETHOD", &[L], no_object),
    Api::new(
        "OLECLI",
        38,
        "OLECREATEFROMFILE",
        &[L, L, L, L, L, L, L, W, W],
        ole_create_from_file,
    ),
    Api::new(
        "OLECLI",
        39,
        "OLECREATELINKFROMFILE",
        &[L, L, L, L, L, L, L, L, W, W],
        ole_create_link_from_file,
    ),
    Api::new("OLECLI", 40, "OLERELEASE", &[L], no_object),
    Api::new(
        "OLECLI",
        41,
        "OLEREGISTERCLIENTDOC",
        &[L, L, L, L],
        ole_register_client_doc,
    ),
    Api::new(
        "OLECLI",
        42,
        "OLEREVOKECLIENTDOC",
        &[L],
        ole_revoke_client_doc,
    ),
    Api::new(
        "OLECLI",
        43,
        "OLERENAMECLIENTDOC",
        &[L, L],
        ole_rename_client_doc,
    ),
    Api::new("OLECLI", 44, "OLEREVERTCLIENTDOC", &[L], ole_client_doc_ok),
    Api::new("OLECLI", 45, "OLESAVEDCLIENTDOC", &[L], ole_client_doc_ok),
    Api::new("OLECLI", 46, "OLERENAME", &[L, L], no_object),
    Api::new("OLECLI", 47, "OLEENUMOBJECTS", &[L, L], ole_enum_objects),
    Api::new("OLECLI", 48, "OLEQUERYNAME", &[L, L, L], no_object),
    Api::new("OLECLI", 49, "OLESETCOLORSCHEME", &[L, L], no_object),
    Api::new("OLECLI", 50, "OLEREQUESTDATA", &[L, W], no_object),
    Api::new("OLECLI", 54, "OLELOCKSERVER", &[L, L], no_object),
    Api::new("OLECLI", 55, "OLEUNLOCKSERVER", &[L], ole_unlock_server),
    Api::new("OLECLI", 56, "OLEQUERYSIZE", &[L, L], no_object),
    Api::new("OLECLI", 57, "OLEEXECUTE", &[L, W, W], no_object),
    Api::new(
        "OLECLI",
        58,
        "OLECREATEINVISIBLE",
        &[L, L, L, L, L, L, W, W, W],
        ole_create_invisible,
    ),
    Api::new(
        "OLECLI",
        59,
        "OLEQUERYCLIENTVERSION",
        &[],
        ole_query_client_version,
    ),
    Api::new("OLECLI", 60, "OLEISDCMETA", &[W], ole_is_dc_meta),
];

/// The protocols of OLE 1.0.
pub const STD_FILE_EDITING: &str = "StdFileEditing";
pub const STATIC: &str = "Static";
/// Clipboard formats (Windows 3.1 SDK).
const CF_BITMAP: u16 = 2;
const CF_METAFILEPICT: u16 = 3;
const CF_DIB: u16 = 8;
/// OLEOPT_RENDER's largest value, olerender_format.
const OLERENDER_FORMAT: u16 = 2;

/// Every function on an object (module doc): OLE_ERROR_OBJECT.
pub fn no_object(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(OLE_ERROR_OBJECT)
}

/// OLECLI.26 OleEnumFormats(lpobj, cfFormat): 0 (module doc).
pub fn ole_enum_formats(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(0)
}

/// OLECLI.55 OleUnlockServer(lhsrvr): OLE_ERROR_HANDLE (module doc).
pub fn ole_unlock_server(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(OLE_ERROR_HANDLE)
}

/// OLECLI.59 OleQueryClientVersion(): OLE 1.0 (`ole` module doc).
pub fn ole_query_client_version(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(OLE_VERSION)
}

/// OLECLI.60 OleIsDcMeta(hdc) (module doc).
pub fn ole_is_dc_meta(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(env.win16.gdi.metafiles.is_metafile(a[0] as u16)))
}

/// OLECLI.41 OleRegisterClientDoc (module doc).
pub fn ole_register_client_doc(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (Some(class), Some(name)) = (name_arg(uc, a[0]), name_arg(uc, a[1])) else {
        return Ok(OLE_ERROR_ADDRESS);
    };
    if !put_long(uc, a[3], 0) {
        return Ok(OLE_ERROR_ADDRESS);
    }
    let Some(h) = env.win16.ole.client_docs.add(ClientDoc { class, name }) else {
        return Ok(OLE_ERROR_MEMORY);
    };
    put_long(uc, a[3], h);
    Ok(OLE_OK)
}

/// OLECLI.42 OleRevokeClientDoc(lhdoc) (module doc).
pub fn ole_revoke_client_doc(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(match env.win16.ole.client_docs.live.remove(&a[0]) {
        Some(_) => OLE_OK,
        None => OLE_ERROR_HANDLE,
    })
}

/// OLECLI.43 OleRenameClientDoc(lhdoc, lpszNewDocname) (module doc).
pub fn ole_rename_client_doc(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let name = name_arg(uc, a[1]);
    let Some(d) = env.win16.ole.client_docs.live.get_mut(&a[0]) else {
        return Ok(OLE_ERROR_HANDLE);
    };
    let Some(name) = name else {
        return Ok(OLE_ERROR_ADDRESS);
    };
    d.name = name;
    Ok(OLE_OK)
}

/// OLECLI.44 OleRevertClientDoc, OLECLI.45 OleSavedClientDoc (module doc).
pub fn ole_client_doc_ok(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(if env.win16.ole.client_docs.live.contains_key(&a[0]) {
        OLE_OK
    } else {
        OLE_ERROR_HANDLE
    })
}

/// OLECLI.47 OleEnumObjects(lhdoc, lplpobj) (module doc).
pub fn ole_enum_objects(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if !env.win16.ole.client_docs.live.contains_key(&a[0]) {
        return Ok(OLE_ERROR_HANDLE);
    }
    Ok(if put_long(uc, a[1], 0) {
        OLE_OK
    } else {
        OLE_ERROR_ADDRESS
    })
}

/// A registered clipboard format's number, 0 when none has that name.
fn registered_format(env: &Env, name: &str) -> u16 {
    env.win16
        .atoms
        .global
        .find(NameArg::Str(name.as_bytes().to_vec()))
}

/// Is clipboard format `f` (not 0) on the clipboard?
fn on_clipboard(env: &Env, f: u16) -> bool {
    f != 0 && crate::win16::user::clipboard::has(env, f)
}

/// Is there something for the protocol on the clipboard (module doc)?
/// `link`: OleQueryLinkFromClip's question. An OLESTATUS.
fn clip_status(env: &Env, protocol: &str, render: u16, cf: u16, link: bool) -> u32 {
    if render > OLERENDER_FORMAT {
        return OLE_ERROR_OPTION;
    }
    let there = match protocol {
        STD_FILE_EDITING if link => on_clipboard(env, registered_format(env, "ObjectLink")),
        STD_FILE_EDITING => {
            on_clipboard(env, registered_format(env, "Native"))
                && on_clipboard(env, registered_format(env, "OwnerLink"))
        }
        STATIC if !link => [CF_METAFILEPICT, CF_DIB, CF_BITMAP]
            .iter()
            .any(|&f| on_clipboard(env, f)),
        _ => return OLE_ERROR_PROTOCOL,
    };
    if !there || (render == OLERENDER_FORMAT && !on_clipboard(env, cf)) {
        return OLE_ERROR_FORMAT;
    }
    OLE_OK
}

/// OLECLI.10 OleQueryCreateFromClip(lpszProtocol, renderopt, cfFormat).
pub fn ole_query_create_from_clip(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(p) = name_arg(uc, a[0]) else {
        return Ok(OLE_ERROR_ADDRESS);
    };
    Ok(clip_status(env, &p, a[1] as u16, a[2] as u16, false))
}

/// OLECLI.9 OleQueryLinkFromClip(lpszProtocol, renderopt, cfFormat).
pub fn ole_query_link_from_clip(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(p) = name_arg(uc, a[0]) else {
        return Ok(OLE_ERROR_ADDRESS);
    };
    Ok(clip_status(env, &p, a[1] as u16, a[2] as u16, true))
}

/// What every OleCreate function checks first (module doc): `*lplpobj`
/// cleared, the document registered, the protocol and render option;
/// the protocol when they pass.
fn create_checks(
    env: &Env,
    uc: &mut Uc<'_>,
    protocol: u32,
    lhdoc: u32,
    lplpobj: u32,
    render: u16,
) -> Result<String, u32> {
    if !put_long(uc, lplpobj, 0) {
        return Err(OLE_ERROR_ADDRESS);
    }
    if !env.win16.ole.client_docs.live.contains_key(&lhdoc) {
        return Err(OLE_ERROR_HANDLE);
    }
    let p = name_arg(uc, protocol).ok_or(OLE_ERROR_ADDRESS)?;
    if p != STD_FILE_EDITING && p != STATIC {
        return Err(OLE_ERROR_PROTOCOL);
    }
    if render > OLERENDER_FORMAT {
        return Err(OLE_ERROR_OPTION);
    }
    Ok(p)
}

/// The end of every OleCreate function: the class's server (module doc).
fn launch(env: &mut Env, class: &str) -> u32 {
    if super::has_server(env, class, STD_FILE_EDITING) {
        OLE_ERROR_LAUNCH
    } else {
        OLE_ERROR_CLASS
    }
}

/// OleCreate, OleCreateInvisible, OleCreateFromTemplate: protocol, class
/// (argument `class_at`), document, object pointer, render option.
fn create_named(
    env: &mut Env,
    uc: &mut Uc<'_>,
    a: &[u32],
    class_at: usize,
    lhdoc_at: usize,
) -> Result<u32, Stop> {
    let p = match create_checks(
        env,
        uc,
        a[0],
        a[lhdoc_at],
        a[lhdoc_at + 2],
        a[lhdoc_at + 3] as u16,
    ) {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    if p != STD_FILE_EDITING {
        return Ok(OLE_ERROR_PROTOCOL);
    }
    let Some(class) = name_arg(uc, a[class_at]) else {
        return Ok(OLE_ERROR_ADDRESS);
    };
    Ok(launch(env, &class))
}

/// OLECLI.34 OleCreate(lpszProtocol, lpclient, lpszClass, lhclientdoc,
/// lpszObjname, lplpobj, renderopt, cfFormat) (module doc).
pub fn ole_create(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    create_named(env, uc, a, 2, 3)
}

/// OLECLI.58 OleCreateInvisible(..., fActivate) (module doc).
pub fn ole_create_invisible(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    create_named(env, uc, a, 2, 3)
}

/// OLECLI.33 OleCreateFromTemplate(lpszProtocol, lpclient,
/// lpszTemplate, lhclientdoc, lpszObjname, lplpobj, renderopt, cfFormat):
/// the template file's class, by its extension (module doc).
pub fn ole_create_from_template(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let p = match create_checks(env, uc, a[0], a[3], a[5], a[6] as u16) {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    if p != STD_FILE_EDITING {
        return Ok(OLE_ERROR_PROTOCOL);
    }
    let Some(file) = name_arg(uc, a[2]) else {
        return Ok(OLE_ERROR_ADDRESS);
    };
    let class = class_of_file(env, &file);
    Ok(launch(env, &class))
}

/// The class a file's extension is associated with (`.ext`'s value in
/// the registration database), empty when none.
fn class_of_file(env: &mut Env, file: &str) -> String {
    let name = file.rsplit(['\\', '/', ':']).next().unwrap_or(file);
    let Some((_, ext)) = name.rsplit_once('.') else {
        return String::new();
    };
    env.win16
        .shell
        .value_at(&format!(".{ext}"))
        .unwrap_or_default()
}

/// OleCreateFromFile and OleCreateLinkFromFile: the class named, else the
/// file's.
fn create_from_file(
    env: &mut Env,
    uc: &mut Uc<'_>,
    a: &[u32],
    lhdoc_at: usize,
) -> Result<u32, Stop> {
    let p = match create_checks(
        env,
        uc,
        a[0],
        a[lhdoc_at],
        a[lhdoc_at + 2],
        a[lhdoc_at + 3] as u16,
    ) {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    if p != STD_FILE_EDITING {
        return Ok(OLE_ERROR_PROTOCOL);
    }
    let Some(file) = name_arg(uc, a[3]) else {
        return Ok(OLE_ERROR_ADDRESS);
    };
    let class = match name_arg(uc, a[2]) {
        Some(c) if !c.is_empty() => c,
        _ => class_of_file(env, &file),
    };
    Ok(launch(env, &class))
}

/// OLECLI.38 OleCreateFromFile(lpszProtocol, lpclient, lpszClass,
/// lpszFile, lhclientdoc, lpszObjname, lplpobj, renderopt, cfFormat).
pub fn ole_create_from_file(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    create_from_file(env, uc, a, 4)
}

/// OLECLI.39 OleCreateLinkFromFile(lpszProtocol, lpclient, lpszClass,
/// lpszFile, lpszItem, lhclientdoc, lpszObjname, lplpobj, renderopt,
/// cfFormat).
pub fn ole_create_link_from_file(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    create_from_file(env, uc, a, 5)
}

/// The class named first in a clipboard link format's data (class, NUL,
/// document, NUL, item, NUL, NUL), empty when it cannot be read.
fn class_on_clipboard(env: &mut Env, uc: &mut Uc<'_>, format: &str) -> String {
    let f = registered_format(env, format);
    let h = env
        .win16
        .user
        .clipboard
        .formats
        .iter()
        .find(|&&(x, _)| x == f)
        .map_or(0, |&(_, h)| h);
    let Some(sel) = env.win16.global.find(h).map(|b| b.selector) else {
        return String::new();
    };
    farptr::read_cstr(uc, u32::from(sel) << 16, 256)
        .map(|s| String::from_utf8_lossy(&s).into_owned())
        .unwrap_or_default()
}

/// OleCreateFromClip and OleCreateLinkFromClip(lpszProtocol, lpclient,
/// lhclientdoc, lpszObjname, lplpobj, renderopt, cfFormat).
fn create_from_clip(env: &mut Env, uc: &mut Uc<'_>, a: &[u32], link: bool) -> Result<u32, Stop> {
    let p = match create_checks(env, uc, a[0], a[2], a[4], a[5] as u16) {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    if link && p != STD_FILE_EDITING {
        return Ok(OLE_ERROR_PROTOCOL);
    }
    let s = clip_status(env, &p, a[5] as u16, a[6] as u16, link);
    if s != OLE_OK {
        return Ok(s);
    }
    if p == STATIC {
        // A picture becomes a static object without any server; OLECLI's
        // objects are not made here (module doc): the run stops.
        let (ss, sp) = (uc.reg(R::SS), uc.reg(R::SP));
        let ip = uc.read_u16_at(ss, sp).unwrap_or(0);
        let cs = uc.read_u16_at(ss, sp.wrapping_add(2)).unwrap_or(0);
        return Err(Stop::Unimplemented {
            what: "OLECLI: a Static object made from the clipboard".into(),
            caller: (cs, ip, uc.reg(R::BP)),
        });
    }
    let class = class_on_clipboard(env, uc, if link { "ObjectLink" } else { "OwnerLink" });
    Ok(launch(env, &class))
}

/// OLECLI.12 OleCreateFromClip (module doc).
pub fn ole_create_from_clip(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    create_from_clip(env, uc, a, false)
}

/// OLECLI.11 OleCreateLinkFromClip (module doc).
pub fn ole_create_link_from_clip(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    create_from_clip(env, uc, a, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }
}
