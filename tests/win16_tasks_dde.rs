//! Two Win16 tasks in one run, as Windows 3.1 ran them: a DDEML server and
//! client built with Open Watcom C (tests/watcom/ddesrv.c, ddecli.c) talk
//! through DDEML and through messages sent between their tasks. Each
//! callback prints whether it runs with its own task's SS and DS.
//!
//! Expected values: Windows 3.1 SDK, DdeClientTransaction (a request
//! returns the server's data, a poke, execute or advise start the server
//! acknowledged returns TRUE), DdePostAdvise (XTYP_ADVREQ in the server,
//! the data posted: XTYP_ADVDATA in the client when the client's task
//! retrieves its messages), DdeEnableCallback (EC_DISABLE holds
//! transactions, EC_ENABLEALL gives them), InSendMessage (TRUE while
//! handling a message another task sent, FALSE for a posted one),
//! ReplyMessage (SendMessage returns the replied value, and the sender
//! goes on before the receiver's procedure returns), PeekMessage (with
//! an empty queue it yields to other tasks unless PM_NOYIELD).

mod common;

use common::run_together;

#[test]
fn a_ddeml_server_and_client_run_each_in_its_own_task() {
    let Some((out, v, lines)) = run_together(&["ddesrv", "ddecli"]) else {
        return;
    };
    // Each callback runs in its own task (the server's for the server
    // instance, the client's for the client's): its SS and DS.
    assert_eq!(
        lines,
        [
            "server ready",
            "server connect ss own ds own",
            "server confirm",
            "client connect 1",
            "server request ss own ds own",
            "client request 42",
            "server poke hello",
            "client poke 1",
            "server execute [run]",
            "client execute 1",
            "server advstart ss own ds own",
            "client advstart 1",
            // The first advise: the sent message runs in the server, which
            // posts the advise (its XTYP_ADVREQ at once, in the server);
            // then it replies, and the client goes on at once.
            "server sent insend 1",
            "server sent ss own ds own",
            // The client waits in SendMessage (USER), called from its
            // WinMain (walk.md, StackTraceFirst), on its own stack.
            "server walks client USER DDECLI ss its own",
            "server advreq 1 left 0 ss own ds own",
            "client send 1234",
            // The advise data was posted: the client's callback runs in
            // the client when it retrieves its messages.
            "client advdata 1 ss own ds own",
            // The server waits in ReplyMessage (USER), called from its
            // window procedure, which has not returned yet.
            "client walks server USER DDESRV ss its own",
            "server sent insend 1",
            "server sent ss own ds own",
            "server advreq 2 left 0 ss own ds own",
            "client send 1234",
            "client advdata 2 ss own ds own",
            // Held while the client's callback is disabled, though the
            // client retrieves its messages.
            "server sent insend 1",
            "server sent ss own ds own",
            "server advreq 3 left 0 ss own ds own",
            "client enables",
            "client advdata 3 ss own ds own",
            "server advstop",
            "client advstop 1",
            // No loop any more: no XTYP_ADVREQ.
            "server sent insend 1",
            "server sent ss own ds own",
            // The client polls; the server runs meanwhile.
            "server posted insend 0",
            "server posts to the client",
            "client peek got 405",
            // Raw DDE: the initiate broadcast runs in the server (sent),
            // its acknowledgement back in the client (sent); the data
            // comes posted, in a GMEM_DDESHARE block (SDK, GlobalFlags).
            "server dde initiate TestSrv Topic insend 1",
            "client dde ack insend 1",
            "client dde server 1",
            "server dde request Item format 1",
            "client dde data 77 response 1 release 1 format 1 share 1",
            "server dde terminate",
            "client dde terminate",
            // The server's timer fires while the client polls, and the
            // server runs (a PeekMessage that never yielded would poll
            // forever: the server's tick would never come).
            "server timer",
            "client timer peek got 408 elapsed 3000+",
            // A second instance with filters: XTYP_CONNECT (1062) only,
            // no confirmation; the poke fails unseen
            // (DMLERR_NOTPROCESSED, 4009); the request (20B0) is
            // answered; no XTYP_DISCONNECT.
            "second got 1062",
            "client second poke 0 error 4009",
            "second got 20B0",
            "client second request two",
            "client second disconnect 1",
            "server disconnect",
            "client disconnect 1",
            "client done",
            "server done",
        ],
        "{v:#}"
    );
    // The run's exit code is the first program's (README, several
    // programs in one run).
    assert_eq!(out.status.code(), Some(0), "{v:#}");
}

#[test]
fn a_fault_in_a_message_sent_from_another_task_is_the_receivers() {
    let Some((out, v, _)) = run_together(&["ddesrv", "sendflt"]) else {
        return;
    };
    let output = v["output"].as_str().unwrap();
    let hex = |line: &str, key: &str| {
        let at = line.find(key).unwrap() + key.len();
        u64::from_str_radix(&line[at..at + 4], 16).unwrap()
    };
    let server_ss = hex(output, "server faults ss ");
    let sender_ss = hex(output, "sender ss ");
    assert_ne!(server_ss, sender_ss, "{output}");
    // The fault is the server's: its module, its registers (SS and DS its
    // own), and a walk of its own stack only.
    let f = &v["fault"];
    assert_eq!(f["module"], "DDESRV", "{v:#}");
    assert_eq!(f["registers"]["ss"], server_ss, "{v:#}");
    assert_eq!(f["registers"]["ds"], server_ss, "{v:#}");
    let frames = v["frames"].as_array().unwrap();
    assert_eq!(frames[0]["module"], "DDESRV", "{v:#}");
    assert!(frames.iter().all(|fr| fr["wSS"] == server_ss), "{v:#}");
    // The server was parked in GetMessage (its loop, ddesrv.c) when the
    // message came: the walk passes USER's GetMessage thunk, where the
    // task resumes to run GetMessage again, and names it GetMessage, not
    // the thunk before it (a return address one byte back).
    let user: Vec<&str> = frames
        .iter()
        .filter(|fr| fr["module"] == "USER")
        .filter_map(|fr| fr["symbol"].as_str())
        .collect();
    assert_eq!(user, ["GetMessage"], "{v:#}");
    // The server's task ends (Windows 3.1's default action); the sender,
    // waiting in SendMessage, goes on with 0 and exits with its own code.
    // The server was the first program named: the run's result is its
    // end, an unhandled fault (README, "Faults": exit status 121).
    assert!(output.ends_with("sender got 0\r\n"), "{output}");
    let exits = v["task_exits"].as_array().unwrap();
    assert_eq!(exits.len(), 2, "{v:#}");
    assert_eq!(exits[0]["code"], 255, "{v:#}");
    assert_eq!(exits[1]["code"], 3, "{v:#}");
    assert_eq!(out.status.code(), Some(121), "{v:#}");
}
