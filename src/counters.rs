//! Event counters by their RTL names, and deposits into them (decision 0044).
//!
//! A statistics counter's bit k first rises after 2^k events. So a lockstep run of some ten
//! thousand cycles never reaches a 32-bit counter's high bits or its wrap to zero. The
//! constrained stimulus therefore *deposits* a value into a counter, in the model and in the
//! Verilated RTL alike. This is a backdoor write between two cycles, as a verification bench
//! preloads a register. A value just below a power of two (`2^k - 1`) lets the counter's own
//! increment carry into bit k, or wrap it to zero (k = 32), at its next event.
//!
//! The increment logic, the carries and the wrap are still the hardware's. The coverage does
//! not count the deposit's own change (`Collector::rebase`). A test bench's accounting reads
//! what the hardware counted: [`Deposits::counted`] takes off what the deposits added.
//!
//! Only counters whose value feeds no hardware decision are deposited: the TCLs', the router's
//! and the Target Controller's statistics, and the performance counter. The self-test
//! generator's and consumer's counters decide when a test ends, so they are not deposited.

use std::collections::BTreeMap;

/// Receives the event counters of a hierarchy, scope by scope, as [`crate::probe::Visitor`]
/// receives its signals (the same scope names).
pub trait CounterVisitor {
    /// Enter an instance scope (`u_tcl`, `gen_in[2]`, ...).
    fn enter(&mut self, scope: &str);
    /// Leave the innermost scope.
    fn leave(&mut self);
    /// Counter register `name` (its RTL name, `stat_pkts_q`), which the visitor may change.
    fn counter(&mut self, name: &str, value: &mut u32);
}

/// A block (or a hierarchy of blocks) with event counters.
pub trait Counters {
    /// Every event counter, under the scopes the block's probe uses below its own scope.
    fn counters(&mut self, v: &mut dyn CounterVisitor);
}

/// Builds each counter's full name and hands it, with the counter, to a closure.
struct Named<'a> {
    scope: Vec<String>,
    f: &'a mut dyn FnMut(&str, &mut u32),
}

impl CounterVisitor for Named<'_> {
    fn enter(&mut self, scope: &str) {
        self.scope.push(scope.to_string());
    }
    fn leave(&mut self) {
        self.scope.pop();
    }
    fn counter(&mut self, name: &str, value: &mut u32) {
        let mut full = self.scope.join(".");
        if !full.is_empty() {
            full.push('.');
        }
        full.push_str(name);
        (self.f)(&full, value);
    }
}

/// Every counter of `block`, its full name starting with `scope` (the block's own full scope,
/// `TOP.exanet_link_top.u_a`; empty for a hierarchy that enters `TOP` itself).
pub fn each(scope: &str, block: &mut dyn Counters, f: &mut dyn FnMut(&str, &mut u32)) {
    let scope = if scope.is_empty() {
        Vec::new()
    } else {
        scope.split('.').map(str::to_string).collect()
    };
    block.counters(&mut Named { scope, f });
}

/// The deposits made into a model's counters since its last reset: for each counter, by full
/// RTL name, what it reads above what it counted (mod 2^32), and the value deposited last.
#[derive(Debug, Clone, Default)]
pub struct Deposits {
    offsets: BTreeMap<String, u32>,
    last: BTreeMap<String, u32>,
}

impl Deposits {
    /// No deposit since the last reset.
    pub fn is_empty(&self) -> bool {
        self.offsets.is_empty()
    }

    /// A reset cleared the counters: they read what they count again.
    pub fn clear(&mut self) {
        self.offsets.clear();
        self.last.clear();
    }

    /// Deposit into the counters of `block` (full scope `scope`, as [`each`]): `draw(name,
    /// value)` gives the value to deposit, or `None` to leave the counter alone. A counter that
    /// has not counted since its last deposit is left alone without asking (its value waits for
    /// the event that carries it over). Returns the deposits made, by full name, in walk order.
    pub fn deposit(
        &mut self,
        scope: &str,
        block: &mut dyn Counters,
        draw: &mut dyn FnMut(&str, u32) -> Option<u32>,
    ) -> Vec<(String, u32)> {
        let mut made = Vec::new();
        each(scope, block, &mut |name, value| {
            if self.last.get(name) == Some(value) {
                return;
            }
            if let Some(v) = draw(name, *value) {
                let off = self.offsets.entry(name.to_string()).or_insert(0);
                *off = off.wrapping_add(v.wrapping_sub(*value));
                self.last.insert(name.to_string(), v);
                *value = v;
                made.push((name.to_string(), v));
            }
        });
        made
    }

    /// What the deposits added to counter `name` (full RTL name) since the last reset: its value
    /// less this is what the hardware counted (mod 2^32).
    pub fn offset(&self, name: &str) -> u32 {
        self.offsets.get(name).copied().unwrap_or(0)
    }

    /// `block` as counted: a copy whose counters read what the hardware counted since the last
    /// reset (each deposit's offset taken off). `scope` is the block's full scope.
    pub fn counted<T: Counters + Clone>(&self, scope: &str, block: &T) -> T {
        let mut c = block.clone();
        if !self.is_empty() {
            each(scope, &mut c, &mut |name, value| {
                if let Some(off) = self.offsets.get(name) {
                    *value = value.wrapping_sub(*off);
                }
            });
        }
        c
    }
}

/// The constrained stimulus's deposits (decision 0044): every `gap` to twice `gap` cycles, each
/// counter that has counted since its last deposit gets `2^k - 1` ([`below_bit`]), k going up
/// by one from deposit to deposit (from a random start, through 32: the wrap, and back to 1).
/// The counter's next event then raises bit k and clears every bit below it, and the event
/// after the next deposit clears bit k. A counter's 32 bits rise once in 32 of its events, and
/// fall as often. Drawn from its own generator, so that the rest of a test bench's stimulus
/// draws what it drew without deposits.
#[derive(Debug, Clone)]
pub struct DepositSchedule {
    /// What the deposits added since the last reset.
    pub deposits: Deposits,
    rng: rand_mt::Mt64,
    next: u64,
    gap: u64,
    /// The bit each counter's next deposit sits below, by full name.
    next_bit: BTreeMap<String, u32>,
    /// Deposits made so far (every counter's, resets included).
    pub made: u64,
}

impl DepositSchedule {
    /// Seeded from the configuration's seed; the first deposits after `gap` cycles.
    pub fn new(seed: u64, gap: u64) -> DepositSchedule {
        DepositSchedule {
            deposits: Deposits::default(),
            rng: rand_mt::Mt64::new(seed ^ 0xde9_051),
            next: gap,
            gap,
            next_bit: BTreeMap::new(),
            made: 0,
        }
    }

    /// The deposits due after cycle `cycle` into `block` (full scope `scope`, as [`each`]),
    /// made in the model; none when none is due.
    pub fn step(
        &mut self,
        cycle: u64,
        scope: &str,
        block: &mut dyn Counters,
    ) -> Vec<(String, u32)> {
        if cycle < self.next {
            return Vec::new();
        }
        let (rng, next_bit) = (&mut self.rng, &mut self.next_bit);
        let made = self.deposits.deposit(scope, block, &mut |name, _| {
            let k = next_bit
                .entry(name.to_string())
                .or_insert_with(|| 1 + (rng.next_u64() % 32) as u32);
            let v = below_bit(*k);
            *k = *k % 32 + 1;
            Some(v)
        });
        self.next = cycle + self.gap + self.rng.next_u64() % self.gap;
        self.made += made.len() as u64;
        made
    }

    /// The counters were reset: they read what they count again.
    pub fn reset(&mut self) {
        self.deposits.clear();
    }
}

/// `2^k - 1` for k in 1 to 32: all ones below bit k, so that the counter's next event carries
/// into bit k (k = 32: wraps to zero).
pub fn below_bit(k: u32) -> u32 {
    ((1u64 << k.clamp(1, 32)) - 1) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Default)]
    struct Two {
        a: u32,
        b: u32,
    }

    impl Counters for Two {
        fn counters(&mut self, v: &mut dyn CounterVisitor) {
            v.enter("u_x");
            v.counter("a_q", &mut self.a);
            v.leave();
            v.counter("b_q", &mut self.b);
        }
    }

    #[test]
    fn names_follow_the_scopes() {
        let mut t = Two::default();
        let mut names = Vec::new();
        each("TOP.top", &mut t, &mut |n, _| names.push(n.to_string()));
        assert_eq!(names, ["TOP.top.u_x.a_q", "TOP.top.b_q"]);
    }

    #[test]
    fn counted_takes_off_what_deposits_added_across_the_wrap() {
        let mut t = Two { a: 5, b: 7 };
        let mut d = Deposits::default();
        let made = d.deposit("T", &mut t, &mut |n, _| {
            (n == "T.u_x.a_q").then_some(u32::MAX)
        });
        assert_eq!(made, [("T.u_x.a_q".to_string(), u32::MAX)]);
        assert_eq!(t.a, u32::MAX);
        // the hardware counts 3 events: the counter wraps
        t.a = t.a.wrapping_add(3);
        t.b += 1;
        let c = d.counted("T", &t);
        assert_eq!((c.a, c.b), (8, 8), "5 + 3 counted, b untouched");
        // a second deposit only once the counter has counted since the first
        t.a = u32::MAX;
        d.last.insert("T.u_x.a_q".into(), u32::MAX);
        let again = d.deposit("T", &mut t, &mut |_, _| Some(1));
        assert_eq!(again.len(), 1, "only b: a waits for its event");
        assert_eq!(t.b, 1);
        d.clear();
        assert!(d.counted("T", &t).a == t.a);
    }

    /// Every counter a design's model lists is a 32-bit signal its probe shows under the same
    /// full name (the name the RTL has, which the lockstep compares): the scopes of the counter
    /// walks and of the probes agree, and no counter name is mistyped.
    #[test]
    fn counter_names_are_the_probes_names() {
        use crate::cosim::lockstep::{Design, Stimulus};
        use crate::probe::Declarer;
        let cfg = crate::config::Config::default();
        let names = |d: &dyn Design| {
            let mut decl = Declarer::default();
            d.probe(true, &mut decl);
            decl.names
        };
        let check = |probed: &[(String, u32)], scope: &str, block: &mut dyn Counters| {
            let mut n = 0;
            each(scope, block, &mut |name, _| {
                n += 1;
                assert!(
                    probed.iter().any(|(p, w)| p == name && *w == 32),
                    "{name}: not a 32-bit signal of the probe"
                );
            });
            assert!(n > 0, "no counter under {scope:?}");
        };
        let mut l =
            crate::cosim::link_design::LinkDesign::with_stimulus(&cfg, Stimulus::Constrained);
        let p = names(&l);
        check(&p, "", &mut l.bench.link);
        let mut r =
            crate::cosim::router_design::RouterDesign::with_stimulus(&cfg, Stimulus::Constrained);
        let p = names(&r);
        check(&p, "TOP.exanet_router_top.u_router", &mut r.bench.router);
        let mut nd =
            crate::cosim::node_design::NodeDesign::with_stimulus(&cfg, Stimulus::Constrained);
        let p = names(&nd);
        check(&p, "", &mut nd.top);
    }

    #[test]
    fn deposits_sit_below_each_bit_in_turn() {
        assert_eq!(
            (below_bit(1), below_bit(16), below_bit(32)),
            (1, 0xffff, u32::MAX)
        );
        let mut t = Two::default();
        let mut s = DepositSchedule::new(1, 10);
        assert!(s.step(9, "T", &mut t).is_empty(), "not due yet");
        let first = s.step(10, "T", &mut t);
        assert_eq!(first.len(), 2);
        let k0 = t.a.count_ones();
        // one event each, then the next deposit: one bit higher
        let mut seen = vec![k0];
        for c in 1..40u64 {
            t.a = t.a.wrapping_add(1);
            t.b = t.b.wrapping_add(1);
            if !s.step(10 + 20 * c, "T", &mut t).is_empty() {
                seen.push(t.a.count_ones());
            }
        }
        for w in seen.windows(2) {
            assert_eq!(
                w[1],
                w[0] % 32 + 1,
                "k goes up by one, 32 wraps to 1: {seen:?}"
            );
        }
        let c = s.deposits.counted("T", &t);
        assert_eq!(
            c.a,
            seen.len() as u32 - 1,
            "the events counted, the deposits taken off"
        );
    }
}
