//! Replay of MPI traces written by other tools on the simulated network (seed 004 §3): one
//! module a trace format (so far SimGrid's time-independent traces, [`simgrid`]) and the program
//! that replays a trace's actions on the SPMD API ([`program`]).

pub mod program;
pub mod simgrid;
