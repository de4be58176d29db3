//! The thunk dispatch: what runs when a program calls a system function
//! through its thunk (`int F0h`, api.rs): the arguments read from the
//! caller's stack, GDI's metafile hook, the function, USER's menu heap
//! brought up to date, the relay log, the result in DX:AX. It reaches
//! every subsystem, so it sits above them all, with the table (table.rs).

use super::{
    API_INT, Env, THUNK_SIZE, UNKNOWN_NAME_ORDINAL, api, fault, gdi, return_address, user,
};
use crate::machine::{Cpu, R, Stop, Uc};

/// Called from the interrupt hook when a thunk runs.
pub fn call_api(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let cs = uc.reg(R::CS);
    let ip = uc.reg(R::IP).wrapping_sub(2);
    let Some(&idx) = env.win16.thunk_segments.get(&cs) else {
        return Err(crate::dos::unimplemented(uc, format!("INT {API_INT:02X}h")));
    };
    if ip == fault::FAULT_PASS_ON && env.win16.modules[idx].name == "TOOLHELP" {
        return fault::pass_on(env, uc);
    }
    let k = usize::from(ip / THUNK_SIZE);
    // The function was found when the thunk was made: no search here.
    let Some(found) = env.win16.modules[idx].thunks.get(k).map(|t| t.api) else {
        return Err(Stop::Error(format!(
            "a thunk at {cs:04X}:{ip:04X} that was never resolved ran"
        )));
    };
    let (ss, sp) = (uc.reg(R::SS), uc.reg(R::SP));
    let (ret_cs, ret_ip) = return_address(uc, ss, sp);
    let Some(api) = found else {
        let bp = uc.reg(R::BP);
        let thunk = &env.win16.modules[idx].thunks[k];
        // An import by a name the module does not know has no ordinal
        // (its thunk's number is made up): MODULE.NAME.
        let what = match (&thunk.name, thunk.ordinal >= UNKNOWN_NAME_ORDINAL) {
            (Some(n), true) => format!("{}.{n}", thunk.module),
            (Some(n), false) => format!("{}.{} {n}", thunk.module, thunk.ordinal),
            (None, _) => format!("{}.{}", thunk.module, thunk.ordinal),
        };
        let why = env
            .win16
            .absent
            .get(&env.win16.modules[idx].hmodule)
            .map(|w| format!(" ({w})"))
            .unwrap_or_default();
        return Err(Stop::Unimplemented {
            what: format!("{what}{why}"),
            caller: (ret_cs, ret_ip, bp),
        });
    };
    // The arguments on this stack frame, without allocating (a function
    // declaring more than MAX_ARGS_INLINE gets a Vec).
    let mut inline = [0u32; api::MAX_ARGS_INLINE];
    let spilled;
    let args: &[u32] = match inline.get_mut(..api.args.len()) {
        Some(a) => {
            api.read_args_into(uc, ss, sp, a);
            a
        }
        None => {
            spilled = api.read_args(uc, ss, sp);
            &spilled
        }
    };
    env.win16.scheduler.switched = false;
    // GDI's hook: a call on a metafile DC is recorded instead
    // (gdi/mod.rs, before_call).
    let r = match gdi::before_call(env, uc, api, args)? {
        Some(r) => r,
        None => (api.func)(env, uc, args)?,
    };
    if api.module == "USER" {
        // The menus' blocks in USER's menu heap follow what the call did
        // (user/heap.rs).
        user::heap::sync_menus(env, uc);
    }
    let switched = std::mem::take(&mut env.win16.scheduler.switched);
    // The relay log: MODULE.NAME(args) -> DX:AX, from the caller's CS:IP;
    // only when asked for (`--events`): formatting every call is a cost
    // an unlogged run does not pay.
    if env.dos.log_calls {
        relay_log(uc, api, args, r, switched, (cs, ip), (ret_cs, ret_ip));
    }
    if switched {
        // The registers are now another task's; this task gets its result
        // when it resumes (scheduler.rs).
        if let Some(text) = env.win16.scheduler.switch_event.take() {
            crate::machine::record_event_at(uc, cs, ip.wrapping_add(2), text);
        }
        return Ok(());
    }
    uc.set_reg(R::AX, r as u16).map_err(|e| Stop::Error(e.0))?;
    uc.set_reg(R::DX, (r >> 16) as u16)
        .map_err(|e| Stop::Error(e.0))?;
    Ok(())
}

/// One line of the relay log (`--events`): `call MODULE.NAME(args) ->
/// DX:AX from CS:IP`, at the thunk that was called.
fn relay_log(
    uc: &mut Uc<'_>,
    api: &api::Api,
    args: &[u32],
    r: u32,
    switched: bool,
    (cs, ip): (u16, u16),
    (ret_cs, ret_ip): (u16, u16),
) {
    let shown: Vec<String> = args
        .iter()
        .zip(api.args)
        .map(|(v, a)| match a {
            api::Arg::W => format!("{v:04X}"),
            api::Arg::L => format!("{:04X}:{:04X}", v >> 16, v & 0xFFFF),
        })
        .collect();
    let result = if switched {
        "gives up the CPU".to_string()
    } else {
        format!("{:04X}:{:04X}", r >> 16, r & 0xFFFF)
    };
    crate::machine::record_event_at(
        uc,
        cs,
        ip.wrapping_add(2),
        format!(
            "call {}.{}({}) -> {result} from {ret_cs:04X}:{ret_ip:04X}",
            api.module,
            api.sdk_name(),
            shown.join(", "),
        ),
    );
}
