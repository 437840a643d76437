//! The bit layout of the ExaNet header and footer: one table, the single source of truth.
//!
//! Thesis 002 §5.3.2 names the fields but does not publish their positions; the positions below
//! are this project's definition (see `docs/packet.md`). Everything that touches a header or
//! footer bit (the encoders and decoders here, the TCL, the wave viewers) reads positions from
//! [`FIELDS`]; `tests/packet_layout.rs` checks that `docs/packet.md` and the localparams of
//! `rtl/exanet_base_pkg.sv` say exactly the same thing.
//!
//! Bit 0 is the LSB of the 128-bit word; on the 64-bit wire bits 63:0 go first.

use bitvec::prelude::*;

/// Which 128-bit word of a packet a field lives in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Word {
    /// The header, the first word of a packet.
    Header,
    /// The footer, the last word of a packet.
    Footer,
}

impl Word {
    /// Lower-case name, as used in `docs/packet.md`.
    pub const fn name(self) -> &'static str {
        match self {
            Word::Header => "header",
            Word::Footer => "footer",
        }
    }

    /// Prefix of the SystemVerilog localparams of this word's fields (`HDR_`, `FTR_`).
    pub const fn sv_prefix(self) -> &'static str {
        match self {
            Word::Header => "HDR_",
            Word::Footer => "FTR_",
        }
    }
}

/// One field of the header or footer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Field {
    /// Field name, lower case, as in the table of `docs/packet.md`.
    pub name: &'static str,
    /// The word holding the field.
    pub word: Word,
    /// Position of the field's least significant bit in the 128-bit word.
    pub lsb: u32,
    /// Width in bits (1..=64).
    pub width: u32,
    /// What the field means (the `meaning` column of `docs/packet.md`).
    pub description: &'static str,
}

const fn f(
    word: Word,
    name: &'static str,
    lsb: u32,
    width: u32,
    description: &'static str,
) -> Field {
    Field {
        name,
        word,
        lsb,
        width,
        description,
    }
}

use Word::{Footer as F, Header as H};

/// The layout table: header fields, then footer fields, each in ascending bit order.
pub const FIELDS: [Field; 22] = [
    f(H, "vc", 0, 3, "virtual channel"),
    f(
        H,
        "type",
        3,
        2,
        "0 RDMA, 1 ACK, 2 RATE, 3 reserved (routed and sized like RDMA)",
    ),
    f(
        H,
        "size",
        5,
        13,
        "payload length (bytes by default; words when the size-in-words synthesis option is set)",
    ),
    f(H, "dst_x", 18, 8, "destination coordinate X"),
    f(H, "dst_y", 26, 8, "destination coordinate Y"),
    f(H, "dst_z", 34, 8, "destination coordinate Z"),
    f(H, "pdid", 42, 12, "protection domain ID"),
    f(
        H,
        "dst_addr",
        54,
        48,
        "destination (virtual) memory address",
    ),
    f(
        H,
        "dst_port",
        102,
        3,
        "intra-tile port at the destination node",
    ),
    f(
        H,
        "route",
        105,
        8,
        "routing state of the network-scale routing algorithms (dateline crossings, misroute, group; src/net/routing); zero from the source; the APErouter's DOR keeps it",
    ),
    f(H, "rsvd", 113, 7, "reserved, zero"),
    f(H, "ecc", 120, 8, "SECDED check bits over header bits 119:0"),
    f(
        F,
        "chan_id",
        0,
        16,
        "outstanding-packet (channel) ID at the source",
    ),
    f(F, "src_x", 16, 8, "source coordinate X"),
    f(F, "src_y", 24, 8, "source coordinate Y"),
    f(F, "src_z", 32, 8, "source coordinate Z"),
    f(
        F,
        "valid",
        40,
        4,
        "index of the last valid byte in the last payload word",
    ),
    f(F, "user", 44, 20, "user-defined"),
    f(
        F,
        "crc_bad",
        64,
        1,
        "set by a receiving TCL whose CRC check failed (not covered by the CRC)",
    ),
    f(
        F,
        "lseq",
        65,
        16,
        "link sequence number: written by a sending TCL, checked and cleared by the receiving one (zero elsewhere)",
    ),
    f(
        F,
        "lseq_chk",
        81,
        15,
        "CRC-15 of lseq (zero elsewhere)",
    ),
    f(F, "crc", 96, 32, "CRC-32C of the message (see below)"),
];

const fn same_word(a: Word, b: Word) -> bool {
    matches!(
        (a, b),
        (Word::Header, Word::Header) | (Word::Footer, Word::Footer)
    )
}

/// Looks a field up by word and name; `None` if the table has no such field.
pub const fn find(word: Word, name: &str) -> Option<Field> {
    let mut i = 0;
    while i < FIELDS.len() {
        let fd = FIELDS[i];
        if same_word(fd.word, word) && crate::conststr::str_eq(fd.name, name) {
            return Some(fd);
        }
        i += 1;
    }
    None
}

/// Compile-time lookup for the named constants below: a misspelt name fails the build.
const fn field(word: Word, name: &str) -> Field {
    match find(word, name) {
        Some(fd) => fd,
        None => panic!("field missing from packet::layout::FIELDS"),
    }
}

/// Every field of both words, checked at compile time: each word is tiled exactly, bits 0..128
/// with no gap and no overlap, in ascending order, and no field is wider than 64 bits (so a
/// field's value fits a `u64`).
const fn check_layout() {
    let words = [Word::Header, Word::Footer];
    let mut w = 0;
    while w < words.len() {
        let mut next = 0;
        let mut i = 0;
        while i < FIELDS.len() {
            let fd = FIELDS[i];
            if same_word(fd.word, words[w]) {
                assert!(fd.lsb == next, "packet layout: gap or overlap");
                assert!(
                    fd.width >= 1 && fd.width <= 64,
                    "packet layout: field width"
                );
                next = fd.lsb + fd.width;
            }
            i += 1;
        }
        assert!(next == 128, "packet layout: word not 128 bits");
        w += 1;
    }
}
const _: () = check_layout();

/// Header: virtual channel.
pub const HDR_VC: Field = field(H, "vc");
/// Header: packet type ([`super::PacketType`]).
pub const HDR_TYPE: Field = field(H, "type");
/// Header: payload length, bytes or words.
pub const HDR_SIZE: Field = field(H, "size");
/// Header: destination X.
pub const HDR_DST_X: Field = field(H, "dst_x");
/// Header: destination Y.
pub const HDR_DST_Y: Field = field(H, "dst_y");
/// Header: destination Z.
pub const HDR_DST_Z: Field = field(H, "dst_z");
/// Header: protection domain ID.
pub const HDR_PDID: Field = field(H, "pdid");
/// Header: destination memory address.
pub const HDR_DST_ADDR: Field = field(H, "dst_addr");
/// Intra-tile port at the destination node.
pub const HDR_DST_PORT: Field = field(H, "dst_port");
pub const HDR_ROUTE: Field = field(H, "route");
/// Header: reserved.
pub const HDR_RSVD: Field = field(H, "rsvd");
/// Header: SECDED check bits.
pub const HDR_ECC: Field = field(H, "ecc");
/// Footer: channel ID.
pub const FTR_CHAN_ID: Field = field(F, "chan_id");
/// Footer: source X.
pub const FTR_SRC_X: Field = field(F, "src_x");
/// Footer: source Y.
pub const FTR_SRC_Y: Field = field(F, "src_y");
/// Footer: source Z.
pub const FTR_SRC_Z: Field = field(F, "src_z");
/// Footer: index of the last valid byte.
pub const FTR_VALID: Field = field(F, "valid");
/// Footer: user-defined.
pub const FTR_USER: Field = field(F, "user");
/// Footer: CRC check failed at a receiving TCL.
pub const FTR_CRC_BAD: Field = field(F, "crc_bad");
/// Footer: link sequence number (a TCL's, between two TCLs only; docs/decisions/0016).
pub const FTR_LSEQ: Field = field(F, "lseq");
/// Footer: CRC-15 of the link sequence number.
pub const FTR_LSEQ_CHK: Field = field(F, "lseq_chk");
/// Footer: CRC-32C of the message.
pub const FTR_CRC: Field = field(F, "crc");

// The ECC protects everything below it and fills the top of the header; the CRC covers the
// footer bits below `crc_bad`, which must be the low 64-bit beat.
const _: () = assert!(HDR_ECC.lsb + HDR_ECC.width == 128 && HDR_ECC.width == 8);
const _: () = assert!(FTR_CRC_BAD.lsb == 64);

/// Number of header bits protected by the SECDED code (header bits `SECDED_DATA_BITS-1:0`).
pub const SECDED_DATA_BITS: u32 = HDR_ECC.lsb;
/// Number of low footer bits covered by the CRC (one 64-bit beat).
pub const FTR_CRC_COVERED_BITS: u32 = FTR_CRC_BAD.lsb;

impl Field {
    /// Largest value the field can hold.
    pub const fn max(&self) -> u64 {
        u64::MAX >> (64 - self.width)
    }

    /// Whether `value` fits in the field.
    pub const fn fits(&self, value: u64) -> bool {
        value <= self.max()
    }

    /// The field's bits as a mask over the 128-bit word.
    pub const fn mask(&self) -> u128 {
        (self.max() as u128) << self.lsb
    }

    /// Bit range inside the 128-bit word.
    pub const fn range(&self) -> core::ops::Range<usize> {
        self.lsb as usize..(self.lsb + self.width) as usize
    }

    /// Reads the field from a raw 128-bit word: the bits `WordBits::get` loads, by a shift
    /// and a mask (the routers and NICs read header fields every cycle; a test holds the two
    /// equal for every field).
    #[inline]
    pub const fn get(&self, word: u128) -> u64 {
        (word >> self.lsb) as u64 & self.max()
    }

    /// Returns `word` with the field replaced by `value` (bits of `value` above the field's width
    /// are dropped): what `WordBits::set` stores, by a mask (a test holds the two equal).
    #[inline]
    pub const fn set(&self, word: u128, value: u64) -> u128 {
        (word & !self.mask()) | ((value & self.max()) as u128) << self.lsb
    }
}

/// A 128-bit header or footer word as a bit array (bit 0 = LSB), for field access by slice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WordBits(BitArray<[u64; 2], Lsb0>);

impl WordBits {
    /// Wraps a raw word.
    pub fn from_u128(word: u128) -> Self {
        Self(BitArray::new([word as u64, (word >> 64) as u64]))
    }

    /// The raw word.
    pub fn to_u128(&self) -> u128 {
        let [lo, hi] = self.0.into_inner();
        (u128::from(hi) << 64) | u128::from(lo)
    }

    /// Reads a field.
    pub fn get(&self, field: &Field) -> u64 {
        self.0[field.range()].load_le::<u64>()
    }

    /// Writes a field, dropping bits of `value` above its width.
    pub fn set(&mut self, field: &Field, value: u64) {
        self.0[field.range()].store_le::<u64>(value & field.max());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_tiles_128_bits_in_order() {
        for word in [Word::Header, Word::Footer] {
            let mut covered = 0u128;
            for fd in FIELDS.iter().filter(|fd| fd.word == word) {
                assert_eq!(covered & fd.mask(), 0, "{} overlaps", fd.name);
                assert_eq!(fd.mask().trailing_zeros(), fd.lsb, "{}", fd.name);
                covered |= fd.mask();
            }
            assert_eq!(covered, u128::MAX, "{word:?} not fully covered");
        }
    }

    #[test]
    fn names_are_unique_per_word() {
        for (i, a) in FIELDS.iter().enumerate() {
            for b in &FIELDS[i + 1..] {
                assert!(!(a.word == b.word && a.name == b.name), "{}", a.name);
            }
        }
    }

    #[test]
    fn named_constants_point_at_their_rows() {
        assert_eq!(HDR_DST_ADDR.name, "dst_addr");
        assert_eq!(HDR_DST_ADDR.word, Word::Header);
        assert_eq!(FTR_CRC.word, Word::Footer);
        assert_eq!(FTR_CRC.lsb + FTR_CRC.width, 128);
        assert_eq!(find(Word::Footer, "vc"), None);
        assert_eq!(find(Word::Header, "rsvd"), Some(HDR_RSVD));
        assert_eq!(find(Word::Footer, "rsvd"), None);
        assert_eq!(find(Word::Footer, "lseq"), Some(FTR_LSEQ));
    }

    #[test]
    fn the_raw_word_accessors_read_and_write_what_the_bit_array_does() {
        // every field, on words with every bit pattern class: all ones, all zeros, and
        // pseudo-random ones (a fixed xorshift, so the test is the same every run)
        let mut x = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut words = vec![0u128, u128::MAX];
        for _ in 0..64 {
            words.push((next() as u128) << 64 | next() as u128);
        }
        for f in FIELDS.iter() {
            for &w in &words {
                let bits = WordBits::from_u128(w);
                assert_eq!(f.get(w), bits.get(f), "{} of {w:#x}", f.name);
                let v = next();
                let mut b = bits;
                b.set(f, v);
                assert_eq!(f.set(w, v), b.to_u128(), "{} := {v:#x} in {w:#x}", f.name);
            }
        }
    }

    #[test]
    fn get_set_roundtrip_including_field_across_the_64_bit_boundary() {
        // dst_addr spans bits 101:54, across the two u64 halves of the bit array.
        let v = 0xA5C3_0F0F_1234u64;
        let w = HDR_DST_ADDR.set(0, v);
        assert_eq!(w, u128::from(v) << 54);
        assert_eq!(HDR_DST_ADDR.get(w), v);
        // Setting one field leaves the others alone.
        let all = HDR_DST_ADDR.set(u128::MAX, 0);
        assert_eq!(all, !HDR_DST_ADDR.mask());
        // Too-wide values are cut to the field.
        assert_eq!(HDR_VC.set(0, 0xFF), 0x7);
    }
}
