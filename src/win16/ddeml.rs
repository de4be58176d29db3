//! DDEML: the DDE Management Library, within one run.
//!
//! Instances (DdeInitialize, DdeUninitialize), string handles
//! (DdeCreateStringHandle and the rest: one handle per string, compared
//! without regard to case, counted like atoms), data handles
//! (DdeCreateDataHandle, DdeAccessData, DdeGetData, DdeAddData,
//! DdeFreeDataHandle: the data lives in a global memory block of the
//! creating task), service names (DdeNameService) and conversations
//! (Windows 3.1 SDK, "Dynamic Data Exchange Management Library").
//!
//! A conversation exists only with a server in the run: DdeConnect finds
//! an instance that registered the service with DdeNameService (or any
//! instance when the service handle is 0) and calls its callback with
//! XTYP_CONNECT; when it returns TRUE, the server gets
//! XTYP_CONNECT_CONFIRM and the client a conversation handle. Otherwise
//! DdeConnect returns 0 and DdeGetLastError DMLERR_NO_CONV_ESTABLISHED:
//! no other program is there to answer. DdeClientTransaction sends
//! XTYP_REQUEST, XTYP_POKE, XTYP_EXECUTE, XTYP_ADVSTART and XTYP_ADVSTOP
//! to the server's callback and returns its data handle (requests) or TRUE
//! when it answered DDE_FACK (TRUE for XTYP_ADVSTART). Every callback runs
//! in the task that called DdeInitialize for its instance, on that task's
//! stack with its data segment (scheduler.rs, "Running as another task"),
//! while the calling task waits, as a synchronous transaction waits.
//!
//! An advise loop the server accepted fires on DdePostAdvise: the server's
//! callback gets XTYP_ADVREQ, the client's XTYP_ADVDATA with that data.
//! DdeEnableCallback(EC_DISABLE) holds transactions for a callback until
//! EC_ENABLEONE gives it the next or EC_ENABLEALL all of them.
//! DdeDisconnect (and DdeDisconnectList) ends the conversation, its advise
//! loops and held transactions, and sends the partner XTYP_DISCONNECT.

use std::collections::BTreeMap;

use crate::env::Env;
use crate::machine::{Stop, Uc};
use crate::win16::api::{Api, Arg};
use crate::win16::callback::{self, CallArg};
use crate::win16::farptr;

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new(
        "DDEML",
        2,
        "DDEINITIALIZE",
        &[Arg::L, Arg::L, Arg::L, Arg::L],
        dde_initialize,
    ),
    Api::new("DDEML", 3, "DDEUNINITIALIZE", &[Arg::L], dde_uninitialize),
    Api::new(
        "DDEML",
        4,
        "DDECONNECTLIST",
        &[Arg::L, Arg::L, Arg::L, Arg::L, Arg::L],
        dde_connect_list,
    ),
    Api::new(
        "DDEML",
        5,
        "DDEQUERYNEXTSERVER",
        &[Arg::L, Arg::L],
        dde_query_next_server,
    ),
    Api::new(
        "DDEML",
        6,
        "DDEDISCONNECTLIST",
        &[Arg::L],
        dde_disconnect_list,
    ),
    Api::new(
        "DDEML",
        7,
        "DDECONNECT",
        &[Arg::L, Arg::L, Arg::L, Arg::L],
        dde_connect,
    ),
    Api::new("DDEML", 8, "DDEDISCONNECT", &[Arg::L], dde_disconnect),
    Api::new(
        "DDEML",
        9,
        "DDEQUERYCONVINFO",
        &[Arg::L, Arg::L, Arg::L],
        dde_query_conv_info,
    ),
    Api::new(
        "DDEML",
        10,
        "DDESETUSERHANDLE",
        &[Arg::L, Arg::L, Arg::L],
        dde_conv_true,
    ),
    Api::new(
        "DDEML",
        11,
        "DDECLIENTTRANSACTION",
        &[
            Arg::L,
            Arg::L,
            Arg::L,
            Arg::L,
            Arg::W,
            Arg::W,
            Arg::L,
            Arg::L,
        ],
        dde_client_transaction,
    ),
    Api::new(
        "DDEML",
        12,
        "DDEABANDONTRANSACTION",
        &[Arg::L, Arg::L, Arg::L],
        dde_true,
    ),
    Api::new(
        "DDEML",
        13,
        "DDEPOSTADVISE",
        &[Arg::L, Arg::L, Arg::L],
        dde_post_advise,
    ),
    Api::new(
        "DDEML",
        14,
        "DDECREATEDATAHANDLE",
        &[Arg::L, Arg::L, Arg::L, Arg::L, Arg::L, Arg::W, Arg::W],
        dde_create_data_handle,
    ),
    Api::new(
        "DDEML",
        15,
        "DDEADDDATA",
        &[Arg::L, Arg::L, Arg::L, Arg::L],
        dde_add_data,
    ),
    Api::new(
        "DDEML",
        16,
        "DDEGETDATA",
        &[Arg::L, Arg::L, Arg::L, Arg::L],
        dde_get_data,
    ),
    Api::new(
        "DDEML",
        17,
        "DDEACCESSDATA",
        &[Arg::L, Arg::L],
        dde_access_data,
    ),
    Api::new("DDEML", 18, "DDEUNACCESSDATA", &[Arg::L], dde_true),
    Api::new(
        "DDEML",
        19,
        "DDEFREEDATAHANDLE",
        &[Arg::L],
        dde_free_data_handle,
    ),
    Api::new(
        "DDEML",
        20,
        "DDEGETLASTERROR",
        &[Arg::L],
        dde_get_last_error,
    ),
    Api::new(
        "DDEML",
        21,
        "DDECREATESTRINGHANDLE",
        &[Arg::L, Arg::L, Arg::W],
        dde_create_string_handle,
    ),
    Api::new(
        "DDEML",
        22,
        "DDEFREESTRINGHANDLE",
        &[Arg::L, Arg::L],
        dde_free_string_handle,
    ),
    Api::new(
        "DDEML",
        23,
        "DDEQUERYSTRING",
        &[Arg::L, Arg::L, Arg::L, Arg::L, Arg::W],
        dde_query_string,
    ),
    Api::new(
        "DDEML",
        24,
        "DDEKEEPSTRINGHANDLE",
        &[Arg::L, Arg::L],
        dde_keep_string_handle,
    ),
    Api::new(
        "DDEML",
        26,
        "DDEENABLECALLBACK",
        &[Arg::L, Arg::L, Arg::W],
        dde_enable_callback,
    ),
    Api::new(
        "DDEML",
        27,
        "DDENAMESERVICE",
        &[Arg::L, Arg::L, Arg::L, Arg::W],
        dde_name_service,
    ),
    Api::new(
        "DDEML",
        36,
        "DDECMPSTRINGHANDLES",
        &[Arg::L, Arg::L],
        dde_cmp_string_handles,
    ),
    Api::new("DDEML", 37, "DDERECONNECT", &[Arg::L], dde_reconnect),
];

/// DMLERR_* (Windows 3.1 SDK).
pub mod dmlerr {
    pub const NO_ERROR: u32 = 0;
    pub const DLL_NOT_INITIALIZED: u32 = 0x4003;
    pub const INVALIDPARAMETER: u32 = 0x4006;
    pub const NOTPROCESSED: u32 = 0x4009;
    pub const NO_CONV_ESTABLISHED: u32 = 0x400A;
}

/// XTYP_* transaction types.
pub mod xtyp {
    pub const CONNECT: u16 = 0x1062;
    pub const CONNECT_CONFIRM: u16 = 0x8072;
    pub const DISCONNECT: u16 = 0x80C2;
    pub const REQUEST: u16 = 0x20B0;
    pub const POKE: u16 = 0x4090;
    pub const EXECUTE: u16 = 0x4050;
    pub const ADVSTART: u16 = 0x1030;
    pub const ADVSTOP: u16 = 0x8040;
    pub const ADVREQ: u16 = 0x2022;
    pub const ADVDATA: u16 = 0x4010;
    /// XTYPF_NODATA: an advise loop that only notifies (hData NULL).
    pub const XTYPF_NODATA: u16 = 0x0004;
    /// The flag bits a client may add to XTYP_ADVSTART.
    pub const XTYPF_MASK: u16 = 0x000C;
}

/// DdeInitialize's afCmd flags (Windows 3.1 SDK, DdeInitialize).
pub mod cbf {
    pub const FAIL_SELFCONNECTIONS: u32 = 0x0000_1000;
    pub const FAIL_CONNECTIONS: u32 = 0x0000_2000;
    pub const FAIL_ADVISES: u32 = 0x0000_4000;
    pub const FAIL_EXECUTES: u32 = 0x0000_8000;
    pub const FAIL_POKES: u32 = 0x0001_0000;
    pub const FAIL_REQUESTS: u32 = 0x0002_0000;
    pub const SKIP_CONNECT_CONFIRMS: u32 = 0x0004_0000;
    pub const SKIP_DISCONNECTS: u32 = 0x0020_0000;
    pub const APPCMD_CLIENTONLY: u32 = 0x0000_0010;
}

/// DdeEnableCallback's commands (Windows 3.1 SDK).
pub mod ec {
    pub const ENABLEALL: u16 = 0x0000;
    pub const ENABLEONE: u16 = 0x0080;
    pub const DISABLE: u16 = 0x0008;
}

/// DDE_FACK: a server's "done".
pub const DDE_FACK: u32 = 0x8000;
/// DNS_REGISTER, DNS_UNREGISTER.
pub const DNS_REGISTER: u16 = 1;
pub const DNS_UNREGISTER: u16 = 2;
/// The first string handle (as atoms count).
const FIRST_HSZ: u32 = 0xC000;
/// The first conversation handle.
const FIRST_HCONV: u32 = 0x0001_0000;
/// The first data handle.
const FIRST_HDATA: u32 = 0x0002_0000;
/// The most string handles, instances, conversations, data handles.
const MAX_HANDLES: usize = 4096;

/// One DdeInitialize.
#[derive(Debug, Clone)]
struct Instance {
    callback: u32,
    ds: u16,
    /// afCmd: the CBF_ filters and APPCMD_ flags.
    flags: u32,
    /// The task that called DdeInitialize: its callback runs there.
    htask: u16,
    /// DdeEnableCallback(EC_DISABLE) for every conversation.
    disabled: bool,
    last_error: u32,
    services: Vec<u32>,
}

/// One conversation.
#[derive(Debug, Clone, Copy)]
struct Conv {
    client: u32,
    server: u32,
    service: u32,
    topic: u32,
    /// DdeEnableCallback(EC_DISABLE) for this conversation.
    disabled: bool,
}

/// One advise loop: a conversation's item in a format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Advise {
    conv: u32,
    item: u32,
    fmt: u16,
    /// XTYPF_NODATA, XTYPF_ACKREQ as the client asked.
    flags: u16,
}

/// A transaction held for a disabled callback (DdeEnableCallback).
#[derive(Debug, Clone, Copy)]
struct Held {
    inst: u32,
    ty: u16,
    fmt: u16,
    conv: u32,
    hsz1: u32,
    hsz2: u32,
    data: u32,
}

/// One data handle: its global block and size.
#[derive(Debug, Clone, Copy)]
struct Data {
    block: u16,
    size: u32,
    fmt: u16,
    item: u32,
}

/// DDEML's state.
#[derive(Debug, Default)]
pub struct DdemlState {
    instances: BTreeMap<u32, Instance>,
    next_instance: u32,
    /// String handles: text and use count.
    strings: BTreeMap<u32, (String, u32)>,
    convs: BTreeMap<u32, Conv>,
    next_conv: u32,
    data: BTreeMap<u32, Data>,
    next_data: u32,
    advises: Vec<Advise>,
    held: Vec<Held>,
}

impl DdemlState {
    fn set_error(&mut self, inst: u32, e: u32) {
        if let Some(i) = self.instances.get_mut(&inst) {
            i.last_error = e;
        }
    }
}

/// Functions that only succeed: TRUE.
pub fn dde_true(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(1)
}

/// DDEML.2 DdeInitialize(lpidInst, pfnCallback, afCmd, ulRes): a new
/// instance when *lpidInst is 0 (its id stored there), else the instance
/// is reinitialized (its callback and afCmd); DMLERR_NO_ERROR or
/// DMLERR_INVALIDPARAMETER. afCmd's filters apply: APPCMD_CLIENTONLY and
/// CBF_FAIL_CONNECTIONS / CBF_FAIL_SELFCONNECTIONS keep DdeConnect from
/// the instance, CBF_FAIL_REQUESTS, _POKES, _EXECUTES and _ADVISES fail
/// those transactions before the callback, CBF_SKIP_CONNECT_CONFIRMS and
/// CBF_SKIP_DISCONNECTS skip those notifications.
pub fn dde_initialize(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(b) = farptr::read_bytes(uc, a[0], 4) else {
        return Ok(dmlerr::INVALIDPARAMETER);
    };
    let id = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    let htask = uc.get_data().current_task;
    let ds = env.win16.task(htask).map_or(0, |t| t.dgroup);
    let d = &mut env.win16.ddeml;
    if id != 0 {
        return Ok(match d.instances.get_mut(&id) {
            Some(i) => {
                i.callback = a[1];
                i.flags = a[2];
                dmlerr::NO_ERROR
            }
            None => dmlerr::INVALIDPARAMETER,
        });
    }
    if d.instances.len() >= MAX_HANDLES {
        return Ok(dmlerr::INVALIDPARAMETER);
    }
    d.next_instance += 1;
    let id = d.next_instance;
    d.instances.insert(
        id,
        Instance {
            callback: a[1],
            ds,
            flags: a[2],
            htask,
            disabled: false,
            last_error: 0,
            services: Vec::new(),
        },
    );
    farptr::write_bytes(uc, a[0], &id.to_le_bytes());
    Ok(dmlerr::NO_ERROR)
}

/// DDEML.3 DdeUninitialize(idInst): its conversations end, its names and
/// the instance go; TRUE, FALSE for an unknown instance.
pub fn dde_uninitialize(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let d = &mut env.win16.ddeml;
    if d.instances.remove(&a[0]).is_none() {
        return Ok(0);
    }
    d.convs.retain(|_, c| c.client != a[0] && c.server != a[0]);
    let convs = &d.convs;
    d.advises.retain(|l| convs.contains_key(&l.conv));
    d.held
        .retain(|h| h.inst != a[0] && convs.contains_key(&h.conv));
    Ok(1)
}

/// DDEML.21 DdeCreateStringHandle(idInst, lpszString, codepage): the
/// string's handle (one per string, case ignored), 0 on failure.
pub fn dde_create_string_handle(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if !env.win16.ddeml.instances.contains_key(&a[0]) {
        return Ok(0);
    }
    let Some(s) = farptr::read_cstr(uc, a[1], 255) else {
        env.win16.ddeml.set_error(a[0], dmlerr::INVALIDPARAMETER);
        return Ok(0);
    };
    let s = String::from_utf8_lossy(&s).into_owned();
    if s.is_empty() {
        return Ok(0);
    }
    let d = &mut env.win16.ddeml;
    if let Some((&h, v)) = d
        .strings
        .iter_mut()
        .find(|(_, (t, _))| t.eq_ignore_ascii_case(&s))
    {
        v.1 += 1;
        return Ok(h);
    }
    if d.strings.len() >= MAX_HANDLES {
        return Ok(0);
    }
    let h = (FIRST_HSZ..)
        .find(|h| !d.strings.contains_key(h))
        .unwrap_or(0);
    d.strings.insert(h, (s, 1));
    Ok(h)
}

/// DDEML.22 DdeFreeStringHandle(idInst, hsz): one use less; TRUE.
pub fn dde_free_string_handle(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let d = &mut env.win16.ddeml;
    let Some(v) = d.strings.get_mut(&a[1]) else {
        return Ok(0);
    };
    v.1 -= 1;
    if v.1 == 0 {
        d.strings.remove(&a[1]);
    }
    Ok(1)
}

/// DDEML.24 DdeKeepStringHandle(idInst, hsz): one use more; TRUE.
pub fn dde_keep_string_handle(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(match env.win16.ddeml.strings.get_mut(&a[1]) {
        Some(v) => {
            v.1 += 1;
            1
        }
        None => 0,
    })
}

/// DDEML.23 DdeQueryString(idInst, hsz, lpsz, cchMax, codepage): the
/// string's length; with a buffer, it is copied (cut to cchMax - 1).
pub fn dde_query_string(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some((s, _)) = env.win16.ddeml.strings.get(&a[1]).cloned() else {
        return Ok(0);
    };
    if a[2] == 0 {
        return Ok(s.len() as u32);
    }
    Ok(farptr::write_cstr_truncated(uc, a[2], s.as_bytes(), a[3] as usize).map_or(0, |n| n as u32))
}

/// DDEML.36 DdeCmpStringHandles(hsz1, hsz2): -1, 0 or 1 comparing the
/// strings without regard to case (0 for equal handles).
pub fn dde_cmp_string_handles(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let d = &env.win16.ddeml;
    let text = |h: u32| d.strings.get(&h).map(|(s, _)| s.to_ascii_lowercase());
    let o = match (a[0] == a[1], text(a[0]), text(a[1])) {
        (true, _, _) => std::cmp::Ordering::Equal,
        (_, x, y) => x.cmp(&y),
    };
    Ok(match o {
        std::cmp::Ordering::Less => 0xFFFF,
        std::cmp::Ordering::Equal => 0,
        std::cmp::Ordering::Greater => 1,
    })
}

/// DDEML.20 DdeGetLastError(idInst): the instance's last error, then
/// cleared; DMLERR_DLL_NOT_INITIALIZED for an unknown instance.
pub fn dde_get_last_error(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(match env.win16.ddeml.instances.get_mut(&a[0]) {
        Some(i) => std::mem::take(&mut i.last_error),
        None => dmlerr::DLL_NOT_INITIALIZED,
    })
}

/// DDEML.27 DdeNameService(idInst, hsz1, hszRes, afCmd): registers
/// (DNS_REGISTER) or unregisters the service name; TRUE.
pub fn dde_name_service(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(i) = env.win16.ddeml.instances.get_mut(&a[0]) else {
        return Ok(0);
    };
    let cmd = a[3] as u16;
    if cmd & DNS_REGISTER != 0 && a[1] != 0 && !i.services.contains(&a[1]) {
        i.services.push(a[1]);
    }
    if cmd & DNS_UNREGISTER != 0 {
        if a[1] == 0 {
            i.services.clear();
        } else {
            i.services.retain(|&s| s != a[1]);
        }
    }
    Ok(1)
}

/// Call instance `inst`'s callback: (type, fmt, hconv, hsz1, hsz2, hData,
/// dwData1, dwData2); its result.
#[allow(clippy::too_many_arguments)]
fn call_back(
    env: &mut Env,
    uc: &mut Uc<'_>,
    inst: u32,
    ty: u16,
    fmt: u16,
    conv: u32,
    hsz1: u32,
    hsz2: u32,
    data: u32,
) -> Result<u32, Stop> {
    call_back_with(env, uc, inst, ty, fmt, conv, hsz1, hsz2, data, 0)
}

/// [`call_back`] with dwData1 (XTYP_ADVREQ's count of requests left).
#[allow(clippy::too_many_arguments)]
fn call_back_with(
    env: &mut Env,
    uc: &mut Uc<'_>,
    inst: u32,
    ty: u16,
    fmt: u16,
    conv: u32,
    hsz1: u32,
    hsz2: u32,
    data: u32,
    data1: u32,
) -> Result<u32, Stop> {
    let Some(i) = env.win16.ddeml.instances.get(&inst).cloned() else {
        return Ok(0);
    };
    if i.callback == 0 {
        return Ok(0);
    }
    let Some(cs) = env.win16.module_by_name("DDEML").map(|m| m.segments[0]) else {
        return Ok(0);
    };
    let (sel, off) = farptr::split(i.callback);
    // The callback runs in the instance's task, on its stack, with its
    // data segment (scheduler.rs, "Running as another task").
    let r = crate::win16::scheduler::run_as(env, uc, i.htask, |env, uc| {
        callback::call_far(
            env,
            uc,
            cs,
            (sel, off),
            i.ds,
            &[],
            &[
                CallArg::W(ty),
                CallArg::W(fmt),
                CallArg::L(conv),
                CallArg::L(hsz1),
                CallArg::L(hsz2),
                CallArg::L(data),
                CallArg::L(data1),
                CallArg::L(0),
            ],
        )
        .map(|r| r.value)
    })?;
    Ok(r)
}

/// DDEML.7 DdeConnect(idInst, hszService, hszTopic, pCC) (module notes).
pub fn dde_connect(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (client, service, topic) = (a[0], a[1], a[2]);
    if !env.win16.ddeml.instances.contains_key(&client) {
        return Ok(0);
    }
    let client_task = env.win16.ddeml.instances[&client].htask;
    let servers: Vec<u32> = env
        .win16
        .ddeml
        .instances
        .iter()
        .filter(|(id, i)| {
            // SDK, DdeInitialize: a client-only instance is no server;
            // CBF_FAIL_CONNECTIONS refuses every XTYP_CONNECT,
            // CBF_FAIL_SELFCONNECTIONS those from its own task.
            **id != client
                && i.flags & (cbf::APPCMD_CLIENTONLY | cbf::FAIL_CONNECTIONS) == 0
                && !(i.flags & cbf::FAIL_SELFCONNECTIONS != 0 && i.htask == client_task)
                && !i.services.is_empty()
                && (service == 0 || i.services.contains(&service))
        })
        .map(|(id, _)| *id)
        .collect();
    for server in servers {
        let svc = if service == 0 {
            env.win16.ddeml.instances[&server].services[0]
        } else {
            service
        };
        let ok = call_back(env, uc, server, xtyp::CONNECT, 0, 0, topic, svc, 0)?;
        if ok & 0xFFFF == 0 {
            continue;
        }
        let d = &mut env.win16.ddeml;
        if d.convs.len() >= MAX_HANDLES {
            break;
        }
        d.next_conv += 1;
        let h = FIRST_HCONV + d.next_conv;
        d.convs.insert(
            h,
            Conv {
                client,
                server,
                service: svc,
                topic,
                disabled: false,
            },
        );
        if flags_of(env, server) & cbf::SKIP_CONNECT_CONFIRMS == 0 {
            call_back(env, uc, server, xtyp::CONNECT_CONFIRM, 0, h, topic, svc, 0)?;
        }
        return Ok(h);
    }
    env.win16
        .ddeml
        .set_error(client, dmlerr::NO_CONV_ESTABLISHED);
    Ok(0)
}

/// DDEML.4 DdeConnectList(idInst, hszService, hszTopic, hConvList, pCC):
/// the conversation list; 0 (DMLERR_NO_CONV_ESTABLISHED) when no server
/// answers (module notes: a list holds at most the one conversation
/// DdeConnect makes).
pub fn dde_connect_list(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    dde_connect(env, uc, &[a[0], a[1], a[2], a[4]])
}

/// DDEML.5 DdeQueryNextServer(hConvList, hConvPrev): the list's next
/// conversation: the one after none, then 0.
pub fn dde_query_next_server(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(if a[1] == 0 && env.win16.ddeml.convs.contains_key(&a[0]) {
        a[0]
    } else {
        0
    })
}

/// DDEML.8 DdeDisconnect(hConv): the conversation ends with its advise
/// loops and held transactions, and the partner (the server when the
/// client's task calls, else the client) gets XTYP_DISCONNECT; TRUE, FALSE
/// for an unknown conversation.
pub fn dde_disconnect(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(c) = env.win16.ddeml.convs.remove(&a[0]) else {
        return Ok(0);
    };
    let d = &mut env.win16.ddeml;
    d.advises.retain(|l| l.conv != a[0]);
    d.held.retain(|h| h.conv != a[0]);
    let current = uc.get_data().current_task;
    let client_task = d.instances.get(&c.client).map(|i| i.htask);
    let partner = if client_task == Some(current) {
        c.server
    } else {
        c.client
    };
    if flags_of(env, partner) & cbf::SKIP_DISCONNECTS == 0 {
        call_back(env, uc, partner, xtyp::DISCONNECT, 0, a[0], 0, 0, 0)?;
    }
    Ok(1)
}

/// An instance's afCmd (0 for none).
fn flags_of(env: &Env, inst: u32) -> u32 {
    env.win16.ddeml.instances.get(&inst).map_or(0, |i| i.flags)
}

/// DDEML.6 DdeDisconnectList(hConvList): every conversation of the list
/// ends as DdeDisconnect ends it (a list holds the one conversation
/// DdeConnectList made); TRUE, FALSE for an unknown list.
pub fn dde_disconnect_list(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    dde_disconnect(env, uc, a)
}

/// DDEML.13 DdePostAdvise(idInst, hszTopic, hszItem): for every advise
/// loop of the instance's conversations on that topic and item (0: any),
/// the server's callback gets XTYP_ADVREQ (dwData1 the number of
/// XTYP_ADVREQ still to come) and its data goes to the client's callback
/// as XTYP_ADVDATA (hData NULL for an XTYPF_NODATA loop), held while the
/// client's callback is disabled (DdeEnableCallback); TRUE, FALSE for an
/// unknown instance.
pub fn dde_post_advise(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (inst, topic, item) = (a[0], a[1], a[2]);
    if !env.win16.ddeml.instances.contains_key(&inst) {
        return Ok(0);
    }
    let d = &env.win16.ddeml;
    let loops: Vec<(Advise, Conv)> = d
        .advises
        .iter()
        .filter_map(|l| d.convs.get(&l.conv).map(|c| (*l, *c)))
        .filter(|(l, c)| {
            c.server == inst && (topic == 0 || c.topic == topic) && (item == 0 || l.item == item)
        })
        .collect();
    let mut left = loops.len() as u32;
    for (l, c) in loops {
        left -= 1;
        let data = if l.flags & xtyp::XTYPF_NODATA != 0 {
            0
        } else {
            let h = call_back_with(
                env,
                uc,
                c.server,
                xtyp::ADVREQ,
                l.fmt,
                l.conv,
                c.topic,
                l.item,
                0,
                left,
            )?;
            if h == 0 {
                continue;
            }
            h
        };
        deliver(
            env,
            uc,
            Held {
                inst: c.client,
                ty: xtyp::ADVDATA,
                fmt: l.fmt,
                conv: l.conv,
                hsz1: c.topic,
                hsz2: l.item,
                data,
            },
        )?;
    }
    Ok(1)
}

/// Is the callback of `inst` disabled for conversation `conv`?
fn disabled(d: &DdemlState, inst: u32, conv: u32) -> bool {
    d.instances.get(&inst).is_some_and(|i| i.disabled)
        || d.convs
            .get(&conv)
            .is_some_and(|c| c.disabled && (c.client == inst || c.server == inst))
}

/// Give a transaction to its callback now, or hold it while that callback
/// is disabled.
fn deliver(env: &mut Env, uc: &mut Uc<'_>, h: Held) -> Result<u32, Stop> {
    let d = &mut env.win16.ddeml;
    if disabled(d, h.inst, h.conv) {
        if d.held.len() < MAX_HANDLES {
            d.held.push(h);
        }
        return Ok(0);
    }
    call_back(env, uc, h.inst, h.ty, h.fmt, h.conv, h.hsz1, h.hsz2, h.data)
}

/// DDEML.26 DdeEnableCallback(idInst, hConv, wCmd): EC_DISABLE holds the
/// transactions for the instance's callback (for conversation hConv, or
/// every one when hConv is 0); EC_ENABLEALL gives it every held one and
/// enables it; EC_ENABLEONE gives it the next held one and leaves it
/// disabled. TRUE, FALSE for an unknown instance or conversation or
/// command.
pub fn dde_enable_callback(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (inst, conv, cmd) = (a[0], a[1], a[2] as u16);
    let d = &mut env.win16.ddeml;
    if !d.instances.contains_key(&inst) || (conv != 0 && !d.convs.contains_key(&conv)) {
        return Ok(0);
    }
    let set = |d: &mut DdemlState, off: bool| {
        if conv == 0 {
            if let Some(i) = d.instances.get_mut(&inst) {
                i.disabled = off;
            }
            for c in d.convs.values_mut() {
                if c.client == inst || c.server == inst {
                    c.disabled = off;
                }
            }
        } else if let Some(c) = d.convs.get_mut(&conv) {
            c.disabled = off;
        }
    };
    let mine = |h: &Held| h.inst == inst && (conv == 0 || h.conv == conv);
    match cmd {
        ec::DISABLE => set(d, true),
        ec::ENABLEALL => {
            set(d, false);
            while let Some(p) = env.win16.ddeml.held.iter().position(mine) {
                let h = env.win16.ddeml.held.remove(p);
                deliver(env, uc, h)?;
            }
        }
        ec::ENABLEONE => {
            if let Some(p) = d.held.iter().position(mine) {
                let h = d.held.remove(p);
                call_back(env, uc, h.inst, h.ty, h.fmt, h.conv, h.hsz1, h.hsz2, h.data)?;
            }
        }
        _ => return Ok(0),
    }
    Ok(1)
}

/// DDEML.37 DdeReconnect(hConv): the conversation, still there, or 0.
pub fn dde_reconnect(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(if env.win16.ddeml.convs.contains_key(&a[0]) {
        a[0]
    } else {
        0
    })
}

/// DDEML.10 DdeSetUserHandle: TRUE for a conversation that exists.
pub fn dde_conv_true(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(env.win16.ddeml.convs.contains_key(&a[0])))
}

/// DDEML.9 DdeQueryConvInfo(hConv, idTransaction, lpConvInfo): fills
/// CONVINFO's first fields (cb, hUser 0, hConvPartner, hszSvcPartner,
/// hszServiceReq, hszTopic) for a conversation; its size, 0 for none.
pub fn dde_query_conv_info(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(c) = env.win16.ddeml.convs.get(&a[0]).copied() else {
        return Ok(0);
    };
    let Some(b) = farptr::read_bytes(uc, a[2], 4) else {
        return Ok(0);
    };
    let cb = u32::from_le_bytes([b[0], b[1], b[2], b[3]]).min(64) as usize;
    let mut info = vec![0u8; cb.max(24)];
    for (i, v) in [cb as u32, 0, 0, c.service, c.service, c.topic]
        .iter()
        .enumerate()
    {
        info[4 * i..4 * i + 4].copy_from_slice(&v.to_le_bytes());
    }
    info.truncate(cb);
    farptr::write_bytes(uc, a[2], &info);
    Ok(cb as u32)
}

/// A new data handle holding `bytes` (module notes), or 0.
fn new_data(env: &mut Env, uc: &mut Uc<'_>, bytes: &[u8], fmt: u16, item: u32) -> u32 {
    if env.win16.ddeml.data.len() >= MAX_HANDLES {
        return 0;
    }
    let block = crate::win16::global::alloc(
        env,
        uc,
        crate::win16::global::gmem::DDESHARE,
        (bytes.len() as u32).max(1),
    );
    if block == 0 {
        return 0;
    }
    let sel = crate::win16::selector_of_handle(block);
    if !crate::win16::kernel::memory::write_huge(uc, farptr::make(sel, 0), bytes) {
        return 0;
    }
    let d = &mut env.win16.ddeml;
    d.next_data += 1;
    let h = FIRST_HDATA + d.next_data;
    d.data.insert(
        h,
        Data {
            block,
            size: bytes.len() as u32,
            fmt,
            item,
        },
    );
    h
}

/// DDEML.14 DdeCreateDataHandle(idInst, lpvSrcBuf, cbInitData, offSrcBuf,
/// hszItem, uFmt, afCmd): a data handle with cbInitData bytes from the
/// buffer at offSrcBuf; 0 on failure.
pub fn dde_create_data_handle(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if !env.win16.ddeml.instances.contains_key(&a[0]) {
        return Ok(0);
    }
    let bytes = if a[1] == 0 {
        vec![0u8; (a[2] as usize).min(crate::win16::kernel::memory::MAX_HUGE as usize)]
    } else {
        match crate::win16::kernel::memory::read_huge(
            uc,
            crate::win16::kernel::memory::huge_add(a[1], a[3]),
            a[2],
        ) {
            Some(b) => b,
            None => {
                env.win16.ddeml.set_error(a[0], dmlerr::INVALIDPARAMETER);
                return Ok(0);
            }
        }
    };
    Ok(new_data(env, uc, &bytes, a[5] as u16, a[4]))
}

/// DDEML.15 DdeAddData(hData, lpvSrcBuf, cbAddData, offObj): the bytes at
/// offObj (the object grows as needed); the handle, 0 on failure.
pub fn dde_add_data(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(d) = env.win16.ddeml.data.get(&a[0]).copied() else {
        return Ok(0);
    };
    let Some(add) = crate::win16::kernel::memory::read_huge(uc, a[1], a[2]) else {
        return Ok(0);
    };
    let sel = crate::win16::selector_of_handle(d.block);
    let mut bytes = crate::win16::kernel::memory::read_huge(uc, farptr::make(sel, 0), d.size)
        .unwrap_or_default();
    let end = a[3] as usize + add.len();
    if bytes.len() < end {
        bytes.resize(end, 0);
    }
    bytes[a[3] as usize..end].copy_from_slice(&add);
    crate::win16::global::free_block(env, uc, d.block);
    env.win16.ddeml.data.remove(&a[0]);
    let h = new_data(env, uc, &bytes, d.fmt, d.item);
    // Keep the caller's handle.
    if let Some(n) = env.win16.ddeml.data.remove(&h) {
        env.win16.ddeml.data.insert(a[0], n);
    }
    Ok(a[0])
}

/// DDEML.16 DdeGetData(hData, pDst, cbMax, cbOff): the bytes copied from
/// cbOff on; with no buffer, the size of the data.
pub fn dde_get_data(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(d) = env.win16.ddeml.data.get(&a[0]).copied() else {
        return Ok(0);
    };
    if a[1] == 0 {
        return Ok(d.size);
    }
    let off = a[3].min(d.size);
    let n = a[2].min(d.size - off);
    let sel = crate::win16::selector_of_handle(d.block);
    let Some(b) = crate::win16::kernel::memory::read_huge(uc, farptr::make(sel, 0), d.size) else {
        return Ok(0);
    };
    if !crate::win16::kernel::memory::write_huge(uc, a[1], &b[off as usize..(off + n) as usize]) {
        return Ok(0);
    }
    Ok(n)
}

/// DDEML.17 DdeAccessData(hData, pcbDataSize): a far pointer to the data
/// (the size at pcbDataSize); NULL for a bad handle.
pub fn dde_access_data(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(d) = env.win16.ddeml.data.get(&a[0]).copied() else {
        return Ok(0);
    };
    if a[1] != 0 {
        farptr::write_bytes(uc, a[1], &d.size.to_le_bytes());
    }
    Ok(farptr::make(crate::win16::selector_of_handle(d.block), 0))
}

/// DDEML.19 DdeFreeDataHandle(hData): TRUE when it was one.
pub fn dde_free_data_handle(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(d) = env.win16.ddeml.data.remove(&a[0]) else {
        return Ok(0);
    };
    crate::win16::global::free_block(env, uc, d.block);
    Ok(1)
}

/// DDEML.11 DdeClientTransaction(lpvData, cbData, hConv, hszItem, uFmt,
/// uType, dwTimeout, lpuResult) (module notes).
pub fn dde_client_transaction(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (conv, item, fmt, ty) = (a[2], a[3], a[4] as u16, a[5] as u16);
    let Some(c) = env.win16.ddeml.convs.get(&conv).copied() else {
        return Ok(0);
    };
    let data = match ty {
        xtyp::POKE | xtyp::EXECUTE if a[0] != 0 => {
            if a[1] == 0xFFFF_FFFF {
                a[0]
            } else {
                let Some(b) = crate::win16::kernel::memory::read_huge(uc, a[0], a[1]) else {
                    env.win16
                        .ddeml
                        .set_error(c.client, dmlerr::INVALIDPARAMETER);
                    return Ok(0);
                };
                new_data(env, uc, &b, fmt, item)
            }
        }
        _ => 0,
    };
    let base = ty & !xtyp::XTYPF_MASK;
    // A transaction the server's filters fail never reaches its callback
    // (SDK, DdeInitialize: CBF_FAIL_*): it is not processed.
    let fail = match base {
        xtyp::REQUEST => cbf::FAIL_REQUESTS,
        xtyp::POKE => cbf::FAIL_POKES,
        xtyp::EXECUTE => cbf::FAIL_EXECUTES,
        xtyp::ADVSTART | xtyp::ADVSTOP => cbf::FAIL_ADVISES,
        _ => 0,
    };
    let r = if flags_of(env, c.server) & fail != 0 {
        0
    } else {
        call_back(env, uc, c.server, base, fmt, conv, c.topic, item, data)?
    };
    if a[7] != 0 {
        farptr::write_bytes(uc, a[7], &(r & 0xFFFF).to_le_bytes());
    }
    match base {
        // The server accepts the loop with TRUE (SDK, XTYP_ADVSTART).
        xtyp::ADVSTART if r & 0xFFFF != 0 => {
            let d = &mut env.win16.ddeml;
            let link = Advise {
                conv,
                item,
                fmt,
                flags: ty & xtyp::XTYPF_MASK,
            };
            d.advises
                .retain(|l| !(l.conv == conv && l.item == item && l.fmt == fmt));
            if d.advises.len() < MAX_HANDLES {
                d.advises.push(link);
            }
            Ok(1)
        }
        xtyp::ADVSTART => {
            env.win16.ddeml.set_error(c.client, dmlerr::NOTPROCESSED);
            Ok(0)
        }
        xtyp::ADVSTOP => {
            env.win16
                .ddeml
                .advises
                .retain(|l| !(l.conv == conv && l.item == item && l.fmt == fmt));
            Ok(1)
        }
        xtyp::REQUEST => {
            if r == 0 {
                env.win16.ddeml.set_error(c.client, dmlerr::NOTPROCESSED);
            }
            Ok(r)
        }
        _ if r & DDE_FACK != 0 => Ok(1),
        _ => {
            env.win16.ddeml.set_error(c.client, dmlerr::NOTPROCESSED);
            Ok(0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::{Cpu, R};
    use crate::win16::testing::kernsvc;

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }

    #[test]
    fn without_a_server_there_is_no_conversation() {
        let (mut m, mut env, _) = kernsvc();
        let ds = m.reg(R::DS);
        m.write_seg(ds, 0x300, &[0; 4]).unwrap();
        m.write_seg(ds, 0x310, b"Progman\0").unwrap();
        m.write_seg(ds, 0x320, b"PROGMAN\0").unwrap();
        let id_p = farptr::make(ds, 0x300);
        assert_eq!(
            dde_initialize(&mut env, &mut m, &[id_p, 0, 0, 0]).unwrap(),
            0
        );
        let id = m.read_u16_at(ds, 0x300).unwrap() as u32;
        assert_ne!(id, 0);
        let s1 = dde_create_string_handle(&mut env, &mut m, &[id, farptr::make(ds, 0x310), 1004])
            .unwrap();
        let s2 = dde_create_string_handle(&mut env, &mut m, &[id, farptr::make(ds, 0x320), 1004])
            .unwrap();
        assert_eq!(s1, s2);
        assert_eq!(
            dde_cmp_string_handles(&mut env, &mut m, &[s1, s2]).unwrap(),
            0
        );
        assert_eq!(dde_connect(&mut env, &mut m, &[id, s1, s1, 0]).unwrap(), 0);
        assert_eq!(
            dde_get_last_error(&mut env, &mut m, &[id]).unwrap(),
            dmlerr::NO_CONV_ESTABLISHED
        );
        assert_eq!(dde_get_last_error(&mut env, &mut m, &[id]).unwrap(), 0);
        // Data handles.
        let h = dde_create_data_handle(
            &mut env,
            &mut m,
            &[id, farptr::make(ds, 0x310), 8, 0, 0, 1, 0],
        )
        .unwrap();
        assert_ne!(h, 0);
        assert_eq!(dde_get_data(&mut env, &mut m, &[h, 0, 0, 0]).unwrap(), 8);
        assert_eq!(
            dde_get_data(&mut env, &mut m, &[h, farptr::make(ds, 0x340), 4, 3]).unwrap(),
            4
        );
        let mut b = [0u8; 4];
        m.read_seg(ds, 0x340, &mut b).unwrap();
        assert_eq!(&b, b"gman");
        assert_eq!(dde_free_data_handle(&mut env, &mut m, &[h]).unwrap(), 1);
        assert_eq!(
            dde_free_string_handle(&mut env, &mut m, &[id, s1]).unwrap(),
            1
        );
        assert_eq!(dde_uninitialize(&mut env, &mut m, &[id]).unwrap(), 1);
        assert_eq!(dde_uninitialize(&mut env, &mut m, &[id]).unwrap(), 0);
    }
}
