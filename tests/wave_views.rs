//! The GTKWave save files of `waves/` against the waves they are for: every signal a save file
//! names must be in that design's model waves and RTL waves, every translate file it applies
//! must exist, and it must open on the first packet. A renamed signal then fails here instead
//! of leaving an empty group in GTKWave.
//!
//! The waves are written by the command line into `target/tmp/wave_views/`: `cosim --design
//! link|router|node --vcd-dir` (model and RTL), `karma pingpong --vcd` with `--backend model`
//! and `--backend rtl` (the Verilated KARMA top, `exanet_karma_top`, writes its own VCD).

mod common;

use common::exanet;
use exanet::wave::list_signals_in_file;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn tmp(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("wave_views")
        .join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// What a save file says: the signals it shows (names as the VCD rules of `src/wave/mod.rs`
/// give them: GTKWave's trailing `[msb:lsb]` dropped), the translate files it applies (with
/// the signal each applies to), `[timestart]` and the zoom.
#[derive(Debug, Default)]
struct View {
    signals: Vec<String>,
    translated: Vec<(String, String)>,
    timestart: Option<u64>,
    zoom: Option<f64>,
    savefile: Option<String>,
}

/// The signal a trace line names, without GTKWave's trailing range (`x[9:0]` → `x`,
/// `cnt_q[0][9:0]` → `cnt_q[0]`).
fn signal_of(line: &str) -> String {
    if let Some(open) = line.rfind('[') {
        let tail = &line[open + 1..];
        if let Some(inner) = tail.strip_suffix(']') {
            if let Some((a, b)) = inner.split_once(':') {
                if a.parse::<u32>().is_ok() && b.parse::<u32>().is_ok() {
                    return line[..open].to_string();
                }
            }
        }
    }
    line.to_string()
}

fn parse_view(text: &str) -> Result<View, String> {
    let mut v = View::default();
    let mut pending_filter: Option<String> = None;
    for (i, raw) in text.lines().enumerate() {
        let l = raw.trim();
        let at = |m: &str| format!("line {}: {m}: `{l}`", i + 1);
        if l.is_empty() || l.starts_with("[*]") || l.starts_with('-') {
            continue;
        }
        if let Some(r) = l.strip_prefix("[timestart]") {
            v.timestart = Some(r.trim().parse().map_err(|_| at("bad [timestart]"))?);
        } else if let Some(r) = l.strip_prefix("[savefile]") {
            v.savefile = Some(r.trim().trim_matches('"').to_string());
        } else if l.starts_with('[') || l.starts_with('@') {
            continue;
        } else if let Some(r) = l.strip_prefix('*') {
            let z = r
                .split_whitespace()
                .next()
                .ok_or_else(|| at("empty zoom"))?;
            v.zoom = Some(z.parse().map_err(|_| at("bad zoom"))?);
        } else if let Some(r) = l.strip_prefix('^') {
            let (n, file) = r.split_once(' ').ok_or_else(|| at("bad filter line"))?;
            if n.starts_with('>') || n.starts_with('<') {
                continue; // process filters: waves/filters/, run from the build
            }
            pending_filter = Some(file.trim().to_string());
        } else if l.starts_with(['#', '+', '>', '!', '?', ':']) {
            return Err(at("a trace form these tests do not read"));
        } else {
            let s = signal_of(l);
            if let Some(f) = pending_filter.take() {
                v.translated.push((f, s.clone()));
            }
            v.signals.push(s);
        }
    }
    Ok(v)
}

/// The signals of `view` missing from `names`.
fn missing<'a>(view: &'a View, names: &BTreeSet<String>) -> Vec<&'a str> {
    view.signals
        .iter()
        .filter(|s| !names.contains(*s))
        .map(String::as_str)
        .collect()
}

fn names_of(file: &Path) -> BTreeSet<String> {
    list_signals_in_file(file)
        .unwrap_or_else(|e| panic!("{e}"))
        .into_iter()
        .map(|d| d.path)
        .collect()
}

fn run(args: &[&str]) {
    let o = exanet(args);
    assert!(
        o.status.success(),
        "exanet {args:?}: {}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Time (ps) of the first rising of a 1-bit signal in a VCD file written by this crate or by
/// Verilator (`1<code>` lines after `#<time>`).
fn first_rise(vcd: &Path, signal: &str) -> Option<u64> {
    let text = std::fs::read_to_string(vcd).unwrap();
    let (scopes, reference) = signal.rsplit_once('.').unwrap();
    let mut path: Vec<&str> = Vec::new();
    let mut code = None;
    let mut lines = text.lines();
    for l in lines.by_ref() {
        let t: Vec<&str> = l.split_whitespace().collect();
        match t.as_slice() {
            ["$scope", _, name, "$end"] => path.push(name),
            ["$upscope", "$end"] => {
                path.pop();
            }
            ["$var", _, "1", c, r, "$end"] if *r == reference && path.join(".") == scopes => {
                code = Some(c.to_string());
            }
            ["$enddefinitions", "$end"] => break,
            _ => {}
        }
    }
    let code = code?;
    let mut now = 0;
    for l in lines {
        if let Some(t) = l.strip_prefix('#') {
            now = t.trim().parse().ok()?;
        } else if l.strip_prefix('1') == Some(code.as_str()) {
            return Some(now);
        }
    }
    None
}

/// Time units (ps) per pixel of GTKWave at zoom `z`: a frame of 200 pixels spans `2^-z`
/// units (GTKWave's `calczoom`, zoom base 2).
fn ps_per_pixel(z: f64) -> f64 {
    2f64.powf(-z) / 200.0
}

/// Pixels of the wave area of a 1600-pixel-wide window (`[size] 1600 ...`) beside a signal
/// pane of 300 (`[signals_width]`) and the tree of 250 (`[sst_width]`): the span a save file
/// opens on is this many pixels at its zoom.
const WAVE_PIXELS: f64 = 1000.0;

/// Checks `view` (the save file `name`) against the model and RTL waves of its design, and
/// that it opens on the time of `first` (a 1-bit signal that first rises when the first packet
/// is written) in `model`.
fn check_view(name: &str, view: &View, waves: &[&Path], first: &str, model: &Path) {
    let mut errs = Vec::new();
    if view.signals.is_empty() {
        errs.push("shows no signal".to_string());
    }
    for w in waves {
        let m = missing(view, &names_of(w));
        if !m.is_empty() {
            errs.push(format!("{} lacks {m:?}", w.display()));
        }
    }
    for (file, sig) in &view.translated {
        let rel = file
            .strip_prefix("/exanet/")
            .unwrap_or_else(|| panic!("{name}: translate file {file} is not under /exanet/"));
        let p = repo(rel);
        if !p.is_file() {
            errs.push(format!(
                "translate file {file} ({}) is missing",
                p.display()
            ));
        }
        let table = Path::new(rel)
            .file_stem()
            .and_then(|s| s.to_str())
            .and_then(exanet::wave::states::table)
            .unwrap_or_else(|| panic!("{name}: {file} is no table of src/wave/states.rs"));
        if !table
            .registers
            .iter()
            .any(|(_, r)| sig.ends_with(&format!(".{r}")))
        {
            errs.push(format!(
                "{sig} gets {file}, which is for {:?}",
                table.registers
            ));
        }
    }
    assert_eq!(
        view.savefile.as_deref(),
        Some(format!("/exanet/waves/{name}").as_str()),
        "{name}: [savefile] must be /exanet/waves/{name} (GTKWave finds the translate files relative to it)"
    );
    let t = first_rise(model, first).unwrap_or_else(|| panic!("{name}: {first} never rises"));
    let (Some(start), Some(z)) = (view.timestart, view.zoom) else {
        panic!("{name}: no [timestart] or no zoom (`*` line)");
    };
    let span = ps_per_pixel(z) * WAVE_PIXELS;
    if !(start as f64 <= t as f64 && (t as f64) < start as f64 + span / 2.0) {
        errs.push(format!(
            "opens on {start}..{:.0} ps, the first packet is at {t} ps ({first})",
            start as f64 + span
        ));
    }
    assert!(errs.is_empty(), "waves/{name}:\n{}", errs.join("\n"));
}

fn view(name: &str) -> View {
    let text = std::fs::read_to_string(repo(&format!("waves/{name}")))
        .unwrap_or_else(|e| panic!("waves/{name}: {e}"));
    parse_view(&text).unwrap_or_else(|e| panic!("waves/{name}: {e}"))
}

const CYCLES: &str = "1200";

/// `cosim --design DESIGN --seed SEED --stimulus STIMULUS` for [`CYCLES`] cycles, its waves
/// in `tmp(name)`, which it returns.
fn cosim_waves(name: &str, design: &str, seed: &str, stimulus: &str) -> PathBuf {
    let dir = tmp(name);
    run(&[
        "cosim",
        "--design",
        design,
        "--cycles",
        CYCLES,
        "--seed",
        seed,
        "--stimulus",
        stimulus,
        "--vcd-dir",
        dir.to_str().unwrap(),
    ]);
    dir
}

/// `stimulus`: the router's and the node's views follow their first packet from input 0 under
/// the plain stimulus (the constrained one drops the first packets at input 0: destinations
/// anywhere, lattices the router is moved out of).
fn cosim_view(design: &str, first: &str, stimulus: &str) {
    let dir = cosim_waves(design, design, "1", stimulus);
    let (m, r) = (dir.join("model.vcd"), dir.join("rtl.vcd"));
    check_view(
        &format!("{design}.gtkw"),
        &view(&format!("{design}.gtkw")),
        &[&m, &r],
        first,
        &m,
    );
}

#[test]
fn link_view_names_signals_of_both_waves_and_opens_on_the_first_packet() {
    cosim_view(
        "link",
        "TOP.exanet_link_top.u_a.u_tcl.u_tx.pkt_q",
        "constrained",
    );
}

#[test]
fn router_view_names_signals_of_both_waves_and_opens_on_the_first_packet() {
    cosim_view(
        "router",
        "TOP.exanet_router_top.u_router.gen_in[0].u_in.req_q",
        "plain",
    );
}

#[test]
fn node_view_names_signals_of_both_waves_and_opens_on_the_first_packet() {
    cosim_view(
        "node",
        "TOP.exanet_node_top.u_node.u_router.gen_in[0].u_in.req_q",
        "plain",
    );
}

#[test]
fn karma_view_names_signals_of_both_waves_and_opens_on_the_first_packet() {
    let dir = tmp("karma");
    let (m, r) = (dir.join("model.vcd"), dir.join("rtl.vcd"));
    for (backend, f) in [("model", &m), ("rtl", &r)] {
        run(&[
            "karma",
            "pingpong",
            "--sizes",
            "16",
            "--iterations",
            "1",
            "--hops",
            "1",
            "--backend",
            backend,
            "--vcd",
            f.to_str().unwrap(),
        ]);
    }
    check_view(
        "karma.gtkw",
        &view("karma.gtkw"),
        &[&m, &r],
        "TOP.exanet_karma_top.gen_node[0].u_node.u_router.gen_in[0].u_in.req_q",
        &m,
    );
}

#[test]
fn every_save_file_in_waves_is_checked() {
    let mut files: Vec<String> = std::fs::read_dir(repo("waves"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".gtkw"))
        .collect();
    files.sort();
    assert_eq!(
        files,
        ["karma.gtkw", "link.gtkw", "node.gtkw", "router.gtkw"],
        "a save file without a test here (add one), or a test without its file"
    );
}

#[test]
fn a_wrong_name_is_found() {
    let text = "[timestart] 0\n*-10.0 0\n@28\nTOP.a.x_q\nTOP.a.y_q[7:0]\n@2022\n^1 /exanet/waves/translate/gate_state.txt\nTOP.a.cnt_q[0][2:0]\n";
    let v = parse_view(text).unwrap();
    assert_eq!(v.signals, ["TOP.a.x_q", "TOP.a.y_q", "TOP.a.cnt_q[0]"]);
    assert_eq!(
        v.translated,
        [(
            "/exanet/waves/translate/gate_state.txt".to_string(),
            "TOP.a.cnt_q[0]".to_string()
        )]
    );
    let names: BTreeSet<String> = ["TOP.a.x_q", "TOP.a.y_q", "TOP.a.cnt_q[0]"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert!(missing(&v, &names).is_empty());
    let renamed = text.replace("TOP.a.x_q", "TOP.a.u_tx_fifo.x_q");
    let v = parse_view(&renamed).unwrap();
    assert_eq!(missing(&v, &names), ["TOP.a.u_tx_fifo.x_q"]);
    assert_eq!(ps_per_pixel(-10.0), 1024.0 / 200.0);
}

/// Issue 32 §3: `cosim --vcd-dir DIR` writes `DIR/view.gtkw` for the run, following the run's
/// own first packet. Router seed 7 sends its first packet to output 4, which the static
/// `router.gtkw` (output 1) does not show: the run's file names gate and output of that packet,
/// every signal it names is in both waves, its translate files are beside it, it opens the
/// RTL's waves, its marker is where the gate's request first rises, and the output it shows
/// does write that packet. The node's and the link's are checked alike.
#[test]
fn each_cosim_run_writes_a_save_file_on_its_own_first_packet() {
    for (design, seed, top) in [
        ("router", "7", "TOP.exanet_router_top.u_router"),
        ("node", "7", "TOP.exanet_node_top.u_node.u_router"),
        ("link", "1", "TOP.exanet_link_top"),
    ] {
        let dir = cosim_waves(&format!("run-view-{design}"), design, seed, "plain");
        let abs = std::fs::canonicalize(&dir).unwrap();
        let text = std::fs::read_to_string(dir.join("view.gtkw")).unwrap();
        let v = parse_view(&text).unwrap();
        let (m, r) = (dir.join("model.vcd"), dir.join("rtl.vcd"));
        for w in [&m, &r] {
            let lacking = missing(&v, &names_of(w));
            assert!(
                lacking.is_empty(),
                "{design}: {} lacks {lacking:?}",
                w.display()
            );
        }
        assert!(text.contains(&format!("[dumpfile] \"{}\"", abs.join("rtl.vcd").display())));
        assert_eq!(
            v.savefile.as_deref(),
            Some(abs.join("view.gtkw").to_str().unwrap())
        );
        for (file, _) in &v.translated {
            assert!(
                file.starts_with(abs.join("translate").to_str().unwrap())
                    && Path::new(file).is_file(),
                "{design}: translate file {file}"
            );
        }
        // the signal whose first rise is the first packet, and where the view says it goes
        let (first, goes) = if design == "link" {
            (
                format!("{top}.u_a.u_tcl.u_tx.pkt_q"),
                format!("{top}.u_b.u_tcl.u_rx.wr_valid_q"),
            )
        } else {
            let gate = v
                .signals
                .iter()
                .find_map(|s| s.strip_suffix(".u_in.req_q"))
                .expect("a gate's request")
                .to_string();
            let out = v
                .signals
                .iter()
                .find_map(|s| s.strip_suffix(".u_out.owr_valid_q"))
                .expect("an output's FIFO write")
                .to_string();
            if design == "router" {
                assert_ne!(out, format!("{top}.gen_out[1]"), "seed 7 is not output 1's");
            }
            (
                format!("{gate}.u_in.req_q"),
                format!("{out}.u_out.owr_valid_q"),
            )
        };
        let t = first_rise(&m, &first).unwrap_or_else(|| panic!("{design}: {first} never rises"));
        // no earlier packet at any other gate or side
        let names = names_of(&m);
        for n in names.iter().filter(|n| {
            (n.ends_with(".u_in.req_q") && n.starts_with(top)) || n.ends_with(".u_tcl.u_tx.pkt_q")
        }) {
            if let Some(u) = first_rise(&m, n) {
                assert!(
                    u >= t,
                    "{design}: {n} rose at {u}, before the view's {first} at {t}"
                );
            }
        }
        let (Some(start), Some(z)) = (v.timestart, v.zoom) else {
            panic!("{design}: no [timestart] or zoom");
        };
        let span = ps_per_pixel(z) * WAVE_PIXELS;
        assert!(
            start as f64 <= t as f64 && (t as f64) < start as f64 + span / 2.0,
            "{design}: opens on {start}.., the first packet at {t}"
        );
        assert!(
            text.contains(&format!(" {t}\n")),
            "{design}: the marker at {t}"
        );
        let w = first_rise(&m, &goes).unwrap_or_else(|| panic!("{design}: {goes} never rises"));
        assert!(
            w > t,
            "{design}: {goes} at {w}, the packet's request at {t}"
        );
    }
}
