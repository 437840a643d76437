//! APErouter measurements (Biagioni 2017 §5.3.3, Figure 5.8; §5.4.2, Figure 5.19).
//!
//! - Latency: one packet on each of the four paths of an idle router, from the cycle its header
//!   is written into the input FIFO (`wr_i` of the header/footer FIFO) to the cycle it is written
//!   into the output FIFO.
//! - Bandwidth: the node's self-test IPs, programmed through the Target Controller's registers as
//!   the thesis's software did: Traffic Generators on one or two intra-tile ports send packets to
//!   this node's intra-tile port 0, whose Consumer drains them; the Performance Counter counts the
//!   cycles from the start until the last packet is consumed. Efficiency = payload bytes / (16
//!   bytes x cycles), against the 128-bit datapath at the clock.

use crate::block::{self, Block};
use crate::config::Config;
use crate::node::regs::*;
use crate::node::target::RegReq;
use crate::node::{Node, NodeIn};
use crate::router::bench::{PortStimulus, RouterBench};
use crate::router::params::{RouterCfg, RouterParams, Slot};
use crate::router::route::Route;
use crate::stimulus::{BackPressure, SizeDist, SourceMode, TrafficSpec};
use serde::Serialize;

/// The four paths of Biagioni 2017 §5.3.3.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Path {
    /// Intra-tile TX to intra-tile RX.
    Loopback,
    /// Intra-tile TX to inter-tile TX.
    Send,
    /// Inter-tile RX to intra-tile RX.
    Receive,
    /// Inter-tile RX to inter-tile TX.
    Intermediate,
}

pub const PATHS: [Path; 4] = [
    Path::Loopback,
    Path::Send,
    Path::Receive,
    Path::Intermediate,
];

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PathLatency {
    pub path: Path,
    pub cycles: u64,
    pub ns: f64,
    /// Input and output slot (`docs/router.md`).
    pub from_slot: u32,
    pub to_slot: u32,
}

/// A destination one hop away along `dim` (the next coordinate, or the previous at the end of
/// the lattice); None when the lattice has one node along it.
fn neighbour(c: &RouterCfg, dim: usize) -> Option<[u8; 3]> {
    let mut d = c.coord;
    d[dim] = if c.coord[dim] + 1 < c.size[dim] {
        c.coord[dim] + 1
    } else {
        c.coord[dim].checked_sub(1)?
    };
    Some(d)
}

/// Where `path`'s packet enters (from an inter-tile port?, the port) and its destination.
fn path_ends(
    p: &RouterParams,
    c: &RouterCfg,
    path: Path,
) -> Result<(bool, usize, [u8; 3]), String> {
    let far = |q: usize| {
        let dim = p.inter[q].dim as usize;
        neighbour(c, dim).ok_or_else(|| {
            format!(
                "router latency: the {path:?} path goes to a neighbour along dimension {dim} (where \
                 router.inter_ports[{q}] leads), and node.lattice has one node along it"
            )
        })
    };
    Ok(match path {
        Path::Loopback => (false, 1, c.coord),
        Path::Send => (false, 1, far(0)?),
        Path::Receive => (true, 0, c.coord),
        Path::Intermediate => (true, 0, far(1)?),
    })
}

/// What the four paths need of the configuration, asked of the router's own routing function:
/// two intra-tile and two inter-tile ports, a neighbour along the dimensions of inter-tile
/// ports 0 and 1 with a port leading to it, and an intra-tile port 0 that receives.
pub fn check_paths(cfg: &Config) -> Result<(), String> {
    let p = RouterParams::from_config(cfg);
    let c = RouterCfg::from_config(cfg);
    if p.n_intra < 2 || p.inter.len() < 2 {
        return Err(
            "router latency: the four paths need at least two intra-tile ports \
             (router.intra_ports) and two inter-tile ports (router.inter_ports)"
                .into(),
        );
    }
    for path in PATHS {
        let (_, _, dst) = path_ends(&p, &c, path)?;
        let to_intra = matches!(path, Path::Loopback | Path::Receive);
        match crate::router::route::route_to(dst, 0, &p, &c, true) {
            Route::Out { slot, .. } if matches!(p.slot(slot), Slot::Intra(_)) == to_intra => {}
            r => {
                return Err(format!(
                    "router latency: the {path:?} path's packet to {dst:?}, intra-tile port 0, \
                     would not leave by {} port ({r:?}): router.inter_ports, \
                     router.tx_only_ports and node give it no way",
                    if to_intra {
                        "an intra-tile"
                    } else {
                        "an inter-tile"
                    }
                ))
            }
        }
    }
    Ok(())
}

/// The latency of one path in an idle router.
pub fn path_latency(cfg: &Config, path: Path) -> Result<PathLatency, String> {
    check_paths(cfg)?;
    let p = RouterParams::from_config(cfg);
    let c = RouterCfg::from_config(cfg);
    let (from_inter, src_port, dst) = path_ends(&p, &c, path)?;
    let dst = (dst, 0);
    let nv = p.num_vcs;
    let mut intra: Vec<PortStimulus> = (0..p.n_intra).map(|_| PortStimulus::idle(nv)).collect();
    let mut inter: Vec<PortStimulus> = (0..p.inter.len()).map(|_| PortStimulus::idle(nv)).collect();
    let inject = 100;
    let st = PortStimulus {
        traffic: TrafficSpec::new(SizeDist::Fixed(64), 1, p.size_in_words).to(vec![dst]),
        mode: SourceMode::AtCycles([inject].into_iter().collect()),
        back_pressure: BackPressure::None,
        seed: cfg.sim.seed,
    };
    let from_slot = if from_inter {
        inter[src_port] = st;
        p.inter_slot(src_port as u32, 0)
    } else {
        intra[src_port] = st;
        p.intra_slot(src_port as u32)
    };
    let mut b = RouterBench::new(p, c, intra, inter);
    let mut written: Option<u64> = None;
    for _ in 0..inject + 1000 {
        let src = if from_inter {
            &b.inter_src[src_port]
        } else {
            &b.intra_src[src_port]
        };
        if written.is_none() && src.wr_hf != 0 {
            written = Some(b.cycle);
        }
        if let Some(t0) = written {
            for o in b.router.outs.iter().flatten() {
                if o.r.owr_valid && o.r.owr_src == from_slot {
                    let cycles = b.cycle - t0;
                    let expect_intra = matches!(path, Path::Loopback | Path::Receive);
                    let is_intra = matches!(b.router.p.slot(o.index), Slot::Intra(_));
                    if expect_intra != is_intra {
                        return Err(format!(
                            "{path:?}: the packet left by slot {} instead",
                            o.index
                        ));
                    }
                    return Ok(PathLatency {
                        path,
                        cycles,
                        ns: cfg.clock().ns(cycles as f64),
                        from_slot,
                        to_slot: o.index,
                    });
                }
            }
        }
        b.step();
    }
    Err(format!("{path:?}: the header did not reach an output FIFO"))
}

/// One row of the bandwidth sweep.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BandwidthRow {
    pub payload_bytes: u32,
    pub intra_ports: u32,
    pub packets: u32,
    pub cycles: u32,
    pub efficiency: f64,
    pub gbps: f64,
}

/// The processing system's side of the register interface: one access every other cycle.
pub struct RegPort<'a> {
    pub node: &'a mut Node,
    pub input: NodeIn,
}

impl RegPort<'_> {
    fn access(&mut self, req: RegReq) -> Result<u32, String> {
        self.input.reg = req;
        block::step(self.node, &self.input);
        self.input.reg = RegReq::default();
        let (ack, rdata, err) = self.node.reg_response();
        block::step(self.node, &self.input);
        if !ack {
            return Err(format!(
                "register access to {:#05x} not acknowledged",
                req.addr
            ));
        }
        if err {
            return Err(format!(
                "register access to {:#05x} answered with an error",
                req.addr
            ));
        }
        Ok(rdata)
    }

    pub fn write(&mut self, addr: u16, v: u32) -> Result<(), String> {
        self.access(RegReq {
            wr: true,
            addr,
            wdata: v,
            ..Default::default()
        })
        .map(|_| ())
    }

    pub fn read(&mut self, addr: u16) -> Result<u32, String> {
        self.access(RegReq {
            rd: true,
            addr,
            ..Default::default()
        })
    }

    /// Let `n` cycles pass with no access.
    pub fn idle(&mut self, n: u64) {
        for _ in 0..n {
            block::step(self.node, &self.input);
        }
    }
}

/// The self-test on one node: `senders` intra-tile ports (1 or 2, ports 1 and 2) send packets of
/// `payload` bytes to this node's intra-tile port 0.
pub fn selftest_bandwidth(
    cfg: &Config,
    payload: u32,
    senders: u32,
) -> Result<BandwidthRow, String> {
    if !(1..=2).contains(&senders) || cfg.router.intra_ports < senders + 1 {
        return Err(format!(
            "{senders} sending intra-tile ports need {} intra-tile ports",
            senders + 1
        ));
    }
    let mut node = Node::reset(cfg);
    let words = payload.div_ceil(16);
    // enough packets for about 20,000 cycles of transfer
    let per_sender = (20_000 / (words + 10)).max(32);
    let mut sw = RegPort {
        node: &mut node,
        input: NodeIn::default(),
    };
    let coord = sw.read(COORD)?;
    sw.write(ST_PKT, payload)?; // type RDMA, VC 0
    sw.write(ST_DEST, coord & 0xff_ffff)?; // this node, intra-tile port 0
    sw.write(ST_COUNT, per_sender)?;
    sw.write(ST_CONS_EN, 0b1)?;
    sw.write(ST_GEN_EN, if senders == 1 { 0b010 } else { 0b110 })?;
    sw.write(ST_CTRL, 1)?;
    let limit = per_sender as u64 * (words as u64 + 20) * 2 * senders as u64 + 10_000;
    let mut waited = 0;
    loop {
        sw.idle(62);
        waited += 64;
        if sw.read(PERF_STATUS)? & 2 == 2 {
            break;
        }
        if waited > limit {
            return Err(format!(
                "the self-test at {payload} bytes did not finish in {limit} cycles"
            ));
        }
    }
    let cycles = sw.read(PERF_CYCLES)?;
    let consumed = sw.read(ST_CONS_PKTS)?;
    let packets = per_sender * senders;
    if consumed != packets {
        return Err(format!(
            "the consumer received {consumed} of {packets} packets"
        ));
    }
    let drops = sw.read(DROPS)?;
    if drops != 0 {
        return Err(format!("the router dropped {drops} self-test packets"));
    }
    let bytes = packets as f64 * payload as f64;
    let efficiency = bytes / (16.0 * cycles as f64);
    let clock = cfg.clock();
    Ok(BandwidthRow {
        payload_bytes: payload,
        intra_ports: senders,
        packets,
        cycles,
        efficiency,
        gbps: efficiency * clock.bus_bps(128) / 1e9,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_configuration_without_one_of_the_four_paths_is_named() {
        type Mutation = fn(&mut Config);
        let cases: [(&str, Mutation); 4] = [
            ("node.lattice", |c| c.node.lattice = [2, 1, 1]),
            ("router.inter_ports", |c| {
                c.router.inter_ports[1].dir = crate::config::Dir::Minus
            }),
            ("router.tx_only_ports", |c| c.router.tx_only_ports = vec![0]),
            ("router.intra_ports", |c| c.router.intra_ports = 1),
        ];
        check_paths(&Config::default()).unwrap();
        for (field, mutate) in cases {
            let mut c = Config::default();
            mutate(&mut c);
            c.validate().unwrap();
            let e = check_paths(&c).unwrap_err();
            assert!(e.contains(field), "{field}: {e}");
            // the measurement refuses it too, instead of waiting for a packet that is dropped
            assert_eq!(path_latency(&c, Path::Intermediate).unwrap_err(), e);
        }
    }
}
