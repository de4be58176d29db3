//! ReplyMessage between two Win16 tasks, as Windows 3.1 ran them: the
//! receiver (tests/watcom/replyrcv.c) answers messages the sender
//! (tests/watcom/replysnd.c) sends, and both print in one output what they
//! do, in the order they ran.
//!
//! Expected values: Windows 3.1 SDK, ReplyMessage ("allows the task that
//! called SendMessage to continue to run as though the task that received
//! the message had returned control. The task that calls ReplyMessage also
//! continues to run"; no effect for a message not sent from another task),
//! SendMessage (the sender does not go on until the receiver returns or
//! replies, so a receiver that yields without replying keeps it blocked),
//! InSendMessage (nonzero while processing a message another task sent).
//! Windows 3.1's ReplyMessage stores the result in the sender's queue,
//! clears the receiving queue's record of the sender (InSendMessage is
//! FALSE from then on) and yields to the sender directly (DirectedYield),
//! as Wine's 16-bit USER records; the sender then runs until it yields,
//! and the receiver finishes its window procedure after that.

mod common;

use common::run_together;

#[test]
fn reply_message_lets_the_sender_go_on_before_the_receiver_returns() {
    let Some((out, v, lines)) = run_together(&["replyrcv", "replysnd"]) else {
        return;
    };
    assert_eq!(
        lines,
        [
            "receiver ready",
            "sender insend 0",
            // Replied: the sender has 0x1234 and runs before the rest of
            // the window procedure, which goes on when the sender yields.
            "receiver got 1, insend 1",
            "sender got 1234",
            "receiver replied, insend 0",
            "receiver goes on",
            "sender back from yield",
            // Not replied: the sender stays blocked while the receiver
            // yields, and gets the procedure's own result.
            "receiver got 2, insend 1",
            "receiver back from yield, insend 1",
            "sender got 42",
            // A reply from inside a message the receiver sent itself
            // answers the other task's message.
            "receiver got 3, insend 1",
            "receiver own message, insend 1",
            "sender got 77",
            "receiver own send returned 44",
            "receiver after own send, insend 0",
            "sender back from yield",
            // Within one task ReplyMessage has no effect.
            "sender own send got 6",
            "sender done",
            "receiver done",
        ],
        "{v:#}"
    );
    assert_eq!(out.status.code(), Some(0), "{v:#}");
}

#[test]
fn a_sender_that_ends_after_the_reply_leaves_the_receiver_to_finish() {
    let Some((out, v, lines)) = run_together(&["replyrcv", "replyend"]) else {
        return;
    };
    assert_eq!(
        lines,
        [
            "receiver ready",
            "receiver got 1, insend 1",
            // The reply runs the sender, which ends; the receiver's
            // procedure goes on, and its loop then takes the WM_USER+9
            // posted before the send.
            "sender got 1234",
            "sender ends",
            "receiver replied, insend 0",
            "receiver goes on",
            "receiver done",
        ],
        "{v:#}"
    );
    let exits = v["task_exits"].as_array().unwrap();
    assert_eq!(exits.len(), 2, "{v:#}");
    assert_eq!(exits[0]["code"], 5, "{v:#}");
    assert_eq!(exits[1]["code"], 0, "{v:#}");
    // The run's result is the first program's (README, several programs
    // in one run).
    assert_eq!(out.status.code(), Some(0), "{v:#}");
}

#[test]
fn a_fault_after_the_reply_ends_the_receiver_and_the_sender_goes_on() {
    let Some((out, v, lines)) = run_together(&["replyrcv", "replyflt"]) else {
        return;
    };
    // The sender has its reply first; when it yields, the receiver goes
    // on and faults; Windows 3.1's default action ends the receiver's task
    // (its windows go with it), and the sender goes on.
    assert_eq!(
        lines,
        [
            "receiver ready",
            "sender got 1234",
            "receiver faults after the reply",
            "sender after yield, receiver gone",
        ],
        "{v:#}"
    );
    assert_eq!(v["fault"]["module"], "REPLYRCV", "{v:#}");
    let exits = v["task_exits"].as_array().unwrap();
    assert_eq!(exits.len(), 2, "{v:#}");
    assert_eq!(exits[0]["module"], "REPLYRCV", "{v:#}");
    assert_eq!(exits[1]["code"], 5, "{v:#}");
    // The receiver was the first program named: the run's result is its
    // end, an unhandled fault (README, "Faults": exit status 121).
    assert_eq!(out.status.code(), Some(121), "{v:#}");
}
