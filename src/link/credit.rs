//! APElink credit beats (Biagioni 2017 §5.3.4): formats, and the majority vote over the three copies.
//!
//! Start/stop credit, one beat:
//! `[63:48]` tag `0xCCCC`, `[47:24]` zero, `[23:16]` copy 2, `[15:8]` copy 1, `[7:0]` copy 0
//! of the 8 stop bits (bit v = 1: stop VC v).
//!
//! Usedword credit, `usedword_beats` beats, beat i carries VCs 2i and 2i+1:
//! `[63:62]` tag `0b11`, `[61:60]` beat index i, `[59:30]` VC 2i+1, `[29:0]` VC 2i, each VC
//! field being three copies of its 10-bit receive-FIFO occupancy (`[9:0]` copy 0, `[19:10]`
//! copy 1, `[29:20]` copy 2), saturated at 1023.
//!
//! The majority is taken over whole copies: a value is accepted when at least two of its three
//! copies are equal; if all three differ the credit is rejected and counted. A single corrupted
//! copy therefore changes nothing, and a payload beat mistaken for a credit (after a lost Magic)
//! is almost never accepted (see docs/link.md).

use crate::packet::wire::{CREDIT_SS_TAG, CREDIT_UW_TAG};

/// Largest occupancy a usedword credit can report.
pub const USEDW_MAX: u32 = 1023;

/// Majority of three copies, or `None` when no two agree.
pub fn maj3(a: u32, b: u32, c: u32) -> Option<u32> {
    if a == b || a == c {
        Some(a)
    } else if b == c {
        Some(b)
    } else {
        None
    }
}

/// A start/stop credit beat for stop bits `stop` (bit v for VC v).
pub fn ss_beat(stop: u8) -> u64 {
    let s = stop as u64;
    (CREDIT_SS_TAG << 48) | (s << 16) | (s << 8) | s
}

/// Is `beat` a start/stop credit (by its tag)?
pub fn is_ss(beat: u64) -> bool {
    (beat >> 48) == CREDIT_SS_TAG
}

/// The stop bits of a start/stop credit beat, by majority.
pub fn ss_decode(beat: u64) -> Option<u8> {
    let c = |k: u32| ((beat >> (8 * k)) & 0xff) as u32;
    maj3(c(0), c(1), c(2)).map(|v| v as u8)
}

fn triple(u: u32) -> u64 {
    let u = (u.min(USEDW_MAX)) as u64;
    u | (u << 10) | (u << 20)
}

/// Usedword credit beat `idx` carrying occupancies `lo` (VC 2 idx) and `hi` (VC 2 idx + 1).
pub fn uw_beat(idx: u32, lo: u32, hi: u32) -> u64 {
    (CREDIT_UW_TAG << 62) | (((idx & 3) as u64) << 60) | (triple(hi) << 30) | triple(lo)
}

/// Is `beat` usedword credit beat number `idx` (by tag and index)?
pub fn is_uw(beat: u64, idx: u32) -> bool {
    (beat >> 62) == CREDIT_UW_TAG && ((beat >> 60) & 3) as u32 == (idx & 3)
}

/// The two occupancies of a usedword beat (VC 2i, VC 2i+1), by majority.
pub fn uw_decode(beat: u64) -> Option<(u32, u32)> {
    let f = |vc_slot: u32, copy: u32| ((beat >> (30 * vc_slot + 10 * copy)) & 0x3ff) as u32;
    let lo = maj3(f(0, 0), f(0, 1), f(0, 2))?;
    let hi = maj3(f(1, 0), f(1, 1), f(1, 2))?;
    Some((lo, hi))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::wire::{MAGIC, START};

    #[test]
    fn round_trip_and_single_copy_corruption() {
        for stop in [0u8, 1, 0x5a, 0xff] {
            let b = ss_beat(stop);
            assert!(is_ss(b));
            assert_eq!(ss_decode(b), Some(stop));
            for bit in 0..24 {
                // any corruption confined to one copy is outvoted
                assert_eq!(ss_decode(b ^ (1 << bit)), Some(stop));
            }
            // the whole copy 1 replaced: still outvoted
            assert_eq!(ss_decode(b ^ (0xa5 << 8)), Some(stop));
        }
        for (lo, hi) in [(0, 0), (1023, 5), (77, 1023), (4000, 1)] {
            for idx in 0..4 {
                let b = uw_beat(idx, lo, hi);
                assert!(is_uw(b, idx));
                assert!(!is_uw(b, (idx + 1) % 4));
                assert_eq!(uw_decode(b), Some((lo.min(1023), hi.min(1023))));
                for bit in 0..60 {
                    assert_eq!(
                        uw_decode(b ^ (1 << bit)),
                        Some((lo.min(1023), hi.min(1023)))
                    );
                }
            }
        }
    }

    #[test]
    fn three_different_copies_are_rejected() {
        let b = ss_beat(0x0f) ^ (1 << 8) ^ (1 << 17);
        assert_eq!(ss_decode(b), None);
    }

    #[test]
    fn control_words_are_not_credits() {
        assert!(!is_ss(MAGIC) && !is_ss(START));
        for i in 0..4 {
            assert!(!is_uw(MAGIC, i) && !is_uw(START, i));
        }
    }
}
