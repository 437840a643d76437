//! The thesis's link figures, reproduced by simulating the blocks.

use exanet::config::{Config, CreditFlavour};
use exanet::measure::efficiency::{bandwidth, efficiency, formula, TABLE_5_4};

#[test]
fn efficiency_matches_table_5_4_from_16_to_512_bytes_in_both_flavours() {
    for flavour in [CreditFlavour::StartStop, CreditFlavour::Usedword] {
        let mut cfg = Config::default();
        cfg.link.credit.flavour = flavour;
        for &(payload, ss, uw) in TABLE_5_4.iter().filter(|r| r.0 <= 512) {
            let r = efficiency(&cfg, payload).unwrap();
            let thesis = if flavour == CreditFlavour::StartStop {
                ss
            } else {
                uw
            };
            assert!(
                (r.simulated - thesis).abs() <= 0.02,
                "{flavour:?} {payload} B: simulated {:.4}, thesis {thesis}",
                r.simulated
            );
            // the formula with the n and k of this run describes the run
            assert!((r.formula - r.simulated).abs() < 2e-3, "{r:?}");
            assert!(r.packets >= 200, "{r:?}");
            assert_eq!(r.beats.escape, 0);
        }
    }
}

#[test]
fn n_and_k_follow_the_credit_schedule() {
    let cfg = Config::default();
    // a credit after every packet, none inside a 512-byte packet (71 beats < L_T = 110)
    let r = efficiency(&cfg, 512).unwrap();
    assert!((r.n - 1.0).abs() < 0.01 && r.k < 0.01, "{r:?}");
    // a 4 KB packet (519 beats) carries one inner credit every ~110 cycles
    let r = efficiency(&cfg, 4096).unwrap();
    assert!(
        (r.n - 1.0).abs() < 0.01 && (3.5..=4.5).contains(&r.k),
        "{r:?}"
    );
    // no credit after every packet: small packets share the periodic credits
    let mut c = Config::default();
    c.link.credit.after_every_packet = false;
    let r = efficiency(&c, 16).unwrap();
    assert!(r.n < 0.5, "{r:?}");
    // credits inside packets every 35 cycles: the other reading of the thesis (docs/validation.md)
    let mut c = Config::default();
    c.link.credit.max_interval_cycles = 35;
    let r = efficiency(&c, 512).unwrap();
    assert!(r.k >= 1.0 && r.simulated < 0.89, "{r:?}");
}

#[test]
fn the_formula_is_the_thesis_formula() {
    // Table 5.4 was computed with n = 1, k = 0 for small packets: 2 / (6 + 2 + 1) at 16 bytes
    assert!((formula(16, 1.0, 1.0, 0.0) - 2.0 / 9.0).abs() < 1e-12);
    assert!((formula(16, 4.0, 1.0, 0.0) - 2.0 / 12.0).abs() < 1e-12);
    assert!((formula(512, 1.0, 1.0, 2.0) - 64.0 / 75.0).abs() < 1e-12);
}

#[test]
fn bandwidth_at_512_bytes_is_90_percent_of_10_gbps() {
    let r = bandwidth(&Config::default(), 512).unwrap();
    assert!((r.line_gbps - 10.0).abs() < 1e-9);
    assert!((r.efficiency - 0.90).abs() < 0.005, "{r:?}");
    // the gearbox pause costs one cycle in 32 of the PHY's ready
    let mut c = Config::default();
    c.link.phy.gearbox_pause = true;
    let g = bandwidth(&c, 512).unwrap();
    let expected = r.efficiency * 31.0 / 32.0;
    assert!(
        (g.efficiency - expected).abs() < 0.005,
        "{g:?} vs {expected}"
    );
}
