//! Reading MPI traces written by other tools, to replay them on the simulated network: one
//! module a trace format. So far SimGrid's time-independent traces ([`simgrid`]).

pub mod simgrid;
