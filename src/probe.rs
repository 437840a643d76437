//! Probes: every block lists its named signals (registers and ports, by their RTL names) to a
//! [`Visitor`]. The same walk declares the signals once (names and widths) and then samples
//! their values every half cycle, so the model's VCD and the lockstep comparison see exactly
//! the names Verilator sees.

/// Receives the signals of a hierarchy, scope by scope.
pub trait Visitor {
    /// Enter an instance scope (`u_tx`, `gen_vc[0]`, ...).
    fn enter(&mut self, scope: &str);
    /// Leave the innermost scope.
    fn leave(&mut self);
    /// A signal `name` of `width` bits (1..=128) with its current value.
    fn sig(&mut self, name: &str, width: u32, value: u128);
    /// Element `idx` of an unpacked array signal, named `name[idx]`.
    fn sig_idx(&mut self, name: &str, idx: usize, width: u32, value: u128);
    /// Level of the clock at the instant being sampled (every scope shows `clk_i`).
    fn clk(&self) -> bool {
        false
    }
}

/// Emit the clock and reset ports every RTL module has.
pub fn clk_rst(v: &mut dyn Visitor) {
    let c = v.clk();
    v.sig("clk_i", 1, c as u128);
    v.sig("rst_ni", 1, 1);
}

/// Collects full dotted names and widths, in visiting order.
#[derive(Default)]
pub struct Declarer {
    scope: Vec<String>,
    pub names: Vec<(String, u32)>,
}

impl Declarer {
    fn full(&self, leaf: &str) -> String {
        let mut s = self.scope.join(".");
        if !s.is_empty() {
            s.push('.');
        }
        s.push_str(leaf);
        s
    }
}

impl Visitor for Declarer {
    fn enter(&mut self, scope: &str) {
        self.scope.push(scope.to_string());
    }
    fn leave(&mut self) {
        self.scope.pop();
    }
    fn sig(&mut self, name: &str, width: u32, _value: u128) {
        let n = self.full(name);
        self.names.push((n, width));
    }
    fn sig_idx(&mut self, name: &str, idx: usize, width: u32, _value: u128) {
        let n = self.full(&format!("{name}[{idx}]"));
        self.names.push((n, width));
    }
}

/// Collects values in visiting order, without building names (the hot path).
#[derive(Default)]
pub struct Sampler {
    pub values: Vec<u128>,
    /// Clock level of the instant being sampled.
    pub clk: bool,
}

impl Sampler {
    pub fn clear(&mut self) {
        self.values.clear();
    }
}

impl Visitor for Sampler {
    fn enter(&mut self, _scope: &str) {}
    fn leave(&mut self) {}
    fn sig(&mut self, _name: &str, width: u32, value: u128) {
        self.values.push(value & mask(width));
    }
    fn sig_idx(&mut self, _name: &str, _idx: usize, width: u32, value: u128) {
        self.values.push(value & mask(width));
    }
    fn clk(&self) -> bool {
        self.clk
    }
}

/// All-ones in the low `width` bits.
pub fn mask(width: u32) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

/// Signal-name helpers for blocks with an arbitrary number of instances.
pub fn b(v: bool) -> u128 {
    v as u128
}

/// `["<prefix>[0]", ..., "<prefix>[63]"]` at compile time: the scope names of generate blocks.
#[macro_export]
macro_rules! gen_names {
    ($p:literal) => {
        [
            concat!($p, "[0]"),
            concat!($p, "[1]"),
            concat!($p, "[2]"),
            concat!($p, "[3]"),
            concat!($p, "[4]"),
            concat!($p, "[5]"),
            concat!($p, "[6]"),
            concat!($p, "[7]"),
            concat!($p, "[8]"),
            concat!($p, "[9]"),
            concat!($p, "[10]"),
            concat!($p, "[11]"),
            concat!($p, "[12]"),
            concat!($p, "[13]"),
            concat!($p, "[14]"),
            concat!($p, "[15]"),
            concat!($p, "[16]"),
            concat!($p, "[17]"),
            concat!($p, "[18]"),
            concat!($p, "[19]"),
            concat!($p, "[20]"),
            concat!($p, "[21]"),
            concat!($p, "[22]"),
            concat!($p, "[23]"),
            concat!($p, "[24]"),
            concat!($p, "[25]"),
            concat!($p, "[26]"),
            concat!($p, "[27]"),
            concat!($p, "[28]"),
            concat!($p, "[29]"),
            concat!($p, "[30]"),
            concat!($p, "[31]"),
            concat!($p, "[32]"),
            concat!($p, "[33]"),
            concat!($p, "[34]"),
            concat!($p, "[35]"),
            concat!($p, "[36]"),
            concat!($p, "[37]"),
            concat!($p, "[38]"),
            concat!($p, "[39]"),
            concat!($p, "[40]"),
            concat!($p, "[41]"),
            concat!($p, "[42]"),
            concat!($p, "[43]"),
            concat!($p, "[44]"),
            concat!($p, "[45]"),
            concat!($p, "[46]"),
            concat!($p, "[47]"),
            concat!($p, "[48]"),
            concat!($p, "[49]"),
            concat!($p, "[50]"),
            concat!($p, "[51]"),
            concat!($p, "[52]"),
            concat!($p, "[53]"),
            concat!($p, "[54]"),
            concat!($p, "[55]"),
            concat!($p, "[56]"),
            concat!($p, "[57]"),
            concat!($p, "[58]"),
            concat!($p, "[59]"),
            concat!($p, "[60]"),
            concat!($p, "[61]"),
            concat!($p, "[62]"),
            concat!($p, "[63]"),
        ]
    };
}
