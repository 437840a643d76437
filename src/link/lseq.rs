//! The link sequence number (docs/decisions/0016-link-packet-accounting.md).
//!
//! A TCL TX numbers the packets it sends on its link, 0, 1, 2, ... modulo 2^16, and writes the
//! number of each packet into its footer's `lseq` field, with a CRC-15 of it in `lseq_chk`
//! (footer bits 95:65, outside the message CRC, so writing them changes no CRC). The receiving
//! TCL RX reads them back and writes both fields as zero: they exist only on the wire between
//! two TCLs, and the packet leaves the link exactly as it entered it.
//!
//! The RX keeps the number of the next packet it expects (`lseq_q`, advanced by one for every
//! packet it accounts for). A footer that passes both the message CRC and the sequence check
//! tells it how many packets went by without a header it could see (their Magic or Start was
//! hit, or they were swallowed while it discarded to the next Start): `lseq - lseq_q`. So does
//! a footer whose CRC failed, if the packet's header arrived clean and the gap is small
//! ([`LSEQ_NEAR`]): with long packets most packets take a payload error at a high bit error
//! rate, and their numbers are still good. The
//! numbering is what makes the loss counters exact; the thesis's TCL (Biagioni 2017 §5.3.4) says
//! only that a faulty packet is discarded and lost, not how the loss is counted.
//!
//! CRC-15 (polynomial 0x4599, the CAN bus's, initial value 0, MSB first) has Hamming distance
//! 6 over the 31 bits of `lseq` and `lseq_chk`: up to five bit errors there are always seen.
//! RTL twin: `exanet_base_pkg::lseq_chk`, `exanet_base_pkg::lseq_stamp`.

use crate::packet::layout::{FTR_LSEQ, FTR_LSEQ_CHK};

/// CRC-15/CAN generator polynomial (x^15 + x^14 + x^10 + x^8 + x^7 + x^4 + x^3 + 1), without
/// its x^15 term.
pub const LSEQ_POLY: u16 = 0x4599;

/// Gaps of this many packets or more are not believed (a footer whose CRC and check both
/// passed by chance, about 2^-47): the window of the numbering.
pub const LSEQ_WINDOW: u16 = 1 << 15;

/// The number in a footer whose message CRC failed is believed only for a gap below this, and
/// only if the packet's header arrived clean (no SECDED correction): the payload took the
/// error, the footer is where the header said. If the footer is really data (the packet was cut
/// short by a hit MAGIC in front of a credit), a random number passes the check and this window
/// with probability 2^-15 x 2^-10.
pub const LSEQ_NEAR: u16 = 64;

/// CRC-15 of a link sequence number: by two table lookups, as the code is linear (the check
/// of `lseq` is the check of its high byte, then eight zero bits, XOR the check of its low
/// byte). Every TCL TX stamps each footer it sends and every RX checks each one it receives; a
/// test holds the tables equal to the bit-serial definition ([`lseq_chk_serial`]) for every
/// number.
#[inline]
pub fn lseq_chk(lseq: u16) -> u16 {
    CHK_HI[(lseq >> 8) as usize] ^ CHK_LO[(lseq & 0xff) as usize]
}

/// `CHK_HI[b]`, `CHK_LO[b]`: the check of `b << 8` and of `b`.
static CHK_HI: [u16; 256] = chk_table(8);
static CHK_LO: [u16; 256] = chk_table(0);

const fn chk_table(shift: u32) -> [u16; 256] {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = lseq_chk_serial((b as u16) << shift);
        b += 1;
    }
    t
}

/// CRC-15 of a link sequence number, bit by bit (the definition, MSB first): what the RTL's
/// `exanet_base_pkg::lseq_chk` computes.
pub const fn lseq_chk_serial(lseq: u16) -> u16 {
    let mut crc: u16 = 0;
    let mut k = 16;
    while k > 0 {
        k -= 1;
        let fb = ((lseq >> k) & 1) ^ ((crc >> 14) & 1);
        crc = (crc << 1) & 0x7fff;
        if fb != 0 {
            crc ^= LSEQ_POLY;
        }
    }
    crc
}

const HI_LSEQ_LSB: u32 = FTR_LSEQ.lsb - 64;
const HI_CHK_LSB: u32 = FTR_LSEQ_CHK.lsb - 64;
const HI_MASK: u64 = ((FTR_LSEQ.mask() | FTR_LSEQ_CHK.mask()) >> 64) as u64;
// Both fields sit in the footer's high beat, next to each other.
const _: () = assert!(FTR_LSEQ.lsb >= 64 && FTR_LSEQ.width == 16 && FTR_LSEQ_CHK.width == 15);
const _: () = assert!(FTR_LSEQ_CHK.lsb == FTR_LSEQ.lsb + FTR_LSEQ.width);

/// The footer's high beat (bits 127:64) with `lseq` and its check written in.
pub fn stamp(footer_hi: u64, lseq: u16) -> u64 {
    (footer_hi & !HI_MASK) | (lseq as u64) << HI_LSEQ_LSB | (lseq_chk(lseq) as u64) << HI_CHK_LSB
}

/// The sequence number a received footer carries, if its check holds.
pub fn read(footer: u128) -> Option<u16> {
    let lseq = FTR_LSEQ.get(footer) as u16;
    (lseq_chk(lseq) as u64 == FTR_LSEQ_CHK.get(footer)).then_some(lseq)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bit-serial CRC-15/CAN over a bit string, MSB first, the definition.
    fn crc15(bits: &[u8]) -> u16 {
        let mut crc = 0u16;
        for &b in bits {
            let fb = b as u16 ^ (crc >> 14 & 1);
            crc = crc << 1 & 0x7fff;
            if fb == 1 {
                crc ^= 0x4599;
            }
        }
        crc
    }

    #[test]
    fn check_is_crc15_can() {
        for v in [0u16, 1, 0x8000, 0x1234, 0xffff] {
            let bits: Vec<u8> = (0..16).rev().map(|k| (v >> k & 1) as u8).collect();
            assert_eq!(lseq_chk(v), crc15(&bits), "{v:#x}");
        }
        assert_eq!(lseq_chk(0), 0);
    }

    #[test]
    fn the_tables_give_the_serial_check_of_every_number() {
        for v in 0..=u16::MAX {
            assert_eq!(lseq_chk(v), lseq_chk_serial(v), "{v:#x}");
        }
    }

    #[test]
    fn up_to_five_bit_errors_in_the_31_bits_are_always_seen() {
        // The code is linear: an error pattern goes unseen only if it is itself a codeword.
        // Every nonzero codeword of weight <= 5 would be one with lseq of weight <= 5.
        let mut min_weight = u32::MAX;
        for v in 1..=u16::MAX {
            let w = v.count_ones() + lseq_chk(v).count_ones();
            min_weight = min_weight.min(w);
        }
        assert_eq!(min_weight, 6);
    }

    #[test]
    fn stamp_then_read_gives_the_number_back_and_keeps_the_other_bits() {
        for v in [0u16, 7, 0xabcd, 0xffff] {
            let hi = 0xdead_beef_0000_0001u64; // crc and crc_bad set
            let s = stamp(hi | HI_MASK, v);
            assert_eq!(s & !HI_MASK, hi);
            let footer = (s as u128) << 64 | 0x1234;
            assert_eq!(read(footer), Some(v));
            assert_eq!(read(footer ^ 1 << 70), None);
            assert_eq!(read(footer ^ 1 << 90), None);
        }
        assert_eq!(read(0), Some(0));
    }
}
