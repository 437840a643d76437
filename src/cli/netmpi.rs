//! `exanet network run` and `exanet bench network --case C` over MPI ranks (`mpirun -n N exanet
//! ...`, cargo feature `mpi`, decisions 0027 and 0029). Every rank sets the run up on its own
//! (configuration, network, its share of the nodes); then all of them compare notes
//! (`Mpi::agree`): they run only if every one is ready with the same command line and
//! configuration, else every one exits 2 and rank 0 says why. The statistics are every rank's
//! merged in rank order, the same figures and hash as one process; rank 0 prints them.

use super::netrun::{report_run, with_cycles};
use super::output::check_out;
use super::{find_case, json_out, load_config, CliError, R};
use crate::config::Config;
use crate::net::bench::{
    case_config, cpu_seconds, peak_resident_bytes, resident_bytes, Case, CASES,
};
use crate::net::dist::bench::{Merged, MpiCaseResult, RankMeasure, RankResult};
use crate::net::dist::mpi::{ExchangeMeter, Mpi};
use crate::net::dist::{fnv, share, stage, FNV_START};
use crate::net::engine::Network;
use crate::net::setup::{build_share, max_cycles, plan, resolve_threads, Plan};
use crate::progress::Progress;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

/// A rank's share of a network, set up, with the meter of its exchanges.
struct Share {
    cfg: Config,
    plan: Plan,
    net: Network,
    meter: Arc<ExchangeMeter>,
}

/// Every rank sets up its share of the network of the configuration `load` gives, after
/// `check` (what the command itself refuses), then all compare notes: `Ok` on every rank when
/// every one is ready with the same command line and configuration; otherwise rank 0 says why
/// and every rank gets an error to exit 2 with, at the same time.
fn set_up_share(
    m: &Mpi,
    load: impl FnOnce() -> Result<Config, CliError>,
    check: impl FnOnce(&Config) -> Result<(), CliError>,
) -> Result<Share, CliError> {
    let (world, rank) = (m.size, m.rank);
    // everything that can fail, before the ranks compare notes: none leaves before the others
    let mut reached = stage::NO_CONFIG;
    let mut hash = 0;
    let set_up = (|| {
        let cfg = load()?;
        reached = stage::FAILED;
        hash = input_hash(&cfg);
        check(&cfg)?;
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
        let (peers, meter) = m.peers(p.topo.as_ref());
        net.distribute(own.clone(), parts, threads, peers)
            .map_err(its_share)?;
        Ok(Share {
            cfg,
            plan: p,
            net,
            meter,
        })
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
    set_up.map_err(|_| CliError::failed("ready, yet failed"))
}

/// Rank 0 says how the ranks share the nodes.
fn say_shares(m: &Mpi, n: usize) {
    let world = m.size;
    if m.rank == 0 {
        eprintln!(
            "mpi: {world} rank{} share the {n} nodes ({} a rank)",
            if world == 1 { "" } else { "s" },
            if n.is_multiple_of(world) {
                (n / world).to_string()
            } else {
                format!("{} or {}", n / world, n / world + 1)
            }
        );
    }
}

pub fn run(config: Option<&Path>, json: bool, csv: Option<&Path>, packets: Option<&Path>) -> R {
    let m = Mpi::init()
        .map_err(CliError::input)?
        .ok_or_else(|| CliError::input("no MPI launcher started this process"))?;
    let Share {
        cfg,
        plan: p,
        mut net,
        ..
    } = set_up_share(
        &m,
        || load_config(config),
        |_| {
            if m.rank == 0 {
                // only rank 0 writes it
                check_out("--csv", csv, "csv")?;
            }
            if packets.is_some() {
                return Err(CliError::input(
                    "--packets: the packet log sees every node, in one process: run it \
                     without mpirun",
                ));
            }
            Ok(())
        },
    )?;
    let n = p.topo.nodes();
    say_shares(&m, n);
    let progress = if m.rank == 0 {
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
    if m.rank != 0 {
        return Ok(ExitCode::SUCCESS);
    }
    report_run(
        &cfg,
        p.topo.endpoints(),
        s,
        json,
        csv,
        Some(m.size),
        &[],
        super::netrun::RunExtras::default(),
    )
}

/// One network run of `cfg` on the ranks of `m` (a group of the world: a sweep's point,
/// `sweep_parts.rs`): every rank builds its share, all run it, every rank gets the merged
/// summary, the one one process gives. A set-up that fails is said by the group's rank 0.
pub fn run_point(m: &Mpi, cfg: Config) -> Result<crate::net::stats::Summary, CliError> {
    let Share { cfg, mut net, .. } = set_up_share(m, || Ok(cfg), |_| Ok(()))?;
    Ok(net.run_phases_observed(
        cfg.net.drain_cycles,
        cfg.net.load,
        cfg.net.injection_bytes_per_cycle,
        &mut |_| {},
    ))
}

/// `bench network --case NAME` on the ranks (decision 0029): every rank steps its share of the
/// case's network and measures itself; rank 0 gathers the figures and prints the case's.
pub fn bench(
    config: Option<&Path>,
    json: bool,
    cycles: (Option<u64>, Option<u64>),
    case: Option<&str>,
) -> R {
    let m = Mpi::init()
        .map_err(CliError::input)?
        .ok_or_else(|| CliError::input("no MPI launcher started this process"))?;
    // the resident set before the rank builds anything (MPI already running); read here also
    // to find an unreadable /proc before the ranks agree to run
    let start = resident_bytes().and_then(|r| peak_resident_bytes().map(|_| r));
    let mut the_case: Option<Case> = None;
    let Share {
        cfg,
        plan: p,
        mut net,
        meter,
    } = set_up_share(
        &m,
        || {
            let name = case.ok_or_else(|| {
                CliError::input(
                    "under mpirun, bench network runs one case on the ranks: give --case NAME \
                     (every case, or --threads, in one process: without mpirun)",
                )
            })?;
            let c = with_cycles(find_case(&CASES, name, |c| c.name)?, cycles);
            the_case = Some(c);
            let mut cfg = load_config(config)?;
            if cfg.net.threads == 0 {
                // the benchmark's figures are one thread's a rank unless net.threads says
                // otherwise
                cfg.net.threads = 1;
            }
            case_config(&cfg, &c).map_err(CliError::input)
        },
        |_| {
            start
                .as_ref()
                .map(|_| ())
                .map_err(|e| CliError::failed(e.clone()))
        },
    )?;
    let c = the_case.ok_or_else(|| CliError::failed("set up without a case"))?;
    let start = start.map_err(CliError::failed)?;
    let n = p.topo.nodes();
    say_shares(&m, n);
    net.run(c.warmup);
    // the timed cycles start together on every rank
    m.barrier();
    let (sync0, ex0) = (net.sync, meter.read());
    let w0 = std::time::Instant::now();
    let t0 = cpu_seconds();
    net.run(c.cycles);
    let (t1, wall) = (cpu_seconds(), w0.elapsed().as_secs_f64());
    let ex1 = meter.read();
    // what a rank failed to measure is said by rank 0 after every rank has gathered: no rank
    // leaves the others waiting in a collective
    let measured: Result<RankResult, String> = (|| {
        Ok(RankResult::new(RankMeasure {
            rank: m.rank,
            share: net.owned(),
            nodes_held: net.nodes.len(),
            threads: net.threads(),
            partitions: net.partitions(),
            cpu_seconds: t1? - t0?,
            wall_seconds: wall,
            exchanges: ex1.0 - ex0.0,
            exchange_seconds: ex1.1 - ex0.1,
            neighbours: meter.neighbours,
            barrier_wait_seconds: net.sync.wait_seconds - sync0.wait_seconds,
            windows: c.cycles.div_ceil(net.window()),
            resident_bytes: [start, resident_bytes()?, peak_resident_bytes()?],
            fifo_words_held: net.fifo_words().0,
        }))
    })();
    // the statistics of every rank merged (no drain: no further cycle), on every rank
    let s = net.run_phases(0, cfg.net.load, cfg.net.injection_bytes_per_cycle);
    let text = serde_json::to_vec(&measured).map_err(|e| CliError::failed(e.to_string()))?;
    let Some(parts) = m.gather(&text) else {
        return Ok(ExitCode::SUCCESS);
    };
    let mut ranks = Vec::with_capacity(parts.len());
    for (r, b) in parts.iter().enumerate() {
        let got: Result<RankResult, String> = serde_json::from_slice(b)
            .map_err(|e| format!("its figures are unreadable: {e}"))
            .and_then(|x| x);
        ranks.push(got.map_err(|e| CliError::failed(format!("rank {r} of {}: {e}", m.size)))?);
    }
    let merged = Merged {
        packets_delivered: s.packets_delivered_total,
        accepted_load: s.accepted_load,
        stats_hash: s.stats_hash,
    };
    let rep = MpiCaseResult::new(&c, &cfg, n, merged, ranks).map_err(CliError::failed)?;
    if json {
        return json_out(&rep);
    }
    print!("{rep}");
    Ok(ExitCode::SUCCESS)
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
