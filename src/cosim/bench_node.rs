//! `exanet bench node`: simulated cycles per second of the ExaNet Network IP node (router, two
//! APElinks, Target Controller, self-test IPs) and its two neighbour link ends, for the Rust
//! model, the Verilated RTL, and the two in lockstep.
//!
//! Saturating self-test traffic: the software (register writes through the Target Controller)
//! starts the Traffic Generators of all intra-tile ports, sending 4096-byte packets without end
//! to the X neighbour, so the router's send path and the X link run flat out; both neighbours
//! send 4096-byte packets to the node's intra-tile port 0, where the self-test Consumer drains
//! them (receive path, both links the other way); the neighbours drain whatever arrives. One run
//! of that test bench records the top's inputs for every cycle; the trace is replayed into a
//! fresh Rust node and into the Verilated node, which simulate exactly the same cycles. Lockstep
//! is timed as `exanet cosim --design node` runs it.

use super::bench::{max_trace_cycles, replay_rtl, too_many_cycles, BenchReport};
use super::lockstep::{Options, Simulator, PROGRESS_BATCH};
use super::node_design::{check_structural, node_input_names, node_input_values, run_node};
use super::rtl::RtlTop;
use crate::config::Config;
use crate::link::system::EndTbIn;
use crate::node::regs::*;
use crate::node::target::RegReq;
use crate::node::top::{NodeTop, NodeTopIn};
use crate::pktfifo::PktFifo;
use crate::progress::Progress;
use crate::stimulus::{PacketGen, SizeDist, Source, SourceMode, TrafficSpec};
use std::collections::VecDeque;
use std::time::Instant;

/// `exanet bench node --cycles` at most: the node's recorded inputs within the budget.
pub const MAX_NODE_CYCLES: u64 = max_trace_cycles::<NodeTopIn>();

/// Cycles the lockstep part of `exanet bench node` runs at most.
pub const NODE_LOCKSTEP_CYCLES: u64 = 200_000;

/// Payload of the self-test's packets, bytes.
const PKT_BYTES: u32 = 4096;

/// The fewest cycles in which the self-test sends a packet, so that the bench measures the
/// traffic it is about: the register program (one write every other cycle from cycle 1, so the
/// last, `ST_CTRL`, is on the port in cycle `2 n - 1`), the cycle of the Target Controller's
/// start pulse (`st_start_q`; the generators latch it at its end), then the first packet's
/// words, one a cycle (header, payload, footer), the last of which counts it sent.
pub fn min_cycles(cfg: &Config) -> u64 {
    let last_write = 2 * program(cfg).len() as u64 - 1;
    let words = PKT_BYTES.div_ceil(16) as u64 + 2;
    (last_write + 1) + 1 + words
}

/// The cycles every phase of `exanet bench node --cycles cycles` runs, in all (what its
/// progress line counts): recording, model, RTL, lockstep.
pub fn node_total_cycles(cycles: u64) -> u64 {
    3 * cycles + cycles.min(NODE_LOCKSTEP_CYCLES)
}

/// The register writes that start the self-test, one every other cycle.
fn program(cfg: &Config) -> VecDeque<RegReq> {
    let ni = cfg.router.intra_ports;
    let w = |addr, wdata| RegReq {
        wr: true,
        addr,
        wdata,
        ..Default::default()
    };
    let mut x = cfg.node.coord;
    x[0] = (x[0] + 1) % cfg.node.lattice[0];
    let nb = x[0] as u32 | (x[1] as u32) << 8 | (x[2] as u32) << 16;
    VecDeque::from([
        w(ST_PKT, PKT_BYTES),
        w(ST_DEST, nb),
        w(ST_COUNT, u32::MAX),
        w(ST_CONS_EN, 0b1),
        w(ST_GEN_EN, (1 << ni) - 1),
        w(ST_CTRL, 1),
    ])
}

/// The saturating test bench: records the top's inputs of `cycles` cycles, and counts the
/// payload words delivered (self-test consumer and neighbours). Returns the trace, the top
/// after it, and that count. (Also the stimulus of the node's visiting-order test.)
pub fn record(
    cfg: &Config,
    cycles: u64,
    progress: &Progress,
) -> Result<(Vec<NodeTopIn>, NodeTop, u64), String> {
    let mut top = NodeTop::new(cfg);
    let rp = top.node.p.router.clone();
    let nq = rp.inter.len();
    let me = cfg.node.coord;
    let traffic = TrafficSpec::new(SizeDist::Fixed(PKT_BYTES), rp.num_vcs, rp.size_in_words)
        .to(vec![(me, 0)]);
    let mut nb_src: Vec<Source> = (0..nq)
        .map(|q| {
            let gen = PacketGen::with_base(traffic.clone(), cfg.sim.seed.wrapping_add(q as u64), 0);
            let mut s = Source::new(gen, SourceMode::Saturate, true);
            s.keep_packets = false;
            s
        })
        .collect();
    let mut prog = program(cfg);
    let mut req = RegReq::default();
    let mut trace = Vec::with_capacity(cycles as usize);
    let mut nb_words = 0u64;
    for c in 0..cycles {
        let mut i = NodeTopIn::default();
        i.node.reg = req;
        for (q, s) in nb_src.iter().enumerate() {
            // the neighbour pops every word its RX FIFOs show
            let e = &top.nbs[q];
            let mut tb = EndTbIn {
                tx_wr_hf: s.wr_hf,
                tx_wr_pay: s.wr_pay,
                tx_wdata: s.wdata,
                ..Default::default()
            };
            for (v, f) in e.rx_fifos.iter().enumerate() {
                tb.rx_rd_hf |= (!f.hf.empty() as u8) << v;
                tb.rx_rd_pay |= (!f.pay.empty() as u8) << v;
            }
            nb_words += tb.rx_rd_pay.count_ones() as u64;
            i.nb[q] = tb;
        }
        for (q, s) in nb_src.iter_mut().enumerate() {
            let f: Vec<&PktFifo> = top.nbs[q].tx_fifos.iter().collect();
            s.step(c, &f);
        }
        let (ack, _, err) = top.node.reg_response();
        if ack && err {
            return Err("the node refused a self-test register write".into());
        }
        req = if req.wr || req.rd {
            RegReq::default()
        } else {
            prog.pop_front().unwrap_or_default()
        };
        top.step(&i);
        trace.push(i);
        progress.every(c, PROGRESS_BATCH);
    }
    // payload words delivered: popped by the neighbours, and by the node's self-test consumers
    let cons: u64 = top
        .node
        .cons
        .iter()
        .map(|c| c.words as u64 - 2 * c.pkts as u64)
        .sum();
    Ok((trace, top, nb_words + cons))
}

/// What `exanet bench node` can run: the Verilated node's structure, [`min_cycles`] to
/// [`MAX_NODE_CYCLES`] cycles.
pub fn check_node(cfg: &Config, cycles: u64) -> Result<(), String> {
    if check_structural(cfg)? != crate::cosim::RtlTop::Node {
        return Err(format!(
            "the node bench runs the {} shape (the configuration's router structure is \
             another; `cosim --design node` runs the others)",
            crate::cosim::shapes::KARMA
        ));
    }
    if cfg.link.phy.ber > 0.0 {
        return Err(format!(
            "link.phy.ber = {}: the {} bench measures speed on error-free traffic (its recorded \
             test bench has no error injector); set it to 0",
            cfg.link.phy.ber, "node"
        ));
    }
    let min = min_cycles(cfg);
    if cycles < min {
        return Err(format!(
            "--cycles: {cycles}: bench node needs at least {min} cycles (the self-test's \
             register writes and its first {PKT_BYTES}-byte packet)"
        ));
    }
    if cycles > MAX_NODE_CYCLES {
        return Err(too_many_cycles::<NodeTopIn>(
            "node",
            cycles,
            MAX_NODE_CYCLES,
        ));
    }
    Ok(())
}

/// `cycles` as [`check_node`] says; `progress` counts [`node_total_cycles`].
pub fn bench_node(cfg: &Config, cycles: u64, progress: &Progress) -> Result<BenchReport, String> {
    check_node(cfg, cycles)?;
    // Record (and time the model with its test bench).
    progress.set_message("recording the test bench's inputs");
    let t = Instant::now();
    let (trace, recorded, payload) = record(cfg, cycles, progress)?;
    let with_bench = cycles as f64 / t.elapsed().as_secs_f64();
    if recorded.node.gens.iter().all(|g| g.sent == 0) {
        return Err("the self-test did not start".into());
    }

    // The Rust node alone, replaying the trace.
    let mut top = NodeTop::new(cfg);
    progress.set_position(cycles);
    progress.set_message("Rust model");
    let t = Instant::now();
    for (k, i) in trace.iter().enumerate() {
        top.step(i);
        progress.every(k as u64, PROGRESS_BATCH);
    }
    let model = cycles as f64 / t.elapsed().as_secs_f64();
    let sent = |t: &NodeTop| {
        (t.node.dp.links.iter().flatten())
            .map(|x| x.tcl.tx.stat_pkts)
            .collect::<Vec<_>>()
    };
    if sent(&top) != sent(&recorded) {
        return Err("the replayed node did not follow the recorded run".into());
    }

    // The Verilated node alone, same inputs.
    let names = node_input_names(&top);
    let fresh = NodeTop::new(cfg);
    progress.set_position(2 * cycles);
    progress.set_message("Verilated RTL");
    let (rtl, rtl_cps) = replay_rtl(
        RtlTop::Node,
        &names,
        trace.len(),
        |k, v| node_input_values(&fresh, &trace[k], v),
        progress,
    )?;
    let name = "TOP.exanet_node_top.u_node.gen_link[0].u_tcl.u_tx.stat_pkts_q";
    let pkts = rtl.find(name).map(|id| rtl.get(id));
    if pkts != Some(top.node.dp.link(0).tcl.tx.stat_pkts as u128) {
        return Err(format!(
            "the Verilated node did not follow the recorded run ({name} = {pkts:?}, model {})",
            top.node.dp.link(0).tcl.tx.stat_pkts
        ));
    }
    drop(trace);

    // Lockstep, as `exanet cosim --design node` runs it.
    let lock_cycles = cycles.min(NODE_LOCKSTEP_CYCLES);
    progress.set_position(3 * cycles);
    progress.set_message("lockstep");
    let t = Instant::now();
    run_node(
        cfg,
        &Options {
            cycles: lock_cycles,
            progress: progress.clone(),
            ..Default::default()
        },
        Simulator::Verilator,
    )
    .map_err(|e| e.to_string())?;
    let lockstep_cps = lock_cycles as f64 / t.elapsed().as_secs_f64();

    Ok(BenchReport {
        design: "node".into(),
        traffic: "saturating self-test traffic (4096-byte packets from every intra-tile port to \
                  the X neighbour; both neighbours to intra-tile port 0)"
            .into(),
        cycles,
        model_cycles_per_s: model,
        rtl_cycles_per_s: rtl_cps,
        lockstep_cycles_per_s: lockstep_cps,
        model_with_bench_cycles_per_s: with_bench,
        model_over_rtl: model / rtl_cps,
        goal_model_over_rtl: 5.0,
        payload_beats_per_cycle: payload as f64 / cycles as f64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_self_test_sends_its_first_packet_in_exactly_min_cycles() {
        let cfg = Config::default();
        let min = min_cycles(&cfg);
        let sent = |n| {
            let (_, top, _) = record(&cfg, n, &Progress::hidden()).unwrap();
            top.node.gens.iter().map(|g| g.sent).sum::<u32>()
        };
        assert_eq!(sent(min - 1), 0, "not sent at {} cycles", min - 1);
        assert!(sent(min) > 0, "sent at {min} cycles");
    }

    #[test]
    fn too_few_and_too_many_cycles_are_refused_naming_the_bound() {
        let cfg = Config::default();
        let min = min_cycles(&cfg);
        let e = bench_node(&cfg, min - 1, &Progress::hidden()).unwrap_err();
        assert!(
            e.contains("--cycles") && e.contains(&min.to_string()),
            "{e}"
        );
        let e = bench_node(&cfg, MAX_NODE_CYCLES + 1, &Progress::hidden()).unwrap_err();
        assert!(
            e.contains("--cycles") && e.contains(&MAX_NODE_CYCLES.to_string()),
            "{e}"
        );
    }
}
