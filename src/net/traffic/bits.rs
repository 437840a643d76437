//! What the bit-permutation patterns (`bitcomp`, `bitrev`, `shuffle`, bit `transpose`) share:
//! they treat the endpoint index as a word of `log2(endpoints)` bits, so the number of
//! endpoints must be a power of two (BookSim's `BitPermutationTrafficPattern` constructor,
//! `src/traffic.cpp`, refuses anything else).

use crate::net::topology::Topology;

/// The number of index bits of `t`, or an error naming `pattern` and the endpoint count when
/// that count is not a power of two of at least 2.
pub(crate) fn index_bits(t: &dyn Topology, pattern: &str) -> Result<u32, String> {
    let n = t.endpoints();
    if n < 2 || !n.is_power_of_two() {
        return Err(format!(
            "pattern '{pattern}' needs a power-of-two number of endpoints (at least 2); \
             topology '{}' has {n}",
            t.name()
        ));
    }
    Ok(n.trailing_zeros())
}

/// The index bits as `dest` uses them: no check, and never more bits than the endpoint count
/// holds, so a result stays below the count even on a topology `check` would refuse.
pub(crate) fn bits_of(t: &dyn Topology) -> u32 {
    t.endpoints().max(1).trailing_zeros()
}

/// The mask of the low `lg` bits.
pub(crate) fn mask(lg: u32) -> usize {
    if lg >= usize::BITS {
        usize::MAX
    } else {
        (1usize << lg) - 1
    }
}
