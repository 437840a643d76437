//! The `exanet` command line: its arguments (clap) and which subcommand each runs. Every
//! measurement prints a table, or JSON with `--json` (fields documented in docs/cli.md). Bad
//! input exits with status 2 and a message naming what is wrong.
//!
//! The binary (`src/main.rs`) parses the process's arguments with [`Cli`] and runs them with
//! [`execute`]; the Python module (python/, `cli::embed`) parses the arguments its functions
//! build with the same [`Cli`], so that a value is refused by the same code either way.

use crate::cli;
use crate::cli::CliError;
use crate::config::CreditFlavour;
use crate::config_set::Assignment;
use crate::cosim::lockstep::{Simulator, Stimulus};
use crate::karma::pingpong::Backend;
use crate::karma::software::Mode;
use crate::wave::WaveFormat;
use clap::builder::PossibleValuesParser;
use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;

use crate::spec::{PatternSpec, RoutingSpec, SizeDist, TopologySpec};

/// The names of `bench network`'s cases.
const BENCH_CASES: [&str; 4] = [
    crate::net::bench::CASES[0].name,
    crate::net::bench::CASES[1].name,
    crate::net::bench::CASES[2].name,
    crate::net::bench::CASES[3].name,
];

#[derive(Parser)]
#[command(
    name = "exanet",
    version,
    about = "Cycle-accurate model of the ExaNet network IP (APErouter, APElink, APEphy) with lockstep Verilator co-simulation"
)]
pub struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Args, Clone)]
struct Common {
    /// Configuration file (.toml or .json); defaults are the thesis's hardware.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Print machine-readable JSON instead of a table.
    #[arg(long)]
    json: bool,
    /// Change one configuration field, as in the file: `--set link.num_vcs=4` (repeatable;
    /// applied in order on top of --config, then validated like the file).
    #[arg(long = "set", value_name = "SECTION.KEY=VALUE")]
    set: Vec<Assignment>,
}

/// Threads of a network run.
#[derive(Args, Clone)]
struct Threads {
    /// Threads stepping the network's partitions, 1 to 1024 (replaces net.threads; its default
    /// 0 uses the cores available). The results do not depend on it.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
}

/// The seed of a run's random generators.
#[derive(Args, Clone)]
struct Seed {
    /// Seed of every random generator: traffic, bit errors, mappings, faults (replaces
    /// sim.seed; 0 to 2^63-1).
    #[arg(long, value_parser = parse_seed)]
    seed: Option<u64>,
}

/// A table written as CSV too, with the fields of the JSON rows.
#[derive(Args, Clone)]
struct CsvOut {
    /// Also write the table as CSV (same fields as the JSON rows).
    #[arg(long, value_name = "FILE.csv")]
    csv: Option<PathBuf>,
}

/// The ranks' timeline of an application run, written for trace viewers.
#[derive(Args, Clone)]
struct TimelineOut {
    /// Write the ranks' timeline as a Paraver trace, DIR/ranks.prv, ranks.pcf, ranks.row, and
    /// the network view, DIR/network.prv, .pcf, .row (the directory is made when missing).
    #[arg(long, value_name = "DIR")]
    paraver: Option<PathBuf>,
    /// Write the ranks' timeline as a Chrome/Perfetto trace (JSON for ui.perfetto.dev or
    /// chrome://tracing).
    #[arg(long, value_name = "FILE.json")]
    perfetto: Option<PathBuf>,
    /// The network view (DIR/network.*): words a backlog state, 1 to 65536 [default: 16].
    #[arg(long, value_name = "WORDS", requires = "paraver")]
    paraver_quantum: Option<u32>,
    /// The network view: count a port's backlog at the port its words came in by (input) or
    /// leave by (output) [default: input].
    #[arg(long, value_enum, requires = "paraver")]
    paraver_backlog: Option<crate::timeline::network::Backlog>,
}

impl TimelineOut {
    fn args(&self) -> cli::app::TimelineArgs<'_> {
        let d = crate::timeline::network::NetViewParams::default();
        cli::app::TimelineArgs {
            paraver: self.paraver.as_deref(),
            perfetto: self.perfetto.as_deref(),
            net_view: crate::timeline::network::NetViewParams {
                quantum_words: self.paraver_quantum.unwrap_or(d.quantum_words),
                backlog: self.paraver_backlog.unwrap_or(d.backlog),
            },
        }
    }
}

/// A design with a Verilated top to co-simulate.
#[derive(Clone, Copy, ValueEnum)]
enum Design {
    Link,
    Router,
    Node,
    /// A Verilated network (testbench/networks.rs: torus:4x4, torus:4x2x2, mesh:2x2, as
    /// net.topology) beside the network engine.
    Network,
}

fn name<T: ValueEnum>(v: T) -> String {
    v.to_possible_value()
        .expect("no variant is skipped")
        .get_name()
        .to_string()
}

#[derive(Subcommand)]
enum Cmd {
    /// The link demonstration: hop latency, efficiency table and a VCD of a few packets.
    Demo {
        #[command(flatten)]
        common: Common,
        /// Where to write the waves [default: waves/out/demo.vcd, or .fst with --wave-format fst].
        #[arg(long, value_name = "FILE")]
        vcd: Option<PathBuf>,
        /// Format of the waves.
        #[arg(long, value_enum, default_value_t = WaveFormat::Vcd)]
        wave_format: WaveFormat,
    },
    /// APElink measurements.
    Link {
        #[command(subcommand)]
        cmd: LinkCmd,
    },
    /// APErouter measurements.
    Router {
        #[command(subcommand)]
        cmd: RouterCmd,
    },
    /// The KARMA test bed: four nodes in a 2x2 mesh driven by emulated ARM processors.
    Karma {
        #[command(subcommand)]
        cmd: KarmaCmd,
    },
    /// Network-scale simulation: topologies, routing algorithms.
    Network {
        #[command(subcommand)]
        cmd: NetworkCmd,
    },
    /// Applications on the network: SPMD programs (MPI-like), collectives, DPSNN.
    App {
        #[command(subcommand)]
        cmd: AppCmd,
    },
    /// Analytic models beside the simulation.
    Model {
        #[command(subcommand)]
        cmd: ModelCmd,
    },
    /// Run the model and the Verilated RTL in lockstep and compare every cycle.
    Cosim {
        #[command(flatten)]
        common: Common,
        /// Design to co-simulate.
        #[arg(long, value_enum)]
        design: Design,
        /// Cycles to simulate.
        #[arg(long, default_value_t = 100_000)]
        cycles: u64,
        /// Seed of the random stimulus and bit errors (default: the configuration's sim.seed).
        #[arg(long, value_parser = parse_seed)]
        seed: Option<u64>,
        /// Bit error rate on every lane.
        #[arg(long)]
        ber: Option<f64>,
        /// Credit flavour.
        #[arg(long, value_enum)]
        credit: Option<CreditFlavour>,
        /// Write model.vcd and rtl.vcd (model.fst and rtl.fst with --wave-format fst) into
        /// this directory.
        #[arg(long, value_name = "DIR")]
        vcd_dir: Option<PathBuf>,
        /// Format of the waves written into --vcd-dir.
        #[arg(long, value_enum, default_value_t = WaveFormat::Vcd, requires = "vcd_dir")]
        wave_format: WaveFormat,
        /// Write the waves from this cycle on (the comparison still covers every cycle).
        #[arg(long, value_name = "CYCLE", requires = "vcd_dir")]
        from: Option<u64>,
        /// Write the waves up to this cycle, not included [default: --cycles].
        #[arg(long, value_name = "CYCLE", requires = "vcd_dir")]
        to: Option<u64>,
        /// Write only the signals under this scope (dotted scope names matched as whole
        /// components anywhere in a signal's path, e.g. u_router.gen_in[0]; repeatable; the
        /// top's ports are always written), on both sides.
        #[arg(long, value_name = "SCOPE", requires = "vcd_dir")]
        scope: Vec<String>,
        /// Simulator of the RTL: Verilator (linked in, true lockstep, waves) or Icarus
        /// Verilog (iverilog on PATH: the same inputs replayed, every signal compared after
        /// every rising edge, no waves).
        #[arg(long, value_enum, default_value_t = Simulator::Verilator)]
        simulator: Simulator,
        /// Structure of the router and node (--design router|node): KARMA's 3x2 router of a
        /// 2x2 mesh (the configuration's defaults), or a network node's, each Verilated at it
        /// (testbench/shapes.rs): sets router.intra_ports, router.inter_ports, router.dims,
        /// link.num_vcs and the node's place in its torus. Without it the configuration's
        /// structure must be one of them.
        #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(crate::cosim::shapes::names()))]
        shape: Option<String>,
        /// --design network: run this SPMD program's ranks (one on every node, as `app run`
        /// places them linearly) instead of the configured traffic.
        #[arg(long, value_enum)]
        app: Option<crate::app::programs::Example>,
        /// --design network --app: message bytes, at most 1 MiB.
        #[arg(long, default_value_t = 1024, requires = "app", value_parser = clap::value_parser!(u64).range(0..=1 << 20))]
        app_bytes: u64,
        /// Measure the RTL's toggle, FSM and register-map coverage of this run and write it
        /// here (JSON, a .json name; merge runs with `exanet coverage`). Verilator only.
        #[arg(long, value_name = "FILE")]
        coverage: Option<PathBuf>,
        /// The test bench's stimulus (--design link, router, node): constrained random
        /// (every packet type and field corner, MAGIC and START in payloads, link settings
        /// changed, the router moved and its ports disabled, the node's whole register map),
        /// or the narrower plain one.
        #[arg(long, value_enum, default_value_t = Stimulus::Constrained)]
        stimulus: Stimulus,
    },
    /// Merge lockstep coverage files (cosim --coverage, the test command's) by Verilated top
    /// and print toggle, FSM-arc and register-map coverage against testbench/coverage.toml.
    Coverage {
        /// Coverage files, of any tops.
        #[arg(required_unless_present = "campaign")]
        files: Vec<PathBuf>,
        /// Also run the campaign of testbench/coverage.toml (the test command's lockstep runs
        /// on the Verilated RTL) and merge its coverage with the files.
        #[arg(long)]
        campaign: bool,
        /// Write the merged coverage of each top into DIR/<top>.json.
        #[arg(long, value_name = "DIR")]
        out_dir: Option<PathBuf>,
        /// Untoggled signals listed per top.
        #[arg(long, default_value_t = 20)]
        untoggled: usize,
        /// Exit 1 when a top is below its floor (testbench/coverage.toml) or a floored top
        /// has no run.
        #[arg(long)]
        check: bool,
        /// Print the figures as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Compare two wave files (VCD or FST, in any pairing) signal by signal, by name.
    WaveDiff {
        a: PathBuf,
        b: PathBuf,
        /// Signals present in one file only make the files differ.
        #[arg(long)]
        strict: bool,
        /// List the signals present in one file only (else only their count is printed).
        #[arg(long)]
        verbose: bool,
    },
    /// GTKWave translate filter process: decodes one value per stdin line (header, footer or beat).
    WaveFilter {
        /// What the values are: header, footer or beat.
        kind: String,
    },
    /// Write the GTKWave translate filter files of the enumerated registers (state names).
    WaveTranslate {
        /// Directory to write one `<table>.txt` per enumerated register into.
        #[arg(long, value_name = "DIR", default_value = "waves/translate")]
        out: PathBuf,
    },
    /// Configuration files.
    Config {
        /// Print the configuration (defaults, or --config with --set applied) as TOML, every
        /// field with its meaning, unit and valid range.
        #[arg(long)]
        print: bool,
        /// Configuration file to print instead of the defaults.
        #[arg(long, value_name = "FILE")]
        config: Option<PathBuf>,
        /// Change one field before printing (repeatable).
        #[arg(long = "set", value_name = "SECTION.KEY=VALUE")]
        set: Vec<Assignment>,
    },
    /// Shell completion script for exanet, on stdout.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Simulation speed benchmarks.
    Bench {
        #[command(subcommand)]
        cmd: BenchCmd,
    },
}

#[derive(Subcommand)]
enum LinkCmd {
    /// Hop latency: header into the sender's TX FIFO to header into the receiver's RX FIFO.
    Latency {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        out: CsvOut,
    },
    /// Protocol efficiency under saturating traffic, against the formula and Table 5.4.
    Efficiency {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        out: CsvOut,
        /// Credit flavour; default from the configuration.
        #[arg(long, value_enum)]
        credit: Option<CreditFlavour>,
        /// Payload sizes in bytes, comma separated.
        #[arg(
            long,
            value_delimiter = ',',
            default_value = "16,32,64,128,256,512,1024,2048,4096"
        )]
        payload: Vec<String>,
    },
    /// Delivered bandwidth under saturating traffic.
    Bandwidth {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        out: CsvOut,
        /// Payload size in bytes.
        #[arg(long, default_value = "512")]
        payload: String,
    },
}

#[derive(Subcommand)]
enum RouterCmd {
    /// Latency of the four paths: header into the input FIFO to header into the output FIFO.
    Latency {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        out: CsvOut,
    },
    /// Self-test bandwidth: traffic generators on 1 or 2 intra-tile ports to one target port.
    Bandwidth {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        out: CsvOut,
        /// Payload sizes in bytes, comma separated.
        #[arg(
            long,
            value_delimiter = ',',
            default_value = "16,32,64,128,256,512,1024,2048,4096"
        )]
        payload: Vec<String>,
        /// Sending intra-tile ports (default: both cases).
        #[arg(long, value_parser = PossibleValuesParser::new(["1", "2"]))]
        intra_ports: Option<String>,
    },
    /// Channel dependency graph of the routing function on a torus or mesh.
    Cdg {
        #[command(flatten)]
        common: Common,
        /// torus:AxB[xC] or mesh:AxB[xC].
        #[arg(long)]
        topology: TopologySpec,
        /// Route every packet on VC 0 (no VC rule).
        #[arg(long)]
        no_vc_rule: bool,
    },
}

#[derive(Subcommand)]
enum KarmaCmd {
    /// Ping-pong latency between node (0,0) and a node 1 or 2 hops away (the main job).
    Pingpong {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        seed: Seed,
        #[command(flatten)]
        out: CsvOut,
        /// Hops (default: both).
        #[arg(long, value_parser = PossibleValuesParser::new(["1", "2"]))]
        hops: Option<String>,
        /// The ping-pong software.
        #[arg(long, value_enum, default_value = "user")]
        mode: Mode,
        /// Payload sizes in bytes, comma separated.
        #[arg(
            long,
            value_delimiter = ',',
            default_value = "16,32,64,128,256,512,1024,2048,4096"
        )]
        sizes: Vec<String>,
        /// Round trips per size (they sweep the polling phase evenly: docs/karma.md).
        #[arg(long, default_value_t = 16)]
        iterations: u32,
        /// What simulates the nodes.
        #[arg(long, value_enum, default_value = "model")]
        backend: Backend,
        /// Bit error rate on every lane.
        #[arg(long)]
        ber: Option<f64>,
        /// Write a plot of round-trip time against payload size (SVG).
        #[arg(long, value_name = "FILE")]
        plot: Option<PathBuf>,
        /// Write the waves of the first round trip to this VCD file.
        #[arg(long, value_name = "FILE")]
        vcd: Option<PathBuf>,
        /// Format of the --vcd file.
        #[arg(long, value_enum, default_value_t = WaveFormat::Vcd, requires = "vcd")]
        wave_format: WaveFormat,
    },
    /// Router and link bandwidth measured by the nodes' self-test IPs on the mesh.
    Selftest {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        out: CsvOut,
        /// Payload sizes in bytes, comma separated.
        #[arg(long, value_delimiter = ',', default_value = "128,512,2048")]
        payload: Vec<String>,
        /// What simulates the nodes.
        #[arg(long, value_enum, default_value = "model")]
        backend: Backend,
    },
}

// parsed once per process: the size of the largest variant costs nothing
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
enum NetworkCmd {
    /// Channel dependency graph of a routing algorithm on a topology: acyclic, or a cycle.
    Cdg {
        /// torus:AxB[xC], mesh:AxB[xC], dragonfly:p=P,a=A,h=H[,g=G], exanest:PRESET.
        #[arg(long)]
        topology: TopologySpec,
        /// ecube (the APErouter's, RTL-backed), ecube-dateline, star-channel, min-adapt,
        /// smart-dor (tori and meshes), min (dragonflies), updown (any).
        #[arg(long, value_enum)]
        routing: RoutingSpec,
        /// Without the extra VC deadlock freedom rests on (ecube: its second VC; min: the
        /// local VC of packets from another group).
        #[arg(long)]
        no_extra_vc: bool,
        /// Print machine-readable JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Load sweep: accepted traffic and latency against applied load (the CNF pair).
    Sweep {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        threads: Threads,
        /// Topology (repeat to overlay several; pairs with --routing by position).
        #[arg(long)]
        topology: Vec<TopologySpec>,
        /// Routing algorithm (repeat to overlay several).
        #[arg(long, value_enum)]
        routing: Vec<RoutingSpec>,
        /// Applied loads: a list 0.05,0.2 or a range start:stop:step [default: 0.05:0.5:0.05].
        #[arg(long)]
        loads: Option<String>,
        /// Vary a configuration field: a curve per value, `--vary
        /// link.credit.period_cycles=20,35,50` (repeatable: every combination; net.load=L is
        /// --loads L).
        #[arg(long, value_name = "SECTION.KEY=V1,V2,...")]
        vary: Vec<String>,
        /// Payload bytes: 64, or 16:256 for uniformly random sizes.
        #[arg(long)]
        size: Option<SizeDist>,
        /// Destination pattern (default uniform, or the configuration's).
        #[arg(long)]
        pattern: Option<PatternSpec>,
        /// Seed of every random generator.
        #[arg(long, value_parser = parse_seed)]
        seed: Option<u64>,
        /// Repeat every point over these seeds (1..5 or 1,2,7) and report the mean and its 95 %
        /// confidence interval.
        #[arg(long, value_name = "LIST")]
        seeds: Option<String>,
        /// Run independent points on N threads (the output does not depend on N).
        #[arg(long, value_name = "N", default_value_t = 1)]
        jobs: usize,
        /// Write the points as CSV (same fields as the JSON points).
        #[arg(long, value_name = "FILE.csv")]
        csv: Option<PathBuf>,
        /// Write the CNF plot (SVG).
        #[arg(long, value_name = "FILE.svg")]
        plot: Option<PathBuf>,
        /// Write one CSV line per delivered packet.
        #[arg(long, value_name = "FILE.csv")]
        packets: Option<PathBuf>,
        /// Instead of the loads, find each curve's saturation throughput: bisection on the
        /// offered load, over the seeds, to --resolution (docs/network.md).
        #[arg(long)]
        saturation: bool,
        /// Load step of the saturation search [default: 0.01].
        #[arg(long, value_name = "LOAD")]
        resolution: Option<f64>,
        /// Run only part K of N of the points (point k when k mod N = K: one task of a batch
        /// system's job array) and write what they gave into --parts-dir; the same command with
        /// --join DIR then writes the results, identical to the one-process sweep's.
        #[arg(long, value_name = "K/N", requires = "parts_dir")]
        part: Option<String>,
        /// The folder of --part's file (part-K-of-N.json).
        #[arg(long, value_name = "DIR", requires = "part")]
        parts_dir: Option<PathBuf>,
        /// Write the results of the parts in DIR (every part-K-of-N.json of one N), as the
        /// one-process sweep writes them.
        #[arg(long, value_name = "DIR", conflicts_with = "part")]
        join: Option<PathBuf>,
        /// Under mpirun: run each point on a group of G ranks with the MPI engine (a large
        /// network's point), the groups sharing the points; G divides the ranks [default: 1].
        #[arg(long, value_name = "G", value_parser = clap::value_parser!(u32).range(1..=65536))]
        ranks_per_point: Option<u32>,
    },
    /// Accepted traffic and latency against the number of failed links: for each count, the
    /// configuration's network with that many links (drawn from each seed) failed, over the
    /// seeds (docs/validation.md, "Network with failed links").
    Faults {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        threads: Threads,
        #[command(flatten)]
        out: CsvOut,
        /// Counts of failed links.
        #[arg(long, default_value = "0,1,2,4,8", value_name = "LIST")]
        links: String,
        /// Seeds of every count (1..3 or 1,2,7).
        #[arg(long, default_value = "1..3", value_name = "LIST")]
        seeds: String,
        /// The cycle the links fail at (for good).
        #[arg(long, default_value_t = 1, value_name = "CYCLE")]
        at: u64,
        /// Run independent runs on N threads (the output does not depend on N).
        #[arg(long, value_name = "N", default_value_t = 1)]
        jobs: usize,
        /// Write the plot (SVG): accepted traffic and latency against the failed links.
        #[arg(long, value_name = "FILE.svg")]
        plot: Option<PathBuf>,
    },
    /// One run of a configuration file's [net] section: its statistics.
    Run {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        threads: Threads,
        #[command(flatten)]
        seed: Seed,
        #[command(flatten)]
        out: CsvOut,
        /// Topology (replaces net.topology).
        #[arg(long)]
        topology: Option<TopologySpec>,
        /// Routing algorithm (replaces net.routing).
        #[arg(long, value_enum)]
        routing: Option<RoutingSpec>,
        /// Applied load, a fraction of the injection bandwidth (replaces net.load).
        #[arg(long)]
        load: Option<f64>,
        /// Write one CSV line per delivered packet.
        #[arg(long, value_name = "FILE.csv")]
        packets: Option<PathBuf>,
        /// Latency and delivered traffic against time, in bins of this many delivery cycles
        /// (a transient: a link failing and recovering).
        #[arg(long, value_name = "CYCLES")]
        latency_bin: Option<u64>,
        /// Write latency and delivered traffic against time (SVG; needs --latency-bin).
        #[arg(long, value_name = "FILE.svg")]
        latency_plot: Option<PathBuf>,
        /// Write the network's state as one self-contained HTML page: the topology, links
        /// coloured by utilisation and routers by buffer occupancy, a slider over snapshots,
        /// the per-port counters.
        #[arg(long, value_name = "FILE.html")]
        report: Option<PathBuf>,
        /// Cycles between two snapshots of the report.
        #[arg(long, value_name = "CYCLES", default_value_t = 500)]
        report_every: u64,
        /// Write per-channel figures (each direction of each link: packets, words, utilisation,
        /// credit stalls, credits, losses) as CSV; with --json they are in the JSON too.
        #[arg(long, value_name = "FILE.csv")]
        channels: Option<PathBuf>,
    },
    /// Co-simulation server (Minkenberg and Rodriguez 2008 §4.1): task simulators connect over TCP and hand it their
    /// messages (the line protocol: docs/applications.md); one session, then it exits.
    Serve {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        seed: Seed,
        /// Address to listen on, loopback only (port 0: any free port; the address is printed
        /// on standard error).
        #[arg(long, default_value = "127.0.0.1:0")]
        listen: String,
        /// Clients of the session (each owns whole endpoints' ranks).
        #[arg(long, default_value_t = 1)]
        clients: usize,
        /// Ranks of the session.
        #[arg(long)]
        ranks: u32,
        /// Topology (replaces net.topology).
        #[arg(long)]
        topology: Option<TopologySpec>,
        /// Routing algorithm (replaces net.routing).
        #[arg(long, value_enum)]
        routing: Option<RoutingSpec>,
        /// Ranks on endpoints: linear, random, random:SEED, file:PATH.
        #[arg(long, default_value = "linear")]
        mapping: String,
        /// Seconds to wait for a client to connect or to answer before ending the session.
        #[arg(long, default_value_t = 60.0)]
        timeout_s: f64,
        /// Write the session's token (which every client's HELLO must give) into this file,
        /// readable by its owner only, instead of printing it on standard error.
        #[arg(long)]
        token_file: Option<PathBuf>,
    },
}

#[derive(Subcommand)]
enum ModelCmd {
    /// Safaei et al.'s M/G/1 mean-latency model of a 2-D torus with V virtual channels and fully
    /// adaptive routing, with the zero-load latency and ideal throughput of the ExaNet network.
    Latency {
        #[command(flatten)]
        common: Common,
        /// A square 2-D torus, torus:KxK (K even).
        #[arg(long)]
        topology: TopologySpec,
        /// Virtual channels a physical channel.
        #[arg(long, default_value_t = 1)]
        vcs: u32,
        /// Message length, flits.
        #[arg(long, default_value_t = 32)]
        size: u32,
        /// Scouting distance K (0: wormhole switching).
        #[arg(long, default_value_t = 0)]
        scouting: u32,
        /// Generation rates, messages a cycle a node (a list) [default: 20 up to the
        /// saturation].
        #[arg(long, value_name = "LIST")]
        rates: Option<String>,
        /// Also run the matching simulations (min-adapt over V VCs, packets of M 16-byte
        /// words) at the same channel utilisations and compare latency over zero-load latency.
        #[arg(long)]
        against_sim: bool,
        /// Seeds of every simulated point (with --against-sim).
        #[arg(long, default_value = "1..3", value_name = "LIST")]
        seeds: String,
        /// Run independent simulations on N threads (the output does not depend on N).
        #[arg(long, value_name = "N", default_value_t = 1)]
        jobs: usize,
        /// Write the comparison's plot (SVG; with --against-sim).
        #[arg(long, value_name = "FILE.svg")]
        plot: Option<PathBuf>,
    },
}

#[derive(Subcommand)]
enum AppCmd {
    /// Run a shipped example program on the network of [net] (or --topology/--routing).
    Run {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        threads: Threads,
        #[command(flatten)]
        seed: Seed,
        #[command(flatten)]
        out: CsvOut,
        #[command(flatten)]
        timeline: TimelineOut,
        /// The program.
        #[arg(value_enum)]
        example: crate::app::programs::Example,
        /// Topology (replaces net.topology).
        #[arg(long)]
        topology: Option<TopologySpec>,
        /// Routing algorithm (replaces net.routing).
        #[arg(long, value_enum)]
        routing: Option<RoutingSpec>,
        /// Ranks [default: 2 for pingpong, 4 for ring, one per endpoint otherwise].
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1_048_576))]
        ranks: Option<u32>,
        /// Ranks on endpoints: linear, random (seeded from sim.seed), random:SEED, or
        /// file:PATH (one endpoint per line).
        #[arg(long, default_value = "linear")]
        mapping: String,
        /// Message bytes, at most 16 MiB.
        #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(0..=16 << 20))]
        bytes: u64,
        /// Iterations (round trips, exchanges), 1 to 100,000.
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=100_000))]
        iterations: u32,
    },
    /// Replay an MPI trace (SimGrid time-independent, or OTF2 as Score-P writes it) on the
    /// network: predicted run time, per-rank compute / communication / wait time, message and
    /// packet statistics.
    Replay {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        threads: Threads,
        #[command(flatten)]
        seed: Seed,
        #[command(flatten)]
        out: CsvOut,
        #[command(flatten)]
        timeline: TimelineOut,
        /// The trace's format.
        #[arg(long, value_enum, default_value_t = crate::cli::app::TraceFormat::Simgrid)]
        format: crate::cli::app::TraceFormat,
        /// The trace (SimGrid: the index file smpirun writes, or a one-file trace; OTF2: the
        /// anchor file, `traces.otf2`).
        trace: PathBuf,
        /// Topology (replaces net.topology).
        #[arg(long)]
        topology: Option<TopologySpec>,
        /// Routing algorithm (replaces net.routing).
        #[arg(long, value_enum)]
        routing: Option<RoutingSpec>,
        /// Ranks on endpoints: linear, random, random:SEED, file:PATH.
        #[arg(long, default_value = "linear")]
        mapping: String,
        /// The speed the trace's computing amounts were measured at, flop/s (SimGrid's
        /// smpi/host-speed; its default is 20000). An OTF2 trace's computing is time: unused.
        #[arg(long, default_value_t = 20000.0)]
        flops_per_second: f64,
    },
    /// The DPSNN cortical simulation (Pisani 2016 Ch. 3) on the network: from a spike trace file, or
    /// a trace generated from the connectivity model.
    Dpsnn {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        threads: Threads,
        #[command(flatten)]
        seed: Seed,
        #[command(flatten)]
        timeline: TimelineOut,
        /// Write each rank's cycles per state as CSV.
        #[arg(long, value_name = "FILE.csv")]
        csv: Option<PathBuf>,
        /// Write packet latency against time (SVG).
        #[arg(long, value_name = "FILE.svg")]
        plot: Option<PathBuf>,
        /// A spike trace file (docs/applications.md gives the format).
        #[arg(long, value_name = "FILE")]
        trace: Option<PathBuf>,
        /// Also write the trace the run used.
        #[arg(long, value_name = "FILE")]
        write_trace: Option<PathBuf>,
        /// Generate the trace: columns on a grid, CxR (e.g. 16x18), seeded from sim.seed.
        #[arg(long, value_name = "CxR")]
        columns: Option<String>,
        /// Columns a process (generated traces) [default: the generator's].
        #[arg(long)]
        per_process: Option<usize>,
        /// Firing rate, Hz (generated traces) [default: the generator's].
        #[arg(long)]
        rate_hz: Option<f64>,
        /// Iterations, 1 ms of neural time each (generated traces) [default: the generator's].
        #[arg(long)]
        iterations: Option<usize>,
        /// Topology (replaces net.topology).
        #[arg(long)]
        topology: Option<TopologySpec>,
        /// Routing algorithm (replaces net.routing).
        #[arg(long, value_enum)]
        routing: Option<RoutingSpec>,
        /// Processes on endpoints: linear, random, random:SEED, file:PATH.
        #[arg(long, default_value = "linear")]
        mapping: String,
        /// The barrier: root, hierarchical (groups of 8) or hierarchical:G.
        #[arg(long, default_value = "root")]
        barrier: String,
        /// CALC's time for each spike a process receives, ns (docs/decisions/0019).
        #[arg(long, default_value_t = 1000.0)]
        calc_ns_per_spike: f64,
        /// Bins of packet latency against time, cycles.
        #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
        latency_bin_cycles: u64,
    },
}

#[derive(Subcommand)]
enum BenchCmd {
    /// Simulated cycles per second of the link: Rust model, Verilated RTL, lockstep.
    Link {
        #[command(flatten)]
        common: Common,
        /// Cycles per measurement.
        #[arg(long, default_value_t = 1_000_000)]
        cycles: u64,
    },
    /// Simulated cycles per second of the node under saturating self-test traffic: Rust model,
    /// Verilated RTL, lockstep.
    Node {
        #[command(flatten)]
        common: Common,
        /// Cycles per measurement.
        #[arg(long, default_value_t = 300_000)]
        cycles: u64,
    },
    /// Network engine: simulated node-cycles per CPU second and bytes of memory per node, for a
    /// 32x32 torus at 10 % and at saturating load, a 96x96 torus and the 1056-endpoint
    /// dragonfly at 30 % (each case in a child process of its own; under mpirun one --case,
    /// shared by the ranks).
    Network {
        #[command(flatten)]
        common: Common,
        /// Timed cycles of every case (default: the case's own, 4000; 1000 for torus96-10).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=crate::net::bench::MAX_CYCLES))]
        cycles: Option<u64>,
        /// Untimed warm-up cycles of every case (default: the case's own, 2000; 4000 for
        /// torus96-10).
        #[arg(long, value_parser = clap::value_parser!(u64).range(0..=crate::net::bench::MAX_CYCLES))]
        warmup: Option<u64>,
        /// Run only this case, in this process (under mpirun: shared by the ranks; required).
        #[arg(long, value_parser = PossibleValuesParser::new(BENCH_CASES))]
        case: Option<String>,
        /// Also run every case on N threads and report the wall-clock speed-up over one thread
        /// and the barrier's cost per window (2 to 1024).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(2..=1024), conflicts_with = "case")]
        threads: Option<u32>,
        /// With --threads: runs on 1 and on N threads, alternately; the fastest of each counts.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100), requires = "threads")]
        repeat: u32,
        /// Run every case (or --case) as `network run` on this build and on BINARY (another
        /// exanet build), one thread, alternately, --rounds times, and report the other's CPU
        /// time over this one's (the whole process's) and whether both gave the same statistics.
        #[arg(long, value_name = "BINARY", conflicts_with = "threads")]
        against: Option<std::path::PathBuf>,
        /// With --against: rounds of the two builds.
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=100), requires = "against")]
        rounds: u32,
    },
    /// The application layer: node-cycles per CPU second of a program against the same packets
    /// replayed as synthetic traffic, and bytes per rank (DPSNN 16x18, alltoall on 1,024 ranks,
    /// 65,536 ranks; each case in a child process of its own).
    App {
        #[command(flatten)]
        common: Common,
        /// Run only this case, in this process.
        #[arg(long, value_parser = PossibleValuesParser::new(["dpsnn16x18", "alltoall1024", "alltoall256", "ranks65536"]))]
        case: Option<String>,
        /// Runs of each kind (the fastest counts).
        #[arg(long, default_value_t = 3)]
        repeat: u32,
    },
    /// Trace replay: the replay of an all-to-all trace (1,024 ranks) against the SPMD program
    /// that sends the same messages, in CPU time, and the trace readers' seconds per million
    /// records (SimGrid TI; OTF2 too in a binary built with the feature `otf2`).
    Replay {
        #[command(flatten)]
        common: Common,
        /// Topology, a rank on every endpoint (replaces net.topology).
        #[arg(long, default_value = "torus:32x32")]
        topology: TopologySpec,
        /// Routing algorithm (replaces net.routing).
        #[arg(long, value_enum)]
        routing: Option<RoutingSpec>,
        /// Bytes of each all-to-all message, at most 1 MiB.
        #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(0..=1 << 20))]
        bytes: u64,
        /// Runs of each (program, replay), alternately; the fastest counts.
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=100))]
        repeat: u32,
        /// Records (and OTF2 events) each reader is timed on at least (a smaller trace is read
        /// again until then).
        #[arg(long, default_value_t = crate::app::replay::bench::MIN_RECORDS, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
        min_records: u64,
    },
}

/// Every subcommand with a configuration takes `--set`; it reaches `cli::load_config`.
fn common_of(cmd: &Cmd) -> Option<&Common> {
    Some(match cmd {
        Cmd::Demo { common, .. } | Cmd::Cosim { common, .. } => common,
        Cmd::Link { cmd } => match cmd {
            LinkCmd::Latency { common, .. }
            | LinkCmd::Efficiency { common, .. }
            | LinkCmd::Bandwidth { common, .. } => common,
        },
        Cmd::Router { cmd } => match cmd {
            RouterCmd::Latency { common, .. }
            | RouterCmd::Bandwidth { common, .. }
            | RouterCmd::Cdg { common, .. } => common,
        },
        Cmd::Karma { cmd } => match cmd {
            KarmaCmd::Pingpong { common, .. } | KarmaCmd::Selftest { common, .. } => common,
        },
        Cmd::Model { cmd } => match cmd {
            ModelCmd::Latency { common, .. } => common,
        },
        Cmd::Network { cmd } => match cmd {
            NetworkCmd::Sweep { common, .. }
            | NetworkCmd::Faults { common, .. }
            | NetworkCmd::Run { common, .. }
            | NetworkCmd::Serve { common, .. } => common,
            NetworkCmd::Cdg { .. } => return None,
        },
        Cmd::App { cmd } => match cmd {
            AppCmd::Run { common, .. }
            | AppCmd::Dpsnn { common, .. }
            | AppCmd::Replay { common, .. } => common,
        },
        Cmd::Bench { cmd } => match cmd {
            BenchCmd::Link { common, .. }
            | BenchCmd::Node { common, .. }
            | BenchCmd::Network { common, .. }
            | BenchCmd::App { common, .. }
            | BenchCmd::Replay { common, .. } => common,
        },
        Cmd::WaveDiff { .. }
        | Cmd::Coverage { .. }
        | Cmd::WaveFilter { .. }
        | Cmd::WaveTranslate { .. }
        | Cmd::Config { .. }
        | Cmd::Completions { .. } => return None,
    })
}

/// `--threads` of the network commands that take it.
fn threads_of(cmd: &Cmd) -> Option<u32> {
    match cmd {
        Cmd::Network {
            cmd:
                NetworkCmd::Sweep { threads, .. }
                | NetworkCmd::Faults { threads, .. }
                | NetworkCmd::Run { threads, .. },
        }
        | Cmd::App {
            cmd:
                AppCmd::Run { threads, .. }
                | AppCmd::Dpsnn { threads, .. }
                | AppCmd::Replay { threads, .. },
        } => threads.threads,
        _ => None,
    }
}

/// `--seed` of the commands that take it as `Seed` (the sweep and the co-simulation read their
/// own).
fn seed_of(cmd: &Cmd) -> Option<u64> {
    match cmd {
        Cmd::Network {
            cmd: NetworkCmd::Run { seed, .. } | NetworkCmd::Serve { seed, .. },
        }
        | Cmd::App {
            cmd: AppCmd::Run { seed, .. } | AppCmd::Dpsnn { seed, .. } | AppCmd::Replay { seed, .. },
        }
        | Cmd::Karma {
            cmd: KarmaCmd::Pingpong { seed, .. },
        } => seed.seed,
        _ => None,
    }
}

/// The configuration fields a command's own flags replace, as assignments after the `--set`s
/// (the flags win): `--threads`, `--seed`, and `network run`'s `--topology`, `--routing`,
/// `--load`.
fn flag_assignments(cmd: &Cmd) -> Vec<String> {
    let mut v = Vec::new();
    if let Some(n) = threads_of(cmd) {
        v.push(format!("net.threads={n}"));
    }
    if let Some(s) = seed_of(cmd) {
        v.push(format!("sim.seed={s}"));
    }
    if let Cmd::Network {
        cmd:
            NetworkCmd::Run {
                topology,
                routing,
                load,
                ..
            },
    } = cmd
    {
        if let Some(t) = topology {
            v.push(format!("net.topology={t}"));
        }
        if let Some(r) = routing {
            v.push(format!("net.routing={r}"));
        }
        if let Some(l) = load {
            v.push(format!("net.load={l}"));
        }
    }
    v
}

/// Runs a parsed command line: its `--set`s (and the flags that replace configuration fields)
/// recorded for `cli::load_config`, then the subcommand.
pub fn execute(args: Cli) -> Result<ExitCode, CliError> {
    match &args.cmd {
        Cmd::Config { set, .. } => cli::set_overrides(set),
        cmd => {
            if let Some(c) = common_of(cmd) {
                let mut sets = c.set.clone();
                // the flags after the `--set`s: the flag wins
                for a in flag_assignments(cmd) {
                    sets.push(a.parse().expect("a flag's value is a valid assignment"));
                }
                cli::set_overrides(&sets);
            }
        }
    }
    // under mpirun only `network run`, `network sweep` and `bench network` share their work
    // among the ranks (decisions 0027, 0029; a sweep its points: cli/sweep_parts.rs)
    let spreads = matches!(
        &args.cmd,
        Cmd::Network {
            cmd: NetworkCmd::Run { .. } | NetworkCmd::Sweep { .. }
        } | Cmd::Bench {
            cmd: BenchCmd::Network { .. }
        }
    );
    let gate = cli::in_one_process(spreads);
    let r = match args.cmd {
        _ if gate.is_err() => gate.map(|()| ExitCode::SUCCESS),
        Cmd::Demo {
            common,
            vcd,
            wave_format,
        } => cli::demo(
            common.config.as_deref(),
            common.json,
            vcd.as_deref(),
            wave_format,
        ),
        Cmd::Link { cmd } => match cmd {
            LinkCmd::Latency { common, out } => {
                cli::link_latency(common.config.as_deref(), common.json, out.csv.as_deref())
            }
            LinkCmd::Efficiency {
                common,
                out,
                credit,
                payload,
            } => cli::link_efficiency(
                common.config.as_deref(),
                common.json,
                out.csv.as_deref(),
                credit,
                &payload,
            ),
            LinkCmd::Bandwidth {
                common,
                out,
                payload,
            } => cli::link_bandwidth(
                common.config.as_deref(),
                common.json,
                out.csv.as_deref(),
                &payload,
            ),
        },
        Cmd::Router { cmd } => match cmd {
            RouterCmd::Latency { common, out } => {
                cli::router_latency(common.config.as_deref(), common.json, out.csv.as_deref())
            }
            RouterCmd::Bandwidth {
                common,
                out,
                payload,
                intra_ports,
            } => cli::router_bandwidth(
                common.config.as_deref(),
                common.json,
                out.csv.as_deref(),
                &payload,
                intra_ports.as_deref(),
            ),
            RouterCmd::Cdg {
                common,
                topology,
                no_vc_rule,
            } => cli::router_cdg(common.config.as_deref(), common.json, &topology, no_vc_rule),
        },
        Cmd::Model { cmd } => match cmd {
            ModelCmd::Latency {
                common,
                topology,
                vcs,
                size,
                scouting,
                rates,
                against_sim,
                seeds,
                jobs,
                plot,
            } => cli::model::latency(&cli::model::LatencyArgs {
                stray: if against_sim {
                    None
                } else if plot.is_some() {
                    Some("--plot")
                } else if seeds != "1..3" {
                    Some("--seeds")
                } else if jobs != 1 {
                    Some("--jobs")
                } else {
                    None
                },
                against: against_sim.then(|| cli::model::AgainstSim {
                    seeds: &seeds,
                    jobs,
                    plot: plot.as_deref(),
                }),
                config: common.config.as_deref(),
                json: common.json,
                topology: &topology,
                vcs,
                size,
                scouting,
                rates: rates.as_deref(),
            }),
        },
        Cmd::Karma { cmd } => match cmd {
            KarmaCmd::Pingpong {
                common,
                out,
                hops,
                mode,
                sizes,
                iterations,
                backend,
                ber,
                plot,
                vcd,
                wave_format,
                ..
            } => cli::karma::pingpong(&cli::karma::PingPongArgs {
                config: common.config.as_deref(),
                json: common.json,
                csv: out.csv.as_deref(),
                hops: hops.as_deref(),
                mode,
                sizes: &sizes,
                iterations,
                backend,
                ber,
                plot: plot.as_deref(),
                vcd: vcd.as_deref(),
                wave_format,
            }),
            KarmaCmd::Selftest {
                common,
                out,
                payload,
                backend,
            } => cli::karma::selftest(
                common.config.as_deref(),
                common.json,
                out.csv.as_deref(),
                &payload,
                backend,
            ),
        },
        Cmd::Network { cmd } => match cmd {
            NetworkCmd::Cdg {
                topology,
                routing,
                no_extra_vc,
                json,
            } => cli::network::cdg(&topology, routing, no_extra_vc, json),
            NetworkCmd::Sweep {
                common,
                threads: _,
                topology,
                routing,
                loads,
                vary,
                size,
                pattern,
                seed,
                seeds,
                jobs,
                csv,
                plot,
                packets,
                saturation,
                resolution,
                part,
                parts_dir,
                join,
                ranks_per_point,
            } => cli::netrun::sweep(&cli::netrun::SweepArgs {
                config: common.config.as_deref(),
                json: common.json,
                topologies: &topology,
                routings: &routing,
                loads: loads.as_deref(),
                size,
                pattern,
                seed,
                seeds: seeds.as_deref(),
                vary: &vary,
                jobs,
                csv: csv.as_deref(),
                plot: plot.as_deref(),
                packets: packets.as_deref(),
                saturation,
                resolution,
                part: part.as_deref(),
                parts_dir: parts_dir.as_deref(),
                join: join.as_deref(),
                ranks_per_point: ranks_per_point.map(|g| g as usize),
            }),
            NetworkCmd::Serve {
                common,
                listen,
                clients,
                ranks,
                topology,
                routing,
                mapping,
                timeout_s,
                token_file,
                ..
            } => cli::network::serve(&cli::network::ServeArgs {
                config: common.config.as_deref(),
                json: common.json,
                listen: &listen,
                clients,
                ranks,
                topology: topology.as_ref(),
                routing,
                mapping: &mapping,
                timeout_s,
                token_file: token_file.as_deref(),
            }),
            NetworkCmd::Faults {
                common,
                threads: _,
                out,
                links,
                seeds,
                at,
                jobs,
                plot,
            } => cli::netfaults::faults(&cli::netfaults::FaultsArgs {
                config: common.config.as_deref(),
                json: common.json,
                links: &links,
                seeds: &seeds,
                at,
                jobs,
                plot: plot.as_deref(),
                csv: out.csv.as_deref(),
            }),
            NetworkCmd::Run {
                common,
                out,
                packets,
                latency_bin,
                latency_plot,
                report,
                report_every,
                channels,
                ..
            } => cli::netrun::run(
                common.config.as_deref(),
                common.json,
                &cli::netrun::RunOut {
                    csv: out.csv.as_deref(),
                    packets: packets.as_deref(),
                    channels: channels.as_deref(),
                    latency_bin,
                    latency_plot: latency_plot.as_deref(),
                    report: report.as_deref(),
                    report_every,
                },
            ),
        },
        Cmd::App { cmd } => match cmd {
            AppCmd::Run {
                common,
                threads: _,
                out,
                timeline,
                example,
                topology,
                routing,
                ranks,
                mapping,
                bytes,
                iterations,
                ..
            } => cli::app::run(&cli::app::RunArgs {
                config: common.config.as_deref(),
                json: common.json,
                csv: out.csv.as_deref(),
                example,
                topology: topology.as_ref(),
                routing,
                ranks,
                mapping: &mapping,
                bytes,
                iterations,
                timeline: timeline.args(),
            }),
            AppCmd::Replay {
                common,
                threads: _,
                out,
                timeline,
                format,
                trace,
                topology,
                routing,
                mapping,
                flops_per_second,
                ..
            } => cli::app::replay(&cli::app::ReplayArgs {
                config: common.config.as_deref(),
                json: common.json,
                csv: out.csv.as_deref(),
                format,
                trace: &trace,
                topology: topology.as_ref(),
                routing,
                mapping: &mapping,
                flops_per_second,
                timeline: timeline.args(),
            }),
            AppCmd::Dpsnn {
                common,
                threads: _,
                timeline,
                csv,
                plot,
                trace,
                write_trace,
                columns,
                per_process,
                rate_hz,
                iterations,
                topology,
                routing,
                mapping,
                barrier,
                calc_ns_per_spike,
                latency_bin_cycles,
                ..
            } => cli::app::dpsnn(&cli::app::DpsnnArgs {
                config: common.config.as_deref(),
                json: common.json,
                csv: csv.as_deref(),
                plot: plot.as_deref(),
                trace: trace.as_deref(),
                write_trace: write_trace.as_deref(),
                columns: columns.as_deref(),
                per_process,
                rate_hz,
                iterations,
                topology: topology.as_ref(),
                routing,
                mapping: &mapping,
                barrier: &barrier,
                calc_ns_per_spike,
                latency_bin_cycles,
                timeline: timeline.args(),
            }),
        },
        Cmd::Cosim {
            common,
            design,
            cycles,
            seed,
            ber,
            credit,
            vcd_dir,
            wave_format,
            from,
            to,
            scope,
            simulator,
            shape,
            app,
            app_bytes,
            coverage,
            stimulus,
        } => cli::cosim(
            common.config.as_deref(),
            common.json,
            &name(design),
            cycles,
            seed,
            ber,
            credit,
            vcd_dir.as_deref(),
            (wave_format, from, to, &scope),
            simulator,
            shape.as_deref(),
            app.map(|a| (a, app_bytes)),
            coverage.as_deref(),
            stimulus,
        ),
        Cmd::Coverage {
            files,
            campaign,
            out_dir,
            untoggled,
            check,
            json,
        } => cli::coverage::coverage(&files, campaign, out_dir.as_deref(), untoggled, check, json),
        Cmd::WaveDiff {
            a,
            b,
            strict,
            verbose,
        } => cli::wave_diff(&a, &b, strict, verbose),
        Cmd::WaveFilter { kind } => cli::wave_filter(&kind),
        Cmd::WaveTranslate { out } => cli::wave_translate(&out),
        Cmd::Config { print, config, .. } => cli::config(print, config.as_deref()),
        Cmd::Completions { shell } => {
            clap_complete::generate(shell, &mut Cli::command(), "exanet", &mut std::io::stdout());
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Bench { cmd } => match cmd {
            BenchCmd::Link { common, cycles } => {
                cli::bench(common.config.as_deref(), common.json, cycles, "link")
            }
            BenchCmd::Node { common, cycles } => {
                cli::bench(common.config.as_deref(), common.json, cycles, "node")
            }
            BenchCmd::Network {
                common,
                cycles,
                warmup,
                case,
                against: Some(other),
                rounds,
                ..
            } => cli::bench_ab::against(
                &other,
                common.config.as_deref(),
                common.json,
                (warmup, cycles),
                case.as_deref(),
                rounds,
            ),
            BenchCmd::Network {
                common,
                cycles,
                warmup,
                case,
                threads,
                repeat,
                against: None,
                ..
            } => cli::netrun::bench_network(
                common.config.as_deref(),
                common.json,
                (warmup, cycles),
                case.as_deref(),
                threads,
                repeat,
            ),
            BenchCmd::App {
                common,
                case,
                repeat,
            } => cli::app::bench_app(
                common.config.as_deref(),
                common.json,
                case.as_deref(),
                repeat,
            ),
            BenchCmd::Replay {
                common,
                topology,
                routing,
                bytes,
                repeat,
                min_records,
            } => cli::app::bench_replay(&cli::app::BenchReplayArgs {
                config: common.config.as_deref(),
                json: common.json,
                topology: &topology,
                routing,
                bytes,
                repeat,
                min_records,
            }),
        },
    };
    r
}

/// `--seed`: 0 to 2^63-1, what `sim.seed` holds (the largest integer TOML holds).
fn parse_seed(s: &str) -> Result<u64, String> {
    s.parse::<u64>()
        .ok()
        .filter(|&x| x <= crate::config::MAX_SEED)
        .ok_or_else(|| format!("'{s}' is not a seed (0 to {})", crate::config::MAX_SEED))
}
