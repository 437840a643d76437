//! Waveforms: the model's VCD writer and `wave-diff`, which compares two VCD files signal by
//! signal (typically the model's and Verilator's, see `docs/architecture.md`, "Names shared by
//! model and RTL" and "Time in waves and in lockstep").
//!
//! # Signal names
//!
//! A signal's full name is its scope path joined by `.`, then its reference:
//! `TOP.exanet_link_top.u_a.u_tx.credit_cnt_q[0]`.
//!
//! - The reference is taken as the VCD writes it, brackets included: Verilator writes an
//!   unpacked-array element as the reference `cnt_q[0]` (followed by a range for a vector).
//! - If the `$var` carries a bit-select index (`$var wire 1 ! vld_q [0] $end`), `[0]` is
//!   appended, so `vld_q [0]` and `vld_q[0]` name the same signal.
//! - A range index (`cnt_q [9:0]`) only restates the width and is not part of the name.
//! - Scope types (`module`, `begin`, ...) are not part of the name; scope names are kept as
//!   written, brackets included (`gen_vc[0]`).
//! - Several names may share one id code (aliases: Verilator writes every port once per level
//!   of hierarchy with one code); each name is a signal of its own. Two `$var`s with the same
//!   full name in one file are an error.
//!
//! [`VcdWriter`] takes the full name as a dotted path and writes it back in this form, so a
//! name survives a write/read round trip unchanged.

mod error;
mod path;
mod writer;

pub use error::WaveError;
pub use writer::{SignalDecl, VcdWriter};

/// Widest signal [`VcdWriter`] can write: values are `u128`.
pub const MAX_WRITER_WIDTH: u32 = 128;
