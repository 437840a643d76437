//! What a command writes for machines: JSON with the `run` that made it, CSV with the same
//! fields, and floats rounded to what they mean.
//!
//! - Every `--json` document is an object whose first member is `run` ([`RunInfo`]): the
//!   tool's version and git revision, whether the Verilated RTL is built in, the command line,
//!   the full effective configuration and the seeds. Two result files can be told apart
//!   without the shell history. A command records its effective configuration with
//!   [`record_config`] once it has applied its options (`load_config` records the file and
//!   `--set`s; a command that changes the configuration afterwards records it again).
//! - A `--csv FILE` table is written from the same row type as the JSON rows
//!   ([`write_csv`]): each row is serialised to JSON and flattened, nested objects becoming
//!   dotted columns (`breakdown.software_cycles`), lists joined with `;`. The columns are
//!   therefore the JSON fields by construction.
//! - Floats are rounded to [`SIGNIFICANT_DIGITS`] significant digits in both outputs: the
//!   simulation's figures are exact counts and their ratios, whose binary representation
//!   adds noise in the 16th and 17th digits (`2.3531999999999997` is written `2.3532`); 12
//!   digits keep every exact figure (a byte count of 453778.0625) and drop the noise.
//!   Statistics hashes are computed before, from the unrounded values.

use super::{CliError, R};
use crate::config::Config;
use serde::Serialize;
use serde_json::{Map, Value};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Mutex;

/// Significant digits kept of every float in JSON and CSV output.
pub const SIGNIFICANT_DIGITS: usize = 12;

/// The run a result came from (the `run` member of every `--json` document).
#[derive(Debug, Clone, Serialize)]
pub struct RunInfo {
    pub tool: &'static str,
    /// The crate version (`Cargo.toml`).
    pub version: &'static str,
    /// The commit (`git rev-parse HEAD`) checked out when the binary was built; uncommitted
    /// changes are not seen (build.rs would rerun, with Verilator, on every edit). `unknown`
    /// outside a git checkout.
    pub git_revision: &'static str,
    /// Whether the Verilated RTL is compiled into this binary.
    pub rtl_built_in: bool,
    /// The command line, program name first.
    pub command_line: Vec<String>,
    /// Every random seed the run used.
    pub seeds: Vec<u64>,
    /// The full effective configuration (file, `--set`s and options applied).
    pub config: Option<Config>,
    /// The network routing functions the results come from, each saying whether the RTL has
    /// a twin of it (only those runs' routing is hardware-backed; docs/network.md). Empty for
    /// a command that routes no network.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub routings: Vec<RoutingRecord>,
}

/// A network routing function a result comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RoutingRecord {
    pub routing: String,
    /// The APErouter's RTL routes as it does (`Routing::rtl_twin`).
    pub rtl_twin: bool,
}

static RUN: Mutex<Option<RunInfo>> = Mutex::new(None);

fn with_run<T>(f: impl FnOnce(&mut RunInfo) -> T) -> T {
    let mut g = RUN.lock().unwrap_or_else(|p| p.into_inner());
    let r = g.get_or_insert_with(|| RunInfo {
        tool: "exanet",
        version: env!("CARGO_PKG_VERSION"),
        git_revision: option_env!("EXANET_GIT_REVISION").unwrap_or("unknown"),
        rtl_built_in: crate::cosim::rtl::built_tops().iter().all(|&(_, b)| b),
        command_line: std::env::args().collect(),
        seeds: Vec::new(),
        config: None,
        routings: Vec::new(),
    });
    f(r)
}

/// Records the run's effective configuration; its `sim.seed` becomes the run's seed unless
/// seeds were recorded with [`record_seeds`].
pub fn record_config(cfg: &Config) {
    with_run(|r| {
        r.config = Some(cfg.clone());
    });
}

/// Records the network routing functions a command's results come from (once each, in order).
pub fn record_routings(routings: &[crate::spec::RoutingSpec]) {
    with_run(|r| {
        for &x in routings {
            let rec = RoutingRecord {
                routing: x.to_string(),
                rtl_twin: x.rtl_twin(),
            };
            if !r.routings.contains(&rec) {
                r.routings.push(rec);
            }
        }
    });
}

/// Records the seeds of a run that uses several (a sweep over seeds).
pub fn record_seeds(seeds: &[u64]) {
    with_run(|r| r.seeds = seeds.to_vec());
}

/// The run as recorded so far.
pub fn run_info() -> RunInfo {
    with_run(|r| {
        let mut x = r.clone();
        if x.seeds.is_empty() {
            if let Some(c) = &x.config {
                x.seeds = vec![c.sim.seed];
            }
        }
        x
    })
}

/// Rounds `x` to `digits` significant digits (0, NaN and infinities unchanged).
pub fn round_sig(x: f64, digits: usize) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let s = format!("{:.*e}", digits.saturating_sub(1), x);
    s.parse().unwrap_or(x)
}

/// Every float of `v` rounded to [`SIGNIFICANT_DIGITS`].
pub fn round_floats(v: &mut Value) {
    match v {
        Value::Number(n) if n.is_f64() => {
            if let Some(x) = n.as_f64() {
                if let Some(r) = serde_json::Number::from_f64(round_sig(x, SIGNIFICANT_DIGITS)) {
                    *n = r;
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(round_floats),
        Value::Object(o) => o.values_mut().for_each(round_floats),
        _ => {}
    }
}

/// The JSON document of a result: `run` first, then the result's own members (a result that
/// is not an object goes under `result`).
pub fn document<T: Serialize>(v: &T) -> Result<Value, CliError> {
    let mut body = serde_json::to_value(v).map_err(|e| CliError::failed(e.to_string()))?;
    round_floats(&mut body);
    let run = serde_json::to_value(run_info()).map_err(|e| CliError::failed(e.to_string()))?;
    let mut out = Map::new();
    out.insert("run".into(), run);
    match body {
        Value::Object(o) => {
            for (k, x) in o {
                out.insert(k, x);
            }
        }
        other => {
            out.insert("result".into(), other);
        }
    }
    Ok(Value::Object(out))
}

/// The JSON documents of the commands another program calls (`embed`): kept here instead
/// of printed while `Some`.
static CAPTURED: Mutex<Option<Vec<Value>>> = Mutex::new(None);

/// Starts (`Some`) or ends keeping the JSON documents instead of printing them; the ones kept
/// since the last call come back.
pub(crate) fn capture(on: bool) -> Vec<Value> {
    let mut g = CAPTURED.lock().unwrap_or_else(|p| p.into_inner());
    let kept = g.take().unwrap_or_default();
    if on {
        *g = Some(Vec::new());
    }
    kept
}

/// Starts a new run record for a command another program calls (`embed`): `command_line`
/// the command line it stands for.
pub(crate) fn start_run(command_line: Vec<String>) {
    let mut g = RUN.lock().unwrap_or_else(|p| p.into_inner());
    *g = None;
    drop(g);
    with_run(|r| r.command_line = command_line);
}

/// Prints a result as one JSON document on stdout (see the module doc), or keeps it for the
/// program that called the command (`embed`).
pub fn json_out<T: Serialize>(v: &T) -> R {
    let doc = document(v)?;
    if let Some(kept) = CAPTURED.lock().unwrap_or_else(|p| p.into_inner()).as_mut() {
        kept.push(doc);
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "{}",
        serde_json::to_string_pretty(&doc).map_err(|e| CliError::failed(e.to_string()))?
    );
    Ok(ExitCode::SUCCESS)
}

fn flatten(prefix: &str, v: &Value, out: &mut Vec<(String, String)>) {
    let key = |k: &str| {
        if prefix.is_empty() {
            k.to_string()
        } else {
            format!("{prefix}.{k}")
        }
    };
    match v {
        Value::Object(o) => {
            for (k, x) in o {
                flatten(&key(k), x, out);
            }
        }
        Value::Array(a) if a.iter().all(|x| !x.is_object() && !x.is_array()) => {
            let items: Vec<String> = a.iter().map(scalar).collect();
            out.push((prefix.to_string(), items.join(";")));
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                flatten(&key(&i.to_string()), x, out);
            }
        }
        x => out.push((prefix.to_string(), scalar(x))),
    }
}

fn scalar(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        x => x.to_string(),
    }
}

/// The rows as CSV text: a header of the flattened field names, one line a row. Rows must
/// serialise to objects with the same fields (an optional field that is `null` is an empty
/// cell).
pub fn csv_text<T: Serialize>(rows: &[T]) -> Result<String, String> {
    let mut header: Vec<String> = Vec::new();
    let mut lines: Vec<Vec<(String, String)>> = Vec::new();
    for r in rows {
        let mut v = serde_json::to_value(r).map_err(|e| e.to_string())?;
        round_floats(&mut v);
        if !v.is_object() {
            return Err("a CSV row must be an object".into());
        }
        let mut cells = Vec::new();
        flatten("", &v, &mut cells);
        for (k, _) in &cells {
            if !header.contains(k) {
                header.push(k.clone());
            }
        }
        lines.push(cells);
    }
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(&header).map_err(|e| e.to_string())?;
    for cells in &lines {
        let rec: Vec<&str> = header
            .iter()
            .map(|h| {
                cells
                    .iter()
                    .find(|(k, _)| k == h)
                    .map_or("", |(_, v)| v.as_str())
            })
            .collect();
        w.write_record(&rec).map_err(|e| e.to_string())?;
    }
    let bytes = w.into_inner().map_err(|e| e.to_string())?;
    String::from_utf8(bytes).map_err(|e| e.to_string())
}

/// Writes the rows as CSV to `path` (see [`csv_text`]).
pub fn write_csv<T: Serialize>(path: &Path, rows: &[T]) -> Result<(), CliError> {
    let text = csv_text(rows).map_err(CliError::failed)?;
    std::fs::write(path, text)
        .map_err(|e| CliError::input(format!("--csv: {}: {e}", path.display())))
}

/// Refuses an output file name before a run spends time: it must end in `.ext` and its
/// directory must exist.
pub fn check_out(opt: &str, p: Option<&Path>, ext: &str) -> Result<(), CliError> {
    let Some(p) = p else { return Ok(()) };
    if p.extension().and_then(|e| e.to_str()) != Some(ext) {
        return Err(CliError::input(format!(
            "{opt}: {}: give a file name ending in .{ext}",
            p.display()
        )));
    }
    check_writable(opt, p)
}

/// As [`check_out`], for a plot: its extension names its format (`.svg`, `.png` or `.pdf`,
/// `plot::Format`); for PNG and PDF, the font they are drawn with can be read
/// (`plot::fonts`), so that a run does not end without its plot.
pub fn check_plot_out(opt: &str, p: Option<&Path>) -> Result<(), CliError> {
    let Some(p) = p else { return Ok(()) };
    check_plot_format(opt, p)?;
    check_writable(opt, p)
}

/// A plot's file name names a format (`.svg`, `.png`, `.pdf`), and for PNG and PDF the font
/// they are drawn with can be read.
pub fn check_plot_format(opt: &str, p: &Path) -> Result<(), CliError> {
    use crate::plot::{fonts, Format, PlotError};
    match Format::of(p) {
        None => {
            let e = PlotError::UnknownFormat {
                path: p.to_path_buf(),
            };
            Err(CliError::input(format!("{opt}: {e}")))
        }
        Some(Format::Svg) => Ok(()),
        Some(_) => fonts::database()
            .map(|_| ())
            .map_err(|e| CliError::input(format!("{opt}: {e}"))),
    }
}

/// `p`'s folder exists, `p` is not a folder and can be written.
fn check_writable(opt: &str, p: &Path) -> Result<(), CliError> {
    check_parent(opt, p)?;
    if p.is_dir() {
        return Err(CliError::input(format!(
            "{opt}: {}: a directory, not a file",
            p.display()
        )));
    }
    // writable: opened as it will be (created, or an existing file opened without truncating
    // it), and a file this made removed again
    let existed = p.exists();
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(p)
        .map_err(|e| CliError::input(format!("{opt}: {}: cannot write: {e}", p.display())))?;
    if !existed {
        let _ = std::fs::remove_file(p);
    }
    Ok(())
}

/// The one rule for an output's place: its directory must exist (no output creates missing
/// parents; the project's own default folders, `waves/out/`, excepted).
pub fn check_parent(opt: &str, p: &Path) -> Result<(), CliError> {
    if let Some(d) = p
        .parent()
        .filter(|d| !d.as_os_str().is_empty() && !d.is_dir())
    {
        return Err(CliError::input(format!(
            "{opt}: {}: the directory {} does not exist",
            p.display(),
            d.display()
        )));
    }
    Ok(())
}

/// An output directory (`--vcd-dir`): created if missing, under a parent that exists.
pub fn check_out_dir(opt: &str, p: Option<&Path>) -> Result<(), CliError> {
    let Some(p) = p else { return Ok(()) };
    check_parent(opt, p)?;
    if p.exists() && !p.is_dir() {
        return Err(CliError::input(format!(
            "{opt}: {}: a file, not a directory",
            p.display()
        )));
    }
    std::fs::create_dir_all(p)
        .map_err(|e| CliError::input(format!("{opt}: {}: cannot create: {e}", p.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_lose_their_noise_not_their_value() {
        assert_eq!(round_sig(2.3531999999999997, 9), 2.3532);
        assert_eq!(round_sig(0.1 + 0.2, 9), 0.3);
        assert_eq!(round_sig(9.716_666_666_666_666, 9), 9.71666667);
        assert_eq!(round_sig(453_778.062_5, SIGNIFICANT_DIGITS), 453_778.062_5);
        assert_eq!(round_sig(2.3531999999999997, SIGNIFICANT_DIGITS), 2.3532);
        assert_eq!(round_sig(-1.0e-20 / 3.0, 9), -3.33333333e-21);
        assert_eq!(round_sig(0.0, 9), 0.0);
        assert!(round_sig(f64::NAN, 9).is_nan());
        let mut v =
            serde_json::json!({"a": [2.3531999999999997, 3], "b": {"c": 0.30000000000000004}});
        round_floats(&mut v);
        assert_eq!(v.to_string(), r#"{"a":[2.3532,3],"b":{"c":0.3}}"#);
    }

    #[derive(Serialize)]
    struct Inner {
        x: u32,
        y: f64,
    }
    #[derive(Serialize)]
    struct Row {
        name: String,
        inner: Inner,
        opt: Option<f64>,
        list: Vec<u32>,
    }

    #[test]
    fn csv_columns_are_the_json_fields_flattened() {
        let rows = [
            Row {
                name: "dragonfly:p=2,a=4,h=2".into(),
                inner: Inner { x: 1, y: 0.1 + 0.2 },
                opt: None,
                list: vec![1, 2],
            },
            Row {
                name: "a\"b".into(),
                inner: Inner { x: 2, y: 1.5 },
                opt: Some(2.0),
                list: vec![],
            },
        ];
        let t = csv_text(&rows).unwrap();
        let mut lines = t.lines();
        assert_eq!(lines.next(), Some("name,inner.x,inner.y,opt,list"));
        assert_eq!(lines.next(), Some("\"dragonfly:p=2,a=4,h=2\",1,0.3,,1;2"));
        assert_eq!(lines.next(), Some("\"a\"\"b\",2,1.5,2.0,"));
        assert_eq!(lines.next(), None);
    }

    #[test]
    fn documents_start_with_the_run() {
        record_config(&Config::default());
        let d = document(&serde_json::json!({"x": 1})).unwrap();
        let o = d.as_object().unwrap();
        assert_eq!(o.keys().next().map(String::as_str), Some("run"));
        assert_eq!(o["run"]["tool"], "exanet");
        assert_eq!(o["run"]["seeds"], serde_json::json!([1]));
        assert_eq!(o["run"]["config"]["link"]["num_vcs"], 2);
        assert_eq!(o["x"], 1);
        let d = document(&[1, 2]).unwrap();
        assert_eq!(d["result"], serde_json::json!([1, 2]));
    }
}
