//! The KARMA test bed simulated by the Verilated `exanet_karma_top` (four RTL nodes in a 2x2
//! mesh), behind the same [`MeshBackend`] as the Rust model: the emulated ARMs drive its ports,
//! read its outputs, and the measurement reads the same tapped registers by their RTL names.
//! One `step` is one clock cycle: inputs set with the clock low, then the rising edge.

use super::mesh::{MeshBackend, NodeOut, NodeTbIn, Tap, LINKS, NODES};
use crate::cosim::lockstep::TopInputs;
use crate::cosim::rtl::{RtlModel, RtlTop, SignalId};
use crate::wave::WaveFormat;
use std::collections::HashMap;
use std::path::Path;

pub struct RtlMesh {
    rtl: RtlModel,
    inputs: TopInputs,
    values: Vec<u128>,
    n_intra: usize,
    /// Per node: reg_ack_o, reg_rdata_o, reg_err_o, ps_rx_hf_empty_o, ps_rx_pay_empty_o.
    out_ids: Vec<[SignalId; 5]>,
    /// Per node and intra-tile port: ps_rx_hf_rdata_o, ps_rx_pay_rdata_o.
    data_ids: Vec<[SignalId; 2]>,
    taps: HashMap<Tap, [SignalId; 2]>,
    cycle: u64,
    wave: Option<u64>,
}

fn find(rtl: &RtlModel, name: &str) -> Result<SignalId, String> {
    rtl.find(name)
        .ok_or_else(|| format!("the Verilated exanet_karma_top has no signal {name}"))
}

/// The top's inputs the test bench drives, in the order of `RtlMesh::set_values`.
fn input_names(n_intra: usize) -> Vec<String> {
    let mut n = Vec::new();
    for k in 0..NODES {
        for s in [
            "reg_wr_i",
            "reg_rd_i",
            "reg_addr_i",
            "reg_wdata_i",
            "ps_wr_hf_i",
            "ps_wr_pay_i",
            "ps_rd_hf_i",
            "ps_rd_pay_i",
        ] {
            n.push(format!("TOP.{s}[{k}]"));
        }
    }
    for j in 0..NODES * n_intra {
        n.push(format!("TOP.ps_wdata_i[{j}]"));
    }
    for j in 0..NODES * LINKS {
        n.push(format!("TOP.link_err_mask_i[{j}]"));
    }
    n
}

impl RtlMesh {
    /// The Verilated test bed out of reset, with the registers `taps` will be asked for.
    pub fn new(n_intra: usize, taps: &[Tap]) -> Result<RtlMesh, String> {
        let mut rtl = RtlModel::new(RtlTop::Karma).map_err(|e| e.to_string())?;
        let names = input_names(n_intra);
        let inputs = TopInputs::new(&rtl, &names)?;
        let mut out_ids = Vec::new();
        let mut data_ids = Vec::new();
        for k in 0..NODES {
            let o = |s: &str| find(&rtl, &format!("TOP.{s}[{k}]"));
            out_ids.push([
                o("reg_ack_o")?,
                o("reg_rdata_o")?,
                o("reg_err_o")?,
                o("ps_rx_hf_empty_o")?,
                o("ps_rx_pay_empty_o")?,
            ]);
            for p in 0..n_intra {
                let j = k * n_intra + p;
                data_ids.push([
                    find(&rtl, &format!("TOP.ps_rx_hf_rdata_o[{j}]"))?,
                    find(&rtl, &format!("TOP.ps_rx_pay_rdata_o[{j}]"))?,
                ]);
            }
        }
        let mut tap_ids = HashMap::new();
        for &t in taps {
            let [a, b] = t.names();
            tap_ids.insert(t, [find(&rtl, &a)?, find(&rtl, &b)?]);
        }
        let values = vec![0; names.len()];
        inputs.set(&mut rtl, &values)?;
        inputs.reset(&mut rtl)?;
        Ok(RtlMesh {
            rtl,
            inputs,
            values,
            n_intra,
            out_ids,
            data_ids,
            taps: tap_ids,
            cycle: 0,
            wave: None,
        })
    }

    fn set_values(&mut self, tb: &[NodeTbIn; NODES]) {
        let ni = self.n_intra;
        let mask = |f: &dyn Fn(usize) -> bool| (0..ni).fold(0u128, |m, p| m | (f(p) as u128) << p);
        let v = &mut self.values;
        v.clear();
        for t in tb {
            v.extend([
                t.reg.wr as u128,
                t.reg.rd as u128,
                t.reg.addr as u128,
                t.reg.wdata as u128,
                mask(&|p| t.ps[p].wr_hf),
                mask(&|p| t.ps[p].wr_pay),
                mask(&|p| t.ps[p].rd_hf),
                mask(&|p| t.ps[p].rd_pay),
            ]);
        }
        for t in tb {
            v.extend(t.ps[..ni].iter().map(|p| p.wdata));
        }
        for t in tb {
            v.extend(t.err_mask.iter().map(|&m| m as u128));
        }
    }
}

impl MeshBackend for RtlMesh {
    fn step(&mut self, tb: &[NodeTbIn; NODES]) {
        self.set_values(tb);
        // the names were found at construction; setting a known input cannot fail
        let ok = self.inputs.set(&mut self.rtl, &self.values).is_ok()
            && self.inputs.clk(&mut self.rtl, false).is_ok();
        assert!(ok, "inputs of exanet_karma_top found at construction");
        self.rtl.eval();
        if let Some(p) = self.wave {
            self.rtl.trace_dump(p * self.cycle);
        }
        let ok = self.inputs.clk(&mut self.rtl, true).is_ok();
        assert!(ok, "clock of exanet_karma_top found at construction");
        self.rtl.eval();
        if let Some(p) = self.wave {
            self.rtl.trace_dump(p * self.cycle + p / 2);
        }
        self.cycle += 1;
    }

    fn out(&self, k: usize) -> NodeOut {
        let g = |id: SignalId| self.rtl.get(id);
        let ids = &self.out_ids[k];
        let mut o = NodeOut {
            reg_ack: g(ids[0]) != 0,
            reg_rdata: g(ids[1]) as u32,
            reg_err: g(ids[2]) != 0,
            ps_rx_hf_empty: g(ids[3]) as u8,
            ps_rx_pay_empty: g(ids[4]) as u8,
            ..Default::default()
        };
        for p in 0..self.n_intra {
            let d = &self.data_ids[k * self.n_intra + p];
            o.ps_rx_hf_rdata[p] = g(d[0]);
            o.ps_rx_pay_rdata[p] = g(d[1]);
        }
        o
    }

    fn tap(&self, t: Tap) -> u8 {
        let ids = self
            .taps
            .get(&t)
            .expect("every tap is named to RtlMesh::new");
        (self.rtl.get(ids[0]) != 0) as u8 | ((self.rtl.get(ids[1]) != 0) as u8) << 1
    }

    fn error(&self) -> Option<String> {
        self.rtl
            .got_error()
            .then(|| format!("cycle {}: an RTL assertion failed", self.cycle))
    }

    fn wave_open(&mut self, path: &Path, format: WaveFormat, period_ps: u64) -> Result<(), String> {
        self.rtl
            .trace_open_as(path, format)
            .map_err(|e| e.to_string())?;
        self.wave = Some(period_ps);
        Ok(())
    }

    fn wave_close(&mut self) -> Result<(), String> {
        if self.wave.take().is_some() {
            self.rtl.trace_finish().map_err(|e| e.to_string())?;
        }
        Ok(())
    }
}
