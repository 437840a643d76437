//! The ExaNet packet (Biagioni 2017 §5.3.2): a 128-bit header, a payload of 128-bit words and a
//! 128-bit footer, with the header's SECDED code, the footer's CRC-32C and the APElink wire
//! constants.
//!
//! The bit layout lives in one table, [`layout::FIELDS`]; `docs/packet.md` and
//! `rtl/exanet_base_pkg.sv` carry the same table, and `tests/packet_layout.rs` keeps the three equal.

pub mod annotate;
pub mod builder;
pub mod crc;
pub mod error;
pub mod footer;
pub mod header;
pub mod layout;
pub mod secded;
pub mod wire;

#[cfg(test)]
mod test_rng;

pub use builder::{
    footer_crc_ok, payload_words, payload_words_for, valid_for, Packet, PacketBuilder,
    DEFAULT_MAX_PAYLOAD_BYTES, WORD_BYTES,
};
pub use crc::{
    crc32c_bytes, crc32c_update128, crc32c_update64, crc32c_update_bytes, crc_correction,
    crc_start, message_crc, CRC_INIT, CRC_XOROUT, HDR_CRC_MASK,
};
pub use error::PacketError;
pub use footer::Footer;
pub use header::{Coord, Header, HeaderDecode, PacketType};
pub use layout::{Field, Word, FIELDS};
pub use secded::{secded_check_bits, secded_decode, secded_encode, EccStatus};
