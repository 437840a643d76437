//! End-to-end tests of the ExaNet Network IP node model: the Target Controller's register
//! interface (timing, read-back, every kind of bad access), the self-test IPs and the status
//! counters, drops of unroutable self-test packets, and the link counters with a neighbour.

use exanet::block::{self, Block};
use exanet::config::Config;
use exanet::measure::router::selftest_bandwidth;
use exanet::node::regs::*;
use exanet::node::target::RegReq;
use exanet::node::top::{NodeTop, NodeTopIn};
use exanet::node::{Node, NodeIn};
use exanet::router::route::DropReason;

/// One access: the request in one cycle, the answer (ack, rdata, err) visible after it.
fn access(n: &mut Node, req: RegReq) -> (bool, u32, bool) {
    assert!(!n.reg_response().0, "no answer before the request");
    block::step(
        n,
        &NodeIn {
            reg: req,
            ..Default::default()
        },
    );
    let r = n.reg_response();
    block::step(n, &NodeIn::default());
    assert!(!n.reg_response().0, "the answer lasts one cycle");
    r
}

fn wr(n: &mut Node, addr: u16, v: u32) -> (bool, u32, bool) {
    access(
        n,
        RegReq {
            wr: true,
            addr,
            wdata: v,
            ..Default::default()
        },
    )
}

fn rd(n: &mut Node, addr: u16) -> u32 {
    let (ack, v, err) = access(
        n,
        RegReq {
            rd: true,
            addr,
            ..Default::default()
        },
    );
    assert!(ack && !err, "read of {addr:#05x}");
    v
}

fn ok(r: (bool, u32, bool), what: &str) {
    assert!(r.0 && !r.2, "{what}: {r:?}");
}

fn refused(n: &mut Node, addr: u16, v: u32, bit: u32) {
    let before = (rd(n, addr), rd(n, ERR_COUNT));
    let (ack, _, err) = wr(n, addr, v);
    assert!(ack && err, "write {v:#x} to {addr:#05x} must be refused");
    assert_eq!(rd(n, ERR_STATUS) & bit, bit, "{addr:#05x}");
    assert_eq!(rd(n, ERR_ADDR), addr as u32);
    assert_eq!(rd(n, ERR_COUNT), before.1 + 1);
    // a refused write changes nothing (write-only and status registers read as before too)
    assert_eq!(rd(n, addr), before.0, "{addr:#05x} changed");
    ok(wr(n, ERR_STATUS, bit), "clear");
    assert_eq!(rd(n, ERR_STATUS) & bit, 0, "W1C");
}

#[test]
fn identity_and_read_back() {
    let cfg = Config::default();
    let mut n = Node::reset(&cfg);
    assert_eq!(rd(&mut n, ID), ID_VALUE);
    // 3 intra-tile ports, 2 inter-tile ports, 2 VCs, 2 dimensions
    assert_eq!(rd(&mut n, NUM_PORTS), 3 | 2 << 8 | 2 << 16 | 2 << 24);
    for (addr, v) in [
        (COORD, 0x0101),
        (TORUS, 0b11),
        (DIM_ORDER, 0b00_00_01),
        (PORT_EN, 0x0105),
        (ARB_MODE, 1),
        (CREDIT_MAX_INTERVAL, 200),
        (CREDIT_PERIOD, 50),
        (TRED, 300),
        (CREDIT_MODE, 0b11),
        (PHY_CTRL, 0b01),
        (ST_GEN_EN, 0b110),
        (ST_PKT, 512 | 1 << 15),
        (ST_DEST, 0x0201_0001),
        (ST_COUNT, 1000),
        (ST_CONS_EN, 1),
        (ST_EXPECT, 7),
    ] {
        ok(wr(&mut n, addr, v), "write");
        assert_eq!(rd(&mut n, addr), v, "{addr:#05x}");
    }
    // the registers drive the blocks
    let rc = n.router_cfg();
    assert_eq!(
        (rc.coord, rc.order, rc.arb_fixed),
        ([1, 1, 0], [1, 0, 0], true)
    );
    assert_eq!((rc.intra_en, rc.inter_en, rc.tred), (0b101, 1, 300));
    let t = n.tcl_cfg();
    assert_eq!(
        (t.credit_period, t.max_interval, t.after_pkt),
        (50, 200, true)
    );
    let c0 = rd(&mut n, CYCLE_LO);
    assert_eq!(rd(&mut n, CYCLE_LO), c0 + 2, "one access every two cycles");
}

#[test]
fn bad_accesses_are_answered_with_an_error_and_recorded() {
    let cfg = Config::default();
    let mut n = Node::reset(&cfg);
    // unknown addresses: write and read (and byte addresses between the registers: a
    // reserved link register's offset plus one once read as that register in the model only)
    let unknown = [
        0x0F0u16,
        0x7FC,
        slot_reg(9, 0),
        link_reg(2, 0),
        0xFFC,
        link_reg(1, 0x31),
        link_reg(0, 0x3A),
        slot_reg(1, 0x13),
    ];
    for addr in unknown {
        let (ack, _, err) = wr(&mut n, addr, 1);
        assert!(ack && err, "write {addr:#05x}");
        let (ack, v, err) = access(
            &mut n,
            RegReq {
                rd: true,
                addr,
                ..Default::default()
            },
        );
        assert!(ack && err && v == 0, "read {addr:#05x}");
        assert_eq!(rd(&mut n, ERR_STATUS) & ERR_UNKNOWN_ADDR, ERR_UNKNOWN_ADDR);
        assert_eq!(rd(&mut n, ERR_ADDR), addr as u32);
    }
    assert_eq!(rd(&mut n, ERR_COUNT), 2 * unknown.len() as u32);
    ok(wr(&mut n, ERR_STATUS, 0xffff_ffff), "clear all");
    assert_eq!(rd(&mut n, ERR_STATUS), 0);
    // invalid values
    refused(&mut n, DIM_ORDER, 0, ERR_BAD_VALUE); // X twice
    refused(&mut n, DIM_ORDER, 0b00_10_00, ERR_BAD_VALUE); // Z on a 2-D router
    refused(&mut n, COORD, 0x0002, ERR_BAD_VALUE); // X = 2 in a 2 x 2 lattice
    refused(&mut n, LATTICE, 0x0002_0202, ERR_BAD_VALUE); // Z > 1 on a 2-D router
    refused(&mut n, TRED, 0, ERR_BAD_VALUE);
    refused(&mut n, TRED, cfg.link.rx_fifo_depth_words, ERR_BAD_VALUE);
    refused(&mut n, CREDIT_PERIOD, 0, ERR_BAD_VALUE);
    refused(&mut n, PORT_EN, 1 << 10, ERR_BAD_VALUE); // inter-tile port 2 does not exist
    refused(&mut n, ST_PKT, 4097, ERR_BAD_VALUE);
    refused(&mut n, ST_PKT, 16 | 2 << 15, ERR_BAD_VALUE); // VC 2 of 2
    refused(&mut n, ST_GEN_EN, 0b1000, ERR_BAD_VALUE);
    // read-only registers: global and status
    refused(&mut n, ID, 0, ERR_READ_ONLY);
    refused(&mut n, NUM_PORTS, 0, ERR_READ_ONLY);
    refused(&mut n, DROPS, 0, ERR_READ_ONLY);
    refused(&mut n, slot_reg(0, 0x10), 5, ERR_READ_ONLY);
    refused(&mut n, link_reg(1, 0x04), 5, ERR_READ_ONLY);
    // the configuration is what it was
    let fresh = Node::reset(&cfg);
    assert_eq!(n.router_cfg(), fresh.router_cfg());
}

#[test]
fn a_start_is_refused_while_a_generator_runs() {
    let mut n = Node::reset(&Config::default());
    ok(wr(&mut n, ST_PKT, 4096), "pkt");
    ok(wr(&mut n, ST_DEST, 0), "dest"); // this node, port 0
    ok(wr(&mut n, ST_COUNT, 20), "count");
    ok(wr(&mut n, ST_CONS_EN, 1), "cons");
    ok(wr(&mut n, ST_GEN_EN, 0b10), "gen");
    ok(wr(&mut n, ST_CTRL, 1), "start");
    let (ack, _, err) = wr(&mut n, ST_CTRL, 1);
    assert!(ack && err, "second start while running");
    assert_eq!(rd(&mut n, ERR_STATUS) & ERR_BAD_VALUE, ERR_BAD_VALUE);
    for _ in 0..20_000 {
        block::step(&mut n, &NodeIn::default());
    }
    assert_eq!(
        rd(&mut n, ST_CONS_PKTS),
        20,
        "the first transfer completed intact"
    );
    ok(wr(&mut n, ST_CTRL, 1), "a start after the transfer");
}

#[test]
fn the_self_test_moves_every_packet_and_the_counters_agree() {
    let mut n = Node::reset(&Config::default());
    let (count, bytes) = (50u32, 256u32);
    let words = bytes / 16 + 2;
    ok(wr(&mut n, ST_PKT, bytes), "pkt");
    ok(wr(&mut n, ST_DEST, 0), "dest");
    ok(wr(&mut n, ST_COUNT, count), "count");
    ok(wr(&mut n, ST_CONS_EN, 1), "cons");
    ok(wr(&mut n, ST_GEN_EN, 0b110), "gen");
    ok(wr(&mut n, ST_CTRL, 1), "start");
    assert_eq!(rd(&mut n, PERF_STATUS), 1, "running");
    for _ in 0..20_000 {
        block::step(&mut n, &NodeIn::default());
    }
    assert_eq!(rd(&mut n, PERF_STATUS), 2, "done");
    let cycles = rd(&mut n, PERF_CYCLES);
    let total = 2 * count;
    assert_eq!(rd(&mut n, ST_GEN_PKTS), total);
    assert_eq!(rd(&mut n, ST_CONS_PKTS), total);
    assert_eq!(rd(&mut n, ST_CONS_WORDS), total * words);
    assert_eq!(rd(&mut n, slot_reg(0, 0x10)), total, "slot 0 out packets");
    assert_eq!(
        rd(&mut n, slot_reg(0, 0x14)),
        total * words,
        "slot 0 out words"
    );
    for s in [1, 2] {
        assert_eq!(rd(&mut n, slot_reg(s, 0x00)), count, "slot {s} in packets");
        assert_eq!(
            rd(&mut n, slot_reg(s, 0x04)),
            count * words,
            "slot {s} in words"
        );
        assert_eq!(rd(&mut n, slot_reg(s, 0x0C)), 0, "slot {s} FIFO empty");
    }
    assert_eq!(rd(&mut n, DROPS), 0);
    // two senders share one output: at best one word a cycle, at worst each packet alone
    assert!(cycles >= total * words, "{cycles}");
    assert!(cycles <= total * (words + 8) + 100, "{cycles}");
    // PERF_CYCLES stays put once done
    block::step(&mut n, &NodeIn::default());
    assert_eq!(rd(&mut n, PERF_CYCLES), cycles);
}

#[test]
fn unroutable_self_test_packets_are_dropped_and_counted() {
    let cfg = Config::default();
    // (destination register, PORT_EN, reason)
    let cases = [
        (0x0000_0005u32, 0x0307u32, DropReason::OutsideLattice), // X = 5 in a 2 x 2 lattice
        (0x0000_0001, 0x0207, DropReason::NoPort), // to (1,0) with the X link disabled
        (0x0000_0000, 0x0306, DropReason::BadDstPort), // to port 0, disabled
    ];
    for (dest, en, reason) in cases {
        let mut n = Node::reset(&cfg);
        ok(wr(&mut n, PORT_EN, en), "port_en");
        ok(wr(&mut n, ST_PKT, 128), "pkt");
        ok(wr(&mut n, ST_DEST, dest), "dest");
        ok(wr(&mut n, ST_COUNT, 10), "count");
        ok(wr(&mut n, ST_GEN_EN, 0b10), "gen");
        ok(wr(&mut n, ST_CTRL, 1), "start");
        for _ in 0..2_000 {
            block::step(&mut n, &NodeIn::default());
        }
        assert_eq!(
            rd(&mut n, ST_GEN_PKTS),
            10,
            "{reason:?}: the generator finished"
        );
        assert_eq!(rd(&mut n, DROPS), 10, "{reason:?}");
        assert_eq!(rd(&mut n, slot_reg(1, 0x08)), 10, "{reason:?}");
        assert_eq!(
            rd(&mut n, slot_reg(1, 0x0C)) >> 30,
            reason as u32,
            "{reason:?}"
        );
        assert_eq!(
            rd(&mut n, slot_reg(1, 0x0C)) & 0x3fff_ffff,
            0,
            "FIFO drained"
        );
        // the node still works
        ok(wr(&mut n, PORT_EN, 0x0307), "port_en");
        ok(wr(&mut n, ST_DEST, 0x0200_0000), "dest: port 2");
        ok(wr(&mut n, ST_CONS_EN, 0b100), "cons");
        ok(wr(&mut n, ST_CTRL, 1), "start");
        for _ in 0..2_000 {
            block::step(&mut n, &NodeIn::default());
        }
        assert_eq!(rd(&mut n, ST_CONS_PKTS), 10, "{reason:?}: after the drops");
    }
}

#[test]
fn link_counters_with_a_neighbour() {
    let cfg = Config::default();
    let mut t = NodeTop::new(&cfg);
    let mut i = NodeTopIn::default();
    let mut cycle = 0u64;
    let reg = |t: &mut NodeTop, i: &mut NodeTopIn, req: RegReq| {
        i.node.reg = req;
        t.step(i);
        i.node.reg = RegReq::default();
        let r = t.node.reg_response();
        t.step(i);
        r
    };
    let w = |addr, wdata| RegReq {
        wr: true,
        addr,
        wdata,
        ..Default::default()
    };
    let r = |addr| RegReq {
        rd: true,
        addr,
        ..Default::default()
    };
    for (a, v) in [
        (ST_PKT, 1024),
        (ST_DEST, 0x0000_0001), // (1, 0): over inter-tile port 0
        (ST_COUNT, 30),
        (ST_GEN_EN, 0b10),
        (ST_CTRL, 1),
    ] {
        let (ack, _, err) = reg(&mut t, &mut i, w(a, v));
        assert!(ack && !err);
    }
    // the neighbour drains whatever arrives
    while cycle < 60_000 {
        let e = &t.nbs[0];
        let mut tb = exanet::link::system::EndTbIn::default();
        for (v, f) in e.rx_fifos.iter().enumerate() {
            tb.rx_rd_hf |= (!f.hf.empty() as u8) << v;
            tb.rx_rd_pay |= (!f.pay.empty() as u8) << v;
        }
        i.nb[0] = tb;
        t.step(&i);
        cycle += 1;
    }
    assert_eq!(
        t.nbs[0].rx.stat_pkts, 30,
        "the neighbour received every packet"
    );
    let link = |q, off| r(link_reg(q, off));
    assert_eq!(reg(&mut t, &mut i, link(0, 0x00)).1, 1, "lane up");
    assert_eq!(reg(&mut t, &mut i, link(0, 0x14)).1, 30, "packets sent");
    assert_eq!(reg(&mut t, &mut i, link(0, 0x0C)).1, 0, "no CRC errors");
    assert_eq!(reg(&mut t, &mut i, link(1, 0x14)).1, 0, "nothing on Y");
}

#[test]
fn self_test_bandwidth_matches_the_thesis_at_512_bytes() {
    // Biagioni 2017 §5.4.2, Figure 5.19: 76 % with one sender, 89.5 % with two (within 3 points)
    let cfg = Config::default();
    let one = selftest_bandwidth(&cfg, 512, 1).unwrap();
    let two = selftest_bandwidth(&cfg, 512, 2).unwrap();
    assert!((one.efficiency - 0.76).abs() <= 0.03, "{one:?}");
    assert!((two.efficiency - 0.895).abs() <= 0.03, "{two:?}");
    // the structure behind them: words / (words + 8) and words / (words + 2) per packet
    // (tests/router.rs), with 34 words a packet, up to the start and the drain
    assert!((one.efficiency - 32.0 / 42.0).abs() < 0.005, "{one:?}");
    assert!((two.efficiency - 32.0 / 36.0).abs() < 0.005, "{two:?}");
}

/// The clock rule at the node's level (docs/architecture.md): every sub-block's inputs are taken
/// from the registers of the cycle before any sub-block steps, so stepping them in place one
/// after another in any order gives the registers of eval-all-then-commit. The saturating
/// self-test of `bench node` (every generator sending to X, both neighbours sending to port 0,
/// a consumer draining it) replayed into three nodes: evaluated then committed; sub-blocks in a
/// fresh random order every cycle and the router's slots too; sub-blocks in another random
/// order with the router's slots in their own order. Every signal of the top, every cycle.
#[test]
fn the_node_s_sub_blocks_step_in_any_order() {
    use exanet::cosim::bench_node::record;
    use exanet::probe::Sampler;
    use exanet::progress::Progress;
    let cfg = Config::default();
    let (trace, recorded, _) = record(&cfg, 6000, &Progress::hidden()).expect("recorded");
    let mk = || NodeTop::new(&cfg);
    let (mut straight, mut shuffled, mut reshuffled) = (mk(), mk(), mk());
    shuffled.shuffle_blocks(7);
    shuffled.node.dp.router.shuffle_visits(8);
    reshuffled.shuffle_blocks(9);
    let probe = |t: &NodeTop, i: &NodeTopIn| {
        let mut s = Sampler::default();
        t.probe(i, &mut s);
        s.values
    };
    for (c, i) in trace.iter().enumerate() {
        straight.step(i);
        shuffled.step(i);
        reshuffled.step(i);
        let a = probe(&straight, i);
        assert!(
            a == probe(&shuffled, i),
            "the sub-blocks' and slots' order changed cycle {c}"
        );
        assert!(
            a == probe(&reshuffled, i),
            "the sub-blocks' order changed cycle {c}"
        );
    }
    // the traffic the test is about happened, and the replay followed the recording
    let sent: Vec<u32> = (straight.node.dp.links.iter().flatten())
        .map(|l| l.tcl.tx.stat_pkts)
        .collect();
    let recv: Vec<u32> = (straight.node.dp.links.iter().flatten())
        .map(|l| l.tcl.rx.stat_pkts)
        .collect();
    assert!(
        sent[0] > 5 && recv.iter().all(|&r| r > 5),
        "{sent:?} {recv:?}"
    );
    assert!(
        straight.node.cons[0].pkts > 5,
        "{}",
        straight.node.cons[0].pkts
    );
    assert_eq!(
        sent,
        (recorded.node.dp.links.iter().flatten())
            .map(|l| l.tcl.tx.stat_pkts)
            .collect::<Vec<_>>()
    );
}
