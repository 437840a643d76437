//! The 128-bit packet footer (Biagioni 2017 §5.3.2): channel ID, source, valid bytes, user field,
//! and the CRC of the message.

use super::error::{check_fits, PacketError};
use super::header::Coord;
use super::layout::{
    WordBits, FTR_CHAN_ID, FTR_CRC, FTR_CRC_BAD, FTR_SRC_X, FTR_SRC_Y, FTR_SRC_Z, FTR_USER,
    FTR_VALID,
};

/// Footer fields (everything but `lseq` and `lseq_chk`, which only exist between two TCLs
/// and are zero elsewhere).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Footer {
    /// Outstanding-packet (channel) ID at the source.
    pub chan_id: u16,
    /// Source coordinates.
    pub src: Coord,
    /// Index (0..=15) of the last valid byte in the last payload word.
    pub valid: u8,
    /// User-defined, 20 bits.
    pub user: u32,
    /// Set by a receiving TCL whose CRC check failed.
    pub crc_bad: bool,
    /// CRC-32C of the message ([`super::message_crc`]).
    pub crc: u32,
}

impl Footer {
    /// Checks that every field fits its width (`valid` < 16, `user` < 2^20).
    pub fn validate(&self) -> Result<(), PacketError> {
        check_fits(FTR_VALID, u64::from(self.valid))?;
        check_fits(FTR_USER, u64::from(self.user))
    }

    /// The 128-bit footer word, fields cut to their widths, `lseq`/`lseq_chk` zero, `crc` as
    /// stored here.
    pub fn encode(&self) -> u128 {
        let mut w = WordBits::default();
        w.set(&FTR_CHAN_ID, u64::from(self.chan_id));
        w.set(&FTR_SRC_X, u64::from(self.src.x));
        w.set(&FTR_SRC_Y, u64::from(self.src.y));
        w.set(&FTR_SRC_Z, u64::from(self.src.z));
        w.set(&FTR_VALID, u64::from(self.valid));
        w.set(&FTR_USER, u64::from(self.user));
        w.set(&FTR_CRC_BAD, u64::from(self.crc_bad));
        w.set(&FTR_CRC, u64::from(self.crc));
        w.to_u128()
    }

    /// Reads the fields of a footer word (`lseq`, `lseq_chk` ignored). The CRC is not checked here: see
    /// [`super::footer_crc_ok`].
    pub fn decode(word: u128) -> Self {
        let w = WordBits::from_u128(word);
        Footer {
            chan_id: w.get(&FTR_CHAN_ID) as u16,
            src: Coord {
                x: w.get(&FTR_SRC_X) as u8,
                y: w.get(&FTR_SRC_Y) as u8,
                z: w.get(&FTR_SRC_Z) as u8,
            },
            valid: w.get(&FTR_VALID) as u8,
            user: w.get(&FTR_USER) as u32,
            crc_bad: w.get(&FTR_CRC_BAD) != 0,
            crc: w.get(&FTR_CRC) as u32,
        }
    }
}

// The casts in `decode` are lossless only while the fields fit these types.
const _: () = assert!(FTR_CHAN_ID.width <= 16 && FTR_VALID.width <= 8 && FTR_USER.width <= 32);
const _: () = assert!(FTR_SRC_X.width <= 8 && FTR_SRC_Y.width <= 8 && FTR_SRC_Z.width <= 8);
const _: () = assert!(FTR_CRC.width == 32 && FTR_CRC_BAD.width == 1);

#[cfg(test)]
mod tests {
    use super::super::layout::{FTR_LSEQ, FTR_LSEQ_CHK};
    use super::super::test_rng::Rng;
    use super::*;

    #[test]
    fn fields_land_where_the_table_says() {
        let f = Footer {
            chan_id: 0xABCD,
            src: Coord { x: 9, y: 8, z: 7 },
            valid: 0xE,
            user: 0xF_1234,
            crc_bad: true,
            crc: 0xDEAD_BEEF,
        };
        let w = f.encode();
        assert_eq!(w & 0xFFFF, 0xABCD);
        assert_eq!((w >> 16) & 0xFF_FFFF, 0x07_08_09);
        assert_eq!((w >> 40) & 0xF, 0xE);
        assert_eq!((w >> 44) & 0xF_FFFF, 0xF_1234);
        assert_eq!((w >> 64) & 1, 1);
        assert_eq!(FTR_LSEQ.get(w), 0);
        assert_eq!(FTR_LSEQ_CHK.get(w), 0);
        assert_eq!(w >> 96, 0xDEAD_BEEF);
    }

    #[test]
    fn roundtrip_ignores_reserved_bits() {
        let mut rng = Rng::new(20);
        for _ in 0..500 {
            let raw = rng.u128();
            let f = Footer::decode(raw);
            assert_eq!(f.validate(), Ok(()));
            assert_eq!(f.encode(), raw & !(FTR_LSEQ.mask() | FTR_LSEQ_CHK.mask()));
            assert_eq!(Footer::decode(f.encode()), f);
        }
    }

    #[test]
    fn validate_names_the_overflowing_field() {
        let f = Footer {
            valid: 16,
            ..Footer::default()
        };
        assert!(f.validate().unwrap_err().to_string().contains("`valid`"));
        let f = Footer {
            user: 1 << 20,
            ..Footer::default()
        };
        assert!(f.validate().unwrap_err().to_string().contains("`user`"));
    }
}
