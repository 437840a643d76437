use exanet::config::Config;
use exanet::router::bench::{PortStimulus, RouterBench};
use exanet::router::params::{RouterCfg, RouterParams};
use exanet::stimulus::*;
fn one(cfg: &Config, from_inter: bool, port: usize, dst: ([u8; 3], u8)) -> Option<u64> {
    let p = RouterParams::from_config(cfg);
    let c = RouterCfg::from_config(cfg);
    let mut intra: Vec<PortStimulus> = (0..p.n_intra).map(|_| PortStimulus::idle(2)).collect();
    let mut inter: Vec<PortStimulus> = (0..p.inter.len()).map(|_| PortStimulus::idle(2)).collect();
    let st = PortStimulus {
        traffic: TrafficSpec::new(SizeDist::Fixed(64), 1, false).to(vec![dst]),
        mode: SourceMode::AtCycles([100].into_iter().collect()),
        back_pressure: BackPressure::None,
        seed: 5,
    };
    let in_slot = if from_inter {
        inter[port] = st;
        p.inter_slot(port as u32, 0)
    } else {
        intra[port] = st;
        port as u32
    };
    let mut b = RouterBench::new(p, c, intra, inter);
    let mut t0 = None;
    for _ in 0..400 {
        let src = if from_inter {
            &b.inter_src[port]
        } else {
            &b.intra_src[port]
        };
        if t0.is_none() && src.wr_hf != 0 {
            t0 = Some(b.cycle);
        }
        for o in b.router.outs.iter().flatten() {
            if o.r.owr_valid && o.r.owr_src == in_slot && t0.is_some() {
                return Some(b.cycle - t0.unwrap());
            }
        }
        b.step();
    }
    None
}
fn bw(cfg: &Config, senders: &[usize], payload: u32) -> f64 {
    let p = RouterParams::from_config(cfg);
    let c = RouterCfg::from_config(cfg);
    let mut intra: Vec<PortStimulus> = (0..p.n_intra).map(|_| PortStimulus::idle(2)).collect();
    let inter: Vec<PortStimulus> = (0..p.inter.len()).map(|_| PortStimulus::idle(2)).collect();
    for &s in senders {
        intra[s] = PortStimulus {
            traffic: TrafficSpec::new(SizeDist::Fixed(payload), 1, false).to(vec![([0, 0, 0], 0)]),
            mode: SourceMode::Saturate,
            back_pressure: BackPressure::None,
            seed: s as u64,
        };
    }
    let mut b = RouterBench::new(p, c, intra, inter);
    b.run(5000);
    let (c0, b0) = (b.cycle, b.board.payload_bytes);
    b.run(50000);
    assert!(b.board.errors.is_empty(), "{:?}", b.board.errors);
    (b.board.payload_bytes - b0) as f64 / (16.0 * (b.cycle - c0) as f64)
}
fn main() {
    let cfg = Config::default();
    println!("loopback {:?}", one(&cfg, false, 1, ([0, 0, 0], 0)));
    println!("send {:?}", one(&cfg, false, 1, ([1, 0, 0], 0)));
    println!("receive {:?}", one(&cfg, true, 0, ([0, 0, 0], 0)));
    println!("intermediate {:?}", one(&cfg, true, 0, ([0, 1, 0], 0)));
    for pl in [16u32, 64, 256, 512, 1024, 4096] {
        println!(
            "{pl}: one {:.4} two {:.4}",
            bw(&cfg, &[1], pl),
            bw(&cfg, &[1, 2], pl)
        );
    }
}
