//! DDEML conversations and transactions between instances, as Windows
//! 3.1's DDEML ran them (Windows 3.1 SDK, "Dynamic Data Exchange
//! Management Library"; the DdeConnect, DdeClientTransaction,
//! DdeQueryConvInfo pages and the XTYP_ transaction pages).
//!
//! **Two handles per conversation.** DdeConnect gives the client its
//! conversation handle and the server (XTYP_CONNECT_CONFIRM and every
//! later transaction) another: each side's handle names that side (its
//! instance, ST_CLIENT or not), and DdeQueryConvInfo on either gives the
//! partner's handle as hConvPartner (KB Q83916 for wStatus). When one side
//! disconnects, the other gets XTYP_DISCONNECT and its handle stays,
//! terminated (ST_TERMINATED, no ST_CONNECTED), until it disconnects too.
//!
//! **Connecting.** A server instance hears XTYP_CONNECT only for a service
//! name it registered (DdeNameService: the filter is on by default,
//! DNS_FILTEROFF turns it off). A client that names no service or no
//! topic sends XTYP_WILDCONNECT instead: the server answers with a data
//! handle holding HSZPAIRs ended by a pair of zeros, one conversation per
//! pair; DdeConnect takes the first, DdeConnectList every one
//! (DdeQueryNextServer walks the list, ST_INLIST marks its members).
//! DdeNameService sends XTYP_REGISTER / XTYP_UNREGISTER (hsz1 the base
//! name, hsz2 the instance's own name) to every other instance, unless it
//! asked not to hear them (CBF_SKIP_REGISTRATIONS, _UNREGISTRATIONS).
//!
//! **Transactions.** A synchronous transaction runs the server's callback
//! at once, in the server's task (scheduler.rs, "Running as another
//! task"), and DdeClientTransaction returns its result. With
//! TIMEOUT_ASYNC, DdeClientTransaction returns TRUE at once with a
//! transaction id in *pdwResult; the server's callback gets the
//! transaction when the server's task next looks at its message queue
//! (GetMessage, PeekMessage), and the client's callback gets
//! XTYP_XACT_COMPLETE (dwData1 the id, hData the data, TRUE or NULL) when
//! the client's task next does. What waits for a task's message loop, or
//! for a callback that is blocked, waits in DDEML's transaction queue
//! (queue.rs), with DdePostAdvise's advise data and DdeEnableCallback.

use std::collections::BTreeMap;

use super::queue::{Then, Work, answered, client_result, held, wake};
use super::{DdemlState, MAX_HANDLES, cbf, dmlerr, xtyp};
use crate::machine::{Cpu, R, Stop, Uc};
use crate::win16::Env;
use crate::win16::callback::{self, CallArg};
use crate::win16::farptr;

/// DDE_FBUSY: a server's "busy".
pub const DDE_FBUSY: u32 = 0x4000;
/// CBR_BLOCK: a callback's "hold this transaction".
pub const CBR_BLOCK: u32 = 0xFFFF_FFFF;
/// TIMEOUT_ASYNC, and QID_SYNC for DdeQueryConvInfo / DdeSetUserHandle.
pub const TIMEOUT_ASYNC: u32 = 0xFFFF_FFFF;
pub const QID_SYNC: u32 = 0xFFFF_FFFF;
/// The first conversation-list handle.
const FIRST_HCONVLIST: u32 = 0x0003_0000;
/// The first conversation handle.
const FIRST_HCONV: u32 = 0x0001_0000;
/// sizeof(CONVINFO) in Windows 3.1's DDEML.H: cb, hUser, hConvPartner,
/// hszSvcPartner, hszServiceReq, hszTopic, hszItem (7 DWORDs), wFmt, wType,
/// wStatus, wConvst, wLastError (5 UINTs), hConvList, and CONVCONTEXT (cb,
/// wFlags, wCountryID, iCodePage, dwLangID, dwSecurity: 16 bytes).
pub const CONVINFO_SIZE: usize = 58;
/// sizeof(CONVCONTEXT).
const CONVCONTEXT_SIZE: usize = 16;
/// CP_WINANSI, the default code page of a conversation.
const CP_WINANSI: u16 = 1004;

/// wStatus bits (DDEML.H, KB Q83916).
pub mod st {
    pub const CONNECTED: u16 = 0x0001;
    pub const ADVISE: u16 = 0x0002;
    pub const ISLOCAL: u16 = 0x0004;
    pub const BLOCKED: u16 = 0x0008;
    pub const CLIENT: u16 = 0x0010;
    pub const TERMINATED: u16 = 0x0020;
    pub const INLIST: u16 = 0x0040;
    pub const BLOCKNEXT: u16 = 0x0080;
    pub const ISSELF: u16 = 0x0100;
}

/// wConvst values (DDEML.H, XST_).
pub mod xst {
    pub const NULL: u16 = 0;
    pub const CONNECTED: u16 = 2;
    pub const REQSENT: u16 = 5;
    pub const POKESENT: u16 = 7;
    pub const EXECSENT: u16 = 9;
    pub const ADVSENT: u16 = 11;
    pub const UNADVSENT: u16 = 12;
}

/// One side of a conversation.
#[derive(Debug, Clone)]
pub struct Conv {
    /// The instance this handle belongs to.
    pub inst: u32,
    /// The other side's handle.
    pub partner: u32,
    pub client: bool,
    /// The service as the partner named it, and as the client asked for it.
    pub svc_partner: u32,
    pub svc_req: u32,
    pub topic: u32,
    /// DdeSetUserHandle(QID_SYNC).
    pub user: u32,
    /// The conversation list it is in (client side), or 0.
    pub list: u32,
    /// EC_DISABLE or CBR_BLOCK: transactions for this side wait.
    pub blocked: bool,
    /// EC_ENABLEONE: blocked again after the next callback.
    pub block_next: bool,
    /// The other side disconnected.
    pub terminated: bool,
    /// The last transaction's error (wLastError).
    pub last_error: u16,
    /// The client's CONVCONTEXT.
    pub context: [u8; CONVCONTEXT_SIZE],
}

/// One advise loop, named by the server's side of the conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Advise {
    pub conv: u32,
    pub item: u32,
    pub fmt: u16,
    /// XTYPF_NODATA, XTYPF_ACKREQ as the client asked.
    pub flags: u16,
}

/// A client task waiting in a synchronous transaction that was blocked.
#[derive(Debug, Clone, Copy)]
pub(super) struct SyncWait {
    pub(super) id: u32,
    /// SS:SP of the call that waits: the same call when it comes again.
    stack: (u16, u16),
    /// The emulated clock's time when it gives up.
    deadline: u32,
    /// (result, DMLERR_, status flags) once the server answered.
    pub(super) answer: Option<(u32, u32, u32)>,
}

/// Conversations, advise loops and waiting transactions.
#[derive(Clone, Debug, Default)]
pub struct ConvState {
    pub convs: BTreeMap<u32, Conv>,
    next_conv: u32,
    pub advises: Vec<Advise>,
    pub(super) work: Vec<Work>,
    /// The transactions whose callbacks run now, innermost last
    /// (DdeQueryConvInfo and DdeSetUserHandle see them).
    pub(super) current: Vec<Work>,
    next_id: u32,
    lists: BTreeMap<u32, Vec<u32>>,
    next_list: u32,
    pub(super) waits: BTreeMap<u16, SyncWait>,
    /// Tasks that have a WM_DDEML_WAKE in their queue.
    pub(super) woken: Vec<u16>,
}

impl ConvState {
    fn new_handle(&mut self) -> u32 {
        self.next_conv += 1;
        FIRST_HCONV + self.next_conv
    }

    fn new_id(&mut self) -> u32 {
        self.next_id += 1;
        self.next_id
    }
}

fn flags_of(env: &Env, inst: u32) -> u32 {
    env.win16.ddeml.instances.get(&inst).map_or(0, |i| i.flags)
}

pub(super) fn task_of(env: &Env, inst: u32) -> u16 {
    env.win16.ddeml.instances.get(&inst).map_or(0, |i| i.htask)
}

fn set_error(d: &mut DdemlState, inst: u32, e: u32) {
    d.set_error(inst, e);
}

/// Call instance `inst`'s callback (type, fmt, hconv, hsz1, hsz2, hData,
/// dwData1, dwData2) in the instance's task, on its stack, with its data
/// segment (scheduler.rs, "Running as another task"); its result.
#[allow(clippy::too_many_arguments)]
pub fn call_back(
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
    data2: u32,
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
    crate::win16::scheduler::run_as(env, uc, i.htask, |env, uc| {
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
                CallArg::L(data2),
            ],
        )
        .map(|r| r.value)
    })
}

/// A new conversation between client instance `client` and server
/// instance `server` on `service` (as the server has it; `req` as the
/// client asked) and `topic`: (client handle, server handle).
fn pair(
    d: &mut DdemlState,
    client: u32,
    server: u32,
    req: u32,
    service: u32,
    topic: u32,
    context: [u8; CONVCONTEXT_SIZE],
) -> Option<(u32, u32)> {
    let c = &mut d.conv;
    if c.convs.len() + 2 > MAX_HANDLES {
        return None;
    }
    let hc = c.new_handle();
    let hs = c.new_handle();
    let side = |inst, partner, client| Conv {
        inst,
        partner,
        client,
        svc_partner: service,
        svc_req: if client { req } else { service },
        topic,
        user: 0,
        list: 0,
        blocked: false,
        block_next: false,
        terminated: false,
        last_error: 0,
        context,
    };
    c.convs.insert(hc, side(client, hs, true));
    c.convs.insert(hs, side(server, hc, false));
    Some((hc, hs))
}

/// The servers a client instance may reach for `service` (0: any): (the
/// instance, the service name it registered that matched or, with the
/// filter off, the one asked for).
fn servers(env: &Env, client: u32, service: u32) -> Vec<(u32, u32)> {
    let d = &env.win16.ddeml;
    let client_task = task_of(env, client);
    d.instances
        .iter()
        .filter(|(id, i)| {
            // SDK, DdeInitialize: a client-only instance is no server;
            // CBF_FAIL_CONNECTIONS refuses every XTYP_CONNECT,
            // CBF_FAIL_SELFCONNECTIONS those from its own task.
            **id != client
                && i.flags & (cbf::APPCMD_CLIENTONLY | cbf::FAIL_CONNECTIONS) == 0
                && !(i.flags & cbf::FAIL_SELFCONNECTIONS != 0 && i.htask == client_task)
        })
        .filter_map(|(id, i)| {
            if service == 0 {
                // SDK, XTYP_WILDCONNECT: a server that registered no
                // name hears none.
                return i.services.first().map(|&s| (*id, s));
            }
            if i.services.contains(&service) || i.inst_names.contains(&service) {
                let base = i
                    .inst_names
                    .iter()
                    .position(|&n| n == service)
                    .map_or(service, |p| i.services[p]);
                return Some((*id, base));
            }
            i.filter_off.then_some((*id, service))
        })
        .collect()
}

/// The HSZPAIRs of a server's XTYP_WILDCONNECT answer (up to the pair of
/// zeros).
fn hsz_pairs(env: &mut Env, uc: &mut Uc<'_>, h: u32) -> Vec<(u32, u32)> {
    let Some(d) = env.win16.ddeml.data.get(&h).copied() else {
        return Vec::new();
    };
    let sel = crate::win16::selector_of_handle(d.block);
    let bytes = crate::win16::kernel::memory::read_huge(uc, farptr::make(sel, 0), d.size)
        .unwrap_or_default();
    bytes
        .chunks_exact(8)
        .map(|p| {
            (
                u32::from_le_bytes([p[0], p[1], p[2], p[3]]),
                u32::from_le_bytes([p[4], p[5], p[6], p[7]]),
            )
        })
        .take_while(|&(s, t)| s != 0 || t != 0)
        .take(MAX_HANDLES)
        .collect()
}

/// Connect `client` to every server that accepts `service` and `topic`
/// (one when `first`): the client's handles.
fn connect(
    env: &mut Env,
    uc: &mut Uc<'_>,
    client: u32,
    service: u32,
    topic: u32,
    pcc: u32,
    first: bool,
) -> Result<Vec<u32>, Stop> {
    let mut context = [0u8; CONVCONTEXT_SIZE];
    match farptr::read_bytes(uc, pcc, CONVCONTEXT_SIZE).filter(|_| pcc != 0) {
        Some(b) => context.copy_from_slice(&b),
        None => {
            context[0..2].copy_from_slice(&(CONVCONTEXT_SIZE as u16).to_le_bytes());
            context[6..8].copy_from_slice(&CP_WINANSI.to_le_bytes());
        }
    }
    let mut made = Vec::new();
    for (server, svc) in servers(env, client, service) {
        let same = u32::from(server == client);
        let offers: Vec<(u32, u32)> = if service != 0 && topic != 0 {
            let ok = call_back(
                env,
                uc,
                server,
                xtyp::CONNECT,
                0,
                0,
                topic,
                svc,
                0,
                pcc,
                same,
            )?;
            if ok & 0xFFFF == 0 {
                continue;
            }
            vec![(svc, topic)]
        } else {
            let h = call_back(
                env,
                uc,
                server,
                xtyp::WILDCONNECT,
                0,
                0,
                topic,
                service,
                0,
                pcc,
                same,
            )?;
            let pairs = hsz_pairs(env, uc, h);
            super::free_data(env, uc, h);
            pairs
        };
        for (s, t) in offers {
            let Some((hc, hs)) = pair(&mut env.win16.ddeml, client, server, service, s, t, context)
            else {
                return Ok(made);
            };
            made.push(hc);
            if flags_of(env, server) & cbf::SKIP_CONNECT_CONFIRMS == 0 {
                call_back(
                    env,
                    uc,
                    server,
                    xtyp::CONNECT_CONFIRM,
                    0,
                    hs,
                    t,
                    s,
                    0,
                    0,
                    same,
                )?;
            }
            if first {
                return Ok(made);
            }
        }
    }
    Ok(made)
}

/// DDEML.7 DdeConnect(idInst, hszService, hszTopic, pCC): the client's
/// conversation handle (module notes), or 0 with
/// DMLERR_NO_CONV_ESTABLISHED.
pub fn dde_connect(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let client = a[0];
    if !env.win16.ddeml.instances.contains_key(&client) {
        return Ok(0);
    }
    let made = connect(env, uc, client, a[1], a[2], a[3], true)?;
    Ok(match made.first() {
        Some(&h) => h,
        None => {
            set_error(&mut env.win16.ddeml, client, dmlerr::NO_CONV_ESTABLISHED);
            0
        }
    })
}

/// DDEML.4 DdeConnectList(idInst, hszService, hszTopic, hConvList, pCC):
/// a list of conversations with every server that accepts; an existing
/// list (hConvList) keeps its members except those the new ones
/// duplicate (same server instance and topic), which are disconnected.
/// 0 with DMLERR_NO_CONV_ESTABLISHED when none accepts and no list was
/// given.
pub fn dde_connect_list(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (client, old) = (a[0], a[3]);
    if !env.win16.ddeml.instances.contains_key(&client) {
        return Ok(0);
    }
    if old != 0 && !env.win16.ddeml.conv.lists.contains_key(&old) {
        set_error(&mut env.win16.ddeml, client, dmlerr::INVALIDPARAMETER);
        return Ok(0);
    }
    let made = connect(env, uc, client, a[1], a[2], a[4], false)?;
    if made.is_empty() && old == 0 {
        set_error(&mut env.win16.ddeml, client, dmlerr::NO_CONV_ESTABLISHED);
        return Ok(0);
    }
    let key = |env: &Env, h: u32| {
        let c = env.win16.ddeml.conv.convs.get(&h)?;
        let p = env.win16.ddeml.conv.convs.get(&c.partner)?;
        Some((p.inst, c.topic))
    };
    let mut members = Vec::new();
    if old != 0 {
        let before = env.win16.ddeml.conv.lists.remove(&old).unwrap_or_default();
        let new_keys: Vec<_> = made.iter().map(|&h| key(env, h)).collect();
        for h in before {
            if new_keys.contains(&key(env, h)) {
                disconnect(env, uc, h)?;
            } else {
                members.push(h);
            }
        }
    }
    let d = &mut env.win16.ddeml.conv;
    let list = if old != 0 {
        old
    } else {
        d.next_list += 1;
        FIRST_HCONVLIST + d.next_list
    };
    members.extend(made);
    for h in &members {
        if let Some(c) = d.convs.get_mut(h) {
            c.list = list;
        }
    }
    d.lists.insert(list, members);
    Ok(list)
}

/// DDEML.5 DdeQueryNextServer(hConvList, hConvPrev): the list's
/// conversation after hConvPrev (the first after 0), 0 after the last.
pub fn dde_query_next_server(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(l) = env.win16.ddeml.conv.lists.get(&a[0]) else {
        return Ok(0);
    };
    let next = if a[1] == 0 {
        l.first()
    } else {
        l.iter().skip_while(|&&h| h != a[1]).nth(1)
    };
    Ok(next.copied().unwrap_or(0))
}

/// DDEML.6 DdeDisconnectList(hConvList): every conversation of the list
/// ends as DdeDisconnect ends it, and the list goes; TRUE, FALSE for an
/// unknown list.
pub fn dde_disconnect_list(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(l) = env.win16.ddeml.conv.lists.remove(&a[0]) else {
        return Ok(0);
    };
    for h in l {
        disconnect(env, uc, h)?;
    }
    Ok(1)
}

/// End side `h` of a conversation: its loops and waiting transactions go;
/// the partner, unless already terminated, gets XTYP_DISCONNECT (unless
/// CBF_SKIP_DISCONNECTS) and stays terminated. A client waiting on it
/// gets DMLERR_NO_CONV_ESTABLISHED.
fn disconnect(env: &mut Env, uc: &mut Uc<'_>, h: u32) -> Result<bool, Stop> {
    let d = &mut env.win16.ddeml.conv;
    let Some(c) = d.convs.remove(&h) else {
        return Ok(false);
    };
    for l in d.lists.values_mut() {
        l.retain(|&x| x != h);
    }
    let server_side = if c.client { c.partner } else { h };
    d.advises.retain(|l| l.conv != server_side);
    let gone = |w: &Work| w.conv == h || w.conv == c.partner;
    let stuck: Vec<Work> = d.work.iter().filter(|w| gone(w)).copied().collect();
    d.work.retain(|w| !gone(w));
    for w in stuck {
        if let Then::Sync(t) = w.then
            && let Some(s) = d.waits.get_mut(&t)
            && s.id == w.id
        {
            s.answer = Some((0, dmlerr::NO_CONV_ESTABLISHED, 0));
        }
    }
    let Some(p) = d.convs.get_mut(&c.partner) else {
        return Ok(true);
    };
    if p.terminated {
        return Ok(true);
    }
    p.terminated = true;
    let pinst = p.inst;
    if flags_of(env, pinst) & cbf::SKIP_DISCONNECTS == 0 {
        call_back(
            env,
            uc,
            pinst,
            xtyp::DISCONNECT,
            0,
            c.partner,
            0,
            0,
            0,
            0,
            u32::from(pinst == c.inst),
        )?;
    }
    Ok(true)
}

/// DDEML.8 DdeDisconnect(hConv): this side ends (module notes); TRUE,
/// FALSE for an unknown conversation.
pub fn dde_disconnect(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(disconnect(env, uc, a[0])?))
}

/// DdeUninitialize: every conversation of the instance ends.
pub fn uninit(env: &mut Env, uc: &mut Uc<'_>, inst: u32) -> Result<(), Stop> {
    let mine: Vec<u32> = env
        .win16
        .ddeml
        .conv
        .convs
        .iter()
        .filter(|(_, c)| c.inst == inst)
        .map(|(&h, _)| h)
        .collect();
    for h in mine {
        disconnect(env, uc, h)?;
    }
    let d = &mut env.win16.ddeml.conv;
    d.work.retain(|w| w.inst != inst);
    d.lists.retain(|_, l| !l.is_empty());
    Ok(())
}

/// DDEML.37 DdeReconnect(hConv): a client's terminated conversation
/// connects again to a server of its service and topic (XTYP_CONNECT);
/// the same handle, or 0. A connected one is returned as it is.
pub fn dde_reconnect(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(c) = env.win16.ddeml.conv.convs.get(&a[0]).cloned() else {
        return Ok(0);
    };
    if !c.client {
        return Ok(0);
    }
    if !c.terminated {
        return Ok(a[0]);
    }
    let made = connect(env, uc, c.inst, c.svc_partner, c.topic, 0, true)?;
    let Some(&h) = made.first() else {
        set_error(&mut env.win16.ddeml, c.inst, dmlerr::NO_CONV_ESTABLISHED);
        return Ok(0);
    };
    // The new conversation takes the old client handle.
    let d = &mut env.win16.ddeml.conv;
    let Some(mut n) = d.convs.remove(&h) else {
        return Ok(0);
    };
    n.user = c.user;
    n.list = c.list;
    if let Some(p) = d.convs.get_mut(&n.partner) {
        p.partner = a[0];
    }
    d.convs.insert(a[0], n);
    for l in d.lists.values_mut() {
        l.retain(|&x| x != h);
    }
    Ok(a[0])
}

/// DDEML.10 DdeSetUserHandle(hConv, id, hUser): the conversation's user
/// value (QID_SYNC) or an asynchronous transaction's; TRUE, FALSE with
/// DMLERR_UNFOUND_QUEUE_ID for an unknown transaction.
pub fn dde_set_user_handle(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let d = &mut env.win16.ddeml;
    let Some(c) = d.conv.convs.get_mut(&a[0]) else {
        return Ok(0);
    };
    if a[1] == QID_SYNC {
        c.user = a[2];
        return Ok(1);
    }
    let inst = c.inst;
    match d
        .conv
        .work
        .iter_mut()
        .chain(d.conv.current.iter_mut())
        .find(|w| w.id == a[1] && (w.conv == a[0] || client_side(w) == Some(a[0])))
    {
        Some(w) => {
            w.user = a[2];
            Ok(1)
        }
        None => {
            set_error(d, inst, dmlerr::UNFOUND_QUEUE_ID);
            Ok(0)
        }
    }
}

/// The client's handle of an asynchronous transaction still at the server.
fn client_side(w: &Work) -> Option<u32> {
    match w.then {
        Then::Async { conv } => Some(conv),
        _ => None,
    }
}

/// XST_ of a transaction sent and not yet answered.
fn sent_state(ty: u16) -> u16 {
    match ty {
        xtyp::REQUEST => xst::REQSENT,
        xtyp::POKE => xst::POKESENT,
        xtyp::EXECUTE => xst::EXECSENT,
        xtyp::ADVSTART => xst::ADVSENT,
        xtyp::ADVSTOP => xst::UNADVSENT,
        _ => xst::CONNECTED,
    }
}

/// A side's wStatus (KB Q83916).
fn status(d: &DdemlState, h: u32, c: &Conv) -> u16 {
    let mut s = st::ISLOCAL;
    if !c.terminated {
        s |= st::CONNECTED;
    } else {
        s |= st::TERMINATED;
    }
    if c.client {
        s |= st::CLIENT;
    }
    let server_side = if c.client { c.partner } else { h };
    if d.conv.advises.iter().any(|l| l.conv == server_side) {
        s |= st::ADVISE;
    }
    if c.blocked || d.instances.get(&c.inst).is_some_and(|i| i.disabled) {
        s |= st::BLOCKED;
    }
    if c.block_next {
        s |= st::BLOCKNEXT;
    }
    if c.list != 0 {
        s |= st::INLIST;
    }
    if d.conv
        .convs
        .get(&c.partner)
        .is_some_and(|p| p.inst == c.inst)
    {
        s |= st::ISSELF;
    }
    s
}

/// DDEML.9 DdeQueryConvInfo(hConv, idTransaction, lpConvInfo): CONVINFO
/// (Windows 3.1 layout, [`CONVINFO_SIZE`]) for the conversation, at most
/// lpConvInfo->cb bytes of it; the number of bytes, 0 for an unknown
/// conversation or (DMLERR_UNFOUND_QUEUE_ID) transaction. With QID_SYNC,
/// hUser is the conversation's and the transaction fields (hszItem, wFmt,
/// wType) are 0 with wConvst XST_CONNECTED; with an asynchronous
/// transaction's id, they are that transaction's, hUser its own, wConvst
/// the XST_ of a transaction sent and not answered.
pub fn dde_query_conv_info(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let d = &env.win16.ddeml;
    let Some(c) = d.conv.convs.get(&a[0]).cloned() else {
        return Ok(0);
    };
    let Some(b) = farptr::read_bytes(uc, a[2], 4) else {
        set_error(&mut env.win16.ddeml, c.inst, dmlerr::INVALIDPARAMETER);
        return Ok(0);
    };
    let cb = (u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize).min(CONVINFO_SIZE);
    let (user, item, fmt, ty, convst) = if a[1] == QID_SYNC {
        let convst = if c.terminated {
            xst::NULL
        } else {
            xst::CONNECTED
        };
        (c.user, 0, 0, 0, convst)
    } else {
        match d
            .conv
            .work
            .iter()
            .chain(&d.conv.current)
            .find(|w| w.id == a[1] && (w.conv == a[0] || client_side(w) == Some(a[0])))
        {
            Some(w) if w.ty == xtyp::XACT_COMPLETE => {
                (w.user, w.hsz2, w.fmt, w.orig, xst::CONNECTED)
            }
            Some(w) => (w.user, w.hsz2, w.fmt, w.ty, sent_state(w.ty)),
            None => {
                set_error(&mut env.win16.ddeml, c.inst, dmlerr::UNFOUND_QUEUE_ID);
                return Ok(0);
            }
        }
    };
    let mut info = Vec::with_capacity(CONVINFO_SIZE);
    info.extend_from_slice(&(cb as u32).to_le_bytes());
    for v in [user, c.partner, c.svc_partner, c.svc_req, c.topic, item] {
        info.extend_from_slice(&v.to_le_bytes());
    }
    let s = status(d, a[0], &c);
    for w in [fmt, ty, s, convst, c.last_error] {
        info.extend_from_slice(&w.to_le_bytes());
    }
    info.extend_from_slice(&c.list.to_le_bytes());
    info.extend_from_slice(&c.context);
    debug_assert_eq!(info.len(), CONVINFO_SIZE);
    info.truncate(cb);
    farptr::write_bytes(uc, a[2], &info);
    Ok(cb as u32)
}

/// DMLERR_ of a synchronous transaction that timed out.
fn timeout_error(base: u16) -> u32 {
    match base {
        xtyp::REQUEST => dmlerr::DATAACKTIMEOUT,
        xtyp::POKE => dmlerr::POKEACKTIMEOUT,
        xtyp::EXECUTE => dmlerr::EXECACKTIMEOUT,
        xtyp::ADVSTART => dmlerr::ADVACKTIMEOUT,
        _ => dmlerr::UNADVACKTIMEOUT,
    }
}

/// DDEML.11 DdeClientTransaction(lpvData, cbData, hConv, hszItem, uFmt,
/// uType, dwTimeout, lpdwResult) (module notes). *lpdwResult gets the
/// DDE_ status flags (a synchronous transaction) or the transaction id
/// (TIMEOUT_ASYNC).
pub fn dde_client_transaction(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (conv, item, fmt, ty, timeout) = (a[2], a[3], a[4] as u16, a[5] as u16, a[6]);
    let htask = uc.get_data().current_task;
    let stack = (uc.reg(R::SS), uc.reg(R::SP));
    // A task that waits for a blocked synchronous transaction comes back
    // here (it gave up the CPU with Resume::Retry).
    let waiting = env.win16.ddeml.conv.waits.get(&htask).copied();
    if let Some(w) = waiting
        && w.stack == stack
    {
        return finish_wait(env, uc, htask, w, a);
    }
    let Some(c) = env.win16.ddeml.conv.convs.get(&conv).cloned() else {
        return Ok(0);
    };
    // SDK, DdeClientTransaction: another synchronous transaction while one
    // is in progress (from a callback or a message handled meanwhile).
    if waiting.is_some() && timeout != TIMEOUT_ASYNC {
        set_error(&mut env.win16.ddeml, c.inst, dmlerr::REENTRANCY);
        return Ok(0);
    }
    let base = ty & !xtyp::XTYPF_MASK;
    let valid = matches!(
        base,
        xtyp::REQUEST | xtyp::POKE | xtyp::EXECUTE | xtyp::ADVSTART | xtyp::ADVSTOP
    );
    if !c.client || !valid {
        set_error(&mut env.win16.ddeml, c.inst, dmlerr::INVALIDPARAMETER);
        return Ok(0);
    }
    if c.terminated {
        set_error(&mut env.win16.ddeml, c.inst, dmlerr::NO_CONV_ESTABLISHED);
        return Ok(0);
    }
    let data = match base {
        xtyp::POKE | xtyp::EXECUTE if a[0] != 0 => {
            if a[1] == 0xFFFF_FFFF {
                a[0]
            } else {
                let Some(b) = crate::win16::kernel::memory::read_huge(uc, a[0], a[1]) else {
                    set_error(&mut env.win16.ddeml, c.inst, dmlerr::INVALIDPARAMETER);
                    return Ok(0);
                };
                super::new_data(env, uc, &b, fmt, item)
            }
        }
        _ => 0,
    };
    let Some(server) = env.win16.ddeml.conv.convs.get(&c.partner).cloned() else {
        set_error(&mut env.win16.ddeml, c.inst, dmlerr::NO_CONV_ESTABLISHED);
        return Ok(0);
    };
    let id = env.win16.ddeml.conv.new_id();
    let mut w = Work {
        id,
        inst: server.inst,
        conv: c.partner,
        ty: base,
        fmt,
        hsz1: c.topic,
        hsz2: item,
        data,
        data1: 0,
        data2: 0,
        then: Then::Nothing,
        user: 0,
        flags: ty & xtyp::XTYPF_MASK,
        orig: 0,
    };
    // A transaction the server's filters fail never reaches its callback
    // (SDK, DdeInitialize: CBF_FAIL_*): it is not processed.
    let fail = match base {
        xtyp::REQUEST => cbf::FAIL_REQUESTS,
        xtyp::POKE => cbf::FAIL_POKES,
        xtyp::EXECUTE => cbf::FAIL_EXECUTES,
        xtyp::ADVSTART | xtyp::ADVSTOP => cbf::FAIL_ADVISES,
        _ => 0,
    };
    let failed = flags_of(env, server.inst) & fail != 0;
    if timeout == TIMEOUT_ASYNC {
        w.then = Then::Async { conv };
        if failed {
            answered(env, uc, &w, 0)?;
        } else {
            let d = &mut env.win16.ddeml.conv;
            if d.work.len() >= MAX_HANDLES {
                set_error(&mut env.win16.ddeml, c.inst, dmlerr::MEMORY_ERROR);
                return Ok(0);
            }
            d.work.push(w);
            let t = task_of(env, server.inst);
            wake(env, uc, t);
        }
        if a[7] != 0 {
            farptr::write_bytes(uc, a[7], &id.to_le_bytes());
        }
        return Ok(1);
    }
    let answer = if failed {
        Some(0)
    } else if held(&env.win16.ddeml, w.inst, w.conv, w.ty) {
        None
    } else {
        let r = call_back(
            env, uc, w.inst, w.ty, w.fmt, w.conv, w.hsz1, w.hsz2, w.data, 0, 0,
        )?;
        if let Some(s) = env.win16.ddeml.conv.convs.get_mut(&w.conv)
            && std::mem::take(&mut s.block_next)
        {
            s.blocked = true;
        }
        (r != CBR_BLOCK).then_some(r)
    };
    match answer {
        Some(r) => {
            answered(env, uc, &w, r)?;
            let (ret, err, status) = client_result(base, r);
            give_result(env, uc, conv, c.inst, a[7], ret, err, status)
        }
        None => {
            // Held by the server: the client waits (module notes).
            if let Some(s) = env.win16.ddeml.conv.convs.get_mut(&w.conv) {
                s.blocked = true;
            }
            w.then = Then::Sync(htask);
            let now = crate::win16::user::message::now_ms(env, uc);
            let d = &mut env.win16.ddeml.conv;
            d.work.insert(0, w);
            d.waits.insert(
                htask,
                SyncWait {
                    id,
                    stack,
                    deadline: now.saturating_add(timeout),
                    answer: None,
                },
            );
            let sw = d.waits[&htask];
            finish_wait(env, uc, htask, sw, a)
        }
    }
}

/// The client's side of a transaction's end: wLastError, DdeGetLastError,
/// *lpdwResult.
#[allow(clippy::too_many_arguments)]
fn give_result(
    env: &mut Env,
    uc: &mut Uc<'_>,
    conv: u32,
    inst: u32,
    p_result: u32,
    ret: u32,
    err: u32,
    status: u32,
) -> Result<u32, Stop> {
    if let Some(c) = env.win16.ddeml.conv.convs.get_mut(&conv) {
        c.last_error = err as u16;
    }
    if err != dmlerr::NO_ERROR {
        set_error(&mut env.win16.ddeml, inst, err);
    }
    if p_result != 0 {
        farptr::write_bytes(uc, p_result, &status.to_le_bytes());
    }
    Ok(ret)
}

/// A client waiting in a blocked synchronous transaction: the answer when
/// it came, DMLERR_*ACKTIMEOUT once the timeout passed, else the CPU goes
/// to the other tasks (and this call comes again). When no other task can
/// run, nothing can unblock the server: the clock goes on to the deadline.
fn finish_wait(
    env: &mut Env,
    uc: &mut Uc<'_>,
    htask: u16,
    w: SyncWait,
    a: &[u32],
) -> Result<u32, Stop> {
    let conv = a[2];
    let inst = env.win16.ddeml.conv.convs.get(&conv).map_or(0, |c| c.inst);
    if let Some((ret, err, status)) = w.answer {
        env.win16.ddeml.conv.waits.remove(&htask);
        return give_result(env, uc, conv, inst, a[7], ret, err, status);
    }
    let now = crate::win16::user::message::now_ms(env, uc);
    if now < w.deadline
        && crate::win16::scheduler::yield_now(
            env,
            uc,
            crate::win16::scheduler::Wait::Ready,
            crate::win16::scheduler::Resume::Retry,
        )?
    {
        return Ok(0);
    }
    if now < w.deadline {
        env.win16.system.idle_ms += u64::from(w.deadline - now);
    }
    // Timed out: the transaction is abandoned.
    let d = &mut env.win16.ddeml.conv;
    d.waits.remove(&htask);
    d.work.retain(|x| x.id != w.id);
    let base = a[5] as u16 & !xtyp::XTYPF_MASK;
    give_result(env, uc, conv, inst, a[7], 0, timeout_error(base), 0)
}

/// DDEML.12 DdeAbandonTransaction(idInst, hConv, idTransaction): the
/// asynchronous transaction (every one of the conversation when the id is
/// 0, of the instance when hConv is 0 too) is forgotten: no
/// XTYP_XACT_COMPLETE comes for it. TRUE; FALSE with
/// DMLERR_INVALIDPARAMETER (a transaction id without a conversation) or
/// DMLERR_UNFOUND_QUEUE_ID.
pub fn dde_abandon_transaction(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (inst, conv, id) = (a[0], a[1], a[2]);
    let d = &mut env.win16.ddeml;
    if !d.instances.contains_key(&inst) {
        return Ok(0);
    }
    if conv == 0 && id != 0 {
        set_error(d, inst, dmlerr::INVALIDPARAMETER);
        return Ok(0);
    }
    let convs = &d.conv.convs;
    let mine = |w: &Work| {
        let client = match w.then {
            Then::Async { conv } => Some(conv),
            _ if w.ty == xtyp::XACT_COMPLETE => Some(w.conv),
            _ => None,
        };
        client.is_some_and(|cl| {
            (conv == 0 && convs.get(&cl).is_some_and(|c| c.inst == inst))
                || (cl == conv && (id == 0 || w.id == id))
        })
    };
    // SDK, DdeAbandonTransaction: a server that answers afterwards has
    // its answer discarded.
    let mut found = false;
    for w in d.conv.work.iter_mut().chain(d.conv.current.iter_mut()) {
        if mine(w) {
            found = true;
            if w.ty == xtyp::XACT_COMPLETE {
                w.id = u32::MAX;
            } else {
                w.then = Then::Nothing;
            }
        }
    }
    d.conv
        .work
        .retain(|w| !(w.ty == xtyp::XACT_COMPLETE && w.id == u32::MAX));
    if id != 0 && !found {
        set_error(d, inst, dmlerr::UNFOUND_QUEUE_ID);
        return Ok(0);
    }
    Ok(1)
}

/// DdeNameService registered (`register`) or unregistered service `base`
/// (instance name `inst_name`) of instance `inst`: every other instance
/// gets XTYP_REGISTER / XTYP_UNREGISTER, unless it skips them.
pub fn name_notify(
    env: &mut Env,
    uc: &mut Uc<'_>,
    inst: u32,
    base: u32,
    inst_name: u32,
    register: bool,
) -> Result<(), Stop> {
    let (ty, skip) = if register {
        (xtyp::REGISTER, cbf::SKIP_REGISTRATIONS)
    } else {
        (xtyp::UNREGISTER, cbf::SKIP_UNREGISTRATIONS)
    };
    let others: Vec<u32> = env
        .win16
        .ddeml
        .instances
        .iter()
        .filter(|(id, i)| **id != inst && i.flags & skip == 0)
        .map(|(id, _)| *id)
        .collect();
    for o in others {
        call_back(env, uc, o, ty, 0, 0, base, inst_name, 0, 0, 0)?;
    }
    Ok(())
}

/// Task `htask` ended (scheduler.rs, remove_task) without uninitializing
/// its instances: they go, with their conversations; each partner's side
/// is terminated, and its XTYP_DISCONNECT comes through its task's message
/// loop (Windows posted WM_DDE_TERMINATE from the dying instance's
/// windows); a client waiting on one of them fails with
/// DMLERR_NO_CONV_ESTABLISHED.
pub fn task_ended(env: &mut Env, uc: &Uc<'_>, htask: u16) {
    let insts: Vec<u32> = env
        .win16
        .ddeml
        .instances
        .iter()
        .filter(|(_, i)| i.htask == htask)
        .map(|(&id, _)| id)
        .collect();
    if insts.is_empty() {
        return;
    }
    let d = &mut env.win16.ddeml.conv;
    let dead: Vec<(u32, Conv)> = d
        .convs
        .iter()
        .filter(|(_, c)| insts.contains(&c.inst))
        .map(|(&h, c)| (h, c.clone()))
        .collect();
    let mut notify = Vec::new();
    for (h, c) in &dead {
        d.convs.remove(h);
        let server_side = if c.client { c.partner } else { *h };
        d.advises.retain(|l| l.conv != server_side);
        if let Some(p) = d.convs.get_mut(&c.partner)
            && !p.terminated
        {
            p.terminated = true;
            notify.push((p.inst, c.partner));
        }
    }
    let gone = |w: &Work| insts.contains(&w.inst) || dead.iter().any(|(h, _)| *h == w.conv);
    for w in d.work.iter().filter(|w| gone(w)) {
        if let Then::Sync(t) = w.then
            && let Some(s) = d.waits.get_mut(&t)
            && s.id == w.id
        {
            s.answer = Some((0, dmlerr::NO_CONV_ESTABLISHED, 0));
        }
    }
    d.work.retain(|w| !gone(w));
    d.waits.remove(&htask);
    d.woken.retain(|&t| t != htask);
    for l in d.lists.values_mut() {
        l.retain(|h| !dead.iter().any(|(x, _)| x == h));
    }
    env.win16
        .ddeml
        .instances
        .retain(|id, _| !insts.contains(id));
    for (inst, conv) in notify {
        if flags_of(env, inst) & cbf::SKIP_DISCONNECTS != 0 {
            continue;
        }
        let d = &mut env.win16.ddeml.conv;
        if d.work.len() >= MAX_HANDLES {
            break;
        }
        d.work.push(Work {
            id: 0,
            inst,
            conv,
            ty: xtyp::DISCONNECT,
            fmt: 0,
            hsz1: 0,
            hsz2: 0,
            data: 0,
            data1: 0,
            data2: 0,
            then: Then::Nothing,
            user: 0,
            flags: 0,
            orig: 0,
        });
        let t = task_of(env, inst);
        wake(env, uc, t);
    }
}
