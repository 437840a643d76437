//! Credit stop and go of a link, as the network view flags them (Minkenberg and Rodriguez 2008 §4.2: events "to
//! flag the issuance of stop and go flow-control signals"; Biagioni 2017 §5.3.4 for the APElink's
//! credits).
//!
//! The APErouter reserves the downstream room of a whole packet when its arbiter grants it
//! (virtual cut-through: `router/output.rs`), so the TCL TX never finds itself out of credit
//! for a word or a packet it has started; where a link's flow control holds traffic back is the
//! arbiter of the link's output slot, refusing a request because the credit does not cover the
//! packet. So:
//!
//! - **stop** on VC v of inter-tile port q: some gate waits for output (q, v) with its request
//!   up and the link's credit does not cover its packet (`OutSlot::credit_covers`: usedword
//!   credit below TRED + the units granted and not yet sent + the packet's cost; start/stop
//!   credit, the peer's stop bit);
//! - **go**: no gate waits for (q, v) for want of credit any more (the credit came back, or the
//!   packet went another way).
//!
//! A VC nobody asks for is never stopped, however little credit it has: the events show the
//! flow control holding a packet back, not the credit count (which `link.*` statistics give).

use super::hol::out_in;
use crate::net::node::NetNode;
use crate::router::gate::S_WAIT;
use crate::router::params::{RouterCfg, Slot};

/// Bit o: output slot o of `node` is an inter-tile output some gate waits for whose credit
/// does not cover that gate's packet. `cfg`: the router's credit flavour and TRED.
pub fn starved_outputs(node: &NetNode, cfg: &RouterCfg) -> u64 {
    let r = &node.dp.router;
    let mut m = 0u64;
    for x in &r.ins {
        let g = &x.gate;
        if g.state != S_WAIT || !g.req || m >> g.out & 1 != 0 {
            continue;
        }
        if !matches!(r.p.slot(g.out), Slot::Inter(..)) {
            continue;
        }
        if let Some(o) = r.outs[g.out as usize].as_ref() {
            if !o.credit_covers(&r.p, cfg, &out_in(node, g.out), g.words) {
                m |= 1 << g.out;
            }
        }
    }
    m
}
