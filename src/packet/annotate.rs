//! Wave annotations: a header, footer or wire beat as text, decoded with the one layout table
//! ([`super::layout::FIELDS`]) and the wire constants. `exanet wave-filter` serves these to
//! GTKWave as a translate filter process (one value in per line on stdin, one line of text out).

use super::layout::{Word, FIELDS};
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

/// A header word: its fields and the state of its SECDED code.
pub fn header(w: u128) -> String {
    let (status, fixed) = secded_decode(w);
    let ecc = match status {
        EccStatus::Clean => "ok".to_string(),
        EccStatus::Corrected { bit } => format!("corrected bit {bit}"),
        EccStatus::Uncorrectable => "UNCORRECTABLE".to_string(),
    };
    format!("{} [{ecc}]", fields(Word::Header, fixed))
}

/// A footer word: its fields.
pub fn footer(w: u128) -> String {
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
            .payload(vec![0; 4])
            .build()
            .unwrap();
        let w = p.words();
        let h = header(w[0]);
        assert!(
            h.starts_with("vc=1 type=0 size=64 dst_x=3 dst_y=2 dst_z=1"),
            "{h}"
        );
        assert!(h.contains("dst_addr=0x1234") && h.ends_with("[ok]"), "{h}");
        assert!(header(w[0] ^ (1 << 9)).ends_with("[corrected bit 9]"));
        assert!(header(w[0] ^ 0b11).ends_with("[UNCORRECTABLE]"));
        let f = footer(w[5]);
        assert!(f.starts_with("chan_id=7 src_x=4 src_y=5 src_z=6"), "{f}");
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
