//! The 128-bit packet header (Biagioni 2017 §5.3.2): routing information plus its SECDED code.

use super::error::{check_fits, PacketError};
use super::layout::{
    WordBits, HDR_DST_ADDR, HDR_DST_PORT, HDR_DST_X, HDR_DST_Y, HDR_DST_Z, HDR_PDID, HDR_ROUTE,
    HDR_RSVD, HDR_SIZE, HDR_TYPE, HDR_VC,
};
use super::secded::{secded_decode, secded_encode, EccStatus};

/// Packet type (header field `type`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PacketType {
    /// RDMA write: carries a payload.
    #[default]
    Rdma = 0,
    /// Acknowledgement: no payload.
    Ack = 1,
    /// Rate (congestion) message: no payload.
    Rate = 2,
    /// Reserved code: routed and sized like RDMA.
    Reserved = 3,
}

impl PacketType {
    /// The type from its 2-bit code (bits above the field's width are ignored).
    pub const fn from_code(code: u64) -> Self {
        match code & 3 {
            0 => PacketType::Rdma,
            1 => PacketType::Ack,
            2 => PacketType::Rate,
            _ => PacketType::Reserved,
        }
    }

    /// The 2-bit code.
    pub const fn code(self) -> u64 {
        self as u64
    }

    /// Whether packets of this type carry a payload (ACK and RATE do not, whatever `size` says).
    pub const fn carries_payload(self) -> bool {
        !matches!(self, PacketType::Ack | PacketType::Rate)
    }
}

/// Node coordinates in the 3D lattice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Coord {
    /// X.
    pub x: u8,
    /// Y.
    pub y: u8,
    /// Z.
    pub z: u8,
}

/// Header fields (everything but `ecc`, computed by [`Header::encode`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Header {
    /// Virtual channel, 0..=7.
    pub vc: u8,
    /// The `type` field.
    pub kind: PacketType,
    /// Payload length: bytes, or 128-bit words when the size-in-words option is set; 13 bits.
    pub size: u16,
    /// Destination coordinates.
    pub dst: Coord,
    /// Protection domain ID, 12 bits.
    pub pdid: u16,
    /// Destination (virtual) memory address, 48 bits.
    pub dst_addr: u64,
    /// Intra-tile port at the destination node, 3 bits.
    pub dst_port: u8,
    /// Routing state of the network-scale routing algorithms, 8 bits: zero from a source; the
    /// APErouter's dimension-order routing carries it.
    pub route: u8,
    /// Reserved, 7 bits: zero from a source; the hardware carries what it finds (the lockstep's
    /// constrained stimulus sets it, to see it carried).
    pub rsvd: u8,
}

/// Result of [`Header::decode`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HeaderDecode {
    /// Fields read from `corrected_word`.
    pub header: Header,
    /// What the SECDED check found.
    pub status: EccStatus,
    /// The word after correction (with valid check bits); the received word if uncorrectable.
    pub corrected_word: u128,
}

impl Header {
    /// Checks that every field fits its width (`vc` < 8, `size` < 2^13, `pdid` < 2^12,
    /// `dst_addr` < 2^48).
    pub fn validate(&self) -> Result<(), PacketError> {
        check_fits(HDR_VC, u64::from(self.vc))?;
        check_fits(HDR_SIZE, u64::from(self.size))?;
        check_fits(HDR_PDID, u64::from(self.pdid))?;
        check_fits(HDR_DST_PORT, u64::from(self.dst_port))?;
        check_fits(HDR_RSVD, u64::from(self.rsvd))?;
        check_fits(HDR_DST_ADDR, self.dst_addr)
    }

    /// The 128-bit header word, check bits included. Fields are cut to their widths (a header
    /// that passed [`Header::validate`] loses nothing).
    pub fn encode(&self) -> u128 {
        let mut w = WordBits::default();
        w.set(&HDR_VC, u64::from(self.vc));
        w.set(&HDR_TYPE, self.kind.code());
        w.set(&HDR_SIZE, u64::from(self.size));
        w.set(&HDR_DST_X, u64::from(self.dst.x));
        w.set(&HDR_DST_Y, u64::from(self.dst.y));
        w.set(&HDR_DST_Z, u64::from(self.dst.z));
        w.set(&HDR_PDID, u64::from(self.pdid));
        w.set(&HDR_DST_ADDR, self.dst_addr);
        w.set(&HDR_DST_PORT, u64::from(self.dst_port));
        w.set(&HDR_ROUTE, u64::from(self.route));
        w.set(&HDR_RSVD, u64::from(self.rsvd));
        secded_encode(w.to_u128())
    }

    /// Checks and corrects a received header word, then reads its fields.
    pub fn decode(word: u128) -> HeaderDecode {
        let (status, corrected_word) = secded_decode(word);
        HeaderDecode {
            header: Self::fields_of(corrected_word),
            status,
            corrected_word,
        }
    }

    /// Reads the fields of a header word without any ECC check (`ecc` ignored).
    pub fn fields_of(word: u128) -> Self {
        let w = WordBits::from_u128(word);
        // Each value is at most its field's width, which the layout keeps within these types.
        Header {
            vc: w.get(&HDR_VC) as u8,
            kind: PacketType::from_code(w.get(&HDR_TYPE)),
            size: w.get(&HDR_SIZE) as u16,
            dst: Coord {
                x: w.get(&HDR_DST_X) as u8,
                y: w.get(&HDR_DST_Y) as u8,
                z: w.get(&HDR_DST_Z) as u8,
            },
            pdid: w.get(&HDR_PDID) as u16,
            dst_addr: w.get(&HDR_DST_ADDR),
            dst_port: w.get(&HDR_DST_PORT) as u8,
            route: w.get(&HDR_ROUTE) as u8,
            rsvd: w.get(&HDR_RSVD) as u8,
        }
    }
}

// The casts in `fields_of` are lossless only while the fields fit these types.
const _: () = assert!(HDR_VC.width <= 8 && HDR_SIZE.width <= 16 && HDR_PDID.width <= 16);
const _: () = assert!(HDR_DST_X.width <= 8 && HDR_DST_Y.width <= 8 && HDR_DST_Z.width <= 8);
const _: () = assert!(HDR_TYPE.width == 2);
const _: () = assert!(HDR_ROUTE.width <= 8 && HDR_RSVD.width <= 8);

#[cfg(test)]
mod tests {
    use super::super::layout::HDR_ECC;
    use super::super::test_rng::Rng;
    use super::*;

    fn random_header(rng: &mut Rng) -> Header {
        let r = rng.u128();
        Header::fields_of(r)
    }

    #[test]
    fn fields_land_where_the_table_says() {
        let h = Header {
            vc: 5,
            kind: PacketType::Rate,
            size: 0x1ABC,
            dst: Coord { x: 1, y: 2, z: 3 },
            pdid: 0xFED,
            dst_addr: 0xBEEF_0000_CAFE,
            dst_port: 6,
            route: 0,
            rsvd: 0,
        };
        let w = h.encode();
        assert_eq!((w >> 102) & 0x7, 6);
        assert_eq!(w & 0x7, 5);
        assert_eq!((w >> 3) & 0x3, 2);
        assert_eq!((w >> 5) & 0x1FFF, 0x1ABC);
        assert_eq!((w >> 18) & 0xFF_FFFF, 0x03_02_01);
        assert_eq!((w >> 42) & 0xFFF, 0xFED);
        assert_eq!((w >> 54) & 0xFFFF_FFFF_FFFF, 0xBEEF_0000_CAFE);
        assert_eq!(HDR_RSVD.get(w), 0);
        assert_eq!(HDR_ROUTE.get(w), 0);
        assert_eq!(
            HDR_ECC.get(w),
            u64::from(super::super::secded::secded_check_bits(w))
        );
        let w = Header {
            route: 0xA5,
            rsvd: 0x5B,
            ..h
        }
        .encode();
        assert_eq!(((w >> 105) & 0xFF, (w >> 113) & 0x7F), (0xA5, 0x5B));
        assert_eq!(
            HDR_ECC.get(w),
            u64::from(super::super::secded::secded_check_bits(w))
        );
    }

    #[test]
    fn encode_decode_roundtrip() {
        let mut rng = Rng::new(10);
        for _ in 0..500 {
            let h = random_header(&mut rng);
            assert_eq!(h.validate(), Ok(()));
            let d = Header::decode(h.encode());
            assert_eq!(d.status, EccStatus::Clean);
            assert_eq!(d.header, h);
            assert_eq!(d.corrected_word, h.encode());
        }
    }

    #[test]
    fn decode_corrects_a_flipped_field_bit() {
        let h = Header {
            vc: 1,
            dst: Coord { x: 4, y: 0, z: 7 },
            size: 64,
            ..Header::default()
        };
        let w = h.encode();
        let bad = w ^ (1u128 << (HDR_DST_X.lsb + 1));
        assert_ne!(Header::fields_of(bad), h);
        let d = Header::decode(bad);
        assert_eq!(
            d.status,
            EccStatus::Corrected {
                bit: (HDR_DST_X.lsb + 1) as u8
            }
        );
        assert_eq!(d.header, h);
        let worse = bad ^ 1;
        let d = Header::decode(worse);
        assert_eq!(d.status, EccStatus::Uncorrectable);
        assert_eq!(d.corrected_word, worse);
    }

    #[test]
    fn validate_names_the_overflowing_field() {
        let h = Header {
            vc: 8,
            ..Header::default()
        };
        assert_eq!(
            h.validate(),
            Err(PacketError::FieldOverflow {
                field: HDR_VC,
                value: 8
            })
        );
        let h = Header {
            dst_addr: 1 << 48,
            ..Header::default()
        };
        let e = h.validate().unwrap_err();
        assert!(e.to_string().contains("`dst_addr`"), "{e}");
        let h = Header {
            pdid: 0x1000,
            ..Header::default()
        };
        assert!(h.validate().unwrap_err().to_string().contains("`pdid`"));
    }

    #[test]
    fn type_codes() {
        for c in 0..4 {
            assert_eq!(PacketType::from_code(c).code(), c);
        }
        assert!(PacketType::Rdma.carries_payload());
        assert!(PacketType::Reserved.carries_payload());
        assert!(!PacketType::Ack.carries_payload());
        assert!(!PacketType::Rate.carries_payload());
    }
}
