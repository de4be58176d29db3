//! `toolhelp16 heap`: the heaps at a stop, as a TOOLHELP heap walker of
//! the time (HEAPWALK) showed them. The global heap is every item
//! GlobalFirst/GlobalNext(GLOBAL_ALL) give (blocks, free arenas, the two
//! sentinels; `crate::win16::toolhelp_global`), with its GLOBALENTRY and
//! its owner's module name; `--local` adds one local heap's LocalFirst/
//! LocalNext walk (`crate::win16::toolhelp_heap`, which reads the heap's
//! arenas from emulated memory). Both come from the same functions the
//! program's own TOOLHELP calls reach, so a heap walker run in the
//! program sees the same blocks.

use std::path::PathBuf;

use super::json as j;
use super::{EXIT_LOAD, RunOpts, fail, load_and_run_with, output, print_json, say};
use crate::session::Loc;
use crate::win16::toolhelp_heap as th;

/// `heap [--at LOC] [--local MODULE|SELECTOR] FILE...`.
pub fn heap(
    opts: &RunOpts,
    at: Option<&str>,
    local: Option<&str>,
    files: &[PathBuf],
    args: &[String],
) -> i32 {
    let loc: Option<Loc> = match at.map(str::parse) {
        None => None,
        Some(Ok(l)) => Some(l),
        Some(Err(e)) => return fail(EXIT_LOAD, &format!("--at {}: {e}", at.unwrap_or(""))),
    };
    let at_arg = loc.as_ref().map(|l| (l, at.unwrap_or("")));
    let (prog, stop) = match load_and_run_with(opts, files, args, false, at_arg, &mut |_| Ok(())) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let reached = loc
        .as_ref()
        .is_some_and(|l| crate::session::after_reached(l, &stop, opts.max_insns));
    let Some(env) = prog.machine.environment::<crate::system::Env>() else {
        return fail(EXIT_LOAD, "no Windows environment");
    };
    let uc = &*prog.machine;
    let global: Vec<j::GlobalBlockView> = crate::win16::toolhelp_global::global_entries(env, uc)
        .into_iter()
        .map(|g| j::GlobalBlockView {
            dwAddress: g.dw_address,
            dwBlockSize: g.dw_block_size,
            hBlock: g.h_block,
            wcLock: g.wc_lock,
            wcPageLock: g.wc_page_lock,
            wFlags: g.w_flags,
            wHeapPresent: g.w_heap_present != 0,
            hOwner: g.h_owner,
            owner: th::owner_name(env, g.h_owner),
            wType: g.w_type,
            r#type: th::gt_name(g.w_type).to_string(),
            wData: g.w_data,
        })
        .collect();
    let local_view = match local {
        None => None,
        Some(what) => {
            let heap = th::local_heap_segment(env, what).and_then(|s| th::find_heap(env, uc, s));
            let Some(heap) = heap else {
                return fail(
                    EXIT_LOAD,
                    &format!(
                        "{}: --local {what}: {} holds no local heap at this stop ({})",
                        prog.path.display(),
                        if env.win16.module_by_name(what).is_some() {
                            "the module's data segment"
                        } else {
                            "no module of that name, and the segment"
                        },
                        output::describe(&stop)
                    ),
                );
            };
            let entries = th::typed_entries(env, uc, &heap);
            Some(j::LocalHeapView {
                selector: heap.selector,
                hHeap: heap.h_heap,
                wHeapType: heap.heap_type,
                wcItems: entries.len().min(0xFFFF) as u16,
                entries: entries
                    .iter()
                    .map(|e| j::LocalEntryView {
                        hHandle: e.h_handle,
                        wAddress: e.w_address,
                        wSize: e.w_size,
                        wFlags: e.w_flags,
                        flags: th::lf_name(e.w_flags).to_string(),
                        wcLock: e.wc_lock,
                        wType: e.w_type,
                        r#type: th::lt_name(heap.heap_type, e.w_type),
                        wNext: e.w_next,
                    })
                    .collect(),
            })
        }
    };
    let doc = j::Heap {
        file: prog.path.display().to_string(),
        reached,
        stop: output::stop_json(&stop),
        global,
        local: local_view,
    };
    if opts.json {
        print_json(&j::Doc::new("heap", doc));
    } else {
        say(&text(&doc));
    }
    if loc.is_none() || reached {
        0
    } else {
        super::exit_code(&stop).max(1)
    }
}

/// The text report: the stop, the global heap's table, the local heap's.
fn text(h: &j::Heap) -> String {
    let mut s = format!("{}: {}\n", h.file, h.stop.text);
    s.push_str(&format!(
        "global heap (GlobalFirst, GlobalNext): {} items (blocks, {} free, 2 sentinels)\n",
        h.global.len(),
        h.global
            .iter()
            .filter(|g| g.wType == crate::win16::global::gt::FREE)
            .count()
    ));
    s.push_str(
        "  address   handle  size      lock  plock  heap  owner              type          data\n",
    );
    for g in &h.global {
        s.push_str(&format!(
            "  {:08X}  {:04X}    {:08X}  {:<4}  {:<5}  {:<4}  {:<17}  {:<12}  {}\n",
            g.dwAddress,
            g.hBlock,
            g.dwBlockSize,
            g.wcLock,
            g.wcPageLock,
            if g.wHeapPresent { "yes" } else { "" },
            g.owner,
            g.r#type,
            if g.wData != 0 {
                g.wData.to_string()
            } else {
                String::new()
            }
        ));
    }
    if let Some(l) = &h.local {
        s.push_str(&format!(
            "\nlocal heap in segment {:04X} (hHeap {:04X}, {}): {} entries (LocalFirst, LocalNext)\n",
            l.selector,
            l.hHeap,
            th::heap_type_name(l.wHeapType),
            l.wcItems
        ));
        s.push_str("  handle  address  size   flags     lock  type\n");
        for e in &l.entries {
            s.push_str(&format!(
                "  {:04X}    {:04X}     {:<5}  {:<8}  {:<4}  {}\n",
                e.hHandle, e.wAddress, e.wSize, e.flags, e.wcLock, e.r#type
            ));
        }
    }
    s
}
