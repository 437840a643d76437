//! The DPSNN workload (Pisani 2016 Ch. 1 §1.3, Ch. 3 "DPSNN traffic injector", Ch. 4 §4.5): spike
//! traces, their generator from the connectivity model, and the DPSNN program on the SPMD API.

pub mod binomial;
pub mod connectivity;
pub mod generate;
pub mod layout;
pub mod program;
pub mod trace;
