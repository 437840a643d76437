//! The `exanet` command line. Every measurement prints a table, or JSON with `--json`
//! (fields documented in docs/cli.md). Bad input exits with status 2 and a message naming what
//! is wrong.

use clap::{Args, Parser, Subcommand};
use exanet::cli;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "exanet",
    version,
    about = "Cycle-accurate model of the ExaNet network IP (APErouter, APElink, APEphy) with lockstep Verilator co-simulation"
)]
struct Cli {
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
}

#[derive(Subcommand)]
enum Cmd {
    /// The link demonstration: hop latency, efficiency table and a VCD of a few packets.
    Demo {
        #[command(flatten)]
        common: Common,
        /// Where to write the VCD.
        #[arg(long, default_value = "waves/out/demo.vcd")]
        vcd: PathBuf,
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
    /// Run the model and the Verilated RTL in lockstep and compare every cycle.
    Cosim {
        #[command(flatten)]
        common: Common,
        /// Design to co-simulate.
        #[arg(long, value_name = "DESIGN")]
        design: String,
        /// Cycles to simulate.
        #[arg(long, default_value_t = 100_000)]
        cycles: u64,
        /// Seed of the random stimulus and bit errors.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Bit error rate on every lane.
        #[arg(long)]
        ber: Option<f64>,
        /// Credit flavour (start-stop or usedword).
        #[arg(long)]
        credit: Option<String>,
        /// Write model.vcd and rtl.vcd into this directory.
        #[arg(long, value_name = "DIR")]
        vcd_dir: Option<PathBuf>,
    },
    /// Compare two VCD files signal by signal, by name.
    WaveDiff {
        a: PathBuf,
        b: PathBuf,
        /// Signals present in one file only make the files differ.
        #[arg(long)]
        strict: bool,
    },
    /// GTKWave translate filter process: decodes one value per stdin line (header, footer or beat).
    WaveFilter {
        /// What the values are: header, footer or beat.
        kind: String,
    },
    /// Configuration files.
    Config {
        /// Print the default configuration as TOML.
        #[arg(long)]
        print: bool,
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
    },
    /// Protocol efficiency under saturating traffic, against the formula and Table 5.4.
    Efficiency {
        #[command(flatten)]
        common: Common,
        /// Credit flavour (start-stop or usedword); default from the configuration.
        #[arg(long)]
        credit: Option<String>,
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
    },
    /// Self-test bandwidth: traffic generators on 1 or 2 intra-tile ports to one target port.
    Bandwidth {
        #[command(flatten)]
        common: Common,
        /// Payload sizes in bytes, comma separated.
        #[arg(
            long,
            value_delimiter = ',',
            default_value = "16,32,64,128,256,512,1024,2048,4096"
        )]
        payload: Vec<String>,
        /// Sending intra-tile ports, 1 or 2 (default: both cases).
        #[arg(long)]
        intra_ports: Option<String>,
    },
    /// Channel dependency graph of the routing function on a torus or mesh.
    Cdg {
        #[command(flatten)]
        common: Common,
        /// torus:AxB[xC] or mesh:AxB[xC].
        #[arg(long)]
        topology: String,
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
        /// Hops, 1 or 2 (default: both).
        #[arg(long)]
        hops: Option<String>,
        /// Software: user (polling, /dev/mem) or kernel (driver, interrupt, bounce buffer).
        #[arg(long, default_value = "user")]
        mode: String,
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
        /// What simulates the nodes: model (Rust) or rtl (Verilated).
        #[arg(long, default_value = "model")]
        backend: String,
        /// Bit error rate on every lane.
        #[arg(long)]
        ber: Option<f64>,
        /// Write a plot of round-trip time against payload size (SVG).
        #[arg(long, value_name = "FILE")]
        plot: Option<PathBuf>,
        /// Write the waves of the first round trip to this VCD file.
        #[arg(long, value_name = "FILE")]
        vcd: Option<PathBuf>,
    },
    /// Router and link bandwidth measured by the nodes' self-test IPs on the mesh.
    Selftest {
        #[command(flatten)]
        common: Common,
        /// Payload sizes in bytes, comma separated.
        #[arg(long, value_delimiter = ',', default_value = "128,512,2048")]
        payload: Vec<String>,
        /// What simulates the nodes: model (Rust) or rtl (Verilated).
        #[arg(long, default_value = "model")]
        backend: String,
    },
}

#[derive(Subcommand)]
enum NetworkCmd {
    /// Channel dependency graph of a routing algorithm on a topology: acyclic, or a cycle.
    Cdg {
        /// torus:AxB[xC], mesh:AxB[xC], dragonfly:p=P,a=A,h=H[,g=G], exanest:PRESET.
        #[arg(long)]
        topology: String,
        /// ecube, star-channel, smart-dor (tori and meshes), min (dragonflies).
        #[arg(long)]
        routing: String,
        /// Without the extra VC deadlock freedom rests on (ecube: the dateline VC; min: the
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
        /// Topology (repeat to overlay several; pairs with --routing by position).
        #[arg(long)]
        topology: Vec<String>,
        /// Routing algorithm (repeat to overlay several).
        #[arg(long)]
        routing: Vec<String>,
        /// Applied loads: a list 0.05,0.2 or a range start:stop:step.
        #[arg(long, default_value = "0.05:0.5:0.05")]
        loads: String,
        /// Payload bytes: 64, or 16:256 for uniformly random sizes.
        #[arg(long)]
        size: Option<String>,
        /// Destination pattern (default uniform, or the configuration's).
        #[arg(long)]
        pattern: Option<String>,
        /// Seed of every random generator.
        #[arg(long)]
        seed: Option<u64>,
        /// Write the points as CSV.
        #[arg(long, value_name = "FILE")]
        csv: Option<PathBuf>,
        /// Write the CNF plot (SVG).
        #[arg(long, value_name = "FILE")]
        plot: Option<PathBuf>,
    },
    /// One run of a configuration file's [net] section: its statistics.
    Run {
        #[command(flatten)]
        common: Common,
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
    /// 32x32 torus at 10 % and at saturating load and a 96x96 torus (each case in a child
    /// process of its own).
    Network {
        #[command(flatten)]
        common: Common,
        /// Timed cycles of every case (default: the case's own, 4000 or 1000).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=exanet::net::bench::MAX_CYCLES))]
        cycles: Option<u64>,
        /// Run only this case (torus32-10, torus32-sat, torus96-10), in this process.
        #[arg(long)]
        case: Option<String>,
    },
}

/// A closed pipe on stdout (`exanet ... | head`) ends the process quietly, as for any Unix
/// tool, instead of making `println!` panic: restore the default action of SIGPIPE, which the
/// Rust runtime sets to "ignore".
#[cfg(unix)]
fn default_sigpipe() {
    extern "C" {
        fn signal(signum: i32, handler: usize) -> usize;
    }
    const SIGPIPE: i32 = 13;
    const SIG_DFL: usize = 0;
    // SAFETY: `signal` from the C library, with the default disposition for SIGPIPE (13 on
    // Linux and the BSDs); no Rust state depends on the previous disposition.
    unsafe {
        signal(SIGPIPE, SIG_DFL);
    }
}

fn main() -> ExitCode {
    #[cfg(unix)]
    default_sigpipe();
    let args = Cli::parse();
    let r = match args.cmd {
        Cmd::Demo { common, vcd } => cli::demo(common.config.as_deref(), common.json, &vcd),
        Cmd::Link { cmd } => match cmd {
            LinkCmd::Latency { common } => cli::link_latency(common.config.as_deref(), common.json),
            LinkCmd::Efficiency {
                common,
                credit,
                payload,
            } => cli::link_efficiency(
                common.config.as_deref(),
                common.json,
                credit.as_deref(),
                &payload,
            ),
            LinkCmd::Bandwidth { common, payload } => {
                cli::link_bandwidth(common.config.as_deref(), common.json, &payload)
            }
        },
        Cmd::Router { cmd } => match cmd {
            RouterCmd::Latency { common } => {
                cli::router_latency(common.config.as_deref(), common.json)
            }
            RouterCmd::Bandwidth {
                common,
                payload,
                intra_ports,
            } => cli::router_bandwidth(
                common.config.as_deref(),
                common.json,
                &payload,
                intra_ports.as_deref(),
            ),
            RouterCmd::Cdg {
                common,
                topology,
                no_vc_rule,
            } => cli::router_cdg(common.config.as_deref(), common.json, &topology, no_vc_rule),
        },
        Cmd::Karma { cmd } => match cmd {
            KarmaCmd::Pingpong {
                common,
                hops,
                mode,
                sizes,
                iterations,
                backend,
                ber,
                plot,
                vcd,
            } => cli::karma::pingpong(&cli::karma::PingPongArgs {
                config: common.config.as_deref(),
                json: common.json,
                hops: hops.as_deref(),
                mode: &mode,
                sizes: &sizes,
                iterations,
                backend: &backend,
                ber,
                plot: plot.as_deref(),
                vcd: vcd.as_deref(),
            }),
            KarmaCmd::Selftest {
                common,
                payload,
                backend,
            } => cli::karma::selftest(common.config.as_deref(), common.json, &payload, &backend),
        },
        Cmd::Network { cmd } => match cmd {
            NetworkCmd::Cdg {
                topology,
                routing,
                no_extra_vc,
                json,
            } => cli::network::cdg(&topology, &routing, no_extra_vc, json),
            NetworkCmd::Sweep {
                common,
                topology,
                routing,
                loads,
                size,
                pattern,
                seed,
                csv,
                plot,
            } => cli::netrun::sweep(&cli::netrun::SweepArgs {
                config: common.config.as_deref(),
                json: common.json,
                topologies: &topology,
                routings: &routing,
                loads: &loads,
                size: size.as_deref(),
                pattern: pattern.as_deref(),
                seed,
                csv: csv.as_deref(),
                plot: plot.as_deref(),
            }),
            NetworkCmd::Run { common } => cli::netrun::run(common.config.as_deref(), common.json),
        },
        Cmd::Cosim {
            common,
            design,
            cycles,
            seed,
            ber,
            credit,
            vcd_dir,
        } => cli::cosim(
            common.config.as_deref(),
            common.json,
            &design,
            cycles,
            seed,
            ber,
            credit.as_deref(),
            vcd_dir.as_deref(),
        ),
        Cmd::WaveDiff { a, b, strict } => cli::wave_diff(&a, &b, strict),
        Cmd::WaveFilter { kind } => cli::wave_filter(&kind),
        Cmd::Config { print } => cli::config(print),
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
                case,
            } => cli::netrun::bench_network(
                common.config.as_deref(),
                common.json,
                cycles,
                case.as_deref(),
            ),
        },
    };
    match r {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
