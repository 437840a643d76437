//! exanet: a cycle-accurate reference model of the ExaNet network IP.
//!
//! Blocks follow one clock rule (see `docs/architecture.md`): every block is a set of
//! registers plus a pure next-state function; a system evaluates every block's next state
//! from the current registers only, then commits them all.

pub mod app;
pub mod block;
pub mod cli;
pub mod config;
pub mod config_doc;
pub mod config_set;
pub mod conststr;
pub mod cosim;
pub mod counters;
pub mod fifo;
pub mod fifo_mem;
pub mod footprint;
pub mod geometric;
pub mod input;
pub mod karma;
pub mod link;
pub mod measure;
pub mod model;
pub mod net;
pub mod node;
pub mod packet;
pub mod pktfifo;
pub mod plot;
pub mod probe;
pub mod progress;
pub mod router;
pub mod serve;
pub mod spec;
pub mod stimulus;
pub mod timeline;
pub mod units;
pub mod wave;
