//! Constants of the APElink wire protocol: the 64-bit beats a TCL sends besides packet words.
//!
//! Thesis 002 §5.3.4 describes word stuffing (a Magic word marks every control frame; Magic then
//! Start announce a header) and two credit flavours (start/stop, usedword) without publishing
//! their encodings; the values below are this project's (see `docs/packet.md`). The
//! SystemVerilog package `rtl/exanet_base_pkg.sv` carries the same values (`WIRE_MAGIC`,
//! `WIRE_START`, `CREDIT_SS_TAG`, `CREDIT_UW_TAG`); `tests/packet_layout.rs` keeps them equal.

/// Magic word: precedes every control frame (a Start, or a credit sent inside a packet).
pub const MAGIC: u64 = 0xB5A5_5AA5_C33C_0FF0;
/// Start word: follows a Magic and announces that the next two beats are a header.
pub const START: u64 = 0x9E37_79B9_7F4A_7C15;

/// Tag in bits 63:48 of a start/stop credit beat.
pub const CREDIT_SS_TAG: u64 = 0xCCCC;
/// Position of [`CREDIT_SS_TAG`] in the beat.
pub const CREDIT_SS_TAG_LSB: u32 = 48;
/// Width of [`CREDIT_SS_TAG`].
pub const CREDIT_SS_TAG_W: u32 = 16;

/// Tag in bits 63:62 of every beat of a usedword credit.
pub const CREDIT_UW_TAG: u64 = 0b11;
/// Position of [`CREDIT_UW_TAG`] in the beat.
pub const CREDIT_UW_TAG_LSB: u32 = 62;
/// Width of [`CREDIT_UW_TAG`].
pub const CREDIT_UW_TAG_W: u32 = 2;
/// Position of the beat index (0..=3) inside a usedword credit beat.
pub const CREDIT_UW_IDX_LSB: u32 = 60;
/// Width of the usedword credit beat index.
pub const CREDIT_UW_IDX_W: u32 = 2;

const _: () = assert!(CREDIT_SS_TAG_LSB + CREDIT_SS_TAG_W == 64);
const _: () = assert!(CREDIT_UW_TAG_LSB + CREDIT_UW_TAG_W == 64);
const _: () = assert!(CREDIT_UW_IDX_LSB + CREDIT_UW_IDX_W == CREDIT_UW_TAG_LSB);

/// Whether a beat carries the start/stop credit tag.
pub const fn is_ss_credit(beat: u64) -> bool {
    beat >> CREDIT_SS_TAG_LSB == CREDIT_SS_TAG
}

/// Whether a beat carries the usedword credit tag.
pub const fn is_uw_credit(beat: u64) -> bool {
    beat >> CREDIT_UW_TAG_LSB == CREDIT_UW_TAG
}

/// Beat index (0..=3) of a usedword credit beat.
pub const fn uw_credit_index(beat: u64) -> u8 {
    ((beat >> CREDIT_UW_IDX_LSB) & ((1 << CREDIT_UW_IDX_W) - 1)) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_and_index() {
        assert!(is_ss_credit(0xCCCC_0000_0000_0001));
        assert!(!is_ss_credit(0xCCCD_0000_0000_0000));
        let uw = (CREDIT_UW_TAG << 62) | (2 << 60) | 0x1234;
        assert!(is_uw_credit(uw));
        assert_eq!(uw_credit_index(uw), 2);
        // Magic and Start are not mistaken for either credit, nor for each other.
        for w in [MAGIC, START] {
            assert!(!is_ss_credit(w));
            assert!(!is_uw_credit(w));
        }
        assert_ne!(MAGIC, START);
    }
}
