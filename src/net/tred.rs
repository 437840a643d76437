//! The credit threshold TRED of a network run (docs/decisions/0012-network-tred.md): the
//! smallest that keeps the receive FIFOs from overflowing with the run's packets
//! (`link::tred::safe_tred_units`, with `net.whole_packet_credit`), or `net.tred_units`.

use crate::config::Config;
use crate::link::tred::safe_tred_units;

/// The TRED of a network run: `net.tred_units`, or the safe one when that is 0; an explicit
/// value below the safe one, or a safe one the receive FIFO cannot hold, is an error.
pub fn network_tred(
    cfg: &Config,
    min_payload_bytes: u32,
    max_payload_bytes: u32,
) -> Result<u32, String> {
    let safe = safe_tred_units(
        &cfg.link,
        min_payload_bytes,
        max_payload_bytes,
        cfg.net.whole_packet_credit,
    );
    let depth = cfg.link.rx_fifo_depth_words;
    let t = match cfg.net.tred_units {
        0 => safe,
        t if t < safe => {
            return Err(format!(
                "net.tred_units = {t}: below the {safe} credit units that keep the receive FIFOs \
                 from overflowing with {min_payload_bytes}- to {max_payload_bytes}-byte packets \
                 (docs/decisions/0012, 0013); 0 picks it"
            ))
        }
        t => t,
    };
    if t >= depth {
        return Err(format!(
            "TRED of {t} credit units leaves no room in a receive FIFO of {depth} units \
             (link.rx_fifo_depth_words): make the FIFOs deeper or the packets longer"
        ));
    }
    Ok(t)
}
