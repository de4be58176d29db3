//! Timers: SetTimer, KillTimer, and their ticks on the emulated clock (the
//! headless session's step 2, message.rs).

use super::{MAX_QUEUE, Msg, QS_TIMER, WM_TIMER, event};
use crate::machine::{Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};
use crate::win16::farptr::split;

/// How many times each timer fires on an otherwise empty queue after the
/// task's last script input line (module doc).
pub const IDLE_TICKS: u8 = 3;
const MAX_TIMERS: usize = 64;

/// A timer (SetTimer).
#[derive(Debug, Clone, Copy)]
pub struct Timer {
    pub hwnd: u16,
    pub id: u16,
    pub elapse: u32,
    pub proc_: (u16, u16),
    /// The task whose queue gets its WM_TIMER: its window's, or the one
    /// that set it.
    pub htask: u16,
    /// When it is due next, in emulated milliseconds (GetTickCount).
    pub due: u64,
}

/// The emulated clock in milliseconds (GetTickCount).
fn now_ms(env: &mut Env, uc: &mut Uc<'_>) -> u64 {
    u64::from(env.win16.system.tick_ms(crate::machine::time::observe(uc)))
}

/// Fire task `htask`'s timer that is due soonest (the first set, among
/// equals): WM_TIMER is posted, the clock skipping ahead to its due time
/// when that is still to come (module doc). With `idle`, only timers that
/// have fired fewer than [`IDLE_TICKS`] times since the last script line
/// count. False when no timer fires.
pub(super) fn fire_timer(env: &mut Env, uc: &mut Uc<'_>, htask: u16, idle: bool) -> bool {
    let now = now_ms(env, uc);
    let Some(i) = next_timer(env, htask, idle) else {
        return false;
    };
    let u = &env.win16.user;
    if u.queues
        .get(&htask)
        .is_some_and(|q| q.input.len() >= MAX_QUEUE)
    {
        return false;
    }
    let t = &mut env.win16.user.timers[i];
    let at = t.due.max(now);
    t.due = at + u64::from(t.elapse.max(1));
    let key = (t.hwnd, t.id);
    let m = Msg {
        time: at as u32,
        pt: env.win16.user.cursor.pos,
        ..Msg::new(
            t.hwnd,
            WM_TIMER,
            t.id,
            u32::from(t.proc_.0) << 16 | u32::from(t.proc_.1),
        )
    };
    env.win16.system.idle_ms += at - now;
    let q = env.win16.user.queue(htask);
    if idle {
        *q.idle_fired.entry(key).or_default() += 1;
    }
    q.input.push_back(m);
    q.new_bits |= QS_TIMER;
    event(
        uc,
        format!("timer {:04X} #{} fires at {at} ms", m.hwnd, m.wparam),
    );
    true
}

/// When task `htask`'s timer that [`fire_timer`] would fire next is due
/// (ms on the emulated clock).
pub(crate) fn next_due(env: &Env, htask: u16) -> Option<u64> {
    next_timer(env, htask, true).map(|i| env.win16.user.timers[i].due)
}

/// The index of task `htask`'s timer due soonest ([`fire_timer`]).
fn next_timer(env: &Env, htask: u16, idle: bool) -> Option<usize> {
    let u = &env.win16.user;
    let fired = u.queues.get(&htask).map(|q| &q.idle_fired);
    // At most MAX_TIMERS timers ever get idle ticks between script lines.
    let may_idle = |t: &Timer| {
        let n = fired.and_then(|f| f.get(&(t.hwnd, t.id)).copied());
        let room = fired.is_none_or(|f| f.len() < MAX_TIMERS);
        n.map_or(room, |n| n < IDLE_TICKS)
    };
    u.timers
        .iter()
        .enumerate()
        .filter(|(_, t)| t.htask == htask && (!idle || may_idle(t)))
        .filter(|(_, t)| t.hwnd == 0 || u.window(t.hwnd).is_some())
        .min_by_key(|(i, t)| (t.due, *i))
        .map(|(i, _)| i)
}

/// USER.10 SetTimer(hWnd, nIDEvent, wElapse, lpTimerFunc) -> id: due
/// wElapse milliseconds from now on the emulated clock (module doc).
fn set_timer(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hwnd = a[0] as u16;
    let elapse = a[2] & 0xFFFF;
    let now = now_ms(env, uc);
    let htask = env
        .win16
        .user
        .window(hwnd)
        .map_or(uc.get_data().current_task, |w| w.htask);
    let t = Timer {
        hwnd,
        id: a[1] as u16,
        elapse,
        proc_: split(a[3]),
        htask,
        due: now + u64::from(elapse.max(1)),
    };
    let u = &mut env.win16.user;
    u.timers.retain(|x| !(x.hwnd == t.hwnd && x.id == t.id));
    if u.timers.len() >= MAX_TIMERS {
        return Ok(0);
    }
    u.timers.push(t);
    Ok(u32::from(t.id.max(1)))
}

/// USER.12 KillTimer(hWnd, nIDEvent).
fn kill_timer(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let u = &mut env.win16.user;
    let n = u.timers.len();
    u.timers
        .retain(|x| !(x.hwnd == a[0] as u16 && x.id == a[1] as u16));
    Ok(u32::from(u.timers.len() != n))
}

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new(
        "USER",
        10,
        "SETTIMER",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        set_timer,
    ),
    Api::new("USER", 12, "KILLTIMER", &[Arg::W, Arg::W], kill_timer),
];
