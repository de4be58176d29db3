//! DDEML's transaction queue: the transactions that wait for the
//! receiving task's message loop, or for its callback to be enabled
//! (Windows 3.1 SDK, "Dynamic Data Exchange Management Library", the
//! DdeClientTransaction, DdePostAdvise and DdeEnableCallback pages).
//!
//! **Posted, not called.** Windows 3.1's DDEML carried a conversation's
//! transactions as DDE messages posted between its hidden windows, one
//! per instance and conversation; a callback ran when its task's message
//! loop dispatched the message. So does it here for what DDEML posted: an
//! asynchronous transaction (TIMEOUT_ASYNC) reaches the server's callback
//! when the server's task next looks at its queue, its XTYP_XACT_COMPLETE
//! the client's when the client's does, and the advise data DdePostAdvise
//! sends (WM_DDE_DATA) reaches the client's callback as XTYP_ADVDATA when
//! the client's task next retrieves messages (GetMessage, PeekMessage) —
//! not inside DdePostAdvise, whose XTYP_ADVREQ to the server's own
//! callback does run at once. A message DDEML posts to the task
//! ([`WM_DDEML_WAKE`], hWnd 0) stands for those windows' messages: it
//! wakes the task, and USER hands it to [`pump`] instead of to the program
//! (user/message.rs, retrieve), which gives every waiting transaction of
//! the task's instances to its callback, in the order they were posted.
//!
//! **Blocking.** A callback disabled with DdeEnableCallback(EC_DISABLE),
//! or that returned CBR_BLOCK (for the conversation of that transaction),
//! gets nothing that can be blocked (every type without XTYPF_NOBLOCK)
//! until EC_ENABLEONE (the next one) or EC_ENABLEALL (all, and the callback
//! enabled); a client waiting synchronously meanwhile lets the other tasks
//! run, and when its timeout passes first, DdeClientTransaction returns 0
//! with the type's DMLERR_*ACKTIMEOUT.

use super::conv::{Advise, CBR_BLOCK, Conv, DDE_FBUSY, call_back, task_of};
use super::{DDE_FACK, DdemlState, MAX_HANDLES, dmlerr, ec, xtyp};
use crate::machine::{Stop, Uc};
use crate::win16::Env;

/// The message DDEML posts (hWnd 0) to wake a task with DDEML work.
pub const WM_DDEML_WAKE: u16 = 0x03F0;

/// What happens with a callback's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Then {
    /// Nothing (a notification, advise data).
    Nothing,
    /// A client task waits for it in DdeClientTransaction.
    Sync(u16),
    /// XTYP_XACT_COMPLETE goes to the client's side `conv`.
    Async { conv: u32 },
}

/// A transaction for one instance's callback that waits: for the task's
/// message loop (asynchronous), or for the callback to be enabled.
#[derive(Debug, Clone, Copy)]
pub(super) struct Work {
    /// The transaction id (0 for those that have none).
    pub(super) id: u32,
    pub(super) inst: u32,
    /// The receiving side's conversation handle.
    pub(super) conv: u32,
    pub(super) ty: u16,
    pub(super) fmt: u16,
    pub(super) hsz1: u32,
    pub(super) hsz2: u32,
    pub(super) data: u32,
    pub(super) data1: u32,
    pub(super) data2: u32,
    pub(super) then: Then,
    /// DdeSetUserHandle on the transaction id.
    pub(super) user: u32,
    /// The client's XTYPF_ flags (XTYP_ADVSTART).
    pub(super) flags: u16,
    /// For XTYP_XACT_COMPLETE: the type of the transaction it completes.
    pub(super) orig: u16,
}

/// Is a transaction of type `ty` for side `conv` of instance `inst` held
/// now (its callback disabled for it)?
pub(super) fn held(d: &DdemlState, inst: u32, conv: u32, ty: u16) -> bool {
    ty & xtyp::XTYPF_NOBLOCK == 0
        && (d.instances.get(&inst).is_some_and(|i| i.disabled)
            || d.conv.convs.get(&conv).is_some_and(|c| c.blocked))
}

/// Post the task a WM_DDEML_WAKE (once) so its message loop runs [`pump`].
pub(super) fn wake(env: &mut Env, uc: &Uc<'_>, htask: u16) {
    if htask == 0 || env.win16.ddeml.conv.woken.contains(&htask) {
        return;
    }
    let m = crate::win16::user::message::Msg::new(0, WM_DDEML_WAKE, 0, 0);
    if crate::win16::user::message::post_to(env, uc, htask, m, false) {
        env.win16.ddeml.conv.woken.push(htask);
    }
}

/// The task's message loop took its WM_DDEML_WAKE: every transaction
/// waiting for one of its instances that is not held goes to its callback.
pub fn pump(env: &mut Env, uc: &mut Uc<'_>, htask: u16) -> Result<(), Stop> {
    env.win16.ddeml.conv.woken.retain(|&t| t != htask);
    for _ in 0..MAX_HANDLES {
        let d = &env.win16.ddeml;
        let Some(p) = d
            .conv
            .work
            .iter()
            .position(|w| task_of(env, w.inst) == htask && !held(d, w.inst, w.conv, w.ty))
        else {
            break;
        };
        let w = env.win16.ddeml.conv.work.remove(p);
        run(env, uc, w)?;
    }
    Ok(())
}

/// Give `w` to its callback now; a CBR_BLOCK answer holds it again and
/// blocks its conversation.
pub(super) fn run(env: &mut Env, uc: &mut Uc<'_>, w: Work) -> Result<(), Stop> {
    env.win16.ddeml.conv.current.push(w);
    let r = call_back(
        env, uc, w.inst, w.ty, w.fmt, w.conv, w.hsz1, w.hsz2, w.data, w.data1, w.data2,
    );
    let d = &mut env.win16.ddeml;
    let w = d.conv.current.pop().unwrap_or(w);
    let r = r?;
    if let Some(c) = d.conv.convs.get_mut(&w.conv)
        && std::mem::take(&mut c.block_next)
    {
        c.blocked = true;
    }
    if r == CBR_BLOCK && w.ty & xtyp::XTYPF_NOBLOCK == 0 {
        // SDK, DdeEnableCallback: the transaction comes again once the
        // conversation is enabled.
        if let Some(c) = d.conv.convs.get_mut(&w.conv) {
            c.blocked = true;
        }
        if d.conv.work.len() < MAX_HANDLES {
            d.conv.work.insert(0, w);
        }
        return Ok(());
    }
    answered(env, uc, &w, r)
}

/// What the client gets for the server's answer `r` to a transaction of
/// type `base`: (DdeClientTransaction's result, DMLERR_, the DDE_ status
/// flags of *pdwResult and XTYP_XACT_COMPLETE's dwData2).
pub(super) fn client_result(base: u16, r: u32) -> (u32, u32, u32) {
    match base {
        xtyp::REQUEST if r != 0 => (r, dmlerr::NO_ERROR, DDE_FACK),
        xtyp::REQUEST => (0, dmlerr::NOTPROCESSED, 0),
        // SDK, XTYP_ADVSTART: TRUE starts the loop.
        xtyp::ADVSTART if r & 0xFFFF != 0 => (1, dmlerr::NO_ERROR, DDE_FACK),
        xtyp::ADVSTART => (0, dmlerr::NOTPROCESSED, 0),
        xtyp::ADVSTOP => (1, dmlerr::NO_ERROR, DDE_FACK),
        _ if r & DDE_FACK != 0 => (1, dmlerr::NO_ERROR, DDE_FACK),
        _ if r & DDE_FBUSY != 0 => (0, dmlerr::BUSY, DDE_FBUSY),
        _ => (0, dmlerr::NOTPROCESSED, 0),
    }
}

/// A server answered a client's transaction (`w`, on the server's side):
/// advise loops start or stop, and the client gets the result.
pub(super) fn answered(env: &mut Env, uc: &mut Uc<'_>, w: &Work, r: u32) -> Result<(), Stop> {
    let (ret, err, status) = client_result(w.ty, r);
    let d = &mut env.win16.ddeml.conv;
    match w.ty {
        xtyp::ADVSTART if ret != 0 => {
            d.advises
                .retain(|l| !(l.conv == w.conv && l.item == w.hsz2 && l.fmt == w.fmt));
            if d.advises.len() < MAX_HANDLES {
                d.advises.push(Advise {
                    conv: w.conv,
                    item: w.hsz2,
                    fmt: w.fmt,
                    flags: w.flags,
                });
            }
        }
        xtyp::ADVSTOP => d
            .advises
            .retain(|l| !(l.conv == w.conv && l.item == w.hsz2 && l.fmt == w.fmt)),
        _ => {}
    }
    match w.then {
        Then::Nothing => {}
        Then::Sync(task) => {
            if let Some(s) = d.waits.get_mut(&task)
                && s.id == w.id
            {
                s.answer = Some((ret, err, status));
            }
        }
        Then::Async { conv } => {
            let Some(c) = d.convs.get(&conv).cloned() else {
                return Ok(());
            };
            // SDK, XTYP_XACT_COMPLETE: hData the data (a request), TRUE
            // for success without data, NULL for failure.
            let done = Work {
                id: w.id,
                inst: c.inst,
                conv,
                ty: xtyp::XACT_COMPLETE,
                fmt: w.fmt,
                hsz1: w.hsz1,
                hsz2: w.hsz2,
                data: ret,
                data1: w.id,
                data2: status,
                then: Then::Nothing,
                user: w.user,
                flags: 0,
                orig: w.ty,
            };
            if let Some(cl) = d.convs.get_mut(&conv) {
                cl.last_error = err as u16;
            }
            if d.work.len() < MAX_HANDLES {
                d.work.push(done);
            }
            let t = task_of(env, c.inst);
            wake(env, uc, t);
        }
    }
    Ok(())
}

/// DDEML.13 DdePostAdvise(idInst, hszTopic, hszItem): for every advise
/// loop of the instance's conversations on that topic and item (0: any),
/// the server's callback gets XTYP_ADVREQ now (dwData1 the number of
/// XTYP_ADVREQ still to come), and its data is posted to the client,
/// whose callback gets it as XTYP_ADVDATA (hData NULL for an XTYPF_NODATA
/// loop) when the client's task next retrieves messages (module doc),
/// held while the client's callback is blocked; TRUE, FALSE for an
/// unknown instance.
pub fn dde_post_advise(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (inst, topic, item) = (a[0], a[1], a[2]);
    if !env.win16.ddeml.instances.contains_key(&inst) {
        return Ok(0);
    }
    let d = &env.win16.ddeml.conv;
    let loops: Vec<(Advise, Conv)> = d
        .advises
        .iter()
        .filter_map(|l| d.convs.get(&l.conv).map(|c| (*l, c.clone())))
        .filter(|(l, c)| {
            c.inst == inst && (topic == 0 || c.topic == topic) && (item == 0 || l.item == item)
        })
        .collect();
    let mut left = loops.len() as u32;
    for (l, c) in loops {
        left -= 1;
        let data = if l.flags & xtyp::XTYPF_NODATA != 0 {
            0
        } else {
            let h = call_back(
                env,
                uc,
                c.inst,
                xtyp::ADVREQ,
                l.fmt,
                l.conv,
                c.topic,
                l.item,
                0,
                left,
                0,
            )?;
            if h == 0 {
                continue;
            }
            h
        };
        let Some(client) = env.win16.ddeml.conv.convs.get(&c.partner).cloned() else {
            continue;
        };
        let w = Work {
            id: 0,
            inst: client.inst,
            conv: c.partner,
            ty: xtyp::ADVDATA,
            fmt: l.fmt,
            hsz1: c.topic,
            hsz2: l.item,
            data,
            data1: 0,
            data2: 0,
            then: Then::Nothing,
            user: 0,
            flags: 0,
            orig: 0,
        };
        // Posted (WM_DDE_DATA to the client's side): the client's callback
        // gets it when its task next retrieves messages, or, held, when
        // the callback is enabled again.
        let d = &mut env.win16.ddeml.conv;
        if d.work.len() < MAX_HANDLES {
            d.work.push(w);
        }
        if !held(&env.win16.ddeml, w.inst, w.conv, w.ty) {
            let t = task_of(env, w.inst);
            wake(env, uc, t);
        }
    }
    Ok(1)
}

/// DDEML.26 DdeEnableCallback(idInst, hConv, wCmd): EC_DISABLE blocks
/// the instance's callback (for conversation hConv, or every one when
/// hConv is 0); EC_ENABLEALL enables it and gives it every held
/// transaction; EC_ENABLEONE gives it the next one and leaves it blocked
/// after. Asynchronous ones then come through the task's message loop.
/// EC_QUERYWAITING changes nothing: TRUE when transactions wait for the
/// callback. TRUE, FALSE for an unknown instance or conversation or
/// command.
pub fn dde_enable_callback(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (inst, conv, cmd) = (a[0], a[1], a[2] as u16);
    let d = &mut env.win16.ddeml;
    if !d.instances.contains_key(&inst)
        || (conv != 0 && d.conv.convs.get(&conv).is_none_or(|c| c.inst != inst))
    {
        return Ok(0);
    }
    let set = |d: &mut DdemlState, blocked: bool, next: bool| {
        if conv == 0 {
            if let Some(i) = d.instances.get_mut(&inst) {
                i.disabled = blocked && !next;
            }
        }
        for (h, c) in d.conv.convs.iter_mut() {
            if c.inst == inst && (conv == 0 || *h == conv) {
                c.blocked = blocked && !next;
                c.block_next = next;
            }
        }
    };
    let mine = |w: &Work| w.inst == inst && (conv == 0 || w.conv == conv);
    match cmd {
        ec::QUERYWAITING => return Ok(u32::from(d.conv.work.iter().any(mine))),
        ec::DISABLE => set(d, true, false),
        ec::ENABLEALL => {
            set(d, false, false);
            deliver_held(env, uc, inst, &mine, usize::MAX)?;
        }
        ec::ENABLEONE => {
            set(d, true, true);
            deliver_held(env, uc, inst, &mine, 1)?;
        }
        _ => return Ok(0),
    }
    Ok(1)
}

/// Give up to `n` held transactions of `inst` (those `mine` takes) to its
/// callback now, when it runs in this task; otherwise wake its task.
pub(super) fn deliver_held(
    env: &mut Env,
    uc: &mut Uc<'_>,
    inst: u32,
    mine: &dyn Fn(&Work) -> bool,
    n: usize,
) -> Result<(), Stop> {
    let htask = task_of(env, inst);
    if htask != uc.get_data().current_task {
        wake(env, uc, htask);
        return Ok(());
    }
    for _ in 0..n.min(MAX_HANDLES) {
        let d = &env.win16.ddeml;
        let Some(p) = d.conv.work.iter().position(|w| {
            mine(w)
                && d.conv
                    .convs
                    .get(&w.conv)
                    .is_some_and(|c| !c.blocked || c.block_next)
        }) else {
            break;
        };
        let w = env.win16.ddeml.conv.work.remove(p);
        run(env, uc, w)?;
    }
    Ok(())
}
