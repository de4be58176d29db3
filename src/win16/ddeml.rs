//! DDEML: the DDE Management Library, within one run.
//!
//! Instances (DdeInitialize, DdeUninitialize), string handles
//! (DdeCreateStringHandle and the rest: one handle per string, compared
//! without regard to case, counted like atoms), data handles
//! (DdeCreateDataHandle, DdeAccessData, DdeGetData, DdeAddData,
//! DdeFreeDataHandle: the data lives in a global memory block of the
//! creating task) and service names (DdeNameService) (Windows 3.1 SDK,
//! "Dynamic Data Exchange Management Library"). Conversations,
//! transactions (synchronous and asynchronous), advise loops and blocked
//! callbacks between instances, each callback running in its instance's
//! task: `ddeml/conv.rs`.

use std::collections::BTreeMap;

use crate::machine::{Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};
use crate::win16::farptr;

pub mod conv;
pub mod queue;

use conv::{
    dde_abandon_transaction, dde_client_transaction, dde_connect, dde_connect_list, dde_disconnect,
    dde_disconnect_list, dde_query_conv_info, dde_query_next_server, dde_reconnect,
    dde_set_user_handle,
};
use queue::{dde_enable_callback, dde_post_advise};

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
        dde_set_user_handle,
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
        dde_abandon_transaction,
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
    pub const ADVACKTIMEOUT: u32 = 0x4000;
    pub const BUSY: u32 = 0x4001;
    pub const DATAACKTIMEOUT: u32 = 0x4002;
    pub const DLL_NOT_INITIALIZED: u32 = 0x4003;
    pub const DLL_USAGE: u32 = 0x4004;
    pub const EXECACKTIMEOUT: u32 = 0x4005;
    pub const INVALIDPARAMETER: u32 = 0x4006;
    pub const MEMORY_ERROR: u32 = 0x4008;
    pub const NOTPROCESSED: u32 = 0x4009;
    pub const NO_CONV_ESTABLISHED: u32 = 0x400A;
    pub const POKEACKTIMEOUT: u32 = 0x400B;
    pub const REENTRANCY: u32 = 0x400D;
    pub const UNADVACKTIMEOUT: u32 = 0x4010;
    pub const UNFOUND_QUEUE_ID: u32 = 0x4011;
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
    pub const XACT_COMPLETE: u16 = 0x8080;
    pub const REGISTER: u16 = 0x80A2;
    pub const UNREGISTER: u16 = 0x80D2;
    pub const WILDCONNECT: u16 = 0x20E2;
    /// XTYPF_NOBLOCK: a type no callback can block (CBR_BLOCK ignored).
    pub const XTYPF_NOBLOCK: u16 = 0x0002;
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
    pub const SKIP_REGISTRATIONS: u32 = 0x0008_0000;
    pub const SKIP_UNREGISTRATIONS: u32 = 0x0010_0000;
    pub const SKIP_DISCONNECTS: u32 = 0x0020_0000;
    pub const APPCMD_CLIENTONLY: u32 = 0x0000_0010;
}

/// DdeEnableCallback's commands (Windows 3.1 SDK).
pub mod ec {
    pub const ENABLEALL: u16 = 0x0000;
    pub const ENABLEONE: u16 = 0x0080;
    pub const DISABLE: u16 = 0x0008;
    pub const QUERYWAITING: u16 = 0x0002;
}

/// DDE_FACK: a server's "done".
pub const DDE_FACK: u32 = 0x8000;
/// DNS_REGISTER, DNS_UNREGISTER.
pub const DNS_REGISTER: u16 = 1;
pub const DNS_UNREGISTER: u16 = 2;
/// DNS_FILTERON, DNS_FILTEROFF: XTYP_CONNECT only for registered names
/// (the default), or for any.
pub const DNS_FILTERON: u16 = 4;
pub const DNS_FILTEROFF: u16 = 8;
/// The first string handle (as atoms count).
const FIRST_HSZ: u32 = 0xC000;
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
    /// The service names it registered, and each one's instance-specific
    /// name (XTYP_REGISTER's hsz2).
    services: Vec<u32>,
    inst_names: Vec<u32>,
    /// DdeNameService(DNS_FILTEROFF): XTYP_CONNECT for any service name.
    filter_off: bool,
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
#[derive(Clone, Debug, Default)]
pub struct DdemlState {
    instances: BTreeMap<u32, Instance>,
    next_instance: u32,
    /// String handles: text and use count.
    strings: BTreeMap<u32, (String, u32)>,
    data: BTreeMap<u32, Data>,
    next_data: u32,
    /// Conversations, advise loops, transactions that wait.
    pub conv: conv::ConvState,
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
            inst_names: Vec::new(),
            filter_off: false,
        },
    );
    farptr::write_bytes(uc, a[0], &id.to_le_bytes());
    Ok(dmlerr::NO_ERROR)
}

/// DDEML.3 DdeUninitialize(idInst): its service names are unregistered
/// (XTYP_UNREGISTER to the other instances), its conversations end (the
/// partners get XTYP_DISCONNECT), and the instance goes; TRUE, FALSE for
/// an unknown instance.
pub fn dde_uninitialize(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(i) = env.win16.ddeml.instances.get(&a[0]).cloned() else {
        return Ok(0);
    };
    for (&s, &n) in i.services.iter().zip(&i.inst_names) {
        conv::name_notify(env, uc, a[0], s, n, false)?;
    }
    conv::uninit(env, uc, a[0])?;
    env.win16.ddeml.instances.remove(&a[0]);
    Ok(1)
}

/// The string handle of `s` (one per string, case ignored): one use more
/// of an existing one, else a new one; 0 when there is no room.
fn intern(d: &mut DdemlState, s: &str) -> u32 {
    if let Some((&h, v)) = d
        .strings
        .iter_mut()
        .find(|(_, (t, _))| t.eq_ignore_ascii_case(s))
    {
        v.1 += 1;
        return h;
    }
    if d.strings.len() >= MAX_HANDLES {
        return 0;
    }
    let h = (FIRST_HSZ..)
        .find(|h| !d.strings.contains_key(h))
        .unwrap_or(0);
    d.strings.insert(h, (s.to_string(), 1));
    h
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
    Ok(intern(&mut env.win16.ddeml, &s))
}

/// DDEML.22 DdeFreeStringHandle(idInst, hsz): one use less; TRUE.
pub fn dde_free_string_handle(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let d = &mut env.win16.ddeml;
    if !d.strings.contains_key(&a[1]) {
        return Ok(0);
    }
    release(d, a[1]);
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

/// DDEML.27 DdeNameService(idInst, hsz1, hszRes, afCmd): DNS_REGISTER
/// registers service name hsz1, with an instance-specific name of its own
/// ("NAME(iiii)", the instance in hex), and the other instances hear
/// XTYP_REGISTER; DNS_UNREGISTER unregisters it (every name when hsz1 is
/// 0), and they hear XTYP_UNREGISTER; DNS_FILTEROFF lets XTYP_CONNECT come
/// for any service name, DNS_FILTERON (the default) only for registered
/// ones. TRUE; FALSE (DMLERR_INVALIDPARAMETER) for a name it does not have
/// or a client-only instance's registration, and for an unknown instance.
pub fn dde_name_service(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (inst, hsz, cmd) = (a[0], a[1], a[3] as u16);
    let Some(i) = env.win16.ddeml.instances.get(&inst).cloned() else {
        return Ok(0);
    };
    if cmd & (DNS_FILTEROFF | DNS_FILTERON) != 0
        && let Some(i) = env.win16.ddeml.instances.get_mut(&inst)
    {
        i.filter_off = cmd & DNS_FILTEROFF != 0;
    }
    if cmd & DNS_REGISTER != 0 {
        let d = &mut env.win16.ddeml;
        let Some(text) = d.strings.get(&hsz).map(|(t, _)| t.clone()) else {
            d.set_error(inst, dmlerr::INVALIDPARAMETER);
            return Ok(0);
        };
        if i.flags & cbf::APPCMD_CLIENTONLY != 0 {
            d.set_error(inst, dmlerr::DLL_USAGE);
            return Ok(0);
        }
        if i.services.contains(&hsz) {
            return Ok(1);
        }
        let name = intern(d, &format!("{text}({inst:04X})"));
        if let Some(v) = d.strings.get_mut(&hsz) {
            v.1 += 1;
        }
        if let Some(i) = d.instances.get_mut(&inst) {
            i.services.push(hsz);
            i.inst_names.push(name);
        }
        conv::name_notify(env, uc, inst, hsz, name, true)?;
    }
    if cmd & DNS_UNREGISTER != 0 {
        let gone: Vec<(u32, u32)> = i
            .services
            .iter()
            .zip(&i.inst_names)
            .filter(|(s, _)| hsz == 0 || **s == hsz)
            .map(|(s, n)| (*s, *n))
            .collect();
        if hsz != 0 && gone.is_empty() {
            env.win16.ddeml.set_error(inst, dmlerr::INVALIDPARAMETER);
            return Ok(0);
        }
        if let Some(i) = env.win16.ddeml.instances.get_mut(&inst) {
            i.services.retain(|s| !gone.iter().any(|g| g.0 == *s));
            i.inst_names.retain(|s| !gone.iter().any(|g| g.1 == *s));
        }
        for (s, n) in gone {
            conv::name_notify(env, uc, inst, s, n, false)?;
            release(&mut env.win16.ddeml, s);
            release(&mut env.win16.ddeml, n);
        }
    }
    Ok(1)
}

/// One use less of string handle `h`.
fn release(d: &mut DdemlState, h: u32) {
    if let Some(v) = d.strings.get_mut(&h) {
        v.1 -= 1;
        if v.1 == 0 {
            d.strings.remove(&h);
        }
    }
}

/// Free data handle `h` (DDEML owns it: a callback's answer it consumed).
fn free_data(env: &mut Env, uc: &mut Uc<'_>, h: u32) {
    if let Some(d) = env.win16.ddeml.data.remove(&h) {
        crate::win16::global::free_block(env, uc, d.block);
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::{Cpu, R};
    use crate::win16::kernel::testing::kernsvc;

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
