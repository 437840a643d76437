//! Footer CRC: CRC-32C (Castagnoli). Thesis 002 §5.3.2: the footer's CRC field "validates the
//! content of the transmitted message".
//!
//! Reflected polynomial 0x82F63B78 (normal form 0x1EDC6F41), initial value 0xFFFFFFFF, final
//! XOR 0xFFFFFFFF: the CRC of iSCSI (RFC 3720) and of the SSE4.2 `crc32` instruction. The
//! message is the header with the fields rewritten on the way masked to zero
//! ([`HDR_CRC_MASK`]), then the payload words in order, each as 16 bytes little-endian, then
//! footer bits 63:0 as 8 bytes little-endian (see [`message_crc`], docs/decisions/0017).
//!
//! The `update` functions work on the running, un-finalised state, as a TCL does one beat per
//! cycle: start from [`CRC_INIT`], update per word, XOR with [`CRC_XOROUT`] at the end. They are
//! table driven (slicing-by-16); `rtl/exanet_base_pkg.sv` computes the same bit by bit.

use super::layout::{HDR_ECC, HDR_ROUTE, HDR_VC};

/// Reflected CRC-32C polynomial.
pub const CRC_POLY_REFLECTED: u32 = 0x82F6_3B78;
/// Initial running state.
pub const CRC_INIT: u32 = 0xFFFF_FFFF;
/// Final XOR applied to the running state to give the CRC.
pub const CRC_XOROUT: u32 = 0xFFFF_FFFF;

/// `TABLES[k][b]`: the effect on the state of byte `b` followed by `k` zero bytes.
static TABLES: [[u32; 256]; 16] = {
    let mut t = [[0u32; 256]; 16];
    let mut b = 0;
    while b < 256 {
        let mut c = b as u32;
        let mut i = 0;
        while i < 8 {
            c = if c & 1 != 0 {
                (c >> 1) ^ CRC_POLY_REFLECTED
            } else {
                c >> 1
            };
            i += 1;
        }
        t[0][b] = c;
        b += 1;
    }
    let mut k = 1;
    while k < 16 {
        let mut b = 0;
        while b < 256 {
            let prev = t[k - 1][b];
            t[k][b] = (prev >> 8) ^ t[0][(prev & 0xFF) as usize];
            b += 1;
        }
        k += 1;
    }
    t
};

#[inline]
fn byte(x: u128, k: usize) -> usize {
    ((x >> (8 * k)) & 0xFF) as usize
}

/// Advances the running state by one 64-bit beat (8 bytes, little-endian: bits 7:0 first).
#[inline]
pub fn crc32c_update64(state: u32, beat: u64) -> u32 {
    let x = u128::from(beat ^ u64::from(state));
    (0..8).fold(0, |acc, k| acc ^ TABLES[7 - k][byte(x, k)])
}

/// Advances the running state by one 128-bit word (16 bytes, little-endian: bits 7:0 first).
/// Equal to `crc32c_update64(crc32c_update64(state, low half), high half)`.
#[inline]
pub fn crc32c_update128(state: u32, word: u128) -> u32 {
    let x = word ^ u128::from(state);
    (0..16).fold(0, |acc, k| acc ^ TABLES[15 - k][byte(x, k)])
}

/// Advances the running state by a byte string.
pub fn crc32c_update_bytes(mut state: u32, bytes: &[u8]) -> u32 {
    let mut chunks = bytes.chunks_exact(16);
    for chunk in &mut chunks {
        let mut w = [0u8; 16];
        w.copy_from_slice(chunk);
        state = crc32c_update128(state, u128::from_le_bytes(w));
    }
    for &b in chunks.remainder() {
        state = (state >> 8) ^ TABLES[0][((state ^ u32::from(b)) & 0xFF) as usize];
    }
    state
}

/// CRC-32C of a byte string (initial value and final XOR applied).
pub fn crc32c_bytes(bytes: &[u8]) -> u32 {
    crc32c_update_bytes(CRC_INIT, bytes) ^ CRC_XOROUT
}

/// Header bits the CRC covers: every field but `vc` (a router rewrites it at every hop),
/// `route` (the network-scale routing algorithms rewrite it) and `ecc` (recomputed with them).
pub const HDR_CRC_MASK: u128 = !(HDR_VC.mask() | HDR_ROUTE.mask() | HDR_ECC.mask());

/// The running state after a packet's header: where the CRC of every packet starts.
#[inline]
pub fn crc_start(header_word: u128) -> u32 {
    crc32c_update128(CRC_INIT, header_word & HDR_CRC_MASK)
}

/// What correcting header bit `bit` changes in the running state after the header: the CRC,
/// from a zero state, of a header whose only set bit is that one, masked by [`HDR_CRC_MASK`].
/// The CRC is linear in its data, so `crc_start(h ^ 1 << bit) == crc_start(h) ^
/// crc_correction(bit)`: a TCL RX runs its CRC on the header's beats as received and adds this
/// when its SECDED decoder corrects a bit (the RTL looks it up by the bit's Hamming position,
/// `exanet_base_pkg::CRC32C_FIX`).
pub fn crc_correction(bit: u32) -> u32 {
    crc32c_update128(0, (1u128 << bit) & HDR_CRC_MASK)
}

/// The footer CRC of a packet: CRC-32C over the header's covered bits ([`HDR_CRC_MASK`]),
/// the payload words, then footer bits 63:0.
///
/// Bits 127:64 of `footer_word` (crc_bad, lseq, lseq_chk, crc) are ignored, and so are the
/// header's `vc`, `route` and `ecc`, so the same function checks a received packet at any hop.
pub fn message_crc(header_word: u128, payload: &[u128], footer_word: u128) -> u32 {
    let state = payload
        .iter()
        .fold(crc_start(header_word), |s, &w| crc32c_update128(s, w));
    crc32c_update64(state, footer_word as u64) ^ CRC_XOROUT
}

#[cfg(test)]
mod tests {
    use super::super::test_rng::Rng;
    use super::*;

    /// Plain bit-at-a-time CRC-32C, the definition the tables must reproduce.
    fn bitwise(bytes: &[u8]) -> u32 {
        let mut c = CRC_INIT;
        for &b in bytes {
            c ^= u32::from(b);
            for _ in 0..8 {
                c = if c & 1 != 0 {
                    (c >> 1) ^ CRC_POLY_REFLECTED
                } else {
                    c >> 1
                };
            }
        }
        c ^ CRC_XOROUT
    }

    #[test]
    fn the_header_beats_plus_the_correction_give_the_corrected_headers_start() {
        // What a TCL RX computes: the header's two beats as received, masked, through the
        // 64-bit engine, plus crc_correction of the bit its decoder flips.
        let mut rng = Rng::new(0xF1C);
        for _ in 0..20 {
            let h = rng.u128();
            let m = HDR_CRC_MASK;
            let raw = crc32c_update64(
                crc32c_update64(CRC_INIT, (h & m) as u64),
                ((h & m) >> 64) as u64,
            );
            assert_eq!(raw, crc_start(h));
            for bit in 0..128 {
                let fixed = h ^ (1u128 << bit);
                assert_eq!(raw ^ crc_correction(bit), crc_start(fixed), "bit {bit}");
                // a bit outside the mask changes nothing
                assert_eq!(crc_correction(bit) == 0, m >> bit & 1 == 0, "bit {bit}");
            }
        }
    }

    #[test]
    fn check_value() {
        assert_eq!(crc32c_bytes(b"123456789"), 0xE306_9283);
        assert_eq!(crc32c_bytes(b""), 0);
    }

    #[test]
    fn rfc3720_b4_vectors() {
        assert_eq!(crc32c_bytes(&[0x00; 32]), 0x8A91_36AA);
        assert_eq!(crc32c_bytes(&[0xFF; 32]), 0x62A8_AB43);
        let inc: Vec<u8> = (0x00..=0x1F).collect();
        assert_eq!(crc32c_bytes(&inc), 0x46DD_794E);
        let dec: Vec<u8> = (0x00..=0x1F).rev().collect();
        assert_eq!(crc32c_bytes(&dec), 0x113F_DB5C);
    }

    #[test]
    fn tables_equal_the_bitwise_definition_for_every_length() {
        let mut rng = Rng::new(0xC3C);
        let bytes: Vec<u8> = (0..100).map(|_| rng.u64() as u8).collect();
        for n in 0..=bytes.len() {
            assert_eq!(crc32c_bytes(&bytes[..n]), bitwise(&bytes[..n]), "len {n}");
        }
    }

    #[test]
    fn word_updates_equal_the_byte_function() {
        let mut rng = Rng::new(0x32C);
        for _ in 0..200 {
            let state = rng.u64() as u32;
            let w = rng.u128();
            let b = w.to_le_bytes();
            assert_eq!(crc32c_update128(state, w), crc32c_update_bytes(state, &b));
            let lo = crc32c_update64(state, w as u64);
            assert_eq!(lo, crc32c_update_bytes(state, &b[..8]));
            assert_eq!(
                crc32c_update64(lo, (w >> 64) as u64),
                crc32c_update128(state, w)
            );
        }
    }

    #[test]
    fn message_crc_is_covered_header_then_payload_bytes_then_low_footer_beat() {
        let mut rng = Rng::new(0x5E5);
        for n in 0..5 {
            let header = rng.u128();
            let payload: Vec<u128> = (0..n).map(|_| rng.u128()).collect();
            let footer = rng.u128();
            let mut bytes: Vec<u8> = (header & HDR_CRC_MASK).to_le_bytes().to_vec();
            bytes.extend(payload.iter().flat_map(|w| w.to_le_bytes()));
            bytes.extend_from_slice(&(footer as u64).to_le_bytes());
            let crc = message_crc(header, &payload, footer);
            assert_eq!(crc, bitwise(&bytes));
            // The upper footer half (crc_bad, lseq, lseq_chk, crc) is not covered.
            let upper = footer ^ (u128::from(rng.u64()) << 64);
            assert_eq!(message_crc(header, &payload, upper), crc);
            // Nor are the header fields rewritten on the way (vc, route, ecc) ...
            let rewritten = header ^ (rng.u128() & !HDR_CRC_MASK);
            assert_eq!(message_crc(rewritten, &payload, footer), crc);
            // ... but every other header bit is.
            for bit in (0..128).filter(|b| HDR_CRC_MASK >> b & 1 == 1) {
                assert_ne!(
                    message_crc(header ^ 1 << bit, &payload, footer),
                    crc,
                    "{bit}"
                );
            }
        }
    }

    #[test]
    fn the_crc_covers_every_header_bit_but_vc_route_and_ecc() {
        assert_eq!(HDR_CRC_MASK.count_ones(), 128 - 3 - 8 - 8);
        assert_eq!(HDR_CRC_MASK & 0x7, 0);
        assert_eq!(HDR_CRC_MASK >> 120, 0);
        assert_eq!(HDR_CRC_MASK >> 105 & 0xff, 0);
    }
}
