//! The model's wave file, written from a probe walk (`src/probe.rs`): the walk declares every
//! signal once, then samples them all at each instant (docs/architecture.md, "Time in waves and
//! in lockstep"). Used by the co-simulation's `model.vcd` / `model.fst` and the KARMA test bed's
//! waves.

use super::{ScopeFilter, SignalDecl, WaveFormat, WaveSink};
use crate::probe::{Declarer, Sampler, Visitor};
use std::path::{Path, PathBuf};

pub struct ProbedWave {
    path: PathBuf,
    writer: WaveSink,
    sampler: Sampler,
    /// The indices (in probing order) of the signals written, when a scope filter leaves some
    /// out (`scopes.rs`).
    kept: Option<Vec<usize>>,
    values: Vec<u128>,
}

impl ProbedWave {
    /// Creates `path` in `format` (timescale 1 ps) and declares the signals `probe` visits.
    pub fn create(
        path: &Path,
        format: WaveFormat,
        probe: impl FnOnce(&mut dyn Visitor),
    ) -> Result<ProbedWave, String> {
        Self::create_filtered(path, format, probe, None)
    }

    /// As [`create`](Self::create), declaring only the signals `scopes` keeps.
    pub fn create_filtered(
        path: &Path,
        format: WaveFormat,
        probe: impl FnOnce(&mut dyn Visitor),
        scopes: Option<&ScopeFilter>,
    ) -> Result<ProbedWave, String> {
        let mut decl = Declarer::default();
        probe(&mut decl);
        let kept: Option<Vec<usize>> = scopes.map(|f| {
            (0..decl.names.len())
                .filter(|&i| f.keeps(&decl.names[i].0))
                .collect()
        });
        let decls: Vec<SignalDecl> = match &kept {
            None => decl
                .names
                .iter()
                .map(|(p, w)| SignalDecl::new(p.clone(), *w))
                .collect(),
            Some(k) => k
                .iter()
                .map(|&i| SignalDecl::new(decl.names[i].0.clone(), decl.names[i].1))
                .collect(),
        };
        let writer = WaveSink::create(path, format, 1, &decls).map_err(|e| named(path, e))?;
        Ok(ProbedWave {
            path: path.to_path_buf(),
            writer,
            sampler: Sampler::default(),
            kept,
            values: Vec::new(),
        })
    }

    /// Records the values `probe` visits at `time_ps`, with the clock at `clk`.
    pub fn sample(
        &mut self,
        time_ps: u64,
        clk: bool,
        probe: impl FnOnce(&mut dyn Visitor),
    ) -> Result<(), String> {
        self.sampler.clear();
        self.sampler.clk = clk;
        probe(&mut self.sampler);
        let values = match &self.kept {
            None => &self.sampler.values,
            Some(k) => {
                self.values.clear();
                self.values
                    .extend(k.iter().map(|&i| self.sampler.values[i]));
                &self.values
            }
        };
        self.writer
            .sample(time_ps, values)
            .map_err(|e| named(&self.path, e))
    }

    /// Writes out and closes the file.
    pub fn finish(self) -> Result<(), String> {
        let path = self.path;
        self.writer.finish().map_err(|e| named(&path, e))
    }
}

/// A wave error in words, naming `path` once (an I/O error names its file already).
fn named(path: &Path, e: super::WaveError) -> String {
    match e {
        super::WaveError::Io { .. } => e.to_string(),
        e => format!("{}: {e}", path.display()),
    }
}
