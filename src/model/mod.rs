//! Analytic models beside the simulation (issue 15 §1; docs/validation.md, "Analytic model
//! against simulation"): `torus_mg1` (Safaei et al.'s M/G/1 mean-latency model of a 2-D torus
//! with virtual channels and fully adaptive routing), `bounds` (the zero-load latency of the
//! blocks' pipelines, the ideal throughput of a k-ary n-cube).

pub mod bounds;
pub mod torus_mg1;
