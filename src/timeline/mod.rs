//! Timelines for trace viewers: writers (and readers, for the tests) of formats that performance
//! tools display, independent of what is traced.
//!
//! - [`paraver`]: BSC's Paraver (`.prv` records, `.pcf` names and colours, `.row` object names),
//!   the format Dimemas and Venus write (seed 004 §3.2, §4.2 and Table 1).
//!
//! What the application layer records and how it maps onto these formats is in
//! `src/app/record.rs` and docs/decisions/0021.

pub mod paraver;
