//! The lockstep comparison against a second simulator, Icarus Verilog (`iverilog -g2012`,
//! Debian's 11.0): `exanet cosim --simulator icarus`. The RTL is not tied to Verilator's dialect
//! (docs/rtl-portability.md); this shows it also behaves the same, cycle by cycle.
//!
//! Icarus runs as a separate program, so the comparison is offline but cycle for cycle the
//! same as Verilator's ([`super::lockstep::run`]):
//! 1. the model runs `cycles` cycles with its test bench; the test bench's inputs of every cycle
//!    go to `inputs.hex`, and after every rising edge every probed model signal (all ports and
//!    registers, by their RTL names) to `model.hex`, one line per cycle;
//! 2. a generated bench, `replay_tb.sv`, instantiates the design's top, applies the asynchronous
//!    reset as the Verilator lockstep does (rst_ni high, low, high, the clock low), then per
//!    cycle sets the inputs of `inputs.hex` with the clock low, pulses `rst_ni` when the line's
//!    first value (the design's `reset_now` before that cycle) says so, makes the deposits
//!    into the counters its second value counts (`deposits.hex`, the design's `deposits`,
//!    decision 0044) by hierarchical assignment, raises the clock, and writes the same
//!    signals, by hierarchical name, to `icarus.hex`;
//! 3. the two files are compared line by line; the first difference names the cycle, the
//!    signal and both values (an X or Z from Icarus is a difference).
//!
//! The files are written into a fresh directory under the system's temporary directory,
//! removed after an identical run and kept (its path in the error) otherwise.

use super::lockstep::{CosimError, CosimReport, Design, Mismatch, Options, PROGRESS_BATCH};
use crate::probe::{Declarer, Sampler};
use std::fmt::Write as _;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Signals per `$fwrite` call of the generated bench (Icarus takes long argument lists, but a
/// bench of 2700 signals reads better in rows).
const FWRITE_ROW: usize = 32;

/// Half a clock period of the generated bench, in its time unit (1 ns): the time is not
/// compared, only the order of events within a cycle.
const HALF_PERIOD_NS: u32 = 5;

/// The RTL sources: `rtl/` of the source tree this binary was built from, or
/// `$EXANET_RTL_DIR`.
pub fn rtl_dir() -> PathBuf {
    std::env::var_os("EXANET_RTL_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("rtl"))
}

/// Every `exanet_*.sv` of `dir`: the packages first (`exanet_base_pkg.sv`, which defines
/// `EXANET_ALWAYS_COMB`, before the other packages), then the modules, each group by name.
pub fn rtl_sources(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("the RTL sources: {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("exanet_") && n.ends_with(".sv"))
        })
        .collect();
    let rank = |p: &PathBuf| {
        let n = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if n == "exanet_base_pkg.sv" {
            0
        } else if n.ends_with("_pkg.sv") {
            1
        } else {
            2
        }
    };
    files.sort_by(|a, b| rank(a).cmp(&rank(b)).then(a.cmp(b)));
    if files.is_empty() {
        return Err(format!("no exanet_*.sv in {}", dir.display()));
    }
    Ok(files)
}

/// Hex digits of a `width`-bit value, as Icarus's `%h` prints it.
fn digits(width: u32) -> usize {
    width.div_ceil(4) as usize
}

/// One signal of the comparison: its model (Verilator) name, its name in the bench, its width.
struct Signal {
    name: String,
    bench: String,
    width: u32,
}

/// One input port the test bench drives, or one element `idx` of an array port.
struct Input {
    port: String,
    idx: Option<usize>,
    width: u32,
}

impl Input {
    /// `x_i` or `x_i[3]`.
    fn port_name(&self) -> String {
        match self.idx {
            Some(x) => format!("{}[{x}]", self.port),
            None => self.port.clone(),
        }
    }
}

/// The port named `TOP.x_i` or `TOP.x_i[3]`.
fn input_of(name: &str, width: u32) -> Option<Input> {
    let p = name.strip_prefix("TOP.")?;
    match p.strip_suffix(']').and_then(|q| q.split_once('[')) {
        Some((port, idx)) => Some(Input {
            port: port.to_string(),
            idx: Some(idx.parse().ok()?),
            width,
        }),
        None => Some(Input {
            port: p.to_string(),
            idx: None,
            width,
        }),
    }
}

/// The bench's name of model signal `name`: `TOP.<top>.u_a.x_q` is `dut.u_a.x_q`, and a top
/// port `TOP.x_o` (or `TOP.x_o[2]`) the bench's net or variable `tb_x_o` connected to it.
fn bench_name(name: &str, top: &str) -> Option<String> {
    let inner = format!("TOP.{top}.");
    if let Some(rest) = name.strip_prefix(&inner) {
        Some(format!("dut.{rest}"))
    } else {
        name.strip_prefix("TOP.").map(|rest| match rest {
            "clk_i" | "rst_ni" => rest.to_string(),
            _ => format!("tb_{rest}"),
        })
    }
}

/// The generated test bench (see the module's documentation).
fn bench_source(
    top: &str,
    inputs: &[Input],
    outputs: &[Input],
    sigs: &[Signal],
    deposit_targets: &[String],
    cycles: u64,
) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "// Generated by exanet cosim --simulator icarus (src/cosim/icarus.rs): replays the test\n\
         // bench's inputs of every cycle into {top} and writes every probed signal after every\n\
         // rising edge.\n`timescale 1ns / 1ps\n\nmodule exanet_icarus_replay;"
    );
    let _ = writeln!(s, "  logic clk_i = 1'b0;\n  logic rst_ni = 1'b1;");
    // one variable (inputs) or net (outputs) per port, an unpacked array for an array port
    // (`x_i[0]`, `x_i[1]`, ...), named after the port
    let group = |list: &[Input]| {
        let mut ports: Vec<(String, u32, usize)> = Vec::new();
        for i in list {
            match ports.iter_mut().find(|p| p.0 == i.port) {
                Some(p) => p.2 = p.2.max(i.idx.map_or(0, |x| x + 1)),
                None => ports.push((i.port.clone(), i.width, i.idx.map_or(0, |x| x + 1))),
            }
        }
        ports
    };
    let (ins, outs) = (group(inputs), group(outputs));
    for (kind, list) in [("logic", &ins), ("wire ", &outs)] {
        for (port, w, n) in list {
            let dims = if *n > 0 {
                format!(" [{n}]")
            } else {
                String::new()
            };
            let _ = writeln!(s, "  {kind} [{}:0] tb_{port}{dims};", w - 1);
        }
    }
    let _ = writeln!(
        s,
        "  integer fin, fout, fdep, got, cycle, ndep, k;\n  logic reset_before;\n  \
         logic [31:0] dep_at, dep_v;\n"
    );
    let _ = write!(
        s,
        "  {top} dut (\n    .clk_i  (clk_i),\n    .rst_ni (rst_ni)"
    );
    for (port, _, _) in ins.iter().chain(&outs) {
        let _ = write!(s, ",\n    .{port} (tb_{port})");
    }
    let _ = writeln!(s, "\n  );\n");
    // each line: whether the reset is pulsed before the cycle (`Design::reset_now`), how many
    // deposits are made before it (`Design::deposits`), then the inputs
    let fmt_in = vec!["%h"; inputs.len() + 2].join(" ");
    let args_in: Vec<String> = ["reset_before".to_string(), "ndep".to_string()]
        .into_iter()
        .chain(inputs.iter().map(|i| match i.idx {
            Some(x) => format!("tb_{}[{x}]", i.port),
            None => format!("tb_{}", i.port),
        }))
        .collect();
    let read = format!(
        "    got = $fscanf(fin, \"{fmt_in}\\n\", {});\n    if (got != {}) begin\n      \
         $display(\"FAIL inputs.hex: cycle %0d: %0d of {} values\", cycle, got);\n      \
         $finish;\n    end",
        args_in.join(", "),
        inputs.len() + 2,
        inputs.len() + 2
    );
    let _ = writeln!(s, "  task automatic read_inputs;\n{read}\n  endtask\n");
    // a deposit: a line of deposits.hex, the counter's index in the list below and the value
    let _ = writeln!(
        s,
        "  task automatic deposit;\n    got = $fscanf(fdep, \"%h %h\\n\", dep_at, dep_v);\n    \
         if (got != 2) begin\n      $display(\"FAIL deposits.hex: cycle %0d\", cycle);\n      \
         $finish;\n    end\n    case (dep_at)"
    );
    for (k, t) in deposit_targets.iter().enumerate() {
        let _ = writeln!(s, "      {k}: {t} = dep_v;");
    }
    let _ = writeln!(
        s,
        "      default: begin\n        $display(\"FAIL deposits.hex: no counter %0d\", dep_at);\n        \
         $finish;\n      end\n    endcase\n  endtask\n"
    );
    let _ = writeln!(s, "  task automatic write_signals;");
    for (r, row) in sigs.chunks(FWRITE_ROW).enumerate() {
        let fmt = vec!["%h"; row.len()].join(" ");
        let sep = if r == 0 { "" } else { " " };
        let names: Vec<&str> = row.iter().map(|g| g.bench.as_str()).collect();
        let _ = writeln!(
            s,
            "    $fwrite(fout, \"{sep}{fmt}\", {});",
            names.join(", ")
        );
    }
    let _ = writeln!(s, "    $fwrite(fout, \"\\n\");\n  endtask\n");
    let _ = writeln!(
        s,
        "  initial begin\n    fin  = $fopen(\"inputs.hex\", \"r\");\n    \
         fout = $fopen(\"icarus.hex\", \"w\");\n    fdep = $fopen(\"deposits.hex\", \"r\");\n    \
         if (fin == 0 || fout == 0 || fdep == 0) begin\n      \
         $display(\"FAIL cannot open inputs.hex, icarus.hex or deposits.hex\");\n      $finish;\n    end\n    \
         cycle = 0;\n    read_inputs();\n    // the asynchronous reset, as the Verilator lockstep \
         applies it\n    #1 rst_ni = 1'b0;\n    #1 rst_ni = 1'b1;\n    #1;\n    \
         for (cycle = 0; cycle < {cycles}; cycle = cycle + 1) begin\n      \
         if (cycle > 0) read_inputs();\n      clk_i = 1'b0;\n      if (cycle > 0 && reset_before) begin\n        \
         #1 rst_ni = 1'b0;\n        #1 rst_ni = 1'b1;\n      end\n      \
         for (k = 0; k < ndep; k = k + 1) deposit();\n      #{HALF_PERIOD_NS};\n      \
         clk_i = 1'b1;\n      #1 write_signals();\n      #{};\n    end\n    $fclose(fout);\n    \
         $display(\"DONE %0d\", cycle);\n    $finish;\n  end\nendmodule",
        HALF_PERIOD_NS - 1
    );
    s
}

/// Run `d`'s model for `opts.cycles` cycles and its RTL top under Icarus Verilog with the same
/// inputs, and compare every probed signal after every rising edge.
pub fn run<D: Design>(d: &mut D, opts: &Options) -> Result<CosimReport, CosimError> {
    let setup = CosimError::Setup;
    let run_err = CosimError::Run;
    if opts.vcd_dir.is_some() {
        return Err(setup(
            "--vcd-dir: the Icarus Verilog co-simulation writes no waves (run it with \
             --simulator verilator for model.vcd and rtl.vcd)"
                .into(),
        ));
    }
    if d.top() == crate::cosim::RtlTop::Node {
        return Err(setup(
            "--simulator icarus: the node is not co-simulated under Icarus Verilog: Icarus 11.0 \
             leaves X the unpacked-array ports exanet_node and exanet_node_top pass whole \
             between levels (docs/rtl-portability.md); the link and the router are"
                .into(),
        ));
    }
    for tool in ["iverilog", "vvp"] {
        if Command::new(tool).arg("-V").output().is_err() {
            return Err(setup(format!(
                "{tool} is not on PATH: install Icarus Verilog (apt-get install iverilog; the \
                 test command scripts/test-all.sh does)"
            )));
        }
    }
    let top = d.top().module();
    let mut decl = Declarer::default();
    d.probe(false, &mut decl);
    let width_of = |n: &str| decl.names.iter().find(|(m, _)| m == n).map(|(_, w)| *w);
    let mut inputs = Vec::new();
    for n in d.input_names() {
        let w = width_of(&n).ok_or_else(|| setup(format!("input {n} is not probed")))?;
        inputs
            .push(input_of(&n, w).ok_or_else(|| setup(format!("input {n} is not a port of TOP")))?);
    }
    // the top's other ports: its outputs (every top port is probed as `TOP.x`)
    let outputs: Vec<Input> = decl
        .names
        .iter()
        .filter(|(n, _)| {
            n.strip_prefix("TOP.").is_some_and(|p| !p.contains('.'))
                && n != "TOP.clk_i"
                && n != "TOP.rst_ni"
                && !inputs
                    .iter()
                    .any(|i| n.strip_prefix("TOP.") == Some(&i.port_name()))
        })
        .filter_map(|(n, w)| input_of(n, *w))
        .collect();
    // Icarus 11.0 shows the top's unpacked-array ports X inside the top when the top passes
    // them whole to or from a submodule's port (the router's and the node's tops do): those
    // elements are not compared at the top; the submodule's ports, which carry the same
    // values, are.
    let passed_through = |n: &str| {
        let port = n
            .strip_prefix(&format!("TOP.{top}."))
            .or_else(|| n.strip_prefix("TOP."));
        port.is_some_and(|p| {
            outputs
                .iter()
                .chain(&inputs)
                .any(|o| o.idx.is_some() && o.port_name() == p)
        })
    };
    let compared: Vec<bool> = decl.names.iter().map(|(n, _)| !passed_through(n)).collect();
    let sigs: Vec<Signal> = decl
        .names
        .iter()
        .zip(&compared)
        .filter(|(_, &c)| c)
        .map(|((n, w), _)| {
            bench_name(n, top)
                .map(|bench| Signal {
                    name: n.clone(),
                    bench,
                    width: *w,
                })
                .ok_or_else(|| setup(format!("signal {n} is outside TOP")))
        })
        .collect::<Result<_, _>>()?;
    let srcs = rtl_sources(&rtl_dir()).map_err(setup)?;

    let dir = std::env::temp_dir().join(format!(
        "exanet-icarus-{}-{}-{}",
        d.top().name(),
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|t| t.as_nanos())
            .unwrap_or(0)
    ));
    let io = |what: &str, e: std::io::Error| run_err(format!("{what}: {e}"));
    std::fs::create_dir_all(&dir).map_err(|e| io(&dir.display().to_string(), e))?;
    let keep = |e: CosimError| match e {
        CosimError::Run(m) => CosimError::Run(format!("{m} (files kept in {})", dir.display())),
        other => other,
    };

    // 1. the model and its test bench
    let result = (|| {
        let create = |name: &str| {
            std::fs::File::create(dir.join(name))
                .map(BufWriter::new)
                .map_err(|e| io(name, e))
        };
        let (mut fin, mut fmodel) = (create("inputs.hex")?, create("model.hex")?);
        let mut fdep = create("deposits.hex")?;
        let mut deposit_names: Vec<String> = Vec::new();
        let mut sampler = Sampler::default();
        let mut line = String::new();
        let mut reset_before = false;
        let mut ndep = 0;
        for c in 0..opts.cycles {
            line.clear();
            line.push(if reset_before { '1' } else { '0' });
            let _ = write!(line, " {ndep:x}");
            for (v, i) in d.input_values().iter().zip(&inputs) {
                let _ = write!(line, " {v:0n$x}", n = digits(i.width));
            }
            writeln!(fin, "{line}").map_err(|e| io("inputs.hex", e))?;
            d.step();
            if opts.fault_at == Some(c) {
                d.inject_fault();
            }
            sampler.clear();
            sampler.clk = true;
            d.probe(true, &mut sampler);
            line.clear();
            let values = sampler.values.iter().zip(&compared).filter(|(_, &c)| c);
            for (k, ((v, _), g)) in values.zip(&sigs).enumerate() {
                let sep = if k == 0 { "" } else { " " };
                let _ = write!(line, "{sep}{v:0n$x}", n = digits(g.width));
            }
            writeln!(fmodel, "{line}").map_err(|e| io("model.hex", e))?;
            d.check()
                .map_err(|e| run_err(format!("cycle {c}: the test bench's check failed: {e}")))?;
            d.between_cycles();
            reset_before = d.reset_now();
            let deposits = d.deposits();
            ndep = deposits.len();
            for (name, v) in deposits {
                let k = match deposit_names.iter().position(|n| *n == name) {
                    Some(k) => k,
                    None => {
                        deposit_names.push(name);
                        deposit_names.len() - 1
                    }
                };
                writeln!(fdep, "{k:x} {v:08x}").map_err(|e| io("deposits.hex", e))?;
            }
            opts.progress.every(c, PROGRESS_BATCH);
        }
        fin.flush().map_err(|e| io("inputs.hex", e))?;
        fdep.flush().map_err(|e| io("deposits.hex", e))?;
        let deposit_targets = deposit_names
            .iter()
            .map(|n| bench_name(n, top).ok_or_else(|| setup(format!("counter {n} is outside TOP"))))
            .collect::<Result<Vec<_>, _>>()?;
        fmodel.flush().map_err(|e| io("model.hex", e))?;

        // 2. the RTL under Icarus
        std::fs::write(
            dir.join("replay_tb.sv"),
            bench_source(top, &inputs, &outputs, &sigs, &deposit_targets, opts.cycles),
        )
        .map_err(|e| io("replay_tb.sv", e))?;
        let out = Command::new("iverilog")
            .current_dir(&dir)
            .args(["-g2012", "-o", "replay.vvp", "-s", "exanet_icarus_replay"])
            .args(&srcs)
            .arg("replay_tb.sv")
            .output()
            .map_err(|e| io("iverilog", e))?;
        if !out.status.success() {
            return Err(run_err(format!(
                "iverilog failed to compile the RTL:\n{}",
                String::from_utf8_lossy(&out.stderr)
            )));
        }
        let out = Command::new("vvp")
            .current_dir(&dir)
            .args(["-n", "replay.vvp"])
            .output()
            .map_err(|e| io("vvp", e))?;
        let stdout = String::from_utf8_lossy(&out.stdout);
        if !out.status.success() || !stdout.contains(&format!("DONE {}", opts.cycles)) {
            return Err(run_err(format!(
                "vvp did not finish the replay:\n{stdout}{}",
                String::from_utf8_lossy(&out.stderr)
            )));
        }

        // 3. the comparison
        compare(&dir.join("model.hex"), &dir.join("icarus.hex"), &sigs)
    })();
    match result {
        Ok(()) => {
            let _ = std::fs::remove_dir_all(&dir);
            Ok(CosimReport {
                rtl_top: d.top().name(),
                cycles: opts.cycles,
                signals_compared: sigs.len(),
                stats: d.stats(),
                vcd: None,
                view: None,
                coverage: None,
            })
        }
        // a run that failed keeps its files and names them; a mismatch names its cycle and
        // signal, which the waves of a re-run show, and leaves nothing behind
        Err(e @ CosimError::Run(_)) => Err(keep(e)),
        Err(e) => {
            let _ = std::fs::remove_dir_all(&dir);
            Err(e)
        }
    }
}

/// The first line where `model` and `icarus` differ, as a [`Mismatch`].
fn compare(model: &Path, icarus: &Path, sigs: &[Signal]) -> Result<(), CosimError> {
    let open = |p: &Path| {
        std::fs::File::open(p)
            .map(BufReader::new)
            .map_err(|e| CosimError::Run(format!("{}: {e}", p.display())))
    };
    let (m, r) = (open(model)?, open(icarus)?);
    let mut rl = r.lines();
    for (c, ml) in m.lines().enumerate() {
        let ml = ml.map_err(|e| CosimError::Run(format!("model.hex: {e}")))?;
        let Some(il) = rl.next() else {
            return Err(CosimError::Run(format!("icarus.hex ends before cycle {c}")));
        };
        let il = il.map_err(|e| CosimError::Run(format!("icarus.hex: {e}")))?;
        if ml == il {
            continue;
        }
        let (mf, rf): (Vec<&str>, Vec<&str>) = (ml.split(' ').collect(), il.split(' ').collect());
        if rf.len() != sigs.len() {
            return Err(CosimError::Run(format!(
                "icarus.hex: cycle {c}: {} values for {} signals",
                rf.len(),
                sigs.len()
            )));
        }
        for (k, g) in sigs.iter().enumerate() {
            if mf[k] != rf[k] {
                let show = |v: &str| match u128::from_str_radix(v, 16) {
                    Ok(n) => format!("0x{n:x}"),
                    Err(_) => v.to_string(),
                };
                return Err(CosimError::Mismatch(Mismatch {
                    cycle: c as u64,
                    signal: g.name.clone(),
                    model: show(mf[k]),
                    rtl: show(rf[k]),
                }));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_map_into_the_bench_and_outside_names_do_not() {
        let t = "exanet_link_top";
        assert_eq!(
            bench_name("TOP.exanet_link_top.u_a.gen_rx[0].u_fifo.u_hf.wr_ptr_q", t).as_deref(),
            Some("dut.u_a.gen_rx[0].u_fifo.u_hf.wr_ptr_q")
        );
        assert_eq!(
            bench_name("TOP.a_tx_wr_hf_i", t).as_deref(),
            Some("tb_a_tx_wr_hf_i")
        );
        assert_eq!(bench_name("TOP.clk_i", t).as_deref(), Some("clk_i"));
        assert_eq!(bench_name("other.x", t), None);
        let i = input_of("TOP.intra_wdata_i[2]", 128).unwrap();
        assert_eq!(
            (i.port.as_str(), i.idx, i.width),
            ("intra_wdata_i", Some(2), 128)
        );
        let i = input_of("TOP.cfg_tred_i", 16).unwrap();
        assert_eq!((i.port.as_str(), i.idx), ("cfg_tred_i", None));
        assert!(input_of("TOP.x_i[a]", 1).is_none());
    }

    #[test]
    fn the_package_defining_the_comb_keyword_comes_first() {
        let srcs = rtl_sources(&rtl_dir()).unwrap();
        let names: Vec<String> = srcs
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names[0], "exanet_base_pkg.sv");
        let first_module = names.iter().position(|n| !n.ends_with("_pkg.sv")).unwrap();
        assert!(names[first_module..]
            .iter()
            .all(|n| !n.ends_with("_pkg.sv")));
        assert!(names.iter().all(|n| n.starts_with("exanet_")));
    }

    #[test]
    fn digits_are_those_icarus_prints() {
        assert_eq!(digits(1), 1);
        assert_eq!(digits(4), 1);
        assert_eq!(digits(5), 2);
        assert_eq!(digits(128), 32);
    }
}
