//! Topologies end to end, through `parse` as the command line reaches them: the thesis's and
//! ExaNeSt's configurations (Pisani 2016 §4, Biagioni 2017 §2.4.1, SPEC.md "Network level"), every
//! link symmetric and classed right (`verify`), every address and endpoint index round-tripping,
//! the hop distances the sources quote, and the names that must be refused.

use exanet::net::topology::{describe, parse, verify, Topology};
use std::collections::VecDeque;

fn topo(name: &str) -> Box<dyn Topology> {
    parse(name).unwrap_or_else(|e| panic!("{e}"))
}

/// Hops from `src` to every node, over wired links.
fn hops_from(t: &dyn Topology, src: usize) -> Vec<u32> {
    let mut dist = vec![u32::MAX; t.nodes()];
    dist[src] = 0;
    let mut queue = VecDeque::from([src]);
    while let Some(n) = queue.pop_front() {
        for q in 0..t.ports() {
            if let Some((m, _)) = t.link(n, q) {
                if dist[m] == u32::MAX {
                    dist[m] = dist[n] + 1;
                    queue.push_back(m);
                }
            }
        }
    }
    dist
}

#[test]
fn thesis_and_exanest_configurations() {
    // (name, nodes, endpoints, inter-tile ports, intra-tile ports)
    let cases = [
        ("torus:10x10", 100, 100, 4, 1),
        ("torus:32x32", 1024, 1024, 4, 1),
        ("torus:96x96", 9216, 9216, 4, 1),
        ("torus:10x10x10", 1000, 1000, 6, 1),
        ("mesh:4x4", 16, 16, 4, 1),
        ("torus:8", 8, 8, 2, 1),
        // 72 nodes: 5 external + 2 internal ports; 1056 nodes: 11 external + 4 internal.
        ("dragonfly:p=2,a=4,h=2", 36, 72, 5, 2),
        ("dragonfly:p=4,a=8,h=4", 264, 1056, 11, 4),
        ("exanest:torus6x6", 36, 36, 4, 1),
        ("exanest:torus3x3", 9, 9, 4, 1),
        ("exanest:torus3x3x4", 36, 36, 6, 1),
        ("exanest:dragonfly", 20, 80, 4, 4),
    ];
    for (name, nodes, endpoints, ports, terminals) in cases {
        let t = topo(name);
        assert_eq!(
            (t.nodes(), t.endpoints(), t.ports(), t.terminals()),
            (nodes, endpoints, ports, terminals),
            "{name}"
        );
        verify(t.as_ref()).unwrap_or_else(|e| panic!("{e}"));
    }
    let d = topo("dragonfly:p=2,a=4,h=2").dragonfly().unwrap();
    assert_eq!((d.g, d.a * d.g), (9, 36), "9 groups, 36 routers");
    let d = topo("dragonfly:p=4,a=8,h=4").dragonfly().unwrap();
    assert_eq!((d.g, d.a * d.g), (33, 264), "33 groups, 264 routers");
}

#[test]
fn addresses_and_endpoints_round_trip() {
    for name in [
        "torus:10x10x10",
        "mesh:5x3",
        "dragonfly:p=4,a=8,h=4",
        "exanest:dragonfly",
    ] {
        let t = topo(name);
        for n in 0..t.nodes() {
            assert_eq!(t.node_at(t.addr(n)), Some(n), "{name} node {n}");
        }
        for i in 0..t.endpoints() {
            let (n, p) = t.endpoint(i);
            assert_eq!(t.endpoint_index(n, p), i, "{name} endpoint {i}");
        }
    }
    // Torus: node = x + y X + z X Y (Pisani 2016 eq. 3.4).
    let t = topo("torus:10x10x10");
    assert_eq!(t.addr(456), [6, 5, 4]);
    assert_eq!(t.node_at([10, 0, 0]), None);
    // Dragonfly: index = p + n P + g P A (eq. 3.9); 1056 nodes: P = 4, A = 8.
    let t = topo("dragonfly:p=4,a=8,h=4");
    let (node, term) = t.endpoint(3 + 5 * 4 + 20 * 32);
    assert_eq!((t.addr(node), term), ([5, 20, 0], 3));
    assert_eq!(t.node_at([8, 0, 0]), None);
    assert_eq!(t.node_at([0, 33, 0]), None);
}

#[test]
fn hop_distances_the_sources_quote() {
    // Seed 002 l. 589: 6x6 torus, "the longest path consists of 6 hops".
    let t = topo("exanest:torus6x6");
    assert_eq!(hops_from(t.as_ref(), 0).into_iter().max(), Some(6));
    // Seed 000 §2.2.2: the fully connected dragonfly's diameter (router to router) is 3
    // (local, global, local).
    for name in [
        "dragonfly:p=2,a=4,h=2",
        "exanest:dragonfly",
        "dragonfly:p=1,a=4,h=2,g=5",
    ] {
        let t = topo(name);
        let diameter = (0..t.nodes())
            .map(|n| hops_from(t.as_ref(), n).into_iter().max().unwrap())
            .max();
        assert_eq!(diameter, Some(3), "{name}");
    }
    // A mesh is connected; a torus of a size-1 dimension too.
    for name in ["mesh:4x3x2", "torus:1x7"] {
        let t = topo(name);
        assert!(
            hops_from(t.as_ref(), 0).iter().all(|&d| d != u32::MAX),
            "{name}"
        );
    }
}

#[test]
fn big_torus_is_cheap() {
    // Nothing is tabulated: the largest shape the header allows builds at once, and answers
    // queries at its far corner.
    let t = topo("torus:255x255x255");
    assert_eq!(t.nodes(), 255 * 255 * 255);
    let last = t.nodes() - 1;
    assert_eq!(t.addr(last), [254, 254, 254]);
    assert_eq!(
        t.link(last, 0),
        Some((t.node_at([0, 254, 254]).unwrap(), 1))
    );
    assert_eq!(
        t.link(last, 5),
        Some((t.node_at([254, 254, 253]).unwrap(), 4))
    );
    assert!(std::mem::size_of_val(&*t) < 256);
}

#[test]
fn names_round_trip_and_describe() {
    for name in [
        "torus:10x10",
        "mesh:4x4",
        "torus:10x10x10",
        "torus:8",
        "dragonfly:p=2,a=4,h=2,g=9",
        "dragonfly:p=4,a=8,h=4,g=33",
        "dragonfly:p=2,a=4,h=2,g=3",
        "exanest:torus6x6",
        "exanest:torus3x3",
        "exanest:torus3x3x4",
        "exanest:dragonfly",
    ] {
        let t = topo(name);
        assert_eq!(t.name(), name);
        let d = describe(t.as_ref());
        assert!(
            d.starts_with(name) && d.contains(&format!("{} nodes", t.nodes())),
            "{d}"
        );
    }
    assert_eq!(
        topo("dragonfly:a=4,p=2,h=2").name(),
        "dragonfly:p=2,a=4,h=2,g=9"
    );
}

#[test]
fn bad_names_are_refused_with_the_reason() {
    for (name, want) in [
        ("torus:", "no sizes"),
        ("torus:4x0", "size '0'"),
        ("torus:2x2x2x2", "4 dimensions"),
        ("torus:300", "size '300'"),
        ("ring:4", "unknown kind 'ring'"),
        ("dragonfly:p=2,a=4", "missing h"),
        ("dragonfly:p=2,a=4,h=2,g=4", "g - 1 = 3 must divide a h = 8"),
        ("dragonfly:p=9,a=2,h=1", "p = 9"),
        ("dragonfly:p=2,a=4,h=2,q=1", "unknown key 'q'"),
        ("dragonfly:p=0,a=4,h=2", "'p=0'"),
        ("dragonfly:p=2,a=x,h=2", "'x' is not a number"),
        ("exanest:cube", "unknown preset 'cube'"),
    ] {
        let err = parse(name).map(|t| t.name()).unwrap_err();
        assert!(
            err.contains(&format!("'{name}'")) && err.contains(want),
            "{name}: {err}"
        );
        assert!(
            err.contains("accepted") || err.contains("must"),
            "{name}: {err}"
        );
    }
}
