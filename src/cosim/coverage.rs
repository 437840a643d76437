//! Coverage of the RTL by lockstep runs (decision 0042): how much of the Verilated design the
//! stimulus exercised while the model was compared with it.
//!
//! Three measures, all read from the Verilated model itself (its signal table, [`RtlModel`]),
//! never from the Rust model:
//! - **toggle**: every bit of every signal Verilator stores (registers, stored nets, memories,
//!   ports), seen rising and seen falling, sampled where the lockstep dumps its waves (after the
//!   inputs of a cycle settle, and after its rising edge);
//! - **FSM**: the states and the cycle-to-cycle arcs (a hold included, where the RTL can hold) of
//!   every enumerated state register named in `testbench/coverage.toml`, sampled after each rising
//!   edge;
//! - **register map**: each register of the Target Controller's map, at every address the top has
//!   (every slot's and every link's block), written and read on the top's register bus, and the
//!   bits written as 0 and as 1.
//!
//! A run's coverage is a [`CoverageData`] (JSON, the raw sets: runs merge exactly); a
//! [`Summary`] applies the reviewed waivers and FSM definitions of `testbench/coverage.toml` and
//! the floors the test command holds the designs to.

use crate::cosim::rtl::{RtlModel, SignalId};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The reviewed coverage definitions: FSMs, waivers, floors.
pub const DEFINITIONS: &str = include_str!("../../testbench/coverage.toml");

/// Format tag of a coverage file.
pub const FORMAT: &str = "exanet-coverage 1";

/// Environment variable: a directory into which every lockstep run of this process writes its
/// coverage (`<top>-<pid>-<n>.json`); the test command sets it for the whole suite.
pub const DIR_ENV: &str = "EXANET_COVERAGE_DIR";

/// The reviewed definitions (`testbench/coverage.toml`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Definitions {
    #[serde(default)]
    pub fsm: Vec<FsmDef>,
    #[serde(default)]
    pub waiver: Vec<Waiver>,
    #[serde(default)]
    pub floor: Vec<Floor>,
    /// The campaign: the lockstep runs the test command measures (`exanet coverage --campaign`).
    #[serde(default)]
    pub run: Vec<CampaignRun>,
}

/// One lockstep run of the coverage campaign: a design, a stimulus, cycles and the
/// configuration changes (`--set` syntax) that reach what the default configuration cannot (a
/// credit flavour, bit errors, small packets).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CampaignRun {
    /// `link`, `router` or `node`.
    pub design: String,
    /// `constrained` (default) or `plain`.
    #[serde(default = "constrained")]
    pub stimulus: String,
    pub cycles: u64,
    /// Configuration changes, `section.key=value` as `--set` takes them.
    #[serde(default)]
    pub set: Vec<String>,
    /// What this run reaches that the others do not.
    pub why: String,
}

fn constrained() -> String {
    "constrained".into()
}

impl CampaignRun {
    /// The run's configuration (the default one with `set` applied), validated.
    pub fn config(&self) -> Result<crate::config::Config, String> {
        let sets = self
            .set
            .iter()
            .map(|a| a.parse())
            .collect::<Result<Vec<crate::config_set::Assignment>, String>>()?;
        let cfg = crate::config_set::apply(&crate::config::Config::default(), &sets)
            .map_err(|e| e.to_string())?;
        cfg.validate().map_err(|e| e.to_string())?;
        Ok(cfg)
    }

    /// The stimulus named.
    pub fn stimulus(&self) -> Result<crate::cosim::lockstep::Stimulus, String> {
        use clap::ValueEnum;
        crate::cosim::lockstep::Stimulus::from_str(&self.stimulus, false)
            .map_err(|_| format!("stimulus '{}': constrained or plain", self.stimulus))
    }

    /// One line naming the run (`link constrained 30000 cycles link.phy.ber=1e-3`).
    pub fn label(&self) -> String {
        let mut l = format!("{} {} {} cycles", self.design, self.stimulus, self.cycles);
        for a in &self.set {
            l.push(' ');
            l.push_str(a);
        }
        l
    }

    /// Run it on the Verilated RTL and return its coverage (the lockstep must stay identical:
    /// a mismatch is an error naming the run).
    pub fn run(&self) -> Result<CoverageData, String> {
        use crate::cosim::lockstep::{Options, Simulator};
        let cfg = self.config()?;
        let opts = Options {
            cycles: self.cycles,
            stimulus: self.stimulus()?,
            coverage: true,
            ..Default::default()
        };
        let sim = Simulator::Verilator;
        let rep = match self.design.as_str() {
            "link" => crate::cosim::link_design::run_link(&cfg, &opts, sim),
            "router" => crate::cosim::router_design::run_router(&cfg, &opts, sim),
            "node" => crate::cosim::node_design::run_node(&cfg, &opts, sim),
            d => return Err(format!("design '{d}': link, router or node")),
        }
        .map_err(|e| format!("{}: {e}", self.label()))?;
        rep.coverage
            .map(|c| *c)
            .ok_or_else(|| format!("{}: no coverage (a build without Verilator?)", self.label()))
    }
}

/// One enumerated state register (every instance whose full name matches `signal`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FsmDef {
    /// Name in the report (`rt_in gate`).
    pub name: String,
    /// Glob (`*` any run of characters) on the register's full name.
    pub signal: String,
    /// State name = encoding.
    pub states: BTreeMap<String, u64>,
    /// Legal arcs, `"FROM -> TO"`, a hold written `"S -> S"`; reset arcs are not listed.
    pub arcs: Vec<String>,
}

/// Bits that can never toggle, with the reason.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Waiver {
    /// Glob on the full signal name.
    pub signal: String,
    /// Bits waived: ranges `"hi:lo"` or bits `"b"`, comma-separated (`"31:11,2:0"`); all bits
    /// when absent.
    #[serde(default)]
    pub bits: Option<String>,
    /// Tops the waiver applies to (all when empty).
    #[serde(default)]
    pub tops: Vec<String>,
    pub reason: String,
}

/// What the test command holds a top to.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Floor {
    pub top: String,
    /// Toggle coverage, percent of the bits not waived.
    pub toggle_pct: f64,
    /// Legal FSM arcs taken.
    pub arcs: usize,
    /// Registers (addresses) both written and read.
    #[serde(default)]
    pub registers: usize,
}

/// The definitions, parsed and checked.
pub fn definitions() -> Result<Definitions, String> {
    parse_definitions(DEFINITIONS)
}

/// Definitions from `text` (the syntax of `testbench/coverage.toml`), parsed and checked.
pub fn parse_definitions(text: &str) -> Result<Definitions, String> {
    let d: Definitions =
        toml::from_str(text).map_err(|e| format!("testbench/coverage.toml: {e}"))?;
    for f in &d.fsm {
        for a in &f.arcs {
            let (from, to) = parse_arc(a).ok_or_else(|| {
                format!(
                    "testbench/coverage.toml: fsm {}: arc '{a}' is not 'FROM -> TO'",
                    f.name
                )
            })?;
            for s in [from, to] {
                if !f.states.contains_key(s) {
                    return Err(format!(
                        "testbench/coverage.toml: fsm {}: arc '{a}' names no state '{s}'",
                        f.name
                    ));
                }
            }
        }
    }
    for r in &d.run {
        let what = format!("testbench/coverage.toml: run {}", r.label());
        if !matches!(r.design.as_str(), "link" | "router" | "node") {
            return Err(format!("{what}: design: link, router or node"));
        }
        if r.cycles == 0 || r.why.trim().is_empty() {
            return Err(format!("{what}: needs cycles above 0 and a why"));
        }
        r.stimulus().map_err(|e| format!("{what}: {e}"))?;
        r.config().map_err(|e| format!("{what}: {e}"))?;
    }
    for w in &d.waiver {
        if w.reason.trim().is_empty() {
            return Err(format!(
                "testbench/coverage.toml: waiver {}: no reason",
                w.signal
            ));
        }
        if let Some(b) = &w.bits {
            parse_bits(b).ok_or_else(|| {
                format!(
                    "testbench/coverage.toml: waiver {}: bits '{b}' is not a list of 'hi:lo' or 'b'",
                    w.signal
                )
            })?;
        }
    }
    Ok(d)
}

fn parse_arc(a: &str) -> Option<(&str, &str)> {
    let (f, t) = a.split_once("->")?;
    Some((f.trim(), t.trim()))
}

/// The mask of a waiver's `bits`: comma-separated ranges `hi:lo` or single bits.
fn parse_bits(b: &str) -> Option<u128> {
    b.split(',').try_fold(0u128, |m, part| {
        let (h, l) = match part.split_once(':') {
            Some((h, l)) => (h.trim().parse().ok()?, l.trim().parse().ok()?),
            None => {
                let v: u32 = part.trim().parse().ok()?;
                (v, v)
            }
        };
        (h >= l && h < 128).then(|| m | (mask(h + 1) & !mask(l)))
    })
}

/// `*` matches any run of characters (dots and brackets included); everything else itself.
pub fn glob(pattern: &str, name: &str) -> bool {
    let (p, n) = (pattern.as_bytes(), name.as_bytes());
    let (mut i, mut j) = (0, 0);
    let (mut star, mut mark) = (None, 0);
    while j < n.len() {
        if i < p.len() && p[i] == b'*' {
            star = Some(i);
            mark = j;
            i += 1;
        } else if i < p.len() && p[i] == n[j] {
            i += 1;
            j += 1;
        } else if let Some(s) = star {
            i = s + 1;
            mark += 1;
            j = mark;
        } else {
            return false;
        }
    }
    p[i..].iter().all(|&c| c == b'*')
}

fn mask(width: u32) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

/// One signal's toggles.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SignalCov {
    pub name: String,
    pub width: u32,
    /// Bits seen rising (hex).
    pub rose: String,
    /// Bits seen falling (hex).
    pub fell: String,
}

/// One FSM instance: states and arcs seen (encodings).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FsmCov {
    pub fsm: String,
    pub instance: String,
    pub states: BTreeSet<u64>,
    pub arcs: BTreeSet<(u64, u64)>,
}

/// One register address of the top's map.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegCov {
    /// `COORD`, `SLOT_IN_PKTS[3]`, `LINK_LOST[1]`.
    pub name: String,
    pub addr: u16,
    /// `RW`, `RO`, `WO`, `W1C`.
    pub access: String,
    pub writes: u64,
    pub reads: u64,
    /// Bits written as 0, and as 1.
    pub wrote0: u32,
    pub wrote1: u32,
}

/// The coverage of one or more runs of one top.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CoverageData {
    pub format: String,
    pub top: String,
    pub runs: u64,
    pub cycles: u64,
    pub signals: Vec<SignalCov>,
    pub fsms: Vec<FsmCov>,
    pub registers: Vec<RegCov>,
    /// Accesses to addresses outside the map (answered with an error by the RTL).
    pub unmapped_writes: u64,
    pub unmapped_reads: u64,
}

/// The register bus of a top with a Target Controller.
struct Bus {
    wr: SignalId,
    rd: SignalId,
    addr: SignalId,
    wdata: SignalId,
}

struct FsmTrack {
    id: SignalId,
    def: usize,
    prev: Option<u64>,
    states: BTreeSet<u64>,
    arcs: BTreeSet<(u64, u64)>,
}

/// Collects the coverage of one lockstep run.
pub struct Collector {
    top: String,
    defs: Definitions,
    width: Vec<u32>,
    prev: Vec<u128>,
    rose: Vec<u128>,
    fell: Vec<u128>,
    primed: bool,
    /// The values of this sample (by distinct storage, `reader.of_signal`).
    now: Vec<u128>,
    reader: crate::cosim::rtl::AllSignals,
    fsms: Vec<FsmTrack>,
    bus: Option<Bus>,
    /// address -> (index into `regs`)
    reg_at: BTreeMap<u16, usize>,
    regs: Vec<RegCov>,
    unmapped_writes: u64,
    unmapped_reads: u64,
    cycles: u64,
}

/// The register addresses of a top with `slots` crossbar slots and `links` links.
pub fn register_map(slots: u32, links: u32) -> Vec<RegCov> {
    crate::node::regs::all_addresses(slots, links)
        .into_iter()
        .map(|(r, addr, block)| RegCov {
            name: match block {
                None => r.name.to_string(),
                Some(k) => format!("{}[{k}]", r.name),
            },
            addr,
            access: r.access.name().to_string(),
            writes: 0,
            reads: 0,
            wrote0: 0,
            wrote1: 0,
        })
        .collect()
}

impl Collector {
    /// A collector for `rtl`; `regs`: the top's register map (`(slots, links)`), when it has a
    /// Target Controller on `TOP.reg_*`.
    pub fn new(rtl: &RtlModel, regs: Option<(u32, u32)>) -> Result<Collector, String> {
        let defs = definitions()?;
        let sigs = rtl.signals();
        let n = sigs.len();
        let mut fsms = Vec::new();
        for s in sigs {
            if let Some(d) = defs.fsm.iter().position(|f| glob(&f.signal, &s.name)) {
                fsms.push(FsmTrack {
                    id: rtl.find(&s.name).expect("a listed signal"),
                    def: d,
                    prev: None,
                    states: BTreeSet::new(),
                    arcs: BTreeSet::new(),
                });
            }
        }
        let find = |n: &str| rtl.find(n);
        let bus = match (
            regs,
            find("TOP.reg_wr_i"),
            find("TOP.reg_rd_i"),
            find("TOP.reg_addr_i"),
            find("TOP.reg_wdata_i"),
        ) {
            (Some(_), Some(wr), Some(rd), Some(addr), Some(wdata)) => Some(Bus {
                wr,
                rd,
                addr,
                wdata,
            }),
            (Some(_), ..) => return Err("the top has no register bus TOP.reg_*".into()),
            _ => None,
        };
        let regs = regs.map(|(s, l)| register_map(s, l)).unwrap_or_default();
        let reg_at = regs.iter().enumerate().map(|(i, r)| (r.addr, i)).collect();
        Ok(Collector {
            top: rtl.top().name().to_string(),
            defs,
            width: sigs.iter().map(|s| s.width).collect(),
            prev: Vec::new(),
            rose: Vec::new(),
            fell: Vec::new(),
            primed: false,
            now: Vec::with_capacity(n),
            reader: rtl.all_signals(),
            fsms,
            bus,
            reg_at,
            regs,
            unmapped_writes: 0,
            unmapped_reads: 0,
            cycles: 0,
        })
    }

    /// Every signal's value now (after an evaluation).
    pub fn sample(&mut self, rtl: &RtlModel) {
        if !self.primed {
            self.reader.read(rtl, &mut self.prev);
            self.rose = vec![0; self.prev.len()];
            self.fell = vec![0; self.prev.len()];
            self.primed = true;
            return;
        }
        self.reader.read(rtl, &mut self.now);
        for (k, (&v, p)) in self.now.iter().zip(self.prev.iter_mut()).enumerate() {
            let ch = v ^ *p;
            if ch != 0 {
                self.rose[k] |= ch & v;
                self.fell[k] |= ch & *p;
                *p = v;
            }
        }
    }

    /// After a deposit into the RTL's counters (decision 0044) and the evaluation that spread
    /// it: the values now are the new reference, and the deposit's own change is not a toggle
    /// (only what the hardware does from there is).
    pub fn rebase(&mut self, rtl: &RtlModel) {
        if self.primed {
            self.reader.read(rtl, &mut self.prev);
        }
    }

    /// After an asynchronous reset between two edges: a state register's next value is not an
    /// arc from the one before the reset.
    pub fn after_reset(&mut self) {
        for f in &mut self.fsms {
            f.prev = None;
        }
    }

    /// After a rising edge, the inputs still those of the cycle that ended: the state
    /// registers' arcs and the register bus's request of that cycle.
    pub fn after_edge(&mut self, rtl: &RtlModel) {
        self.cycles += 1;
        for f in &mut self.fsms {
            let v = rtl.get(f.id) as u64;
            f.states.insert(v);
            if let Some(p) = f.prev {
                f.arcs.insert((p, v));
            }
            f.prev = Some(v);
        }
        if let Some(b) = &self.bus {
            let (wr, rd) = (rtl.get(b.wr) != 0, rtl.get(b.rd) != 0);
            if wr || rd {
                let addr = rtl.get(b.addr) as u16;
                match self.reg_at.get(&addr) {
                    Some(&i) => {
                        let r = &mut self.regs[i];
                        if wr {
                            let d = rtl.get(b.wdata) as u32;
                            r.writes += 1;
                            r.wrote1 |= d;
                            r.wrote0 |= !d;
                        } else {
                            r.reads += 1;
                        }
                    }
                    None if wr => self.unmapped_writes += 1,
                    None => self.unmapped_reads += 1,
                }
            }
        }
        self.sample(rtl);
    }

    /// A reset of the RTL: the FSMs restart (a reset arc is not an arc of the list).
    pub fn reset(&mut self) {
        for f in &mut self.fsms {
            f.prev = None;
        }
    }

    /// The coverage collected.
    pub fn data(&self, rtl: &RtlModel) -> CoverageData {
        let sigs = rtl.signals();
        CoverageData {
            format: FORMAT.to_string(),
            top: self.top.clone(),
            runs: 1,
            cycles: self.cycles,
            signals: sigs
                .iter()
                .enumerate()
                .map(|(k, s)| {
                    let at = self.reader.of_signal[k];
                    let (rose, fell) = if self.primed {
                        (self.rose[at], self.fell[at])
                    } else {
                        (0, 0)
                    };
                    SignalCov {
                        name: s.name.clone(),
                        width: self.width[k],
                        rose: format!("{rose:x}"),
                        fell: format!("{fell:x}"),
                    }
                })
                .collect(),
            fsms: self
                .fsms
                .iter()
                .map(|f| FsmCov {
                    fsm: self.defs.fsm[f.def].name.clone(),
                    instance: sigs[f.id.index()].name.clone(),
                    states: f.states.clone(),
                    arcs: f.arcs.clone(),
                })
                .collect(),
            registers: self.regs.clone(),
            unmapped_writes: self.unmapped_writes,
            unmapped_reads: self.unmapped_reads,
        }
    }
}

fn hex_value(s: &str, what: &str) -> Result<u128, String> {
    u128::from_str_radix(s, 16)
        .map_err(|_| format!("{what}: '{s}' is not a hex value of at most 128 bits"))
}

impl CoverageData {
    /// Reads a coverage file, checking its format.
    pub fn read(path: &Path) -> Result<CoverageData, String> {
        let text = crate::input::read_text_bounded(path, crate::input::MAX_SMALL_BYTES)?;
        let d: CoverageData = serde_json::from_str(&text)
            .map_err(|e| format!("{}: not a coverage file: {e}", path.display()))?;
        if d.format != FORMAT {
            return Err(format!(
                "{}: format '{}', this build reads '{FORMAT}'",
                path.display(),
                d.format
            ));
        }
        for s in &d.signals {
            if s.width == 0 || s.width > 128 {
                return Err(format!(
                    "{}: signal {}: width {}",
                    path.display(),
                    s.name,
                    s.width
                ));
            }
            for v in [&s.rose, &s.fell] {
                let x = hex_value(v, &format!("{}: signal {}", path.display(), s.name))?;
                if x & !mask(s.width) != 0 {
                    return Err(format!(
                        "{}: signal {}: toggles beyond its {} bits",
                        path.display(),
                        s.name,
                        s.width
                    ));
                }
            }
        }
        Ok(d)
    }

    /// Writes the file (JSON).
    pub fn write(&self, path: &Path) -> Result<(), String> {
        let text = serde_json::to_string(self).expect("coverage serialises");
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Adds `other` (a run of the same top) into this one.
    pub fn merge(&mut self, other: &CoverageData) -> Result<(), String> {
        if other.top != self.top {
            return Err(format!(
                "cannot merge the coverage of top {} into {}",
                other.top, self.top
            ));
        }
        self.runs += other.runs;
        self.cycles += other.cycles;
        let mut at: BTreeMap<String, usize> = self
            .signals
            .iter()
            .enumerate()
            .map(|(i, s)| (s.name.clone(), i))
            .collect();
        for s in &other.signals {
            match at.get(&s.name) {
                Some(&i) => {
                    let m = &mut self.signals[i];
                    if m.width != s.width {
                        return Err(format!(
                            "signal {}: {} bits in one run, {} in another",
                            s.name, m.width, s.width
                        ));
                    }
                    let or = |a: &str, b: &str| -> Result<String, String> {
                        Ok(format!(
                            "{:x}",
                            hex_value(a, &s.name)? | hex_value(b, &s.name)?
                        ))
                    };
                    m.rose = or(&m.rose, &s.rose)?;
                    m.fell = or(&m.fell, &s.fell)?;
                }
                None => {
                    at.insert(s.name.clone(), self.signals.len());
                    self.signals.push(s.clone());
                }
            }
        }
        for f in &other.fsms {
            match self.fsms.iter_mut().find(|m| m.instance == f.instance) {
                Some(m) => {
                    m.states.extend(f.states.iter().copied());
                    m.arcs.extend(f.arcs.iter().copied());
                }
                None => self.fsms.push(f.clone()),
            }
        }
        for r in &other.registers {
            match self.registers.iter_mut().find(|m| m.addr == r.addr) {
                Some(m) => {
                    m.writes += r.writes;
                    m.reads += r.reads;
                    m.wrote0 |= r.wrote0;
                    m.wrote1 |= r.wrote1;
                }
                None => self.registers.push(r.clone()),
            }
        }
        self.registers.sort_by_key(|r| r.addr);
        self.unmapped_writes += other.unmapped_writes;
        self.unmapped_reads += other.unmapped_reads;
        Ok(())
    }
}

/// Merges runs by top (in the order the tops first appear).
pub fn merge_all(runs: Vec<CoverageData>) -> Result<Vec<CoverageData>, String> {
    let mut out: Vec<CoverageData> = Vec::new();
    for r in runs {
        match out.iter_mut().find(|m| m.top == r.top) {
            Some(m) => m.merge(&r)?,
            None => out.push(r),
        }
    }
    Ok(out)
}

/// An FSM's coverage, over all its instances in a top.
#[derive(Debug, Clone, Serialize)]
pub struct FsmSummary {
    pub fsm: String,
    pub instances: usize,
    pub states: usize,
    pub states_seen: usize,
    pub arcs: usize,
    pub arcs_taken: usize,
    /// Legal arcs never taken, `FROM -> TO`.
    pub missing: Vec<String>,
    /// Arcs taken that are not in the list (encodings or names): a finding to look at.
    pub illegal: Vec<String>,
}

/// The figures of one top.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    pub top: String,
    pub runs: u64,
    pub cycles: u64,
    pub signals: usize,
    /// Bits not waived.
    pub bits: u64,
    pub bits_waived: u64,
    /// Bits seen rising and falling.
    pub bits_toggled: u64,
    pub toggle_pct: f64,
    /// Waived bits that toggled anyway (a waiver to revisit).
    pub waived_toggled: u64,
    /// Signals with waived bits that toggled anyway: `name [bits]`.
    pub waived_but_toggled: Vec<String>,
    /// Signals with untoggled bits: `name [bits] (never rose|never fell|neither)`.
    pub untoggled: Vec<String>,
    pub fsms: Vec<FsmSummary>,
    pub arcs: usize,
    pub arcs_taken: usize,
    pub registers: usize,
    pub registers_written: usize,
    pub registers_read: usize,
    /// Registers both written and read.
    pub registers_covered: usize,
    /// Registers never written or never read.
    pub registers_missing: Vec<String>,
}

fn ranges(bits: u128, width: u32) -> String {
    let mut out = Vec::new();
    let mut b = 0;
    while b < width {
        if bits >> b & 1 == 1 {
            let lo = b;
            while b + 1 < width && bits >> (b + 1) & 1 == 1 {
                b += 1;
            }
            out.push(if lo == b {
                format!("{b}")
            } else {
                format!("{b}:{lo}")
            });
        }
        b += 1;
    }
    out.reverse();
    out.join(",")
}

impl Summary {
    /// The figures of `d` under the reviewed waivers and FSM definitions.
    pub fn of(d: &CoverageData, defs: &Definitions) -> Result<Summary, String> {
        let waivers: Vec<(&Waiver, u128)> = defs
            .waiver
            .iter()
            .filter(|w| w.tops.is_empty() || w.tops.iter().any(|t| t == &d.top))
            .map(|w| {
                let m = w.bits.as_deref().and_then(parse_bits).unwrap_or(u128::MAX);
                (w, m)
            })
            .collect();
        let (mut bits, mut waived, mut toggled, mut waived_toggled) = (0u64, 0u64, 0u64, 0u64);
        let mut untoggled = Vec::new();
        let mut waived_but_toggled = Vec::new();
        for s in &d.signals {
            let m = mask(s.width);
            let wv = waivers
                .iter()
                .filter(|(w, _)| glob(&w.signal, &s.name))
                .fold(0u128, |a, (_, b)| a | b)
                & m;
            let rose = hex_value(&s.rose, &s.name)?;
            let fell = hex_value(&s.fell, &s.name)?;
            let both = rose & fell;
            bits += u64::from((m & !wv).count_ones());
            waived += u64::from(wv.count_ones());
            toggled += u64::from((both & !wv).count_ones());
            waived_toggled += u64::from((both & wv).count_ones());
            if both & wv != 0 {
                waived_but_toggled.push(format!("{} [{}]", s.name, ranges(both & wv, s.width)));
            }
            let missing = m & !wv & !both;
            if missing != 0 {
                let neither = missing & !rose & !fell;
                let why = if neither == missing {
                    "never changed"
                } else if missing & rose == missing {
                    "never fell"
                } else if missing & fell == missing {
                    "never rose"
                } else {
                    "never changed or one way only"
                };
                let r = if s.width == 1 {
                    String::new()
                } else {
                    format!(" [{}]", ranges(missing, s.width))
                };
                untoggled.push(format!("{}{r} ({why})", s.name));
            }
        }
        let mut fsms = Vec::new();
        for f in &defs.fsm {
            let inst: Vec<&FsmCov> = d.fsms.iter().filter(|c| c.fsm == f.name).collect();
            if inst.is_empty() {
                continue;
            }
            let name_of = |v: u64| {
                f.states
                    .iter()
                    .find(|(_, e)| **e == v)
                    .map(|(n, _)| n.clone())
                    .unwrap_or_else(|| format!("{v}"))
            };
            let seen: BTreeSet<u64> = inst.iter().flat_map(|c| c.states.iter().copied()).collect();
            let taken: BTreeSet<(u64, u64)> =
                inst.iter().flat_map(|c| c.arcs.iter().copied()).collect();
            let legal: BTreeSet<(u64, u64)> = f
                .arcs
                .iter()
                .filter_map(|a| parse_arc(a))
                .map(|(a, b)| (f.states[a], f.states[b]))
                .collect();
            fsms.push(FsmSummary {
                fsm: f.name.clone(),
                instances: inst.len(),
                states: f.states.len(),
                states_seen: f.states.values().filter(|v| seen.contains(v)).count(),
                arcs: legal.len(),
                arcs_taken: legal.intersection(&taken).count(),
                missing: legal
                    .difference(&taken)
                    .map(|(a, b)| format!("{} -> {}", name_of(*a), name_of(*b)))
                    .collect(),
                illegal: taken
                    .difference(&legal)
                    .map(|(a, b)| format!("{} -> {}", name_of(*a), name_of(*b)))
                    .collect(),
            });
        }
        let reg_done = |r: &&RegCov| r.writes > 0 && r.reads > 0;
        Ok(Summary {
            top: d.top.clone(),
            runs: d.runs,
            cycles: d.cycles,
            signals: d.signals.len(),
            bits,
            bits_waived: waived,
            bits_toggled: toggled,
            toggle_pct: if bits == 0 {
                100.0
            } else {
                100.0 * toggled as f64 / bits as f64
            },
            waived_toggled,
            waived_but_toggled,
            untoggled,
            arcs: fsms.iter().map(|f| f.arcs).sum(),
            arcs_taken: fsms.iter().map(|f| f.arcs_taken).sum(),
            fsms,
            registers: d.registers.len(),
            registers_written: d.registers.iter().filter(|r| r.writes > 0).count(),
            registers_read: d.registers.iter().filter(|r| r.reads > 0).count(),
            registers_covered: d.registers.iter().filter(reg_done).count(),
            registers_missing: d
                .registers
                .iter()
                .filter(|r| !reg_done(r))
                .map(|r| {
                    let what = match (r.writes > 0, r.reads > 0) {
                        (false, false) => "neither written nor read",
                        (false, true) => "never written",
                        _ => "never read",
                    };
                    format!("{} @0x{:03x} {} ({what})", r.name, r.addr, r.access)
                })
                .collect(),
        })
    }

    /// The text report; `untoggled`: how many untoggled signals to list.
    pub fn text(&self, untoggled: usize) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{}: {} run(s), {} cycles; toggle {:.1} % ({} of {} bits both ways, {} waived{}); FSM arcs {} of {}; registers written and read {} of {}",
            self.top,
            self.runs,
            self.cycles,
            self.toggle_pct,
            self.bits_toggled,
            self.bits,
            self.bits_waived,
            if self.waived_toggled > 0 { format!(", {} waived bits toggled anyway", self.waived_toggled) } else { String::new() },
            self.arcs_taken,
            self.arcs,
            self.registers_covered,
            self.registers
        );
        for f in &self.fsms {
            let _ = writeln!(
                s,
                "  fsm {} ({} instance(s)): states {} of {}, arcs {} of {}{}{}",
                f.fsm,
                f.instances,
                f.states_seen,
                f.states,
                f.arcs_taken,
                f.arcs,
                if f.missing.is_empty() {
                    String::new()
                } else {
                    format!("; never taken: {}", f.missing.join(", "))
                },
                if f.illegal.is_empty() {
                    String::new()
                } else {
                    format!("; NOT IN THE LIST: {}", f.illegal.join(", "))
                },
            );
        }
        if !self.registers_missing.is_empty() {
            let n = self.registers_missing.len();
            let shown: Vec<&str> = self
                .registers_missing
                .iter()
                .take(untoggled.max(8))
                .map(|x| x.as_str())
                .collect();
            let _ = writeln!(
                s,
                "  registers not both written and read ({n}): {}{}",
                shown.join("; "),
                if n > shown.len() { "; ..." } else { "" }
            );
        }
        if untoggled > 0 && !self.untoggled.is_empty() {
            let _ = writeln!(s, "  untoggled ({} signals):", self.untoggled.len());
            for u in self.untoggled.iter().take(untoggled) {
                let _ = writeln!(s, "    {u}");
            }
            if self.untoggled.len() > untoggled {
                let _ = writeln!(s, "    ... {} more", self.untoggled.len() - untoggled);
            }
        }
        if untoggled > 0 && !self.waived_but_toggled.is_empty() {
            let n = self.waived_but_toggled.len();
            let _ = writeln!(s, "  waived but toggled ({n} signals: waivers to revisit):");
            for u in self.waived_but_toggled.iter().take(untoggled) {
                let _ = writeln!(s, "    {u}");
            }
            if n > untoggled {
                let _ = writeln!(s, "    ... {} more", n - untoggled);
            }
        }
        s
    }

    /// The floor's failures for this top (empty: at or above the floor, or no floor).
    pub fn below_floor(&self, defs: &Definitions) -> Vec<String> {
        let mut v = Vec::new();
        for f in defs.floor.iter().filter(|f| f.top == self.top) {
            if self.toggle_pct + 1e-9 < f.toggle_pct {
                v.push(format!(
                    "{}: toggle coverage {:.2} % is below its floor {:.2} %",
                    self.top, self.toggle_pct, f.toggle_pct
                ));
            }
            if self.arcs_taken < f.arcs {
                v.push(format!(
                    "{}: {} FSM arcs taken, below its floor {}",
                    self.top, self.arcs_taken, f.arcs
                ));
            }
            if self.registers_covered < f.registers {
                v.push(format!(
                    "{}: {} registers written and read, below its floor {}",
                    self.top, self.registers_covered, f.registers
                ));
            }
        }
        v
    }
}

/// Where a run of this process writes its coverage when [`DIR_ENV`] is set.
pub fn env_file(top: &str) -> Option<PathBuf> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    let dir = std::env::var_os(DIR_ENV)?;
    let n = N.fetch_add(1, Ordering::Relaxed);
    Some(PathBuf::from(dir).join(format!("{top}-{}-{n}.json", std::process::id())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        assert!(glob("*.state_q", "TOP.a.gen[0].u_in.state_q"));
        assert!(!glob("*.state_q", "TOP.a.state_d"));
        assert!(glob("TOP.*u_rx.mode_q", "TOP.x.u_tcl.u_rx.mode_q"));
        assert!(glob("*", ""));
        assert!(!glob("a*b", "acbx"));
    }

    #[test]
    fn definitions_parse() {
        let d = definitions().unwrap();
        assert!(!d.fsm.is_empty());
        assert!(d.waiver.iter().all(|w| !w.reason.is_empty()));
        assert!(d.run.iter().any(|r| r.design == "link"));
        assert!(d.run.iter().all(|r| r.config().is_ok()));
    }

    #[test]
    fn a_bad_campaign_run_is_refused_naming_it() {
        let bad = |run: &str| parse_definitions(&format!("[[run]]\n{run}")).unwrap_err();
        let e = bad("design = \"nic\"\ncycles = 10\nwhy = \"x\"");
        assert!(e.contains("run nic constrained 10 cycles: design"), "{e}");
        let e = bad("design = \"link\"\ncycles = 10\nwhy = \"x\"\nset = [\"link.num_vcs=9\"]");
        assert!(e.contains("link.num_vcs"), "{e}");
        let e = bad("design = \"link\"\ncycles = 10\nwhy = \"x\"\nstimulus = \"loud\"");
        assert!(e.contains("stimulus 'loud'"), "{e}");
        let e = bad("design = \"link\"\ncycles = 0\nwhy = \"x\"");
        assert!(e.contains("cycles above 0"), "{e}");
        assert!(bad("design = \"link\"\ncycles = 10").contains("why"));
    }

    #[test]
    fn ranges_read_high_to_low() {
        assert_eq!(ranges(0b1011_0000, 8), "7,5:4");
        assert_eq!(ranges(1, 1), "0");
    }

    fn data(top: &str, rose: &str, fell: &str) -> CoverageData {
        CoverageData {
            format: FORMAT.into(),
            top: top.into(),
            runs: 1,
            cycles: 10,
            signals: vec![SignalCov {
                name: "TOP.x".into(),
                width: 4,
                rose: rose.into(),
                fell: fell.into(),
            }],
            fsms: vec![],
            registers: register_map(1, 0),
            unmapped_writes: 0,
            unmapped_reads: 0,
        }
    }

    #[test]
    fn merge_is_a_union_and_summary_counts_both_ways() {
        let mut a = data("t", "3", "1");
        let mut b = data("t", "4", "6");
        a.registers[1].writes = 1;
        b.registers[1].reads = 2;
        a.merge(&b).unwrap();
        assert_eq!((a.runs, a.cycles), (2, 20));
        assert_eq!(a.signals[0].rose, "7");
        assert_eq!(a.signals[0].fell, "7");
        let d = Definitions {
            fsm: vec![],
            waiver: vec![],
            floor: vec![],
            run: vec![],
        };
        let s = Summary::of(&a, &d).unwrap();
        assert_eq!((s.bits, s.bits_toggled), (4, 3));
        assert_eq!(s.untoggled, vec!["TOP.x [3] (never changed)".to_string()]);
        assert_eq!(s.registers_covered, 1);
        assert!(
            merge_all(vec![a.clone(), data("u", "0", "0")])
                .unwrap()
                .len()
                == 2
        );
        assert!(a.merge(&data("u", "0", "0")).is_err());
    }

    #[test]
    fn waivers_take_bits_out() {
        let a = data("t", "f", "7");
        let d = Definitions {
            fsm: vec![],
            waiver: vec![Waiver {
                signal: "TOP.*".into(),
                bits: Some("3".into()),
                tops: vec![],
                reason: "r".into(),
            }],
            floor: vec![Floor {
                top: "t".into(),
                toggle_pct: 100.0,
                arcs: 0,
                registers: 0,
            }],
            run: vec![],
        };
        let s = Summary::of(&a, &d).unwrap();
        assert_eq!((s.bits, s.bits_waived, s.bits_toggled), (3, 1, 3));
        assert!(s.below_floor(&d).is_empty());
        let d2 = Definitions {
            waiver: vec![],
            ..d
        };
        assert_eq!(Summary::of(&a, &d2).unwrap().below_floor(&d2).len(), 1);
    }

    #[test]
    fn waiver_bits_are_lists_of_ranges_and_bits() {
        assert_eq!(parse_bits("3"), Some(0b1000));
        assert_eq!(
            parse_bits("31:11,2:0"),
            Some((mask(32) & !mask(11)) | 0b111)
        );
        assert_eq!(parse_bits("7:4, 1"), Some(0xf2));
        for bad in ["", "4:7", "128", "1,,2", "a:0"] {
            assert_eq!(parse_bits(bad), None, "{bad}");
        }
    }
}
