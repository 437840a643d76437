//! The APElink: transmission control logic (TX CTRL and RX CTRL), the Aurora-like PHY lane,
//! the credit formats, and the full-duplex link used by the measurements and the
//! co-simulation (Biagioni 2017 §5.3.4, Pisani 2016 §2.8.2). See `docs/link.md`.

pub mod account;
pub mod bench;
pub mod credit;
pub mod demo;
pub mod errors;
pub mod lseq;
pub mod phy;
pub mod system;
pub mod tcl;
pub mod tcl_rx;
pub mod tcl_tx;
pub mod tred;

pub use system::{EndTbIn, Link, LinkEvents, LinkParams, LinkTbIn};
