//! A client's ranks as the server's NIC sees them: the software of one endpoint
//! (`net::nic::NicSoftware`) whose programs run in the client. It queues the messages the client
//! SENDs on its ranks' NIC at their cycles, in packets as the application layer makes them (at
//! most `app.max_payload_bytes` of payload each, the 16-byte envelope included), and tells the
//! client when a message's last packet has left the NIC (its footer written) and when the last
//! packet of a message to one of its ranks has arrived.
//!
//! Cycle contract (that of `NicSoftware`): at cycle `c` the NIC hands over the packets it popped
//! at `c`, then calls `step(c)`, then queues `out`. `step(c)` stops for the client (`Broker::
//! pause`) when a message of this endpoint's ranks left (footer written at `c`) or arrived at
//! `c`, or when `c` has reached the client's STOP time; the client's SENDs for `c` go out in this
//! same cycle, as an in-process rank's packets would.
//!
//! Each packet's envelope names the message: source rank, destination rank, a sequence number
//! of the source rank (modulo 2^20: more messages than that in flight from one rank is an
//! error), and the packet's index.

use super::broker::{Broker, Flight};
use super::protocol::Send;
use crate::app::api::Request;
use crate::app::endpoint::NicRun;
use crate::app::envelope::{Envelope, SEQ_MOD};
use crate::app::pktrun::{Message, PktRun};
use crate::net::nic::NicSoftware;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::{Arc, Mutex};

/// The remote ranks of one endpoint.
pub struct RemoteEndpoint {
    endpoint: u32,
    /// The client owning the endpoint's ranks.
    client: usize,
    broker: Arc<Mutex<Broker>>,
    /// Payload bytes of a packet after the envelope.
    chunk: u32,
    /// SENDs for later cycles, by (cycle, order received).
    later: BTreeMap<(u64, u64), Send>,
    received: u64,
    /// Messages whose last footer was written: (id, cycle), and those whose last packet arrived
    /// in this cycle.
    left: Vec<(u64, u64)>,
    arrived: Vec<Send>,
    /// Sequence number of every source rank's next message.
    seq: HashMap<u32, u32>,
    out: VecDeque<NicRun>,
}

impl std::fmt::Debug for RemoteEndpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RemoteEndpoint")
            .field("endpoint", &self.endpoint)
            .field("client", &self.client)
            .finish()
    }
}

impl RemoteEndpoint {
    pub fn new(
        endpoint: u32,
        client: usize,
        broker: Arc<Mutex<Broker>>,
        max_payload_bytes: u32,
    ) -> RemoteEndpoint {
        RemoteEndpoint {
            endpoint,
            client,
            broker,
            chunk: max_payload_bytes - crate::app::envelope::ENVELOPE_BYTES,
            later: BTreeMap::new(),
            received: 0,
            left: Vec::new(),
            arrived: Vec::new(),
            seq: HashMap::new(),
            out: VecDeque::new(),
        }
    }

    /// Queue message `m` on the NIC at `cycle`: its packets, registered as in flight; or, to a
    /// rank of this endpoint, through memory: it leaves and arrives at once, as the application
    /// layer's do (`app/endpoint.rs`).
    fn queue(&mut self, b: &mut Broker, mut m: Send, cycle: u64) {
        let e = b.endpoint_of[m.dst as usize];
        if e == self.endpoint {
            b.in_flight -= 1;
            let owner = b.owner[m.src as usize];
            b.ids.remove(&(owner, m.id));
            self.left.push((m.id, cycle));
            m.time = cycle;
            self.arrived.push(m);
            return;
        }
        let seq = self.seq.entry(m.src).or_insert(0);
        let s = *seq;
        *seq = (s + 1) % SEQ_MOD;
        if b.flights.contains_key(&(m.src, s)) {
            b.error = Some(format!(
                "client {}: more than {SEQ_MOD} messages from rank {} in flight",
                self.client, m.src
            ));
            return;
        }
        let packets = m.bytes.div_ceil(self.chunk as u64).max(1);
        let Ok(packets) = u32::try_from(packets) else {
            b.error = Some(format!(
                "client {}: SEND {} of {} bytes: more than 2^32 packets",
                self.client, m.id, m.bytes
            ));
            return;
        };
        self.out.push_back(NicRun {
            endpoint: e,
            // the last packet's footer tells the client
            run: PktRun::message(Message {
                src: m.src,
                dst: m.dst,
                seq: s,
                tag: 0,
                coll: false,
                len: m.bytes,
                data: None,
                chunk: self.chunk,
                eager: false,
                req: Some(Request(s)),
                req_on_last_only: true,
            }),
            from_local: m.src,
        });
        b.flights.insert(
            (m.src, s),
            Flight {
                msg: m,
                packets,
                arrived: 0,
            },
        );
    }
}

impl NicSoftware for RemoteEndpoint {
    fn due(&self, now: u64) -> u64 {
        let a = self.later.keys().next().map_or(u64::MAX, |k| k.0.max(now));
        let b = self
            .left
            .iter()
            .map(|l| l.1.max(now))
            .min()
            .unwrap_or(u64::MAX);
        let br = self.broker.lock().expect("broker");
        let c = &br.conns[self.client];
        let s = match c.stop {
            Some(s) if !c.done && br.error.is_none() => s.max(now),
            _ => u64::MAX,
        };
        a.min(b).min(s)
    }

    fn step(&mut self, cycle: u64) {
        let broker = self.broker.clone();
        let mut b = broker.lock().expect("broker");
        let mut asked = false;
        loop {
            // SENDs for this cycle, in the order received (one to a rank of this endpoint goes
            // through memory, and the client hears of it in this cycle, on the next round)
            while let Some(e) = self.later.first_entry() {
                if e.key().0 > cycle {
                    break;
                }
                let m = e.remove();
                self.queue(&mut b, m, cycle);
            }
            let (left, keep): (Vec<_>, Vec<_>) = self.left.iter().partition(|l| l.1 <= cycle);
            self.left = keep;
            let arrived = std::mem::take(&mut self.arrived);
            let due = !asked && b.conns[self.client].due(cycle);
            if (left.is_empty() && arrived.is_empty() && !due) || b.error.is_some() {
                break;
            }
            asked = true;
            for m in b.pause(self.client, self.endpoint, cycle, &left, &arrived) {
                self.received += 1;
                self.later.insert((m.time, self.received), m);
            }
        }
    }

    fn out(&mut self) -> &mut VecDeque<NicRun> {
        &mut self.out
    }

    fn written(&mut self, local: u32, req: Request, cycle: u64) {
        let b = self.broker.lock().expect("broker");
        if let Some(f) = b.flights.get(&(local, req.0)) {
            self.left.push((f.msg.id, cycle));
        }
    }

    fn arrive_from_network(&mut self, env: &Envelope, _: &[u8], _: u64, cycle: u64) {
        let mut b = self.broker.lock().expect("broker");
        let key = (env.src, env.seq);
        let Some(f) = b.flights.get_mut(&key) else {
            b.error = Some(format!(
                "endpoint {}: a packet of no message in flight (rank {} number {}) arrived at \
                 cycle {cycle}",
                self.endpoint, env.src, env.seq
            ));
            return;
        };
        f.arrived += 1;
        if f.arrived == f.packets {
            let mut m = b.flights.remove(&key).expect("checked").msg;
            m.time = cycle;
            b.in_flight -= 1;
            let owner = b.owner[m.src as usize];
            b.ids.remove(&(owner, m.id));
            self.arrived.push(m);
        }
    }

    fn fail(&mut self, error: String) {
        let mut b = self.broker.lock().expect("broker");
        b.error.get_or_insert(error);
    }
}
