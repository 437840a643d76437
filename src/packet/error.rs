//! Errors of the packet builder and of header/footer validation.

use super::layout::Field;
use std::fmt;

/// Why a packet (or a header or footer) is not valid. Every variant names the field at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PacketError {
    /// A value does not fit its field (for example `vc` >= 8, a coordinate above 255).
    FieldOverflow {
        /// The field, from the layout table.
        field: Field,
        /// The value given.
        value: u64,
    },
    /// The `size` field asks for more payload than the builder's maximum.
    SizeAboveMax {
        /// The `size` field as given (bytes, or words when `size_in_words`).
        size: u32,
        /// Whether `size` counts 128-bit words.
        size_in_words: bool,
        /// The builder's maximum payload, bytes.
        max_payload_bytes: u32,
    },
    /// The number of payload words does not match what `type` and `size` imply.
    PayloadLength {
        /// The `size` field.
        size: u32,
        /// Payload words implied by `type` and `size`.
        expected_words: u32,
        /// Payload words given.
        got_words: usize,
    },
}

impl fmt::Display for PacketError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PacketError::FieldOverflow { field, value } => write!(
                f,
                "{} field `{}` = {value} does not fit in {} bits (max {})",
                field.word.name(),
                field.name,
                field.width,
                field.max()
            ),
            PacketError::SizeAboveMax {
                size,
                size_in_words,
                max_payload_bytes,
            } => write!(
                f,
                "header field `size` = {size} {} is above the maximum payload of {max_payload_bytes} bytes",
                if *size_in_words { "words" } else { "bytes" }
            ),
            PacketError::PayloadLength {
                size,
                expected_words,
                got_words,
            } => write!(
                f,
                "payload has {got_words} words but header fields `type`/`size` (size {size}) \
                 imply {expected_words}"
            ),
        }
    }
}

impl std::error::Error for PacketError {}

/// `Ok` if `value` fits `field`, else [`PacketError::FieldOverflow`].
pub(crate) fn check_fits(field: Field, value: u64) -> Result<(), PacketError> {
    if field.fits(value) {
        Ok(())
    } else {
        Err(PacketError::FieldOverflow { field, value })
    }
}
