use exanet::config::{Config, CreditFlavour};
fn main() {
    for fl in [CreditFlavour::StartStop, CreditFlavour::Usedword] {
        let mut cfg = Config::default();
        cfg.link.credit.flavour = fl;
        for p in [16u32, 32, 64, 128, 256, 512, 1024, 2048, 4096] {
            let t = std::time::Instant::now();
            let r = exanet::measure::efficiency::efficiency(&cfg, p).unwrap();
            println!("{:>5} {:<10} sim {:.4} formula {:.4} thesis {:?} n {:.3} k {:.3} pk {} esc {} ({:?})", p, r.credit, r.simulated, r.formula, r.thesis, r.n, r.k, r.packets, r.beats.escape, t.elapsed());
        }
    }
    let cfg = Config::default();
    println!("{:?}", exanet::measure::efficiency::bandwidth(&cfg, 512).unwrap());
}
