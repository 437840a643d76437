//! One writer for either wave format: what the model's wave dumps (co-simulation, demo, KARMA)
//! write through, so that each chooses VCD or FST with one option.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use super::fst::FstWaveWriter;
use super::{SignalDecl, VcdWriter, WaveError};

/// The format of a wave file.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    clap::ValueEnum,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum WaveFormat {
    /// Value Change Dump (IEEE 1364): text, what every viewer reads.
    #[default]
    Vcd,
    /// GTKWave's Fast Signal Trace: compressed blocks, typically tens of times smaller.
    Fst,
}

impl WaveFormat {
    /// The file name extension, `vcd` or `fst`.
    pub fn extension(self) -> &'static str {
        match self {
            WaveFormat::Vcd => "vcd",
            WaveFormat::Fst => "fst",
        }
    }
}

/// A wave file being written from samples (see [`VcdWriter`] for the rules both follow).
pub enum WaveSink {
    Vcd {
        file: String,
        writer: VcdWriter<BufWriter<File>>,
    },
    Fst(Box<FstWaveWriter>),
}

impl WaveSink {
    /// Creates `path` in `format` (timescale `timescale_ps` picoseconds) and declares `decls`.
    pub fn create(
        path: &Path,
        format: WaveFormat,
        timescale_ps: u32,
        decls: &[SignalDecl],
    ) -> Result<WaveSink, WaveError> {
        match format {
            WaveFormat::Vcd => {
                let file = path.display().to_string();
                let f = File::create(path).map_err(|e| WaveError::io(&file, e))?;
                let writer = VcdWriter::new(BufWriter::new(f), timescale_ps, decls)
                    .map_err(|e| named(&file, e))?;
                Ok(WaveSink::Vcd { file, writer })
            }
            WaveFormat::Fst => Ok(WaveSink::Fst(Box::new(FstWaveWriter::create(
                path,
                timescale_ps,
                decls,
            )?))),
        }
    }

    /// Records every signal's value (in declaration order) at `time`.
    pub fn sample(&mut self, time: u64, values: &[u128]) -> Result<(), WaveError> {
        match self {
            WaveSink::Vcd { file, writer } => {
                writer.sample(time, values).map_err(|e| named(file, e))
            }
            WaveSink::Fst(w) => w.sample(time, values),
        }
    }

    /// Writes everything out and closes the file.
    pub fn finish(self) -> Result<(), WaveError> {
        match self {
            WaveSink::Vcd { file, writer } => {
                let mut out = writer.finish().map_err(|e| named(&file, e))?;
                out.flush().map_err(|e| WaveError::io(&file, e))
            }
            WaveSink::Fst(w) => w.finish(),
        }
    }
}

/// A writer's error on its sink (`<output>`) as one on `file`.
fn named(file: &str, e: WaveError) -> WaveError {
    match e {
        WaveError::Io { file: f, source } if f == "<output>" => WaveError::io(file, source),
        e => e,
    }
}
