//! End-to-end checks of the Verilator bridge (`exanet::cosim::rtl`) on the self-test top
//! `testbench/rtl/exanet_selftest_top.sv`, against a Rust reference of that design.
//!
//! Every test needs the Verilated self-test: in a binary built without Verilator (or with
//! `EXANET_NO_RTL=1`) they fail with the reason, they never skip.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use exanet::cosim::rtl::{built_tops, RtlError, RtlModel, RtlTop, SignalId};
use rand_mt::Mt64;

// The header parser of build.rs, for its unit tests (name decoding, type parsing).
#[path = "../testbench/vlheader.rs"]
mod vlheader;

/// Clock period in ps (156.25 MHz), as in `docs/architecture.md`.
const PERIOD_PS: u64 = 6400;
const TOP: &str = "TOP.exanet_selftest_top";
const FORBIDDEN_DATA: u32 = 0xDEAD_BEEF;

/// True for the self-test's own signals. Verilator keeps every package of the sources in
/// every top, so the table also holds the packages of rtl/, which these checks ignore.
fn ours(name: &str) -> bool {
    let rest = name.strip_prefix("TOP.").unwrap_or(name);
    !rest.contains('.')
        || rest.starts_with("exanet_selftest_top.")
        || rest.starts_with("exanet_base_selftest_pkg.")
}

fn selftest() -> RtlModel {
    RtlModel::new(RtlTop::SelfTest).unwrap_or_else(|e| panic!("{e}"))
}

fn mask(width: u32) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1 << width) - 1
    }
}

/// Inputs of one cycle.
#[derive(Clone, Debug, Default)]
struct Inputs {
    en: bool,
    step: u16,
    data64: u64,
    data100: u128,
    data128: u128,
    wr_en: bool,
    wr_addr: u8,
    wr_data: u32,
    rd_addr: u8,
    /// `vec_i[0..3]` (100 bits each) and `sel_i[0..2]`: unpacked array ports.
    vec: [u128; 3],
    sel: [u8; 2],
}

impl Inputs {
    fn random(rng: &mut Mt64) -> Self {
        let wide = |rng: &mut Mt64| (u128::from(rng.next_u64()) << 64) | u128::from(rng.next_u64());
        let r = rng.next_u64();
        let mut i = Inputs {
            en: r & 3 != 0, // mostly enabled, so the counters move
            step: (r >> 8) as u16 & 0x3ff,
            data64: rng.next_u64(),
            data100: wide(rng) & mask(100),
            data128: wide(rng),
            wr_en: r >> 20 & 1 == 1,
            wr_addr: (r >> 24) as u8 & 7,
            wr_data: (r >> 32) as u32,
            rd_addr: (r >> 28) as u8 & 7,
            vec: [
                wide(rng) & mask(100),
                wide(rng) & mask(100),
                wide(rng) & mask(100),
            ],
            sel: [(r >> 40) as u8 & 7, (r >> 44) as u8 & 7],
        };
        if i.wr_data == FORBIDDEN_DATA {
            i.wr_data ^= 1;
        }
        i
    }

    /// (port, value) pairs, port names without `TOP.`.
    fn ports(&self) -> [(&'static str, u128); 14] {
        [
            ("en_i", u128::from(self.en)),
            ("step_i", u128::from(self.step)),
            ("data64_i", u128::from(self.data64)),
            ("data100_i", self.data100),
            ("data128_i", self.data128),
            ("wr_en_i", u128::from(self.wr_en)),
            ("wr_addr_i", u128::from(self.wr_addr)),
            ("wr_data_i", u128::from(self.wr_data)),
            ("rd_addr_i", u128::from(self.rd_addr)),
            ("vec_i[0]", self.vec[0]),
            ("vec_i[1]", self.vec[1]),
            ("vec_i[2]", self.vec[2]),
            ("sel_i[0]", u128::from(self.sel[0])),
            ("sel_i[1]", u128::from(self.sel[1])),
        ]
    }
}

/// `exanet_selftest_cnt`: registers and next state.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Cnt {
    cnt: u16,
    tick: bool,
}

impl Cnt {
    fn next(self, width: u32, en: bool, step: u16) -> Cnt {
        if en {
            Cnt {
                cnt: ((u32::from(self.cnt) + u32::from(step)) & ((1 << width) - 1)) as u16,
                tick: !self.tick,
            }
        } else {
            self
        }
    }
}

/// Rust reference of `exanet_selftest_top`: its registers.
#[derive(Clone, Debug, Default, PartialEq)]
struct SelfTestRef {
    u_a: Cnt,
    u_b: Cnt,
    lanes: [Cnt; 2],
    /// `gen_vc[k].u_lane.u_delay.q_q`: the lane's count one cycle ago.
    prev: [u16; 2],
    flag: bool,
    acc: u64,
    wide: u128,
    sum: u128,
    pipe: [u16; 4],
    mem: [u32; 8],
    rd_data: u32,
    grid: [[u8; 3]; 2],
    vec: [u128; 2],
}

const LANE_WIDTH: u32 = 6;

impl SelfTestRef {
    fn u_b_step(i: &Inputs) -> u16 {
        !i.step & 0x3ff
    }

    /// The registers after a rising edge with inputs `i` (the `_d` values).
    fn next(&self, i: &Inputs) -> SelfTestRef {
        let mut n = self.clone();
        n.u_a = self.u_a.next(10, i.en, i.step);
        n.u_b = self.u_b.next(10, !i.en, Self::u_b_step(i));
        for (k, lane) in n.lanes.iter_mut().enumerate() {
            *lane = lane.next(LANE_WIDTH, i.en, k as u16 + 1);
        }
        n.prev = [self.lanes[0].cnt, self.lanes[1].cnt];
        n.flag = self.flag ^ i.en;
        n.acc = self.acc.wrapping_add(i.data64);
        n.wide = (((self.wide << 1) | (self.wide >> 99)) & mask(100)) ^ i.data100;
        n.sum = self.sum.wrapping_add(i.data128);
        n.pipe = [i.data64 as u16, self.pipe[0], self.pipe[1], self.pipe[2]];
        if i.wr_en {
            n.mem[usize::from(i.wr_addr)] = i.wr_data;
        }
        n.rd_data = self.mem[usize::from(i.rd_addr)];
        for (r, row) in n.grid.iter_mut().enumerate() {
            for (c, g) in row.iter_mut().enumerate() {
                *g = self.grid[r][c].wrapping_add((8 * r + c + 1) as u8);
            }
        }
        for k in 0..2 {
            n.vec[k] = (i.vec[k] ^ (i.vec[2] << i.sel[k])) & mask(100);
        }
        n
    }

    /// The value of every signal of the design (full VCD names) with these registers and
    /// inputs: registers `_q`, next state `_d`, ports at every level.
    fn expected(&self, i: &Inputs, rst_n: bool, clk: bool) -> BTreeMap<String, u128> {
        let d = self.next(i);
        let mut e = BTreeMap::new();
        let mut put = |name: String, v: u128| {
            assert!(e.insert(name.clone(), v).is_none(), "{name} twice");
        };
        let lane_cnt = u128::from(self.lanes[0].cnt) | u128::from(self.lanes[1].cnt) << 6;
        let lane_prev = u128::from(self.prev[0]) | u128::from(self.prev[1]) << 6;
        let ports = i.ports().into_iter().chain([
            ("clk_i", u128::from(clk)),
            ("rst_ni", u128::from(rst_n)),
            ("sum_o", self.sum),
            ("pipe_o", u128::from(self.pipe[3])),
            ("rd_data_o", u128::from(self.rd_data)),
            ("cnt_a_o", u128::from(self.u_a.cnt)),
            ("cnt_b_o", u128::from(self.u_b.cnt)),
            ("lane_cnt_o", lane_cnt),
            ("lane_prev_o", lane_prev),
            ("vec_o[0]", self.vec[0]),
            ("vec_o[1]", self.vec[1]),
        ]);
        for (p, v) in ports {
            put(format!("TOP.{p}"), v);
            put(format!("{TOP}.{p}"), v);
        }
        let counters = [
            ("u_a".to_string(), self.u_a, d.u_a, i.en, i.step),
            ("u_b".to_string(), self.u_b, d.u_b, !i.en, Self::u_b_step(i)),
            (
                "gen_vc[0].u_lane.u_cnt".into(),
                self.lanes[0],
                d.lanes[0],
                i.en,
                1,
            ),
            (
                "gen_vc[1].u_lane.u_cnt".into(),
                self.lanes[1],
                d.lanes[1],
                i.en,
                2,
            ),
        ];
        for (path, q, n, en, step) in counters {
            let s = format!("{TOP}.{path}");
            put(format!("{s}.clk_i"), u128::from(clk));
            put(format!("{s}.rst_ni"), u128::from(rst_n));
            put(format!("{s}.en_i"), u128::from(en));
            put(format!("{s}.step_i"), u128::from(step));
            put(format!("{s}.cnt_o"), u128::from(q.cnt));
            put(format!("{s}.cnt_q"), u128::from(q.cnt));
            put(format!("{s}.cnt_d"), u128::from(n.cnt));
            put(format!("{s}.tick_q"), u128::from(q.tick));
            put(format!("{s}.tick_d"), u128::from(n.tick));
        }
        for k in 0..2 {
            let lane = format!("{TOP}.gen_vc[{k}].u_lane");
            let (cnt, prev) = (u128::from(self.lanes[k].cnt), u128::from(self.prev[k]));
            for scope in [lane.clone(), format!("{lane}.u_delay")] {
                put(format!("{scope}.clk_i"), u128::from(clk));
                put(format!("{scope}.rst_ni"), u128::from(rst_n));
            }
            put(format!("{lane}.en_i"), u128::from(i.en));
            put(format!("{lane}.cnt_o"), cnt);
            put(format!("{lane}.cnt_prev_o"), prev);
            put(format!("{lane}.u_delay.d_i"), cnt);
            put(format!("{lane}.u_delay.q_o"), prev);
            put(format!("{lane}.u_delay.q_q"), prev);
        }
        // A register `name_q` (element `index`, "" for a scalar) and its next state `name_d`.
        let mut reg = |name: &str, index: String, q: u128, n: u128| {
            put(format!("{TOP}.{name}_q{index}"), q);
            put(format!("{TOP}.{name}_d{index}"), n);
        };
        reg("flag", String::new(), self.flag.into(), d.flag.into());
        reg("acc", String::new(), self.acc.into(), d.acc.into());
        reg("wide", String::new(), self.wide, d.wide);
        reg("sum", String::new(), self.sum, d.sum);
        reg(
            "rd_data",
            String::new(),
            self.rd_data.into(),
            d.rd_data.into(),
        );
        for k in 0..4 {
            reg(
                "pipe",
                format!("[{k}]"),
                self.pipe[k].into(),
                d.pipe[k].into(),
            );
        }
        for k in 0..8 {
            reg("mem", format!("[{k}]"), self.mem[k].into(), d.mem[k].into());
        }
        for r in 0..2 {
            for c in 0..3 {
                let (q, n) = (self.grid[r][c], d.grid[r][c]);
                reg("grid", format!("[{r}][{c}]"), q.into(), n.into());
            }
        }
        for k in 0..2 {
            reg("vec", format!("[{k}]"), self.vec[k], d.vec[k]);
        }
        e
    }
}

/// Drives one model and its reference through the clocking convention of
/// `docs/architecture.md`, checking every signal after every `eval`.
struct Bench {
    rtl: RtlModel,
    reference: SelfTestRef,
    ids: BTreeMap<String, SignalId>,
    clk: SignalId,
    rst_n: SignalId,
    inputs: Vec<SignalId>,
    cycle: u64,
    checked: usize,
}

impl Bench {
    fn new(rtl: RtlModel) -> Bench {
        let find = |n: &str| {
            rtl.find(n)
                .unwrap_or_else(|| panic!("{n} is not in the signal table"))
        };
        let ids = rtl
            .signals()
            .iter()
            .map(|s| (s.name.clone(), find(&s.name)))
            .collect();
        let inputs = Inputs::default()
            .ports()
            .iter()
            .map(|(p, _)| find(&format!("TOP.{p}")))
            .collect();
        Bench {
            clk: find("TOP.clk_i"),
            rst_n: find("TOP.rst_ni"),
            inputs,
            ids,
            rtl,
            reference: SelfTestRef::default(),
            cycle: 0,
            checked: 0,
        }
    }

    fn set(&mut self, id: SignalId, v: u128) {
        self.rtl.set(id, v).expect("an input");
    }

    /// Reset before time 0: an async reset edge, and a clock edge while in reset.
    fn reset(&mut self) {
        let (clk, rst_n) = (self.clk, self.rst_n);
        self.set(clk, 0);
        self.set(rst_n, 1);
        self.rtl.eval();
        self.set(rst_n, 0);
        self.rtl.eval();
        self.set(clk, 1);
        self.rtl.eval();
        self.set(clk, 0);
        self.rtl.eval();
        self.set(rst_n, 1);
        self.reference = SelfTestRef::default();
        self.cycle = 0;
    }

    fn check(&mut self, i: &Inputs, clk: bool, when: &str) {
        let expected = self.reference.expected(i, true, clk);
        for (name, &id) in &self.ids {
            // Loop variables of `always_comb` for-loops: Verilator keeps them, their value
            // is not part of the design's behaviour.
            if name.contains(".unnamedblk") || !ours(name) {
                continue;
            }
            let want = *expected
                .get(name)
                .unwrap_or_else(|| panic!("the reference has no value for {name}"));
            let got = self.rtl.get(id);
            assert_eq!(
                got, want,
                "{name} at cycle {} ({when}): RTL {got:#x}, reference {want:#x}",
                self.cycle
            );
            self.checked += 1;
        }
        for name in expected.keys() {
            assert!(
                self.ids.contains_key(name),
                "{name} is missing from the table"
            );
        }
    }

    /// One cycle: inputs, clk 0, eval, dump, check; clk 1, eval, dump, check.
    fn cycle(&mut self, i: &Inputs) {
        for (k, (_, v)) in i.ports().iter().enumerate() {
            let id = self.inputs[k];
            self.set(id, *v);
        }
        let t = self.cycle * PERIOD_PS;
        let clk = self.clk;
        self.set(clk, 0);
        self.rtl.eval();
        self.rtl.trace_dump(t);
        self.check(i, false, "clk 0");
        self.set(clk, 1);
        self.rtl.eval();
        self.rtl.trace_dump(t + PERIOD_PS / 2);
        self.reference = self.reference.next(i);
        self.check(i, true, "clk 1");
        self.cycle += 1;
    }
}

#[test]
fn selftest_is_built() {
    let tops = built_tops();
    assert!(
        tops.contains(&(RtlTop::SelfTest, true)),
        "{}",
        RtlModel::new(RtlTop::SelfTest).expect_err("not built")
    );
    assert_eq!(tops.len(), RtlTop::ALL.len());
    assert_eq!(RtlTop::SelfTest.module(), "exanet_selftest_top");
    assert_eq!(RtlTop::SelfTest.name(), "selftest");
}

/// Every reason a top can be missing from the binary names the top and says what to do. The
/// reasons are built here rather than waited for: a full build (CI's) has every top, so a test
/// that only looked at absent tops would check nothing there.
#[test]
fn absent_tops_say_why() {
    use exanet::cosim::rtl::NotBuilt;
    for top in RtlTop::ALL {
        for (why, hint) in [
            (NotBuilt::NoVerilator, "apt-get install verilator"),
            (NotBuilt::Disabled, "EXANET_NO_RTL=1"),
            (NotBuilt::NoRtlFile, "rtl/ or testbench/rtl/"),
        ] {
            let msg = RtlError::NotBuilt { top, why }.to_string();
            assert!(msg.contains(top.module()), "{msg}");
            assert!(msg.contains(hint), "{why:?}: {msg}");
        }
    }
    // and a top that is absent in this build says so through `RtlModel::new`
    for (top, built) in built_tops() {
        if !built {
            let e = RtlModel::new(top).expect_err("not built");
            assert!(matches!(e, RtlError::NotBuilt { .. }), "{e}");
        }
    }
}

#[test]
fn every_signal_matches_the_reference_for_500_cycles() {
    let seed = 0x5e1f_7e57;
    let mut rng = Mt64::new(seed);
    let mut b = Bench::new(selftest());
    b.reset();
    for _ in 0..500 {
        let i = Inputs::random(&mut rng);
        b.cycle(&i);
    }
    assert!(!b.rtl.got_error(), "an assertion fired (seed {seed:#x})");
    // A reset in the middle of a run clears every register again.
    b.reset();
    for _ in 0..20 {
        let i = Inputs::random(&mut rng);
        b.cycle(&i);
    }
    assert!(
        b.checked > 500 * 2 * 100,
        "checked only {} values",
        b.checked
    );
}

#[test]
fn the_table_has_the_expected_shapes() {
    let m = selftest();
    let width = |n: &str| {
        let id = m.find(n).unwrap_or_else(|| panic!("{n} missing"));
        m.signals()[id.index()].width
    };
    assert_eq!(width(&format!("{TOP}.flag_q")), 1);
    assert_eq!(width(&format!("{TOP}.u_a.cnt_q")), 10);
    assert_eq!(width(&format!("{TOP}.gen_vc[1].u_lane.u_cnt.cnt_q")), 6);
    assert_eq!(width(&format!("{TOP}.gen_vc[1].u_lane.u_delay.q_q")), 6);
    assert_eq!(width(&format!("{TOP}.acc_q")), 64);
    assert_eq!(width(&format!("{TOP}.wide_q")), 100);
    assert_eq!(width(&format!("{TOP}.sum_q")), 128);
    assert_eq!(width(&format!("{TOP}.pipe_q[3]")), 16);
    assert_eq!(width(&format!("{TOP}.mem_q[7]")), 32);
    assert_eq!(width(&format!("{TOP}.grid_q[1][2]")), 8);
    assert_eq!(width("TOP.data128_i"), 128);
    assert_eq!(width("TOP.vec_i[2]"), 100);
    assert_eq!(width("TOP.sel_i[1]"), 3);
    assert_eq!(width("TOP.vec_o[1]"), 100);
    assert!(
        m.find("TOP.vec_i").is_none(),
        "array ports are element-wise"
    );
    assert!(m.find("TOP.vec_i[3]").is_none());
    assert!(m.find(&format!("{TOP}.mem_q[8]")).is_none());
    assert!(
        m.find(&format!("{TOP}.mem_q")).is_none(),
        "arrays are element-wise"
    );
    assert!(m.find("TOP.no_such_signal").is_none());
    assert!(m.find("").is_none());

    let inputs: BTreeSet<&str> = m
        .signals()
        .iter()
        .filter(|s| s.is_input)
        .map(|s| s.name.as_str())
        .collect();
    let want: BTreeSet<String> = Inputs::default()
        .ports()
        .iter()
        .map(|(p, _)| format!("TOP.{p}"))
        .chain(["TOP.clk_i".into(), "TOP.rst_ni".into()])
        .collect();
    assert_eq!(inputs, want.iter().map(String::as_str).collect());

    // Only parameters are left out of this design's table.
    for (name, why) in m.excluded().iter().filter(|(n, _)| ours(n)) {
        assert_eq!(*why, "parameter", "{name}");
    }
    assert!(m.excluded().contains(&(
        "TOP.exanet_selftest_top.gen_vc[1].u_lane.u_delay.Width",
        "parameter"
    )));
}

#[test]
fn set_refuses_non_inputs_and_masks_inputs() {
    let mut m = selftest();
    for name in [
        format!("{TOP}.u_a.cnt_q"),
        format!("{TOP}.clk_i"), // the top module's copy of a port is not the input
        "TOP.sum_o".to_string(),
        "TOP.vec_o[0]".to_string(),
        format!("{TOP}.vec_i[0]"),
        format!("{TOP}.mem_q[0]"),
    ] {
        let id = m.find(&name).unwrap();
        match m.set(id, 1) {
            Err(RtlError::NotInput { name: n }) => assert_eq!(n, name),
            other => panic!("set({name}) gave {other:?}"),
        }
    }
    for (name, width) in [
        ("TOP.data100_i", 100),
        ("TOP.step_i", 10),
        ("TOP.en_i", 1),
        ("TOP.vec_i[1]", 100),
        ("TOP.sel_i[0]", 3),
    ] {
        let id = m.find(name).unwrap();
        m.set(id, u128::MAX).unwrap();
        assert_eq!(m.get(id), mask(width), "{name}");
        m.eval();
        let inner = m.find(&name.replace("TOP.", &format!("{TOP}."))).unwrap();
        assert_eq!(
            m.get(inner),
            mask(width),
            "{name} inside the top after eval"
        );
    }
    let id = m.find("TOP.data128_i").unwrap();
    let v = 0x0123_4567_89ab_cdef_fedc_ba98_7654_3210_u128;
    m.set(id, v).unwrap();
    assert_eq!(m.get(id), v);
    // Each element of an array input is its own storage: writing one leaves its neighbours.
    let e: Vec<SignalId> = (0..3)
        .map(|k| m.find(&format!("TOP.vec_i[{k}]")).unwrap())
        .collect();
    for (k, &id) in e.iter().enumerate() {
        m.set(id, k as u128 + 1).unwrap();
    }
    m.set(e[1], mask(100)).unwrap();
    assert_eq!([m.get(e[0]), m.get(e[1]), m.get(e[2])], [1, mask(100), 3]);
}

#[test]
fn two_instances_do_not_interfere() {
    let mut a = Bench::new(selftest());
    let mut b = Bench::new(selftest());
    let (mut ra, mut rb) = (Mt64::new(1), Mt64::new(2));
    a.reset();
    b.reset();
    for _ in 0..200 {
        let ia = Inputs::random(&mut ra);
        let ib = Inputs::random(&mut rb);
        a.cycle(&ia);
        b.cycle(&ib);
    }
    assert_ne!(a.reference, b.reference);
    // A model moves to another thread (RtlModel is Send) and goes on there.
    let handle = std::thread::spawn(move || {
        for _ in 0..50 {
            let i = Inputs::random(&mut ra);
            a.cycle(&i);
        }
        a
    });
    for _ in 0..50 {
        let i = Inputs::random(&mut rb);
        b.cycle(&i);
    }
    let a = handle.join().expect("the other thread");
    drop(a);
    // b outlives a's destruction unharmed.
    let i = Inputs::random(&mut rb);
    b.cycle(&i);
}

#[test]
fn many_models_are_created_and_freed() {
    for _ in 0..50 {
        let mut m = selftest();
        m.eval();
    }
}

#[test]
fn a_failed_assertion_is_reported() {
    let mut b = Bench::new(selftest());
    b.reset();
    let mut i = Inputs::default();
    b.cycle(&i);
    assert!(!b.rtl.got_error());
    i.wr_en = true;
    i.wr_data = FORBIDDEN_DATA;
    b.cycle(&i);
    assert!(b.rtl.got_error(), "ForbiddenWrite_A did not fire");
}

/// One `$var` of a VCD: full name, width, id code.
struct VcdVar {
    name: String,
    width: u32,
    code: String,
}

/// What the checks need of a VCD.
struct Vcd {
    timescale: String,
    vars: Vec<VcdVar>,
    /// Last value of every id code, as written (`b` digits, or `0`/`1` for scalars).
    last: BTreeMap<String, String>,
    times: Vec<u64>,
}

/// Parses a VCD as Verilator writes it. Full names join the scopes with dots.
fn parse_vcd(text: &str) -> Vcd {
    let mut scopes: Vec<String> = Vec::new();
    let mut vcd = Vcd {
        timescale: String::new(),
        vars: Vec::new(),
        last: BTreeMap::new(),
        times: Vec::new(),
    };
    let mut tokens = text.split_whitespace();
    while let Some(t) = tokens.next() {
        match t {
            "$timescale" => {
                let ts: Vec<&str> = tokens.by_ref().take_while(|&x| x != "$end").collect();
                vcd.timescale = ts.join(" ");
            }
            "$scope" => {
                let _kind = tokens.next();
                scopes.push(tokens.next().expect("scope name").to_string());
                assert_eq!(tokens.next(), Some("$end"));
            }
            "$upscope" => {
                scopes.pop();
                assert_eq!(tokens.next(), Some("$end"));
            }
            "$var" => {
                // kind width code reference [range] $end
                let rest: Vec<&str> = tokens.by_ref().take_while(|&x| x != "$end").collect();
                vcd.vars.push(VcdVar {
                    name: format!("{}.{}", scopes.join("."), rest[3]),
                    width: rest[1].parse().expect("width"),
                    code: rest[2].to_string(),
                });
            }
            "$date" | "$version" | "$comment" | "$enddefinitions" => {
                tokens.by_ref().take_while(|&x| x != "$end").for_each(drop);
            }
            "$dumpvars" | "$dumpall" | "$dumpon" | "$dumpoff" | "$end" => {}
            _ if t.starts_with('#') => vcd.times.push(t[1..].parse().expect("time")),
            _ if t.starts_with(['b', 'r']) => {
                let code = tokens.next().expect("id code");
                vcd.last.insert(code.to_string(), t[1..].to_string());
            }
            _ if t.starts_with(['0', '1', 'x', 'z']) => {
                vcd.last.insert(t[1..].to_string(), t[..1].to_string());
            }
            _ => panic!("unexpected VCD token {t}"),
        }
    }
    vcd
}

/// Checks that the table is exactly Verilator's VCD less the excluded signals, with the same
/// widths, and that each entry reads the value Verilator's tracer last wrote under that
/// name: the name and the storage agree, not just the names.
///
/// A network top (`net_*`, decision 0038) is traced to its ports only and its table holds its
/// ports and registers only: there the ports are held to the VCD, and every other entry of the
/// table must be a register (`..._q`), of every node.
fn assert_table_matches_vcd(rtl: &RtlModel, vcd: &Vcd) {
    let network = rtl.top().name().starts_with("net_");
    let port = |n: &&str| !network || n.matches('.').count() == 1;
    let excluded: BTreeSet<&str> = rtl.excluded().iter().map(|(n, _)| *n).collect();
    let in_vcd: BTreeSet<&str> = vcd
        .vars
        .iter()
        .map(|v| v.name.as_str())
        .filter(|n| !excluded.contains(n))
        .filter(port)
        .collect();
    let in_table: BTreeSet<&str> = rtl
        .signals()
        .iter()
        .map(|s| s.name.as_str())
        .filter(port)
        .collect();
    if network {
        let inside: Vec<&str> = rtl
            .signals()
            .iter()
            .map(|s| s.name.as_str())
            .filter(|n| n.matches('.').count() > 1)
            .collect();
        let not_registers: Vec<_> = inside
            .iter()
            .filter(|n| {
                !n.rsplit('.')
                    .next()
                    .unwrap()
                    .split('[')
                    .next()
                    .unwrap()
                    .ends_with("_q")
            })
            .collect();
        assert!(
            not_registers.is_empty(),
            "{:?}: {not_registers:?}",
            rtl.top()
        );
        for node in 0..4 {
            let scope = format!(".gen_node[{node}].u_node.u_router.");
            assert!(
                inside.iter().filter(|n| n.contains(&scope)).count() > 100,
                "{:?}: node {node}'s router registers",
                rtl.top()
            );
        }
    }
    let only_vcd: Vec<_> = in_vcd.difference(&in_table).collect();
    let only_table: Vec<_> = in_table.difference(&in_vcd).collect();
    assert!(
        only_vcd.is_empty() && only_table.is_empty(),
        "{:?}: only in the VCD: {only_vcd:?}\nonly in the table: {only_table:?}",
        rtl.top()
    );
    for v in vcd
        .vars
        .iter()
        .filter(|v| !excluded.contains(v.name.as_str()) && port(&v.name.as_str()))
    {
        let id = rtl.find(&v.name).unwrap();
        assert_eq!(
            rtl.signals()[id.index()].width,
            v.width,
            "width of {}",
            v.name
        );
        let text = &vcd.last[&v.code];
        let traced = u128::from_str_radix(text, 2)
            .unwrap_or_else(|_| panic!("{}: traced value {text} is not binary", v.name));
        assert_eq!(rtl.get(id), traced, "last value of {}", v.name);
    }
}

fn vcd_path(what: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    dir.join(format!("rtl_ffi_{what}_{}.vcd", std::process::id()))
}

/// Reads and deletes a VCD file.
fn take_vcd(path: &PathBuf) -> Vcd {
    let text = std::fs::read_to_string(path).expect("VCD written");
    let _ = std::fs::remove_file(path);
    parse_vcd(&text)
}

#[test]
fn table_names_equal_the_names_in_verilators_vcd() {
    let path = vcd_path("selftest");
    let mut b = Bench::new(selftest());
    b.rtl.trace_open(&path).expect("trace_open");
    b.reset();
    let mut rng = Mt64::new(7);
    for _ in 0..30 {
        let i = Inputs::random(&mut rng);
        b.cycle(&i);
    }
    b.rtl.trace_close();
    let vcd = take_vcd(&path);
    assert_eq!(vcd.timescale, "1ps");
    let want_times: Vec<u64> = (0..30)
        .flat_map(|c| [c * PERIOD_PS, c * PERIOD_PS + PERIOD_PS / 2])
        .collect();
    assert_eq!(vcd.times, want_times);
    assert_table_matches_vcd(&b.rtl, &vcd);
    // The only exclusions are parameters, and Verilator traces each of them: the exclusion
    // list is exact.
    let all_vcd: BTreeSet<&str> = vcd.vars.iter().map(|v| v.name.as_str()).collect();
    for (name, why) in b.rtl.excluded().iter().filter(|(n, _)| ours(n)) {
        assert_eq!(*why, "parameter", "{name}");
        assert!(all_vcd.contains(name), "{name} is not in the VCD");
    }

    // A second trace file on the same model works too.
    let path2 = vcd_path("selftest_2");
    b.rtl.trace_open(&path2).expect("second trace_open");
    let i = Inputs::random(&mut rng);
    b.cycle(&i);
    b.rtl.trace_close();
    let vcd2 = take_vcd(&path2);
    assert_eq!(vcd2.vars.len(), vcd.vars.len());
    assert_table_matches_vcd(&b.rtl, &vcd2);
}

#[test]
fn a_trace_on_a_full_disk_is_an_error_at_its_close_not_a_hang() {
    // `/dev/full` fails every write with ENOSPC: Verilator 5.006's own file object answered
    // that with a fatal error that deadlocks in its flush (issue 29); the shim's file remembers
    // the error and trace_finish reports it, naming the file
    let full = std::path::Path::new("/dev/full");
    let mut b = Bench::new(selftest());
    b.rtl.trace_open(full).expect("trace_open");
    b.reset();
    let mut rng = Mt64::new(3);
    for _ in 0..50 {
        let i = Inputs::random(&mut rng);
        b.cycle(&i);
    }
    let e = b.rtl.trace_finish().unwrap_err().to_string();
    assert!(
        e.contains("/dev/full") && e.contains("not written whole: No space left on device"),
        "{e}"
    );
    // the model goes on, and a later trace is written whole
    let path = vcd_path("after_full");
    b.rtl.trace_open(&path).expect("trace_open");
    let i = Inputs::random(&mut rng);
    b.cycle(&i);
    b.rtl.trace_finish().expect("a trace on a disk with room");
    let vcd = take_vcd(&path);
    assert_table_matches_vcd(&b.rtl, &vcd);
}

/// The same name check on every top (the link, router, node and KARMA tops as they appear),
/// driven with random inputs through reset and a few cycles. A top missing from the binary
/// fails the test with its reason; none is passed over.
#[test]
fn every_top_matches_its_vcd() {
    for (top, _) in built_tops() {
        let mut m = RtlModel::new(top).unwrap_or_else(|e| panic!("{e}"));
        let path = vcd_path(&format!("every_top_{}", top.name()));
        m.trace_open(&path).expect("trace_open");
        let clk = m.find("TOP.clk_i");
        let rst_n = m.find("TOP.rst_ni");
        let data: Vec<SignalId> = m
            .signals()
            .iter()
            .filter(|s| s.is_input && s.name != "TOP.clk_i" && s.name != "TOP.rst_ni")
            .map(|s| m.find(&s.name).expect("a listed signal"))
            .collect();
        let set = |m: &mut RtlModel, id: Option<SignalId>, v: u128| {
            if let Some(id) = id {
                m.set(id, v).expect("an input");
            }
        };
        for (clk_v, rst_v) in [(0, 1), (0, 0), (1, 0), (0, 0), (0, 1)] {
            set(&mut m, clk, clk_v);
            set(&mut m, rst_n, rst_v);
            m.eval();
        }
        let mut rng = Mt64::new(11);
        for c in 0..20u64 {
            for &id in &data {
                let v = (u128::from(rng.next_u64()) << 64) | u128::from(rng.next_u64());
                m.set(id, v).expect("an input");
            }
            set(&mut m, clk, 0);
            m.eval();
            m.trace_dump(c * PERIOD_PS);
            set(&mut m, clk, 1);
            m.eval();
            m.trace_dump(c * PERIOD_PS + PERIOD_PS / 2);
        }
        m.trace_close();
        assert_table_matches_vcd(&m, &take_vcd(&path));
    }
}

#[test]
fn a_stop_in_one_model_while_another_opens_its_waves_never_deadlocks() {
    // Verilator 5.006's `vl_stop` flushes every open wave file of the process under its
    // callbacks' lock, while opening a wave file holds that file's lock and then takes the
    // callbacks' lock: a model stopping on one thread while another opens its waves hung the
    // suite (issue 29). The project's `vl_stop` (testbench/vl_user.cpp) does not flush.
    let (tx, rx) = std::sync::mpsc::channel();
    let opener = {
        let tx = tx.clone();
        std::thread::spawn(move || {
            let mut b = Bench::new(selftest());
            b.reset();
            let mut rng = Mt64::new(5);
            for k in 0..200 {
                let path = vcd_path(&format!("stop_race_{k}"));
                b.rtl.trace_open(&path).expect("trace_open");
                let i = Inputs::random(&mut rng);
                b.cycle(&i);
                b.rtl.trace_finish().expect("trace_finish");
                let _ = std::fs::remove_file(&path);
            }
            tx.send("opener").unwrap();
        })
    };
    let stopper = std::thread::spawn(move || {
        // random inputs to the link make its FIFOs' assertions fail: a $stop a cycle or so
        let link = built_tops()
            .into_iter()
            .map(|(t, _)| t)
            .find(|t| t.name() == "link")
            .expect("the link top is built");
        let mut rng = Mt64::new(9);
        let mut stops = 0;
        for _ in 0..200 {
            let mut m = RtlModel::new(link).unwrap_or_else(|e| panic!("{e}"));
            let inputs: Vec<SignalId> = m
                .signals()
                .iter()
                .filter(|s| s.is_input)
                .map(|s| m.find(&s.name).expect("a listed signal"))
                .collect();
            for _ in 0..20 {
                for &id in &inputs {
                    let v = (u128::from(rng.next_u64()) << 64) | u128::from(rng.next_u64());
                    m.set(id, v).expect("an input");
                }
                m.eval();
            }
            stops += m.got_error() as u32;
        }
        tx.send(if stops > 0 { "stopper" } else { "no stop" })
            .unwrap();
    });
    let mut done = Vec::new();
    for _ in 0..2 {
        use std::sync::mpsc::RecvTimeoutError;
        match rx.recv_timeout(std::time::Duration::from_secs(60)) {
            Ok(who) => done.push(who),
            // a thread panicked: its join says why
            Err(RecvTimeoutError::Disconnected) => break,
            Err(RecvTimeoutError::Timeout) => {
                panic!("deadlock: only {done:?} finished within 60 s")
            }
        }
    }
    opener.join().unwrap();
    stopper.join().unwrap();
    done.sort();
    assert_eq!(done, ["opener", "stopper"], "the link never stopped");
}

#[test]
fn trace_open_reports_a_bad_path() {
    let mut m = selftest();
    let e = m
        .trace_open(std::path::Path::new("/nonexistent/dir/x.vcd"))
        .expect_err("cannot open");
    assert!(matches!(e, RtlError::Trace { .. }), "{e}");
    m.trace_dump(0); // no trace open: nothing happens
    m.trace_close();
}

/// The self-test RTL follows the project's rule for RTL: lint clean with `-Wall`.
#[test]
fn selftest_rtl_is_lint_clean() {
    // Verilator is there whenever the RTL was built; without it, fail like the other tests.
    selftest();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testbench/rtl");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("testbench/rtl")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| {
            p.file_name().is_some_and(|n| {
                let n = n.to_string_lossy();
                n.starts_with("exanet_selftest_") || n == "exanet_base_selftest_pkg.sv"
            })
        })
        .collect();
    files.sort_by_key(|p| !p.to_string_lossy().ends_with("_pkg.sv"));
    let exe = std::env::var_os("VERILATOR").unwrap_or_else(|| "verilator".into());
    let out = std::process::Command::new(exe)
        .args([
            "--lint-only",
            "-Wall",
            "--top-module",
            "exanet_selftest_top",
        ])
        .args(&files)
        .output()
        .expect("run verilator");
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "verilator --lint-only -Wall:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
