//! The clocked block: the one notion every hardware block of the model implements, from a FIFO
//! to a network node.
//!
//! A block is a struct whose fields are its registers (the RTL's `_q`), built from its
//! parameters (`Spec`, the RTL module's parameters) by `reset`. Each cycle it sees its inputs
//! (`In`: its ports, all driven by registers of other blocks, plus a reference to parameters it
//! shares with its siblings); `eval` computes, from the registers of this cycle and the inputs,
//! the registers of the next cycle and what the block reports about the cycle (`Next`), without
//! changing anything; `commit` latches them and hands back the report (`Events`). A simulator
//! evaluates every block of a level before it commits any, so the order in which blocks are
//! visited cannot change a result (BookSim2's `_XEvaluate` then `_XUpdate`; RHDL's
//! `fn(input, q) -> (output, d)`). `quiet` says that, with these inputs, the next cycle would
//! change nothing, so a scheduler may pass the block over (Akita's `Tick() -> bool`); it is a
//! hint only: [`step`] gives the same registers with it honoured or not (tests in each block).
//!
//! The outputs of a block are functions of its registers only (its `&self` methods), so what a
//! block reads of another in a cycle is fixed before anything commits.
//!
//! [`registers!`](crate::registers) declares a block's register struct once: the fields, their
//! RTL names and widths, their reset values; from that one list it derives the reset state, the
//! probe of every `_q` for the waves and the lockstep comparison, and the list of names a test
//! checks against the RTL module.

use crate::probe::Visitor;

/// A clocked hardware block (see the module doc).
pub trait Block {
    /// What the block is built from: the RTL module's parameters.
    type Spec: ?Sized;
    /// Its inputs during a cycle.
    type In<'a>;
    /// Its registers of the next cycle and its report of the cycle, as computed by `eval`.
    type Next;
    /// What `commit` reports of the cycle to observers (not registers).
    type Events;

    /// The block after reset.
    fn reset(spec: &Self::Spec) -> Self
    where
        Self: Sized;

    /// Next state from the registers of this cycle and the inputs. Pure.
    fn eval(&self, i: &Self::In<'_>) -> Self::Next;

    /// Latch the next state.
    fn commit(&mut self, n: Self::Next) -> Self::Events;

    /// With these inputs the next cycle changes no register and reports nothing, so a
    /// scheduler may skip it. `false` when in doubt.
    fn quiet(&self, _i: &Self::In<'_>) -> bool {
        false
    }

    /// One cycle in place: what `commit(eval(i))` does. A block whose next state is a copy of
    /// its registers with some changed may override this to build that copy in `self` (one copy
    /// of the registers fewer, for the blocks a network run steps every cycle); the override
    /// must run the same next-state code as `eval` (the shuffled-order tests compare the two).
    #[inline]
    fn step_in_place(&mut self, i: &Self::In<'_>) -> Self::Events
    where
        Self: Sized,
    {
        let n = self.eval(i);
        self.commit(n)
    }

    /// The block's ports and registers under their RTL names, for the waves and the lockstep
    /// comparison (the caller has entered the block's scope).
    fn probe(&self, i: &Self::In<'_>, v: &mut dyn Visitor);
}

/// One cycle of one block on its own: `eval` then `commit`, or nothing when the block is quiet
/// (`None` then: a quiet cycle reports nothing). The one place a block is stepped in place.
#[inline]
pub fn step<B: Block>(b: &mut B, i: &B::In<'_>) -> Option<B::Events> {
    if b.quiet(i) {
        return None;
    }
    Some(b.step_in_place(i))
}

/// `eval` of a block (or of the registers of one) whose next state is this cycle's registers
/// with some changed: `next(now, n)` changes a copy `n` of `now` and reports the cycle. Pure.
#[inline]
pub fn eval_by_copy<R: Clone, E>(now: &R, next: impl FnOnce(&R, &mut R) -> E) -> (R, E) {
    let mut n = now.clone();
    let e = next(now, &mut n);
    (n, e)
}

/// The same `next` run in place (`Block::step_in_place`): it reads a copy of this cycle's
/// registers and writes the next ones into `regs`, one copy of the registers instead of the
/// two of `eval_by_copy` then commit.
#[inline]
pub fn step_by_copy<R: Clone, E>(regs: &mut R, next: impl FnOnce(&R, &mut R) -> E) -> E {
    let now = regs.clone();
    next(&now, regs)
}

/// Put `v` in a random order drawn from `rng`: the visiting order of blocks a test steps to show
/// the order cannot matter, and the random placement of ranks (`app::mapping`). Fisher-Yates:
/// position i swaps with a uniform position in 0..=i, from the top down; the index is the high
/// half of a 64x64-bit product (bias below 2^-64 per draw, no rejection loop, so the number of
/// draws, and with it the sequence, depends only on the length).
pub fn shuffle<T>(v: &mut [T], rng: &mut rand_mt::Mt64) {
    for i in (1..v.len()).rev() {
        let j = ((rng.next_u64() as u128 * (i as u128 + 1)) >> 64) as usize;
        v.swap(i, j);
    }
}

/// A register's value as the bits the waves show.
pub trait Bits: Copy {
    fn bits(self) -> u128;
}

macro_rules! bits {
    ($($t:ty),*) => {
        $(impl Bits for $t {
            #[inline]
            fn bits(self) -> u128 {
                self as u128
            }
        })*
    };
}
bits!(bool, u8, u16, u32, u64, u128);

/// A register, scalar or an unpacked array, probed under its RTL name.
pub trait Reg {
    /// Show the register as `name` of `width` bits; an array shows its first `count` elements.
    fn probe_as(&self, name: &str, width: u32, count: usize, v: &mut dyn Visitor);
}

impl<T: Bits> Reg for T {
    #[inline]
    fn probe_as(&self, name: &str, width: u32, _count: usize, v: &mut dyn Visitor) {
        v.sig(name, width, self.bits());
    }
}

impl<T: Bits, const N: usize> Reg for [T; N] {
    fn probe_as(&self, name: &str, width: u32, count: usize, v: &mut dyn Visitor) {
        for (k, x) in self.iter().enumerate().take(count) {
            v.sig_idx(name, k, width, x.bits());
        }
    }
}

/// Declares a block's registers once. Each RTL register is `name: type [width]` (an unpacked
/// array `name: [type; N] [width; count]`), optionally `= reset value` (default: zero); width,
/// count and reset value may use the parameters named in the header. Registers the model has and
/// the RTL lacks go in a `model { ... }` group: reset like the others, never probed. Generates
/// the struct, `reset_regs(p)`, `probe_regs(p, v)` (every RTL register as `<name>_q`, in the
/// order declared) and `RTL_REGISTERS` (those names).
///
/// ```ignore
/// registers! {
///     /// The gate's registers.
///     pub struct Gate(p: &RouterParams) {
///         state: u8 [3],
///         credit_cnt: [u32; 8] [16; p.num_vcs as usize] = [p.depth; 8],
///     }
///     model { retry: bool }
/// }
/// ```
#[macro_export]
macro_rules! registers {
    (
        $(#[$sm:meta])*
        $vis:vis struct $name:ident ($p:ident : & $pt:ty) {
            $( $(#[$fm:meta])* $f:ident : $t:ty [ $w:expr $(; $n:expr)? ] $(= $init:expr)? ),* $(,)?
        }
        $( model { $( $(#[$mm:meta])* $mf:ident : $mt:ty $(= $minit:expr)? ),* $(,)? } )?
    ) => {
        $(#[$sm])*
        #[derive(Debug, Clone, PartialEq, Eq)]
        $vis struct $name {
            $( $(#[$fm])* pub $f: $t, )*
            $($( $(#[$mm])* pub $mf: $mt, )*)?
        }

        impl $name {
            /// The RTL names of the registers, in probing order.
            pub const RTL_REGISTERS: &'static [&'static str] = &[$(concat!(stringify!($f), "_q")),*];

            /// The registers after reset.
            #[allow(unused_variables)]
            pub fn reset_regs($p: &$pt) -> Self {
                $name {
                    $( $f: $crate::registers!(@init $($init)?), )*
                    $($( $mf: $crate::registers!(@init $($minit)?), )*)?
                }
            }

            /// Every RTL register, as `<name>_q`, in the order declared.
            #[allow(unused_variables)]
            pub fn probe_regs(&self, $p: &$pt, v: &mut dyn $crate::probe::Visitor) {
                $( $crate::block::Reg::probe_as(
                    &self.$f,
                    concat!(stringify!($f), "_q"),
                    ($w) as u32,
                    $crate::registers!(@count $($n)?),
                    v,
                ); )*
            }
        }
    };
    (@init) => { Default::default() };
    (@init $e:expr) => { $e };
    (@count) => { 1 };
    (@count $n:expr) => { ($n) as usize };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::probe::Declarer;

    struct P {
        n: u32,
    }

    crate::registers! {
        struct Demo(p: &P) {
            a: u8 [3],
            b: [u32; 4] [16; p.n] = [7; 4],
            c: bool [1] = true,
        }
        model { m: u64 = 9 }
    }

    #[test]
    fn one_list_gives_reset_names_and_probes() {
        let p = P { n: 2 };
        let r = Demo::reset_regs(&p);
        assert_eq!((r.a, r.b, r.c, r.m), (0, [7; 4], true, 9));
        assert_eq!(Demo::RTL_REGISTERS, ["a_q", "b_q", "c_q"]);
        let mut d = Declarer::default();
        r.probe_regs(&p, &mut d);
        let want = [("a_q", 3), ("b_q[0]", 16), ("b_q[1]", 16), ("c_q", 1)];
        let got: Vec<_> = d.names.iter().map(|(n, w)| (n.as_str(), *w)).collect();
        assert_eq!(got, want, "the model-only register is not probed");
    }

    /// A counter that is quiet when not enabled: `step` honours the hint and gives the same
    /// registers as eval-then-commit.
    #[derive(Debug, Clone, PartialEq)]
    struct Count(u32);
    impl Block for Count {
        type Spec = ();
        type In<'a> = bool;
        type Next = u32;
        type Events = bool;
        fn reset(_: &()) -> Self {
            Count(0)
        }
        fn eval(&self, en: &bool) -> u32 {
            self.0 + *en as u32
        }
        fn commit(&mut self, n: u32) -> bool {
            let changed = n != self.0;
            self.0 = n;
            changed
        }
        fn quiet(&self, en: &bool) -> bool {
            !*en
        }
        fn probe(&self, _: &bool, v: &mut dyn Visitor) {
            v.sig("cnt_q", 32, self.0 as u128);
        }
    }

    #[test]
    fn step_is_eval_then_commit_and_skips_quiet_cycles() {
        let (mut a, mut b) = (Count::reset(&()), Count::reset(&()));
        for c in 0..50u32 {
            let en = c % 3 == 0;
            let ev = step(&mut a, &en);
            let n = b.eval(&en);
            let ev_b = b.commit(n);
            assert_eq!(a, b);
            assert_eq!(ev.is_none(), !en, "a quiet cycle reports nothing");
            if let Some(e) = ev {
                assert_eq!(e, ev_b);
            }
        }
    }
}
