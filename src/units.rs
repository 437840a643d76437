//! Units: newtypes for quantities that would otherwise be bare integers, and the one place
//! where cycles become nanoseconds.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A clock cycle index or a number of cycles of the one system clock.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
pub struct Cycle(pub u64);

impl Cycle {
    pub fn get(self) -> u64 {
        self.0
    }
}

impl fmt::Display for Cycle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl std::ops::Sub for Cycle {
    type Output = Cycle;
    fn sub(self, rhs: Cycle) -> Cycle {
        Cycle(self.0 - rhs.0)
    }
}

/// A number of bytes.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
pub struct Bytes(pub u32);

/// A number of 128-bit router words.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
pub struct Words(pub u32);

/// A virtual channel index.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
pub struct Vc(pub u8);

/// Bytes in one router word (128 bits).
pub const WORD_BYTES: u32 = 16;
/// Bytes in one transceiver beat (64 bits).
pub const BEAT_BYTES: u32 = 8;

impl Bytes {
    /// Router words needed to carry this many bytes.
    pub fn to_words(self) -> Words {
        Words(self.0.div_ceil(WORD_BYTES))
    }
}

/// The system clock. Converting cycles to time happens here and nowhere else.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Clock {
    freq_mhz: f64,
}

impl Clock {
    /// `freq_mhz` must be positive and finite (validated by the configuration).
    pub fn new(freq_mhz: f64) -> Clock {
        Clock { freq_mhz }
    }

    pub fn freq_mhz(&self) -> f64 {
        self.freq_mhz
    }

    /// Nanoseconds taken by `cycles` cycles.
    pub fn ns(&self, cycles: f64) -> f64 {
        cycles * 1000.0 / self.freq_mhz
    }

    /// Microseconds taken by `cycles` cycles.
    pub fn us(&self, cycles: f64) -> f64 {
        self.ns(cycles) / 1000.0
    }

    /// Whole cycles that cover `ns` nanoseconds (rounded up; a positive time takes at least one
    /// cycle, zero takes none).
    pub fn cycles_for_ns(&self, ns: f64) -> u64 {
        if ns <= 0.0 {
            return 0;
        }
        // the small tolerance keeps an exact multiple of the period from rounding up
        (ns * self.freq_mhz / 1000.0 - 1e-9).ceil().max(1.0) as u64
    }

    /// Clock period in picoseconds, rounded to an integer (VCD timescale is 1 ps).
    pub fn period_ps(&self) -> u64 {
        (1.0e6 / self.freq_mhz).round() as u64
    }

    /// Bits per second carried by a bus of `width_bits` that moves one word per cycle.
    pub fn bus_bps(&self, width_bits: u32) -> f64 {
        width_bits as f64 * self.freq_mhz * 1.0e6
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_clock_is_6_4_ns() {
        let c = Clock::new(156.25);
        assert!((c.ns(1.0) - 6.4).abs() < 1e-12);
        assert_eq!(c.period_ps(), 6400);
        assert!((c.ns(51.0) - 326.4).abs() < 1e-9);
        assert!((c.bus_bps(64) - 10.0e9).abs() < 1.0);
        assert_eq!(c.cycles_for_ns(0.0), 0);
        assert_eq!(c.cycles_for_ns(0.1), 1);
        assert_eq!(c.cycles_for_ns(6.4), 1);
        assert_eq!(c.cycles_for_ns(6.5), 2);
        assert_eq!(c.cycles_for_ns(1000.0), 157);
    }

    #[test]
    fn bytes_to_words_rounds_up() {
        assert_eq!(Bytes(0).to_words(), Words(0));
        assert_eq!(Bytes(1).to_words(), Words(1));
        assert_eq!(Bytes(16).to_words(), Words(1));
        assert_eq!(Bytes(17).to_words(), Words(2));
        assert_eq!(Bytes(4096).to_words(), Words(256));
    }
}
