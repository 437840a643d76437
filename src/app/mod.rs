//! The application layer above the network's NICs (issue 11): ranks (processes) placed on
//! endpoints, messages cut into packets that travel through the same NIC, router and link blocks
//! as every network run, MPI point-to-point semantics, an SPMD programming interface with
//! collectives built from point-to-point messages, and the DPSNN cortical-simulation workload
//! (Pisani 2016 Ch. 3 "DPSNN traffic injector"; Nüssle et al. §2 "Traffic Controller", Table 1; Minkenberg and Rodriguez 2008
//! §4.9 and §5).

pub mod api;
pub mod bench;
pub mod calls;
pub mod collectives;
pub mod dpsnn;
pub mod endpoint;
pub mod envelope;
pub mod mapping;
pub mod matchq;
pub mod mpi;
pub mod pktrun;
pub mod programs;
pub mod record;
pub mod replay;
pub mod run;

pub use api::{program, Payload, Program, Rank, Status};
