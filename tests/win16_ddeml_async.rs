//! DDEML between two programs as Windows 3.1 ran it: a server and a
//! client built with Open Watcom C (tests/watcom/ddeasrv.c, ddeacli.c),
//! each with its own instance and its own side of each conversation.
//!
//! Expected values (Windows 3.1 SDK, "Dynamic Data Exchange Management
//! Library" and its reference pages; KB Q83916 for CONVINFO.wStatus):
//! - XTYP_REGISTER / XTYP_UNREGISTER go to the other instances when one
//!   registers / unregisters a service name (hsz1 the base name, hsz2 the
//!   instance-specific name);
//! - each side has its own conversation handle: CONVINFO.hConvPartner of
//!   one side is the other side's handle; a client's wStatus is
//!   ST_CONNECTED | ST_ISLOCAL | ST_CLIENT (0x15), a server's lacks
//!   ST_CLIENT (0x05); sizeof(CONVINFO) is 58 (Windows 3.1's DDEML.H);
//! - DdeClientTransaction: DDE_FBUSY gives DMLERR_BUSY (4001), a poke not
//!   processed DMLERR_NOTPROCESSED (4009), *pdwResult the DDE_ flags;
//!   TIMEOUT_ASYNC returns TRUE with the id, the server's callback runs
//!   when the server's task retrieves messages, XTYP_XACT_COMPLETE when
//!   the client's does, with dwData1 the id, hData TRUE (execute) or the
//!   data, dwData2 DDE_FACK, and the hUser DdeSetUserHandle gave;
//! - CBR_BLOCK holds the transaction until DdeEnableCallback; a server
//!   blocked past the timeout: DMLERR_DATAACKTIMEOUT (4002), which
//!   CONVINFO.wLastError keeps; DdeAbandonTransaction: no completion, an
//!   unknown id DMLERR_UNFOUND_QUEUE_ID (4011); a synchronous transaction
//!   while one waits: DMLERR_REENTRANCY (400D);
//! - DdeConnectList without a topic: XTYP_WILDCONNECT, one conversation
//!   per HSZPAIR, each ST_INLIST (0x55);
//! - the server's DdeDisconnect: XTYP_DISCONNECT in the client, whose
//!   handle stays terminated (ST_TERMINATED | ST_ISLOCAL | ST_CLIENT,
//!   0x34); a transaction then fails with DMLERR_NO_CONV_ESTABLISHED
//!   (400A); DdeUninitialize ends the instance's conversations, and so
//!   does the end of a task that did not call it.

mod common;

use common::run_together;

#[test]
fn two_programs_hold_a_ddeml_conversation_each_with_its_own_side() {
    let Some((out, v, lines)) = run_together(&["ddeasrv", "ddeacli"]) else {
        return;
    };
    let value = |prefix: &str| {
        lines
            .iter()
            .find_map(|l| l.strip_prefix(prefix))
            .unwrap_or_else(|| panic!("no {prefix:?} in {lines:#?}"))
            .to_string()
    };
    // Two sides, two handles, each the other's partner.
    let server_conv = value("server conv ");
    let client_conv = value("client conv ");
    assert_ne!(server_conv, client_conv, "{lines:#?}");
    assert_eq!(value("client partner "), server_conv, "{lines:#?}");
    let expected = [
        "server ready",
        "server register AsyncCli inst named",
        "server unregister AsyncCli inst named",
        "client nobody 0 error 400A",
        "server connect AsyncSrv Topic same 0",
        "server confirm Topic",
        &format!("server conv {server_conv}"),
        &format!("client conv {client_conv}"),
        &format!("client partner {server_conv}"),
        "client info cb 58 status 15 convst 2 svc AsyncSrv req AsyncSrv topic Topic item 0 fmt 0 type 0 error 0 list 0",
        "server execute [query]",
        &format!("server info status 5 topic Topic partner {client_conv}"),
        "client execute 1 result 8000",
        "server poke Busy",
        "client poke busy 0 error 4001 result 4000",
        "server poke Nack",
        "client poke nack 0 error 4009 result 0",
        // Asynchronous: started, queried, and only then served.
        "client async 1 id set",
        "client async info type 4050 convst 9 user 5678",
        "server execute [go]",
        "client complete id ok data 1 status 8000 user 5678 type 4050",
        "client async request 1",
        "server request Item",
        "client complete id ok data 42 status 8000 user 0 type 20B0",
        // CBR_BLOCK: the request comes again once the server enables.
        "server request Block",
        "server blocks",
        // A transaction from a message handled while this one waits.
        "client reentrant 0 error 400D",
        "server enables",
        "server request Block",
        "client block late error 0",
        "server execute [disable]",
        "client timeout 0 error 4002 waited 1000+",
        "client after cb 58 status 15 convst 2 svc AsyncSrv req AsyncSrv topic Topic item 0 fmt 0 type 0 error 4002 list 0",
        "client held info type 20B0 convst 5",
        "client abandon 1",
        "client abandon unknown 0 error 4011",
        // The abandoned request still reaches the server; its answer is
        // discarded: one completion, the second request's.
        "server enables",
        "server request Item",
        "server request Item",
        "client complete id ok data 42 status 8000 user 0 type 20B0",
        "client advstart 1",
        "client advise cb 58 status 17 convst 2 svc AsyncSrv req AsyncSrv topic Topic item 0 fmt 0 type 0 error 0 list 0",
        "server wildconnect service AsyncSrv topic (any)",
        "server confirm Topic",
        "server confirm Other",
        "client list Topic status 55 inlist 1",
        "client list Other status 55 inlist 1",
        "client list count 2",
        "server disconnect",
        "server disconnect",
        "client list disconnect 1",
        "server ends status 7",
        "client disconnect",
        "client saw disconnect 1",
        "client ended cb 58 status 34 convst 0 svc AsyncSrv req AsyncSrv topic Topic item 0 fmt 0 type 0 error 0 list 0",
        "client after end 0 error 400A",
        "client disconnect 1",
        "server connect AsyncSrv Topic same 0",
        "server confirm Topic",
        "server disconnect",
        "client uninitialize 1",
        "server connect AsyncSrv Topic same 0",
        "server confirm Topic",
        "client done",
        // The client's task ended holding a conversation.
        "server disconnect",
        "server done",
    ];
    assert_eq!(lines, expected, "{v:#}");
    assert_eq!(out.status.code(), Some(0), "{v:#}");
}
