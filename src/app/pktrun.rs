//! A message's packets as the NIC's writer takes them: a run of packets described by the
//! message (its envelope fields, length, bytes and the payload a packet carries) and made one
//! at a time, when the writer starts the packet (issue 29). The memory of a run does not grow
//! with the size of one message: a queued message costs one run whatever its packet count, as
//! the hardware's NIC reads a message from host memory a packet at a time into its bounded FIFO
//! (Pisani 2016 §3.4.2: the software queue in front of the NIC's FIFOs).
//!
//! Packet `k` of a message of `len` bytes carries bytes `k * chunk ..` of it, at most `chunk`
//! (`Proto::chunk`: `app.max_payload_bytes` less the envelope), and at least one packet goes,
//! for an empty message too. An eager message's packet 0 is `EAGER` (its envelope carries the
//! tag and the length); every other packet is `DATA` with its index. What a packet is does not
//! depend on when it is made: the packets and their order are those of the message cut at once.

use super::api::Request;
use super::envelope::{Envelope, Kind};
use super::mpi::OutPkt;
use std::sync::Arc;

/// The packets of one message not yet taken, or one protocol packet.
#[derive(Debug, Clone)]
pub struct PktRun {
    form: Form,
    /// The next packet's index, and one past the last's.
    next: u64,
    end: u64,
}

#[derive(Debug, Clone)]
enum Form {
    /// One packet made already (a protocol packet: RTS, CTS).
    One(OutPkt),
    /// The data packets of a message.
    Message(Message),
}

/// What a message's data packets are made from.
#[derive(Debug, Clone)]
pub struct Message {
    pub src: u32,
    pub dst: u32,
    pub seq: u32,
    /// The message's tag (carried by an eager packet 0).
    pub tag: i32,
    pub coll: bool,
    /// Message bytes.
    pub len: u64,
    /// The bytes, or None for a message sent as a length only.
    pub data: Option<Arc<[u8]>>,
    /// Message bytes a packet carries after its envelope.
    pub chunk: u32,
    /// Packet 0 is EAGER (tag and length in its envelope); else every packet is DATA.
    pub eager: bool,
    /// The send request every packet counts for (`Mpi::written`), or only the last.
    pub req: Option<Request>,
    pub req_on_last_only: bool,
}

impl Message {
    /// Packets the message takes (at least one).
    pub fn packets(&self) -> u64 {
        self.len.div_ceil(self.chunk as u64).max(1)
    }

    /// Message bytes packet `k` carries.
    fn bytes_of(&self, k: u64) -> u32 {
        let off = k * self.chunk as u64;
        (self.len - off.min(self.len)).min(self.chunk as u64) as u32
    }

    /// Packet `k` of `n`.
    fn packet(&self, k: u64, n: u64) -> OutPkt {
        let off = k * self.chunk as u64;
        let len = self.bytes_of(k);
        let first = self.eager && k == 0;
        OutPkt {
            env: Envelope {
                kind: if first { Kind::Eager } else { Kind::Data },
                coll: self.coll,
                has_data: self.data.is_some(),
                src: self.src,
                dst: self.dst,
                seq: self.seq,
                tag: if first { self.tag } else { k as i32 },
                len: if first { self.len as u32 } else { 0 },
            },
            data: self.data.clone(),
            off,
            len,
            req: if self.req_on_last_only && k + 1 != n {
                None
            } else {
                self.req
            },
        }
    }
}

impl PktRun {
    /// One packet.
    pub fn one(p: OutPkt) -> PktRun {
        PktRun {
            form: Form::One(p),
            next: 0,
            end: 1,
        }
    }

    /// Every packet of message `m`.
    pub fn message(m: Message) -> PktRun {
        let end = m.packets();
        PktRun {
            form: Form::Message(m),
            next: 0,
            end,
        }
    }

    /// The destination rank of the run's packets.
    pub fn dst(&self) -> u32 {
        match &self.form {
            Form::One(p) => p.env.dst,
            Form::Message(m) => m.dst,
        }
    }

    /// Packets not yet taken.
    pub fn len(&self) -> u64 {
        self.end - self.next
    }

    pub fn is_empty(&self) -> bool {
        self.next == self.end
    }

    /// The next packet, not taken. Panics when the run is empty.
    pub fn peek(&self) -> OutPkt {
        assert!(!self.is_empty(), "peek of an empty run of packets");
        match &self.form {
            Form::One(p) => p.clone(),
            Form::Message(m) => m.packet(self.next, self.end),
        }
    }

    /// Take the next packet.
    pub fn pop(&mut self) -> Option<OutPkt> {
        if self.is_empty() {
            return None;
        }
        let p = self.peek();
        self.next += 1;
        Some(p)
    }

    /// The payload bytes (`OutPkt::size`) of every packet not yet taken, in order.
    pub fn sizes(&self) -> impl Iterator<Item = u32> + '_ {
        (self.next..self.end).map(move |k| match &self.form {
            Form::One(p) => p.size(),
            Form::Message(m) => super::envelope::ENVELOPE_BYTES + m.bytes_of(k),
        })
    }
}

impl Iterator for PktRun {
    type Item = OutPkt;
    fn next(&mut self) -> Option<OutPkt> {
        self.pop()
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = usize::try_from(self.len()).unwrap_or(usize::MAX);
        (n, usize::try_from(self.len()).ok())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(len: u64, eager: bool, data: bool, last_only: bool) -> Message {
        Message {
            src: 3,
            dst: 5,
            seq: 7,
            tag: -2,
            coll: true,
            len,
            data: data.then(|| (0..len).map(|i| i as u8).collect::<Vec<u8>>().into()),
            chunk: 10,
            eager,
            req: Some(Request(9)),
            req_on_last_only: last_only,
        }
    }

    #[test]
    fn a_message_cuts_into_chunks_the_first_eager_with_tag_and_length() {
        let r = PktRun::message(msg(25, true, true, false));
        assert_eq!(r.len(), 3);
        let sizes: Vec<u32> = r.sizes().collect();
        let p: Vec<OutPkt> = r.collect();
        assert_eq!(p.len(), 3);
        assert_eq!(
            p.iter().map(|p| (p.off, p.len)).collect::<Vec<_>>(),
            [(0, 10), (10, 10), (20, 5)]
        );
        assert_eq!(sizes, p.iter().map(OutPkt::size).collect::<Vec<_>>());
        assert_eq!(
            (p[0].env.kind, p[0].env.tag, p[0].env.len),
            (Kind::Eager, -2, 25)
        );
        assert_eq!(
            (p[1].env.kind, p[1].env.tag, p[1].env.len),
            (Kind::Data, 1, 0)
        );
        assert_eq!((p[2].env.kind, p[2].env.tag), (Kind::Data, 2));
        assert!(p
            .iter()
            .all(|p| p.req == Some(Request(9)) && p.env.has_data));
        assert!(p
            .iter()
            .all(|p| p.env.coll && p.env.src == 3 && p.env.seq == 7));
    }

    #[test]
    fn an_empty_message_is_one_packet_and_the_request_may_ride_on_the_last_only() {
        let p: Vec<OutPkt> = PktRun::message(msg(0, false, false, true)).collect();
        assert_eq!(p.len(), 1);
        assert_eq!(
            (p[0].env.kind, p[0].len, p[0].req),
            (Kind::Data, 0, Some(Request(9)))
        );
        let p: Vec<OutPkt> = PktRun::message(msg(30, false, false, true)).collect();
        assert_eq!(
            p.iter().map(|p| p.req).collect::<Vec<_>>(),
            [None, None, Some(Request(9))]
        );
        assert!(p.iter().all(|p| !p.env.has_data && p.data.is_none()));
    }

    #[test]
    fn a_huge_message_costs_one_run_and_is_made_a_packet_at_a_time() {
        let mut r = PktRun::message(msg(4 << 30, false, false, false));
        assert_eq!(r.len(), (4u64 << 30).div_ceil(10));
        let a = r.pop().unwrap();
        let b = r.peek();
        assert_eq!((a.env.tag, b.env.tag), (0, 1));
        assert_eq!(r.len(), (4u64 << 30).div_ceil(10) - 1);
        assert_eq!(std::mem::size_of_val(&r), std::mem::size_of::<PktRun>());
    }
}
