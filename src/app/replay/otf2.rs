//! OTF2 traces (the Open Trace Format 2, which Score-P writes; Minkenberg and Rodriguez 2008 §3 replays such
//! computation and communication records on a network model) read into the same per-rank
//! [`Action`] lists as SimGrid's time-independent traces, so that `exanet app replay --format
//! otf2` replays them with the same program (`program.rs`) and reports.
//!
//! # Reading
//!
//! An OTF2 trace is an archive: an anchor file (`traces.otf2`), global definitions
//! (`traces.def`) and one event file a location (`traces/N.evt`, with local definitions in
//! `traces/N.def`). It is read with the reference OTF2 library (3.0, Debian bookworm's
//! `libotf2-trace-dev`), through a small C file (`otf2/shim.c`) that hands every definition and
//! event to Rust as a flat record (`otf2/ffi.rs`), behind the cargo feature `otf2`. A binary
//! built without it says so and how to build one with it ([`load`]).
//!
//! The library applies the local definitions' mapping tables and clock offsets to the events;
//! what comes out ([`Raw`]) is turned into actions by `otf2/convert.rs` (a rank's events) and
//! `otf2/collective.rs` (the sizes of each collective, from every rank's view of it). Both are
//! plain Rust, tested on hand-made [`Raw`] traces without the library.
//!
//! # Ranks and communicators
//!
//! A rank is a location: the MPI paradigm's `COMM_LOCATIONS` group (Score-P writes one) lists
//! the location of each MPI_COMM_WORLD rank in rank order. Locations outside it (other threads
//! of a process) may hold computing but no MPI event. An MPI event names its peer or root by its
//! rank in the event's communicator; a communicator's group (`COMM_GROUP`) lists its members as
//! world ranks (`COMM_SELF`: the rank itself), which gives the world rank. A communicator that
//! is not defined, an inter-communicator, or a group that is not MPI's is an error.
//!
//! # What the events become
//!
//! - Time outside MPI calls (regions of the MPI paradigm, from Enter to Leave; an MPI event
//!   outside any is a call of its own at its time) is computing: `ComputeTime`, in seconds
//!   from the timestamps and the clock properties' timer resolution (ticks a second), from a
//!   location's first event to its first MPI call, between calls, and after the last one to its
//!   last event. Time inside MPI calls is the network's to predict: not replayed.
//! - `MpiSend`, `MpiRecv`: a blocking send, receive (`Send`, `Recv`); several in one call
//!   (`MPI_Sendrecv`) start together and end together (`Isend`, `Irecv`, `WaitStarted`). A
//!   receive names the sender and the tag the message had, not a wildcard: the replay takes the
//!   message the traced run took.
//! - `MpiIsend` starts a send (`Isend`); `MpiIrecvRequest` starts a receive (`Irecv`), whose
//!   peer, tag and bytes come from the `MpiIrecv` that completes it. `MpiIsendComplete` and
//!   `MpiIrecv` inside a call make one `WaitStarted` for the requests that call completed
//!   (wait, waitall, a test that succeeded). A test that did not complete (`MpiRequestTest`) is
//!   time inside MPI; a cancelled request (`MpiRequestCancelled`) is not started at all.
//! - `MpiCollectiveEnd` is the collective it names, with per-peer sizes worked out from every
//!   member's bytes sent and received (`otf2/collective.rs`; decision 0020). On MPI_COMM_WORLD
//!   or a copy of it (all ranks in order) it runs on every rank; on a communicator of some
//!   ranks (a row, a column) it is an `OnComm` action that runs among its members only, in the
//!   communicator's rank order (`Rank::on_comm`: its messages under tags of its own context);
//!   on `MPI_COMM_SELF` it moves nothing and is dropped. The members must call the same
//!   collectives on it in the same order with the same root, and no other rank may call one.
//! - Message tags are the trace's; when point-to-point messages use more than one
//!   communicator, each communicator's tags are kept apart (tag + 2^24 x its number).
//!
//! # Refused
//!
//! Every refusal names the trace, the rank (or location) and the event's position: one-sided
//! communication (`Rma*`), non-blocking collectives, `MPI_Alltoallv`/`w` (a trace gives each
//! rank's total, not what goes to each peer), a collective by a rank outside its communicator
//! or that its members do not all make, events of
//! calling contexts (a trace recorded with unwinding, whose Enter/Leave it replaces), a
//! measurement switched off (the trace misses events), records the library does not know, a
//! receive request that never completes (its peer is unknown), a completion of a request that
//! was not started, and a trace cut inside an MPI call. Events that move nothing between ranks
//! are read and ignored: thread, OpenMP, I/O, metric, parameter, program begin/end, buffer
//! flush and communicator creation records.

use super::simgrid::TiTrace;
use std::collections::HashMap;
use std::path::Path;

mod collective;
mod convert;
#[cfg(feature = "otf2")]
mod ffi;
#[cfg(test)]
mod tests;

/// `OTF2_PARADIGM_MPI`, `OTF2_COLLECTIVE_ROOT_NONE` and the `OTF2_COLLECTIVE_OP_*` values of
/// OTF2 3.0's `OTF2_GeneralDefinitions.h` and `OTF2_Events.h` (the format fixes them; the shim
/// checks them at compile time).
pub mod op {
    pub const BARRIER: u32 = 0;
    pub const BCAST: u32 = 1;
    pub const GATHER: u32 = 2;
    pub const GATHERV: u32 = 3;
    pub const SCATTER: u32 = 4;
    pub const SCATTERV: u32 = 5;
    pub const ALLGATHER: u32 = 6;
    pub const ALLGATHERV: u32 = 7;
    pub const ALLTOALL: u32 = 8;
    pub const ALLTOALLV: u32 = 9;
    pub const ALLTOALLW: u32 = 10;
    pub const ALLREDUCE: u32 = 11;
    pub const REDUCE: u32 = 12;
    pub const REDUCE_SCATTER: u32 = 13;
    pub const SCAN: u32 = 14;
    pub const EXSCAN: u32 = 15;
    pub const REDUCE_SCATTER_BLOCK: u32 = 16;
    /// Creating and destroying handles (communicators, windows) and their memory: 17 to 22.
    pub const CREATE_HANDLE: u32 = 17;
    pub const DESTROY_HANDLE_AND_DEALLOCATE: u32 = 22;
    /// A collective without a root.
    pub const ROOT_NONE: u32 = u32::MAX;
}

/// What kind of group a `Group` definition is (`OTF2_GroupType`, the kinds that matter here).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupKind {
    /// The locations of a paradigm's ranks, in rank order.
    CommLocations,
    /// A communicator's members, as ranks of its paradigm's `CommLocations` group.
    CommGroup,
    /// `MPI_COMM_SELF`'s.
    CommSelf,
    Other,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    /// Ticks a second.
    pub resolution: u64,
    /// Timestamp of the trace's start, ticks.
    pub offset: u64,
    /// Ticks from the start to the end.
    pub length: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocationDef {
    pub id: u64,
    pub name: u64,
    pub group: u64,
    /// Events the definition says the location has.
    pub events: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegionDef {
    pub name: u64,
    /// The MPI paradigm's (an MPI call).
    pub mpi: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupDef {
    pub name: u64,
    pub kind: GroupKind,
    pub mpi: bool,
    pub members: Vec<u64>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommDef {
    pub name: u64,
    pub group: u64,
    pub parent: u64,
}

/// The global definitions the replay uses (string, region, group and communicator references
/// as the trace numbers them).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Defs {
    pub clock: Option<Clock>,
    pub strings: HashMap<u64, String>,
    /// In definition order.
    pub locations: Vec<LocationDef>,
    pub regions: HashMap<u64, RegionDef>,
    pub groups: HashMap<u64, GroupDef>,
    pub comms: HashMap<u64, CommDef>,
    /// Inter-communicators, by reference: their names.
    pub inter_comms: HashMap<u64, u64>,
}

impl Defs {
    /// String `id`, or a stand-in naming it.
    pub fn string(&self, id: u64) -> String {
        self.strings
            .get(&id)
            .cloned()
            .unwrap_or_else(|| format!("<string {id}>"))
    }
}

/// A point-to-point event's fields: the peer's rank in `comm`, the tag, the bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct P2p {
    pub peer: u32,
    pub comm: u64,
    pub tag: u32,
    pub bytes: u64,
}

/// An `MpiCollectiveEnd`'s fields: the operation ([`op`]), the communicator, the root's rank
/// in it ([`op::ROOT_NONE`] for none), and this rank's bytes sent and received.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Coll {
    pub op: u32,
    pub comm: u64,
    pub root: u32,
    pub sent: u64,
    pub received: u64,
}

/// An event, as the library gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ev {
    Enter(u64),
    Leave(u64),
    MpiSend(P2p),
    MpiIsend(P2p, u64),
    MpiIsendComplete(u64),
    MpiIrecvRequest(u64),
    MpiRecv(P2p),
    MpiIrecv(P2p, u64),
    MpiRequestTest(u64),
    MpiRequestCancelled(u64),
    MpiCollectiveBegin,
    MpiCollectiveEnd(Coll),
    /// Any other record: its name is `Raw::other_names[k]`.
    Other(u16),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Event {
    /// Position among the location's events, from 1.
    pub pos: u64,
    /// Timestamp, ticks.
    pub time: u64,
    pub ev: Ev,
}

/// A trace as read: the definitions and every location's events.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Raw {
    pub defs: Defs,
    /// (location, its events in order), in the order of the location definitions.
    pub locations: Vec<(u64, Vec<Event>)>,
    /// Names of the records [`Ev::Other`] numbers.
    pub other_names: Vec<String>,
}

impl Raw {
    /// Events in all.
    pub fn events(&self) -> usize {
        self.locations.iter().map(|(_, e)| e.len()).sum()
    }
}

/// Whether this binary reads OTF2 (it was built with the cargo feature `otf2`).
pub const SUPPORTED: bool = cfg!(feature = "otf2");

/// What a binary built without the feature says.
pub const NOT_BUILT: &str = "this exanet was built without OTF2 support; build it with \
     `cargo build --release --features otf2` (it needs the OTF2 library: on Debian, \
     `apt-get install libotf2-trace-dev pkg-config`)";

/// Read the OTF2 trace whose anchor file is `path` (`TRACE_DIR/traces.otf2`).
pub fn read(path: &Path) -> Result<Raw, String> {
    let name = path.display().to_string();
    match std::fs::metadata(path) {
        Err(e) => return Err(format!("{name}: cannot read: {e}")),
        Ok(m) if m.is_dir() => {
            return Err(format!(
                "{name}: a directory; give the trace's anchor file ({}/traces.otf2 for Score-P's)",
                name.trim_end_matches('/')
            ))
        }
        Ok(_) => {}
    }
    read_archive(&name, path)
}

#[cfg(feature = "otf2")]
fn read_archive(name: &str, path: &Path) -> Result<Raw, String> {
    ffi::read(path).map_err(|e| format!("{name}: {e}"))
}

#[cfg(not(feature = "otf2"))]
fn read_archive(name: &str, _path: &Path) -> Result<Raw, String> {
    Err(format!("{name}: {NOT_BUILT}"))
}

/// Write `ranks[r]`'s events as rank r's of an OTF2 trace in the directory `dir` (its anchor
/// `dir/traces.otf2`), with the library: Enter/Leave of the MPI regions named `regions` (by
/// index) and MPI point-to-point events on MPI_COMM_WORLD (communicator 0), timestamps in
/// ticks of `resolution` a second, and the definitions Score-P writes for one thread a rank
/// (`otf2/writer.c`). Other events are an error. What it writes, [`read`] reads back.
pub fn write(
    dir: &Path,
    resolution: u64,
    regions: &[&str],
    ranks: &[Vec<Event>],
) -> Result<(), String> {
    write_archive(dir, resolution, regions, ranks).map_err(|e| format!("{}: {e}", dir.display()))
}

#[cfg(feature = "otf2")]
fn write_archive(
    dir: &Path,
    resolution: u64,
    regions: &[&str],
    ranks: &[Vec<Event>],
) -> Result<(), String> {
    ffi::write(dir, resolution, regions, ranks)
}

#[cfg(not(feature = "otf2"))]
fn write_archive(_: &Path, _: u64, _: &[&str], _: &[Vec<Event>]) -> Result<(), String> {
    Err(NOT_BUILT.to_string())
}

/// Read and convert the OTF2 trace whose anchor file is `path`.
pub fn load(path: &Path) -> Result<TiTrace, String> {
    let raw = read(path)?;
    convert(&raw, &path.display().to_string())
}

/// The actions of every rank of `raw`; `name` (the anchor file) heads every error.
pub fn convert(raw: &Raw, name: &str) -> Result<TiTrace, String> {
    convert::convert(raw, name)
}

/// Names of MPI's collectives, by [`op`] value, for messages.
pub fn op_name(op: u32) -> String {
    const NAMES: [&str; 23] = [
        "MPI_Barrier",
        "MPI_Bcast",
        "MPI_Gather",
        "MPI_Gatherv",
        "MPI_Scatter",
        "MPI_Scatterv",
        "MPI_Allgather",
        "MPI_Allgatherv",
        "MPI_Alltoall",
        "MPI_Alltoallv",
        "MPI_Alltoallw",
        "MPI_Allreduce",
        "MPI_Reduce",
        "MPI_Reduce_scatter",
        "MPI_Scan",
        "MPI_Exscan",
        "MPI_Reduce_scatter_block",
        "a handle's creation",
        "a handle's destruction",
        "an allocation",
        "a deallocation",
        "a handle's creation and allocation",
        "a handle's destruction and deallocation",
    ];
    NAMES
        .get(op as usize)
        .map_or_else(|| format!("collective operation {op}"), |s| s.to_string())
}
