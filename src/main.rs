fn main() {
    println!("exanet: under construction");
}
