//! `exanet bench network --against BINARY`: this build against another, side by side.
//!
//! Speed on a shared machine is measured as a ratio of two builds run in one sitting, not as an
//! absolute figure (issue 34): every case runs as `network run` of the same configuration on
//! both binaries, one thread, alternately (this build first in odd rounds, the other first in
//! even ones), each in a child process of its own whose CPU time (user + system, of the whole
//! process: building the network, the warm-up, the timed cycles, the statistics) and peak
//! resident set the kernel reports when it ends (`wait4`). A round gives the ratio of the other
//! build's CPU time to this one's (above 1: this build is faster); the report gives each round's
//! ratio, their median and the ratio of the fastest runs, and whether the median reaches
//! [`AB_GOAL`].
//!
//! Both runs print their statistics hash: equal hashes say that both builds simulated the same
//! cycles to the same results, so the times compare the same work (a build whose model
//! changed a result is reported as such).

use super::output::json_out;
use super::{CliError, R};
use crate::net::bench::{Case, CASES};
use serde::Serialize;
use std::ffi::OsString;
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

/// The ratio this build should reach against the one given (issue 34: 1.2 times the build
/// before the one-clocked-block core, 04f7728).
pub const AB_GOAL: f64 = 1.2;

/// One child process's cost.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Cost {
    pub cpu_seconds: f64,
    pub peak_resident_bytes: u64,
}

/// One case, both builds, every round.
#[derive(Debug, Clone, Serialize)]
pub struct AbCase {
    pub case: String,
    pub topology: String,
    pub routing: Option<String>,
    pub load: f64,
    pub nodes: u64,
    /// Cycles each run simulates: warm-up plus timed, no drain.
    pub cycles: u64,
    pub this: Vec<Cost>,
    pub other: Vec<Cost>,
    /// Per round, the other build's CPU time over this one's.
    pub ratios: Vec<f64>,
    pub median_ratio: f64,
    /// The fastest run of the other build over the fastest of this one.
    pub best_ratio: f64,
    /// Node-cycles per CPU second of the fastest run of each.
    pub this_node_cycles_per_cpu_second: f64,
    pub other_node_cycles_per_cpu_second: f64,
    pub this_stats_hash: String,
    pub other_stats_hash: String,
    pub same_statistics: bool,
    pub goal: f64,
    pub goal_met: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct AbReport {
    pub this_binary: String,
    pub other_binary: String,
    pub rounds: u32,
    pub cases: Vec<AbCase>,
}

/// Median of a non-empty list.
fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let n = s.len();
    if n % 2 == 1 {
        s[n / 2]
    } else {
        (s[n / 2 - 1] + s[n / 2]) / 2.0
    }
}

/// Runs `cmd` to its end: what it printed on stdout, and its cost as the kernel counts it.
/// A child that cannot start, fails, or is killed is an error naming `what`.
fn run_costed(cmd: &mut Command, what: &str) -> Result<(Vec<u8>, Cost), CliError> {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd
        .spawn()
        .map_err(|e| CliError::failed(format!("{what}: cannot start: {e}")))?;
    let mut err_pipe = child.stderr.take().expect("piped");
    let err = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = err_pipe.read_to_end(&mut s);
        s
    });
    let mut out = Vec::new();
    child
        .stdout
        .take()
        .expect("piped")
        .read_to_end(&mut out)
        .map_err(|e| CliError::failed(format!("{what}: reading its output: {e}")))?;
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value for wait4 to overwrite.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    // SAFETY: `status` and `ru` are valid and writable for the call; the child is ours and not
    // yet waited for (std's `Child` is not waited on after this, so the pid is reaped once).
    let rc = unsafe { libc::wait4(pid, &mut status, 0, &mut ru) };
    let stderr = err.join().unwrap_or_default();
    if rc != pid {
        return Err(CliError::failed(format!(
            "{what}: wait4: {}",
            std::io::Error::last_os_error()
        )));
    }
    if !(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0) {
        return Err(CliError::failed(format!(
            "{what} failed ({}): {}",
            if libc::WIFEXITED(status) {
                format!("exit status {}", libc::WEXITSTATUS(status))
            } else {
                format!("signal {}", libc::WTERMSIG(status))
            },
            String::from_utf8_lossy(&stderr).trim()
        )));
    }
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    Ok((
        out,
        Cost {
            cpu_seconds: secs(ru.ru_utime) + secs(ru.ru_stime),
            // (ru_maxrss is in KiB on Linux)
            peak_resident_bytes: ru.ru_maxrss.max(0) as u64 * 1024,
        },
    ))
}

/// Whether `bin`'s `network run` takes `--threads` (a build before the threaded engine does
/// not, and runs one thread anyway).
fn takes_threads(bin: &Path) -> Result<bool, CliError> {
    let out = Command::new(bin)
        .args(["network", "run", "--help"])
        .output()
        .map_err(|e| CliError::input(format!("--against {}: cannot run: {e}", bin.display())))?;
    let help = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() || !help.contains("--set <SECTION.KEY=VALUE>") {
        return Err(CliError::input(format!(
            "--against {}: `network run --help` shows no --set: is it an exanet binary?",
            bin.display()
        )));
    }
    Ok(help.contains("--threads"))
}

/// The command line of one case's run: `network run` of the case's configuration, warm-up plus
/// timed cycles, no drain, with the caller's configuration file and `--set`s; `threads`: the
/// build takes `--threads` (one thread is asked for).
fn run_args(
    c: &Case,
    config: Option<&Path>,
    sets: &[crate::config_set::Assignment],
    threads: bool,
) -> Vec<OsString> {
    let mut v: Vec<OsString> = vec!["network".into(), "run".into(), "--json".into()];
    super::netrun::push_config_args(&mut v, config, sets);
    // (as `--set`s, which every build takes: an early one has no --topology)
    let mut set = |k: &str, x: String| {
        v.push("--set".into());
        v.push(format!("{k}={x}").into());
    };
    set("net.topology", c.topology.to_string());
    if let Some(r) = c.routing {
        set("net.routing", r.to_string());
    }
    set("net.load", c.load.to_string());
    set("net.warmup_cycles", c.warmup.to_string());
    set("net.measure_cycles", c.cycles.to_string());
    set("net.drain_cycles", "0".to_string());
    if threads {
        v.extend(["--threads".into(), "1".into()]);
    }
    v
}

/// What a run's JSON says: its statistics hash.
fn read_run(out: &[u8], what: &str) -> Result<String, CliError> {
    let j: serde_json::Value = serde_json::from_slice(out)
        .map_err(|e| CliError::failed(format!("{what}: unreadable JSON: {e}")))?;
    let hash = j["stats_hash"]
        .as_str()
        .ok_or_else(|| CliError::failed(format!("{what}: no stats_hash in its JSON")))?;
    Ok(hash.to_string())
}

/// `bench network --against OTHER`: the cases (`only`, or every one) on this build and on
/// `other`, `rounds` times each, alternately.
pub fn against(
    other: &Path,
    config: Option<&Path>,
    json: bool,
    cycles: (Option<u64>, Option<u64>),
    only: Option<&str>,
    rounds: u32,
) -> R {
    let this = std::env::current_exe()
        .map_err(|e| CliError::failed(format!("cannot find this program to rerun it: {e}")))?;
    let other = PathBuf::from(other);
    if !other.is_file() {
        return Err(CliError::input(format!(
            "--against {}: no such file",
            other.display()
        )));
    }
    let sets = super::overrides();
    // the configuration must load here (its errors named now, not by a child)
    let base = super::load_config(config)?;
    let threads = (takes_threads(&this)?, takes_threads(&other)?);
    let cases: Vec<Case> = match only {
        Some(name) => vec![*super::find_case(&CASES, name, |c| c.name)?],
        None => CASES.to_vec(),
    };
    let mut out = Vec::new();
    for c in cases {
        let c = super::netrun::with_cycles(&c, cycles);
        let cc = crate::net::bench::case_config(&base, &c).map_err(CliError::input)?;
        let nodes = crate::net::setup::plan(&cc)
            .map_err(CliError::input)?
            .topo
            .nodes() as u64;
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let (mut ha, mut hb) = (String::new(), String::new());
        for round in 0..rounds {
            if !json {
                eprintln!(
                    "  {} ({}, load {}, {} + {} cycles): round {} of {rounds}...",
                    c.name,
                    c.topology,
                    c.load,
                    c.warmup,
                    c.cycles,
                    round + 1
                );
            }
            let one = |bin: &Path, threads: bool, who: &str| {
                let what = format!("case {} on {who} ({})", c.name, bin.display());
                let mut cmd = Command::new(bin);
                cmd.args(run_args(&c, config, &sets, threads));
                let (o, cost) = run_costed(&mut cmd, &what)?;
                Ok::<_, CliError>((cost, read_run(&o, &what)?))
            };
            let order = if round % 2 == 0 {
                [true, false]
            } else {
                [false, true]
            };
            for mine in order {
                if mine {
                    let (cost, h) = one(&this, threads.0, "this build")?;
                    ha = h;
                    a.push(cost);
                } else {
                    let (cost, h) = one(&other, threads.1, "the other build")?;
                    hb = h;
                    b.push(cost);
                }
            }
        }
        let ratios: Vec<f64> = (a.iter().zip(&b))
            .map(|(x, y)| y.cpu_seconds / x.cpu_seconds.max(1e-9))
            .collect();
        let best = |v: &[Cost]| v.iter().map(|x| x.cpu_seconds).fold(f64::MAX, f64::min);
        let (ba, bb) = (best(&a), best(&b));
        let run_cycles = c.warmup + c.cycles;
        let median_ratio = median(&ratios);
        out.push(AbCase {
            case: c.name.to_string(),
            topology: c.topology.to_string(),
            routing: c.routing.map(|r| r.to_string()),
            load: c.load,
            nodes,
            cycles: run_cycles,
            this: a,
            other: b,
            best_ratio: bb / ba.max(1e-9),
            median_ratio,
            ratios,
            this_node_cycles_per_cpu_second: (nodes * run_cycles) as f64 / ba.max(1e-9),
            other_node_cycles_per_cpu_second: (nodes * run_cycles) as f64 / bb.max(1e-9),
            same_statistics: ha == hb,
            this_stats_hash: ha,
            other_stats_hash: hb,
            goal: AB_GOAL,
            goal_met: median_ratio >= AB_GOAL,
        });
    }
    let rep = AbReport {
        this_binary: this.display().to_string(),
        other_binary: other.display().to_string(),
        rounds,
        cases: out,
    };
    if json {
        return json_out(&rep);
    }
    print!("{rep}");
    Ok(ExitCode::SUCCESS)
}

impl fmt::Display for AbReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "this build ({}) against {}: `network run` of each case, one thread, CPU time of \
             the whole process, {} rounds alternated",
            self.this_binary, self.other_binary, self.rounds
        )?;
        writeln!(
            f,
            "  {:<16} {:>6} {:>7} {:>9} {:>9} {:>13} {:>13} {:>7} {:>7}  ratio per round; statistics",
            "case",
            "nodes",
            "cycles",
            "CPU s",
            "other s",
            "node-cyc/s",
            "other n-c/s",
            "median",
            "best"
        )?;
        for c in &self.cases {
            let best = |v: &[Cost]| v.iter().map(|x| x.cpu_seconds).fold(f64::MAX, f64::min);
            let rounds: Vec<String> = c.ratios.iter().map(|r| format!("{r:.3}")).collect();
            writeln!(
                f,
                "  {:<16} {:>6} {:>7} {:>9.2} {:>9.2} {:>13.0} {:>13.0} {:>7.3} {:>7.3}  {}; {}",
                c.case,
                c.nodes,
                c.cycles,
                best(&c.this),
                best(&c.other),
                c.this_node_cycles_per_cpu_second,
                c.other_node_cycles_per_cpu_second,
                c.median_ratio,
                c.best_ratio,
                rounds.join(" "),
                if c.same_statistics {
                    format!("equal ({})", c.this_stats_hash)
                } else {
                    format!(
                        "DIFFER ({} against {})",
                        c.this_stats_hash, c.other_stats_hash
                    )
                }
            )?;
        }
        for c in &self.cases {
            let peak = |v: &[Cost]| v.iter().map(|x| x.peak_resident_bytes).max().unwrap_or(0);
            writeln!(
                f,
                "  {}: median ratio {:.3} against the goal {:.1}: {}; peak resident {:.1} MB \
                 against {:.1} MB",
                c.case,
                c.median_ratio,
                c.goal,
                if c.goal_met { "met" } else { "NOT met" },
                peak(&c.this) as f64 / 1e6,
                peak(&c.other) as f64 / 1e6
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_of_odd_and_even_lists() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
    }

    #[test]
    fn a_child_that_fails_is_an_error_naming_it() {
        let e = run_costed(&mut Command::new("false"), "case x").unwrap_err();
        assert!(e.to_string().contains("case x failed"), "{e}");
        let (out, cost) = run_costed(Command::new("echo").arg("hi"), "echo").unwrap();
        assert_eq!(out, b"hi\n");
        assert!(cost.cpu_seconds >= 0.0 && cost.peak_resident_bytes > 0);
    }
}
