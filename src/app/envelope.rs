//! The message envelope: the first payload word (16 bytes) of every packet the application
//! layer sends, written by the NIC's writer and read back by the destination NIC's reader, so
//! that a packet carries everything the receiving rank needs to match and reassemble it (the
//! network's header and footer are the hardware's and carry only the route and the link
//! check, Biagioni 2017 §5.3.2).
//!
//! ```text
//!  bits   1:0  kind       EAGER (first packet of an eager message), RTS (rendezvous request),
//!                         CTS (rendezvous acknowledge), DATA (any later packet of a message)
//!         2    coll       1: a collective's message (a matching space of its own)
//!         3    has_data   1: the packet's payload after the envelope carries message bytes
//!        23:4  src        source rank (20 bits)
//!        43:24 dst        destination rank (20 bits)
//!        63:44 seq        message number of the (src, dst) pair, modulo 2^20
//!       127:64 word       EAGER, RTS: tag (bits 95:64, two's complement) and length (127:96,
//!                         bytes); DATA: the packet's index in its message; CTS: 0
//! ```
//!
//! Seed 004 §5 describes the eager and rendezvous (REQ/ACK) protocols this carries; the field
//! widths are this project's (docs/decisions/0019-application-messages.md).

/// Ranks a run may have: the envelope's 20-bit rank fields.
pub const MAX_RANKS: usize = 1 << 20;

/// Message numbers of a (source, destination) pair wrap at this.
pub const SEQ_MOD: u32 = 1 << 20;

/// Bytes of a packet's payload the envelope takes.
pub const ENVELOPE_BYTES: u32 = 16;

/// What a packet is to the message protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Eager = 0,
    Rts = 1,
    Cts = 2,
    Data = 3,
}

/// One envelope, unpacked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Envelope {
    pub kind: Kind,
    pub coll: bool,
    pub has_data: bool,
    pub src: u32,
    pub dst: u32,
    pub seq: u32,
    /// EAGER, RTS: tag and length; DATA: (index, 0); CTS: (0, 0).
    pub tag: i32,
    pub len: u32,
}

/// A field of the envelope word.
struct F {
    lsb: u32,
    width: u32,
}

impl F {
    const fn get(&self, w: u128) -> u64 {
        ((w >> self.lsb) & ((1u128 << self.width) - 1)) as u64
    }
    const fn set(&self, w: u128, v: u64) -> u128 {
        let m = ((1u128 << self.width) - 1) << self.lsb;
        (w & !m) | (((v as u128) << self.lsb) & m)
    }
}

const KIND: F = F { lsb: 0, width: 2 };
const COLL: F = F { lsb: 2, width: 1 };
const HAS_DATA: F = F { lsb: 3, width: 1 };
const SRC: F = F { lsb: 4, width: 20 };
const DST: F = F { lsb: 24, width: 20 };
const SEQ: F = F { lsb: 44, width: 20 };
const TAG: F = F { lsb: 64, width: 32 };
const LEN: F = F { lsb: 96, width: 32 };

impl Envelope {
    /// The envelope as the payload word the NIC writes.
    pub fn pack(&self) -> u128 {
        let mut w = 0u128;
        w = KIND.set(w, self.kind as u64);
        w = COLL.set(w, self.coll as u64);
        w = HAS_DATA.set(w, self.has_data as u64);
        w = SRC.set(w, self.src as u64);
        w = DST.set(w, self.dst as u64);
        w = SEQ.set(w, self.seq as u64);
        w = TAG.set(w, self.tag as u32 as u64);
        LEN.set(w, self.len as u64)
    }

    /// The envelope a payload word carries.
    pub fn unpack(w: u128) -> Envelope {
        Envelope {
            kind: match KIND.get(w) {
                0 => Kind::Eager,
                1 => Kind::Rts,
                2 => Kind::Cts,
                _ => Kind::Data,
            },
            coll: COLL.get(w) == 1,
            has_data: HAS_DATA.get(w) == 1,
            src: SRC.get(w) as u32,
            dst: DST.get(w) as u32,
            seq: SEQ.get(w) as u32,
            tag: TAG.get(w) as u32 as i32,
            len: LEN.get(w) as u32,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_round_trips_at_its_extremes() {
        for kind in [Kind::Eager, Kind::Rts, Kind::Cts, Kind::Data] {
            for (src, dst, seq, tag, len) in [
                (0, 0, 0, 0, 0),
                (MAX_RANKS as u32 - 1, 1, SEQ_MOD - 1, -1, u32::MAX),
                (12345, MAX_RANKS as u32 - 1, 77, i32::MIN, 4096),
            ] {
                for (coll, has_data) in [(false, true), (true, false)] {
                    let e = Envelope {
                        kind,
                        coll,
                        has_data,
                        src,
                        dst,
                        seq,
                        tag,
                        len,
                    };
                    assert_eq!(Envelope::unpack(e.pack()), e);
                }
            }
        }
    }

    #[test]
    fn fields_do_not_overlap() {
        let e = Envelope {
            kind: Kind::Data,
            coll: true,
            has_data: true,
            src: MAX_RANKS as u32 - 1,
            dst: MAX_RANKS as u32 - 1,
            seq: SEQ_MOD - 1,
            tag: -1,
            len: u32::MAX,
        };
        assert_eq!(e.pack(), u128::MAX);
    }
}
