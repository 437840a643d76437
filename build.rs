//! Build script: verilates each RTL top in `TOPS`, reads the generated headers, generates a
//! C++ shim per top (signal table + `extern "C"` API, see `testbench/exanet_vl.h`) and
//! compiles it with the Verilated C++ into one static library. It also writes
//! `$OUT_DIR/rtl_tops.rs`, included by `src/cosim/rtl.rs`.
//!
//! Without Verilator on PATH, or with `EXANET_NO_RTL=1`, the crate builds without RTL and
//! `RtlModel::new` says why. If Verilator is there but verilation or the C++ compile
//! fails, the build fails with the tool's message. Why and how:
//! `docs/decisions/0001-verilator-integration.md`.
//!
//! With the cargo feature `otf2` it also compiles `src/app/replay/otf2/shim.c` (the reader)
//! and `writer.c` next to it, and links the OTF2 library, found by `pkg-config otf2` or else `otf2-config` (decision 0020); without the
//! library that build fails and says how to install it.

use std::collections::hash_map::DefaultHasher;
use std::collections::BTreeMap;
use std::env;
use std::fmt::Write as _;
use std::fs;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::time::Instant;

#[path = "testbench/vlheader.rs"]
mod vlheader;

#[path = "testbench/shapes.rs"]
#[allow(dead_code)]
mod shapes;

#[path = "testbench/networks.rs"]
#[allow(dead_code)]
mod networks;

/// Verilator tops at their modules' default parameters: (short name, `RtlTop` variant, top
/// module). Adding a top is one line. The short name gives the C++ prefix `V<name>` and the C
/// symbols `exanet_vl_<name>_*`. Besides these, `tops()` adds the router and node at every
/// shape of `testbench/shapes.rs`.
const TOPS: &[(&str, &str, &str)] = &[
    ("link", "Link", "exanet_link_top"),
    ("router", "Router", "exanet_router_top"),
    ("node", "Node", "exanet_node_top"),
    ("karma", "Karma", "exanet_karma_top"),
    ("selftest", "SelfTest", "exanet_selftest_top"),
    ("units", "Units", "exanet_units_top"),
];

/// A top to verilate: short name, `RtlTop` variant, top module, `-G` parameters; for a network
/// top (`testbench/networks.rs`), the network its source is generated from.
struct TopSpec {
    name: String,
    variant: String,
    module: String,
    params: Vec<String>,
    network: Option<&'static networks::RtlNetwork>,
}

/// `Foo-bar_baz` -> `FooBarBaz`.
fn camel(name: &str) -> String {
    name.split(['-', '_'])
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// `TOPS`, then `router_<shape>` and `node_<shape>` for every shape (`RouterTorus2d`, ...),
/// then `net_<network>` for every network (`NetTorus4x4`, ...).
fn tops() -> Vec<TopSpec> {
    let mut t: Vec<TopSpec> = TOPS
        .iter()
        .map(|&(name, variant, module)| TopSpec {
            name: name.into(),
            variant: variant.into(),
            module: module.into(),
            params: Vec::new(),
            network: None,
        })
        .collect();
    for sh in shapes::SHAPES {
        let camel = camel(sh.name);
        for (kind, module) in [("router", "exanet_router_top"), ("node", "exanet_node_top")] {
            t.push(TopSpec {
                name: format!("{kind}_{}", sh.ident()),
                variant: format!(
                    "{}{camel}",
                    if kind == "router" { "Router" } else { "Node" }
                ),
                module: module.into(),
                params: sh.verilator_params(kind == "node"),
                network: None,
            });
        }
    }
    for net in networks::NETWORKS {
        t.push(TopSpec {
            name: net.top_name(),
            variant: format!("Net{}", camel(net.name)),
            module: net.module(),
            params: Vec::new(),
            network: Some(net),
        });
    }
    t
}

/// The SystemVerilog of network top `net`, written into `<target>/<profile>/exanet-net-tops/`
/// (the object cache's parent): its nodes at the structure of their shape. Verilator writes the
/// source's path into the C++ it generates (its fatal messages name the file), so a path inside
/// `OUT_DIR`, which differs between the `check`, `dev` and `test` builds, would make each build
/// compile the network's C++ anew instead of sharing the cached objects.
fn network_source(out: &Path, net: &networks::RtlNetwork) -> PathBuf {
    let sh = shapes::SHAPES
        .iter()
        .find(|s| s.name == net.shape)
        .unwrap_or_else(|| panic!("network {}: no shape {}", net.name, net.shape));
    let params: Vec<(String, String)> = sh
        .verilator_params(false)
        .iter()
        .map(|p| {
            let (k, v) = p
                .trim_start_matches("-G")
                .split_once('=')
                .expect("-GNAME=value");
            (k.to_string(), v.to_string())
        })
        .collect();
    let path = net_tops_dir(out).join(format!("{}.sv", net.module()));
    write_shared(
        &path,
        &net.source(&params, sh.n_intra as usize, sh.inter.len()),
    );
    path
}

/// `<target>/<profile>/<name>/` (`OUT_DIR` is `<target>/<profile>/build/<crate>-<hash>/out`),
/// shared by the builds of every cargo profile; `<OUT_DIR>/<name>` if the layout is another.
fn profile_dir(out: &Path, name: &str) -> PathBuf {
    let dir = out
        .ancestors()
        .nth(3)
        .map_or_else(|| out.join(name), |d| d.join(name));
    fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("create {}: {e}", dir.display()));
    dir
}

/// `<target>/<profile>/exanet-net-tops/`, shared by the builds of every cargo profile.
fn net_tops_dir(out: &Path) -> PathBuf {
    profile_dir(out, "exanet-net-tops")
}

/// Writes `text` into `path` unless it holds it already; builds of several profiles, and the
/// verilating threads of one build, may write it at once, so each writer writes its own file
/// aside (named by process and by a count within it) and renames it into place (atomic).
fn write_shared(path: &Path, text: &str) {
    static WRITES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    if fs::read_to_string(path).ok().as_deref() == Some(text) {
        return;
    }
    let n = WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = path.with_extension(format!("tmp-{}-{n}", std::process::id()));
    fs::write(&tmp, text).unwrap_or_else(|e| panic!("write {}: {e}", tmp.display()));
    fs::rename(&tmp, path).unwrap_or_else(|e| panic!("rename {}: {e}", tmp.display()));
}

/// Directories holding RTL, relative to the crate root, the IP's before the test bench's. A top
/// whose file is in `RTL_DIRS[i]` gets every `*.sv` of `RTL_DIRS[..=i]`: an IP top only `rtl/`
/// (so its model, table and VCD hold no test-bench package), a test-bench top `rtl/` and
/// `testbench/rtl/`.
const RTL_DIRS: &[&str] = &["rtl", "testbench/rtl"];

/// The project's lint waivers (a Verilator configuration in a `.sv` file, so that a plain
/// `verilator --lint-only -Wall rtl/*.sv` reads it first); passed first, not as a source.
const WAIVERS: &str = "rtl/0_lint_waivers.sv";

/// True for a register's name: its last component (indices aside) ends in `_q`
/// (docs/style: a register is `<name>_q`).
fn is_register(vcd_name: &str) -> bool {
    let last = vcd_name.rsplit('.').next().unwrap_or(vcd_name);
    last.split('[').next().unwrap_or(last).ends_with("_q")
}

/// The Verilator configuration of a network top: every register public (readable by name),
/// nothing else (decision 0038).
const NETWORK_VLT: &str = "`verilator_config\npublic_flat_rd -module \"*\" -var \"*_q\"\n";

/// Verilator options besides `--top-module`, `--prefix`, `-Mdir` (reasons in decision 0001).
/// A network top (`network`) makes only its registers public (a `.vlt` file) and traces only
/// its ports: every signal public and traced costs a 16-node network more C++ than CI's build
/// can compile (decision 0038); its lockstep writes both sides' waves of what it compares.
fn verilator_flags(network: bool) -> Vec<String> {
    let mut f: Vec<String> = vec!["--cc".into()];
    if network {
        f.extend(["--trace-depth".into(), "1".into()]);
    } else {
        f.push("--public-flat-rw".into());
    }
    f.extend(
        [
            "--trace",
            "--assert",
            "+define+EXANET_ASSERT",
            "--x-assign",
            "0",
            "--x-initial",
            "0",
            "--timescale-override",
            "1ps/1ps",
            "--output-split",
            "20000",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    // The table leaves out exactly the arrays Verilator does not trace.
    f.push("--trace-max-array".into());
    f.push(vlheader::MAX_ARRAY.to_string());
    f
}

/// `EXANET_GIT_REVISION` for the `run` object of every JSON result (`src/cli/output.rs`): the
/// commit checked out when the binary was built. Uncommitted changes are not seen (watching
/// the work tree would rerun this script, and Verilator, on every edit). Outside a git
/// checkout, or without git, it stays unset and the program says `unknown`.
fn git_revision() {
    let git = |args: &[&str]| -> Option<String> {
        let out = Command::new("git").args(args).output().ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
            .filter(|s| !s.is_empty())
    };
    let Some(rev) = git(&["rev-parse", "HEAD"]) else {
        return;
    };
    println!("cargo::rustc-env=EXANET_GIT_REVISION={rev}");
    // rerun when HEAD moves: HEAD itself (a checkout), the branch's ref (a commit), and
    // packed-refs; only files that exist, or cargo would rerun this script on every build
    let mut watch: Vec<PathBuf> = Vec::new();
    if let Some(d) = git(&["rev-parse", "--git-dir"]) {
        watch.push(PathBuf::from(d).join("HEAD"));
    }
    if let Some(common) = git(&["rev-parse", "--git-common-dir"]) {
        let common = PathBuf::from(common);
        if let Some(r) = git(&["symbolic-ref", "-q", "HEAD"]) {
            watch.push(common.join(r));
        }
        watch.push(common.join("packed-refs"));
    }
    for p in watch.iter().filter(|p| p.exists()) {
        println!("cargo::rerun-if-changed={}", p.display());
    }
}

/// C++ optimisation of the generated hot code and of Verilator's runtime library, chosen by
/// measurement (decision 0001): on a 16-router test design `-O2` compiles as fast as `-O1`
/// and evaluates twice as fast (five times `-O0`); the runtime's level changes nothing
/// measurable at run time, and `-O1` compiles it faster than `-O2`. Fixed here, not taken
/// from the cargo profile, so that `dev`, `test` and `check` builds compile the same C++.
const OPT_MODEL: &str = "2";
const OPT_RUNTIME: &str = "1";
/// The hot code of the tops whose lockstep runs are short: the network tops
/// (`testbench/networks.rs`), the router and node at the network shapes (`testbench/shapes.rs`)
/// and KARMA's mesh. `-O1` compiles the 16-node 4x4 torus's in 55 % of `-O2`'s time (48 s
/// against 87 s a unit, measured alone; decision 0038). The link, router and node at their
/// default parameters, which the long lockstep runs and the coverage campaign use, keep `-O2`.
const OPT_LIGHT: &str = "1";

fn main() {
    git_revision();
    println!("cargo::rustc-check-cfg=cfg(exanet_no_rtl)");
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=testbench");
    println!("cargo::rerun-if-env-changed=EXANET_NO_RTL");
    println!("cargo::rerun-if-env-changed=VERILATOR");
    println!("cargo::rerun-if-env-changed=VERILATOR_ROOT");
    // cc reads these; it would say so itself, but cached objects skip cc's compile step.
    println!("cargo::rerun-if-env-changed=CXX");
    println!("cargo::rerun-if-env-changed=CXXFLAGS");

    let root =
        PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    for dir in RTL_DIRS {
        // A directory that does not exist is not watched: cargo would rerun this script on
        // every build. RtlModel::new points at `touch build.rs` when a file appeared since.
        if root.join(dir).is_dir() {
            println!("cargo::rerun-if-changed={dir}");
        }
    }

    let verilator = find_verilator();
    let tops = tops();
    let mut statuses: Vec<Status> = Vec::new();
    match &verilator {
        Err(absence) => {
            println!("cargo::rustc-cfg=exanet_no_rtl");
            let why = match absence {
                Absence::Disabled => "EXANET_NO_RTL=1 is set".to_string(),
                Absence::NotFound => "verilator is not on PATH".to_string(),
            };
            println!(
                "cargo::warning=building without the Verilated RTL ({why}); \
                 RtlModel::new will fail. Install it (apt-get install verilator) and rebuild."
            );
            statuses = tops
                .iter()
                .map(|_| Status::Absent(absence.variant()))
                .collect();
        }
        Ok(v) => {
            // The first directory holding `<module>.sv`; its sources and those before it.
            let top_dir = |module: &str| {
                RTL_DIRS
                    .iter()
                    .position(|d| root.join(d).join(format!("{module}.sv")).is_file())
            };
            let scopes: Vec<Vec<PathBuf>> = (0..RTL_DIRS.len())
                .map(|i| rtl_sources(&root, &RTL_DIRS[..=i]))
                .collect();
            // Verilator is single-threaded: verilate the tops side by side.
            let built: Vec<BuiltTop> = std::thread::scope(|s| {
                let handles: Vec<_> = tops
                    .iter()
                    .filter_map(|t| {
                        let sources = match t.network {
                            // the IP's sources and the generated top
                            Some(net) => {
                                let mut s = scopes[0].clone();
                                s.push(network_source(&out, net));
                                s
                            }
                            None => scopes[top_dir(&t.module)?].clone(),
                        };
                        let (root, out) = (&root, &out);
                        Some(s.spawn(move || verilate(v, root, out, t, &sources)))
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                    .collect()
            });
            for spec in &tops {
                statuses.push(match built.iter().find(|t| t.name == spec.name) {
                    Some(t) => Status::Built(t.excluded.clone()),
                    None => Status::Absent("NoRtlFile"),
                });
            }
            if built.is_empty() {
                // Nothing links the shim's types then: same code as without Verilator.
                println!("cargo::rustc-cfg=exanet_no_rtl");
            }
            compile(v, &root, &out, &built);
        }
    }
    let rust = generate_rust(&tops, &statuses);
    write_if_changed(&out.join("rtl_tops.rs"), &rust);
    if env::var_os("CARGO_FEATURE_OTF2").is_some() {
        build_otf2(&root);
    }
}

/// The OTF2 shim, and the flags that link the OTF2 library: `pkg-config otf2` (Debian's
/// `otf2.pc` names it `open-trace-format2`), else `otf2-config --cflags` and `--ldflags --libs`
/// (OTF2's own script, also in the package).
fn build_otf2(root: &Path) {
    const SOURCES: [&str; 2] = ["src/app/replay/otf2/shim.c", "src/app/replay/otf2/writer.c"];
    for f in SOURCES {
        println!("cargo::rerun-if-changed={f}");
    }
    println!("cargo::rerun-if-env-changed=PKG_CONFIG_PATH");
    let tool = |cmd: &str, args: &[&str]| -> Option<String> {
        let out = Command::new(cmd).args(args).output().ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
    };
    let (cflags, libs) = match (
        tool("pkg-config", &["--cflags", "otf2"]),
        tool("pkg-config", &["--libs", "otf2"]),
    ) {
        (Some(c), Some(l)) => (c, l),
        _ => match (
            tool("otf2-config", &["--cflags"]),
            tool("otf2-config", &["--ldflags", "--libs"]),
        ) {
            (Some(c), Some(l)) => (c, l),
            _ => panic!(
                "the feature `otf2` needs the OTF2 library, and neither `pkg-config otf2` nor \
                 `otf2-config` finds it: install it (Debian: apt-get install libotf2-trace-dev \
                 pkg-config), or build without `--features otf2`"
            ),
        },
    };
    let mut cc = cc::Build::new();
    cc.files(SOURCES.iter().map(|f| root.join(f))).std("gnu11");
    for f in cflags.split_whitespace() {
        match f.strip_prefix("-I") {
            Some(dir) => {
                cc.include(dir);
            }
            None => {
                cc.flag(f);
            }
        }
    }
    cc.compile("exanet_otf2_shim");
    for f in libs.split_whitespace() {
        if let Some(dir) = f.strip_prefix("-L") {
            println!("cargo::rustc-link-search=native={dir}");
        } else if let Some(lib) = f.strip_prefix("-l") {
            println!("cargo::rustc-link-lib={lib}");
        }
    }
}

/// Why the RTL is not in this build.
enum Absence {
    Disabled,
    NotFound,
}

impl Absence {
    /// The `NotBuilt` variant of `src/cosim/rtl.rs`.
    fn variant(&self) -> &'static str {
        match self {
            Absence::Disabled => "Disabled",
            Absence::NotFound => "NoVerilator",
        }
    }
}

/// The Verilator found at build time.
struct Verilator {
    exe: PathBuf,
    /// `--version` output, part of the compile cache keys.
    version: String,
    /// `$VERILATOR_ROOT/include`.
    include: PathBuf,
}

fn find_verilator() -> Result<Verilator, Absence> {
    if env::var("EXANET_NO_RTL").is_ok_and(|v| !v.is_empty() && v != "0") {
        return Err(Absence::Disabled);
    }
    let exe = match env::var_os("VERILATOR") {
        Some(v) => PathBuf::from(v),
        None => {
            let path = env::var_os("PATH").unwrap_or_default();
            let found = env::split_paths(&path)
                .map(|d| d.join("verilator"))
                .find(|p| p.is_file());
            match found {
                Some(p) => p,
                None => {
                    // Watch PATH and its directories so that installing Verilator reruns this.
                    println!("cargo::rerun-if-env-changed=PATH");
                    for d in env::split_paths(&path).filter(|d| d.is_dir()) {
                        println!("cargo::rerun-if-changed={}", d.display());
                    }
                    return Err(Absence::NotFound);
                }
            }
        }
    };
    println!("cargo::rerun-if-changed={}", exe.display());
    let version = run(Command::new(&exe).arg("--version"), "verilator --version");
    let major: u32 = version
        .split_whitespace()
        .nth(1)
        .and_then(|v| v.split('.').next())
        .and_then(|m| m.parse().ok())
        .unwrap_or(0);
    if major < 5 {
        panic!(
            "{} is `{}`; this crate needs Verilator 5 (Debian's 5.006 works). \
             Set EXANET_NO_RTL=1 to build without the RTL.",
            exe.display(),
            version.trim()
        );
    }
    let vroot = match env::var_os("VERILATOR_ROOT") {
        Some(r) => PathBuf::from(r),
        None => PathBuf::from(
            run(
                Command::new(&exe).args(["--getenv", "VERILATOR_ROOT"]),
                "verilator --getenv",
            )
            .trim(),
        ),
    };
    let include = vroot.join("include");
    if !include.join("verilated.h").is_file() {
        panic!(
            "no verilated.h in {}: is VERILATOR_ROOT right?",
            include.display()
        );
    }
    Ok(Verilator {
        exe,
        version,
        include,
    })
}

/// Runs a command that must succeed and returns its stdout.
fn run(cmd: &mut Command, what: &str) -> String {
    let o = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {what}: {e}"));
    if !o.status.success() {
        panic!(
            "{what} failed ({}):\n{}{}",
            o.status,
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
    }
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Every `*.sv` of `dirs`: packages first, then the rest, each group sorted by file name,
/// except that a package naming another package (`other_pkg::`) comes after it, since
/// Verilator needs a package declared before it is imported.
fn rtl_sources(root: &Path, dirs: &[&str]) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = Vec::new();
    for dir in dirs {
        if let Ok(rd) = fs::read_dir(root.join(dir)) {
            files.extend(
                rd.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|x| x == "sv"))
                    .filter(|p| !p.ends_with(WAIVERS)),
            );
        }
    }
    let stem = |p: &PathBuf| {
        p.file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned()
    };
    files.sort_by_key(|p| (stem(p), p.clone()));
    let (pkgs, rest): (Vec<_>, Vec<_>) = files.into_iter().partition(|p| stem(p).ends_with("_pkg"));

    // Stable topological order: repeatedly take the first package whose dependencies are out.
    let texts: Vec<String> = pkgs
        .iter()
        .map(|p| fs::read_to_string(p).unwrap_or_default())
        .collect();
    let names: Vec<String> = pkgs.iter().map(stem).collect();
    let deps: Vec<Vec<usize>> = texts
        .iter()
        .enumerate()
        .map(|(i, t)| {
            (0..names.len())
                .filter(|&j| j != i && names_package(t, &names[j]))
                .collect()
        })
        .collect();
    let mut placed = vec![false; pkgs.len()];
    let mut ordered = Vec::new();
    while ordered.len() < pkgs.len() {
        // A cycle would be an RTL error; Verilator reports it, so fall back to name order.
        let next = (0..pkgs.len())
            .find(|&i| !placed[i] && deps[i].iter().all(|&j| placed[j]))
            .or_else(|| (0..pkgs.len()).find(|&i| !placed[i]))
            .expect("an unplaced package");
        placed[next] = true;
        ordered.push(pkgs[next].clone());
    }
    ordered.extend(rest);
    ordered
}

/// True if SystemVerilog text `text` refers to package `pkg` (`pkg::`, as a whole word).
fn names_package(text: &str, pkg: &str) -> bool {
    let pat = format!("{pkg}::");
    text.match_indices(&pat).any(|(at, _)| {
        !text[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
    })
}

/// One top, verilated and with its shim generated.
struct BuiltTop {
    name: String,
    /// The `-Mdir`.
    mdir: PathBuf,
    /// Generated model `.cpp` files: hot code, once-run code.
    fast: Vec<PathBuf>,
    slow: Vec<PathBuf>,
    /// The generated shim.
    shim: PathBuf,
    /// Runtime library files (`verilated.cpp`, ...) this top needs.
    runtime: Vec<String>,
    /// (VCD name, reason) of every design signal not in the table, parameters included.
    excluded: Vec<(String, String)>,
    /// Its generated hot code is compiled at [`OPT_LIGHT`]: a network top
    /// (`testbench/networks.rs`), a shape's router or node, KARMA's mesh.
    light: bool,
}

fn verilate(v: &Verilator, root: &Path, out: &Path, t: &TopSpec, sources: &[PathBuf]) -> BuiltTop {
    let (name, module, params) = (t.name.as_str(), t.module.as_str(), &t.params);
    let prefix = format!("V{name}");
    let mdir = out.join(format!("vl_{name}"));
    // Stale files of an earlier design would not be compiled, but would confuse a reader.
    let _ = fs::remove_dir_all(&mdir);
    let mut cmd = Command::new(&v.exe);
    cmd.args(verilator_flags(t.network.is_some()))
        .args(["--top-module", module, "--prefix", &prefix])
        .args(params)
        .arg("-Mdir")
        .arg(&mdir);
    if root.join(WAIVERS).is_file() {
        cmd.arg(root.join(WAIVERS));
    }
    if t.network.is_some() {
        let vlt = net_tops_dir(out).join("registers.vlt");
        write_shared(&vlt, NETWORK_VLT);
        cmd.arg(vlt);
    }
    cmd.args(sources);
    let o = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", v.exe.display()));
    let stderr = String::from_utf8_lossy(&o.stderr);
    if !o.status.success() {
        let stdout = String::from_utf8_lossy(&o.stdout);
        panic!("Verilator failed on top `{name}` ({module}):\n{stdout}{stderr}\ncommand: {cmd:?}");
    }
    for l in stderr.lines().filter(|l| !l.trim().is_empty()) {
        println!("cargo::warning=verilator ({name}): {l}");
    }

    let classes = fs::read_to_string(mdir.join(format!("{prefix}_classes.mk")))
        .unwrap_or_else(|e| panic!("Verilator wrote no {prefix}_classes.mk: {e}"));
    let mk = parse_make_lists(&classes);
    if mk
        .get("VM_TIMING")
        .is_some_and(|v| v.iter().any(|x| x != "0"))
    {
        panic!("top `{name}` needs --timing (delays or timing controls); the RTL must not");
    }
    let list = |k: &str| mk.get(k).cloned().unwrap_or_default();
    let files = |keys: &[&str]| -> Vec<PathBuf> {
        keys.iter()
            .flat_map(|k| list(k))
            .map(|c| mdir.join(format!("{c}.cpp")))
            .collect()
    };
    let fast = files(&["VM_CLASSES_FAST", "VM_SUPPORT_FAST"]);
    let slow = files(&["VM_CLASSES_SLOW", "VM_SUPPORT_SLOW"]);
    let runtime: Vec<String> = ["VM_GLOBAL_FAST", "VM_GLOBAL_SLOW"]
        .iter()
        .flat_map(|k| list(k))
        .collect();

    // Signal table: the root, then its cells (packages, modules not inlined), depth first.
    let mut members = Vec::new();
    let mut excluded = Vec::new();
    let mut classes = std::collections::BTreeSet::new();
    let mut pending = vec![(format!("{prefix}___024root"), vlheader::Scope::root())];
    while let Some((class, scope)) = pending.pop() {
        let text = read(&mdir.join(format!("{class}.h")));
        let p = vlheader::parse_class(&text, &class, &scope, &prefix)
            .unwrap_or_else(|e| panic!("{class}.h: {e}"));
        members.extend(p.members);
        excluded.extend(p.excluded);
        pending.extend(
            p.cells
                .iter()
                .map(|c| (c.class.clone(), scope.cell(&c.member))),
        );
        classes.insert(class);
    }
    let mut includes = String::new();
    for class in &classes {
        writeln!(includes, "#include \"{class}.h\"").unwrap();
    }
    if t.network.is_some() {
        // a network top's table: its ports and the registers the lockstep compares
        members.retain(|m| m.vcd_name.matches('.').count() == 1 || is_register(&m.vcd_name));
    }
    members.sort_by(|a, b| a.vcd_name.cmp(&b.vcd_name));
    excluded.sort_by(|a, b| a.vcd_name.cmp(&b.vcd_name));
    // Parameters, and arrays over the trace limit (the FIFO memories: expected, on every
    // build), are left out by design; `RtlModel::excluded()` lists them. Anything else left
    // out (too wide, too many dimensions, a type the bridge cannot read) deserves a warning.
    let unexpected: Vec<String> = excluded
        .iter()
        .filter(|e| e.reason != vlheader::PARAMETER && !is_untraced_array(&e.reason))
        .map(|e| format!("{} ({})", e.vcd_name, e.reason))
        .collect();
    if !unexpected.is_empty() {
        println!(
            "cargo::warning=top `{name}`: {} signal(s) left out of the RTL signal table: {}",
            unexpected.len(),
            unexpected.join(", ")
        );
    }

    let mut signals = String::new();
    for m in &members {
        let elem = m.storage.ctype();
        let count = m.count();
        let dims: Vec<String> = m.dims.iter().map(|d| d.to_string()).collect();
        writeln!(
            signals,
            "    static_assert(sizeof(root->{a}) == {count} * sizeof({elem}), {n});\n    \
             add(t, {n}, static_cast<void*>(&root->{a}), {w}, {k}, sizeof({elem}), {inp}, {{{d}}});",
            a = m.access,
            n = c_string(&m.vcd_name),
            w = m.width,
            k = m.storage.kind(),
            inp = u32::from(m.is_input),
            d = dims.join(", "),
        )
        .unwrap();
    }
    let template = read(&root.join("testbench/shim.cpp.in"));
    let shim = template
        .replace("@PREFIX@", &prefix)
        .replace("@NAME@", name)
        .replace("@MODULE@", module)
        .replace("@CELL_INCLUDES@", includes.trim_end())
        .replace("@SIGNALS@", signals.trim_end());
    let shim_path = mdir.join(format!("exanet_vl_{name}_shim.cpp"));
    fs::write(&shim_path, shim).expect("write shim");

    BuiltTop {
        name: name.to_string(),
        mdir,
        fast,
        slow,
        shim: shim_path,
        runtime,
        excluded: excluded
            .into_iter()
            .map(|e| (e.vcd_name, e.reason))
            .collect(),
        light: t.network.is_some() || !t.params.is_empty() || t.variant == "Karma",
    }
}

/// True for the reason `vlheader` gives an unpacked array with a dimension over `MAX_ARRAY`,
/// which Verilator does not trace either (`--trace-max-array`). Matched on the text: should
/// `vlheader` reword it, these arrays are warned about again, nothing is hidden.
fn is_untraced_array(reason: &str) -> bool {
    reason.starts_with("unpacked dimension of ")
        && reason.ends_with(&format!(
            "more than {} (not traced either)",
            vlheader::MAX_ARRAY
        ))
}

fn read(p: &Path) -> String {
    fs::read_to_string(p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()))
}

/// `NAME += \` / `NAME = value` lists of a Verilator-generated makefile fragment.
fn parse_make_lists(text: &str) -> BTreeMap<String, Vec<String>> {
    let mut lists: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        let l = line.trim();
        if l.starts_with('#') || l.is_empty() {
            current = None;
            continue;
        }
        let (body, cont) = match l.strip_suffix('\\') {
            Some(b) => (b.trim(), true),
            None => (l, false),
        };
        if let Some(key) = current.clone() {
            lists
                .entry(key)
                .or_default()
                .extend(body.split_whitespace().map(String::from));
        } else if let Some((k, v)) = body.split_once('=') {
            let key = k.trim_end_matches('+').trim().to_string();
            lists
                .entry(key.clone())
                .or_default()
                .extend(v.split_whitespace().map(String::from));
            current = Some(key);
        }
        if !cont {
            current = None;
        }
    }
    lists
}

/// A C string literal.
fn c_string(s: &str) -> String {
    let mut o = String::from("\"");
    for b in s.bytes() {
        match b {
            b'"' | b'\\' => {
                o.push('\\');
                o.push(b as char);
            }
            0x20..=0x7e => o.push(b as char),
            _ => write!(o, "\\{b:03o}").unwrap(),
        }
    }
    o.push('"');
    o
}

/// C++ source bytes per compile unit above which a top's hot code is split over several
/// units (at most one per job), so that both cores work on a large design.
const UNIT_BYTES: u64 = 1 << 20;

/// Compiles the runtime and every top into one static library, `libexanet_vl.a`.
///
/// Verilator's many small files are compiled as a few unity files (like its own `__ALL.cpp`):
/// each file alone spends most of its time parsing the same headers. The hot code (its
/// `*_FAST` lists) is built at `-O2`, the once-run code (`*_SLOW`: constructors, trace
/// set-up) at `-O0`, as Verilator's own makefile does; the runtime library at `-O1`.
///
/// Jobs run on `NUM_JOBS` threads (cargo's `-j`). Objects are cached in
/// `<target>/<profile dir>/exanet-vl-cache/<group>-<key>/`, shared by the `dev`, `test` and
/// `check` builds (which cargo gives separate OUT_DIRs): the key hashes the compiler command
/// and every input byte, so a hit is the same object.
fn compile(v: &Verilator, root: &Path, out: &Path, tops: &[BuiltTop]) {
    if tops.is_empty() {
        return;
    }
    let mut base = cc::Build::new();
    base.cpp(true)
        .std("c++17")
        .debug(false)
        .warnings(false)
        .extra_warnings(false)
        .cargo_metadata(false)
        .include(&v.include)
        .include(v.include.join("vltstd"))
        .include(root.join("testbench"))
        .define("VM_COVERAGE", "0")
        .define("VM_SC", "0")
        .define("VM_TRACE", "1")
        .define("VM_TRACE_FST", "0")
        .define("VM_TRACE_VCD", "1");
    // The flags Verilator's own makefile uses to silence warnings in generated code.
    for f in [
        "-faligned-new",
        "-Wno-bool-operation",
        "-Wno-sign-compare",
        "-Wno-uninitialized",
        "-Wno-unused-but-set-variable",
        "-Wno-unused-parameter",
        "-Wno-unused-variable",
        "-Wno-shadow",
    ] {
        base.flag_if_supported(f);
    }
    let threads: usize = env::var("NUM_JOBS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(2)
        .clamp(1, 16);

    let mut groups: Vec<Group> = Vec::new();
    let mut runtime: Vec<String> = tops.iter().flat_map(|t| t.runtime.clone()).collect();
    runtime.sort();
    runtime.dedup();
    let mut rt = base.clone();
    // our `vl_stop` (testbench/vl_user.cpp) replaces Verilator's, whose flush deadlocks
    rt.opt_level_str(OPT_RUNTIME).define("VL_USER_STOP", None);
    let mut rt_jobs: Vec<Job> = runtime
        .iter()
        .map(|f| Job::new(v.include.join(format!("{f}.cpp")), &rt))
        .collect();
    rt_jobs.push(Job::new(root.join("testbench/vl_user.cpp"), &rt));
    groups.push(Group {
        name: "runtime".into(),
        jobs: rt_jobs,
        extra_key: v.version.clone(),
    });
    for t in tops {
        let mut fast = base.clone();
        fast.opt_level_str(if t.light { OPT_LIGHT } else { OPT_MODEL })
            .include(&t.mdir);
        let mut slow = base.clone();
        slow.opt_level_str(OPT_SLOW).include(&t.mdir);
        let mut shim = slow.clone();
        shim.warnings(true).extra_warnings(true);
        let mut jobs = Vec::new();
        let chunks = split_by_size(&t.fast, threads);
        for (k, chunk) in chunks.iter().enumerate() {
            let unity = unity_file(&t.mdir, &format!("exanet_vl_{}_fast{k}", t.name), chunk);
            jobs.push(Job::new(unity, &fast));
        }
        let unity = unity_file(&t.mdir, &format!("exanet_vl_{}_slow", t.name), &t.slow);
        jobs.push(Job::new(unity, &slow));
        // Every generated file and every header of ours decides the objects.
        let extra_key = format!(
            "{} {}",
            dir_digest(&t.mdir, |n| {
                !(n.ends_with(".d") || n.ends_with(".dat") || n.starts_with("exanet_vl_"))
            }),
            dir_digest(&root.join("testbench"), |n| n.ends_with(".h")),
        );
        groups.push(Group {
            name: t.name.clone(),
            jobs,
            extra_key: extra_key.clone(),
        });
        // The shim is a group of its own: editing `shim.cpp.in` recompiles the shims (seconds),
        // not every top's generated code (minutes).
        groups.push(Group {
            name: format!("{}-shim", t.name),
            jobs: vec![Job::new(t.shim.clone(), &shim)],
            extra_key,
        });
    }

    let cache = profile_dir(out, "exanet-vl-cache");
    let mut objects: Vec<Vec<PathBuf>> = vec![Vec::new(); groups.len()];
    let mut todo: Vec<(usize, usize)> = Vec::new(); // (group, job)
    let mut tmp_dirs: Vec<Option<PathBuf>> = vec![None; groups.len()];
    for (gi, g) in groups.iter().enumerate() {
        let entry = cache.join(format!("{}-{}", g.name, g.key(out)));
        if let Some(objs) = read_entry(&entry) {
            objects[gi] = objs;
            continue;
        }
        let tmp = cache.join(format!(
            "{}.tmp-{}",
            entry.file_name().unwrap().to_string_lossy(),
            std::process::id()
        ));
        let _ = fs::remove_dir_all(&tmp);
        fs::create_dir_all(&tmp).expect("create a cache entry");
        tmp_dirs[gi] = Some(tmp);
        todo.extend((0..g.jobs.len()).map(|j| (gi, j)));
    }
    // Largest first: the queue pops from the end.
    todo.sort_by_key(|&(gi, j)| groups[gi].jobs[j].bytes);

    let started = Instant::now();
    let timing = Mutex::new(String::new());
    let queue = Mutex::new(todo);
    let results: Mutex<Vec<JobResult>> = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let Some((gi, j)) = queue.lock().unwrap().pop() else {
                    break;
                };
                let job = &groups[gi].jobs[j];
                let mut b = job.build.clone();
                b.file(&job.file)
                    .out_dir(tmp_dirs[gi].as_ref().expect("a group to compile"));
                let t0 = Instant::now();
                let r = b
                    .try_compile_intermediates()
                    .map_err(|e| format!("{}: {e}", job.file.display()));
                let dt = t0.elapsed().as_secs_f64();
                let line = format!("{dt:7.2}s  {}\n", job.file.display());
                timing.lock().unwrap().push_str(&line);
                results.lock().unwrap().push((gi, r));
            });
        }
    });
    // Compile times, for decision 0001 and for whoever wonders where the build time goes.
    let mut log = timing.into_inner().unwrap();
    writeln!(
        log,
        "{:7.2}s  wall, {threads} threads",
        started.elapsed().as_secs_f64()
    )
    .unwrap();
    fs::write(out.join("compile_times.txt"), &log).expect("write compile_times.txt");

    let mut failed = Vec::new();
    let mut compiled: Vec<Vec<PathBuf>> = vec![Vec::new(); groups.len()];
    for (gi, r) in results.into_inner().unwrap() {
        match r {
            Ok(objs) => compiled[gi].extend(objs),
            Err(e) => failed.push(e),
        }
    }
    if !failed.is_empty() {
        for tmp in tmp_dirs.iter().flatten() {
            let _ = fs::remove_dir_all(tmp);
        }
        panic!(
            "C++ compile of the Verilated RTL failed:\n{}",
            failed.join("\n")
        );
    }
    for (gi, g) in groups.iter().enumerate() {
        if let Some(tmp) = &tmp_dirs[gi] {
            let entry = cache.join(format!("{}-{}", g.name, g.key(out)));
            objects[gi] = publish_entry(tmp, &entry, &compiled[gi]);
        }
    }
    prune_cache(
        &cache,
        &groups.iter().map(|g| g.key(out)).collect::<Vec<_>>(),
    );

    // `cpp(true)` makes cc link the C++ standard library.
    cc::Build::new()
        .cpp(true)
        .objects(objects.iter().flatten())
        .out_dir(out)
        .compile("exanet_vl");
}

/// Compiler flags for the once-run generated code (Verilator's OPT_SLOW).
const OPT_SLOW: &str = "0";

type JobResult = (usize, Result<Vec<PathBuf>, String>);

/// One C++ file to compile.
struct Job {
    file: PathBuf,
    build: cc::Build,
    /// Source size, the included files' for a unity file: the queue starts with the largest.
    bytes: u64,
}

impl Job {
    fn new(file: PathBuf, build: &cc::Build) -> Job {
        let bytes = unity_bytes(&file);
        Job {
            file,
            build: build.clone(),
            bytes,
        }
    }
}

/// The C++ files of the runtime, or of one top, cached as a whole.
struct Group {
    name: String,
    jobs: Vec<Job>,
    extra_key: String,
}

impl Group {
    /// Hash of everything the objects depend on: each job's compiler command (with the
    /// OUT_DIR, which differs between cargo profiles, taken out), file name and contents.
    fn key(&self, out: &Path) -> String {
        let mut h = DefaultHasher::new();
        let out = out.display().to_string();
        self.extra_key.hash(&mut h);
        for j in &self.jobs {
            let tool = j.build.get_compiler();
            let cmd = format!("{:?} {:?}", tool.path(), tool.args());
            cmd.replace(&out, "$OUT_DIR").hash(&mut h);
            j.file.file_name().hash(&mut h);
            fs::read(&j.file).unwrap_or_default().hash(&mut h);
        }
        format!("{:016x}", h.finish())
    }
}

/// The objects of a complete cache entry, and marks it used.
fn read_entry(entry: &Path) -> Option<Vec<PathBuf>> {
    let list = fs::read_to_string(entry.join("objects")).ok()?;
    let objs: Vec<PathBuf> = list.lines().map(|l| entry.join(l)).collect();
    if !objs.iter().all(|o| o.is_file()) {
        return None;
    }
    // The mtime of `used` orders entries for pruning.
    fs::write(entry.join("used"), "").ok()?;
    Some(objs)
}

/// Turns a compiled temporary directory into the cache entry `entry` (atomically: a rename)
/// and returns the entry's objects. Another build may have published the same entry first.
fn publish_entry(tmp: &Path, entry: &Path, objects: &[PathBuf]) -> Vec<PathBuf> {
    let mut names: Vec<String> = objects
        .iter()
        .map(|o| {
            let rel = o.strip_prefix(tmp).expect("objects inside their directory");
            rel.to_string_lossy().into_owned()
        })
        .collect();
    names.sort();
    fs::write(tmp.join("objects"), names.join("\n")).expect("write the object list");
    fs::write(tmp.join("used"), "").expect("mark the entry used");
    if fs::rename(tmp, entry).is_err() {
        let _ = fs::remove_dir_all(tmp);
    }
    read_entry(entry).unwrap_or_else(|| panic!("cache entry {} is incomplete", entry.display()))
}

/// Keeps, for each group, the `CACHE_KEEP` most recently used entries (and those in use now).
fn prune_cache(cache: &Path, current: &[String]) {
    const CACHE_KEEP: usize = 3;
    let mut by_group: BTreeMap<String, Vec<(std::time::SystemTime, PathBuf)>> = BTreeMap::new();
    for e in fs::read_dir(cache).into_iter().flatten().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.contains(".tmp-") {
            continue; // being compiled, or left by a failed build (`cargo clean` removes it)
        }
        let Some((group, key)) = name.rsplit_once('-') else {
            continue;
        };
        if current.iter().any(|c| c == key) {
            continue;
        }
        let used = fs::metadata(e.path().join("used"))
            .and_then(|m| m.modified())
            .unwrap_or(std::time::UNIX_EPOCH);
        by_group
            .entry(group.to_string())
            .or_default()
            .push((used, e.path()));
    }
    for (_, mut entries) in by_group {
        entries.sort();
        let stale = entries.len().saturating_sub(CACHE_KEEP - 1);
        for (_, p) in entries.into_iter().take(stale) {
            let _ = fs::remove_dir_all(p);
        }
    }
}

/// Splits files into at most `n` lists of similar total size, none needlessly small
/// (`UNIT_BYTES`), keeping the given order within each list.
fn split_by_size(files: &[PathBuf], n: usize) -> Vec<Vec<PathBuf>> {
    let sizes: Vec<u64> = files
        .iter()
        .map(|f| fs::metadata(f).map(|m| m.len()).unwrap_or(0))
        .collect();
    let total: u64 = sizes.iter().sum();
    let count = (total.div_ceil(UNIT_BYTES) as usize).clamp(1, n.max(1));
    let mut order: Vec<usize> = (0..files.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(sizes[i]));
    let mut load = vec![0u64; count];
    let mut owner = vec![0usize; files.len()];
    for i in order {
        let k = (0..count).min_by_key(|&k| load[k]).expect("count >= 1");
        load[k] += sizes[i];
        owner[i] = k;
    }
    (0..count)
        .map(|k| {
            (0..files.len())
                .filter(|&i| owner[i] == k)
                .map(|i| files[i].clone())
                .collect()
        })
        .collect()
}

/// Writes `<mdir>/<stem>.cpp`, which includes `files` (Verilator's `__ALL.cpp` idea).
fn unity_file(mdir: &Path, stem: &str, files: &[PathBuf]) -> PathBuf {
    let mut text = String::from("// Generated by build.rs: one compile unit for these files.\n");
    for f in files {
        let name = f.file_name().expect("a file").to_string_lossy();
        writeln!(text, "#include \"{name}\"").unwrap();
    }
    let path = mdir.join(format!("{stem}.cpp"));
    fs::write(&path, text).expect("write a unity file");
    path
}

/// A file's size, or for a unity file the sizes of the files it includes.
fn unity_bytes(file: &Path) -> u64 {
    let own = fs::metadata(file).map(|m| m.len()).unwrap_or(0);
    let dir = file.parent().unwrap_or(Path::new("."));
    let text = fs::read_to_string(file).unwrap_or_default();
    let included: u64 = text
        .lines()
        .filter_map(|l| l.strip_prefix("#include \"")?.strip_suffix('"'))
        .filter(|n| n.ends_with(".cpp"))
        .map(|n| fs::metadata(dir.join(n)).map(|m| m.len()).unwrap_or(0))
        .sum();
    own + included
}

/// Digest of the files of `dir` whose names pass `keep`. For an `-Mdir`: all but Verilator's
/// dependency lists (which hold timestamps) and this script's unity files and shim (hashed
/// as jobs).
fn dir_digest(dir: &Path, keep: impl Fn(&str) -> bool) -> String {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    entries.sort();
    let mut h = DefaultHasher::new();
    for p in entries {
        let n = p
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        if !keep(&n) {
            continue;
        }
        n.hash(&mut h);
        fs::read(&p).unwrap_or_default().hash(&mut h);
    }
    format!("{:016x}", h.finish())
}

/// What `rtl_tops.rs` says about one top.
enum Status {
    /// Built; the design signals left out of its table.
    Built(Vec<(String, String)>),
    /// Not built; the `NotBuilt` variant.
    Absent(&'static str),
}

fn generate_rust(tops: &[TopSpec], statuses: &[Status]) -> String {
    let mut r = String::from("// Generated by build.rs from its TOPS table. Do not edit.\n\n");
    r.push_str(
        "/// A Verilator top known to this crate (build.rs `TOPS`); `built_tops()` says which\n\
         /// of them this binary contains.\n\
         #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]\npub enum RtlTop {\n",
    );
    for t in tops {
        let (variant, module) = (&t.variant, &t.module);
        writeln!(
            r,
            "    /// Top module `{module}` {:?}.\n    {variant},",
            t.params
        )
        .unwrap();
    }
    r.push_str("}\n\nimpl RtlTop {\n    /// Every top, in build.rs order.\n");
    writeln!(r, "    pub const ALL: [RtlTop; {}] = [", tops.len()).unwrap();
    for t in tops {
        writeln!(r, "        RtlTop::{},", t.variant).unwrap();
    }
    r.push_str(
        "    ];\n\n    /// Short name: C++ prefix `V<name>`, C symbols `exanet_vl_<name>_*`.\n",
    );
    r.push_str("    pub fn name(self) -> &'static str {\n        match self {\n");
    for t in tops {
        writeln!(r, "            RtlTop::{} => {:?},", t.variant, t.name).unwrap();
    }
    r.push_str("        }\n    }\n\n    /// The SystemVerilog top module.\n");
    r.push_str("    pub fn module(self) -> &'static str {\n        match self {\n");
    for t in tops {
        writeln!(r, "            RtlTop::{} => {:?},", t.variant, t.module).unwrap();
    }
    r.push_str(
        "        }\n    }\n\n    fn build(self) -> &'static TopBuild {\n        match self {\n",
    );
    for t in tops {
        writeln!(
            r,
            "            RtlTop::{} => &TOP_{},",
            t.variant,
            t.name.to_uppercase()
        )
        .unwrap();
    }
    r.push_str("        }\n    }\n}\n");

    for (t, status) in tops.iter().zip(statuses) {
        let name = &t.name;
        let upper = name.to_uppercase();
        match status {
            Status::Absent(why) => {
                writeln!(
                    r,
                    "\nstatic TOP_{upper}: TopBuild = TopBuild::Absent(NotBuilt::{why});"
                )
                .unwrap();
            }
            Status::Built(excluded) => {
                writeln!(
                    r,
                    "\nmod ffi_{name} {{\n    use std::ffi::{{c_char, c_int, c_void}};"
                )
                .unwrap();
                r.push_str("    extern \"C\" {\n");
                for (f, args, ret) in [
                    ("create", "", " -> *mut c_void"),
                    ("destroy", "m: *mut c_void", ""),
                    ("eval", "m: *mut c_void", ""),
                    (
                        "signals",
                        "m: *mut c_void, count: *mut u32",
                        " -> *const super::RawSignal",
                    ),
                    (
                        "trace_open",
                        "m: *mut c_void, path: *const c_char",
                        " -> c_int",
                    ),
                    ("trace_dump", "m: *mut c_void, time: u64", ""),
                    ("trace_close", "m: *mut c_void", " -> c_int"),
                    ("final", "m: *mut c_void", ""),
                    ("got_error", "m: *mut c_void", " -> c_int"),
                ] {
                    writeln!(r, "        pub fn exanet_vl_{name}_{f}({args}){ret};").unwrap();
                }
                r.push_str("    }\n}\n");
                writeln!(
                    r,
                    "\nstatic TOP_{upper}: TopBuild = TopBuild::Built {{\n    backend: Backend {{"
                )
                .unwrap();
                for f in [
                    "create",
                    "destroy",
                    "eval",
                    "signals",
                    "trace_open",
                    "trace_dump",
                    "trace_close",
                    "final",
                    "got_error",
                ] {
                    // `final` is a Rust keyword.
                    let field = if f == "final" { "final_" } else { f };
                    writeln!(r, "        {field}: ffi_{name}::exanet_vl_{name}_{f},").unwrap();
                }
                r.push_str("    },\n    excluded: &[\n");
                for (n, why) in excluded {
                    writeln!(r, "        ({n:?}, {why:?}),").unwrap();
                }
                r.push_str("    ],\n};\n");
            }
        }
    }
    r
}

/// Keeps the file's mtime when nothing changed, so cargo does not rebuild for nothing.
fn write_if_changed(path: &Path, text: &str) {
    if fs::read_to_string(path).ok().as_deref() != Some(text) {
        fs::write(path, text).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    }
}
