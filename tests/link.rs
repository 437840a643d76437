//! End-to-end tests of the APElink model: hop latency, credit stalls, faults, clock rule.

use exanet::config::{Config, CreditFlavour};
use exanet::link::bench::{EndStimulus, LinkBench};
use exanet::link::errors::ErrorPlan;
use exanet::link::tcl_tx::BeatKind;
use exanet::link::LinkParams;
use exanet::measure::latency;
use exanet::stimulus::{BackPressure, SizeDist, SourceMode, TrafficSpec};

fn quiet(cfg: &Config, seed: u64) -> EndStimulus {
    EndStimulus {
        traffic: TrafficSpec {
            sizes: SizeDist::Fixed(64),
            num_vcs: cfg.link.num_vcs,
            size_in_words: false,
            dests: Vec::new(),
        },
        mode: SourceMode::Idle,
        back_pressure: BackPressure::None,
        seed,
    }
}

#[test]
fn hop_latency_is_3_plus_6_plus_42() {
    let r = latency::measure(&Config::default()).unwrap();
    assert_eq!(
        (r.fifo_cycles, r.tcl_cycles, r.phy_cycles, r.total_cycles),
        (3, 6, 42, 51)
    );
    assert_eq!((r.tcl_tx_cycles, r.tcl_rx_cycles), (4, 2));
    assert!((r.total_ns - 326.4).abs() < 1e-9);
    // one more L_F at the receiver's RX FIFO
    assert_eq!(r.rx_fifo_not_empty_cycles, 54);
    // a credit already leaving can hold the header one cycle (start/stop credit = 1 beat)
    assert_eq!(r.max_total_cycles, 52);
}

#[test]
fn hop_latency_moves_by_exactly_the_parameter_change() {
    let mut c = Config::default();
    c.link.phy.latency_cycles = 47;
    assert_eq!(latency::measure(&c).unwrap().total_cycles, 56);
    let mut c = Config::default();
    c.link.phy.latency_cycles = 20;
    assert_eq!(latency::measure(&c).unwrap().total_cycles, 29);
    let mut c = Config::default();
    c.link.fifo_latency_cycles = 5;
    let r = latency::measure(&c).unwrap();
    assert_eq!((r.fifo_cycles, r.total_cycles), (5, 53));
    let mut c = Config::default();
    c.link.fifo_latency_cycles = 2;
    assert_eq!(latency::measure(&c).unwrap().total_cycles, 50);
    // the number of words a FIFO holds does not change its latency
    let mut c = Config::default();
    c.link.tx_fifo_depth_words = 128;
    c.link.rx_fifo_depth_words = 256;
    assert_eq!(latency::measure(&c).unwrap().total_cycles, 51);
}

/// A sends one 4 KB packet into a peer whose credits stay quiet: with a buffer of D units, a
/// header costing S units (the header/footer FIFO is S times smaller than the payload FIFO) and
/// threshold T, the header and D - S - T payload words go, then the TX stalls; it resumes the
/// cycle after the next credit from B arrives.
#[test]
fn credit_stall_starts_and_ends_on_the_expected_cycles() {
    let mut cfg = Config::default();
    cfg.link.credit.flavour = CreditFlavour::Usedword;
    cfg.link.rx_fifo_depth_words = 64;
    cfg.link.rx_hf_fifo_depth_words = 8;
    cfg.link.credit.tred_words = 8;
    cfg.link.credit.period_cycles = 400;
    cfg.link.credit.max_interval_cycles = 400;
    cfg.link.credit.after_every_packet = false;
    cfg.validate().unwrap();
    let p = LinkParams::from_config(&cfg.link);
    let inject = 1000;
    let a = EndStimulus {
        traffic: TrafficSpec {
            sizes: SizeDist::Fixed(4096),
            num_vcs: 1,
            size_in_words: false,
            dests: Vec::new(),
        },
        mode: SourceMode::AtCycles([inject].into_iter().collect()),
        back_pressure: BackPressure::None,
        seed: 3,
    };
    let mut bench = LinkBench::new(p, a, quiet(&cfg, 4), ErrorPlan::None, ErrorPlan::None);
    let mut magic_at = None;
    let mut stall_cycles = Vec::new();
    let mut updates = Vec::new();
    let mut payload_loads = Vec::new();
    for _ in 0..3000 {
        let c = bench.cycle;
        if bench.link.a.rx.cred_upd_valid {
            updates.push(c);
        }
        let before = bench.link.a.tx.stat_stall;
        let (ev, _) = bench.step();
        if bench.link.a.tx.stat_stall != before {
            stall_cycles.push(c);
        }
        match ev.a_tx.loaded {
            Some(BeatKind::Magic) if magic_at.is_none() => magic_at = Some(c),
            Some(BeatKind::Payload) => payload_loads.push(c),
            _ => {}
        }
    }
    let t_m = magic_at.expect("the packet started");
    let d = cfg.link.rx_fifo_depth_words as u64;
    let t = cfg.link.credit.tred_words as u64;
    let scale = d / cfg.link.rx_hf_fifo_depth_words as u64;
    assert_eq!(scale, 8);
    // word k (0 = header) has its low half loaded at t_m + 2 + 2k; after the header (S units) and
    // k payload words D - S - k units are left, so payload word D - S - T is the first blocked
    let start = t_m + 2 + 2 * (1 + d - scale - t);
    assert!(
        updates.iter().all(|&u| u < t_m || u > start),
        "a credit arrived during the run-up: {updates:?}"
    );
    assert_eq!(
        stall_cycles.first().copied(),
        Some(start),
        "stall starts when the credit reaches TRED"
    );
    let u = *updates
        .iter()
        .find(|&&u| u > start)
        .expect("a credit arrives after the stall started");
    let end = u + 1;
    let expected: Vec<u64> = (start..end).collect();
    assert_eq!(
        &stall_cycles[..expected.len()],
        &expected[..],
        "stalled every cycle until the credit arrives"
    );
    assert!(
        !stall_cycles.contains(&end),
        "not stalled once the fresh credit is in"
    );
    assert!(
        payload_loads.contains(&end),
        "transmission resumes the cycle after the credit"
    );
    assert!(
        !payload_loads.iter().any(|&c| c >= start && c < end),
        "nothing sent during the stall"
    );
    assert_eq!(bench.link.a.tx.stat_stall as usize, stall_cycles.len());
}

/// Run A -> B traffic of `n` packets with an error plan on lane A->B; returns the bench after
/// everything has drained.
fn run_with_errors(plan: ErrorPlan, n: u64) -> LinkBench {
    let cfg = Config::default();
    let p = LinkParams::from_config(&cfg.link);
    let a = EndStimulus {
        traffic: TrafficSpec {
            sizes: SizeDist::Uniform { min: 16, max: 256 },
            num_vcs: 2,
            size_in_words: false,
            dests: Vec::new(),
        },
        mode: SourceMode::Count(n),
        back_pressure: BackPressure::None,
        seed: 11,
    };
    let mut bench = LinkBench::new(p, a, quiet(&cfg, 12), plan, ErrorPlan::None);
    bench.run(600 + 100 * n + 400);
    bench
}

/// Index (among beats accepted on lane A->B) of every beat of each kind, from a clean run.
fn beat_map(n: u64) -> Vec<(u64, BeatKind)> {
    let cfg = Config::default();
    let p = LinkParams::from_config(&cfg.link);
    let a = EndStimulus {
        traffic: TrafficSpec {
            sizes: SizeDist::Uniform { min: 16, max: 256 },
            num_vcs: 2,
            size_in_words: false,
            dests: Vec::new(),
        },
        mode: SourceMode::Count(n),
        back_pressure: BackPressure::None,
        seed: 11,
    };
    let mut bench = LinkBench::new(p, a, quiet(&cfg, 12), ErrorPlan::None, ErrorPlan::None);
    let mut out = Vec::new();
    let mut reg: Option<BeatKind> = None;
    let mut idx = 0u64;
    for _ in 0..(600 + 100 * n + 400) {
        let accepted = bench.link.a.tx.out_valid && bench.link.lane_ab.tx_ready();
        if accepted {
            out.push((idx, reg.expect("an accepted beat has a kind")));
            idx += 1;
        }
        let (ev, _) = bench.step();
        if let Some(k) = ev.a_tx.loaded {
            reg = Some(k);
        } else if accepted {
            reg = None;
        }
    }
    out
}

fn nth(map: &[(u64, BeatKind)], kind: BeatKind, n: usize) -> u64 {
    map.iter()
        .filter(|(_, k)| *k == kind)
        .nth(n)
        .expect("enough beats of that kind")
        .0
}

#[test]
fn an_uncorrectable_header_loses_exactly_that_packet() {
    let map = beat_map(6);
    // packet 2's header: its beats are the 5th and 6th header beats
    let hdr_lo = nth(&map, BeatKind::Header, 4);
    let bench = run_with_errors(ErrorPlan::Beats(vec![(hdr_lo, 0b101 << 20)]), 6);
    let rx = &bench.link.b.rx;
    assert_eq!(rx.stat_ecc_uncorr, 1);
    assert_eq!(rx.stat_ecc_corr, 0);
    assert_eq!(
        (rx.stat_lost, rx.stat_disc_hdr, rx.stat_disc_framing),
        (1, 1, 0)
    );
    let board = &bench.a.board;
    assert_eq!(
        (board.lost, board.delivered, board.crc_bad),
        (1, 5, 0),
        "{board:?}"
    );
    assert!(board.errors.is_empty() && board.silent == 0, "{board:?}");
    assert_eq!(bench.inj_ab.bits_flipped, 2);
    assert_accounted(&bench, 6);
}

#[test]
fn a_single_header_error_is_corrected() {
    let map = beat_map(6);
    let hdr_hi = nth(&map, BeatKind::Header, 7);
    let bench = run_with_errors(ErrorPlan::Beats(vec![(hdr_hi, 1 << 63)]), 6);
    let rx = &bench.link.b.rx;
    assert_eq!(
        (rx.stat_ecc_corr, rx.stat_ecc_uncorr, rx.stat_lost),
        (1, 0, 0)
    );
    let board = &bench.a.board;
    assert_eq!((board.lost, board.delivered), (0, 6));
    assert!(board.errors.is_empty() && board.silent == 0, "{board:?}");
    assert_accounted(&bench, 6);
}

#[test]
fn a_payload_error_is_counted_and_flagged_and_the_packet_delivered() {
    let map = beat_map(6);
    let pay = nth(&map, BeatKind::Payload, 9);
    let bench = run_with_errors(ErrorPlan::Beats(vec![(pay, 1 << 7)]), 6);
    let rx = &bench.link.b.rx;
    assert_eq!((rx.stat_crc_err, rx.stat_lost, rx.stat_pkts), (1, 0, 6));
    let board = &bench.a.board;
    assert_eq!((board.crc_bad, board.delivered, board.lost), (1, 5, 0));
    assert_accounted(&bench, 6);
}

#[test]
fn a_corrupted_start_loses_that_packet_only() {
    let map = beat_map(6);
    let start = nth(&map, BeatKind::Start, 3);
    let bench = run_with_errors(ErrorPlan::Beats(vec![(start, 1 << 40)]), 6);
    let board = &bench.a.board;
    assert_eq!((board.lost, board.delivered), (1, 5));
    let rx = &bench.link.b.rx;
    // counted once, as framing lost, when packet 4's footer says packet 3 was sent
    assert_eq!(
        (rx.stat_lost, rx.stat_disc_framing, rx.stat_disc_hdr),
        (1, 1, 0)
    );
    assert!(rx.stat_dropped > 0);
    assert!(board.errors.is_empty() && board.silent == 0, "{board:?}");
    assert_accounted(&bench, 6);
}

/// The whole accounting of A -> B after a run of `sent` packets has drained: every packet
/// delivered, flagged or discarded, exactly as the scoreboard saw it, none left in flight.
fn assert_accounted(bench: &LinkBench, sent: u64) {
    let acc = bench.link.account_ab();
    let board = &bench.a.board;
    assert_eq!(acc.sent, sent, "{acc:?}");
    assert_eq!(acc.in_flight, 0, "{acc:?}");
    let intact = board.delivered + board.silent + board.false_alarms;
    assert_eq!(acc.delivered, intact, "{acc:?} {board:?}");
    assert_eq!(
        acc.crc_failed,
        board.crc_bad - board.false_alarms,
        "{acc:?} {board:?}"
    );
    assert_eq!(acc.discarded(), board.lost, "{acc:?} {board:?}");
    assert_eq!(board.in_flight(), 0, "{board:?}");
    bench.link.check_accounts().unwrap();
}

#[test]
fn a_packet_whose_magic_and_start_are_both_hit_is_counted_as_framing_lost() {
    let map = beat_map(6);
    let magic = nth(&map, BeatKind::Magic, 2);
    let start = nth(&map, BeatKind::Start, 2);
    let bench = run_with_errors(ErrorPlan::Beats(vec![(magic, 1 << 3), (start, 1 << 9)]), 6);
    let rx = &bench.link.b.rx;
    assert_eq!((rx.stat_lost, rx.stat_disc_framing), (1, 1));
    assert_eq!(bench.a.board.lost, 1);
    assert_accounted(&bench, 6);
}

#[test]
fn a_packet_swallowed_while_discarding_to_the_next_start_is_counted_as_such() {
    let map = beat_map(6);
    // packet 1's header uncorrectable, packet 2's START hit: both lost, one reason each
    let hdr_lo = nth(&map, BeatKind::Header, 2);
    let start = nth(&map, BeatKind::Start, 2);
    let bench = run_with_errors(
        ErrorPlan::Beats(vec![(hdr_lo, 0b11 << 30), (start, 1 << 50)]),
        6,
    );
    let rx = &bench.link.b.rx;
    assert_eq!(
        (
            rx.stat_lost,
            rx.stat_disc_hdr,
            rx.stat_disc_resync,
            rx.stat_disc_framing
        ),
        (2, 1, 1, 0)
    );
    assert_eq!(bench.a.board.lost, 2);
    assert_accounted(&bench, 6);
}

#[test]
fn the_last_packets_lost_stay_in_flight_while_no_later_one_arrives() {
    // (the count at a later packet's footer is what the tests above check)
    let map = beat_map(6);
    // packets 3, 4 and 5 lose their START: nothing arrives after them, so the RX cannot know
    // yet; they are in flight (sent, not accounted for)
    let plan = (3..6)
        .map(|k| (nth(&map, BeatKind::Start, k), 1u64))
        .collect();
    let bench = run_with_errors(ErrorPlan::Beats(plan), 6);
    let acc = bench.link.account_ab();
    assert_eq!(
        (acc.sent, acc.delivered, acc.in_flight),
        (6, 3, 3),
        "{acc:?}"
    );
    bench.link.check_accounts().unwrap();
}

#[test]
fn three_errors_in_a_header_make_a_wrong_valid_header_that_the_crc_flags() {
    let map = beat_map(6);
    // three bits of packet 2's pdid: SECDED "corrects" a fourth bit and passes the header;
    // the CRC, which covers the header, flags the packet
    let hdr_lo = nth(&map, BeatKind::Header, 4);
    let bench = run_with_errors(ErrorPlan::Beats(vec![(hdr_lo, 0b111 << 44)]), 6);
    let rx = &bench.link.b.rx;
    assert_eq!((rx.stat_ecc_corr, rx.stat_crc_err, rx.stat_lost), (1, 1, 0));
    let board = &bench.a.board;
    assert_eq!(
        (board.crc_bad, board.silent, board.lost),
        (1, 0, 0),
        "{board:?}"
    );
    assert_accounted(&bench, 6);
}

#[test]
fn a_hit_sequence_number_only_delays_the_count() {
    let map = beat_map(6);
    // packet 2 lost (START hit), packet 3's footer sequence number hit (its check fails, so
    // the RX does not trust it): the loss is counted at packet 4
    let start = nth(&map, BeatKind::Start, 2);
    let ftr_hi = nth(&map, BeatKind::Footer, 7);
    let bench = run_with_errors(ErrorPlan::Beats(vec![(start, 1), (ftr_hi, 1 << 5)]), 6);
    let rx = &bench.link.b.rx;
    assert_eq!(
        (rx.stat_lost, rx.stat_disc_framing, rx.stat_crc_err),
        (1, 1, 0)
    );
    assert_accounted(&bench, 6);
}

/// B's credits to A with one copy corrupted: A's TX sees exactly the same credits.
#[test]
fn one_corrupted_credit_copy_changes_nothing() {
    for flavour in [CreditFlavour::StartStop, CreditFlavour::Usedword] {
        let mut cfg = Config::default();
        cfg.link.credit.flavour = flavour;
        let p = LinkParams::from_config(&cfg.link);
        let run = |plan: ErrorPlan| {
            let (a, b) = two_way_stimulus();
            let mut bench = LinkBench::new(p, a, b, ErrorPlan::None, plan);
            let mut tx_trace = Vec::new();
            for _ in 0..6000 {
                bench.step();
                tx_trace.push(bench.link.a.tx.clone());
            }
            (tx_trace, bench)
        };
        // every credit beat B sends: corrupt copy 1 of each (start/stop: bits 15:8; usedword:
        // copy 1 of both VC fields, bits 19:10 and 49:40)
        let (clean, _) = run(ErrorPlan::None);
        let mask = match flavour {
            CreditFlavour::StartStop => 0xa5u64 << 8,
            CreditFlavour::Usedword => (0x2a5u64 << 10) | (0x15au64 << 40),
        };
        let plan = ErrorPlan::Beats(
            credit_beat_indices(p)
                .into_iter()
                .map(|i| (i, mask))
                .collect(),
        );
        let (dirty, bench) = run(plan);
        assert!(
            bench.inj_ba.beats_hit > 10,
            "{flavour:?}: the test must corrupt many credits"
        );
        assert_eq!(
            clean, dirty,
            "{flavour:?}: A's TX registers must not change"
        );
        assert_eq!(bench.link.a.rx.stat_credit_err, 0);
    }
}

/// Twenty packets each way with random back-pressure at both ends.
fn two_way_stimulus() -> (EndStimulus, EndStimulus) {
    let end = |seed, bp_seed| EndStimulus {
        traffic: TrafficSpec {
            sizes: SizeDist::Uniform { min: 16, max: 512 },
            num_vcs: 2,
            size_in_words: false,
            dests: Vec::new(),
        },
        mode: SourceMode::Count(20),
        back_pressure: BackPressure::random(0.3, bp_seed),
        seed,
    };
    (end(22, 6), end(21, 5))
}

/// Indices (among beats accepted on lane B->A) of B's credit beats, from a clean run.
fn credit_beat_indices(p: LinkParams) -> Vec<u64> {
    let (a, b) = two_way_stimulus();
    let mut bench = LinkBench::new(p, a, b, ErrorPlan::None, ErrorPlan::None);
    let mut reg: Option<BeatKind> = None;
    let mut idx = 0;
    let mut out = Vec::new();
    for _ in 0..6000 {
        let accepted = bench.link.b.tx.out_valid && bench.link.lane_ba.tx_ready();
        if accepted {
            if matches!(reg, Some(BeatKind::Credit) | Some(BeatKind::CreditInner)) {
                out.push(idx);
            }
            idx += 1;
        }
        let (ev, _) = bench.step();
        if let Some(k) = ev.b_tx.loaded {
            reg = Some(k);
        }
    }
    out
}

/// The clock rule: stepping the blocks in place in any order gives bit-identical waves.
#[test]
fn shuffling_the_block_order_gives_identical_waves() {
    let mut cfg = Config::default();
    cfg.link.phy.ber = 1e-4;
    let dir = std::env::temp_dir().join(format!("exanet-shuffle-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = |shuffle: Option<u64>, name: &str| {
        let mut bench = exanet::cosim::link_design::cosim_bench(&cfg);
        if let Some(s) = shuffle {
            bench.shuffle_blocks(s);
        }
        let path = dir.join(name);
        bench.open_wave(&path, 6400).unwrap();
        bench.run(4000);
        bench.close_wave().unwrap();
        std::fs::read(&path).unwrap()
    };
    let straight = run(None, "straight.vcd");
    let shuffled = run(Some(7), "shuffled.vcd");
    let reshuffled = run(Some(8), "reshuffled.vcd");
    assert!(
        straight.len() > 100_000,
        "the waves must cover real activity"
    );
    assert!(straight == shuffled, "shuffled order changed the waves");
    assert!(
        straight == reshuffled,
        "another shuffled order changed the waves"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Random traffic both ways with back-pressure and bit errors: every packet is accounted for.
#[test]
fn every_packet_is_accounted_for_under_errors_and_back_pressure() {
    for flavour in [CreditFlavour::StartStop, CreditFlavour::Usedword] {
        let mut cfg = Config::default();
        cfg.link.phy.ber = 1e-5;
        cfg.link.credit.flavour = flavour;
        let mut bench = exanet::cosim::link_design::cosim_bench(&cfg);
        bench.run(200_000);
        for (name, board, peer) in [
            ("A->B", &bench.a.board, &bench.link.b),
            ("B->A", &bench.b.board, &bench.link.a),
        ] {
            assert!(
                board.errors.is_empty(),
                "{flavour:?} {name}: {:?}",
                board.errors
            );
            assert!(board.delivered > 50, "{flavour:?} {name}: {board:?}");
            // receive-side counters agree with the scoreboard
            assert_eq!(
                board.crc_bad - board.false_alarms,
                peer.rx.stat_crc_err as u64,
                "{flavour:?} {name}"
            );
            assert_eq!(
                board.silent, 0,
                "{flavour:?} {name}: {:?}",
                board.silent_log
            );
            for f in peer.rx_fifos.iter().chain(&peer.tx_fifos) {
                assert_eq!(
                    f.errors(),
                    0,
                    "{flavour:?} {name}: a FIFO overflowed or underflowed"
                );
            }
        }
        assert!(
            bench.link.a.tx.stat_stall + bench.link.b.tx.stat_stall > 0,
            "{flavour:?}: back-pressure must stall"
        );
        assert!(bench.inj_ab.bits_flipped > 0);
    }
}

/// Payload beats a TCL TX sends in the 200 cycles after its peer's stop bit arrives in the
/// middle of a 32-word packet (start/stop credits, one VC, the link always ready).
fn beats_after_a_stop_inside_a_packet(whole_pkt: bool) -> usize {
    use exanet::block::{self, Block};
    use exanet::link::tcl_tx::{TclCfg, TclTx, TclTxIn, TxIn};
    use exanet::packet::layout::HDR_SIZE;
    use exanet::pktfifo::{PktFifo, PktFifoIn, PktFifoParams};
    let p = LinkParams::from_config(&Config::default().link).tcl;
    let cfg = TclCfg {
        credit_period: 35,
        max_interval: 110,
        tred: 128,
        usedword: false,
        after_pkt: false,
        whole_pkt,
    };
    let mut f = PktFifo::reset(&PktFifoParams {
        hf_depth: 16,
        pay_depth: 64,
        latency: 3,
    });
    // the packet: header (512 bytes = 32 payload words), payload, footer
    let mut words = vec![(true, HDR_SIZE.set(0, 512))];
    words.extend((1..=32u128).map(|k| (false, k)));
    words.push((true, 0xf00d));
    for (hf, w) in words {
        f.step(&PktFifoIn {
            wr_hf: hf,
            wr_pay: !hf,
            wdata: w,
            ..Default::default()
        });
    }
    for _ in 0..4 {
        f.step(&PktFifoIn::default());
    }
    let mut tx = TclTx::reset(&p);
    let (mut payload_beats, mut after_stop, mut stopped_at) = (0, 0, None);
    for c in 0..400 {
        let mut i = TxIn {
            hf_empty: f.hf.empty() as u8,
            pay_empty: f.pay.empty() as u8,
            tx_ready: true,
            ..Default::default()
        };
        i.hf_rdata[0] = f.hf.rdata();
        i.pay_rdata[0] = f.pay.rdata();
        // the peer stops VC 0 once 8 payload beats have gone
        if stopped_at.is_none() && payload_beats == 8 {
            i.cred_upd_valid = true;
            i.cred_upd_stop = 1;
            stopped_at = Some(c);
        }
        let ev = block::step(
            &mut tx,
            &TclTxIn {
                p: &p,
                cfg: &cfg,
                port: &i,
            },
        )
        .expect("the TX CTRL is never quiet");
        f.step(&PktFifoIn {
            rd_hf: tx.hf_rd & 1 != 0,
            rd_pay: tx.pay_rd & 1 != 0,
            ..Default::default()
        });
        if ev.loaded == Some(BeatKind::Payload) {
            payload_beats += 1;
            if stopped_at.is_some_and(|s| c > s + 1 && c <= s + 200) {
                after_stop += 1;
            }
        }
    }
    assert!(stopped_at.is_some(), "the packet never started");
    after_stop
}

#[test]
fn a_stop_inside_a_packet_holds_it_word_by_word_but_not_with_whole_packet_credit() {
    // Biagioni 2017's TCL: the rest of the packet waits for the credit (a beat or two already
    // loaded may still go)
    let word = beats_after_a_stop_inside_a_packet(false);
    assert!(word <= 2, "{word} payload beats after the stop");
    // whole-packet credit: the packet runs to its footer (64 beats in all, 16 before)
    let whole = beats_after_a_stop_inside_a_packet(true);
    assert!(whole >= 64 - 16 - 2, "{whole} payload beats after the stop");
}

/// The accounting of issue 16: at every cycle, in both directions, sent = delivered +
/// CRC-failed + discarded + in flight with nothing negative (`Link::check_accounts`), at every
/// bit error rate from 1e-9 to 0.5. Then the errors stop, the sources stop, the link drains,
/// and every packet is accounted for exactly as the scoreboard saw it: in flight 0, the RX's
/// delivered, CRC-failed and discarded counts equal to the scoreboard's.
#[test]
fn every_packet_sent_is_delivered_flagged_or_discarded_at_every_cycle_and_rate() {
    const RATES: [f64; 10] = [1e-9, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.1, 0.25, 0.5];
    const SEEDS: [u64; 3] = [1, 2, 3];
    const ERROR_CYCLES: u64 = 30_000;
    let cfg = Config::default();
    let p = LinkParams::from_config(&cfg.link);
    for ber in RATES {
        for seed in SEEDS {
            let end = |k: u64| EndStimulus {
                traffic: TrafficSpec {
                    sizes: SizeDist::Uniform { min: 0, max: 512 },
                    num_vcs: 2,
                    size_in_words: false,
                    dests: Vec::new(),
                },
                mode: SourceMode::Saturate,
                back_pressure: BackPressure::None,
                seed: seed * 100 + k,
            };
            let errs = |k: u64| ErrorPlan::Random {
                ber,
                seed: seed * 1000 + k,
            };
            let mut bench = LinkBench::new(p, end(0), end(1), errs(0), errs(1));
            let ctx = format!("ber {ber:e}, seed {seed}");
            let mut max_in_flight = 0;
            for c in 0..ERROR_CYCLES {
                bench.step();
                if let Err(e) = bench.link.check_accounts() {
                    panic!("{ctx}, cycle {c}: {e}");
                }
                max_in_flight = max_in_flight.max(bench.link.account_ab().in_flight);
            }
            // the RX learns of a loss at the next good footer: with a few errors per packet
            // that is within a few packets, about what the wire holds
            assert!(
                ber > 1e-3 || max_in_flight <= 12,
                "{ctx}: up to {max_in_flight} packets in flight"
            );
            let during = bench.link.account_ab();
            // errors off, sources stopped: what is queued goes out clean and reveals every loss
            bench.inj_ab = exanet::link::errors::BitErrorInjector::new(ErrorPlan::None);
            bench.inj_ba = exanet::link::errors::BitErrorInjector::new(ErrorPlan::None);
            bench.a.src.mode = SourceMode::Idle;
            bench.b.src.mode = SourceMode::Idle;
            let mut drained = false;
            for c in 0..400_000 {
                bench.step();
                if let Err(e) = bench.link.check_accounts() {
                    panic!("{ctx}, drain cycle {c}: {e}");
                }
                let (ab, ba) = (bench.link.account_ab(), bench.link.account_ba());
                if ab.in_flight == 0
                    && ba.in_flight == 0
                    && bench.a.board.in_flight() == 0
                    && bench.b.board.in_flight() == 0
                {
                    drained = true;
                    break;
                }
            }
            for (dir, acc, board, src) in [
                (
                    "A->B",
                    bench.link.account_ab(),
                    &bench.a.board,
                    &bench.a.src,
                ),
                (
                    "B->A",
                    bench.link.account_ba(),
                    &bench.b.board,
                    &bench.b.src,
                ),
            ] {
                assert!(drained, "{ctx} {dir}: did not drain: {acc:?} {board:?}");
                assert!(board.errors.is_empty(), "{ctx} {dir}: {:?}", board.errors);
                assert_eq!(board.silent, 0, "{ctx} {dir}: {:?}", board.silent_log);
                assert_eq!(acc.in_flight, 0, "{ctx} {dir}: {acc:?}");
                assert_eq!(acc.sent, src.sent.len() as u64, "{ctx} {dir}");
                // a hit crc_bad bit flags an intact packet: delivered, for the link
                let (ok, fa) = (board.delivered, board.false_alarms);
                assert_eq!(acc.delivered, ok + fa, "{ctx} {dir}: {acc:?} {board:?}");
                assert_eq!(
                    acc.crc_failed,
                    board.crc_bad - fa,
                    "{ctx} {dir}: {acc:?} {board:?}"
                );
                assert_eq!(
                    acc.discarded(),
                    board.lost,
                    "{ctx} {dir}: {acc:?} {board:?}"
                );
            }
            eprintln!(
                "{ctx}: during errors {during:?} (max in flight {max_in_flight}); after: {:?}",
                bench.link.account_ab()
            );
        }
    }
}
