fn main() {
    println!("cargo:rustc-check-cfg=cfg(exanet_no_rtl)");
    println!("cargo:rustc-cfg=exanet_no_rtl");
}
