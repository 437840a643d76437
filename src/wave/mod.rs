//! Waveforms: the model's VCD and FST writers, the converter of Verilator's VCD into FST, and
//! `wave-diff`, which compares two wave files (VCD or FST, in any pairing) signal by signal
//! (typically the model's and Verilator's, see `docs/architecture.md`, "Names shared by model
//! and RTL" and "Time in waves and in lockstep"). [`states`] is the one table of enumerated
//! registers shared by the model, the RTL and the GTKWave translate files.
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
//!
//! # How `wave-diff` compares
//!
//! [`diff_files`] compares the signals present in both files (by full name) as value
//! timelines: a signal's value at time `t` is its last change at or before `t`. Times are
//! converted to femtoseconds, so the two files may use different timescales; a file without
//! `$timescale` is an error. Changes before the first timestamp count as time 0. Before its
//! first change a signal is all `x` (IEEE 1364), so an explicit all-`x` value at time 0 equals
//! no value at all.
//!
//! Values are normalised before comparing:
//! - A vector written shorter than its width is left-extended: with `0` if its leftmost
//!   written bit is `0` or `1`, with `x` or `z` if it is `x` or `z` (`b101` for 8 bits is
//!   `00000101`, `bz1` is `zzzzzzz1`). A scalar change (`1!`) on a vector is a 1-bit vector.
//!   Values are then compared full width, bit by bit; `x` and `z` are values like any other,
//!   and `X`/`Z` are the same as `x`/`z`. A vector longer than its width is an error.
//! - A change that repeats the current value changes nothing; several changes of one signal
//!   at one time leave the last.
//! - `real` and `string` variables are compared by the text of their value.
//!
//! A common signal whose width differs between the files is a difference at the first time
//! either file gives it a value (time 0 if neither ever does).
//!
//! The report gives the earliest time at which a common signal differs, with both values
//! (binary and hex); if several differ first at that time, the first by name. Reading stops
//! there: the rest of either file is not checked for errors. Signals in only one file are
//! counted (and listed with [`DiffReport::render`]'s `verbose`); they make the files differ
//! only in strict mode ([`DiffReport::identical`]). A file that ends earlier keeps its last
//! values until the other one ends.
//!
//! A VCD file must end with a newline (or other whitespace) after its last token: a file cut
//! in the middle of a token is reported as truncated. The header is read one command at a
//! time, so any depth of nested `$scope`s is read without recursion.
//!
//! An FST file is compared under the same rules: its variable names are normalised as
//! described in the `fst` module (`x [7:0]` is `x`), its time unit `10^e` s converted to
//! femtoseconds, its values are four-state bits or, for reals, their text.

mod diff;
mod error;
mod fst;
mod path;
mod probed;
mod reader;
pub mod scopes;
mod sink;
pub mod states;
mod writer;

pub use diff::{diff_files, diff_readers, DiffOptions, DiffReport, Difference};
pub use error::WaveError;
pub(crate) use fst::DrainOnDrop;
pub use fst::{is_fst_file, vcd_to_fst, FstWaveWriter};
pub use probed::ProbedWave;
pub use reader::{list_signals, list_signals_in_file};
pub use scopes::{ScopeFilter, VcdFilter};
pub use sink::{WaveFormat, WaveSink};
pub use writer::{SignalDecl, VcdWriter};

/// Widest signal a VCD file may declare (bits). Verilator's own limit is 65536; a wider
/// declaration is taken to be a corrupt header rather than allocated.
pub const MAX_FILE_WIDTH: u32 = 1 << 16;

/// Widest signal [`VcdWriter`] can write: values are `u128`.
pub const MAX_WRITER_WIDTH: u32 = 128;
