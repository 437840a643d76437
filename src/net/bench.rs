//! `exanet bench network`: how fast the network engine simulates, and how much memory a node
//! costs (issue 5 §6).
//!
//! Each case runs in a child process of its own (the same binary, `--case NAME`), so that its
//! resident memory is measured from a clean start and the allocator's reuse of one case's
//! memory does not hide the next one's. A case builds the network of the configuration with the
//! case's topology and load, runs `warmup` cycles so that traffic reaches its steady state (the
//! zero-load latency of the torus, about its mean hop count times 62 cycles), then times
//! `cycles` cycles by the process's CPU time (`/proc/self/stat`, user + system; one thread).
//!
//! - speed: simulated node-cycles (nodes x timed cycles) per CPU second;
//! - memory: resident set (`/proc/self/statm`) at the end of the run minus at the start of the
//!   child, divided by the nodes: everything the network holds (nodes, FIFO words in flight,
//!   software queues, statistics), not the binary;
//! - the bound: that figure plus the router FIFO words the run did not fill, 16 bytes each
//!   (`Network::fifo_words`): what a node would hold with every FIFO full, since a FIFO keeps
//!   only its live words. The 96x96 torus must fit in 8 GiB by this bound, not only by what a
//!   10 % load happened to fill.

use super::setup::{build, plan};
use crate::config::Config;
use crate::spec::RoutingSpec;
use serde::{Deserialize, Serialize};
use std::fmt;

/// One benchmark case.
#[derive(Debug, Clone, Copy)]
pub struct Case {
    pub name: &'static str,
    pub topology: &'static str,
    /// The routing the case runs; `None`: the configuration's (`net.routing`, e-cube by
    /// default: the tori's).
    pub routing: Option<RoutingSpec>,
    pub load: f64,
    /// Untimed cycles first.
    pub warmup: u64,
    /// Timed cycles (the command line may change them).
    pub cycles: u64,
}

/// The cases of issue 5 §6: 32x32 at 10 % and at a load beyond saturation, 96x96 at 10 %; and
/// of issue 13 §4: the balanced dragonfly of 1056 endpoints (264 routers of 4 terminals, 33
/// groups of 8) at 30 % with its minimal routing (the only deadlock-free routing of a dragonfly
/// here; e-cube, the configuration's default, is a torus's).
pub const CASES: [Case; 4] = [
    Case {
        name: "torus32-10",
        topology: "torus:32x32",
        routing: None,
        load: 0.1,
        warmup: 2000,
        cycles: 4000,
    },
    Case {
        name: "torus32-sat",
        topology: "torus:32x32",
        routing: None,
        load: 0.5,
        warmup: 2000,
        cycles: 4000,
    },
    Case {
        name: "torus96-10",
        topology: "torus:96x96",
        routing: None,
        load: 0.1,
        warmup: 4000,
        cycles: 1000,
    },
    Case {
        name: "dragonfly1056-30",
        topology: "dragonfly:p=4,a=8,h=4",
        routing: Some(RoutingSpec::Min),
        load: 0.3,
        warmup: 2000,
        cycles: 4000,
    },
];

/// The most timed cycles a case runs (`exanet bench network --cycles`): the 96x96 torus takes
/// about a hundredth of a second a cycle on the development machine, so 10^6 cycles are some
/// hours; the defaults are 4000 and 1000.
pub const MAX_CYCLES: u64 = 1_000_000;

/// Bytes a FIFO word takes in a model FIFO's memory (a `u128`).
pub const WORD_BYTES: u64 = 16;
/// Memory the 96x96 torus must fit in, bytes.
pub const GOAL_96_BYTES: f64 = 8.0 * (1u64 << 30) as f64;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CaseResult {
    pub case: String,
    pub topology: String,
    pub routing: String,
    pub load: f64,
    pub payload_sizes: String,
    pub nodes: usize,
    pub warmup_cycles: u64,
    pub timed_cycles: u64,
    /// Threads and partitions the network ran on (`net.threads`, `net.partitions`).
    pub threads: usize,
    pub partitions: usize,
    pub cpu_seconds: f64,
    pub wall_seconds: f64,
    pub node_cycles_per_cpu_second: f64,
    pub node_cycles_per_wall_second: f64,
    /// Windows of the timed cycles, and the seconds a thread waited at a window's barrier on
    /// average (0 on one thread).
    pub windows: u64,
    pub barrier_seconds_per_window: f64,
    pub resident_bytes_start: u64,
    pub resident_bytes_end: u64,
    pub bytes_per_node: f64,
    /// Router FIFO words held at the end, and the FIFOs' configured depths, over the network.
    pub fifo_words_held: u64,
    pub fifo_words_depth: u64,
    /// `bytes_per_node` plus 16 bytes for every FIFO word not held (every FIFO full).
    pub full_buffers_bytes_per_node: f64,
    /// Packets delivered over the whole run, and the accepted load of the timed cycles
    /// (payload bytes per cycle per endpoint over `injection_bytes_per_cycle`).
    pub packets_delivered: u64,
    pub accepted_load: f64,
    /// The statistics hash of the run (warm-up, then the timed cycles as the measurement window,
    /// no drain): `network run`'s with the case's configuration and `net.drain_cycles = 0`.
    pub stats_hash: String,
}

/// CPU time of this process, seconds: `clock_gettime(CLOCK_PROCESS_CPUTIME_ID)`, nanosecond
/// resolution (the kernel's USER_HZ ticks of `/proc/self/stat` are 10 ms, which a short
/// measurement on a fast machine rounds to zero).
pub fn cpu_seconds() -> Result<f64, String> {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid, writable timespec for the duration of the call.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    if rc != 0 {
        return Err(format!(
            "clock_gettime(CLOCK_PROCESS_CPUTIME_ID): {}",
            std::io::Error::last_os_error()
        ));
    }
    Ok(t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9)
}

/// Resident set of this process, bytes (`/proc/self/statm`, pages of 4 KiB).
pub fn resident_bytes() -> Result<u64, String> {
    let s = std::fs::read_to_string("/proc/self/statm")
        .map_err(|e| format!("/proc/self/statm: {e}"))?;
    s.split_whitespace()
        .nth(1)
        .and_then(|x| x.parse::<u64>().ok())
        .map(|p| p * 4096)
        .ok_or_else(|| "/proc/self/statm: resident pages unreadable".to_string())
}

/// Peak resident set of this process over its life, bytes (`VmHWM` of `/proc/self/status`).
pub fn peak_resident_bytes() -> Result<u64, String> {
    let s = std::fs::read_to_string("/proc/self/status")
        .map_err(|e| format!("/proc/self/status: {e}"))?;
    s.lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().strip_suffix("kB"))
        .and_then(|k| k.trim().parse::<u64>().ok())
        .map(|k| k * 1024)
        .ok_or_else(|| "/proc/self/status: no VmHWM in kB".to_string())
}

/// The configuration of `case`: `cfg` with the case's topology, load and routing (when it
/// names one), the warm-up and the timed cycles as the measurement window, and no drain: a
/// `network run` of it gives the case's statistics hash. An error for timed cycles outside 1 to
/// [`MAX_CYCLES`], or a warm-up beyond it.
pub fn case_config(cfg: &Config, case: &Case) -> Result<Config, String> {
    if case.cycles == 0 || case.cycles > MAX_CYCLES {
        return Err(format!(
            "--cycles: {}: must be between 1 and {MAX_CYCLES}",
            case.cycles
        ));
    }
    if case.warmup > MAX_CYCLES {
        return Err(format!(
            "--warmup: {}: must be between 0 and {MAX_CYCLES}",
            case.warmup
        ));
    }
    let mut c = cfg.clone();
    c.net.topology = case.topology.parse()?;
    if let Some(r) = case.routing {
        c.net.routing = r;
    }
    c.net.load = case.load;
    // the whole run counts: warm-up and timed cycles lie in the window
    c.net.warmup_cycles = case.warmup;
    c.net.measure_cycles = case.cycles;
    c.net.drain_cycles = 0;
    Ok(c)
}

/// Run one case in this process.
pub fn run_case(cfg: &Config, case: &Case) -> Result<CaseResult, String> {
    let c = case_config(cfg, case)?;
    let rss0 = resident_bytes()?;
    let p = plan(&c)?;
    let mut net = build(&c, &p, case.load)?;
    net.run(case.warmup);
    let sync0 = net.sync;
    let (t0, w0) = (cpu_seconds()?, std::time::Instant::now());
    net.run(case.cycles);
    let (cpu, wall) = (cpu_seconds()? - t0, w0.elapsed().as_secs_f64());
    let windows = net.sync.windows - sync0.windows;
    let waited = net.sync.wait_seconds - sync0.wait_seconds;
    let after = net.merged();
    let rss1 = resident_bytes()?;
    let nodes = p.topo.nodes();
    let (held, depth) = net.fifo_words();
    // the run's summary, as `network run` of `c` makes it (no drain: no further cycle)
    let summary = net.run_phases(0, case.load, c.net.injection_bytes_per_cycle);
    let bytes_per_node = rss1.saturating_sub(rss0) as f64 / nodes as f64;
    // the window is the timed cycles: what arrived in it
    let bytes = after.arrived_bytes_window;
    Ok(CaseResult {
        case: case.name.to_string(),
        topology: case.topology.to_string(),
        routing: c.net.routing.to_string(),
        load: case.load,
        payload_sizes: c.net.sizes.to_string(),
        nodes,
        warmup_cycles: case.warmup,
        timed_cycles: case.cycles,
        threads: net.threads(),
        partitions: net.partitions(),
        cpu_seconds: cpu,
        wall_seconds: wall,
        node_cycles_per_cpu_second: (nodes as u64 * case.cycles) as f64 / cpu.max(1e-9),
        node_cycles_per_wall_second: (nodes as u64 * case.cycles) as f64 / wall.max(1e-9),
        windows,
        barrier_seconds_per_window: if windows == 0 {
            0.0
        } else {
            waited / net.threads() as f64 / windows as f64
        },
        resident_bytes_start: rss0,
        resident_bytes_end: rss1,
        bytes_per_node,
        fifo_words_held: held,
        fifo_words_depth: depth,
        full_buffers_bytes_per_node: bytes_per_node
            + (depth.saturating_sub(held) * WORD_BYTES) as f64 / nodes as f64,
        packets_delivered: after.delivered,
        accepted_load: bytes as f64
            / case.cycles as f64
            / p.topo.endpoints() as f64
            / c.net.injection_bytes_per_cycle,
        stats_hash: summary.stats_hash,
    })
}

/// Wall-clock speed-up the threaded engine should reach on a 2-core machine: (case, speed-up)
/// (issue 13 §2; issue 34 raised the 32x32 torus's from 1.6 to 1.8).
pub const SPEEDUP_GOALS: [(&str, f64); 2] = [("torus96-10", 1.8), ("torus32-10", 1.8)];

/// One case on one thread and on several, the same cycles (`exanet bench network --threads`).
#[derive(Debug, Clone, Serialize)]
pub struct Speedup {
    pub case: String,
    pub threads: usize,
    /// The fastest of the runs of each, wall-clock seconds of the timed cycles.
    pub one_thread_wall_seconds: f64,
    pub threads_wall_seconds: f64,
    /// One thread's time over the threads' time.
    pub speedup: f64,
    /// What a thread waited at a window's barrier, on average over the fastest threaded run's
    /// windows.
    pub barrier_seconds_per_window: f64,
    pub windows: u64,
    /// The goal of `SPEEDUP_GOALS` for the case, if it has one, and whether it was met.
    pub goal: Option<f64>,
    pub goal_met: Option<bool>,
}

impl Speedup {
    /// From the runs of one case on one thread (`one`) and on several (`many`), alternated.
    pub fn new(one: &[CaseResult], many: &[CaseResult]) -> Option<Speedup> {
        let fastest = |v: &[CaseResult]| {
            v.iter()
                .min_by(|a, b| a.wall_seconds.total_cmp(&b.wall_seconds))
                .cloned()
        };
        let (a, b) = (fastest(one)?, fastest(many)?);
        let speedup = a.wall_seconds / b.wall_seconds.max(1e-9);
        let goal = SPEEDUP_GOALS.iter().find(|g| g.0 == a.case).map(|g| g.1);
        Some(Speedup {
            case: a.case.clone(),
            threads: b.threads,
            one_thread_wall_seconds: a.wall_seconds,
            threads_wall_seconds: b.wall_seconds,
            speedup,
            barrier_seconds_per_window: b.barrier_seconds_per_window,
            windows: b.windows,
            goal,
            goal_met: goal.map(|g| speedup >= g),
        })
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct NetBenchReport {
    pub cases: Vec<CaseResult>,
    /// With `--threads N`: every case on one thread against N threads.
    pub threads: Vec<Speedup>,
    /// Bytes the 96x96 torus held (its bytes per node times its nodes; None when that case
    /// did not run), what it would hold with every FIFO full, the limit, and whether the
    /// latter fits.
    pub torus96_bytes: Option<f64>,
    pub torus96_full_buffers_bytes: Option<f64>,
    pub torus96_limit_bytes: f64,
    pub memory_goal_met: Option<bool>,
}

impl NetBenchReport {
    pub fn new(cases: Vec<CaseResult>, threads: Vec<Speedup>) -> NetBenchReport {
        let mem96 = cases
            .iter()
            .find(|c| c.case == "torus96-10")
            .map(|c| c.bytes_per_node * c.nodes as f64);
        let full96 = cases
            .iter()
            .find(|c| c.case == "torus96-10")
            .map(|c| c.full_buffers_bytes_per_node * c.nodes as f64);
        NetBenchReport {
            memory_goal_met: full96.map(|b| b <= GOAL_96_BYTES),
            torus96_full_buffers_bytes: full96,
            torus96_bytes: mem96,
            torus96_limit_bytes: GOAL_96_BYTES,
            cases,
            threads,
        }
    }
}

impl fmt::Display for NetBenchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "network engine speed and memory (one thread, CPU time, after a warm-up)"
        )?;
        writeln!(
            f,
            "  {:<16} {:<21} {:>5} {:>6} {:>7} {:>8} {:>14} {:>10} {:>12} {:>9}  statistics hash",
            "case",
            "topology",
            "load",
            "nodes",
            "cycles",
            "CPU s",
            "node-cycles/s",
            "B/node",
            "B/node full",
            "accepted"
        )?;
        for c in &self.cases {
            writeln!(
                f,
                "  {:<16} {:<21} {:>5.2} {:>6} {:>7} {:>8.2} {:>14.0} {:>10.0} {:>12.0} {:>9.3}  {}",
                c.case,
                c.topology,
                c.load,
                c.nodes,
                c.timed_cycles,
                c.cpu_seconds,
                c.node_cycles_per_cpu_second,
                c.bytes_per_node,
                c.full_buffers_bytes_per_node,
                c.accepted_load,
                c.stats_hash
            )?;
        }
        writeln!(
            f,
            "  (speed is a machine's: compare two builds side by side with --against BINARY)"
        )?;
        if let (Some(b), Some(full), Some(ok)) = (
            self.torus96_bytes,
            self.torus96_full_buffers_bytes,
            self.memory_goal_met,
        ) {
            writeln!(
                f,
                "  96x96 torus held {:.2} GiB, {:.2} GiB with every FIFO full (limit {:.0} GiB): {}",
                b / (1u64 << 30) as f64,
                full / (1u64 << 30) as f64,
                self.torus96_limit_bytes / (1u64 << 30) as f64,
                if ok { "fits" } else { "does NOT fit" }
            )?;
        }
        if !self.threads.is_empty() {
            writeln!(
                f,
                "threads (wall-clock time, the fastest of alternate runs on 1 and N threads)"
            )?;
            writeln!(
                f,
                "  {:<16} {:>7} {:>10} {:>10} {:>8} {:>8} {:>14} {:>9}",
                "case",
                "threads",
                "1 thr s",
                "N thr s",
                "speedup",
                "windows",
                "barrier us/win",
                "goal"
            )?;
            for t in &self.threads {
                writeln!(
                    f,
                    "  {:<16} {:>7} {:>10.3} {:>10.3} {:>7.2}x {:>8} {:>14.1} {:>9}",
                    t.case,
                    t.threads,
                    t.one_thread_wall_seconds,
                    t.threads_wall_seconds,
                    t.speedup,
                    t.windows,
                    t.barrier_seconds_per_window * 1e6,
                    match (t.goal, t.goal_met) {
                        (Some(g), Some(true)) => format!("{g}x met"),
                        (Some(g), _) => format!("{g}x NOT met"),
                        _ => "-".into(),
                    }
                )?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(name: &str, speed: f64) -> CaseResult {
        CaseResult {
            case: name.into(),
            topology: String::new(),
            routing: String::new(),
            load: 0.1,
            payload_sizes: String::new(),
            nodes: 1,
            warmup_cycles: 0,
            timed_cycles: 1,
            threads: 1,
            partitions: 1,
            cpu_seconds: 1.0,
            wall_seconds: 1.0,
            node_cycles_per_cpu_second: speed,
            node_cycles_per_wall_second: speed,
            windows: 1,
            barrier_seconds_per_window: 0.0,
            resident_bytes_start: 0,
            resident_bytes_end: 0,
            bytes_per_node: 0.0,
            fifo_words_held: 0,
            fifo_words_depth: 0,
            full_buffers_bytes_per_node: 0.0,
            packets_delivered: 0,
            accepted_load: 0.0,
            stats_hash: String::new(),
        }
    }

    #[test]
    fn the_report_points_at_the_side_by_side_comparison_not_at_an_absolute_speed() {
        let r = NetBenchReport::new(vec![case("torus32-10", 2_100_000.0)], vec![]);
        let text = r.to_string();
        assert!(
            text.contains("torus32-10") && text.contains("2100000"),
            "{text}"
        );
        assert!(
            text.contains("--against BINARY") && !text.contains("goal:"),
            "{text}"
        );
    }
}
