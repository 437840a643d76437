//! Helpers shared by the tests that hold a Rust table against its documentation and its
//! SystemVerilog package.

#![allow(dead_code)] // each test binary uses its own subset

use std::path::Path;
use std::process::{Command, Output};

/// A file of the repository, by its path from the root.
pub fn read(rel: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()))
}

/// A SystemVerilog number: a plain decimal or a sized literal (`64'hB5A5_5AA5`, `2'b11`,
/// `2'd0`, `12'h07C`).
pub fn sv_number(text: &str) -> Option<u64> {
    let t = text.replace('_', "");
    match t.split_once('\'') {
        None => t.parse().ok(),
        Some((_, lit)) => {
            let (radix, digits) = lit.split_at(1);
            let radix = match radix {
                "h" | "H" => 16,
                "b" | "B" => 2,
                "d" | "D" => 10,
                _ => return None,
            };
            u64::from_str_radix(digits, radix).ok()
        }
    }
}

/// Every `localparam <type> NAME = VALUE;  // comment` of a package, in order: the name, the
/// value when it is a number, and the comment.
pub fn sv_localparams(rel: &str) -> Vec<(String, Option<u64>, String)> {
    let pkg = read(rel);
    let mut out = Vec::new();
    for line in pkg.lines() {
        let (code, comment) = line.split_once("//").unwrap_or((line, ""));
        let Some(decl) = code.trim().strip_prefix("localparam ") else {
            continue;
        };
        let Some((lhs, rhs)) = decl.split_once('=') else {
            continue;
        };
        let name = lhs.split_whitespace().last().unwrap_or("").to_string();
        let value = sv_number(rhs.trim().trim_end_matches(';').trim());
        out.push((name, value, comment.trim().to_string()));
    }
    out
}

/// Run this package's `exanet` binary with `args`.
pub fn exanet(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_exanet"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// `exanet` with `base` then each case's arguments must exit 2, its message containing the
/// case's words, never a panic.
#[allow(dead_code)] // (not every test binary has refusals)
pub fn refused_each(base: &[&str], cases: &[(&[&str], &str)]) {
    for (args, want) in cases {
        let mut a = base.to_vec();
        a.extend_from_slice(args);
        let o = exanet(&a);
        let e = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{a:?}: {e}");
        assert!(e.contains(want), "{a:?}: {e}");
        assert!(!e.contains("panicked"), "{a:?}: {e}");
    }
}

/// Run `exanet` with `args`, which must succeed, and read its stdout as JSON.
pub fn exanet_json(args: &[&str]) -> serde_json::Value {
    let o = exanet(args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", String::from_utf8_lossy(&o.stdout)))
}

/// A JSON object's leaves as `--csv` names them (nested objects dotted: `beats.payload`), in
/// order, with their values (docs/cli.md, "Machine-readable results").
pub fn json_leaves(
    prefix: &str,
    v: &serde_json::Value,
    out: &mut Vec<(String, serde_json::Value)>,
) {
    match v {
        serde_json::Value::Object(o) => {
            for (k, x) in o {
                let key = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                json_leaves(&key, x, out);
            }
        }
        x => out.push((prefix.to_string(), x.clone())),
    }
}

/// A folder under the system's temporary folder, removed with everything in it when dropped
/// (a failing test cleans up too).
pub struct TempDir(pub std::path::PathBuf);

impl TempDir {
    /// `exanet-<name>-<process id>`, emptied first.
    pub fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("exanet-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `exanet network serve ARGS --token-file TOKEN`, started with its stdout and stderr piped:
/// the process, its stderr (read up to its first line) and the address that line gives.
pub fn spawn_serve(
    args: &[&str],
    token: &Path,
) -> (
    std::process::Child,
    std::io::BufReader<std::process::ChildStderr>,
    String,
) {
    use std::io::BufRead;
    let mut p = Command::new(env!("CARGO_BIN_EXE_exanet"))
        .args(["network", "serve"])
        .args(args)
        .arg("--token-file")
        .arg(token)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = std::io::BufReader::new(p.stderr.take().unwrap());
    let mut l = String::new();
    err.read_line(&mut l).unwrap();
    let addr = l
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("{l}"))
        .to_string();
    (p, err, addr)
}
