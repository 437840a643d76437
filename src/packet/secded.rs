//! Header ECC: an extended Hamming (128,120) SECDED code.
//!
//! Models the "header error detection and correction code" of Biagioni 2017 §5.3.2, which the
//! receiving TCL uses so that a corrupted header does not misroute a packet (002 §5.3.4). The
//! construction is this project's (the thesis names no code); `rtl/exanet_base_pkg.sv`
//! (`secded_encode`) and `rtl/exanet_secded_dec.sv` implement the same one.
//!
//! Hamming positions 1..=127: check bit `j` (j = 0..6) at position `2^j`, data bit `d[i]` at the
//! `i`-th non-power-of-two position (3, 5, 6, 7, 9, ...). `ecc[j]` is the XOR of the data bits
//! whose position has bit `j` set; `ecc[7]` makes the whole 128-bit word even parity. Any single
//! flipped bit is corrected; any two flipped bits are detected (never miscorrected).

use super::layout::SECDED_DATA_BITS;

const DATA_BITS: usize = SECDED_DATA_BITS as usize;
const CHECK_BITS: usize = 7;
/// Mask of the data bits (header bits 119:0).
const DATA_MASK: u128 = (1u128 << DATA_BITS) - 1;

/// Hamming position of each bit of the 128-bit word: data bits at the non-power-of-two
/// positions, `ecc[j]` (word bit `120 + j`) at `2^j`, and `ecc[7]` (word bit 127) at 0.
const BIT_POS: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut pos = 1usize;
    let mut d = 0usize;
    while pos < 128 {
        if pos & (pos - 1) == 0 {
            t[DATA_BITS + pos.trailing_zeros() as usize] = pos as u8;
        } else {
            t[d] = pos as u8;
            d += 1;
        }
        pos += 1;
    }
    assert!(d == DATA_BITS);
    t
};

/// Inverse of [`BIT_POS`]: the word bit sitting at each Hamming position (position 0 = ecc[7]).
const POS_BIT: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut b = 0;
    while b < 128 {
        t[BIT_POS[b] as usize] = b as u8;
        b += 1;
    }
    t
};

/// `CHECK_MASKS[j]`: the data bits that `ecc[j]` covers.
const CHECK_MASKS: [u128; CHECK_BITS] = {
    let mut m = [0u128; CHECK_BITS];
    let mut b = 0;
    while b < DATA_BITS {
        let mut j = 0;
        while j < CHECK_BITS {
            if BIT_POS[b] & (1 << j) != 0 {
                m[j] |= 1u128 << b;
            }
            j += 1;
        }
        b += 1;
    }
    m
};

/// Outcome of a SECDED check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EccStatus {
    /// No error.
    Clean,
    /// One bit was wrong and has been corrected; `bit` is its index in the 128-bit word.
    Corrected {
        /// Index (0..=127) of the flipped bit.
        bit: u8,
    },
    /// Two (or an even number above two) bits are wrong: the word cannot be trusted.
    Uncorrectable,
}

/// The seven Hamming check bits `ecc[6:0]` of the data bits (bits above 119 ignored).
fn hamming_bits(data: u128) -> u8 {
    let mut ecc = 0u8;
    for (j, m) in CHECK_MASKS.iter().enumerate() {
        ecc |= (((data & m).count_ones() & 1) as u8) << j;
    }
    ecc
}

/// The eight check bits `ecc[7:0]` of header bits 119:0 (bits of `data` above 119 ignored).
pub fn secded_check_bits(data: u128) -> u8 {
    let data = data & DATA_MASK;
    let h = hamming_bits(data);
    let overall = (data.count_ones() + h.count_ones()) & 1;
    h | ((overall as u8) << 7)
}

/// The full 128-bit codeword: header bits 119:0 of `data` with the check bits in 127:120.
pub fn secded_encode(data: u128) -> u128 {
    let data = data & DATA_MASK;
    data | (u128::from(secded_check_bits(data)) << DATA_BITS)
}

/// Checks (and where possible corrects) a received 128-bit codeword.
///
/// Returns the status and the corrected word: for [`EccStatus::Clean`] and
/// [`EccStatus::Corrected`] a valid codeword (check bits included); for
/// [`EccStatus::Uncorrectable`] the received word unchanged.
pub fn secded_decode(word: u128) -> (EccStatus, u128) {
    let received = ((word >> DATA_BITS) as u8) & 0x7F;
    let syndrome = received ^ hamming_bits(word & DATA_MASK);
    let parity_error = word.count_ones() & 1 == 1;
    match (parity_error, syndrome) {
        (false, 0) => (EccStatus::Clean, word),
        (false, _) => (EccStatus::Uncorrectable, word),
        (true, s) => {
            let bit = POS_BIT[usize::from(s)];
            (EccStatus::Corrected { bit }, word ^ (1u128 << bit))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_rng::Rng;
    use super::*;

    #[test]
    fn positions_follow_the_construction() {
        // d[0], d[1], d[2], d[3], d[4] sit at 3, 5, 6, 7, 9; the last data bit at 127.
        assert_eq!(&BIT_POS[..5], &[3, 5, 6, 7, 9]);
        assert_eq!(BIT_POS[119], 127);
        for j in 0..7 {
            assert_eq!(BIT_POS[120 + j], 1 << j);
        }
        assert_eq!(BIT_POS[127], 0);
        // A permutation of 0..=127.
        let mut seen = [false; 128];
        for p in BIT_POS {
            assert!(!seen[p as usize]);
            seen[p as usize] = true;
        }
    }

    #[test]
    fn check_bits_match_the_bitwise_definition() {
        let mut rng = Rng::new(0x5EC_DED);
        for _ in 0..200 {
            let data = rng.u128() & DATA_MASK;
            let mut ecc = [0u8; 8];
            for (i, pos) in BIT_POS.iter().enumerate().take(120) {
                let d = ((data >> i) & 1) as u8;
                for (j, e) in ecc.iter_mut().enumerate().take(7) {
                    if pos & (1 << j) != 0 {
                        *e ^= d;
                    }
                }
            }
            ecc[7] = (data.count_ones() as u8 + ecc[..7].iter().sum::<u8>()) & 1;
            let want = ecc.iter().enumerate().fold(0u8, |a, (j, &e)| a | (e << j));
            assert_eq!(secded_check_bits(data), want, "data {data:#x}");
            assert_eq!(secded_encode(data).count_ones() % 2, 0, "even parity");
        }
    }

    #[test]
    fn clean_words_decode_clean() {
        let mut rng = Rng::new(1);
        for _ in 0..1000 {
            let w = secded_encode(rng.u128());
            assert_eq!(secded_decode(w), (EccStatus::Clean, w));
        }
        assert_eq!(secded_decode(0), (EccStatus::Clean, 0));
    }

    #[test]
    fn every_single_bit_error_is_corrected() {
        let mut rng = Rng::new(2);
        for _ in 0..8 {
            let w = secded_encode(rng.u128());
            for bit in 0..128u8 {
                let (status, fixed) = secded_decode(w ^ (1u128 << bit));
                assert_eq!(status, EccStatus::Corrected { bit }, "word {w:#x}");
                assert_eq!(fixed, w);
            }
        }
    }

    #[test]
    fn every_double_bit_error_is_uncorrectable() {
        let mut rng = Rng::new(3);
        for _ in 0..4 {
            let w = secded_encode(rng.u128());
            let mut pairs = 0;
            for a in 0..128 {
                for b in a + 1..128 {
                    let bad = w ^ (1u128 << a) ^ (1u128 << b);
                    assert_eq!(
                        secded_decode(bad),
                        (EccStatus::Uncorrectable, bad),
                        "bits {a},{b} of {w:#x}"
                    );
                    pairs += 1;
                }
            }
            assert_eq!(pairs, 8128);
        }
    }
}
