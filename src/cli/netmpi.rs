//! `exanet network run` over MPI ranks (`mpirun -n N exanet network run ...`, cargo feature
//! `mpi`, decision 0027). Every rank sets the run up on its own (configuration, network, its
//! share of the nodes); then all of them compare notes (`Mpi::agree`): they run only if every
//! one is ready with the same command line and configuration, else every one exits 2 and rank 0
//! says why. The statistics are every rank's merged in rank order, the same figures and hash as
//! one process; rank 0 prints them.

use super::netrun::report_run;
use super::output::check_out;
use super::{load_config, CliError, R};
use crate::config::Config;
use crate::net::dist::mpi::Mpi;
use crate::net::dist::{fnv, share, stage, FNV_START};
use crate::net::setup::{build_share, max_cycles, plan, resolve_threads};
use crate::progress::Progress;
use std::path::Path;
use std::process::ExitCode;

pub fn run(config: Option<&Path>, json: bool, csv: Option<&Path>, packets: Option<&Path>) -> R {
    let m = Mpi::init()
        .map_err(CliError::input)?
        .ok_or_else(|| CliError::input("no MPI launcher started this process"))?;
    let (world, rank) = (m.size, m.rank);
    // everything that can fail, before the ranks compare notes: none leaves before the others
    let mut reached = stage::NO_CONFIG;
    let mut hash = 0;
    let set_up = (|| {
        let cfg = load_config(config)?;
        reached = stage::FAILED;
        hash = input_hash(&cfg);
        if rank == 0 {
            // only rank 0 writes it
            check_out("--csv", csv, "csv")?;
        }
        if packets.is_some() {
            return Err(CliError::input(
                "--packets: the packet log sees every node, in one process: run it without \
                 mpirun",
            ));
        }
        let p = plan(&cfg).map_err(CliError::input)?;
        let n = p.topo.nodes();
        if world > n {
            return Err(CliError::input(format!(
                "an MPI world of {world} ranks for the {n} nodes of {}: a rank steps one node at \
                 least; start at most {n} (mpirun -n {n})",
                cfg.net.topology
            )));
        }
        let own = share(n, world, rank);
        let its_share = |e: String| {
            CliError::input(format!(
                "its share, nodes {} to {}: {e}",
                own.start,
                own.end - 1
            ))
        };
        // only the share's nodes (decision 0029)
        let mut net = build_share(&cfg, &p, cfg.net.load, own.clone()).map_err(its_share)?;
        let (parts, threads) = resolve_threads(&cfg, own.len());
        net.distribute(own.clone(), parts, threads, m.peers(p.topo.as_ref()))
            .map_err(its_share)?;
        Ok((cfg, p, net))
    })();
    let error = set_up
        .as_ref()
        .err()
        .map_or(String::new(), |e| e.message.clone());
    if set_up.is_ok() {
        reached = stage::READY;
    }
    if let Err(said) = m.agree(reached, hash, &error) {
        // said before any rank exits: Open MPI's mpirun stops the job at the first error
        if let Some(msg) = said {
            eprintln!("error: {msg}");
        }
        m.barrier();
        return Err(CliError::silent(2));
    }
    let (cfg, p, mut net) = set_up.map_err(|_| CliError::failed("ready, yet failed"))?;
    let n = p.topo.nodes();
    let progress = if rank == 0 {
        eprintln!(
            "mpi: {world} rank{} share the {n} nodes ({} a rank)",
            if world == 1 { "" } else { "s" },
            if n.is_multiple_of(world) {
                (n / world).to_string()
            } else {
                format!("{} or {}", n / world, n / world + 1)
            }
        );
        Progress::new(
            max_cycles(&cfg),
            "network run (cycles; the drain usually ends early)",
        )
    } else {
        Progress::hidden()
    };
    let s = net.run_phases_observed(
        cfg.net.drain_cycles,
        cfg.net.load,
        cfg.net.injection_bytes_per_cycle,
        &mut |c| progress.set_position(c),
    );
    progress.finish();
    if rank != 0 {
        return Ok(ExitCode::SUCCESS);
    }
    report_run(&cfg, p.topo.endpoints(), s, json, csv, Some(world))
}

/// A hash of the command line (but the program's name) and the configuration it makes.
fn input_hash(cfg: &Config) -> u64 {
    let mut h = FNV_START;
    for a in std::env::args_os().skip(1) {
        h = fnv(h, a.as_encoded_bytes());
        h = fnv(h, &[0]);
    }
    fnv(h, serde_json::to_string(cfg).unwrap_or_default().as_bytes())
}
