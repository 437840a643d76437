//! `exanet bench app`: what the application layer costs (issue 11 §4).
//!
//! A case runs a program on a network and records every packet its ranks hand to the NICs
//! (cycle, destination, size). Then the same network, without ranks, carries exactly those
//! packets at exactly those cycles as synthetic traffic (`Nic::replay`), for the same number of
//! cycles. Both runs are timed by the process's CPU time (`net::bench::cpu_seconds`):
//!
//! - speed: simulated node-cycles (nodes x cycles) per CPU second, with the application layer
//!   and with the replay; the overhead is their ratio minus one (target: at most 30 %);
//! - memory: resident bytes (`/proc/self/statm`) after the ranks are placed minus before,
//!   divided by the ranks: a rank's future, mailbox and message tables, and its share of the
//!   endpoint's tables.
//!
//! The machine is shared: a case runs its app and replay runs alternately, `repeat` times each,
//! and keeps each one's fastest, so that a burst of another process's load slows one sample, not
//! the comparison.

use super::api::Program;
use super::dpsnn::generate::{generate, GenParams};
use super::dpsnn::program::{program as dpsnn, Barrier, Params as DpsnnParams, Profile};
use super::programs::{Example, Params};
use super::run::{attach, drive, network, CHECK_STEP};
use crate::config::Config;
use crate::net::bench::{cpu_seconds, resident_bytes};
use crate::progress::Progress;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// One benchmark case.
#[derive(Debug, Clone, Copy)]
pub struct Case {
    pub name: &'static str,
    pub topology: &'static str,
    pub what: &'static str,
}

/// DPSNN 16x18 on the 72-endpoint torus; an alltoall on 1,024 ranks (and on 256, quicker);
/// 65,536 ranks in a hierarchical barrier (the memory of a rank; most of its messages go through
/// memory, so its replay carries a small part of its work and its overhead is not the
/// application layer's against the network's).
pub const CASES: [Case; 4] = [
    Case {
        name: "dpsnn16x18",
        topology: "torus:8x9",
        what: "DPSNN, columns 16x18, 4 a process (72 processes), 3 iterations",
    },
    Case {
        name: "alltoall1024",
        topology: "torus:32x32",
        what: "alltoall of 16-byte messages, 1,024 ranks",
    },
    Case {
        name: "alltoall256",
        topology: "torus:16x16",
        what: "alltoall of 16-byte messages, 256 ranks (a quick check)",
    },
    Case {
        name: "ranks65536",
        topology: "torus:16x16",
        what: "hierarchical barrier (groups of 256), 65,536 ranks, 256 an endpoint",
    },
];

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CaseResult {
    pub case: String,
    pub what: String,
    pub topology: String,
    pub nodes: usize,
    pub ranks: usize,
    pub cycles: u64,
    pub packets: u64,
    pub app_cpu_seconds: f64,
    pub replay_cpu_seconds: f64,
    pub app_node_cycles_per_second: f64,
    pub replay_node_cycles_per_second: f64,
    /// App CPU time over replay CPU time, minus one.
    pub overhead: f64,
    pub within_30_percent: bool,
    /// Resident bytes the ranks added when placed, a rank.
    pub bytes_per_rank: f64,
    /// The same at the end of the run: the ranks' message tables grown, and whatever the
    /// network's FIFOs and queues grew by.
    pub bytes_per_rank_after_run: f64,
}

fn case_program(c: &Case) -> Result<(Arc<dyn Program>, usize), String> {
    Ok(match c.name {
        "dpsnn16x18" => {
            let g = GenParams {
                columns: (16, 18),
                per_process: 4,
                iterations: 3,
                ..GenParams::default()
            };
            let t = generate(&g)?;
            let n = t.processes;
            let p = dpsnn(
                Arc::new(t),
                DpsnnParams {
                    calc_ns_per_spike: 1000.0,
                    spike_bytes: 12,
                    barrier: Barrier::Root,
                },
                Profile::default(),
            );
            (p, n)
        }
        "alltoall1024" | "alltoall256" => {
            let (p, _, _) = Example::Alltoall.program(Params {
                bytes: 16,
                iterations: 1,
            });
            (p, if c.name == "alltoall256" { 256 } else { 1024 })
        }
        _ => {
            let p = super::api::program(|r| async move { r.barrier_hierarchical(256).await });
            (p, 65_536)
        }
    })
}

/// Run `c` `repeat` times each way.
pub fn run_case(cfg: &Config, c: &Case, repeat: u32) -> Result<CaseResult, String> {
    let mut cfg = cfg.clone();
    cfg.net.topology = c.topology.parse()?;
    cfg.net.routing = crate::spec::RoutingSpec::Ecube;
    let (mut app_cpu, mut replay_cpu) = (f64::MAX, f64::MAX);
    let mut out = None;
    for _ in 0..repeat.max(1) {
        let (prog, ranks) = case_program(c)?;
        let mut net = network(&cfg)?;
        let endpoints = net.topo.endpoints();
        let placement: Vec<usize> = (0..ranks).map(|r| r * endpoints / ranks).collect();
        let before = resident_bytes()?;
        attach(&cfg, &mut net, placement, prog, 0).map_err(|e| e.to_string())?;
        let bytes = resident_bytes()?.saturating_sub(before);
        for n in &mut net.nodes {
            for x in &mut n.nics {
                x.record = Some(Vec::new());
            }
        }
        let t0 = cpu_seconds()?;
        let (rep, _) = drive(&cfg, &mut net, &Progress::hidden()).map_err(|e| e.to_string())?;
        app_cpu = app_cpu.min(cpu_seconds()? - t0);
        let bytes_end = resident_bytes()?.saturating_sub(before);
        let cycles = net.cycle;
        let records: Vec<Vec<(u64, usize, u32)>> = net
            .nodes
            .iter_mut()
            .flat_map(|n| n.nics.iter_mut())
            .map(|x| x.record.take().unwrap_or_default())
            .collect();
        let nodes = net.nodes.len();
        drop(net);
        // the same packets at the same cycles, as synthetic traffic
        let mut re = network(&cfg)?;
        re.stop_injecting();
        for (x, r) in re
            .nodes
            .iter_mut()
            .flat_map(|n| n.nics.iter_mut())
            .zip(records)
        {
            x.replay(r);
        }
        let t1 = cpu_seconds()?;
        while re.cycle < cycles {
            re.run(CHECK_STEP);
        }
        replay_cpu = replay_cpu.min(cpu_seconds()? - t1);
        let delivered = re.merged().delivered;
        if delivered != rep.packets {
            return Err(format!(
                "{}: the replay delivered {delivered} packets, the application {}",
                c.name, rep.packets
            ));
        }
        out = Some((rep, cycles, nodes, ranks, bytes, bytes_end));
    }
    let (rep, cycles, nodes, ranks, bytes, bytes_end) = out.expect("at least one run");
    let nc = nodes as f64 * cycles as f64;
    let overhead = app_cpu / replay_cpu - 1.0;
    Ok(CaseResult {
        case: c.name.into(),
        what: c.what.into(),
        topology: c.topology.into(),
        nodes,
        ranks,
        cycles,
        packets: rep.packets,
        app_cpu_seconds: app_cpu,
        replay_cpu_seconds: replay_cpu,
        app_node_cycles_per_second: nc / app_cpu,
        replay_node_cycles_per_second: nc / replay_cpu,
        overhead,
        within_30_percent: overhead <= 0.30,
        bytes_per_rank: bytes as f64 / ranks as f64,
        bytes_per_rank_after_run: bytes_end as f64 / ranks as f64,
    })
}
