//! Routing algorithms end to end, through `parse` and `parse_routing` as the command line
//! reaches them: every algorithm delivers every packet to the right terminal in the hops it
//! promises (under the most preferred choice, the last one and random ones), e-cube's paths
//! match a reference computed from coordinates alone, the channel dependency graphs are acyclic
//! with the extra VCs and cyclic without them, mismatched topologies and names are refused, and
//! `exanet network cdg`.

mod common;
use common::exanet;
use exanet::net::routing::cdg::analyse;
use exanet::net::routing::path::{first, last, walk, PathHop};
use exanet::net::routing::{parse_routing, Port, Routing};
use exanet::net::topology::{parse, PortClass, Topology};
use rand_mt::Mt64;
use std::collections::VecDeque;
use std::time::Instant;

fn topo(name: &str) -> Box<dyn Topology> {
    parse(name).unwrap_or_else(|e| panic!("{e}"))
}

fn routing(name: &str) -> Box<dyn Routing> {
    parse_routing(name).unwrap_or_else(|e| panic!("{e}"))
}

/// Hops from `src` to every node over wired links (breadth first: the topology alone).
fn distances(t: &dyn Topology, src: usize) -> Vec<usize> {
    let mut dist = vec![usize::MAX; t.nodes()];
    dist[src] = 0;
    let mut queue = VecDeque::from([src]);
    while let Some(n) = queue.pop_front() {
        for q in 0..t.ports() {
            if let Some((m, _)) = t.link(n, q) {
                if dist[m] == usize::MAX {
                    dist[m] = dist[n] + 1;
                    queue.push_back(m);
                }
            }
        }
    }
    dist
}

/// Dragonfly hops from `src` to `dst` over the paths minimal routing may take (Pisani 2016 §2.7.4):
/// local links of the source group, global links from it to the destination group, local
/// links of the destination group (breadth first over those).
fn group_distance(t: &dyn Topology, src: usize, dst: usize) -> usize {
    let group = |n: usize| t.addr(n)[1];
    let (gs, gd) = (group(src), group(dst));
    let mut dist = vec![usize::MAX; t.nodes()];
    dist[src] = 0;
    let mut queue = VecDeque::from([src]);
    while let Some(n) = queue.pop_front() {
        for q in 0..t.ports() {
            let ok = match t.port_class(n, q) {
                PortClass::Local { .. } => group(n) == gs || group(n) == gd,
                PortClass::Global { group: g } => group(n) == gs && g as u8 == gd,
                PortClass::Dim { .. } | PortClass::Link { .. } => unreachable!("a dragonfly"),
            };
            if let (true, Some((m, _))) = (ok, t.link(n, q)) {
                if dist[m] == usize::MAX {
                    dist[m] = dist[n] + 1;
                    queue.push_back(m);
                }
            }
        }
    }
    dist[dst]
}

/// `path` ends at endpoint `dst`'s terminal and follows the links; its inter-tile hop count.
fn arrives(t: &dyn Topology, path: &[PathHop], dst: usize) -> usize {
    let (dn, dt) = t.endpoint(dst);
    let end = path.last().unwrap();
    assert_eq!(
        (end.node, end.hop.port),
        (dn, Port::Intra(dt as u8)),
        "ends at the destination's terminal"
    );
    for w in path.windows(2) {
        let Port::Inter(q) = w[0].hop.port else {
            panic!("a terminal hop before the end: {path:?}")
        };
        assert_eq!(t.link(w[0].node, q as usize).unwrap().0, w[1].node);
    }
    path.len() - 1
}

/// Every source endpoint to every destination endpoint, under the first and the last choice:
/// `check(distance, hops)`, the distance over the links (a torus or mesh) or over the paths
/// minimal dragonfly routing may take (`group_distance`).
fn all_pairs(topology: &str, alg: &str, check: &dyn Fn(usize, usize) -> bool) {
    let t = topo(topology);
    let r = routing(alg);
    r.check(t.as_ref()).unwrap();
    for src in 0..t.endpoints() {
        let sn = t.endpoint(src).0;
        let dist = distances(t.as_ref(), sn);
        for dst in 0..t.endpoints() {
            let dn = t.endpoint(dst).0;
            let d = if t.dragonfly().is_some() {
                group_distance(t.as_ref(), sn, dn)
            } else {
                dist[dn]
            };
            for (how, p) in [
                ("first", first(t.as_ref(), r.as_ref(), src, dst)),
                ("last", last(t.as_ref(), r.as_ref(), src, dst)),
            ] {
                let p = p.unwrap_or_else(|e| panic!("{e}"));
                let hops = arrives(t.as_ref(), &p, dst);
                assert!(
                    check(d, hops),
                    "{topology} {alg} ({how}): {src} -> {dst} in {hops} hops, distance {d}"
                );
            }
        }
    }
}

const TORI: [&str; 4] = ["torus:4x4", "torus:5x5", "mesh:4x4", "torus:4x4x4"];

#[test]
fn minimal_algorithms_take_exactly_the_distance() {
    for t in TORI {
        for alg in ["ecube", "star-channel", "ecube-1vc"] {
            all_pairs(t, alg, &|d, h| h == d);
        }
    }
    for t in ["dragonfly:p=2,a=4,h=2", "exanest:dragonfly"] {
        all_pairs(t, "min", &|d, h| h == d);
    }
}

#[test]
fn smart_dor_first_and_last_are_ecube_every_misroute_within_two_hops() {
    for t in TORI {
        all_pairs(t, "smart-dor", &|d, h| h == d);
    }
    // every first-hop choice (a misroute or e-cube), then e-cube
    for name in TORI {
        let t = topo(name);
        let r = routing("smart-dor");
        let mut misroutes = 0;
        for src in 0..t.endpoints() {
            let dist = distances(t.as_ref(), src);
            for (dst, &d) in dist.iter().enumerate() {
                for choice in 0..8 {
                    let mut offered = None;
                    let p = walk(t.as_ref(), r.as_ref(), src, dst, &mut |h| match offered {
                        None => {
                            offered = Some(h.len());
                            choice
                        }
                        Some(_) => 0,
                    })
                    .unwrap();
                    let offered = offered.unwrap();
                    if choice >= offered {
                        break;
                    }
                    let hops = arrives(t.as_ref(), &p, dst);
                    assert!(
                        hops <= d + 2 && hops >= d,
                        "{name}: {src} -> {dst}, first choice {choice}: {hops} hops, distance {d}"
                    );
                    misroutes += usize::from(p[0].hop.state & 0x80 != 0);
                }
            }
        }
        assert!(misroutes > 0, "{name}: no misroute offered");
    }
}

#[test]
fn dragonflies_with_several_links_a_pair() {
    // With g < a h + 1 the first gateway is not always the closest one: at most l-g-l.
    for name in [
        "dragonfly:p=2,a=4,h=2,g=5",
        "dragonfly:p=1,a=4,h=2,g=3",
        "dragonfly:p=1,a=4,h=2,g=2",
    ] {
        all_pairs(name, "min", &|d, h| h >= d && h <= 3);
    }
}

#[test]
fn star_channel_random_choices_stay_minimal() {
    let seed = 2027;
    let mut rng = Mt64::new(seed);
    for name in TORI {
        let t = topo(name);
        let r = routing("star-channel");
        for src in 0..t.endpoints() {
            let dist = distances(t.as_ref(), src);
            for (dst, &d) in dist.iter().enumerate() {
                let p = walk(t.as_ref(), r.as_ref(), src, dst, &mut |h| {
                    (rng.next_u64() % h.len() as u64) as usize
                })
                .unwrap();
                let hops = arrives(t.as_ref(), &p, dst);
                assert_eq!(hops, d, "{name} seed {seed}: {src} -> {dst}");
            }
        }
    }
}

/// e-cube from coordinates alone: dimensions in order, the shorter way (a tie goes +). VCs:
/// `dateline`, VC 0 up to and across the wrap-around link and VC 1 after it, back to VC 0 in
/// the next dimension; else the APErouter's, VC 1 when the destination coordinate is above the
/// current one.
fn reference_path(
    src: [u8; 3],
    dst: [u8; 3],
    size: &[u8],
    torus: bool,
    dateline: bool,
) -> Vec<([u8; 3], u8, u8)> {
    let mut cur = src;
    let mut hops = Vec::new();
    for d in 0..size.len() {
        let n = size[d] as i32;
        let mut vc = 0;
        while cur[d] != dst[d] {
            let (a, z) = (cur[d] as i32, dst[d] as i32);
            let up = if torus {
                (z - a).rem_euclid(n) <= (a - z).rem_euclid(n)
            } else {
                z > a
            };
            if !dateline {
                vc = u8::from(z > a);
            }
            hops.push((cur, (2 * d + usize::from(!up)) as u8, vc));
            let next = a + if up { 1 } else { -1 };
            if next < 0 || next >= n {
                vc = 1;
            }
            cur[d] = next.rem_euclid(n) as u8;
        }
    }
    hops
}

/// The tori and meshes the e-cube checks walk.
const SHAPES: [&[u8]; 7] = [
    &[4, 4],
    &[5, 3],
    &[2, 2],
    &[3, 4, 2],
    &[4, 4, 4],
    &[8],
    &[6, 1, 5],
];

fn shape_name(size: &[u8], torus: bool) -> String {
    let dims: Vec<String> = size.iter().map(|n| n.to_string()).collect();
    format!(
        "{}:{}",
        if torus { "torus" } else { "mesh" },
        dims.join("x")
    )
}

#[test]
fn ecube_paths_match_the_reference() {
    for size in SHAPES {
        for torus in [true, false] {
            let name = shape_name(size, torus);
            let t = topo(&name);
            for (alg, dateline) in [("ecube", false), ("ecube-dateline", true)] {
                let r = routing(alg);
                for src in 0..t.nodes() {
                    for dst in 0..t.nodes() {
                        let got: Vec<([u8; 3], u8, u8)> = first(t.as_ref(), r.as_ref(), src, dst)
                            .unwrap()
                            .iter()
                            .filter_map(|h| match h.hop.port {
                                Port::Inter(q) => Some((t.addr(h.node), q, h.hop.vc)),
                                Port::Intra(_) => None,
                            })
                            .collect();
                        let want = reference_path(t.addr(src), t.addr(dst), size, torus, dateline);
                        assert_eq!(got, want, "{name} {alg}: {src} -> {dst}");
                    }
                }
            }
        }
    }
}

/// Network `ecube` is the APErouter's routing function: at every node of every shape, for every
/// destination node and terminal, its hop (port, VC) is the one `router::route::route_to` (the
/// model twin of the RTL's `route`) gives with the router parameters and run-time
/// configuration the network engine builds that node with, and it leaves the header's `route`
/// field as it came. No other algorithm claims an RTL twin.
#[test]
fn network_ecube_is_the_aperouters_routing_function() {
    use exanet::config::Config;
    use exanet::link::LinkParams;
    use exanet::net::engine::{router_cfg, router_params};
    use exanet::net::routing::RouteIn;
    use exanet::router::route::{route_to, Route};
    let cfg = Config::default();
    let link = LinkParams::from_config(&cfg.link);
    let mut hops = 0;
    for size in SHAPES.iter().chain([&[3u8][..], &[5, 5]].iter()) {
        for torus in [true, false] {
            let name = shape_name(size, torus);
            let t = topo(&name);
            let r = routing("ecube");
            assert!(r.rtl_twin(), "ecube");
            let p = router_params(&cfg, t.as_ref(), r.vcs());
            for node in 0..t.nodes() {
                let c = router_cfg(&cfg, t.as_ref(), node, &link);
                for dst in 0..t.nodes() {
                    for term in 0..t.terminals() as u8 {
                        let ri = RouteIn {
                            node,
                            from: Port::Intra(0),
                            vc: 0,
                            dst: t.addr(dst),
                            dst_terminal: term,
                            state: 0x5a,
                        };
                        let mut out = Vec::new();
                        r.route(t.as_ref(), &ri, &mut out);
                        assert_eq!(out.len(), 1, "{name}: deterministic");
                        let h = out[0];
                        assert_eq!(h.state, 0x5a, "{name}: the route field is left alone");
                        let want = match route_to(t.addr(dst), term, &p, &c, true) {
                            Route::Out { slot, vc } if slot < p.n_intra => {
                                (Port::Intra(slot as u8), vc)
                            }
                            Route::Out { slot, vc } => {
                                (Port::Inter(((slot - p.n_intra) / p.num_vcs) as u8), vc)
                            }
                            Route::Drop(d) => {
                                panic!("{name}: {node} -> {dst}: the RTL drops: {d:?}")
                            }
                        };
                        assert_eq!((h.port, h.vc), want, "{name}: node {node} -> {dst}");
                        hops += 1;
                    }
                }
            }
        }
    }
    assert!(hops > 10_000, "{hops}");
    for alg in exanet::spec::RoutingSpec::ALL {
        let r = alg.build();
        assert_eq!(r.rtl_twin(), r.name() == "ecube", "{}", r.name());
    }
}

fn cdg(topology: &str, alg: &str) -> exanet::net::routing::cdg::CdgReport {
    let t = topo(topology);
    let r = routing(alg);
    let start = Instant::now();
    let rep = analyse(t.as_ref(), r.as_ref()).unwrap_or_else(|e| panic!("{topology} {alg}: {e}"));
    let took = start.elapsed();
    // generous against a loaded machine: the analysis takes milliseconds in release mode
    assert!(took.as_secs_f64() < 5.0, "{topology} {alg}: {took:?}");
    rep
}

#[test]
fn dependency_graphs_with_the_extra_vcs_are_acyclic() {
    let tori = [
        "torus:4x4",
        "torus:5x5",
        "torus:8x8",
        "torus:4x4x4",
        "mesh:4x4",
        "torus:10x10",
        "torus:2x2",
        "torus:3x5x2",
        "exanest:torus6x6",
    ];
    for t in tori {
        for alg in ["ecube", "ecube-dateline", "star-channel", "smart-dor"] {
            let r = cdg(t, alg);
            assert!(r.acyclic, "{t} {alg}: {:?}", r.cycle);
            assert_eq!(r.cycle, None);
        }
    }
    for t in [
        "dragonfly:p=2,a=4,h=2",
        "dragonfly:p=2,a=4,h=2,g=5",
        "dragonfly:p=1,a=4,h=2,g=3",
        "dragonfly:p=1,a=4,h=2,g=2",
        "dragonfly:p=4,a=8,h=4",
        "exanest:dragonfly",
    ] {
        let r = cdg(t, "min");
        assert!(r.acyclic, "{t}: {:?}", r.cycle);
    }
}

#[test]
fn without_the_extra_vc_the_graphs_have_cycles() {
    for t in [
        "torus:4x4",
        "torus:5x5",
        "torus:8x8",
        "torus:4x4x4",
        "torus:8",
    ] {
        let r = cdg(t, "ecube-1vc");
        let c = r.cycle.unwrap_or_else(|| panic!("{t}: acyclic"));
        assert!(!r.acyclic);
        assert_eq!(c.first(), c.last(), "{t}: {c:?}");
        assert!(
            c.len() >= 5,
            "{t}: a cycle goes round a ring of 4 or more: {c:?}"
        );
    }
    // rings of 3 and meshes never chain two hops round a ring
    assert!(cdg("torus:3x3", "ecube-1vc").acyclic);
    assert!(cdg("mesh:4x4", "ecube-1vc").acyclic);
    for t in [
        "dragonfly:p=2,a=4,h=2",
        "dragonfly:p=2,a=4,h=2,g=5",
        "exanest:dragonfly",
    ] {
        let r = cdg(t, "min-1vc");
        let c = r.cycle.unwrap_or_else(|| panic!("{t}: acyclic"));
        assert_eq!(c.first(), c.last(), "{t}: {c:?}");
        assert!(
            c.iter().any(|ch| ch.contains(" L")) && c.iter().any(|ch| ch.contains(" G")),
            "{t}: local and global channels (Figure 2.11a): {c:?}"
        );
    }
}

#[test]
fn mismatched_topologies_are_refused() {
    for alg in ["ecube", "star-channel", "smart-dor", "ecube-1vc"] {
        for t in ["dragonfly:p=2,a=4,h=2", "exanest:dragonfly"] {
            let e = routing(alg).check(topo(t).as_ref()).unwrap_err();
            assert!(
                e.contains(&format!("'{alg}'")) && e.contains("tori and meshes"),
                "{e}"
            );
        }
    }
    for alg in ["min", "min-1vc"] {
        for t in ["torus:4x4", "mesh:3x3", "exanest:torus3x3x2"] {
            let e = routing(alg).check(topo(t).as_ref()).unwrap_err();
            assert!(
                e.contains(&format!("'{alg}'")) && e.contains("dragonflies"),
                "{e}"
            );
        }
    }
    // smart-dor's free channels exist for every ring size, odd ones included
    for t in ["torus:5x5", "torus:3x7", "torus:9x2x5", "mesh:5x3"] {
        routing("smart-dor").check(topo(t).as_ref()).unwrap();
    }
    let e = parse_routing("xy").map(|r| r.name()).unwrap_err();
    assert!(e.contains("'xy'") && e.contains("star-channel"), "{e}");
}

// ---------------------------------------------------------------------------------------
// exanet network cdg

#[test]
fn cli_json_has_the_documented_fields() {
    let o = exanet(&[
        "network",
        "cdg",
        "--topology",
        "torus:4x4",
        "--routing",
        "ecube",
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["topology"], "torus:4x4");
    assert_eq!(v["routing"], "ecube");
    assert_eq!(v["acyclic"], true);
    assert!(v["cycle"].is_null());
    assert_eq!(v["nodes"], 16);
    assert_eq!(v["channels"], 72);
    assert_eq!(v["dependencies"], 104);
    assert_eq!(v["vcs"], 2);
    assert_eq!(v["relation"], "all hops");

    let o = exanet(&[
        "network",
        "cdg",
        "--topology",
        "torus:4x4",
        "--routing",
        "ecube",
        "--no-extra-vc",
        "--json",
    ]);
    // a cyclic graph exits 1, its JSON printed all the same (issue 32 §2)
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (v["routing"].as_str(), v["acyclic"].as_bool()),
        (Some("ecube-1vc"), Some(false))
    );
    let c = v["cycle"].as_array().unwrap();
    assert_eq!(c.first(), c.last());

    let o = exanet(&[
        "network",
        "cdg",
        "--topology",
        "dragonfly:p=2,a=4,h=2",
        "--routing",
        "min",
        "--no-extra-vc",
    ]);
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.code() == Some(1) && s.contains("cyclic: a cycle of"),
        "{s}"
    );
}

#[test]
fn cli_bad_input_exits_2() {
    for (args, want) in [
        (
            vec!["--topology", "ring:4", "--routing", "ecube"],
            "unknown kind 'ring'",
        ),
        (
            vec!["--topology", "torus:4x4", "--routing", "xy"],
            "invalid value 'xy' for '--routing",
        ),
        (
            vec!["--topology", "torus:4x4", "--routing", "min"],
            "routes dragonflies",
        ),
        (
            vec![
                "--topology",
                "dragonfly:p=2,a=4,h=2",
                "--routing",
                "smart-dor",
            ],
            "routes tori and meshes",
        ),
        (
            vec![
                "--topology",
                "torus:4x4",
                "--routing",
                "star-channel",
                "--no-extra-vc",
            ],
            "no variant without an extra VC",
        ),
        (
            vec![
                "--topology",
                "torus:4x4",
                "--routing",
                "ecube-1vc",
                "--no-extra-vc",
            ],
            "'ecube-1vc' is already without its extra VC",
        ),
        (
            vec!["--topology", "torus:65x65", "--routing", "ecube"],
            "at most 4096",
        ),
    ] {
        let mut a = vec!["network", "cdg"];
        a.extend(&args);
        let o = exanet(&a);
        let e = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
        assert!(e.contains(want), "{args:?}: {e} (expected '{want}')");
    }
}

/// Every network result says whether its routing function has an RTL twin: the run record, the
/// point, the text, the sweep's table, CSV and plot legend.
#[test]
fn results_say_whether_their_routing_is_rtl_backed() {
    let dir = std::env::temp_dir().join(format!("exanet-rtl-twin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let short = [
        "--set",
        "net.topology=torus:3x3",
        "--set",
        "net.load=0.1",
        "--set",
        "net.warmup_cycles=200",
        "--set",
        "net.measure_cycles=500",
    ];
    for (alg, twin) in [
        ("ecube", true),
        ("star-channel", false),
        ("ecube-dateline", false),
    ] {
        let routing = format!("net.routing={alg}");
        let mut a = vec!["network", "run", "--set", &routing];
        a.extend(short);
        let mut j = a.clone();
        j.push("--json");
        let v = common::exanet_json(&j);
        assert_eq!(v["routing_rtl_twin"], twin, "{alg}");
        assert_eq!(v["run"]["routings"][0]["routing"], alg);
        assert_eq!(v["run"]["routings"][0]["rtl_twin"], twin, "{alg}");
        let text = String::from_utf8(exanet(&a).stdout).unwrap();
        let line = text
            .lines()
            .find(|l| l.trim_start().starts_with("routing "))
            .unwrap();
        assert_eq!(line.contains("model-only"), !twin, "{alg}: {line}");
        assert_eq!(line.contains("RTL-backed"), twin, "{alg}: {line}");
    }
    let (csv, svg) = (dir.join("s.csv"), dir.join("s.svg"));
    let mut a = vec![
        "network",
        "sweep",
        "--topology",
        "torus:3x3",
        "--routing",
        "ecube",
        "--topology",
        "torus:3x3",
        "--routing",
        "star-channel",
        "--loads",
        "0.1",
        "--csv",
        csv.to_str().unwrap(),
        "--plot",
        svg.to_str().unwrap(),
    ];
    a.extend(short[4..].iter());
    let text = String::from_utf8(exanet(&a).stdout).unwrap();
    assert!(
        text.contains("torus:3x3 star-channel [model-only routing]"),
        "{text}"
    );
    assert!(!text.contains("ecube [model-only"), "{text}");
    let plot = std::fs::read_to_string(&svg).unwrap();
    assert!(
        plot.contains("star-channel [model-only routing]"),
        "the legend"
    );
    let table = std::fs::read_to_string(&csv).unwrap();
    let mut lines = table.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = head.iter().position(|h| *h == "routing_rtl_twin").unwrap();
    let twins: Vec<&str> = lines.map(|l| l.split(',').nth(col).unwrap()).collect();
    assert_eq!(twins, ["true", "false"]);
    std::fs::remove_dir_all(&dir).unwrap();
}
