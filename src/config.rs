//! Configuration: plain serde structs that reject unknown fields. Every field names its unit and
//! default; the defaults are the thesis's hardware (Biagioni 2017 §5.3, Pisani 2016 §2.8.2, PG074 for the
//! PHY options). `validate()` turns a bad value into an error naming the field.

use crate::spec::{Injection, PatternSpec, Probe, RoutingSpec, SizeDist, TopologySpec};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;

/// An invalid configuration value, or a file that cannot be read or parsed.
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigError {
    /// Dotted field name (`link.credit.period_cycles`) or the file name.
    pub field: String,
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid configuration: {}: {}", self.field, self.message)
    }
}

impl std::error::Error for ConfigError {}

fn err(field: &str, message: impl Into<String>) -> ConfigError {
    ConfigError {
        field: field.to_string(),
        message: message.into(),
    }
}

/// Every integer of `cfg` fits TOML's (signed 64-bit: TOML 1.0 §Integer), so that the
/// configuration can be written back (`config --print`) and changed (`--set`); a JSON file or the
/// lenient TOML reader may hold a larger unsigned one. `file`: where it came from.
fn toml_integers(file: &str, cfg: &Config) -> Result<(), ConfigError> {
    fn walk(path: &str, v: &serde_json::Value) -> Option<(String, u64)> {
        match v {
            serde_json::Value::Number(n) => n
                .as_u64()
                .filter(|&x| x > i64::MAX as u64)
                .map(|x| (path.to_string(), x)),
            serde_json::Value::Object(m) => m.iter().find_map(|(k, x)| {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                walk(&p, x)
            }),
            serde_json::Value::Array(a) => {
                (a.iter().enumerate()).find_map(|(i, x)| walk(&format!("{path}[{i}]"), x))
            }
            _ => None,
        }
    }
    let v = serde_json::to_value(cfg).map_err(|e| err(file, e.to_string()))?;
    match walk("", &v) {
        Some((field, x)) => Err(err(
            &field,
            format!(
                "{x} (in {file}): above {}, the largest integer a TOML file holds (TOML integers \
                 are signed 64-bit)",
                i64::MAX
            ),
        )),
        None => Ok(()),
    }
}

/// The whole configuration of a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// The one system clock: router, TCL and PHY user interface.
    pub clock: ClockConfig,
    /// The APElink: TCL, FIFOs and PHY lanes of every link.
    pub link: LinkConfig,
    /// The APErouter's structure (synthesis parameters).
    pub router: RouterConfig,
    /// Reset values of the node's run-time registers (coordinates, lattice, routing order,
    /// arbiter).
    pub node: NodeConfig,
    /// The KARMA test bed's emulated processing system and ping-pong software costs.
    pub karma: KarmaConfig,
    /// Network-scale runs (`exanet network run`, `exanet network sweep`).
    pub net: NetConfig,
    /// The application layer above the network's NICs (`exanet app`): messages, protocols and
    /// software costs.
    pub app: AppConfig,
    /// Simulation-wide settings (the seed).
    pub sim: SimConfig,
}

/// The one system clock.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct ClockConfig {
    /// Clock frequency in MHz (router, TCL and PHY user interface), 1 to 10,000 (1 MHz to
    /// 10 GHz: `MIN_FREQ_MHZ`, `MAX_FREQ_MHZ`). Default 156.25 (Biagioni 2017 §5.3.4).
    pub freq_mhz: f64,
}

/// Slowest clock a configuration may ask for, MHz: below it no interconnect is built, and the
/// conversions to ns and us (and the KARMA software's costs in cycles) leave the range where
/// they mean anything.
pub const MIN_FREQ_MHZ: f64 = 1.0;

/// Fastest clock a configuration may ask for, MHz (10 GHz).
pub const MAX_FREQ_MHZ: f64 = 10_000.0;

impl Default for ClockConfig {
    fn default() -> Self {
        ClockConfig { freq_mhz: 156.25 }
    }
}

/// The emulated processing system of the KARMA test bed: the ARM Cortex-A53 of each Trenz board
/// reaching its node through AXI, and the costs of the ping-pong software (Biagioni 2017 §5.4,
/// §5.4.1; decision 0009 gives the source of every default).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct KarmaConfig {
    /// Cycles of one AXI write of a word (FIFO or register), from the store's issue to the write
    /// strobe; a store follows every this many cycles. 1 to 1000 cycles. Default 4 (Biagioni 2017
    /// §5.4.1).
    pub axi_write_cycles: u32,
    /// Cycles of one AXI read (FIFO word or register), from the load's issue to the data in the
    /// CPU, when the data is there. At least `axi_request_cycles` + 2 and at most 1000 cycles.
    /// Default 20 (Biagioni 2017 §5.4.1, "about 20 clock cycles per word").
    pub axi_read_cycles: u32,
    /// Cycles from a load's issue to its request at the slave; the rest of `axi_read_cycles` is the
    /// way back. 2 to 1000 cycles. Default 10 (decision 0009).
    pub axi_request_cycles: u32,
    /// User space, sending: building the header and footer and the loop around the stores, ns, 0 to
    /// 1e6. Default 100.
    pub user_send_ns: f64,
    /// User space, sending: CRC-32C of the payload for the footer, bytes per ns, between 0.01
    /// and 1000. Default 3.2.
    pub user_crc_bytes_per_ns: f64,
    /// User space, receiving: software between two polls of the RX status register, ns, 0 to 1e6.
    /// Default 20.
    pub user_poll_ns: f64,
    /// User space, receiving: checking the footer after its read, ns, 0 to 1e6. Default 50.
    pub user_recv_ns: f64,
    /// Kernel space: entering plus leaving a system call (`write`, `read`), ns, 0 to 1e6. Default
    /// 1000.
    pub kernel_syscall_ns: f64,
    /// Kernel space: the driver preparing header and footer (with the payload's CRC), ns, 0 to 1e6.
    /// Default 300.
    pub kernel_prep_ns: f64,
    /// Kernel space: from the interrupt line to the handler's first instruction, ns, 0 to 1e6.
    /// Default 2000.
    pub kernel_irq_ns: f64,
    /// Kernel space: from the handler waking the reading process to the process running, ns, 0 to
    /// 1e6. Default 8000.
    pub kernel_wakeup_ns: f64,
    /// Kernel space: bounce-buffer copy (user to kernel and back), bytes per ns (GB/s), between
    /// 0.01 and 1000. Default 1.0.
    pub kernel_copy_bytes_per_ns: f64,
    /// Time after which the ping-pong software gives a message up as lost, us, 1 to 1e6. Default
    /// 200.
    pub timeout_us: f64,
}

impl Default for KarmaConfig {
    fn default() -> Self {
        KarmaConfig {
            axi_write_cycles: 4,
            axi_read_cycles: 20,
            axi_request_cycles: 10,
            user_send_ns: 100.0,
            user_crc_bytes_per_ns: 3.2,
            user_poll_ns: 20.0,
            user_recv_ns: 50.0,
            kernel_syscall_ns: 1000.0,
            kernel_prep_ns: 300.0,
            kernel_irq_ns: 2000.0,
            kernel_wakeup_ns: 8000.0,
            kernel_copy_bytes_per_ns: 1.0,
            timeout_us: 200.0,
        }
    }
}

impl KarmaConfig {
    pub fn validate(&self) -> Result<(), ConfigError> {
        range(
            "karma.axi_write_cycles",
            self.axi_write_cycles,
            1,
            1000,
            "cycles",
        )?;
        range(
            "karma.axi_request_cycles",
            self.axi_request_cycles,
            2,
            1000,
            "cycles",
        )?;
        if self.axi_read_cycles < self.axi_request_cycles + 2 || self.axi_read_cycles > 1000 {
            return Err(err(
                "karma.axi_read_cycles",
                format!(
                    "{} cycles: must be at least karma.axi_request_cycles + 2 ({}: the request, \
                     the slave's answer, the way back) and at most 1000",
                    self.axi_read_cycles,
                    self.axi_request_cycles + 2
                ),
            ));
        }
        for (f, v) in [
            ("karma.user_send_ns", self.user_send_ns),
            ("karma.user_poll_ns", self.user_poll_ns),
            ("karma.user_recv_ns", self.user_recv_ns),
            ("karma.kernel_syscall_ns", self.kernel_syscall_ns),
            ("karma.kernel_prep_ns", self.kernel_prep_ns),
            ("karma.kernel_irq_ns", self.kernel_irq_ns),
            ("karma.kernel_wakeup_ns", self.kernel_wakeup_ns),
        ] {
            if !(v.is_finite() && (0.0..=1.0e6).contains(&v)) {
                return Err(err(f, format!("{v:?} ns: must be between 0 and 1e6")));
            }
        }
        for (f, v) in [
            ("karma.user_crc_bytes_per_ns", self.user_crc_bytes_per_ns),
            (
                "karma.kernel_copy_bytes_per_ns",
                self.kernel_copy_bytes_per_ns,
            ),
        ] {
            // below 0.01 (10 MB/s) a 4 KB message would keep the software busy for longer
            // than any timeout (1e-9 bytes/ns: seconds of simulated time, hours to simulate)
            if !(v.is_finite() && (0.01..=1.0e3).contains(&v)) {
                return Err(err(
                    f,
                    format!("{v:?} bytes/ns: must be between 0.01 and 1000"),
                ));
            }
        }
        let t = self.timeout_us;
        if !(t.is_finite() && (1.0..=1.0e6).contains(&t)) {
            return Err(err(
                "karma.timeout_us",
                format!("{t:?} us: must be between 1 and 1e6"),
            ));
        }
        Ok(())
    }
}

/// A network-scale run (`exanet network run`, `exanet network sweep`; docs/network.md). The
/// nodes and links are the `[router]` FIFO sizes and the `[link]` APElink of this same file;
/// the VCs on every link are the routing algorithm's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct NetConfig {
    /// Topology, one of `torus:AxB[xC]`, `mesh:AxB[xC]`, `dragonfly:p=P,a=A,h=H[,g=G]`,
    /// `exanest:torus6x6|torus3x3|torus3x3xC|dragonfly`, or `graph:N:A-B,C-D,...` (N routers and
    /// their links, routed by `updown`); at most 65,536 nodes. Default `torus:4x4`.
    pub topology: TopologySpec,
    /// Routing algorithm, one of `ecube`, `star-channel`, `min-adapt` (over `adaptive_vcs`),
    /// `smart-dor` (tori and meshes), `min` (dragonflies), `updown` (any topology, around failed
    /// links); `ecube-1vc`, `min-1vc` (without the extra VC, deadlock-prone). Default
    /// `ecube`.
    pub routing: RoutingSpec,
    /// Destination pattern, one of `uniform`, `transpose`, `bitcomp`, `bitrev`, `shuffle`,
    /// `tornado`, `neighbour`, `hotspot:node=K,frac=F`. Default `uniform`.
    pub pattern: PatternSpec,
    /// Injection process, one of `bernoulli` (at `load`) or `constant:N` (each endpoint starts N
    /// packets, then sends one each time a packet is delivered to it). Default `bernoulli`.
    pub injection: Injection,
    /// Applied load, a fraction of an endpoint's injection bandwidth (`injection_bytes_per_cycle`),
    /// in (0, 1]. Default 0.1.
    pub load: f64,
    /// Payload sizes in bytes, each 1 to 4096: `64` or `16:256` (uniform). Default `64` (a 6-word
    /// packet: header, four payload words, footer).
    pub sizes: SizeDist,
    /// Ping probe on top of the traffic: `src=A,dst=B,period=P` (endpoints, cycles); empty for
    /// none. Default empty.
    #[serde(with = "crate::spec::traffic::probe_text")]
    #[schemars(with = "String")]
    pub probe: Option<Probe>,
    /// Injection bandwidth of an endpoint that a load of 1 means, payload bytes per cycle, positive
    /// and at most 64. Default 8 (one APElink lane: 64 bits a cycle, 10 Gb/s; decision 0011).
    pub injection_bytes_per_cycle: f64,
    /// Warm-up before the measurement window, cycles, 0 to 1e9. Default 2000.
    pub warmup_cycles: u64,
    /// Measurement window, cycles, 1 to 1e9. Default 10000.
    pub measure_cycles: u64,
    /// At most this many cycles of drain after the window, 0 to 1e9. Default 50000.
    pub drain_cycles: u64,
    /// A point is saturated when its accepted load falls short of the load its sources made
    /// (generated) by more than this fraction of it, or its source queues grow by more than
    /// this fraction of the packets made in the window; a fraction, 0 to 1. Default 0.05
    /// (docs/decisions/0048).
    pub saturation_margin: f64,
    /// Partitions of the nodes, contiguous blocks each keeping its own statistics, 0 to 1048576
    /// partitions; 0: one per thread. Results do not depend on it. Default 0.
    pub partitions: u32,
    /// Threads stepping the partitions, 0 to 1024; 0: the cores available (at most one per 16
    /// nodes and per partition). Results do not depend on it. Default 0.
    pub threads: u32,
    /// Cycles between partition exchanges, 1..=link.phy.latency_cycles; 0: the PHY latency. Default
    /// 0.
    pub window_cycles: u64,
    /// Skip the router slots whose next cycle changes nothing (results are identical). Default
    /// true.
    pub idle_skip: bool,
    /// Keep only the live words of every router FIFO's memory (a ring of the words written and
    /// not yet popped) instead of the whole array, for speed and memory. Every word any reader
    /// reads is the same (results are identical); what differs is the read register `rdata_q`
    /// of an empty FIFO, which shows 0 where the RTL's memory still holds a stale word. Set it
    /// to false to hold every register equal to the RTL's (`tests/net_node_equiv.rs`). Default
    /// true.
    pub live_fifo_words: bool,
    /// Check every payload and, for deterministic routing, the order of every pair. Default false.
    pub check: bool,
    /// Credit threshold TRED of every link of the network, credit units (replaces
    /// `link.credit.tred_words` there): 0, or at least the smallest that keeps the receive FIFOs
    /// from overflowing with the run's shortest packets, which 0 selects
    /// (docs/decisions/0012-network-tred.md). Default 0.
    pub tred_units: u32,
    /// The links' TCLs check the credit only before a packet and send a started packet to its
    /// footer (`link.credit.whole_packet`, replaced there), so that a VC out of credit never
    /// holds a link inside a packet and the VCs stay independent, as the routing algorithms'
    /// deadlock arguments need; false: before every word, as Biagioni 2017's TCL (star-channel can
    /// then deadlock past saturation). Default true (docs/decisions/0013).
    pub whole_packet_credit: bool,
    /// Bit-error rates of chosen links, each `{ a = A, b = B, ber = R }`: the links between
    /// nodes A and B (both directions) flip each bit with probability R, 0 to 0.5, instead of
    /// `link.phy.ber`. Default empty (every link at `link.phy.ber`).
    pub link_ber: Vec<LinkBer>,
    /// VCs of `min-adapt` routing, 3 to 8: the e-cube escape's 2 and the adaptive ones
    /// (decision 0033). Default 6.
    pub adaptive_vcs: u32,
    /// Links and nodes that fail at given cycles, and recover:
    /// `link:A-B@T[..U]` (both directions), `link:A>B@T[..U]` (the lane from A to B),
    /// `node:N@T[..U]`, several separated by `;` (docs/network.md, "Links and nodes that
    /// fail"). Default empty.
    pub faults: crate::spec::FaultSchedule,
    /// Links and nodes failing at random: `links=K,nodes=M,from=T0,to=T1[,for=D]`, drawn from
    /// `sim.seed`; each fails at a cycle uniform in [T0, T1) for D cycles (for good without
    /// `for`). Default empty (none).
    #[serde(with = "crate::spec::faults::random_text")]
    #[schemars(with = "String")]
    pub random_faults: Option<crate::spec::RandomFaults>,
    /// A port whose partner sent no credit for this many credit periods, of
    /// `link.credit.period_cycles` cycles each, is marked down, 2 to 1000 (decision 0032).
    /// Default 8 (280 cycles at the default period).
    pub fault_detect_credit_periods: u32,
    /// Cycles between two passes of the fault manager, which reads the ports marked down and,
    /// when they changed, recomputes the routing tables, 1 to 1e9 (decision 0032). Default 1000.
    pub fault_manager_period_cycles: u64,
}

/// A bit-error rate for the links between two nodes (`net.link_ber`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LinkBer {
    /// One end, a node index.
    pub a: usize,
    /// The other end, a node index.
    pub b: usize,
    /// Bit-error rate of both directions, 0 to 0.5.
    pub ber: f64,
}

impl Default for NetConfig {
    fn default() -> Self {
        NetConfig {
            topology: TopologySpec::Torus(crate::spec::topology::Shape {
                size: vec![4, 4],
                wrap: true,
            }),
            routing: RoutingSpec::Ecube,
            pattern: PatternSpec::Uniform,
            injection: Injection::Bernoulli,
            load: 0.1,
            sizes: SizeDist::Fixed(64),
            probe: None,
            injection_bytes_per_cycle: 8.0,
            warmup_cycles: 2000,
            measure_cycles: 10_000,
            drain_cycles: 50_000,
            saturation_margin: 0.05,
            partitions: 0,
            threads: 0,
            window_cycles: 0,
            idle_skip: true,
            live_fifo_words: true,
            check: false,
            tred_units: 0,
            whole_packet_credit: true,
            link_ber: Vec::new(),
            adaptive_vcs: crate::net::routing::parse::DEFAULT_ADAPTIVE_VCS,
            faults: Default::default(),
            random_faults: None,
            fault_detect_credit_periods: 8,
            fault_manager_period_cycles: 1000,
        }
    }
}

impl NetConfig {
    /// The numeric fields; the names were checked when they were read (`src/spec/`), and how
    /// they fit together is checked where the network is planned (`net::setup::plan`).
    pub fn validate(&self, phy_latency: u32) -> Result<(), ConfigError> {
        if !(self.load > 0.0 && self.load <= 1.0) {
            return Err(err(
                "net.load",
                format!("{:?}: must be in (0, 1]", self.load),
            ));
        }
        let b = self.injection_bytes_per_cycle;
        if !(b.is_finite() && b > 0.0 && b <= 64.0) {
            return Err(err(
                "net.injection_bytes_per_cycle",
                format!("{b:?}: must be positive and at most 64"),
            ));
        }
        if self.measure_cycles == 0 || self.measure_cycles > 1_000_000_000 {
            return Err(err(
                "net.measure_cycles",
                format!("{}: must be 1 to 1e9", self.measure_cycles),
            ));
        }
        for (f, v) in [
            ("net.warmup_cycles", self.warmup_cycles),
            ("net.drain_cycles", self.drain_cycles),
        ] {
            if v > 1_000_000_000 {
                return Err(err(f, format!("{v}: must be at most 1e9 cycles")));
            }
        }
        let m = self.saturation_margin;
        if !(0.0..=1.0).contains(&m) {
            return Err(err(
                "net.saturation_margin",
                format!("{m:?}: must be a fraction, 0 to 1"),
            ));
        }
        range("net.partitions", self.partitions, 0, 1 << 20, "partitions")?;
        range("net.threads", self.threads, 0, 1024, "threads")?;
        let vcs = &crate::net::routing::star_channel::MIN_ADAPT_VCS;
        range(
            "net.adaptive_vcs",
            self.adaptive_vcs,
            *vcs.start(),
            *vcs.end(),
            "VCs",
        )?;
        range(
            "net.fault_detect_credit_periods",
            self.fault_detect_credit_periods,
            2,
            1000,
            "credit periods",
        )?;
        let m = self.fault_manager_period_cycles;
        if !(1..=1_000_000_000).contains(&m) {
            return Err(err(
                "net.fault_manager_period_cycles",
                format!("{m} cycles: must be between 1 and 1e9"),
            ));
        }
        if self.threads > self.partitions && self.partitions != 0 {
            return Err(err(
                "net.threads",
                format!(
                    "{} threads: more than the partitions (net.partitions = {}); a thread steps \
                     whole partitions",
                    self.threads, self.partitions
                ),
            ));
        }
        for (k, l) in self.link_ber.iter().enumerate() {
            let same = |m: &LinkBer| (m.a, m.b) == (l.a, l.b) || (m.a, m.b) == (l.b, l.a);
            if let Some(j) = self.link_ber[..k].iter().position(same) {
                return Err(err(
                    "net.link_ber",
                    format!(
                        "entries {j} and {k} both give the rate of the links between nodes {} \
                         and {}: give one",
                        l.a, l.b
                    ),
                ));
            }
            if !(l.ber.is_finite() && (0.0..=0.5).contains(&l.ber)) {
                return Err(err(
                    "net.link_ber",
                    format!(
                        "entry {k} (a = {}, b = {}): ber {:?}: must be between 0 and 0.5",
                        l.a, l.b, l.ber
                    ),
                ));
            }
        }
        if self.window_cycles > phy_latency as u64 {
            return Err(err(
                "net.window_cycles",
                format!(
                    "{} cycles: at most the PHY latency (link.phy.latency_cycles = {phy_latency})",
                    self.window_cycles
                ),
            ));
        }
        Ok(())
    }
}

/// The largest `sim.seed`: the largest integer TOML holds (signed 64-bit).
pub const MAX_SEED: u64 = i64::MAX as u64;

/// Simulation-wide settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct SimConfig {
    /// Seed of every random generator of the run (Mersenne Twister), 0 to 2^63-1 (the largest
    /// integer TOML holds). Default 1.
    pub seed: u64,
}

/// The application layer (`exanet app`; docs/decisions/0019-application-messages.md).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct AppConfig {
    /// Largest packet payload a message is cut into, bytes, 32 to 4096 (the APElink's limit);
    /// its first 16 bytes are the message envelope. Default 512 (ExaNet's 256-512 B packets; the
    /// APElink's measured efficiency point, Biagioni 2017 §5.4).
    pub max_payload_bytes: u32,
    /// Messages of this many bytes or more go by rendezvous (request, acknowledge, data), smaller
    /// ones eagerly, bytes, 0 to 4294967295 (0: every message by rendezvous). Default 4096.
    pub eager_threshold_bytes: u64,
    /// Software time of a send call before its packets reach the NIC, ns, 0 to 1e9. Default 100
    /// (KARMA's user-space send, `karma.user_send_ns`).
    pub send_overhead_ns: f64,
    /// Software time a wait takes for each message it receives, ns, 0 to 1e9. Default 50
    /// (KARMA's user-space footer check, `karma.user_recv_ns`).
    pub recv_overhead_ns: f64,
    /// A run that has not finished after this many cycles stops with an error, cycles, 1 to
    /// 1e12. Default 1e9.
    pub max_cycles: u64,
}

impl Default for AppConfig {
    fn default() -> Self {
        AppConfig {
            max_payload_bytes: 512,
            eager_threshold_bytes: 4096,
            send_overhead_ns: 100.0,
            recv_overhead_ns: 50.0,
            max_cycles: 1_000_000_000,
        }
    }
}

impl AppConfig {
    pub fn validate(&self) -> Result<(), ConfigError> {
        range(
            "app.max_payload_bytes",
            self.max_payload_bytes,
            32,
            4096,
            "bytes",
        )?;
        if self.eager_threshold_bytes > u32::MAX as u64 {
            return Err(err(
                "app.eager_threshold_bytes",
                format!(
                    "{} bytes: at most 4294967295 (a message's length is 32 bits)",
                    self.eager_threshold_bytes
                ),
            ));
        }
        for (f, v) in [
            ("app.send_overhead_ns", self.send_overhead_ns),
            ("app.recv_overhead_ns", self.recv_overhead_ns),
        ] {
            if !(v.is_finite() && (0.0..=1e9).contains(&v)) {
                return Err(err(f, format!("{v:?} ns: must be 0 to 1e9")));
            }
        }
        if self.max_cycles == 0 || self.max_cycles > 1_000_000_000_000 {
            return Err(err(
                "app.max_cycles",
                format!("{} cycles: must be 1 to 1e12", self.max_cycles),
            ));
        }
        Ok(())
    }
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig { seed: 1 }
    }
}

/// Credit flavour of the APElink protocol (Biagioni 2017 §5.3.4).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum CreditFlavour {
    /// One 64-bit credit beat carrying a stop bit per VC (up to 8 VCs), three copies.
    StartStop,
    /// `usedword_beats` credit beats carrying the receive-buffer occupancy, two VCs per beat,
    /// three copies of each 10-bit value.
    Usedword,
}

impl CreditFlavour {
    pub fn name(self) -> &'static str {
        match self {
            CreditFlavour::StartStop => "start-stop",
            CreditFlavour::Usedword => "usedword",
        }
    }
}

impl std::str::FromStr for CreditFlavour {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "start-stop" => Ok(CreditFlavour::StartStop),
            "usedword" => Ok(CreditFlavour::Usedword),
            _ => Err(format!(
                "unknown credit flavour '{s}' (expected start-stop or usedword)"
            )),
        }
    }
}

/// The APElink credit protocol.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct CreditConfig {
    /// Credit flavour, one of `start-stop` or `usedword`. Default `start-stop` (latency-optimised).
    pub flavour: CreditFlavour,
    /// Cycles between credits on an otherwise idle link, and the age after which a credit is sent
    /// inside a suspended packet; more than a credit's beats (1 with start-stop, `usedword_beats`
    /// with usedword) and at most 65535 cycles. Default 35 (Pisani 2016 §2.8.2, C = 35).
    pub period_cycles: u32,
    /// Cycles after the last credit beyond which a credit no longer waits for the end of the packet
    /// being sent and goes inside it, behind a Magic; at least `period_cycles` and at most 65535
    /// cycles. Default 110, the full credit round trip L_T = 2 (L_L + L_R) of Pisani 2016 §2.8.2 (see
    /// docs/decisions/0002-credit-schedule.md).
    pub max_interval_cycles: u32,
    /// Credit threshold TRED in credit units (payload words) of the remote RX buffer: a VC stops
    /// when its free space is at or below TRED. At least 1 and below `link.rx_fifo_depth_words`
    /// (with `whole_packet`, at least a 4 KB packet after the credit round trip). Default 128
    /// (docs/decisions/0002-credit-schedule.md).
    pub tred_words: u32,
    /// Send a whole credit between every two packets (Biagioni 2017 §5.3.4). Default true.
    pub after_every_packet: bool,
    /// Check the credit only before a packet starts and send a started packet to its footer
    /// (true), or before every word as Biagioni 2017's TCL does (false). Network runs set it from
    /// `net.whole_packet_credit` (docs/decisions/0013). Default false.
    pub whole_packet: bool,
    /// Beats of a usedword credit (two VCs per beat), 1 to 4 beats; 4 beats = 32 bytes for 8 VCs
    /// (Table 5.4). Default 4.
    pub usedword_beats: u32,
}

impl Default for CreditConfig {
    fn default() -> Self {
        CreditConfig {
            flavour: CreditFlavour::StartStop,
            period_cycles: 35,
            max_interval_cycles: 110,
            tred_words: 128,
            after_every_packet: true,
            whole_packet: false,
            usedword_beats: 4,
        }
    }
}

/// The Aurora-64B/66B-like PHY lane (PG074 facts in SPEC.md).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct PhyConfig {
    /// Cycles from a beat accepted at TX to the same beat valid at RX, 1 to 4096 cycles. Default 42
    /// (Biagioni 2017 §5.3.4).
    pub latency_cycles: u32,
    /// Gearbox pause: TX ready low one cycle in every `gearbox_period_cycles`. Default off.
    pub gearbox_pause: bool,
    /// Period of the gearbox pause, 2 to 65535 cycles. Default 32 (PG074, GTH).
    pub gearbox_period_cycles: u32,
    /// Clock compensation: TX ready low `cc_len_cycles` every `cc_period_cycles`. Default on.
    pub clock_compensation: bool,
    /// Cycles between clock-compensation sequences, above `cc_len_cycles` and at most 65535.
    /// Default 4992 (PG074).
    pub cc_period_cycles: u32,
    /// Cycles of one clock-compensation sequence, 1 to 255 cycles. Default 8 (PG074).
    pub cc_len_cycles: u32,
    /// Cycles from reset to channel up, 0 to 65535 cycles. Default 500 (PG074, "within ~500
    /// cycles").
    pub lane_up_cycles: u32,
    /// Bit error rate on the lane, per transmitted bit, between 0 and 0.5. Default 0.
    pub ber: f64,
}

impl Default for PhyConfig {
    fn default() -> Self {
        PhyConfig {
            latency_cycles: 42,
            gearbox_pause: false,
            gearbox_period_cycles: 32,
            clock_compensation: true,
            cc_period_cycles: 4992,
            cc_len_cycles: 8,
            lane_up_cycles: 500,
            ber: 0.0,
        }
    }
}

/// One APElink: the TCL at each end, its TX FIFO and per-VC RX FIFOs, and two PHY lanes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct LinkConfig {
    /// Virtual channels per physical channel, 1..=8 VCs. Default 2 (Biagioni 2017 §5.3.3).
    pub num_vcs: u32,
    /// Inter-tile TX payload FIFO depth per VC, 128-bit words, a power of two from 4 to 32768.
    /// Default 1024 (Biagioni 2017 §5.3.3).
    pub tx_fifo_depth_words: u32,
    /// Inter-tile TX header/footer FIFO depth per VC, words, a power of two from 4 to
    /// `tx_fifo_depth_words`. Default 128 (Biagioni 2017 §5.3.3).
    pub tx_hf_fifo_depth_words: u32,
    /// Inter-tile RX payload FIFO depth per VC, 128-bit words, a power of two from 4 to 32768; also
    /// the capacity credits count, in payload words. Default 1024 (Biagioni 2017 §5.3.3).
    pub rx_fifo_depth_words: u32,
    /// Inter-tile RX header/footer FIFO depth per VC, words, a power of two from 4 to
    /// `rx_fifo_depth_words`. Default 128 (Biagioni 2017 §5.3.3).
    pub rx_hf_fifo_depth_words: u32,
    /// FIFO write-to-not-empty delay L_F, 2..=16 cycles. Default 3 (Biagioni 2017 §5.3.4).
    pub fifo_latency_cycles: u32,
    /// Header size field counts 128-bit words instead of bytes (a synthesis option). Default false.
    pub size_in_words: bool,
    /// The credit protocol of the TCL.
    pub credit: CreditConfig,
    /// The Aurora-64B/66B-like PHY lane.
    pub phy: PhyConfig,
}

impl Default for LinkConfig {
    fn default() -> Self {
        LinkConfig {
            num_vcs: 2,
            tx_fifo_depth_words: 1024,
            tx_hf_fifo_depth_words: 128,
            rx_fifo_depth_words: 1024,
            rx_hf_fifo_depth_words: 128,
            fifo_latency_cycles: 3,
            size_in_words: false,
            credit: CreditConfig::default(),
            phy: PhyConfig::default(),
        }
    }
}

/// Direction an inter-tile port leads to along its dimension.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Dir {
    /// Towards increasing coordinates.
    Plus,
    /// Towards decreasing coordinates.
    Minus,
    /// Both ways: the one neighbour of a dimension of size 2 (KARMA's 2x2 mesh).
    Both,
}

/// One inter-tile port of the router.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InterPortConfig {
    /// Dimension the port leads along (0 = X, 1 = Y, 2 = Z), 0 to `router.dims` - 1 dimensions.
    pub dim: u8,
    /// Direction along the dimension, one of `plus`, `minus`, or `both` (the single neighbour of a
    /// dimension of size 2).
    pub dir: Dir,
}

/// The APErouter's structure (synthesis parameters; Biagioni 2017 §5.3.3).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct RouterConfig {
    /// Intra-tile ports, 1..=8 ports. Default 3 (KARMA's "3 x 2" router, docs/decisions/0008).
    pub intra_ports: u32,
    /// Intra-tile ports that are TX-only (no RX side), each a port number 0 to `intra_ports` - 1.
    /// Default none.
    pub tx_only_ports: Vec<u32>,
    /// Inter-tile ports, 0 to 6 ports, each leading along a dimension (`{ dim = D, dir =
    /// "plus"|"minus"|"both" }`), no two the same way. Default X and Y, each `both` (KARMA's 2x2
    /// mesh: one SFP+ link per neighbour).
    pub inter_ports: Vec<InterPortConfig>,
    /// Dimensions (coordinates), 1..=3 dimensions. Default 2.
    pub dims: u32,
    /// Intra-tile payload FIFO depth, 128-bit words, a power of two from 4 to 32768. Default 4096
    /// (Biagioni 2017 §5.3.3).
    pub intra_fifo_depth_words: u32,
    /// Intra-tile header/footer FIFO depth, words, a power of two from 4 to
    /// `intra_fifo_depth_words`. Default 128 (Biagioni 2017 §5.3.3).
    pub intra_hf_fifo_depth_words: u32,
}

impl Default for RouterConfig {
    fn default() -> Self {
        RouterConfig {
            intra_ports: 3,
            tx_only_ports: Vec::new(),
            inter_ports: vec![
                InterPortConfig {
                    dim: 0,
                    dir: Dir::Both,
                },
                InterPortConfig {
                    dim: 1,
                    dir: Dir::Both,
                },
            ],
            dims: 2,
            intra_fifo_depth_words: 4096,
            intra_hf_fifo_depth_words: 128,
        }
    }
}

/// Arbitration policy of the router's output arbiters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Arbiter {
    RoundRobin,
    /// The lowest-numbered input slot wins.
    Fixed,
}

/// Reset values of the node's run-time registers (the Target Controller writes them too).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct NodeConfig {
    /// This node's coordinates (X, Y, Z), each at least 0 and below the lattice's size in that
    /// dimension. Default [0, 0, 0].
    pub coord: [u8; 3],
    /// Lattice size per dimension, coordinates 1 to 255 in each of the `router.dims` dimensions and
    /// 1 beyond. Default [2, 2, 1] (KARMA's 2x2 mesh).
    pub lattice: [u8; 3],
    /// Dimensions that wrap around (torus), one flag per dimension X, Y, Z. Default none (mesh).
    pub torus: [bool; 3],
    /// Order in which dimensions are consumed, first first: the first `router.dims` entries a
    /// permutation of the dimensions 0..dims. Default [0, 1, 2] (X, then Y, then Z).
    pub dim_order: [u8; 3],
    /// Output arbitration, one of `round-robin` or `fixed` (the lowest-numbered input slot wins).
    /// Default `round-robin`.
    pub arbiter: Arbiter,
}

impl Default for NodeConfig {
    fn default() -> Self {
        NodeConfig {
            coord: [0; 3],
            lattice: [2, 2, 1],
            torus: [false; 3],
            dim_order: [0, 1, 2],
            arbiter: Arbiter::RoundRobin,
        }
    }
}

/// Largest payload the APElink protocol carries, in bytes (Biagioni 2017 §5.3.2).
pub const MAX_PAYLOAD_BYTES: u32 = 4096;

/// A packet FIFO's two depth fields, checked exactly as `PktFifo::reset` (`crate::pktfifo`)
/// checks them (`PktFifoParams::check_depths`); the error names the field at fault.
fn pkt_fifo_depths(pay: (&str, u32), hf: (&str, u32)) -> Result<(), ConfigError> {
    crate::fifo::check_depth(pay.1).map_err(|e| err(pay.0, e))?;
    crate::fifo::check_depth(hf.1).map_err(|e| err(hf.0, e))?;
    crate::pktfifo::PktFifoParams::check_depths(hf.1, pay.1).map_err(|e| err(hf.0, e))
}

fn range(field: &str, v: u32, lo: u32, hi: u32, unit: &str) -> Result<(), ConfigError> {
    if v < lo || v > hi {
        return Err(err(
            field,
            format!("{v} {unit}: must be between {lo} and {hi}"),
        ));
    }
    Ok(())
}

impl Config {
    /// Reads a TOML (`.toml`) or JSON (`.json`) file; unknown fields are errors.
    pub fn from_file(path: &Path) -> Result<Config, ConfigError> {
        let cfg = Config::from_file_unvalidated(path)?;
        cfg.validate()?;
        Ok(cfg)
    }

    /// [`Config::from_file`] without `validate()`: for a caller that changes fields before
    /// validating (`--set`), so that a value the command line corrects is not refused.
    pub fn from_file_unvalidated(path: &Path) -> Result<Config, ConfigError> {
        let name = path.display().to_string();
        let ext = path.extension().and_then(|e| e.to_str());
        if !matches!(ext, Some("json" | "toml")) {
            return Err(err(&name, "configuration files must end in .toml or .json"));
        }
        let text = crate::input::read_text_bounded(path, crate::input::MAX_SMALL_BYTES)
            .map_err(|e| err(&name, e.strip_prefix(&format!("{name}: ")).unwrap_or(&e)))?;
        Config::from_text_unvalidated(&name, &text, ext == Some("json"))
    }

    /// A configuration file's text (`name` heads its errors), TOML or, with `json`, JSON; not
    /// validated ([`Config::from_file_unvalidated`]).
    pub fn from_text_unvalidated(
        name: &str,
        text: &str,
        json: bool,
    ) -> Result<Config, ConfigError> {
        let cfg: Config = if json {
            serde_json::from_str(text).map_err(|e| err(name, e.to_string()))?
        } else {
            toml::from_str(text).map_err(|e| err(name, e.to_string()))?
        };
        toml_integers(name, &cfg)?;
        Ok(cfg)
    }

    /// The defaults as a TOML document (`exanet config --print`).
    pub fn to_toml(&self) -> String {
        toml::to_string_pretty(self).expect("configuration serialises")
    }

    pub fn clock(&self) -> crate::units::Clock {
        crate::units::Clock::new(self.clock.freq_mhz)
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        let f = self.clock.freq_mhz;
        if !(MIN_FREQ_MHZ..=MAX_FREQ_MHZ).contains(&f) {
            return Err(err(
                "clock.freq_mhz",
                format!(
                    "{f:?} MHz: must be between {MIN_FREQ_MHZ} MHz and {MAX_FREQ_MHZ} MHz (1 MHz to \
                     10 GHz)"
                ),
            ));
        }
        self.link.validate()?;
        if self.link.credit.whole_packet {
            // a started packet (up to the APElink's 4 KB) may follow the stop: TRED must cover
            // it on top of the credit round trip (docs/decisions/0013)
            let need = crate::link::tred::safe_tred_units(&self.link, 4096, 4096, true);
            if self.link.credit.tred_words < need {
                return Err(err(
                    "link.credit.tred_words",
                    format!(
                        "{}: below the {need} units that link.credit.whole_packet needs (a \
                         4 KB packet after the credit round trip)",
                        self.link.credit.tred_words
                    ),
                ));
            }
        }
        self.router.validate()?;
        self.node.validate(self.router.dims)?;
        self.karma.validate()?;
        self.app.validate()?;
        self.net.validate(self.link.phy.latency_cycles)
    }
}

impl RouterConfig {
    pub fn validate(&self) -> Result<(), ConfigError> {
        range("router.intra_ports", self.intra_ports, 1, 8, "ports")?;
        range("router.dims", self.dims, 1, 3, "dimensions")?;
        pkt_fifo_depths(
            ("router.intra_fifo_depth_words", self.intra_fifo_depth_words),
            (
                "router.intra_hf_fifo_depth_words",
                self.intra_hf_fifo_depth_words,
            ),
        )?;
        for &p in &self.tx_only_ports {
            if p >= self.intra_ports {
                return Err(err(
                    "router.tx_only_ports",
                    format!(
                        "port {p} does not exist ({} intra-tile ports)",
                        self.intra_ports
                    ),
                ));
            }
        }
        if self.inter_ports.len() > 6 {
            return Err(err(
                "router.inter_ports",
                format!("{} ports: at most 6", self.inter_ports.len()),
            ));
        }
        for (q, ip) in self.inter_ports.iter().enumerate() {
            if ip.dim as u32 >= self.dims {
                return Err(err(
                    "router.inter_ports",
                    format!(
                        "port {q} leads along dimension {} but there are {} dimensions",
                        ip.dim, self.dims
                    ),
                ));
            }
            for (r, other) in self.inter_ports.iter().enumerate().take(q) {
                let clash = other.dim == ip.dim
                    && (other.dir == ip.dir || other.dir == Dir::Both || ip.dir == Dir::Both);
                if clash {
                    return Err(err(
                        "router.inter_ports",
                        format!(
                            "ports {r} and {q} lead the same way along dimension {}",
                            ip.dim
                        ),
                    ));
                }
            }
        }
        Ok(())
    }
}

impl NodeConfig {
    pub fn validate(&self, dims: u32) -> Result<(), ConfigError> {
        let d = dims as usize;
        for k in 0..3 {
            if self.lattice[k] == 0 || (k >= d && self.lattice[k] != 1) {
                return Err(err(
                    "node.lattice",
                    format!(
                        "{:?}: sizes 1..=255, and 1 beyond the {dims} dimensions",
                        self.lattice
                    ),
                ));
            }
            if self.coord[k] >= self.lattice[k] {
                return Err(err(
                    "node.coord",
                    format!("{:?} is outside the lattice {:?}", self.coord, self.lattice),
                ));
            }
        }
        if !valid_order(&self.dim_order, dims) {
            return Err(err(
                "node.dim_order",
                format!(
                    "{:?}: the first {dims} entries must be a permutation of 0..{dims}",
                    self.dim_order
                ),
            ));
        }
        Ok(())
    }
}

/// Is `order` a dimension order for `dims` dimensions (its first `dims` entries a permutation)?
pub fn valid_order(order: &[u8; 3], dims: u32) -> bool {
    let d = dims as usize;
    let mut seen = [false; 3];
    for &o in &order[..d] {
        if o as usize >= d || seen[o as usize] {
            return false;
        }
        seen[o as usize] = true;
    }
    true
}

impl LinkConfig {
    pub fn validate(&self) -> Result<(), ConfigError> {
        range("link.num_vcs", self.num_vcs, 1, 8, "VCs")?;
        pkt_fifo_depths(
            ("link.tx_fifo_depth_words", self.tx_fifo_depth_words),
            ("link.tx_hf_fifo_depth_words", self.tx_hf_fifo_depth_words),
        )?;
        pkt_fifo_depths(
            ("link.rx_fifo_depth_words", self.rx_fifo_depth_words),
            ("link.rx_hf_fifo_depth_words", self.rx_hf_fifo_depth_words),
        )?;
        crate::fifo::check_latency(self.fifo_latency_cycles)
            .map_err(|e| err("link.fifo_latency_cycles", e))?;
        let c = &self.credit;
        range(
            "link.credit.period_cycles",
            c.period_cycles,
            1,
            65535,
            "cycles",
        )?;
        if c.max_interval_cycles < c.period_cycles || c.max_interval_cycles > 65535 {
            return Err(err(
                "link.credit.max_interval_cycles",
                format!(
                    "{} cycles: must be at least link.credit.period_cycles ({}) and at most 65535",
                    c.max_interval_cycles, c.period_cycles
                ),
            ));
        }
        if c.tred_words == 0 || c.tred_words >= self.rx_fifo_depth_words {
            return Err(err(
                "link.credit.tred_words",
                format!(
                    "{} words: must be at least 1 and below the RX buffer size link.rx_fifo_depth_words ({})",
                    c.tred_words, self.rx_fifo_depth_words
                ),
            ));
        }
        range(
            "link.credit.usedword_beats",
            c.usedword_beats,
            1,
            4,
            "beats",
        )?;
        crate::link::tcl_tx::check_credit_period(
            c.period_cycles,
            c.flavour == CreditFlavour::Usedword,
            c.usedword_beats,
        )
        .map_err(|e| err("link.credit.period_cycles", e))?;
        if c.flavour == CreditFlavour::Usedword && self.num_vcs > 2 * c.usedword_beats {
            return Err(err(
                "link.num_vcs",
                format!(
                    "{} VCs: a usedword credit of {} beats carries only {} VCs (two per beat)",
                    self.num_vcs,
                    c.usedword_beats,
                    2 * c.usedword_beats
                ),
            ));
        }
        let p = &self.phy;
        range(
            "link.phy.latency_cycles",
            p.latency_cycles,
            1,
            4096,
            "cycles",
        )?;
        range(
            "link.phy.gearbox_period_cycles",
            p.gearbox_period_cycles,
            2,
            65535,
            "cycles",
        )?;
        range("link.phy.cc_len_cycles", p.cc_len_cycles, 1, 255, "cycles")?;
        if p.cc_period_cycles <= p.cc_len_cycles || p.cc_period_cycles > 65535 {
            return Err(err(
                "link.phy.cc_period_cycles",
                format!(
                    "{} cycles: must exceed link.phy.cc_len_cycles ({}) and be at most 65535",
                    p.cc_period_cycles, p.cc_len_cycles
                ),
            ));
        }
        range(
            "link.phy.lane_up_cycles",
            p.lane_up_cycles,
            0,
            65535,
            "cycles",
        )?;
        if !(p.ber.is_finite() && (0.0..=0.5).contains(&p.ber)) {
            return Err(err(
                "link.phy.ber",
                format!("{:?}: must be between 0 and 0.5", p.ber),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_packet_credit_needs_a_tred_that_covers_a_packet_and_drain_is_named() {
        let mut c = Config::default();
        c.link.credit.whole_packet = true;
        let e = c.validate().unwrap_err();
        assert_eq!(e.field, "link.credit.tred_words");
        assert!(e.message.contains("whole_packet"), "{e}");
        c.link.credit.tred_words = crate::link::tred::safe_tred_units(&c.link, 4096, 4096, true);
        c.validate().unwrap();
        c.net.drain_cycles = 2_000_000_000;
        assert_eq!(c.validate().unwrap_err().field, "net.drain_cycles");
    }

    #[test]
    fn two_rates_for_one_link_are_refused_either_way_round() {
        let mut c = Config::default();
        let l = |a, b, ber| LinkBer { a, b, ber };
        c.net.link_ber = vec![l(0, 1, 1e-6), l(2, 3, 1e-6)];
        c.validate().unwrap();
        c.net.link_ber.push(l(1, 0, 1e-5));
        let e = c.validate().unwrap_err();
        assert_eq!(e.field, "net.link_ber");
        assert!(e.message.contains("entries 0 and 2"), "{e}");
    }

    #[test]
    fn defaults_are_valid_and_round_trip_through_toml() {
        let c = Config::default();
        c.validate().unwrap();
        let back: Config = toml::from_str(&c.to_toml()).unwrap();
        assert_eq!(back, c);
    }

    #[test]
    fn each_bad_value_names_its_field() {
        type Mutation = Box<dyn Fn(&mut Config)>;
        let cases: Vec<(&str, Mutation)> = vec![
            (
                "link.phy.latency_cycles",
                Box::new(|c| c.link.phy.latency_cycles = 0),
            ),
            (
                "link.credit.period_cycles",
                Box::new(|c| c.link.credit.period_cycles = 0),
            ),
            (
                "link.credit.tred_words",
                Box::new(|c| c.link.credit.tred_words = 5000),
            ),
            ("link.num_vcs", Box::new(|c| c.link.num_vcs = 9)),
            (
                "link.rx_fifo_depth_words",
                Box::new(|c| c.link.rx_fifo_depth_words = 1000),
            ),
            (
                "link.fifo_latency_cycles",
                Box::new(|c| c.link.fifo_latency_cycles = 1),
            ),
            ("link.phy.ber", Box::new(|c| c.link.phy.ber = -1.0)),
            ("clock.freq_mhz", Box::new(|c| c.clock.freq_mhz = 0.0)),
            (
                "karma.user_crc_bytes_per_ns",
                Box::new(|c| c.karma.user_crc_bytes_per_ns = 1e-9),
            ),
            (
                "karma.kernel_copy_bytes_per_ns",
                Box::new(|c| c.karma.kernel_copy_bytes_per_ns = 0.001),
            ),
            (
                "link.num_vcs",
                Box::new(|c| {
                    c.link.credit.flavour = CreditFlavour::Usedword;
                    c.link.credit.usedword_beats = 1;
                    c.link.num_vcs = 4;
                }),
            ),
        ];
        for (field, mutate) in cases {
            let mut c = Config::default();
            mutate(&mut c);
            let e = c.validate().unwrap_err();
            assert_eq!(e.field, field, "{e}");
        }
    }

    /// Depth values around every edge a FIFO's constructor could have: zero, one, small
    /// non-powers of two, the bounds and past them, the 32-bit extremes.
    const DEPTHS: [u32; 16] = [
        0,
        1,
        2,
        3,
        4,
        5,
        6,
        8,
        100,
        128,
        1024,
        32768,
        32769,
        65536,
        1 << 31,
        u32::MAX,
    ];

    #[test]
    fn every_fifo_depth_field_passes_validation_exactly_when_its_fifo_can_be_built() {
        type Field = (&'static str, fn(&mut Config, u32));
        let fields: [Field; 6] = [
            ("link.tx_fifo_depth_words", |c, v| {
                c.link.tx_fifo_depth_words = v
            }),
            ("link.tx_hf_fifo_depth_words", |c, v| {
                c.link.tx_hf_fifo_depth_words = v
            }),
            ("link.rx_fifo_depth_words", |c, v| {
                c.link.rx_fifo_depth_words = v
            }),
            ("link.rx_hf_fifo_depth_words", |c, v| {
                c.link.rx_hf_fifo_depth_words = v
            }),
            ("router.intra_fifo_depth_words", |c, v| {
                c.router.intra_fifo_depth_words = v
            }),
            ("router.intra_hf_fifo_depth_words", |c, v| {
                c.router.intra_hf_fifo_depth_words = v
            }),
        ];
        let (mut accepted, mut refused) = (0, 0);
        for (field, set) in fields {
            for v in DEPTHS {
                let mut c = Config::default();
                // TRED below the smallest RX depth tried, so that it is not the refusal
                c.link.credit.tred_words = 1;
                if !field.contains("_hf_") {
                    // a payload depth is checked against the header/footer depth beside it
                    c.link.tx_hf_fifo_depth_words = crate::fifo::MIN_DEPTH;
                    c.link.rx_hf_fifo_depth_words = crate::fifo::MIN_DEPTH;
                    c.router.intra_hf_fifo_depth_words = crate::fifo::MIN_DEPTH;
                }
                set(&mut c, v);
                let valid = c.validate().map_err(|e| e.field == field);
                // what the models build from the configuration
                let link = crate::link::LinkParams::from_config(&c.link);
                let router = crate::router::params::RouterParams::from_config(&c);
                let builds = std::panic::catch_unwind(|| {
                    for p in [
                        link.tx_fifo,
                        link.rx_fifo,
                        router.intra_fifo,
                        router.inter_rx_fifo,
                        router.inter_tx_fifo,
                    ] {
                        <crate::pktfifo::PktFifo as crate::block::Block>::reset(&p);
                    }
                })
                .is_ok();
                match valid {
                    Ok(()) => {
                        assert!(builds, "{field} = {v}: valid, but a FIFO refuses it");
                        accepted += 1;
                    }
                    Err(named) => {
                        assert!(named, "{field} = {v}: refused naming another field");
                        assert!(!builds, "{field} = {v}: the FIFOs build, but refused");
                        refused += 1;
                    }
                }
            }
        }
        // both sides of the rule were exercised on every field
        assert!(
            accepted >= 6 * 3 && refused >= 6 * 8,
            "{accepted} {refused}"
        );
    }

    #[test]
    fn a_header_footer_depth_of_3_is_refused_naming_its_field() {
        for (field, set) in [
            (
                "link.tx_hf_fifo_depth_words",
                (|c: &mut Config| c.link.tx_hf_fifo_depth_words = 3) as fn(&mut Config),
            ),
            ("link.rx_hf_fifo_depth_words", |c| {
                c.link.rx_hf_fifo_depth_words = 3
            }),
            ("router.intra_hf_fifo_depth_words", |c| {
                c.router.intra_hf_fifo_depth_words = 3
            }),
        ] {
            let mut c = Config::default();
            set(&mut c);
            let e = c.validate().unwrap_err();
            assert_eq!(e.field, field, "{e}");
            assert!(
                e.message.contains("power of two between 4 and 32768"),
                "{e}"
            );
        }
    }

    #[test]
    fn a_clock_outside_1_mhz_to_10_ghz_is_refused_naming_the_range() {
        for f in [
            1e-300,
            0.000001,
            0.999,
            0.0,
            -156.25,
            10_000.001,
            1e300,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ] {
            let mut c = Config::default();
            c.clock.freq_mhz = f;
            let e = c.validate().unwrap_err();
            assert_eq!(e.field, "clock.freq_mhz", "{f}: {e}");
            assert!(e.message.contains("1 MHz to 10 GHz"), "{e}");
        }
        for f in [1.0, 156.25, 10_000.0] {
            let mut c = Config::default();
            c.clock.freq_mhz = f;
            c.validate().unwrap_or_else(|e| panic!("{f} MHz: {e}"));
        }
    }

    #[test]
    fn a_credit_period_must_exceed_a_credit_and_just_longer_carries_packets() {
        for (flavour, beats) in [
            (CreditFlavour::StartStop, 1),
            (CreditFlavour::Usedword, 1),
            (CreditFlavour::Usedword, 2),
            (CreditFlavour::Usedword, 4),
        ] {
            let mut c = Config::default();
            c.link.credit.flavour = flavour;
            c.link.credit.usedword_beats = beats;
            let credit = if flavour == CreditFlavour::Usedword {
                beats
            } else {
                1
            };
            c.link.credit.period_cycles = credit;
            let e = c.validate().unwrap_err();
            assert_eq!(e.field, "link.credit.period_cycles", "{e}");
            // the shortest period accepted moves packets: a hop, and saturating 4 KB packets
            c.link.credit.period_cycles = credit + 1;
            c.validate().unwrap();
            crate::measure::latency::measure(&c)
                .unwrap_or_else(|e| panic!("{flavour:?} {beats}: {e}"));
            let row = crate::measure::efficiency::efficiency(&c, 4096)
                .unwrap_or_else(|e| panic!("{flavour:?} {beats}: {e}"));
            assert!(row.simulated > 0.9, "{flavour:?} {beats}: {row:?}");
        }
    }

    #[test]
    fn net_names_are_read_once_refused_naming_what_is_accepted_and_written_back() {
        for (text, want) in [
            (
                "topology = \"ring:4\"",
                "topology 'ring:4': unknown kind 'ring'; accepted",
            ),
            (
                "routing = \"xy\"",
                "routing 'xy': unknown algorithm; accepted",
            ),
            (
                "pattern = \"foo\"",
                "unknown traffic pattern 'foo'; expected one of",
            ),
            ("sizes = \"0\"", "0 bytes is outside 1..=4096"),
            (
                "injection = \"poisson\"",
                "accepted are bernoulli and constant:N",
            ),
            ("probe = \"src=0\"", "probe: missing parameter 'dst'"),
        ] {
            let e = toml::from_str::<Config>(&format!("[net]\n{text}\n")).unwrap_err();
            assert!(e.to_string().contains(want), "{text}: {e}");
        }
        let text = "[net]\ntopology = \"dragonfly:p=2,a=4,h=2\"\nrouting = \"min\"\n\
                    pattern = \"hotspot:node=3,frac=0.25\"\nsizes = \"16:256\"\n\
                    injection = \"constant:4\"\nprobe = \"src=0,dst=5,period=300\"\n";
        let c: Config = toml::from_str(text).unwrap();
        assert_eq!(c.net.probe.map(|p| p.src), Some(0));
        let back: Config = toml::from_str(&c.to_toml()).unwrap();
        assert_eq!(back, c);
        let json = serde_json::to_value(&c).unwrap();
        assert_eq!(json["net"]["topology"], "dragonfly:p=2,a=4,h=2");
        assert_eq!(json["net"]["probe"], "src=0,dst=5,period=300");
        assert_eq!(
            serde_json::to_value(Config::default()).unwrap()["net"]["probe"],
            ""
        );
    }

    #[test]
    fn unknown_fields_are_rejected() {
        let e = toml::from_str::<Config>("[link]\nnum_vc = 2\n").unwrap_err();
        assert!(e.to_string().contains("num_vc"), "{e}");
        let e = serde_json::from_str::<Config>(r#"{"link": {"phy": {"latency": 3}}}"#).unwrap_err();
        assert!(e.to_string().contains("latency"), "{e}");
    }
}
