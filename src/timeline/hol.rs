//! Head-of-line blocking in an APErouter input buffer, as the network view detects it (Minkenberg and Rodriguez 2008
//! §4.2: events "to flag ... the start and end of head-of-line blocking"; §5.4: "this second
//! message was HOL blocked").
//!
//! ```text
//!   input FIFO of slot s:  [ hdr A | ftr A | hdr B | ... ]  --> gate s: WAIT for output a
//!                                            \-- B would go to output b: free, with room
//! ```
//!
//! Definition (from what the router's registers hold, nothing guessed): input slot `s` is
//! head-of-line blocked in a cycle when
//! 1. its gate waits with its request up (`S_WAIT`) and the packet A at the head of its FIFO
//!    is held up at its output `a`: `a` is owned by another packet, or has a grant pending for
//!    another gate, or has no room for A (the virtual cut-through test: the output FIFO, and
//!    downstream the link's credit). A gate whose request `a` grants now, or that `a` (free,
//!    with room) will grant in this cycle's arbitration, is not blocked: that is the REQ, ARB,
//!    ACCEPT pipeline of every packet (docs/router.md);
//! 2. the header/footer FIFO shows a second header (the gate has not popped A's header, so it
//!    is word 0, A's footer word 1, and the next packet B's header word 2; `Fifo::peek`);
//! 3. B, were it at the head, would go to an output `b != a` that is free (not owned, no
//!    grant pending) and has room for it by the arbiter's own test (`OutSlot::room_for`). B's
//!    output is the network routing function's answer for B's header at this input, given the
//!    outputs that are free with room (an adaptive function picks among them, as its ROUTE
//!    stage would).
//!
//! A packet further back (a third header) is not looked at: the router's gate handles one
//! packet at a time and B is the one that would go next, so "B could go" is what the blocking
//! costs now. The test reads registers only; it changes nothing.

use crate::net::adapter::NodeRouting;
use crate::net::node::NetNode;
use crate::packet::payload_words;
use crate::router::gate::S_WAIT;
use crate::router::output::OutIn;
use crate::router::params::{RouterCfg, Slot};
use crate::router::route::{Route, RouteFn};

/// A blocked input: the output its head waits for, and the one the packet behind would take
/// (router output slots).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Blocked {
    pub waits_for: u32,
    pub could_go: u32,
}

/// What the arbiter's room test needs of output slot `o` beside the router: the link's credit
/// state for an inter-tile output (from the TCL TX of its port).
pub fn out_in(node: &NetNode, o: u32) -> OutIn {
    match node.dp.router.p.slot(o) {
        Slot::Intra(_) => OutIn::default(),
        Slot::Inter(q, v) => {
            let tx = node.dp.links[q as usize].as_ref().map(|l| &l.tcl.tx);
            OutIn {
                credit_cnt: tx.map_or(0, |t| t.credit_cnt[v as usize]),
                credit_stop: tx.is_some_and(|t| t.credit_stop & (1 << v) != 0),
                ..Default::default()
            }
        }
    }
}

/// Output slot `o` is free (not owned, no grant pending) and has room for `words` payload
/// words.
fn free_with_room(node: &NetNode, cfg: &RouterCfg, o: u32, words: u32) -> bool {
    node.dp.router.outs[o as usize].as_ref().is_some_and(|x| {
        !x.r.busy && !x.r.grant_valid && x.room_for(&node.dp.router.p, cfg, &out_in(node, o), words)
    })
}

/// Whether input slot `s` of `node` is head-of-line blocked now (the module's definition).
/// `cfg`: the router's credit flavour and TRED (the rest is not read); `routing`: the node's
/// routing function.
pub fn blocked(node: &NetNode, cfg: &RouterCfg, routing: &NodeRouting, s: u32) -> Option<Blocked> {
    let r = &node.dp.router;
    let slot = &r.ins[s as usize];
    let g = &slot.gate;
    if g.state != S_WAIT || !g.req {
        return None;
    }
    // The head is held up only if its output is owned, granted to another gate, or short of
    // room for it; an output that grants this gate now lets it go (ACCEPT in the next cycle),
    // and one free with room grants it in this cycle's ARB (the pipeline, not a block).
    let a = g.out;
    let oa = r.outs[a as usize].as_ref()?;
    let held = oa.r.busy
        || (oa.r.grant_valid && oa.r.grant_in != s)
        || (!oa.r.grant_valid && !oa.room_for(&r.p, cfg, &out_in(node, a), g.words));
    if !held {
        return None;
    }
    let hdr_b = slot.fifo.hf.peek(2)?;
    let words = payload_words(hdr_b, r.p.size_in_words);
    let free = if routing.adapts() {
        (0..r.p.slots())
            .filter(|&o| free_with_room(node, cfg, o, words))
            .fold(0u64, |m, o| m | 1 << o)
    } else {
        0
    };
    let (Route::Out { slot: b, .. }, _, _) = routing.route(hdr_b, s, free) else {
        return None;
    };
    (b != a && free_with_room(node, cfg, b, words)).then_some(Blocked {
        waits_for: a,
        could_go: b,
    })
}
