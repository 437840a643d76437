//! A whole packet (header, payload, footer) and its checked builder.
//!
//! Thesis 002 §5.3.2: a 128-bit header, a payload of 128-bit words, a 128-bit footer; the
//! APElink protocol supports payloads up to 4 KB (a page), the builder's default maximum.

use super::crc::message_crc;
use super::error::{check_fits, PacketError};
use super::footer::Footer;
use super::header::{Coord, Header, PacketType};
use super::layout::{
    Field, FTR_CHAN_ID, FTR_CRC, FTR_SRC_X, FTR_SRC_Y, FTR_SRC_Z, FTR_USER, HDR_DST_ADDR,
    HDR_DST_PORT, HDR_DST_X, HDR_DST_Y, HDR_DST_Z, HDR_PDID, HDR_ROUTE, HDR_RSVD, HDR_SIZE,
    HDR_TYPE, HDR_VC,
};

/// Bytes in one 128-bit payload word.
pub const WORD_BYTES: u32 = 16;
/// Default maximum payload of the builder, bytes (Biagioni 2017 §5.3.2: up to 4 KB).
pub const DEFAULT_MAX_PAYLOAD_BYTES: u32 = 4096;

/// Payload words implied by `type` and `size`: 0 for ACK and RATE; otherwise `ceil(size/16)`
/// in byte mode, `size` in word mode.
pub const fn payload_words_for(kind: PacketType, size: u32, size_in_words: bool) -> u32 {
    if !kind.carries_payload() {
        0
    } else if size_in_words {
        size
    } else {
        size.div_ceil(WORD_BYTES)
    }
}

/// Payload words of a packet from its raw header word (as the TCL sees it; no ECC check).
/// (Every gate, TCL and NIC reads it from each header: by `Field::get`'s shift and mask, which a
/// test holds equal to `WordBits::get`.)
pub fn payload_words(header_word: u128, size_in_words: bool) -> u32 {
    let kind = PacketType::from_code(HDR_TYPE.get(header_word));
    // `size` is 13 bits wide, so the cast is lossless.
    payload_words_for(kind, HDR_SIZE.get(header_word) as u32, size_in_words)
}

/// The footer `valid` field for `type` and `size`: `(size-1) mod 16` in byte mode, 15 in word
/// mode, 0 when there is no payload.
pub const fn valid_for(kind: PacketType, size: u32, size_in_words: bool) -> u8 {
    if payload_words_for(kind, size, size_in_words) == 0 {
        0
    } else if size_in_words {
        (WORD_BYTES - 1) as u8
    } else {
        ((size - 1) % WORD_BYTES) as u8
    }
}

/// Whether the CRC stored in a received footer matches the header's covered bits, the payload
/// and footer bits 63:0.
pub fn footer_crc_ok(header_word: u128, payload: &[u128], footer_word: u128) -> bool {
    u64::from(message_crc(header_word, payload, footer_word)) == FTR_CRC.get(footer_word)
}

/// A packet: header, payload words, footer.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Packet {
    /// Header fields.
    pub header: Header,
    /// Payload, 128-bit words; payload byte `k` of a word is bits `8k+7:8k`.
    pub payload: Vec<u128>,
    /// Footer fields (`crc` as built; [`Packet::words`] recomputes it).
    pub footer: Footer,
}

impl Packet {
    /// A builder with the default maximum payload (4096 bytes), byte-mode `size`.
    pub fn builder() -> PacketBuilder {
        PacketBuilder::default()
    }

    /// The CRC of this packet: header (covered bits), payload and footer bits 63:0.
    pub fn crc(&self) -> u32 {
        message_crc(self.header.encode(), &self.payload, self.footer.encode())
    }

    /// The footer word with the CRC field filled in from the current payload.
    pub fn footer_word(&self) -> u128 {
        Footer {
            crc: self.crc(),
            ..self.footer
        }
        .encode()
    }

    /// The packet as it leaves the source: header word (with ECC), payload words, footer word
    /// (with CRC).
    pub fn words(&self) -> Vec<u128> {
        let mut words = Vec::with_capacity(self.payload.len() + 2);
        words.push(self.header.encode());
        words.extend_from_slice(&self.payload);
        words.push(self.footer_word());
        words
    }
}

/// Builds a [`Packet`], checking every field against the layout and the payload against `size`.
///
/// Setters take wide integers so that an out-of-range value (a `vc` of 8, a coordinate of 300)
/// is reported by [`PacketBuilder::build`] with the field's name rather than silently cut.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PacketBuilder {
    max_payload_bytes: u32,
    size_in_words: bool,
    vc: u64,
    kind: PacketType,
    size: u64,
    dst: [u64; 3],
    pdid: u64,
    dst_addr: u64,
    dst_port: u64,
    route: u64,
    rsvd: u64,
    chan_id: u64,
    src: [u64; 3],
    user: u64,
    payload: Vec<u128>,
}

impl Default for PacketBuilder {
    fn default() -> Self {
        Self {
            max_payload_bytes: DEFAULT_MAX_PAYLOAD_BYTES,
            size_in_words: false,
            vc: 0,
            kind: PacketType::Rdma,
            size: 0,
            dst: [0; 3],
            pdid: 0,
            dst_addr: 0,
            dst_port: 0,
            route: 0,
            rsvd: 0,
            chan_id: 0,
            src: [0; 3],
            user: 0,
            payload: Vec::new(),
        }
    }
}

impl PacketBuilder {
    /// Maximum payload, bytes (default 4096).
    pub fn max_payload_bytes(mut self, bytes: u32) -> Self {
        self.max_payload_bytes = bytes;
        self
    }

    /// Whether `size` counts 128-bit words (the size-in-words synthesis option) instead of bytes.
    pub fn size_in_words(mut self, on: bool) -> Self {
        self.size_in_words = on;
        self
    }

    /// Virtual channel (0..=7).
    pub fn vc(mut self, vc: u64) -> Self {
        self.vc = vc;
        self
    }

    /// Packet type.
    pub fn kind(mut self, kind: PacketType) -> Self {
        self.kind = kind;
        self
    }

    /// The `size` field: payload bytes, or words in word mode.
    pub fn size(mut self, size: u64) -> Self {
        self.size = size;
        self
    }

    /// Destination coordinates.
    pub fn dst(mut self, x: u64, y: u64, z: u64) -> Self {
        self.dst = [x, y, z];
        self
    }

    /// Protection domain ID.
    pub fn pdid(mut self, pdid: u64) -> Self {
        self.pdid = pdid;
        self
    }

    /// Destination memory address.
    /// Intra-tile port at the destination node (3 bits).
    pub fn dst_port(mut self, port: u64) -> Self {
        self.dst_port = port;
        self
    }

    /// The header's routing state (8 bits; zero from a source, the default).
    pub fn route(mut self, route: u64) -> Self {
        self.route = route;
        self
    }

    /// The header's reserved field (7 bits; zero from a source, the default).
    pub fn rsvd(mut self, rsvd: u64) -> Self {
        self.rsvd = rsvd;
        self
    }

    pub fn dst_addr(mut self, addr: u64) -> Self {
        self.dst_addr = addr;
        self
    }

    /// Channel (outstanding-packet) ID.
    pub fn chan_id(mut self, id: u64) -> Self {
        self.chan_id = id;
        self
    }

    /// Source coordinates.
    pub fn src(mut self, x: u64, y: u64, z: u64) -> Self {
        self.src = [x, y, z];
        self
    }

    /// User-defined footer field.
    pub fn user(mut self, user: u64) -> Self {
        self.user = user;
        self
    }

    /// Payload words.
    pub fn payload(mut self, words: Vec<u128>) -> Self {
        self.payload = words;
        self
    }

    /// Payload from bytes (little-endian within each word, last word zero-padded); also sets
    /// `size` (bytes, or words in word mode: call [`PacketBuilder::size_in_words`] first).
    pub fn payload_bytes(mut self, bytes: &[u8]) -> Self {
        self.payload = bytes
            .chunks(WORD_BYTES as usize)
            .map(|c| {
                let mut w = [0u8; 16];
                w[..c.len()].copy_from_slice(c);
                u128::from_le_bytes(w)
            })
            .collect();
        self.size = if self.size_in_words {
            self.payload.len() as u64
        } else {
            bytes.len() as u64
        };
        self
    }

    /// Checks every field and the payload length, computes `valid` and the CRC.
    pub fn build(self) -> Result<Packet, PacketError> {
        let fit = |field: Field, value: u64| check_fits(field, value).map(|()| value);
        let vc = fit(HDR_VC, self.vc)? as u8;
        let size = fit(HDR_SIZE, self.size)? as u32;
        let dst = Coord {
            x: fit(HDR_DST_X, self.dst[0])? as u8,
            y: fit(HDR_DST_Y, self.dst[1])? as u8,
            z: fit(HDR_DST_Z, self.dst[2])? as u8,
        };
        let pdid = fit(HDR_PDID, self.pdid)? as u16;
        let dst_addr = fit(HDR_DST_ADDR, self.dst_addr)?;
        let dst_port = fit(HDR_DST_PORT, self.dst_port)? as u8;
        let route = fit(HDR_ROUTE, self.route)? as u8;
        let rsvd = fit(HDR_RSVD, self.rsvd)? as u8;
        let chan_id = fit(FTR_CHAN_ID, self.chan_id)? as u16;
        let src = Coord {
            x: fit(FTR_SRC_X, self.src[0])? as u8,
            y: fit(FTR_SRC_Y, self.src[1])? as u8,
            z: fit(FTR_SRC_Z, self.src[2])? as u8,
        };
        let user = fit(FTR_USER, self.user)? as u32;

        let payload_bytes = match (self.kind.carries_payload(), self.size_in_words) {
            (false, _) => 0,
            (true, false) => u64::from(size),
            (true, true) => u64::from(size) * u64::from(WORD_BYTES),
        };
        if payload_bytes > u64::from(self.max_payload_bytes) {
            return Err(PacketError::SizeAboveMax {
                size,
                size_in_words: self.size_in_words,
                max_payload_bytes: self.max_payload_bytes,
            });
        }
        let words = payload_words_for(self.kind, size, self.size_in_words);
        if self.payload.len() != words as usize {
            return Err(PacketError::PayloadLength {
                size,
                expected_words: words,
                got_words: self.payload.len(),
            });
        }
        let valid = valid_for(self.kind, size, self.size_in_words);

        let mut packet = Packet {
            header: Header {
                vc,
                kind: self.kind,
                size: size as u16,
                dst,
                pdid,
                dst_addr,
                dst_port,
                route,
                rsvd,
            },
            payload: self.payload,
            footer: Footer {
                chan_id,
                src,
                valid,
                user,
                crc_bad: false,
                crc: 0,
            },
        };
        packet.footer.crc = packet.crc();
        Ok(packet)
    }
}

#[cfg(test)]
mod tests {
    use super::super::crc::{crc32c_bytes, HDR_CRC_MASK};
    use super::super::layout::{FTR_CRC_BAD, HDR_VC};
    use super::super::secded::EccStatus;
    use super::super::test_rng::Rng;
    use super::*;

    #[test]
    fn payload_length_rule() {
        use PacketType::*;
        let cases = [
            // kind, size, size_in_words, words, valid
            (Rdma, 0, false, 0, 0),
            (Rdma, 1, false, 1, 0),
            (Rdma, 16, false, 1, 15),
            (Rdma, 17, false, 2, 0),
            (Rdma, 4096, false, 256, 15),
            (Rdma, 4095, false, 256, 14),
            (Reserved, 33, false, 3, 0),
            (Ack, 4096, false, 0, 0),
            (Rate, 17, false, 0, 0),
            (Rdma, 0, true, 0, 0),
            (Rdma, 3, true, 3, 15),
            (Ack, 3, true, 0, 0),
        ];
        for (kind, size, words_mode, words, valid) in cases {
            assert_eq!(
                payload_words_for(kind, size, words_mode),
                words,
                "{kind:?} {size}"
            );
            assert_eq!(valid_for(kind, size, words_mode), valid, "{kind:?} {size}");
            let h = Header {
                kind,
                size: size as u16,
                vc: 7,
                ..Header::default()
            };
            assert_eq!(payload_words(h.encode(), words_mode), words);
        }
    }

    #[test]
    fn words_are_header_payload_footer_with_ecc_and_crc() {
        let bytes: Vec<u8> = (0..40u8).collect();
        let p = Packet::builder()
            .vc(3)
            .dst(1, 2, 3)
            .src(4, 5, 6)
            .chan_id(0x1234)
            .pdid(0x7FF)
            .dst_addr(0x1000)
            .user(0xABCDE)
            .payload_bytes(&bytes)
            .build()
            .unwrap();
        assert_eq!(p.header.size, 40);
        assert_eq!(p.footer.valid, 7);
        let w = p.words();
        assert_eq!(w.len(), 2 + 3);
        let d = Header::decode(w[0]);
        assert_eq!((d.status, d.header), (EccStatus::Clean, p.header));
        assert_eq!(w[1], u128::from_le_bytes(bytes[..16].try_into().unwrap()));
        assert_eq!(w[3] >> 64, 0, "last word zero-padded");
        let f = Footer::decode(w[4]);
        assert_eq!(f, p.footer);
        // The CRC is CRC-32C of the header's covered bits, the padded payload bytes, then
        // footer bits 63:0.
        let mut msg = (w[0] & HDR_CRC_MASK).to_le_bytes().to_vec();
        msg.extend_from_slice(&bytes);
        msg.resize(16 + 48, 0);
        msg.extend_from_slice(&(w[4] as u64).to_le_bytes());
        assert_eq!(f.crc, crc32c_bytes(&msg));
        assert!(footer_crc_ok(w[0], &w[1..4], w[4]));
        // crc_bad is outside the CRC; any payload or covered header bit flip is caught.
        assert!(footer_crc_ok(w[0], &w[1..4], FTR_CRC_BAD.set(w[4], 1)));
        let mut bad = w[1..4].to_vec();
        bad[2] ^= 1 << 77;
        assert!(!footer_crc_ok(w[0], &bad, w[4]));
        assert!(!footer_crc_ok(w[0] ^ 1 << 60, &w[1..4], w[4]));
        // A router rewriting the VC does not disturb the CRC.
        let mut q = p.clone();
        q.header.vc = 0;
        assert_eq!(q.footer_word(), p.footer_word());
        assert_ne!(HDR_VC.get(q.words()[0]), HDR_VC.get(w[0]));
    }

    #[test]
    fn words_recomputes_the_crc_after_a_payload_change() {
        let mut p = Packet::builder().size(16).payload(vec![5]).build().unwrap();
        p.payload[0] = 6;
        let w = p.words();
        assert!(footer_crc_ok(w[0], &w[1..2], w[2]));
    }

    #[test]
    fn errors_name_the_field() {
        let e = |b: PacketBuilder| b.build().unwrap_err();
        let ok = || Packet::builder().size(16).payload(vec![0]);
        assert_eq!(
            e(ok().vc(8)),
            PacketError::FieldOverflow {
                field: HDR_VC,
                value: 8
            }
        );
        assert!(e(ok().dst(0, 256, 0)).to_string().contains("`dst_y`"));
        assert!(e(ok().src(0, 0, 999)).to_string().contains("`src_z`"));
        assert!(e(ok().pdid(4096)).to_string().contains("`pdid`"));
        assert!(e(ok().dst_addr(1 << 48)).to_string().contains("`dst_addr`"));
        assert!(e(ok().chan_id(1 << 16)).to_string().contains("`chan_id`"));
        assert!(e(ok().user(1 << 20)).to_string().contains("`user`"));
        assert!(e(ok().size(8192)).to_string().contains("`size`"));
        assert_eq!(
            e(Packet::builder().size(4097)),
            PacketError::SizeAboveMax {
                size: 4097,
                size_in_words: false,
                max_payload_bytes: 4096
            }
        );
        assert!(matches!(
            e(Packet::builder().size_in_words(true).size(257)),
            PacketError::SizeAboveMax { size: 257, .. }
        ));
        assert!(matches!(
            e(Packet::builder().max_payload_bytes(512).size(513)),
            PacketError::SizeAboveMax { size: 513, .. }
        ));
        assert_eq!(
            e(ok().size(17)),
            PacketError::PayloadLength {
                size: 17,
                expected_words: 2,
                got_words: 1
            }
        );
        assert!(e(ok().size(17)).to_string().contains("`size`"));
        // ACK carries no payload whatever `size` says, and `size` may exceed the maximum.
        assert!(Packet::builder()
            .kind(PacketType::Ack)
            .size(8000)
            .build()
            .is_ok());
        assert!(matches!(
            e(ok().kind(PacketType::Ack)),
            PacketError::PayloadLength {
                expected_words: 0,
                got_words: 1,
                ..
            }
        ));
    }

    #[test]
    fn the_maximum_payload_is_accepted() {
        let mut rng = Rng::new(30);
        let payload: Vec<u128> = (0..256).map(|_| rng.u128()).collect();
        let p = Packet::builder()
            .size(4096)
            .payload(payload.clone())
            .build()
            .unwrap();
        assert_eq!(p.words().len(), 258);
        let p = Packet::builder()
            .size_in_words(true)
            .size(256)
            .payload(payload)
            .build()
            .unwrap();
        assert_eq!(p.footer.valid, 15);
    }
}
