//! `exanet network ...`: network-scale tools (docs/network.md).

use super::{json_out, CliError, R};
use crate::net::routing::cdg::{admit, analyse};
use crate::spec::{RoutingSpec, TopologySpec};
use std::process::ExitCode;

/// `exanet network cdg`: the channel dependency graph of `routing` on `topology`. Bad input
/// (an unknown name, refused where the options are read; a routing that refuses the topology,
/// a network too large) exits 2; a routing that fails on the network (no hop, a livelock)
/// exits 1.
pub fn cdg(topology: &TopologySpec, routing: RoutingSpec, no_extra_vc: bool, json: bool) -> R {
    let t = topology
        .build()
        .map_err(|e| CliError::input(format!("--topology: {e}")))?;
    let r = if no_extra_vc {
        routing
            .without_extra_vc()
            .map_err(|e| CliError::input(format!("--no-extra-vc: {e}")))?
    } else {
        routing
    }
    .build();
    admit(t.as_ref(), r.as_ref()).map_err(CliError::input)?;
    let rep = analyse(t.as_ref(), r.as_ref()).map_err(CliError::failed)?;
    // a cyclic graph is a finding a script must see: exit 1, its cycle printed
    let code = if rep.cycle.is_some() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    };
    if json {
        json_out(&rep)?;
        return Ok(code);
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
            "acyclic: deadlock-free (Pisani 2016 §2.6.2, Theorem 1{})",
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
    Ok(code)
}

pub struct ServeArgs<'a> {
    pub config: Option<&'a std::path::Path>,
    pub json: bool,
    pub listen: &'a str,
    pub clients: usize,
    pub ranks: u32,
    pub topology: Option<&'a crate::spec::TopologySpec>,
    pub routing: Option<crate::spec::RoutingSpec>,
    pub mapping: &'a str,
    pub timeout_s: f64,
    pub token_file: Option<&'a std::path::Path>,
}

/// `exanet network serve`: one co-simulation session (`serve/`). Bad options exit 2; a session
/// a client breaks (a bad line, a time-out) exits 1 after telling every client.
pub fn serve(a: &ServeArgs) -> R {
    use crate::serve::server;
    let mut cfg = super::load_config(a.config)?;
    super::app::apply_net_options(&mut cfg, a.topology, a.routing)?;
    // one thread: the session answers its clients in the order of the network's cycles, and
    // the remote endpoints' calls into the broker must come in that order (decision 0026)
    cfg.net.threads = 1;
    let endpoints = super::app::endpoints(&cfg)?;
    let listen: std::net::SocketAddr = a.listen.parse().map_err(|_| {
        CliError::input(format!(
            "--listen {}: not an address:port (e.g. 127.0.0.1:5000)",
            a.listen
        ))
    })?;
    if a.clients == 0 {
        return Err(CliError::input(
            "--clients 0: a session has at least one client",
        ));
    }
    if !(0.001..=3600.0).contains(&a.timeout_s) {
        return Err(CliError::input(format!(
            "--timeout-s {}: seconds from 0.001 to 3600",
            a.timeout_s
        )));
    }
    if a.ranks == 0 || a.ranks as usize > crate::app::envelope::MAX_RANKS {
        return Err(CliError::input(format!(
            "--ranks {}: a session has 1 to {} ranks (the envelope's 20-bit rank fields)",
            a.ranks,
            crate::app::envelope::MAX_RANKS
        )));
    }
    let mapping =
        crate::app::mapping::Mapping::parse(a.mapping, cfg.sim.seed).map_err(CliError::input)?;
    let placement = mapping
        .place(a.ranks as usize, endpoints)
        .map_err(CliError::input)?;
    let token = server::new_token().map_err(CliError::failed)?;
    if let Some(f) = a.token_file {
        use std::io::Write;
        use std::os::unix::fs::OpenOptionsExt;
        super::output::check_parent("--token-file", f)?;
        std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(0o600)
            .open(f)
            .and_then(|mut h| {
                // (a file that was there keeps its mode through a truncation: set it)
                use std::os::unix::fs::PermissionsExt;
                h.set_permissions(std::fs::Permissions::from_mode(0o600))?;
                writeln!(h, "{token}")
            })
            .map_err(|e| CliError::input(format!("--token-file: {}: {e}", f.display())))?;
    }
    let o = server::Options {
        listen,
        clients: a.clients,
        placement,
        timeout: std::time::Duration::from_secs_f64(a.timeout_s),
        token: token.clone(),
    };
    // what the session would refuse, refused before it listens (exit 2)
    crate::app::run::reliable_links(&cfg).map_err(CliError::input)?;
    let listener = server::bind(&o).map_err(CliError::input)?;
    let addr = listener
        .local_addr()
        .map_err(|e| CliError::failed(format!("--listen: {e}")))?;
    eprintln!("listening on {addr}");
    match a.token_file {
        Some(f) => eprintln!("session token in {}", f.display()),
        None => eprintln!("session token {token}"),
    }
    let out = server::serve(&cfg, &o, listener).map_err(CliError::failed)?;
    // a session that ended in a deadlock did not finish: exit 1, as `app run` does
    let code = if out.deadlock {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    };
    if a.json {
        json_out(&out)?;
        return Ok(code);
    }
    println!(
        "session of {} client{}, {} ranks: ended at cycle {}{}; {} messages in {} packets",
        out.clients,
        if out.clients == 1 { "" } else { "s" },
        out.ranks,
        out.end_cycle,
        if out.deadlock {
            " (a deadlock: nothing could happen any more while a client had not finished)"
        } else {
            ""
        },
        out.messages,
        out.packets
    );
    Ok(code)
}
