//! Observers of the network's registers, cycle by cycle (the Paraver network view,
//! `src/timeline/network.rs`). Like the packet log, an observer is attached only when asked
//! (`Network::observe`); with none attached the engine does exactly what it did before (one
//! test of an empty `Option` a node-cycle), so the statistics and their hash are unchanged.
//!
//! Cycle contract: the engine calls [`NodeObserver::stepped`] right after it has stepped a node
//! through cycle `c`, so the node's registers are those of cycle `c + 1`. A node the engine lets
//! sleep (idle skipping) is not stepped, and then nothing an observer can see changes in it
//! (only the TCL TX's credit age, brought up to date lazily, and the lanes' delay lines, whose
//! beats were already seen when they were sent): an observer that records changes sees the
//! same changes at the same cycles with idle skipping on and off (a test). The engine steps
//! one node through a whole window before the next (`engine.rs`), so calls come in time order
//! for each node, not across nodes.

use super::node::NetNode;
use std::any::Any;

/// Something that looks at a node's registers after each cycle it is stepped. It must not
/// change anything simulated (it gets the node read-only).
pub trait NodeObserver: Any + Send {
    /// `node` has just been stepped through cycle `cycle`: its registers hold the values of
    /// cycle `cycle + 1`.
    fn stepped(&mut self, node: &NetNode, cycle: u64);
}
