//! SimGrid's time-independent (TI) MPI traces, as written by `smpirun -trace-ti` of SimGrid 3.32
//! (git tag `v3.32`; Debian bookworm's `libsimgrid-dev` 3.32-2+b2): every MPI call a rank made,
//! in order, with its peers, tags and element counts but no times, and the computation between
//! calls in flops. This module reads them into one list of [`Action`]s a rank, sizes in bytes.
//!
//! # Layout
//!
//! `smpirun -trace-ti --cfg=tracing/filename:ti.txt ./prog` writes an *index*, `ti.txt`, one
//! path a line, and one file a rank in `ti.txt_files/` (SimGrid 3.32,
//! `src/instr/instr_config.cpp`, `on_container_creation_ti`). Line *k* of the index is rank
//! *k*'s file (`src/smpi/internals/smpi_deployment.cpp`, `smpi_deployment_get_args`); the paths
//! are relative to the directory smpirun ran in, which this module takes to be the index's own
//! directory (falling back on the path as written, relative to the current directory, as
//! SimGrid's replay reads it). With `--cfg=tracing/smpi/format/ti-one-file:yes` the index lists
//! a single file holding every rank's lines, interleaved in simulated-time order.
//!
//! ```text
//! $ cat ti.txt
//! ti.txt_files/1795488062.450146_rank-1.txt
//! ti.txt_files/1795488062.450146_rank-2.txt
//! ti.txt_files/1795488062.450146_rank-3.txt
//! ti.txt_files/1795488062.450146_rank-4.txt
//! $ F=ti.txt_files/1795488062.450146_rank-1.txt; head -5 $F; grep -v compute $F | tail -n +4
//! 0 init
//! 0 compute 9.30614
//! 0 send 1 7 256 1
//! 0 compute 0.09058
//! 0 recv 3 7 256 1
//! 0 barrier
//! 0 allreduce 1 0 0
//! 0 bcast 16 0 1
//! 0 alltoall 16 16 1 1
//! 0 isend 1 3 4 1
//! 0 irecv 3 3 4 1
//! 0 waitall 2
//! 0 gather 2 2 0 1 1
//! 0 finalize
//! ```
//!
//! This is rank 0 of `tests/data/simgrid/ring` (`ring.c`): it sends 256 `MPI_INT`s, datatype
//! 1, to rank 1 with tag 7, receives as many from rank 3, and so on; 9.30614 flops of
//! computation come before the send. In the one-file layout the same lines of all four ranks
//! are mixed in one file (`0 init`, `1 init`, `2 init`, `3 init`, `1 recv 0 7 256 1`,
//! `0 send 1 7 256 1`, ...).
//!
//! Every line is `RANK ACTION ARGS...`, separated by spaces: `RANK` is the MPI_COMM_WORLD rank
//! (the file names count from 1, the lines from 0: `src/instr/instr_paje_events.cpp`,
//! `StateEvent::print`). [`load`] takes either the index or a rank file that holds every rank
//! (an index's lines are paths, a trace's lines start with a number). As SimGrid's reader does
//! (`src/xbt/xbt_replay.cpp`), lines are trimmed and blank lines and lines starting with `#`
//! are skipped; unlike it, this reader refuses anything else it does not understand.
//!
//! # Actions and their arguments
//!
//! The writer is `TIData::print` and its subclasses in `src/instr/instr_private.hpp`, fed by
//! the `PMPI_*` bindings in `src/smpi/bindings/smpi_pmpi_request.cpp` (point to point) and
//! `smpi_pmpi_coll.cpp` (collectives); the reader SimGrid replays them with is
//! `src/smpi/internals/smpi_replay.cpp` (the `*Parser::parse` functions). Both agree on this
//! order. `COUNT`s are element counts of datatype `DT` (table below), `N` is the world size,
//! `C0..CN-1` one count a rank, `ROOT` a rank:
//!
//! | line | MPI call | notes |
//! |---|---|---|
//! | `init`, `finalize` | `MPI_Init`, `MPI_Finalize` | |
//! | `compute FLOPS` | the code between two MPI calls | benchmarked seconds x `smpi/host-speed` (default 20 kflop/s), printed `%g`-like: `9.30614`, `1.23457e+06` |
//! | `sleep SECONDS` | `sleep`, `usleep` | only with `--cfg=tracing/smpi/sleeping:yes` |
//! | `location FILE LINE` | | before every action with `--cfg=smpi/trace-call-location:yes`; `FILE` is empty unless the program was built with `smpicc -trace-call-location` |
//! | `send DST TAG COUNT DT`, also `isend`, `Ssend`, `ISsend`, `bsend`, `ibsend` | `MPI_Send` ... `MPI_Ibsend` (`MPI_Rsend`, `MPI_Irsend` write `send`, `isend`) | `DST` -333 for `MPI_PROC_NULL` |
//! | `recv SRC TAG COUNT DT`, `irecv` | `MPI_Recv`, `MPI_Irecv` | `SRC` -333 for `MPI_ANY_SOURCE` (and for an irecv from `MPI_PROC_NULL`), `TAG` -444 for `MPI_ANY_TAG`; `COUNT` is the buffer posted, not the message received; a recv from `MPI_PROC_NULL` writes nothing |
//! | `sendRecv SCOUNT DST RCOUNT SRC SDT RDT` | `MPI_Sendrecv` | no tags; with `MPI_PROC_NULL` at either end SimGrid writes nothing, not even the send |
//! | `wait SRC DST TAG`, `test SRC DST TAG` | `MPI_Wait`, `MPI_Test` | the request's ends, -333 as above; a call on `MPI_REQUEST_NULL` writes nothing |
//! | `waitall COUNT`, `waitAny COUNT` | `MPI_Waitall`, `MPI_Waitany` | `COUNT` requests in the array (printed as a double); which one `MPI_Waitany` completed is not written |
//! | `testany`, `testall`, `testsome` | `MPI_Testany` ... | no arguments (`MPI_Waitsome` writes nothing) |
//! | `barrier` | `MPI_Barrier` | |
//! | `bcast COUNT ROOT DT` | `MPI_Bcast` | |
//! | `reduce COUNT FLOPS ROOT DT` | `MPI_Reduce` | `FLOPS` (of the reduction) is always written 0 |
//! | `allreduce COUNT FLOPS DT`, `scan`, `exscan` | `MPI_Allreduce`, `MPI_Scan`, `MPI_Exscan` | as above |
//! | `alltoall SCOUNT RCOUNT SDT RDT`, `allgather` | `MPI_Alltoall`, `MPI_Allgather` | counts a peer |
//! | `gather SCOUNT RCOUNT ROOT SDT RDT`, `scatter` | `MPI_Gather`, `MPI_Scatter` | the root's side as the program passed it at every rank (MPI ignores it elsewhere) |
//! | `gatherv SCOUNT C0..CN-1 ROOT SDT RDT` | `MPI_Gatherv` | the counts are 0 at ranks other than the root |
//! | `scatterv C0..CN-1 RCOUNT ROOT SDT RDT` | `MPI_Scatterv` | the counts are 0 at ranks other than the root |
//! | `allgatherv SCOUNT C0..CN-1 SDT RDT` | `MPI_Allgatherv` | |
//! | `alltoallv SSUM S0..SN-1 RSUM R0..RN-1 SDT RDT` | `MPI_Alltoallv` | `SSUM`, `RSUM`: the counts' sums (buffer sizes for SimGrid's replay) |
//! | `reducescatter C0..CN-1 FLOPS DT` | `MPI_Reduce_scatter` | `FLOPS` is always written 0 |
//!
//! In the bindings the optional fields of `CollTIData::print` and `VarCollTIData::print` (a root
//! of -1, a size of -1, an empty datatype) are left out, which gives the fixed layouts above;
//! `bcast`, `reduce`, `allreduce` and `scan` lines end with a space (their empty second
//! datatype), which trimming removes.
//!
//! SimGrid's own replay registers fewer of them: not `Ssend`, `ISsend`, `bsend`, `ibsend`,
//! `waitAny`, `testany`, `testall` or `testsome`, which its writer nevertheless writes; this
//! reader takes them all.
//!
//! # Datatypes
//!
//! `DT` is the id of a predefined datatype (`src/smpi/mpi/smpi_datatype.cpp`,
//! `CREATE_MPI_DATATYPE(name, id, type, ...)`, size `sizeof(type)` on the machine that ran the
//! program; the sizes below are x86-64 Linux's, and every one was checked against
//! `MPI_Type_size` under SMPI by `tests/data/simgrid/datatypes`). Bytes are `COUNT x size`.
//!
//! | id | type | bytes | id | type | bytes | id | type | bytes |
//! |---|---|---|---|---|---|---|---|---|
//! | 0 | DOUBLE | 8 | 20 | INT64_T | 8 | 40 | REAL8 | 8 |
//! | 1 | INT | 4 | 21 | UINT8_T | 1 | 41 | REAL16 | 16 |
//! | 2 | CHAR | 1 | 22 | UINT16_T | 2 | 42 | COMPLEX8 | 8 |
//! | 3 | SHORT | 2 | 23 | UINT32_T | 4 | 43 | COMPLEX16 | 16 |
//! | 4 | LONG | 8 | 24 | UINT64_T | 8 | 44 | COMPLEX32 | 16 (sic: `double_double`) |
//! | 5 | FLOAT | 4 | 25 | C_FLOAT_COMPLEX | 8 | 45 | INTEGER1 | 4 (sic: `int`) |
//! | 6 | BYTE | 1 | 26 | C_DOUBLE_COMPLEX | 16 | 46 | INTEGER2 | 2 |
//! | 7 | LONG_LONG | 8 | 27 | C_LONG_DOUBLE_COMPLEX | 32 | 47 | INTEGER4 | 4 |
//! | 8 | SIGNED_CHAR | 1 | 28 | AINT | 8 | 48 | INTEGER8 | 8 |
//! | 9 | UNSIGNED_CHAR | 1 | 29 | OFFSET | 8 | 49 | INTEGER16 | 16 |
//! | 10 | UNSIGNED_SHORT | 2 | 30 | FLOAT_INT | 8 | 50 | LONG_DOUBLE_INT | 32 |
//! | 11 | UNSIGNED | 4 | 31 | LONG_INT | 16 | 51 | CXX_BOOL | 1 |
//! | 12 | UNSIGNED_LONG | 8 | 32 | DOUBLE_INT | 16 | 52 | CXX_FLOAT_COMPLEX | 8 |
//! | 13 | UNSIGNED_LONG_LONG | 8 | 33 | SHORT_INT | 8 | 53 | CXX_DOUBLE_COMPLEX | 16 |
//! | 14 | LONG_DOUBLE | 16 | 34 | 2INT | 8 | 54 | CXX_LONG_DOUBLE_COMPLEX | 32 |
//! | 15 | WCHAR | 4 | 35 | 2FLOAT | 8 | 55 | UB | 0 |
//! | 16 | C_BOOL | 1 | 36 | 2DOUBLE | 16 | 56 | LB | 0 |
//! | 17 | INT8_T | 1 | 37 | 2LONG | 16 | 57 | PACKED | 1 |
//! | 18 | INT16_T | 2 | 38 | REAL | 4 | 58 | PTR (internal) | 8 |
//! | 19 | INT32_T | 4 | 39 | REAL4 | 4 | 59 | COUNT | 8 |
//!
//! (52-54 are from the source: 3.32's `smpi.h` misspells them and a program cannot name them.)
//! Every other datatype, derived ones included, is written as -1, `MPI_DATATYPE_NULL`'s id:
//! SimGrid's own replay then moves 0 bytes. Here -1 is an error wherever it multiplies a
//! non-zero count that matters (a send, a receive, a root's side of a collective), because the
//! bytes are unknown; it gives 0 bytes only where MPI ignores the argument (the root's side at
//! other ranks).
//!
//! # What the writer loses, and what is refused
//!
//! - No communicator is written: a collective on a sub-communicator looks like one on
//!   MPI_COMM_WORLD (its root is the sub-communicator's rank), and a `v` collective on one has
//!   fewer counts than ranks, which is refused as a wrong argument count.
//! - `MPI_Reduce_scatter_block` is written as `reducescatter` followed by `recvcount` zeros
//!   (a vector of `recvcount` elements, not `N`): refused as a wrong argument count unless
//!   `recvcount` happens to be `N`, when it reads as a reduce-scatter of 0 bytes.
//! - `MPI_Alltoallw` is written as `alltoallv` with the first pair of datatypes only.
//! - `Start` (a persistent request, without saying whether it sends or receives) and `Startall`
//!   (without even a peer) cannot be replayed and are refused; so are MPI-2/3 calls SimGrid
//!   writes under other names (`ibcast`, `Win_fence`, `Put`, `IO - read`, ...): unknown actions.
//!
//! # Errors
//!
//! Nothing is skipped and nothing panics: an unknown action, a wrong argument count, a
//! non-number, a negative count, a rank outside the world, a line whose rank differs from its
//! file's, a file cut short (a last line without its newline, a rank whose actions do not start
//! with `init` and end with `finalize`), a missing rank file or an empty index is an error
//! `file:line: problem`. The one error without a line is a file [`load`] cannot read at all.

use std::path::{Path, PathBuf};

pub mod write;

/// What SimGrid 3.32 writes for a rank outside MPI_COMM_WORLD (`MPI_UNDEFINED` in its
/// `smpi.h`): the source of a receive from `MPI_ANY_SOURCE`, the destination of a send to
/// `MPI_PROC_NULL`.
pub const UNDEFINED_RANK: i64 = -333;
/// `MPI_ANY_TAG` in SimGrid 3.32's `smpi.h`.
pub const ANY_TAG: i64 = -444;
/// The id SimGrid 3.32 writes for `MPI_DATATYPE_NULL` and for every derived datatype.
pub const UNKNOWN_DATATYPE: i64 = -1;

/// SimGrid 3.32's predefined datatypes, index = id: name (without `MPI_`) and size in bytes
/// (x86-64 Linux). From `src/smpi/mpi/smpi_datatype.cpp`; see the module header.
pub const DATATYPES: [(&str, u64); 60] = [
    ("DOUBLE", 8),
    ("INT", 4),
    ("CHAR", 1),
    ("SHORT", 2),
    ("LONG", 8),
    ("FLOAT", 4),
    ("BYTE", 1),
    ("LONG_LONG", 8),
    ("SIGNED_CHAR", 1),
    ("UNSIGNED_CHAR", 1),
    ("UNSIGNED_SHORT", 2),
    ("UNSIGNED", 4),
    ("UNSIGNED_LONG", 8),
    ("UNSIGNED_LONG_LONG", 8),
    ("LONG_DOUBLE", 16),
    ("WCHAR", 4),
    ("C_BOOL", 1),
    ("INT8_T", 1),
    ("INT16_T", 2),
    ("INT32_T", 4),
    ("INT64_T", 8),
    ("UINT8_T", 1),
    ("UINT16_T", 2),
    ("UINT32_T", 4),
    ("UINT64_T", 8),
    ("C_FLOAT_COMPLEX", 8),
    ("C_DOUBLE_COMPLEX", 16),
    ("C_LONG_DOUBLE_COMPLEX", 32),
    ("AINT", 8),
    ("OFFSET", 8),
    ("FLOAT_INT", 8),
    ("LONG_INT", 16),
    ("DOUBLE_INT", 16),
    ("SHORT_INT", 8),
    ("2INT", 8),
    ("2FLOAT", 8),
    ("2DOUBLE", 16),
    ("2LONG", 16),
    ("REAL", 4),
    ("REAL4", 4),
    ("REAL8", 8),
    ("REAL16", 16),
    ("COMPLEX8", 8),
    ("COMPLEX16", 16),
    ("COMPLEX32", 16),
    ("INTEGER1", 4),
    ("INTEGER2", 2),
    ("INTEGER4", 4),
    ("INTEGER8", 8),
    ("INTEGER16", 16),
    ("LONG_DOUBLE_INT", 32),
    ("CXX_BOOL", 1),
    ("CXX_FLOAT_COMPLEX", 8),
    ("CXX_DOUBLE_COMPLEX", 16),
    ("CXX_LONG_DOUBLE_COMPLEX", 32),
    ("UB", 0),
    ("LB", 0),
    ("PACKED", 1),
    ("PTR", 8),
    ("COUNT", 8),
];

/// Where an action came from, for errors and reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loc {
    /// The trace file, as [`load`] found it (or the name given to a `parse_*` function); for
    /// an OTF2 trace (`super::otf2`), its anchor file and the rank, `traces.otf2 rank 3`.
    pub file: String,
    /// The action's line in it, from 1; for an OTF2 trace, the position of the event it comes
    /// from among its location's events, from 1 (the library's `eventPosition`).
    pub line: usize,
    /// The program's call site, from the `location` line before the action, when the trace
    /// has them (`--cfg=smpi/trace-call-location:yes`).
    pub call: Option<CallSite>,
}

/// A place in the traced program's source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallSite {
    /// The source file; empty unless the program was built with `smpicc -trace-call-location`.
    pub file: String,
    pub line: u32,
}

/// Which send call wrote a `send`-like line, for [`Action::ProcNullSend`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SendKind {
    Send,
    Isend,
    Ssend,
    Issend,
    Bsend,
    Ibsend,
}

/// One MPI call of a rank, or the computation between two. Sizes are bytes (count x datatype
/// size), ranks are MPI_COMM_WORLD ranks. `None` for a rank is SimGrid's -333 (any source, or
/// `MPI_PROC_NULL`), for a tag its -444 (`MPI_ANY_TAG`).
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    Init,
    Finalize,
    /// Computation since the previous call, in flops.
    Compute {
        flops: f64,
    },
    /// `sleep`/`usleep` under SMPI.
    Sleep {
        seconds: f64,
    },
    /// Computation measured as time: an OTF2 trace's time outside MPI calls (`super::otf2`).
    ComputeTime {
        seconds: f64,
    },
    Send {
        dst: u32,
        tag: i32,
        bytes: u64,
    },
    Isend {
        dst: u32,
        tag: i32,
        bytes: u64,
    },
    /// `MPI_Ssend`: completes only once the receive has started.
    Ssend {
        dst: u32,
        tag: i32,
        bytes: u64,
    },
    Issend {
        dst: u32,
        tag: i32,
        bytes: u64,
    },
    /// `MPI_Bsend`: copied to the attached buffer, completes at once.
    Bsend {
        dst: u32,
        tag: i32,
        bytes: u64,
    },
    Ibsend {
        dst: u32,
        tag: i32,
        bytes: u64,
    },
    /// A send to `MPI_PROC_NULL`: no message (a nonblocking one still gives a request).
    ProcNullSend {
        kind: SendKind,
        tag: i32,
        bytes: u64,
    },
    /// `bytes`: the buffer posted, an upper bound on the message.
    Recv {
        src: Option<u32>,
        tag: Option<i32>,
        bytes: u64,
    },
    Irecv {
        src: Option<u32>,
        tag: Option<i32>,
        bytes: u64,
    },
    /// `MPI_Sendrecv` (its tags are not written).
    SendRecv {
        dst: u32,
        send_bytes: u64,
        src: Option<u32>,
        recv_bytes: u64,
    },
    /// `MPI_Test` of the request between `src` and `dst` with `tag`.
    Test {
        src: Option<u32>,
        dst: Option<u32>,
        tag: Option<i32>,
    },
    /// `MPI_Wait` of the request between `src` and `dst` with `tag` (an isend's `src` is the
    /// rank itself, an irecv's `dst`).
    Wait {
        src: Option<u32>,
        dst: Option<u32>,
        tag: Option<i32>,
    },
    /// `MPI_Waitany` on `count` requests (which one completed is not written).
    Waitany {
        count: u32,
    },
    /// `MPI_Waitall` on `count` requests.
    Waitall {
        count: u32,
    },
    /// Wait for the requests the actions at `starts` (positions in the rank's list, each an
    /// isend or an irecv) started: an OTF2 trace names the requests a call completes. `blocking`:
    /// the wait ends a blocking call (`MPI_Sendrecv`'s two halves), whose time is communication,
    /// not waiting.
    WaitStarted {
        starts: Vec<u32>,
        blocking: bool,
    },
    Testany,
    Testall,
    Testsome,
    Barrier,
    Bcast {
        bytes: u64,
        root: u32,
    },
    Reduce {
        bytes: u64,
        root: u32,
        flops: f64,
    },
    Allreduce {
        bytes: u64,
        flops: f64,
    },
    Scan {
        bytes: u64,
        flops: f64,
    },
    Exscan {
        bytes: u64,
        flops: f64,
    },
    /// Bytes to each rank and from each rank.
    Alltoall {
        send_bytes: u64,
        recv_bytes: u64,
    },
    /// `send_bytes[j]` to rank `j`, `recv_bytes[j]` from rank `j`.
    Alltoallv {
        send_bytes: Vec<u64>,
        recv_bytes: Vec<u64>,
    },
    /// `recv_bytes` from each rank, significant at the root only.
    Gather {
        send_bytes: u64,
        recv_bytes: u64,
        root: u32,
    },
    /// `recv_bytes[j]` from rank `j` at the root; all 0 at the other ranks.
    Gatherv {
        send_bytes: u64,
        recv_bytes: Vec<u64>,
        root: u32,
    },
    /// Bytes to each rank and from each rank.
    Allgather {
        send_bytes: u64,
        recv_bytes: u64,
    },
    /// `recv_bytes[j]` from rank `j`.
    Allgatherv {
        send_bytes: u64,
        recv_bytes: Vec<u64>,
    },
    /// `send_bytes` to each rank, significant at the root only.
    Scatter {
        send_bytes: u64,
        recv_bytes: u64,
        root: u32,
    },
    /// `send_bytes[j]` to rank `j` at the root; all 0 at the other ranks.
    Scatterv {
        send_bytes: Vec<u64>,
        recv_bytes: u64,
        root: u32,
    },
    /// `recv_bytes[j]`: rank `j`'s share of the reduced vector.
    Reducescatter {
        recv_bytes: Vec<u64>,
        flops: f64,
    },
    /// A collective on a communicator of some of the ranks (an OTF2 trace's; a TI trace names
    /// no communicator): `action`, its ranks and root ranks in the communicator, on
    /// `TiTrace::comms[comm]`.
    OnComm {
        comm: u32,
        action: Box<Action>,
    },
}

/// A whole trace: `ranks[r]` is rank `r`'s actions in program order, each with where it came
/// from. Every rank's list starts with [`Action::Init`] and ends with [`Action::Finalize`].
#[derive(Debug, Clone, PartialEq)]
pub struct TiTrace {
    pub ranks: Vec<Vec<(Action, Loc)>>,
    /// The communicators of [`Action::OnComm`]: each its members' world ranks, in its rank
    /// order.
    pub comms: Vec<std::sync::Arc<[u32]>>,
}

impl TiTrace {
    /// Messages the replay has in flight at once, at most (its memory estimate,
    /// `footprint.rs`): each rank's widest step, all ranks together. A rank's widest step is
    /// an alltoall's `size - 1` messages, an alltoallv's sends that are not empty, or else one.
    pub fn messages_at_once(&self) -> u64 {
        let n = self.size() as u64;
        let step = |a: &Action| -> u64 {
            // (a communicator's collective has at most the world's steps)
            let a = match a {
                Action::OnComm { action, .. } => action,
                a => a,
            };
            match a {
                Action::Alltoall { send_bytes, .. } if *send_bytes > 0 => n.saturating_sub(1),
                Action::Alltoallv { send_bytes, .. } => {
                    send_bytes.iter().filter(|&&b| b > 0).count() as u64
                }
                _ => 1,
            }
        };
        (0..self.size())
            .map(|r| self.actions(r).map(step).max().unwrap_or(0))
            .fold(0u64, u64::saturating_add)
    }

    /// Ranks in the trace (the MPI_COMM_WORLD size).
    pub fn size(&self) -> usize {
        self.ranks.len()
    }

    /// Rank `r`'s actions without their locations (none for a rank outside the trace).
    pub fn actions(&self, r: usize) -> impl Iterator<Item = &Action> {
        self.ranks.get(r).into_iter().flatten().map(|(a, _)| a)
    }
}

/// Point-to-point messages the trace's ranks send and their bytes: every `send`, `isend`,
/// `Ssend`, `ISsend`, `bsend` and `ibsend`, and the send half of every `sendRecv`. Sends to
/// `MPI_PROC_NULL` move nothing and are not counted; neither are the messages collectives are
/// made of (the trace does not say what they are).
pub fn totals(t: &TiTrace) -> (u64, u64) {
    let mut messages = 0u64;
    let mut bytes = 0u64;
    for a in t.ranks.iter().flatten().map(|(a, _)| a) {
        let b = match a {
            Action::Send { bytes, .. }
            | Action::Isend { bytes, .. }
            | Action::Ssend { bytes, .. }
            | Action::Issend { bytes, .. }
            | Action::Bsend { bytes, .. }
            | Action::Ibsend { bytes, .. } => *bytes,
            Action::SendRecv { send_bytes, .. } => *send_bytes,
            _ => continue,
        };
        messages += 1;
        bytes = bytes.saturating_add(b);
    }
    (messages, bytes)
}

/// Read a trace: `path` is either an index listing one file a rank (relative paths resolve
/// against the index's directory, as smpirun writes them when run there) or a single file with
/// every rank's actions (the first token of each line is the rank; the world size is the
/// highest rank plus one). An index of one line is the `ti-one-file` layout.
pub fn load(path: &Path) -> Result<TiTrace, String> {
    let name = path.display().to_string();
    let bytes = crate::input::read_bounded(path, crate::input::MAX_TRACE_BYTES)?;
    let text = utf8(&name, &bytes)?;
    let first = content_lines(text).next();
    let Some((_, first)) = first else {
        return Err(format!(
            "{name}:1: empty: neither an index of rank files nor a trace"
        ));
    };
    let head = first.split([' ', '\t']).next().unwrap_or("");
    if head.parse::<u32>().is_ok() {
        return parse_one_file(&name, text, None);
    }
    let dir = path.parent().unwrap_or(Path::new(""));
    let entries: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty())
        .collect();
    let n = entries.len();
    let mut ranks = Vec::with_capacity(n);
    for (r, &(line, entry)) in entries.iter().enumerate() {
        let (file, bytes) = read_entry(dir, entry)
            .map_err(|e| format!("{name}:{line}: cannot read rank {r}'s file {entry}: {e}"))?;
        let fname = file.display().to_string();
        let text = utf8(&fname, &bytes)?;
        if n == 1 {
            return parse_one_file(&fname, text, None);
        }
        ranks.push(parse_rank_file(&fname, text, r as u32, n)?);
    }
    Ok(TiTrace {
        ranks,
        comms: Vec::new(),
    })
}

/// An index entry's file: relative to the index's directory, else as written.
fn read_entry(dir: &Path, entry: &str) -> Result<(PathBuf, Vec<u8>), String> {
    let near = dir.join(entry);
    let read = |p: &Path| crate::input::read_bounded(p, crate::input::MAX_TRACE_BYTES);
    match read(&near) {
        Ok(b) => Ok((near, b)),
        Err(e1) => {
            let as_is = PathBuf::from(entry);
            if as_is == near {
                return Err(e1.to_string());
            }
            read(&as_is)
                .map(|b| (as_is, b))
                .map_err(|e2| format!("{e1}; nor {e2}"))
        }
    }
}

/// `bytes` as text, or an error naming the line of the first byte that is not UTF-8.
pub fn utf8<'a>(name: &str, bytes: &'a [u8]) -> Result<&'a str, String> {
    std::str::from_utf8(bytes).map_err(|e| {
        let at = e.valid_up_to();
        let line = 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count();
        format!("{name}:{line}: not UTF-8 text (byte {at})")
    })
}

/// The lines that carry something, trimmed, with their numbers from 1: SimGrid's reader skips
/// blank lines and `#` comments.
fn content_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
}

/// SimGrid ends every line with a newline: a text that does not was cut short.
fn check_complete(name: &str, text: &str) -> Result<(), String> {
    if text.is_empty() || text.ends_with('\n') {
        return Ok(());
    }
    let line = text.lines().count();
    Err(format!(
        "{name}:{line}: the last line has no newline: the file was cut short"
    ))
}

/// The rank at the head of a line and the rest of it.
fn split_rank(line: &str) -> Result<(u32, &str), String> {
    let head = line.split([' ', '\t']).next().unwrap_or("");
    let rest = line[head.len()..].trim_start_matches([' ', '\t']);
    match head.parse::<u32>() {
        Ok(r) => Ok((r, rest)),
        Err(_) => Err(format!("the line should start with a rank, not {head:?}")),
    }
}

/// The actions of `text` fit what the machine can give (`footprint.rs`): a record each line,
/// counted before any is parsed.
fn check_records(name: &str, text: &str) -> Result<(), String> {
    let lines = text.bytes().filter(|&b| b == b'\n').count() as u64;
    let each = std::mem::size_of::<(Action, Loc)>() + std::mem::size_of::<(usize, u32, &str)>();
    let mut f = crate::footprint::Footprint::new();
    f.add(format!("{lines} trace records"), lines, each as u64);
    f.check(&format!("reading {name}"))
}

/// Parse one rank's file of an index: every line must be rank `rank`'s, in a world of `ranks`
/// ranks. `name` heads every error, `name:line: problem`.
pub fn parse_rank_file(
    name: &str,
    text: &str,
    rank: u32,
    ranks: usize,
) -> Result<Vec<(Action, Loc)>, String> {
    if rank as usize >= ranks {
        return Err(format!(
            "{name}:1: rank {rank} is outside a world of {ranks} ranks"
        ));
    }
    check_complete(name, text)?;
    check_records(name, text)?;
    let mut b = RankBuilder::new(name, rank);
    for (line, l) in content_lines(text) {
        let (r, rest) = split_rank(l).map_err(|e| format!("{name}:{line}: {e}"))?;
        if r != rank {
            return Err(format!(
                "{name}:{line}: a line of rank {r} in rank {rank}'s file"
            ));
        }
        b.push(line, rest, ranks)?;
    }
    b.finish(text.lines().count().max(1))
}

/// Parse a file holding every rank's lines (the `ti-one-file` layout). The world has
/// `ranks_hint` ranks if given, else the highest rank seen plus one; every rank must have
/// actions. `name` heads every error, `name:line: problem`.
pub fn parse_one_file(
    name: &str,
    text: &str,
    ranks_hint: Option<usize>,
) -> Result<TiTrace, String> {
    check_complete(name, text)?;
    check_records(name, text)?;
    let last = text.lines().count().max(1);
    let mut lines = Vec::new();
    let mut top: Option<(u32, usize)> = None;
    for (line, l) in content_lines(text) {
        let (r, rest) = split_rank(l).map_err(|e| format!("{name}:{line}: {e}"))?;
        if top.is_none_or(|(t, _)| r > t) {
            top = Some((r, line));
        }
        lines.push((line, r, rest));
    }
    let Some((top, top_line)) = top else {
        return Err(format!("{name}:{last}: no actions"));
    };
    let n = ranks_hint.unwrap_or(top as usize + 1);
    if top as usize >= n {
        return Err(format!(
            "{name}:{top_line}: rank {top} is outside a world of {n} ranks"
        ));
    }
    // Every rank needs a line of its own: this bound also keeps a corrupt rank from sizing
    // the world.
    if n > lines.len() {
        return Err(format!(
            "{name}:{top_line}: a world of {n} ranks, but only {} lines: some ranks have no actions",
            lines.len()
        ));
    }
    let mut builders: Vec<RankBuilder> = (0..n as u32).map(|r| RankBuilder::new(name, r)).collect();
    for (line, r, rest) in lines {
        builders[r as usize].push(line, rest, n)?;
    }
    let ranks = builders
        .into_iter()
        .map(|b| b.finish(last))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(TiTrace {
        ranks,
        comms: Vec::new(),
    })
}

/// One rank's actions as its lines come, holding a `location` line for the action after it.
struct RankBuilder<'a> {
    name: &'a str,
    rank: u32,
    actions: Vec<(Action, Loc)>,
    /// A `location` line's call site and line, waiting for its action.
    call: Option<(CallSite, usize)>,
    /// The rank's last line.
    last: usize,
}

impl<'a> RankBuilder<'a> {
    fn new(name: &'a str, rank: u32) -> RankBuilder<'a> {
        RankBuilder {
            name,
            rank,
            actions: Vec::new(),
            call: None,
            last: 0,
        }
    }

    /// One line of this rank, without its rank: `ACTION ARGS...`.
    fn push(&mut self, line: usize, rest: &str, ranks: usize) -> Result<(), String> {
        let name = self.name;
        let at = |e: String| format!("{name}:{line}: {e}");
        self.last = line;
        let args: Vec<&str> = rest.split([' ', '\t']).filter(|s| !s.is_empty()).collect();
        let Some(&head) = args.first() else {
            return Err(at("a rank with no action".to_string()));
        };
        if head == "location" {
            let site = call_site(&rest[head.len()..]).map_err(at)?;
            if let Some((_, before)) = &self.call {
                return Err(at(format!(
                    "a second location line, after the one at line {before}, with no action between"
                )));
            }
            self.call = Some((site, line));
            return Ok(());
        }
        let a = action(self.rank, ranks, head, &args[1..]).map_err(at)?;
        if self.actions.is_empty() && a != Action::Init {
            return Err(at(format!(
                "rank {}'s first action is {head}, not init: the trace lost its start",
                self.rank
            )));
        }
        if matches!(self.actions.last(), Some((Action::Finalize, _))) {
            return Err(at(format!(
                "rank {}'s {head} after its finalize",
                self.rank
            )));
        }
        let loc = Loc {
            file: name.to_string(),
            line,
            call: self.call.take().map(|(c, _)| c),
        };
        self.actions.push((a, loc));
        Ok(())
    }

    /// The rank's actions; `eof` is the file's last line, for the errors of a rank with none.
    fn finish(self, eof: usize) -> Result<Vec<(Action, Loc)>, String> {
        let (name, rank) = (self.name, self.rank);
        if let Some((_, line)) = self.call {
            return Err(format!(
                "{name}:{line}: a location line with no action after it: the file was cut short"
            ));
        }
        match self.actions.last() {
            None => Err(format!("{name}:{eof}: no actions for rank {rank}")),
            Some((Action::Finalize, _)) => Ok(self.actions),
            Some(_) => Err(format!(
                "{name}:{}: rank {rank}'s actions end here without finalize: the trace was cut short",
                self.last
            )),
        }
    }
}

/// A `location` line's `FILE LINE`, given what follows the word `location`. The writer puts
/// one space before the file and one before the line, and the file may be empty or hold spaces.
fn call_site(after: &str) -> Result<CallSite, String> {
    let usage = "location takes a source file and a line";
    let body = after
        .strip_prefix([' ', '\t'])
        .ok_or_else(|| usage.to_string())?;
    let (file, line) = body
        .rsplit_once([' ', '\t'])
        .ok_or_else(|| usage.to_string())?;
    let line = line
        .parse::<u32>()
        .map_err(|_| format!("location line {line:?} is not a line number"))?;
    Ok(CallSite {
        file: file.to_string(),
        line,
    })
}

/// Exactly `want` arguments, else an error showing the layout.
fn arity(args: &[&str], want: usize, usage: &str) -> Result<(), String> {
    if args.len() == want {
        Ok(())
    } else {
        Err(format!(
            "{usage}: {want} argument(s) expected, found {}",
            args.len()
        ))
    }
}

/// Arity of a line with a count a rank, which a sub-communicator or
/// `MPI_Reduce_scatter_block` gets wrong.
fn arity_n(args: &[&str], want: usize, usage: &str, n: usize) -> Result<(), String> {
    arity(args, want, usage).map_err(|e| {
        format!(
            "{e} for a world of {n} ranks (a collective on a sub-communicator, or \
             MPI_Reduce_scatter_block, which SimGrid 3.32 writes with other counts?)"
        )
    })
}

/// A whole, non-negative number: an element count or a sum of them.
fn count(s: &str, what: &str) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(c) => Ok(c),
        Err(_) if s.starts_with('-') && s[1..].parse::<u64>().is_ok() => {
            Err(format!("negative {what} {s}"))
        }
        Err(_) => Err(format!("{what} {s:?} is not a whole number")),
    }
}

/// A rank in a world of `n` ranks.
fn rank(s: &str, what: &str, n: usize) -> Result<u32, String> {
    let v = s
        .parse::<i64>()
        .map_err(|_| format!("{what} {s:?} is not a rank"))?;
    if v >= 0 && (v as u64) < n as u64 {
        Ok(v as u32)
    } else {
        Err(format!("{what} {v} is outside a world of {n} ranks"))
    }
}

/// A rank or SimGrid's -333 (any source, `MPI_PROC_NULL`).
fn peer(s: &str, what: &str, n: usize) -> Result<Option<u32>, String> {
    if s.parse::<i64>() == Ok(UNDEFINED_RANK) {
        return Ok(None);
    }
    rank(s, what, n).map(Some)
}

/// A send's tag: MPI wants it non-negative.
fn send_tag(s: &str) -> Result<i32, String> {
    match s.parse::<i32>() {
        Ok(t) if t >= 0 => Ok(t),
        Ok(t) => Err(format!("send tag {t} is negative")),
        Err(_) => Err(format!("tag {s:?} is not a number")),
    }
}

/// A receive's (or a request's) tag, or -444 for any tag.
fn recv_tag(s: &str) -> Result<Option<i32>, String> {
    match s.parse::<i32>() {
        Ok(t) if t as i64 == ANY_TAG => Ok(None),
        Ok(t) if t >= 0 => Ok(Some(t)),
        Ok(t) => Err(format!(
            "tag {t} is negative and not MPI_ANY_TAG ({ANY_TAG})"
        )),
        Err(_) => Err(format!("tag {s:?} is not a number")),
    }
}

/// A finite, non-negative amount (flops, seconds), as C++ streams print doubles.
fn amount(s: &str, what: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        Ok(_) => Err(format!("{what} {s} is not a finite, non-negative number")),
        Err(_) => Err(format!("{what} {s:?} is not a number")),
    }
}

/// A request count, which SimGrid prints as a double (`2`, `1e+06`).
fn requests(s: &str) -> Result<u32, String> {
    match s.parse::<f64>() {
        Ok(v) if v >= 0.0 && v.fract() == 0.0 && v <= u32::MAX as f64 => Ok(v as u32),
        _ => Err(format!("request count {s:?} is not a whole number")),
    }
}

/// The size of datatype `id`, `None` for -1 (unknown).
fn datatype(s: &str) -> Result<Option<u64>, String> {
    let id = s
        .parse::<i64>()
        .map_err(|_| format!("datatype {s:?} is not a datatype id"))?;
    if id == UNKNOWN_DATATYPE {
        return Ok(None);
    }
    usize::try_from(id)
        .ok()
        .and_then(|i| DATATYPES.get(i))
        .map(|&(_, size)| Some(size))
        .ok_or_else(|| {
            format!(
                "unknown datatype id {id} (SimGrid 3.32's run from 0 to {})",
                DATATYPES.len() - 1
            )
        })
}

/// `count` elements of datatype `dt`, in bytes. `matters`: MPI uses this argument at this rank
/// (else an unknown datatype gives 0 bytes).
fn bytes(count: u64, dt: &str, matters: bool) -> Result<u64, String> {
    match datatype(dt)? {
        Some(size) => count
            .checked_mul(size)
            .ok_or_else(|| format!("{count} elements of datatype {dt} overflow 64 bits")),
        None if count == 0 || !matters => Ok(0),
        None => Err(format!(
            "{count} elements of datatype -1: a derived datatype (or MPI_DATATYPE_NULL), which \
             SimGrid 3.32 writes without its size, so the bytes are unknown"
        )),
    }
}

/// Counts `cs` of datatype `dt`, in bytes.
fn bytes_each(cs: &[&str], dt: &str, what: &str, matters: bool) -> Result<Vec<u64>, String> {
    cs.iter()
        .map(|c| bytes(count(c, what)?, dt, matters))
        .collect()
}

/// One line's action, given its name and arguments, at rank `me` of a world of `n` ranks.
/// An action name SimGrid 3.32 writes for a non-blocking collective (`ibcast`, `iallreduce`,
/// ...: its `smpi_pmpi_coll.cpp` names them after the call, lower case).
fn nonblocking_collective(name: &str) -> bool {
    const BLOCKING: [&str; 16] = [
        "barrier",
        "bcast",
        "reduce",
        "allreduce",
        "scan",
        "exscan",
        "alltoall",
        "alltoallv",
        "alltoallw",
        "gather",
        "gatherv",
        "allgather",
        "allgatherv",
        "scatter",
        "scatterv",
        "reducescatter",
    ];
    name.strip_prefix('i').is_some_and(|b| {
        BLOCKING.contains(&b) || b == "reduce_scatter" || b == "reduce_scatter_block"
    })
}

fn action(me: u32, n: usize, name: &str, a: &[&str]) -> Result<Action, String> {
    use Action as A;
    let send_kind = match name {
        "send" => Some(SendKind::Send),
        "isend" => Some(SendKind::Isend),
        "Ssend" => Some(SendKind::Ssend),
        "ISsend" => Some(SendKind::Issend),
        "bsend" => Some(SendKind::Bsend),
        "ibsend" => Some(SendKind::Ibsend),
        _ => None,
    };
    if let Some(kind) = send_kind {
        arity(a, 4, &format!("{name} DST TAG COUNT DATATYPE"))?;
        let tag = send_tag(a[1])?;
        let bytes = bytes(count(a[2], "count")?, a[3], true)?;
        let Some(dst) = peer(a[0], "destination", n)? else {
            return Ok(A::ProcNullSend { kind, tag, bytes });
        };
        return Ok(match kind {
            SendKind::Send => A::Send { dst, tag, bytes },
            SendKind::Isend => A::Isend { dst, tag, bytes },
            SendKind::Ssend => A::Ssend { dst, tag, bytes },
            SendKind::Issend => A::Issend { dst, tag, bytes },
            SendKind::Bsend => A::Bsend { dst, tag, bytes },
            SendKind::Ibsend => A::Ibsend { dst, tag, bytes },
        });
    }
    Ok(match name {
        "init" | "finalize" | "barrier" | "testany" | "testall" | "testsome" => {
            arity(a, 0, name)?;
            match name {
                "init" => A::Init,
                "finalize" => A::Finalize,
                "barrier" => A::Barrier,
                "testany" => A::Testany,
                "testall" => A::Testall,
                _ => A::Testsome,
            }
        }
        "compute" => {
            arity(a, 1, "compute FLOPS")?;
            A::Compute {
                flops: amount(a[0], "flops")?,
            }
        }
        "sleep" => {
            arity(a, 1, "sleep SECONDS")?;
            A::Sleep {
                seconds: amount(a[0], "seconds")?,
            }
        }
        "recv" | "irecv" => {
            arity(a, 4, &format!("{name} SRC TAG COUNT DATATYPE"))?;
            let src = peer(a[0], "source", n)?;
            let tag = recv_tag(a[1])?;
            let bytes = bytes(count(a[2], "count")?, a[3], true)?;
            if name == "recv" {
                A::Recv { src, tag, bytes }
            } else {
                A::Irecv { src, tag, bytes }
            }
        }
        "sendRecv" => {
            arity(
                a,
                6,
                "sendRecv SENDCOUNT DST RECVCOUNT SRC SENDTYPE RECVTYPE",
            )?;
            A::SendRecv {
                send_bytes: bytes(count(a[0], "send count")?, a[4], true)?,
                dst: rank(a[1], "destination", n)?,
                recv_bytes: bytes(count(a[2], "receive count")?, a[5], true)?,
                src: peer(a[3], "source", n)?,
            }
        }
        "wait" | "test" => {
            arity(a, 3, &format!("{name} SRC DST TAG"))?;
            let src = peer(a[0], "source", n)?;
            let dst = peer(a[1], "destination", n)?;
            let tag = recv_tag(a[2])?;
            if name == "wait" {
                A::Wait { src, dst, tag }
            } else {
                A::Test { src, dst, tag }
            }
        }
        "waitAny" => {
            arity(a, 1, "waitAny COUNT")?;
            A::Waitany {
                count: requests(a[0])?,
            }
        }
        "waitall" => {
            arity(a, 1, "waitall COUNT")?;
            A::Waitall {
                count: requests(a[0])?,
            }
        }
        "bcast" => {
            arity(a, 3, "bcast COUNT ROOT DATATYPE")?;
            A::Bcast {
                bytes: bytes(count(a[0], "count")?, a[2], true)?,
                root: rank(a[1], "root", n)?,
            }
        }
        "reduce" => {
            arity(a, 4, "reduce COUNT FLOPS ROOT DATATYPE")?;
            A::Reduce {
                bytes: bytes(count(a[0], "count")?, a[3], true)?,
                flops: amount(a[1], "flops")?,
                root: rank(a[2], "root", n)?,
            }
        }
        "allreduce" | "scan" | "exscan" => {
            arity(a, 3, &format!("{name} COUNT FLOPS DATATYPE"))?;
            let bytes = bytes(count(a[0], "count")?, a[2], true)?;
            let flops = amount(a[1], "flops")?;
            match name {
                "allreduce" => A::Allreduce { bytes, flops },
                "scan" => A::Scan { bytes, flops },
                _ => A::Exscan { bytes, flops },
            }
        }
        "alltoall" | "allgather" => {
            arity(
                a,
                4,
                &format!("{name} SENDCOUNT RECVCOUNT SENDTYPE RECVTYPE"),
            )?;
            let send_bytes = bytes(count(a[0], "send count")?, a[2], true)?;
            let recv_bytes = bytes(count(a[1], "receive count")?, a[3], true)?;
            if name == "alltoall" {
                A::Alltoall {
                    send_bytes,
                    recv_bytes,
                }
            } else {
                A::Allgather {
                    send_bytes,
                    recv_bytes,
                }
            }
        }
        "gather" | "scatter" => {
            arity(
                a,
                5,
                &format!("{name} SENDCOUNT RECVCOUNT ROOT SENDTYPE RECVTYPE"),
            )?;
            let root = rank(a[2], "root", n)?;
            // MPI ignores the root's side (a gather's receive, a scatter's send) elsewhere.
            let gather = name == "gather";
            let at_root = root == me;
            let send_bytes = bytes(count(a[0], "send count")?, a[3], gather || at_root)?;
            let recv_bytes = bytes(count(a[1], "receive count")?, a[4], !gather || at_root)?;
            if gather {
                A::Gather {
                    send_bytes,
                    recv_bytes,
                    root,
                }
            } else {
                A::Scatter {
                    send_bytes,
                    recv_bytes,
                    root,
                }
            }
        }
        "gatherv" => {
            let usage = "gatherv SENDCOUNT RECVCOUNT*N ROOT SENDTYPE RECVTYPE";
            arity_n(a, n.saturating_add(4), usage, n)?;
            let root = rank(a[n + 1], "root", n)?;
            A::Gatherv {
                send_bytes: bytes(count(a[0], "send count")?, a[n + 2], true)?,
                recv_bytes: bytes_each(&a[1..=n], a[n + 3], "receive count", root == me)?,
                root,
            }
        }
        "scatterv" => {
            let usage = "scatterv SENDCOUNT*N RECVCOUNT ROOT SENDTYPE RECVTYPE";
            arity_n(a, n.saturating_add(4), usage, n)?;
            let root = rank(a[n + 1], "root", n)?;
            A::Scatterv {
                send_bytes: bytes_each(&a[..n], a[n + 2], "send count", root == me)?,
                recv_bytes: bytes(count(a[n], "receive count")?, a[n + 3], true)?,
                root,
            }
        }
        "allgatherv" => {
            let usage = "allgatherv SENDCOUNT RECVCOUNT*N SENDTYPE RECVTYPE";
            arity_n(a, n.saturating_add(3), usage, n)?;
            A::Allgatherv {
                send_bytes: bytes(count(a[0], "send count")?, a[n + 1], true)?,
                recv_bytes: bytes_each(&a[1..=n], a[n + 2], "receive count", true)?,
            }
        }
        "alltoallv" => {
            let usage = "alltoallv SENDSUM SENDCOUNT*N RECVSUM RECVCOUNT*N SENDTYPE RECVTYPE";
            arity_n(a, n.saturating_mul(2).saturating_add(4), usage, n)?;
            count(a[0], "send sum")?;
            count(a[n + 1], "receive sum")?;
            A::Alltoallv {
                send_bytes: bytes_each(&a[1..=n], a[2 * n + 2], "send count", true)?,
                recv_bytes: bytes_each(&a[n + 2..2 * n + 2], a[2 * n + 3], "receive count", true)?,
            }
        }
        "reducescatter" => {
            let usage = "reducescatter RECVCOUNT*N FLOPS DATATYPE";
            arity_n(a, n.saturating_add(2), usage, n)?;
            A::Reducescatter {
                recv_bytes: bytes_each(&a[..n], a[n + 1], "receive count", true)?,
                flops: amount(a[n], "flops")?,
            }
        }
        "Start" | "Startall" => {
            return Err(format!(
                "rank {me}: {name}: a persistent request (MPI_{name}), which SimGrid 3.32 writes \
                 without saying whether it sends or receives, nor to whom, so it cannot be \
                 replayed"
            ))
        }
        _ if nonblocking_collective(name) => {
            return Err(format!(
                "rank {me}: {name}: a non-blocking collective (MPI_I{}), not supported: the \
                 replay's collectives are blocking, and SimGrid 3.32's trace of one does not say \
                 which wait completes it (an OTF2 trace is refused the same way)",
                &name[1..]
            ))
        }
        _ => {
            return Err(format!(
                "rank {me}: unknown action {name:?}: not an MPI call the replay runs (it runs \
                 point-to-point calls and blocking collectives; SimGrid 3.32 writes one-sided \
                 communication, I/O and other MPI-3 calls under their own names)"
            ))
        }
    })
}

#[cfg(test)]
mod tests;
