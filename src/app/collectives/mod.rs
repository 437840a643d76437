//! Collectives built from point-to-point messages on the network (no shortcut): each file one
//! algorithm, each message an ordinary `isend`/`irecv` in the collectives' own matching space
//! (the envelope's `coll` bit), so a collective never takes a user's message and two collectives
//! in a row never mix (a pair's messages are matched in order).

pub mod allgather;
pub mod allreduce;
pub mod alltoall;
pub mod alltoallv;
pub mod barrier;
pub mod bcast;
pub mod gather;
pub mod reduce;
pub mod reducescatter;
pub mod scatter;

use super::api::{Payload, Status};

/// Tags of the collectives' messages.
pub(crate) const TAG_BARRIER: i32 = 1;
pub(crate) const TAG_BARRIER_ACK: i32 = 2;
pub(crate) const TAG_BCAST: i32 = 3;
pub(crate) const TAG_REDUCE: i32 = 4;
pub(crate) const TAG_ALLTOALL: i32 = 5;
pub(crate) const TAG_GATHER: i32 = 6;
pub(crate) const TAG_SCATTER: i32 = 7;
pub(crate) const TAG_SCAN: i32 = 8;

/// A reduction's element-wise operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Op {
    Sum,
    Max,
    Min,
}

impl Op {
    pub fn apply(self, a: f64, b: f64) -> f64 {
        match self {
            Op::Sum => a + b,
            Op::Max => a.max(b),
            Op::Min => a.min(b),
        }
    }
}

/// Values as message bytes (little-endian f64s).
pub(crate) fn encode(x: &[f64]) -> Payload {
    let b: Vec<u8> = x.iter().flat_map(|v| v.to_le_bytes()).collect();
    Payload::Bytes(b.into())
}

/// The values a message carries.
pub(crate) fn decode(s: &Status) -> Vec<f64> {
    s.data
        .as_deref()
        .unwrap_or_default()
        .chunks_exact(8)
        .map(|c| f64::from_le_bytes(c.try_into().expect("8 bytes")))
        .collect()
}

/// A received message as a payload: its bytes, or its length when it carried none.
pub(crate) fn payload_of(s: Status) -> Payload {
    match s.data {
        Some(d) => Payload::Bytes(d.into()),
        None => Payload::Size(s.len),
    }
}
