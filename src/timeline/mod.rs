//! Timelines for trace viewers: writers (and readers, for the tests) of formats that performance
//! tools display, and the application run's rank timeline in them.
//!
//! - [`paraver`]: BSC's Paraver (`.prv` records, `.pcf` names and colours, `.row` object names),
//!   the format Dimemas and Venus write (Minkenberg and Rodriguez 2008 §3.2, §4.2 and Table 1), independent of what
//!   is traced;
//! - [`perfetto`]: Chrome's Trace Event Format JSON, which chrome://tracing and ui.perfetto.dev
//!   open;
//! - [`ranks`]: the ranks' timeline of an application run (`app/record.rs`) in both.
//! - [`network`]: the Paraver network view (Minkenberg and Rodriguez 2008 §4.2): routers and NICs as tasks, ports as
//!   threads, backlog states, credit stop and go ([`credit`]), head-of-line blocking ([`hol`],
//!   summed up by [`hol_summary`]) and transmission events.
//!
//! The choices the sources leave open (time unit, object mapping, state rules) are
//! docs/decisions/0021 (the ranks' timeline) and docs/decisions/0022 (the network view).

pub mod credit;
pub mod hol;
pub mod hol_summary;
pub mod network;
pub mod paraver;
pub mod perfetto;
pub mod ranks;
