//! Timelines for trace viewers: writers (and readers, for the tests) of formats that performance
//! tools display, independent of what is traced.
//!
//! - [`paraver`]: BSC's Paraver (`.prv` records, `.pcf` names and colours, `.row` object names),
//!   the format Dimemas and Venus write (seed 004 §3.2, §4.2 and Table 1).
//!
//! - [`network`]: the Paraver network view (seed 004 §4.2): routers and NICs as tasks, ports as
//!   threads, backlog states, credit, head-of-line blocking ([`hol`]) and transmission events.
//!
//! What the application layer records and how it maps onto these formats is in
//! `src/app/record.rs` and docs/decisions/0021.

pub mod credit;
pub mod hol;
pub mod hol_summary;
pub mod network;
pub mod paraver;
