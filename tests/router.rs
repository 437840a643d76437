//! End-to-end tests of the APErouter model: the 11-cycle paths and where each stage sits, the
//! per-packet cost that the self-test bandwidth comes from, the arbiters, virtual cut-through
//! under random traffic and back-pressure, dimension-order routing against an independent
//! reference, and drops of packets that cannot be routed.

use exanet::config::Config;
use exanet::measure::router::{path_latency, PATHS};
use exanet::pktfifo::PktFifoParams;
use exanet::router::bench::{PortStimulus, RouterBench};
use exanet::router::gate::{S_IDLE, S_REQ, S_ROUTE, S_XFER};
use exanet::router::params::{Dir, InterPort, RouterCfg, RouterParams};
use exanet::router::route::{route_to, DropReason, Route};
use exanet::stimulus::{BackPressure, SizeDist, SourceMode, TrafficSpec};
use rand_mt::Mt64;

// ---------------------------------------------------------------------------------------
// Fixtures

fn fifo(hf: u32, pay: u32) -> PktFifoParams {
    PktFifoParams {
        hf_depth: hf,
        pay_depth: pay,
        latency: 3,
    }
}

/// A router of a 2-D lattice with X+, X-, Y+, Y- inter-tile ports, `n_intra` intra-tile ports.
fn router_2d(n_intra: u32, size: [u8; 2], torus: bool) -> (RouterParams, RouterCfg) {
    let ports = [
        (0, Dir::Plus),
        (0, Dir::Minus),
        (1, Dir::Plus),
        (1, Dir::Minus),
    ];
    let p = RouterParams {
        n_intra,
        intra_rx: ((1u32 << n_intra) - 1) as u8,
        inter: ports
            .iter()
            .map(|&(dim, dir)| InterPort { dim, dir })
            .collect(),
        dims: 2,
        num_vcs: 2,
        intra_fifo: fifo(128, 4096),
        inter_rx_fifo: fifo(128, 1024),
        inter_tx_fifo: fifo(128, 1024),
        size_in_words: false,
    };
    let c = RouterCfg {
        coord: [1, 1, 0],
        size: [size[0], size[1], 1],
        torus: if torus { 0b11 } else { 0 },
        order: [0, 1, 2],
        intra_en: ((1u32 << n_intra) - 1) as u8,
        inter_en: 0xf,
        arb_fixed: false,
        usedword: true,
        tred: 128,
    };
    (p, c)
}

fn idle_ports(p: &RouterParams) -> (Vec<PortStimulus>, Vec<PortStimulus>) {
    let nv = p.num_vcs;
    (
        (0..p.n_intra).map(|_| PortStimulus::idle(nv)).collect(),
        (0..p.inter.len()).map(|_| PortStimulus::idle(nv)).collect(),
    )
}

fn saturate(bytes: u32, dest: ([u8; 3], u8), seed: u64) -> PortStimulus {
    PortStimulus {
        traffic: TrafficSpec::new(SizeDist::Fixed(bytes), 1, false).to(vec![dest]),
        mode: SourceMode::Saturate,
        back_pressure: BackPressure::None,
        seed,
    }
}

// ---------------------------------------------------------------------------------------
// Latency: 11 cycles on every path, stage by stage

#[test]
fn every_path_takes_eleven_cycles() {
    let cfg = Config::default();
    for path in PATHS {
        let l = path_latency(&cfg, path).unwrap();
        assert_eq!(l.cycles, 11, "{path:?}");
        assert!((l.ns - 70.4).abs() < 1e-9, "{path:?}: {} ns", l.ns);
    }
}

/// The cycle (counted from the header's write into the input FIFO, cycle 0) in which each
/// stage's register first holds the packet, for the loopback path of an idle router. A stage
/// named N in docs/router.md works in cycle N; its register is visible from cycle N + 1.
#[test]
fn the_stages_are_where_docs_router_md_puts_them() {
    let (p, c) = router_2d(2, [4, 4], false);
    let (mut intra, inter) = idle_ports(&p);
    intra[1] = PortStimulus {
        traffic: TrafficSpec::new(SizeDist::Fixed(64), 1, false).to(vec![([1, 1, 0], 0)]),
        mode: SourceMode::AtCycles([10].into_iter().collect()),
        back_pressure: BackPressure::None,
        seed: 1,
    };
    let src = p.intra_slot(1) as usize;
    let dst = p.intra_slot(0) as usize;
    let mut b = RouterBench::new(p, c, intra, inter);
    while b.intra_src[1].wr_hf == 0 {
        b.step();
        assert!(b.cycle < 100, "the source never wrote");
    }
    let t0 = b.cycle;
    // (what, condition on the registers visible in a cycle)
    type Cond = fn(&RouterBench, usize, usize) -> bool;
    let stages: [(&str, u64, Cond); 9] = [
        ("FIFO shows the header (L_F)", 3, |b, s, _| {
            !b.router.ins[s].fifo.hf.empty()
        }),
        ("HDR: hdr_q, state ROUTE", 4, |b, s, _| {
            b.router.ins[s].gate.state == S_ROUTE
        }),
        ("ROUTE: out_q, state REQ", 5, |b, s, _| {
            b.router.ins[s].gate.state == S_REQ
        }),
        ("REQ: req_q", 6, |b, s, _| b.router.ins[s].gate.req),
        ("ARB: grant_q", 7, |b, _, d| {
            b.router.outs[d].as_ref().unwrap().r.grant_valid
        }),
        ("ACCEPT: state XFER", 8, |b, s, _| {
            b.router.ins[s].gate.state == S_XFER
        }),
        ("READ: xin_q", 9, |b, s, _| b.router.ins[s].gate.xin_valid),
        ("XBAR: xout_q", 10, |b, _, d| {
            b.router.outs[d].as_ref().unwrap().r.xout_valid
        }),
        (
            "WRITE: owr_q (the output FIFO's write strobe)",
            11,
            |b, _, d| b.router.outs[d].as_ref().unwrap().r.owr_valid,
        ),
    ];
    let mut first = vec![None; stages.len()];
    for _ in 0..20 {
        let k = b.cycle - t0;
        for (i, (_, _, cond)) in stages.iter().enumerate() {
            if first[i].is_none() && cond(&b, src, dst) {
                first[i] = Some(k);
            }
        }
        b.step();
    }
    for (i, (what, at, _)) in stages.iter().enumerate() {
        assert_eq!(first[i], Some(*at), "{what}");
    }
}

// ---------------------------------------------------------------------------------------
// Bandwidth structure: the cost per packet at one output

/// Cycles between consecutive headers written into output `dst`'s FIFO, in steady state.
fn header_spacing(b: &mut RouterBench, dst: usize, warmup: u64, cycles: u64) -> Vec<u64> {
    b.run(warmup);
    let mut last = None;
    let mut gaps = Vec::new();
    for _ in 0..cycles {
        let o = b.router.outs[dst].as_ref().unwrap();
        if o.r.owr_valid && o.r.owr_hf && !o.r.owr_last {
            if let Some(t) = last {
                gaps.push(b.cycle - t);
            }
            last = Some(b.cycle);
        }
        b.step();
    }
    gaps
}

#[test]
fn one_sender_pays_eight_idle_cycles_a_packet_two_senders_two() {
    for bytes in [16u32, 512, 4096] {
        let words = bytes.div_ceil(16) as u64 + 2;
        for senders in [1usize, 2] {
            let (p, c) = router_2d(3, [4, 4], false);
            let dst = p.intra_slot(0) as usize;
            let (mut intra, inter) = idle_ports(&p);
            for (k, s) in intra.iter_mut().enumerate().skip(1).take(senders) {
                *s = saturate(bytes, ([1, 1, 0], 0), k as u64);
            }
            let mut b = RouterBench::new(p, c, intra, inter);
            let gaps = header_spacing(&mut b, dst, 3000, 6000);
            assert!(
                gaps.len() > 10,
                "{bytes} B, {senders} senders: too few packets"
            );
            // One sender: its gate waits for its footer to be written (EOP, 3 cycles) and
            // then goes HDR, ROUTE, REQ, ARB, ACCEPT (5) before the next header is read: a
            // packet every words + 8 cycles.
            // Two senders: the other gate has requested meanwhile; the output is re-granted
            // as the footer leaves (ARB) and the winner sees the grant one cycle later
            // (ACCEPT): words + 2 cycles, unless a packet is so short that each gate's own
            // words + 8 turn-around is longer than two such slots (then two packets every
            // words + 8 cycles).
            if senders == 1 {
                assert!(
                    gaps.iter().all(|&g| g == words + 8),
                    "{bytes} B, one sender: spacing {gaps:?}, expected {}",
                    words + 8
                );
            } else {
                let pair = (2 * (words + 2)).max(words + 8);
                assert!(
                    gaps.chunks_exact(2).all(|g| g[0] + g[1] == pair),
                    "{bytes} B, two senders: spacing {gaps:?}, expected pairs of {pair}"
                );
                if bytes >= 32 {
                    assert!(gaps.iter().all(|&g| g == words + 2), "{gaps:?}");
                }
            }
            assert!(b.board.errors.is_empty(), "{:?}", b.board.errors);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Arbiters

/// Every grant at output `dst` with the set of requesters it chose from (`req_q` of the gates
/// that name this output, in the cycle the arbiter decided).
fn grants(b: &mut RouterBench, dst: usize, cycles: u64) -> Vec<(Vec<u32>, u32)> {
    let mut out = Vec::new();
    for _ in 0..cycles {
        let o = b.router.outs[dst].as_ref().unwrap();
        let free_now = !o.r.busy || {
            let g = &b.router.ins[o.r.owner as usize].gate;
            g.xin_valid && g.xin_last && g.xin_out == dst as u32
        };
        let reqs: Vec<u32> = b
            .router
            .ins
            .iter()
            .filter(|s| s.gate.req && s.gate.out == dst as u32)
            .map(|s| s.index)
            .collect();
        b.step();
        let o = b.router.outs[dst].as_ref().unwrap();
        if o.r.grant_valid {
            assert!(free_now, "granted while the output was busy");
            out.push((reqs, o.r.grant_in));
        } else {
            assert!(
                !free_now || reqs.is_empty(),
                "free output, requests {reqs:?}, no grant (room is never short here)"
            );
        }
    }
    out
}

/// Three senders (two intra-tile ports and an inter-tile port's VC 0) to intra-tile port 0.
fn three_senders(arb_fixed: bool) -> (RouterBench, usize, [u32; 3]) {
    let (p, mut c) = router_2d(3, [4, 4], false);
    c.arb_fixed = arb_fixed;
    let dst = p.intra_slot(0) as usize;
    let slots = [p.intra_slot(1), p.intra_slot(2), p.inter_slot(1, 0)];
    let (mut intra, mut inter) = idle_ports(&p);
    intra[1] = saturate(64, ([1, 1, 0], 0), 11);
    intra[2] = saturate(64, ([1, 1, 0], 0), 12);
    inter[1] = saturate(64, ([1, 1, 0], 0), 13);
    (RouterBench::new(p, c, intra, inter), dst, slots)
}

#[test]
fn round_robin_grants_the_next_requester_after_the_last_winner() {
    let (mut b, dst, slots) = three_senders(false);
    let n = b.router.ins.len() as u32;
    let g = grants(&mut b, dst, 20_000);
    assert!(g.len() > 500);
    let mut contended = 0;
    for w in g.windows(2) {
        let (prev, (reqs, win)) = (w[0].1, &w[1]);
        contended += (reqs.len() > 1) as u32;
        let expect = (1..=n)
            .map(|k| (prev + k) % n)
            .find(|s| reqs.contains(s))
            .expect("a grant has a requester");
        assert_eq!(*win, expect, "after {prev}, requests {reqs:?}");
    }
    assert!(contended > 100, "the senders rarely competed ({contended})");
    // fair: every sender's share within one packet of the others
    let count = |s: u32| g.iter().filter(|(_, w)| *w == s).count() as i64;
    let counts = slots.map(count);
    assert!(
        counts.iter().max().unwrap() - counts.iter().min().unwrap() <= 1,
        "{counts:?}"
    );
    assert!(b.board.errors.is_empty(), "{:?}", b.board.errors);
}

#[test]
fn fixed_priority_grants_the_lowest_requesting_slot() {
    let (mut b, dst, slots) = three_senders(true);
    let g = grants(&mut b, dst, 20_000);
    let mut contended = 0;
    for (reqs, win) in &g {
        contended += (reqs.len() > 1) as u32;
        assert_eq!(win, reqs.iter().min().unwrap(), "requests {reqs:?}");
    }
    assert!(contended > 100, "the senders rarely competed ({contended})");
    let count = |s: u32| g.iter().filter(|(_, w)| *w == s).count();
    let [a, bb, c] = slots.map(count);
    // the two lowest slots alternate (each gate needs 8 cycles to request again after its
    // packet), and the highest waits for a cycle in which neither requests: never, here
    assert!(
        a >= bb && bb > c && c == 0,
        "shares follow the slot order: {a} {bb} {c}"
    );
}

#[test]
fn the_arbiter_mode_changes_at_run_time() {
    let (mut b, dst, _) = three_senders(false);
    grants(&mut b, dst, 2_000);
    b.cfg.arb_fixed = true;
    b.run(2); // the configuration is a register input: it acts from the next decision on
    for (reqs, win) in grants(&mut b, dst, 5_000) {
        assert_eq!(win, *reqs.iter().min().unwrap(), "requests {reqs:?}");
    }
    b.cfg.arb_fixed = false;
    b.run(2);
    let g = grants(&mut b, dst, 5_000);
    let n = b.router.ins.len() as u32;
    for w in g.windows(2) {
        let (prev, (reqs, win)) = (w[0].1, &w[1]);
        let expect = (1..=n).map(|k| (prev + k) % n).find(|s| reqs.contains(s));
        assert_eq!(Some(*win), expect);
    }
}

// ---------------------------------------------------------------------------------------
// Virtual cut-through under random traffic

/// A neighbour's RX buffers behind each inter-tile output VC, in credit units: the words the
/// test bench's TCL pops from the TX FIFO arrive there (a header or footer word costs SCALE
/// units, a payload word 1) and drain at random; the credit count the router sees is the
/// exact free space.
struct Neighbours {
    capacity: u32,
    scale: u32,
    used: Vec<[u32; 8]>,
    peak: u32,
}

#[test]
fn virtual_cut_through_never_grants_without_room_for_the_whole_packet() {
    for seed in 1..=6u64 {
        let mut rng = Mt64::new(seed);
        let (mut p, mut c) = router_2d(3, [4, 4], seed % 2 == 0);
        // small output FIFOs, so the local room check matters as much as the credits
        p.intra_fifo = fifo(8, 512);
        p.inter_tx_fifo = fifo(8, 512);
        c.tred = 40;
        let dests: Vec<([u8; 3], u8)> = (0..4u8)
            .flat_map(|x| (0..4u8).map(move |y| ([x, y, 0], y % 3)))
            .collect();
        let stim = |k: u64, rng: &mut Mt64| PortStimulus {
            traffic: TrafficSpec::new(SizeDist::Uniform { min: 0, max: 4096 }, 2, false)
                .to(dests.clone()),
            mode: SourceMode::Saturate,
            back_pressure: BackPressure::alternating([0.05, 0.9], 2000, rng.next_u64()),
            seed: seed * 100 + k,
        };
        let intra = (0..p.n_intra as u64).map(|k| stim(k, &mut rng)).collect();
        let inter = (0..p.inter.len() as u64)
            .map(|k| stim(10 + k, &mut rng))
            .collect();
        let scale = p.remote_scale();
        let capacity = p.inter_rx_fifo.pay_depth;
        let mut nb = Neighbours {
            capacity,
            scale,
            used: vec![[0; 8]; p.inter.len()],
            peak: 0,
        };
        let mut b = RouterBench::new(p, c, intra, inter);
        let mut refused = 0u64;
        for _ in 0..60_000 {
            for (q, cnt) in b.credit_cnt.iter_mut().enumerate() {
                for (v, x) in cnt.iter_mut().enumerate() {
                    *x = nb.capacity - nb.used[q][v];
                }
            }
            for o in b.router.outs.iter().flatten() {
                let free = !o.r.busy;
                let waiting = b
                    .router
                    .ins
                    .iter()
                    .any(|s| s.gate.req && s.gate.out == o.index);
                refused += (free && waiting) as u64;
            }
            let i = b.step();
            for (q, x) in i.inter[..b.router.p.inter.len()].iter().enumerate() {
                for v in 0..2 {
                    let add = if x.hf_rd & (1 << v) != 0 { nb.scale } else { 0 }
                        + (x.pay_rd >> v & 1) as u32;
                    let u = &mut nb.used[q][v];
                    *u += add;
                    nb.peak = nb.peak.max(*u);
                    assert!(
                        *u + c.tred <= nb.capacity,
                        "seed {seed}: neighbour {q} VC {v} holds {u} units, more than capacity {} - TRED {}",
                        nb.capacity,
                        c.tred
                    );
                    // the neighbour's consumer drains a few units now and then
                    if rng.next_u64().is_multiple_of(8) {
                        *u = u.saturating_sub(3);
                    }
                }
            }
        }
        let r = &b.router;
        for s in &r.ins {
            assert_eq!(s.fifo.errors(), 0, "seed {seed}: input {} FIFO", s.index);
        }
        for o in r.outs.iter().flatten() {
            assert_eq!(o.fifo.errors(), 0, "seed {seed}: output {} FIFO", o.index);
        }
        assert!(
            b.board.errors.is_empty(),
            "seed {seed}: {:?}",
            b.board.errors
        );
        assert!(
            b.board.delivered > 100,
            "seed {seed}: {}",
            b.board.delivered
        );
        assert!(
            refused > 1000,
            "seed {seed}: room never ran short ({refused})"
        );
        assert!(
            nb.peak + c.tred > capacity / 2,
            "seed {seed}: the neighbours never filled (peak {})",
            nb.peak
        );
    }
}

#[test]
fn start_stop_credits_never_grant_a_stopped_vc() {
    let (p, mut c) = router_2d(3, [4, 4], false);
    c.usedword = false;
    let q_dest = [([2, 1, 0], 0u8), ([1, 2, 0], 1)]; // X+ and Y+
    let (mut intra, inter) = idle_ports(&p);
    for (k, s) in intra.iter_mut().enumerate() {
        *s = PortStimulus {
            traffic: TrafficSpec::new(SizeDist::Uniform { min: 0, max: 512 }, 2, false)
                .to(q_dest.to_vec()),
            mode: SourceMode::Saturate,
            back_pressure: BackPressure::None,
            seed: 40 + k as u64,
        };
    }
    let mut b = RouterBench::new(p, c, intra, inter);
    let mut rng = Mt64::new(7);
    let (mut granted_inter, mut stopped_cycles) = (0, 0);
    for _ in 0..30_000 {
        let stop = (rng.next_u64() & 0xff) as u8;
        for s in b.credit_stop.iter_mut() {
            *s = stop;
        }
        // what the arbiters see in this cycle
        let seen = b.inputs();
        b.step();
        for o in b.router.outs.iter().flatten() {
            if let exanet::router::params::Slot::Inter(q, v) = b.router.p.slot(o.index) {
                let stopped = seen.inter[q as usize].credit_stop >> v & 1 == 1;
                stopped_cycles += stopped as u32;
                if o.r.grant_valid {
                    granted_inter += 1;
                    assert!(
                        !stopped,
                        "granted output {} while VC {v} was stopped",
                        o.index
                    );
                }
            }
        }
    }
    assert!(granted_inter > 100 && stopped_cycles > 1000);
    assert!(b.board.errors.is_empty(), "{:?}", b.board.errors);
}

// ---------------------------------------------------------------------------------------
// Dimension-order routing against an independent reference

/// The path of a packet, hop by hop: (node, VC of the hop leaving it), computed from the
/// definition: consume the dimensions in `order`; along each, step one node at a time the
/// shorter way round on a torus (a tie goes up), towards the destination on a mesh; the VC is
/// 1 while the destination coordinate is above the current one, else 0.
fn reference_path(
    src: [u8; 3],
    dst: [u8; 3],
    size: [u8; 3],
    torus: bool,
    order: [u8; 3],
    dims: usize,
) -> Vec<([u8; 3], u8)> {
    let mut cur = src;
    let mut hops = Vec::new();
    for &d in order.iter().take(dims) {
        let d = d as usize;
        let n = size[d] as i32;
        while cur[d] != dst[d] {
            let (a, z) = (cur[d] as i32, dst[d] as i32);
            let up = if torus {
                (z - a).rem_euclid(n) <= (a - z).rem_euclid(n)
            } else {
                z > a
            };
            hops.push((cur, (z > a) as u8));
            cur[d] = (a + if up { 1 } else { -1 }).rem_euclid(n) as u8;
        }
    }
    hops
}

/// The same path, asking the router model at every node where the packet goes.
fn model_path(p: &RouterParams, c0: &RouterCfg, src: [u8; 3], dst: [u8; 3]) -> Vec<([u8; 3], u8)> {
    let mut c = *c0;
    c.coord = src;
    let mut hops = Vec::new();
    loop {
        match route_to(dst, 0, p, &c, true) {
            Route::Out { slot, vc } => {
                if slot == p.intra_slot(0) {
                    return hops;
                }
                let exanet::router::params::Slot::Inter(q, _) = p.slot(slot) else {
                    panic!("left by intra-tile slot {slot}");
                };
                hops.push((c.coord, vc));
                let ip = p.inter[q as usize];
                let d = ip.dim as usize;
                let n = c.size[d] as i32;
                let step = if ip.dir == Dir::Plus { 1 } else { -1 };
                c.coord[d] = (c.coord[d] as i32 + step).rem_euclid(n) as u8;
                assert!(hops.len() < 64, "routing loop from {src:?} to {dst:?}");
            }
            Route::Drop(r) => panic!("{src:?} -> {dst:?}: dropped ({r:?})"),
        }
    }
}

#[test]
fn dimension_order_paths_match_the_reference() {
    let mut rng = Mt64::new(2026);
    let mut below = |n: u64| (rng.next_u64() % n) as u8;
    for (dims, size) in [
        (2usize, [4u8, 4, 1]),
        (2, [5, 3, 1]),
        (3, [3, 4, 2]),
        (3, [4, 4, 4]),
    ] {
        for torus in [false, true] {
            let inter: Vec<InterPort> = (0..dims as u8)
                .flat_map(|dim| [Dir::Plus, Dir::Minus].map(|dir| InterPort { dim, dir }))
                .collect();
            let (mut p, mut c) = router_2d(1, [size[0], size[1]], torus);
            p.dims = dims as u32;
            p.inter = inter;
            c.size = size;
            c.torus = if torus { 0b111 } else { 0 };
            c.inter_en = 0x3f;
            let orders: &[[u8; 3]] = if dims == 2 {
                &[[0, 1, 2], [1, 0, 2]]
            } else {
                &[[0, 1, 2], [2, 1, 0], [1, 2, 0]]
            };
            for _ in 0..300 {
                let src = [
                    below(size[0] as u64),
                    below(size[1] as u64),
                    below(size[2] as u64),
                ];
                let dst = [
                    below(size[0] as u64),
                    below(size[1] as u64),
                    below(size[2] as u64),
                ];
                for &order in orders {
                    c.order = order;
                    assert_eq!(
                        model_path(&p, &c, src, dst),
                        reference_path(src, dst, size, torus, order, dims),
                        "{size:?} torus {torus} order {order:?}: {src:?} -> {dst:?}"
                    );
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Packets that cannot be routed

#[test]
fn unroutable_packets_are_dropped_counted_and_the_router_goes_on() {
    let (p, mut c) = router_2d(2, [4, 4], false);
    c.inter_en = 0b1110; // X+ disabled: the only way from (1,1) to (2,1)
    let cases = [
        (([9, 1, 0], 0), DropReason::OutsideLattice),
        (([2, 1, 0], 0), DropReason::NoPort),
        (([1, 1, 0], 5), DropReason::BadDstPort),
    ];
    for (dest, reason) in cases {
        let (mut intra, inter) = idle_ports(&p);
        // a bad packet at cycle 10, a good one (to intra-tile port 0) after it
        intra[1] = PortStimulus {
            traffic: TrafficSpec::new(SizeDist::Fixed(256), 1, false).to(vec![dest]),
            mode: SourceMode::Count(1),
            back_pressure: BackPressure::None,
            seed: 3,
        };
        let good = saturate(64, ([1, 1, 0], 0), 4);
        let mut b = RouterBench::new(p.clone(), c, intra, inter);
        b.run(200);
        let s = p.intra_slot(1) as usize;
        let g = &b.router.ins[s].gate;
        assert_eq!(g.stat_drops, 1, "{reason:?}");
        assert_eq!(g.drop_reason, reason as u8, "{reason:?}");
        assert_eq!(g.state, S_IDLE, "{reason:?}: the gate is free again");
        assert!(b.router.ins[s].fifo.hf.empty() && b.router.ins[s].fifo.pay.empty());
        // the port still works: switch the source to good traffic
        b.intra_src[1] = {
            let mut src = exanet::stimulus::Source::new(
                exanet::stimulus::PacketGen::with_base(good.traffic.clone(), 5, 1 << 30),
                SourceMode::Count(3),
                false,
            );
            src.keep_packets = true;
            src
        };
        b.run(500);
        assert_eq!(b.board.delivered, 3, "{reason:?}: {:?}", b.board.errors);
        assert_eq!(b.router.ins[s].gate.stat_drops, 1);
    }
}

// ---------------------------------------------------------------------------------------
// The scheduler (quiet slots skipped, any visiting order) against eval + commit

#[test]
fn scheduled_step_equals_eval_and_commit_in_any_visiting_order() {
    use exanet::probe::Sampler;
    for seed in [1u64, 2, 3] {
        let mk = || {
            let (mut p, c) = router_2d(3, [4, 4], true);
            p.intra_fifo = fifo(8, 512);
            let dests: Vec<([u8; 3], u8)> = (0..4u8)
                .flat_map(|x| (0..4u8).map(move |y| ([x, y, 0], y % 3)))
                .collect();
            let st = |k: u64| PortStimulus {
                traffic: TrafficSpec::new(SizeDist::Uniform { min: 0, max: 1024 }, 2, false)
                    .to(dests.clone()),
                mode: SourceMode::Saturate,
                back_pressure: BackPressure::alternating([0.1, 0.9], 700, seed * 31 + k),
                seed: seed * 100 + k,
            };
            let intra = (0..3).map(st).collect();
            let inter = (10..14).map(st).collect();
            RouterBench::new(p, c, intra, inter)
        };
        let (mut fast, mut pure, mut shuffled) = (mk(), mk(), mk());
        pure.pure = true;
        // the scheduler visiting the slots in a random order every cycle
        shuffled.router.shuffle_visits(seed);
        let (mut a, mut b, mut d) = (Sampler::default(), Sampler::default(), Sampler::default());
        let mut skipped_some = false;
        for c in 0..20_000 {
            let ia = fast.step();
            let ib = pure.step();
            let id = shuffled.step();
            a.clear();
            b.clear();
            d.clear();
            fast.probe(&ia, &mut a);
            pure.probe(&ib, &mut b);
            shuffled.probe(&id, &mut d);
            assert!(a.values == b.values, "seed {seed}: differ after cycle {c}");
            assert!(
                a.values == d.values,
                "seed {seed}: the slots' visiting order changed cycle {c}"
            );
            skipped_some |= fast.router.ins.iter().any(|s| s.quiet_but_writes(true));
            // what the TCL TXs read of the scheduler's marks is what the input slots hold
            for q in 0..4 {
                assert_eq!(
                    fast.router.marked_inter_rx_units(q),
                    fast.router.inter_rx_units(q),
                    "seed {seed}: port {q}'s marked occupancies after cycle {c}"
                );
            }
        }
        assert!(
            skipped_some,
            "no slot was ever quiet: the skip was not exercised"
        );
        assert!(fast.board.delivered > 100, "{}", fast.board.delivered);
    }
}

/// A network routing function that adapts, for the test below: for an inter-tile output it
/// offers the port's other VC first and the APErouter's own choice last (so every packet still
/// reaches the port its destination needs), for an intra-tile one the APErouter's alone.
struct OtherVcFirst {
    p: RouterParams,
    c: RouterCfg,
}

impl exanet::router::route::RouteFn for OtherVcFirst {
    fn route(&self, hdr: u128, _from: u32, free: u64) -> (Route, Option<u8>, bool) {
        use exanet::router::params::Slot;
        let dor = exanet::router::route::route(hdr, &self.p, &self.c, true);
        if let Route::Out { slot, vc } = dor {
            if let Slot::Inter(q, v) = self.p.slot(slot) {
                let other = self.p.inter_slot(q as u32, 1 - v as u32);
                if free >> other & 1 == 1 {
                    return (
                        Route::Out {
                            slot: other,
                            vc: 1 - vc,
                        },
                        None,
                        true,
                    );
                }
            }
        }
        (dor, None, false)
    }
}

#[test]
fn step_in_place_equals_eval_and_commit_with_an_adaptive_routing_function() {
    // the adaptive path: outputs offered only when free with room, and a gate waiting for an
    // adaptive choice that loses its room going back to ROUTE, in `step` (with the slots'
    // summary and quiet slots skipped) and in `eval` + `commit`
    use exanet::probe::Sampler;
    use exanet::router::gate::S_WAIT;
    use exanet::router::Router;
    use std::sync::Arc;
    let mk = || {
        let (mut p, c) = router_2d(3, [4, 4], true);
        p.intra_fifo = fifo(8, 512);
        p.inter_tx_fifo = fifo(8, 64);
        let dests: Vec<([u8; 3], u8)> = (0..4u8)
            .flat_map(|x| (0..4u8).map(move |y| ([x, y, 0], y % 2)))
            .collect();
        let st = |k: u64| PortStimulus {
            traffic: TrafficSpec::new(SizeDist::Uniform { min: 0, max: 512 }, 2, false)
                .to(dests.clone()),
            mode: SourceMode::Saturate,
            back_pressure: BackPressure::alternating([0.05, 0.95], 500, 31 + k),
            seed: 100 + k,
        };
        let intra = (0..3).map(st).collect();
        let inter = (10..14).map(st).collect();
        let mut b = RouterBench::new(p.clone(), c, intra, inter);
        b.router = Router::with_routing(p.clone(), Arc::new(OtherVcFirst { p, c }));
        b
    };
    let (mut fast, mut pure) = (mk(), mk());
    pure.pure = true;
    let (mut a, mut b) = (Sampler::default(), Sampler::default());
    let mut rerouted = 0;
    for c in 0..20_000 {
        let waiting: Vec<bool> = fast
            .router
            .ins
            .iter()
            .map(|s| s.gate.state == S_WAIT)
            .collect();
        let ia = fast.step();
        let ib = pure.step();
        a.clear();
        b.clear();
        fast.probe(&ia, &mut a);
        pure.probe(&ib, &mut b);
        assert!(a.values == b.values, "differ after cycle {c}");
        rerouted += fast
            .router
            .ins
            .iter()
            .zip(&waiting)
            .filter(|(s, &w)| w && s.gate.state == S_ROUTE)
            .count();
    }
    assert!(rerouted > 0, "no waiting gate was routed again");
    assert!(fast.board.delivered > 100, "{}", fast.board.delivered);
    assert!(fast.board.errors.is_empty(), "{:?}", fast.board.errors);
}
