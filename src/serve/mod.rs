//! The co-simulation server (Minkenberg and Rodriguez 2008 §4.1): `exanet network serve` simulates the network for
//! task simulators that connect over TCP and hand it their messages, as Venus did for Dimemas.
//! A client owns a set of ranks and simulates their programs; the server carries their messages
//! through the network of `[net]` (the same nodes, links and NICs as every run) and tells each
//! client when a message has left its source NIC and when it arrived.
//!
//! # The line protocol (plain text, one command a line, integer times in network cycles)
//!
//! ```text
//! server: EXANET-SERVE 1 ranks <N> endpoints <E> cycle_ps <P>      on connecting
//! client: HELLO <ranks> <token>          the ranks it owns: "0-3,8,10-11", and the session's
//!                                        token (`network serve` prints it or writes it to
//!                                        --token-file); without it the connection is refused
//!                                        alone and the session waits on for its clients
//! server: RANK <rank> <endpoint>         one a rank it owns, where the mapping placed it
//! server: START <cycle>                  every client is in; ranks start at <cycle>
//! client: STOP <time> | STOP never       its next event time (the null message)
//! client: SEND <id> <src> <dst> <bytes> <tag> <time> [<hex>]
//!                                        a message of <bytes> from rank <src> to <dst>, its
//!                                        packets queued at the source NIC at <time>; <id> is the
//!                                        client's (unique among its messages in flight); <hex>:
//!                                        up to 4096 opaque bytes the server hands to the receiver
//! server: LEFT <id> <time>               the last packet of message <id> has left its source NIC
//!                                        (its footer written into the link): its buffer is free
//! server: COMPLETED SEND <id> <src> <dst> <bytes> <tag> <time> [<hex>]
//!                                        (to the receiver's client) its last packet arrived
//! server: AT <time> <endpoint>           the network is at <time> on <endpoint>: run the events
//!                                        of that endpoint's ranks at <time> (the LEFT and
//!                                        COMPLETED lines above included), then answer with their
//!                                        SENDs and a STOP
//! client: DONE                           its ranks have finished: no more SENDs and no more
//!                                        answers; LEFT and COMPLETED lines still come
//! server: END <cycle> [deadlock]         the session is over (every client DONE and the network
//!                                        empty, or nothing can happen any more); <cycle> is
//!                                        that of its last event (the last AT or arrival)
//! server: ERROR <what>                   and the session ends; the server exits non-zero
//! ```
//!
//! A message of B bytes is carried as the application layer carries one: in packets of at most
//! `app.max_payload_bytes`, each with the 16-byte envelope (`app/envelope.rs`), so a client that
//! hands over one packet's worth at a time (`client.rs`) gets exactly the packets of an
//! in-process run.
//!
//! # Synchronisation (Minkenberg and Rodriguez 2008 §4.1's conservative null-message scheme, in integer cycles)
//! A client's `STOP t` says it will not send before `t` unless the server tells it of an event
//! first. The network runs freely while no event concerns a client; it stops on an endpoint
//! (inside its NIC's cycle, after the NIC has read its arrivals and before it queues packets, the
//! point where the application layer's ranks run in an in-process run, `net/nic.rs`) when a
//! message of that endpoint's ranks left or arrived in that cycle, or when the cycle has reached
//! the owning client's STOP time. It then sends the events and `AT`, and waits for the answer:
//! the SENDs of that endpoint's ranks (at that cycle or later) and the next STOP. The
//! application layer's in-process run calls its ranks at the same points with the same events,
//! so a client running them (`client.rs`) sees every message complete at the cycle it would in
//! process (a test).
//!
//! Errors end the session for every client with `ERROR`: a malformed line, a time in the past, a
//! SEND from a rank the client does not own or that is not on the endpoint being answered, a
//! client that disconnects or does not answer within the time-out. Bounds (issue 29): a line is
//! at most 16 KiB (`protocol::MAX_LINE_BYTES`) and must arrive whole within the time-out (a
//! client trickling bytes is cut off); a STOP or SEND time lies at most at `app.max_cycles`; a
//! message id is not reused while its message is in flight; a HELLO lists at most 2^20 ranks,
//! counted before its ranges are expanded; an error quotes a long token by its start and
//! length only. The server listens on a loopback address only, and refuses lossy links (bit
//! errors, faults) before it listens.

pub mod broker;
pub mod client;
pub mod protocol;
pub mod remote;
pub mod server;
