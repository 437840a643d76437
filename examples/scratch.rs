use exanet::config::Config;
use exanet::measure::router::*;
fn main() {
    let cfg = Config::default();
    for p in PATHS {
        println!("{:?}", path_latency(&cfg, p));
    }
    for pl in [16u32, 64, 512, 4096] {
        for s in [1, 2] {
            println!("{:?}", selftest_bandwidth(&cfg, pl, s));
        }
    }
}
