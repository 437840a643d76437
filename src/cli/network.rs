//! `exanet network ...`: network-scale tools (docs/network.md).

use super::{json_out, CliError, R};
use crate::net::routing::cdg::{admit, analyse};
use crate::net::routing::parse::without_extra_vc;
use crate::net::routing::parse_routing;
use crate::net::topology::parse;
use std::process::ExitCode;

/// `exanet network cdg`: the channel dependency graph of `routing` on `topology`. Bad input
/// (an unknown name, a routing that refuses the topology, a network too large) exits 2; a
/// routing that fails on the network (no hop, a livelock) exits 1.
pub fn cdg(topology: &str, routing: &str, no_extra_vc: bool, json: bool) -> R {
    let t = parse(topology).map_err(|e| CliError::input(format!("--topology: {e}")))?;
    let r = if no_extra_vc {
        without_extra_vc(routing).map_err(|e| CliError::input(format!("--no-extra-vc: {e}")))?
    } else {
        parse_routing(routing).map_err(|e| CliError::input(format!("--routing: {e}")))?
    };
    admit(t.as_ref(), r.as_ref()).map_err(CliError::input)?;
    let rep = analyse(t.as_ref(), r.as_ref()).map_err(CliError::failed)?;
    if json {
        return json_out(&rep);
    }
    println!(
        "{}, routing {} ({} VC{}, {}): {} nodes, {} endpoints, {} channels, {} dependencies",
        rep.topology,
        rep.routing,
        rep.vcs,
        if rep.vcs == 1 { "" } else { "s" },
        rep.relation,
        rep.nodes,
        rep.endpoints,
        rep.channels,
        rep.dependencies
    );
    match &rep.cycle {
        None => println!(
            "acyclic: deadlock-free (seed 000 §2.6.2, Theorem 1{})",
            if rep.relation == "all hops" {
                ""
            } else {
                ", through its escape sub-function"
            }
        ),
        Some(c) => {
            println!("cyclic: a cycle of {} channels:", c.len() - 1);
            for ch in c {
                println!("  {ch}");
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
