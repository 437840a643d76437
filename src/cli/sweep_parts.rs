//! A sweep's points shared among processes (`exanet network sweep`, docs/network.md "A sweep
//! over many processes"). The points of a sweep are independent runs; point `k` (curves, then
//! loads, then seeds, as the one-process sweep numbers them) is run by process `k mod N` of N:
//!
//! - **a part** (`--part K/N --parts-dir DIR`, one task of a batch system's job array): the
//!   process runs its points and writes what each gave into `DIR/part-K-of-N.json`, printing
//!   nothing else; `--join DIR` (same arguments otherwise) reads the N files and writes the
//!   sweep's results;
//! - **MPI ranks** (`mpirun -n N exanet network sweep ...`, cargo feature `mpi`): rank K runs
//!   the points of part K of N, and rank 0 gathers every rank's part and writes the results;
//!   with `--ranks-per-point G`, the ranks form N/G groups of G consecutive ranks, group g runs
//!   part g of N/G, each of its points spread over its G ranks by the MPI engine (a large
//!   network's point), and each group's first rank hands its part to rank 0.
//!
//! Either way the results are those of the one-process sweep, byte for byte: every point runs
//! from the same configuration and seed whoever runs it, the part carries each point's whole
//! summary (floats read back exactly: serde_json's `float_roundtrip`), and the results are
//! assembled in point order by the code that assembles them in one process. A point's packet
//! records (`--packets FILE`) go into its part file beside `FILE`, as in one process; the join
//! concatenates them in point order, so every process must see `FILE`'s folder (a cluster's
//! shared file system).
//!
//! A part names its sweep by a hash of what defines it (every curve's configuration, the loads,
//! the seeds): a join of parts of another sweep, or of a different count of parts, is refused.

use super::CliError;
use crate::net::stats::Summary;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// How the points of this sweep are shared.
pub enum Spread {
    /// All of them, in this process.
    Whole,
    /// Part `index` of `parts`, written into `dir`.
    Part {
        index: usize,
        parts: usize,
        dir: PathBuf,
    },
    /// The parts in `dir`, joined.
    Join { dir: PathBuf },
    /// MPI ranks in groups of `.1` (`--ranks-per-point`): group `g` runs part `g` of `size /
    /// .1`, each point over its ranks with the MPI engine (one rank a point: groups of 1);
    /// rank 0 gathers the groups' parts.
    #[cfg(feature = "mpi")]
    Mpi(crate::net::dist::mpi::Mpi, usize),
}

/// `--part K/N`: K and N, `0 <= K < N`.
pub fn parse_part(s: &str) -> Result<(usize, usize), CliError> {
    let bad = || {
        CliError::input(format!(
            "--part {s}: expected K/N, this process's part K (0 to N-1) of N"
        ))
    };
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let (k, n): (usize, usize) = (
        k.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if n == 0 || k >= n {
        return Err(bad());
    }
    Ok((k, n))
}

/// The points part `index` of `parts` runs, of `total`.
pub fn points_of(index: usize, parts: usize, total: usize) -> Vec<usize> {
    (index..total).step_by(parts).collect()
}

/// The file of part `index` of `parts` in `dir`.
pub fn part_file(dir: &Path, index: usize, parts: usize) -> PathBuf {
    dir.join(format!("part-{index}-of-{parts}.json"))
}

/// What one part's points gave: their summaries, or the first error.
#[derive(Debug, Serialize, Deserialize)]
pub struct Part {
    /// The sweep's hash ([`sweep_key`]).
    pub sweep: String,
    pub index: usize,
    pub parts: usize,
    pub total: usize,
    /// `(k, summary)` of every point of the part that ran, in point order.
    pub points: Vec<(usize, Summary)>,
    /// The error of the part's lowest point that failed: `(k, exit code, message)`.
    pub error: Option<(usize, u8, String)>,
}

/// The hash that names a sweep: its curves' configurations, loads and seeds.
pub fn sweep_key(configs: &[crate::config::Config], loads: &[f64], seeds: &[u64]) -> String {
    use crate::net::dist::{fnv, FNV_START};
    let text = serde_json::to_string(&(configs, loads, seeds)).expect("a sweep serialises");
    format!("{:016x}", fnv(FNV_START, text.as_bytes()))
}

impl Part {
    /// The part's bytes, as written to its file or sent to rank 0.
    pub fn to_bytes(&self) -> Vec<u8> {
        serde_json::to_vec(self).expect("a part serialises")
    }

    /// A part read back; `from` names where it came from in an error.
    pub fn from_bytes(bytes: &[u8], from: &str) -> Result<Part, CliError> {
        serde_json::from_slice(bytes)
            .map_err(|e| CliError::input(format!("{from}: not a sweep part: {e}")))
    }

    /// Writes the part into `dir` (through a temporary file renamed over it: a join never
    /// reads half of it).
    pub fn write(&self, dir: &Path) -> Result<PathBuf, CliError> {
        let path = part_file(dir, self.index, self.parts);
        let tmp = path.with_extension("json.tmp");
        std::fs::write(&tmp, self.to_bytes())
            .and_then(|()| std::fs::rename(&tmp, &path))
            .map_err(|e| CliError::input(format!("--parts-dir: {}: {e}", path.display())))?;
        Ok(path)
    }
}

/// Every point's summary, in point order, from the `parts` of the sweep `key` of `total`
/// points; the error of the lowest point that failed, as one process would give it.
pub fn join(parts: Vec<(String, Part)>, key: &str, total: usize) -> Result<Vec<Summary>, CliError> {
    let n = parts.len();
    let mut by_point: Vec<Option<Summary>> = (0..total).map(|_| None).collect();
    // each part runs its points in order and stops at its first failure, so the lowest of the
    // parts' failures is the lowest point that fails: the one-process sweep's error
    let mut first_error: Option<(usize, u8, String)> = None;
    for (from, p) in parts {
        if p.sweep != key || p.total != total {
            return Err(CliError::input(format!(
                "{from}: a part of another sweep (sweep {}, {} points; this one is {key}, \
                 {total} points): give the arguments and configuration the parts ran with",
                p.sweep, p.total
            )));
        }
        if p.parts != n {
            return Err(CliError::input(format!(
                "{from}: part {} of {}, but {n} parts were given",
                p.index, p.parts
            )));
        }
        if let Some(e) = p.error {
            if first_error.as_ref().is_none_or(|f| e.0 < f.0) {
                first_error = Some(e);
            }
        }
        for (k, s) in p.points {
            if k >= total || k % n != p.index {
                return Err(CliError::input(format!(
                    "{from}: point {k} is not part {}'s",
                    p.index
                )));
            }
            by_point[k] = Some(s);
        }
    }
    if let Some((_, code, message)) = first_error {
        return Err(CliError { code, message });
    }
    if let Some(k) = (0..total).find(|&k| by_point[k].is_none()) {
        return Err(CliError::input(format!(
            "point {k} of the sweep is in no part: part {} of {n} is incomplete",
            k % n
        )));
    }
    Ok(by_point.into_iter().map(|s| s.expect("checked")).collect())
}

/// Every point's row (`row(k)`, of `summaries[k]`), after joining the packets file (`packets`)
/// from the points' part files beside it, in point order.
pub fn rows_and_packets<T>(
    summaries: &[Summary],
    packets: Option<&Path>,
    total: usize,
    row: &dyn Fn(usize) -> T,
) -> Result<Vec<T>, CliError> {
    if let Some(p) = packets {
        let mut j = super::netsweep::PacketsJoin::create(p, total)?;
        for k in 0..total {
            j.finished(k);
        }
        j.finish()?;
    }
    Ok((0..summaries.len()).map(row).collect())
}

/// The parts in `dir` (`part-K-of-N.json`), every one of the same N.
pub fn read_parts(dir: &Path) -> Result<Vec<(String, Part)>, CliError> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| CliError::input(format!("--join {}: {e}", dir.display())))?;
    let mut names: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("part-") && n.ends_with(".json"))
        })
        .collect();
    names.sort();
    if names.is_empty() {
        return Err(CliError::input(format!(
            "--join {}: no part-K-of-N.json files (written by --part K/N --parts-dir)",
            dir.display()
        )));
    }
    let mut parts = Vec::with_capacity(names.len());
    for p in names {
        let from = p.display().to_string();
        let text = crate::input::read_text_bounded(&p, crate::input::MAX_TRACE_BYTES)
            .map_err(CliError::input)?;
        parts.push((from.clone(), Part::from_bytes(text.as_bytes(), &from)?));
    }
    let n = parts[0].1.parts;
    let mut seen = vec![false; n];
    for (from, p) in &parts {
        if p.parts != n || p.index >= n || seen[p.index] {
            return Err(CliError::input(format!(
                "{from}: part {} of {}: the folder mixes parts of different splits",
                p.index, p.parts
            )));
        }
        seen[p.index] = true;
    }
    if let Some(k) = seen.iter().position(|&s| !s) {
        return Err(CliError::input(format!(
            "--join {}: part {k} of {n} is missing ({})",
            dir.display(),
            part_file(dir, k, n).display()
        )));
    }
    parts.sort_by_key(|(_, p)| p.index);
    Ok(parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_share_the_points_round_robin_and_refuse_bad_splits() {
        assert_eq!(parse_part("2/4").unwrap(), (2, 4));
        for bad in ["4/4", "1/0", "x/2", "3"] {
            assert_eq!(parse_part(bad).unwrap_err().code, 2, "{bad}");
        }
        let mut all: Vec<usize> = (0..3).flat_map(|i| points_of(i, 3, 10)).collect();
        all.sort();
        assert_eq!(all, (0..10).collect::<Vec<_>>());
        assert_eq!(points_of(1, 3, 10), [1, 4, 7]);
        assert!(points_of(5, 8, 4).is_empty());
    }
}
