//! Measurements by simulation: every figure comes out of clocking the blocks.

pub mod efficiency;
pub mod latency;
pub mod router;
