//! Replay of MPI traces written by other tools on the simulated network (Minkenberg and Rodriguez 2008 §3): one
//! module a trace format (SimGrid's time-independent traces, [`simgrid`]; OTF2, Score-P's,
//! [`otf2`]), what the traces of all ranks recover that one rank's leaves out (`MPI_PROC_NULL`
//! receives, `sendRecv` tags, sub-communicator collectives: [`resolve`]), the program that
//! replays a trace's actions on the SPMD API ([`program`]), and what replaying costs
//! ([`bench`]).

pub mod bench;
pub mod otf2;
pub mod program;
pub mod resolve;
pub mod simgrid;
