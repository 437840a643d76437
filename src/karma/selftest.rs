//! Bandwidth on the KARMA test bed with the nodes' self-test IPs (Biagioni 2017 §5.4.2, Figures 5.19
//! and 5.20), programmed by the boards' emulated ARMs through the Target Controllers:
//!
//! - **router**: on node (0,0), the Traffic Generators of intra-tile ports 1 (and 2) send to
//!   intra-tile port 0, whose Consumer drains; the node's Performance Counter counts the cycles
//!   from the start to the last packet consumed. Efficiency against 128 bit x the clock.
//! - **link**: node (0,0)'s Traffic Generator on intra-tile port 1 sends to intra-tile port 0 of
//!   node (1,0) over their APElink; node (1,0)'s Consumer drains and its Performance Counter
//!   counts. Both boards' scripts issue the same number of register writes before the start, so
//!   the two nodes start in the same cycle. Efficiency against the PHY's 10 Gb/s (64 bit x the
//!   clock).

use super::mesh::{coord, NODES};
use super::pingpong::{Backend, Bed};
use super::software::{Mode, Script};
use crate::config::Config;
use crate::node::regs::*;
use serde::Serialize;

/// What a row measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Path {
    /// Through one router, from 1 or 2 intra-tile ports to one.
    Router,
    /// Over one APElink between neighbours.
    Link,
}

#[derive(Debug, Clone, Serialize)]
pub struct SelftestRow {
    pub path: Path,
    pub payload_bytes: u32,
    /// Sending intra-tile ports.
    pub senders: u32,
    pub packets: u32,
    /// The Performance Counter's count.
    pub cycles: u32,
    pub gbps: f64,
    /// Delivered payload over the path's raw rate (router: 128 bit x clock; link: 64 bit x
    /// clock).
    pub efficiency: f64,
}

/// Packets per sender for about 20,000 cycles of transfer (at least 32).
fn packets_for(payload: u32) -> u32 {
    (20_000 / (payload.div_ceil(16) + 10)).max(32)
}

fn w(addr: u16, data: u32) -> Script {
    Script::Write { addr, data }
}

/// Cycles after which a self-test transfer that has not finished is given up.
const TRANSFER_LIMIT_CYCLES: u64 = 5_000_000;

/// Run the boards' scripts until all are done, then each board's reads.
fn run_scripts(bed: &mut Bed, scripts: &[Vec<Script>]) -> Result<Vec<Vec<(u16, u32)>>, String> {
    let now = bed.now();
    for (k, s) in scripts.iter().enumerate() {
        bed.sw[k].reads.clear();
        if !s.is_empty() {
            bed.sw[k].start_script(s, now);
        }
    }
    let limit = bed.cycle + TRANSFER_LIMIT_CYCLES;
    while bed.sw.iter().any(|s| s.busy()) {
        bed.step()?;
        if bed.cycle > limit {
            return Err(format!(
                "karma selftest: the transfer did not finish in {TRANSFER_LIMIT_CYCLES} cycles \
                 (with bit errors on the links, link.phy.ber, a packet a link loses never \
                 reaches the Consumer, which waits for all of them: the self-test has no \
                 timeout)"
            ));
        }
    }
    let errors: u32 = bed.sw.iter().map(|s| s.arm.reg_errors).sum();
    if errors > 0 {
        return Err(format!(
            "karma selftest: {errors} register accesses refused"
        ));
    }
    Ok(bed.sw.iter().map(|s| s.reads.clone()).collect())
}

fn dest(node: usize, port: u32) -> u32 {
    let c = coord(node);
    c[0] as u32 | (c[1] as u32) << 8 | (c[2] as u32) << 16 | port << 24
}

/// One self-test transfer on a fresh, booted test bed.
pub fn measure(
    cfg: &Config,
    backend: Backend,
    path: Path,
    payload: u32,
    senders: u32,
) -> Result<SelftestRow, String> {
    if cfg.router.intra_ports < senders + 1 {
        return Err(format!(
            "karma selftest: {senders} senders need {} intra-tile ports",
            senders + 1
        ));
    }
    let mut bed = Bed::new(cfg, backend, Mode::User, cfg.link.phy.ber)?;
    bed.boot()?;
    let n = packets_for(payload);
    let (sender, receiver) = match path {
        Path::Router => (0, 0),
        Path::Link => (0, 1),
    };
    let gen_en = if senders == 1 { 0b010 } else { 0b110 };
    let mut scripts = vec![Vec::new(); NODES];
    let start = [
        w(ST_PKT, payload),
        w(ST_DEST, dest(receiver, 0)),
        w(ST_COUNT, n),
        w(ST_GEN_EN, gen_en),
        w(ST_CTRL, 1),
    ];
    let finish = [
        Script::WaitSet {
            addr: PERF_STATUS,
            mask: 2,
        },
        Script::Read { addr: PERF_CYCLES },
        Script::Read { addr: ST_CONS_PKTS },
        Script::Read { addr: DROPS },
    ];
    let expect = n * senders;
    if sender == receiver {
        scripts[sender].extend([w(ST_CONS_EN, 1), w(ST_EXPECT, expect)]);
        scripts[sender].extend(start);
        scripts[sender].extend(finish);
    } else {
        // the receiver starts in the same cycle as the sender: five writes each
        scripts[sender].extend(start);
        scripts[receiver].extend([
            w(ST_CONS_EN, 1),
            w(ST_EXPECT, expect),
            w(ST_GEN_EN, 0),
            w(ST_COUNT, 0),
            w(ST_CTRL, 1),
        ]);
        scripts[receiver].extend(finish);
    }
    let reads = run_scripts(&mut bed, &scripts)?;
    let r = &reads[receiver];
    let val = |a: u16| {
        r.iter()
            .find(|x| x.0 == a)
            .map(|x| x.1)
            .ok_or_else(|| format!("karma selftest: register {a:#05x} was not read"))
    };
    let (cycles, consumed, drops) = (val(PERF_CYCLES)?, val(ST_CONS_PKTS)?, val(DROPS)?);
    if consumed != expect || drops != 0 {
        return Err(format!(
            "karma selftest: {consumed} of {expect} packets consumed, {drops} dropped"
        ));
    }
    let bits = expect as f64 * payload as f64 * 8.0;
    let secs = cfg.clock().ns(cycles as f64) * 1e-9;
    let gbps = bits / secs / 1e9;
    let raw = cfg.clock().bus_bps(match path {
        Path::Router => 128,
        Path::Link => 64,
    }) / 1e9;
    Ok(SelftestRow {
        path,
        payload_bytes: payload,
        senders,
        packets: expect,
        cycles,
        gbps,
        efficiency: gbps / raw,
    })
}
