use exanet::cosim::rtl::{RtlModel, RtlTop};
fn main() {
    let mut rtl = RtlModel::new(RtlTop::Link).unwrap();
    let names = [
        "TOP.clk_i",
        "TOP.rst_ni",
        "TOP.cfg_credit_period_i",
        "TOP.exanet_link_top.u_a.u_tcl.u_tx.credit_age_q",
        "TOP.exanet_link_top.u_a.u_tcl.u_tx.out_valid_q",
        "TOP.exanet_link_top.u_a.phy_tx_valid_o",
        "TOP.exanet_link_top.u_a.u_tcl.u_tx.stat_credits_q",
    ];
    let ids: Vec<_> = names
        .iter()
        .map(|n| rtl.find(n).unwrap_or_else(|| panic!("{n}")))
        .collect();
    let show = |rtl: &RtlModel, tag: &str| {
        print!("{tag}: ");
        for (n, id) in names.iter().zip(&ids) {
            print!("{}={} ", n.rsplit('.').next().unwrap(), rtl.get(*id));
        }
        println!();
    };
    let set = |rtl: &mut RtlModel, n: &str, v: u128| {
        let id = rtl.find(n).unwrap();
        rtl.set(id, v).unwrap();
    };
    set(&mut rtl, "TOP.cfg_credit_period_i", 35);
    set(&mut rtl, "TOP.cfg_max_interval_i", 110);
    set(&mut rtl, "TOP.cfg_tred_i", 128);
    set(&mut rtl, "TOP.clk_i", 0);
    set(&mut rtl, "TOP.rst_ni", 0);
    rtl.eval();
    show(&rtl, "reset");
    set(&mut rtl, "TOP.rst_ni", 1);
    rtl.eval();
    show(&rtl, "released");
    for c in 0..3 {
        set(&mut rtl, "TOP.clk_i", 0);
        rtl.eval();
        show(&rtl, &format!("c{c} lo"));
        set(&mut rtl, "TOP.clk_i", 1);
        rtl.eval();
        show(&rtl, &format!("c{c} hi"));
    }
}
