//! `exanet coverage`: merges the coverage files of lockstep runs (`cosim --coverage`, or every
//! run of a process with `EXANET_COVERAGE_DIR` set) by Verilated top and prints their figures
//! (decision 0042).

use super::{json_out, CliError, R};
use crate::cosim::coverage::{definitions, merge_all, CoverageData, Summary};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Merge `files` (and, with `campaign`, the coverage of the campaign's runs), print the figures
/// of every top; `out_dir`: write `<top>.json` there; `check`: exit 1 when a top is below its
/// floor in `testbench/coverage.toml`.
pub fn coverage(
    files: &[PathBuf],
    campaign: bool,
    out_dir: Option<&Path>,
    untoggled: usize,
    check: bool,
    json: bool,
) -> R {
    let defs = definitions().map_err(CliError::failed)?;
    let mut runs = Vec::new();
    for f in files {
        if f.is_dir() {
            return Err(CliError::input(format!(
                "{}: a directory; give the coverage files (dir/*.json)",
                f.display()
            )));
        }
        runs.push(CoverageData::read(f).map_err(CliError::input)?);
    }
    super::output::check_out_dir("--out-dir", out_dir)?;
    if campaign {
        for r in &defs.run {
            let t = std::time::Instant::now();
            let data = r.run().map_err(CliError::failed)?;
            if !json {
                eprintln!(
                    "ran {} (identical, {:.1} s)",
                    r.label(),
                    t.elapsed().as_secs_f64()
                );
            }
            runs.push(data);
        }
    }
    let merged = merge_all(runs).map_err(CliError::input)?;
    let mut sums = Vec::new();
    for m in &merged {
        sums.push(Summary::of(m, &defs).map_err(CliError::input)?);
        if let Some(dir) = out_dir {
            std::fs::create_dir_all(dir)
                .map_err(|e| CliError::failed(format!("--out-dir: {}: {e}", dir.display())))?;
            m.write(&dir.join(format!("{}.json", m.top)))
                .map_err(CliError::failed)?;
        }
    }
    let below: Vec<String> = if check {
        let mut v: Vec<String> = sums.iter().flat_map(|s| s.below_floor(&defs)).collect();
        for f in &defs.floor {
            if !sums.iter().any(|s| s.top == f.top) {
                v.push(format!(
                    "{}: a floor is set but no run of this top was given",
                    f.top
                ));
            }
        }
        v
    } else {
        Vec::new()
    };
    if json {
        json_out(&sums)?;
    } else {
        for s in &sums {
            print!("{}", s.text(untoggled));
        }
    }
    if below.is_empty() {
        Ok(ExitCode::SUCCESS)
    } else {
        for b in &below {
            eprintln!("below the floor: {b}");
        }
        Ok(ExitCode::from(1))
    }
}
