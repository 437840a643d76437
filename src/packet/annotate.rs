//! Wave annotations: a header, footer or wire beat as text, decoded with the one layout table
//! ([`super::layout::FIELDS`]) and the wire constants. `exanet wave-filter` serves these to
//! GTKWave as a translate filter process (one value in per line on stdin, one line of text out).
//!
//! # Which words are decoded
//!
//! A filter process gets the value only: not the signal, not the time, not the words around
//! it. A 128-bit register such as the TCL RX's `wr_data_q` carries headers, payload and
//! footers in turn, so the filter itself tells a header from the rest:
//!
//! - `header`: a value is a header when its SECDED code is clean and its reserved field
//!   (`rsvd`, 7 bits) is zero; it is shown decoded, with `[ok]`. Anything else is shown as
//!   `data 0x<32 hex digits>`. Every 128-bit register of the IP holds headers with a clean
//!   code (the TCL RX writes the corrected header, `src/link/tcl_rx.rs`), so no header is lost
//!   to the rule, and a random payload word passes it with probability 2^-15 (8 check bits and
//!   7 reserved bits): about one payload word in 33,000 is shown as a header. A header with a
//!   bit error exists only as two wire beats (`beat` shows those).
//!   The all-zero word is a valid header (every field zero, a clean code), so a zero payload
//!   word is shown as that header.
//! - `footer`: a value is a footer when its link sequence number's check holds (`lseq_chk`, a
//!   CRC-15 of `lseq`, docs/packet.md; a random word passes with probability 2^-15) and it is
//!   not a header by the rule above; anything else is `data 0x...`.
//!
//! [`header_fields`] and [`footer_fields`] decode any value, for callers that know what it is.

use super::layout::{Word, FIELDS, HDR_RSVD};
use super::secded::{secded_decode, EccStatus};
use super::wire::{CREDIT_SS_TAG, CREDIT_UW_TAG, MAGIC, START};

/// What a value on a wave is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Annotate {
    /// A 128-bit header word.
    Header,
    /// A 128-bit footer word.
    Footer,
    /// A 64-bit APElink wire beat.
    Beat,
}

impl std::str::FromStr for Annotate {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "header" => Ok(Annotate::Header),
            "footer" => Ok(Annotate::Footer),
            "beat" => Ok(Annotate::Beat),
            _ => Err(format!(
                "unknown kind '{s}' (expected header, footer or beat)"
            )),
        }
    }
}

fn fields(word: Word, w: u128) -> String {
    FIELDS
        .iter()
        .filter(|f| f.word == word && f.name != "rsvd")
        .map(|f| {
            let v = f.get(w);
            if f.width > 16 {
                format!("{}=0x{v:x}", f.name)
            } else {
                format!("{}={v}", f.name)
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// True if `w` is taken for a header: a clean SECDED code and a zero reserved field.
pub fn is_header(w: u128) -> bool {
    secded_decode(w).0 == EccStatus::Clean && HDR_RSVD.get(w) == 0
}

/// True if `w` is taken for a footer: its link sequence number's check holds (`lseq_chk`, a
/// CRC-15 of `lseq`: a random word passes with probability 2^-15; a footer not yet numbered by
/// a TCL TX carries 0 and its check 0), and it is not a header.
pub fn is_footer(w: u128) -> bool {
    crate::link::lseq::read(w).is_some() && !is_header(w)
}

/// A word shown as data: `data 0x` and 32 hex digits.
pub fn data(w: u128) -> String {
    format!("data 0x{w:032x}")
}

/// A header word's fields and `[ok]`, if [`is_header`]; else [`data`].
pub fn header(w: u128) -> String {
    if is_header(w) {
        header_fields(w)
    } else {
        data(w)
    }
}

/// A footer word's fields, if [`is_footer`]; else [`data`].
pub fn footer(w: u128) -> String {
    if is_footer(w) {
        footer_fields(w)
    } else {
        data(w)
    }
}

/// Any value decoded as a header: its fields (after correction) and the state of its SECDED
/// code (`[ok]`, `[corrected bit n]`, `[UNCORRECTABLE]`).
pub fn header_fields(w: u128) -> String {
    let (status, fixed) = secded_decode(w);
    let ecc = match status {
        EccStatus::Clean => "ok".to_string(),
        EccStatus::Corrected { bit } => format!("corrected bit {bit}"),
        EccStatus::Uncorrectable => "UNCORRECTABLE".to_string(),
    };
    format!("{} [{ecc}]", fields(Word::Header, fixed))
}

/// Any value decoded as a footer: its fields.
pub fn footer_fields(w: u128) -> String {
    fields(Word::Footer, w)
}

/// A wire beat: MAGIC, START, a credit (both flavours' tags), or data.
pub fn beat(b: u64) -> String {
    if b == MAGIC {
        "MAGIC".into()
    } else if b == START {
        "START".into()
    } else if b >> 48 == CREDIT_SS_TAG {
        let c = |k: u32| (b >> (8 * k)) & 0xff;
        format!(
            "CREDIT start/stop stop={:02x}/{:02x}/{:02x}",
            c(0),
            c(1),
            c(2)
        )
    } else if b >> 62 == CREDIT_UW_TAG {
        let f = |slot: u32, copy: u32| (b >> (30 * slot + 10 * copy)) & 0x3ff;
        format!(
            "CREDIT usedword #{} lo={}/{}/{} hi={}/{}/{} (or data)",
            (b >> 60) & 3,
            f(0, 0),
            f(0, 1),
            f(0, 2),
            f(1, 0),
            f(1, 1),
            f(1, 2)
        )
    } else {
        format!("{b:016x}")
    }
}

/// One line of a translate filter: the value as the viewer shows it (hexadecimal, with or
/// without `0x`, `_` separators allowed), annotated; a value that is not a number (x, z) comes
/// back unchanged.
pub fn filter_line(kind: Annotate, line: &str) -> String {
    let t = line.trim();
    let hex: String = t
        .trim_start_matches("0x")
        .chars()
        .filter(|c| *c != '_')
        .collect();
    let Ok(v) = u128::from_str_radix(&hex, 16) else {
        return t.to_string();
    };
    match kind {
        Annotate::Header => header(v),
        Annotate::Footer => footer(v),
        Annotate::Beat => beat(v as u64),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::{Packet, PacketType};

    #[test]
    fn decodes_with_the_layout_table() {
        let p = Packet::builder()
            .vc(1)
            .kind(PacketType::Rdma)
            .size(64)
            .dst(3, 2, 1)
            .dst_addr(0x1234)
            .chan_id(7)
            .src(4, 5, 6)
            .payload(vec![
                0x0123_4567_89ab_cdef_0f1e_2d3c_4b5a_6978,
                u128::MAX,
                0xdead_beef << 64,
                1,
            ])
            .build()
            .unwrap();
        let w = p.words();
        let h = header(w[0]);
        assert!(
            h.starts_with("vc=1 type=0 size=64 dst_x=3 dst_y=2 dst_z=1"),
            "{h}"
        );
        assert!(h.contains("dst_addr=0x1234") && h.ends_with("[ok]"), "{h}");
        assert!(header_fields(w[0] ^ (1 << 9)).ends_with("[corrected bit 9]"));
        assert!(header_fields(w[0] ^ 0b11).ends_with("[UNCORRECTABLE]"));
        let f = footer(w[5]);
        assert!(f.starts_with("chan_id=7 src_x=4 src_y=5 src_z=6"), "{f}");
        // What is not a header is shown as data, through the filter too.
        for x in [w[1], w[2], w[5], w[0] ^ (1 << 9), w[0] ^ 0b11] {
            assert_eq!(header(x), format!("data 0x{x:032x}"), "{x:x}");
        }
        assert_eq!(
            filter_line(Annotate::Header, &format!("{:x}", w[1])),
            format!("data 0x{:032x}", w[1])
        );
        for x in [w[0], w[1], w[2]] {
            assert!(footer(x).starts_with("data 0x"), "{x:x}: {}", footer(x));
        }
        assert_eq!(beat(MAGIC), "MAGIC");
        assert_eq!(beat(START), "START");
        assert!(beat(crate::link::credit::ss_beat(0x02)).contains("stop=02/02/02"));
        assert!(beat(crate::link::credit::uw_beat(1, 5, 9))
            .starts_with("CREDIT usedword #1 lo=5/5/5 hi=9/9/9"));
        assert_eq!(
            filter_line(Annotate::Beat, &format!("{MAGIC:016X}\n")),
            "MAGIC"
        );
        assert_eq!(filter_line(Annotate::Beat, "xxxx"), "xxxx");
    }
}
