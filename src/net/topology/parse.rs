//! Building the topology a `TopologySpec` names (`spec/topology.rs` reads the names), and a
//! one-line summary of a topology. `parse(t.name())` gives `t` back: names are canonical (a
//! dragonfly's `g` is always written).

use super::dragonfly::Dragonfly;
use super::exanest::Exanest;
use super::graph::Graph;
use super::torus::Torus;
use super::{Topology, TopologySpec};

impl TopologySpec {
    /// The topology this names (every parameter was checked when it was parsed).
    pub fn build(&self) -> Result<Box<dyn Topology>, String> {
        let e = |m: String| format!("topology '{self}': {m}");
        Ok(match self {
            TopologySpec::Torus(shape) => Box::new(Torus::new(shape.clone()).map_err(e)?),
            TopologySpec::Dragonfly { df, .. } => Box::new(Dragonfly::new(*df).map_err(e)?),
            TopologySpec::Exanest(p) => Box::new(Exanest::new(*p).map_err(e)?),
            TopologySpec::Graph(g) => Box::new(Graph::new(g.clone()).map_err(e)?),
        })
    }
}

/// The topology named `name`.
pub fn parse(name: &str) -> Result<Box<dyn Topology>, String> {
    name.parse::<TopologySpec>()?.build()
}

/// One line: name, structure, nodes, endpoints, ports and radix.
pub fn describe(t: &dyn Topology) -> String {
    let structure = match (t.shape(), t.dragonfly()) {
        (Some(s), _) => {
            let dims: Vec<String> = s.size.iter().map(|n| n.to_string()).collect();
            let kind = if s.wrap { "torus" } else { "mesh" };
            format!("{}-D {kind} {}", s.size.len(), dims.join("x"))
        }
        (None, Some(d)) => format!(
            "fully connected dragonfly, {} groups of {} routers, {} global link{} a pair of groups",
            d.g,
            d.a,
            d.a * d.h / (d.g - 1),
            if d.a * d.h / (d.g - 1) == 1 { "" } else { "s" }
        ),
        (None, None) => {
            let links = (0..t.nodes())
                .map(|n| (0..t.ports()).filter(|&q| t.link(n, q).is_some()).count())
                .sum::<usize>()
                / 2;
            format!("graph of {links} links")
        }
    };
    format!(
        "{}: {structure}; {} nodes, {} endpoints; {} inter-tile + {} intra-tile ports a node \
         (radix {})",
        t.name(),
        t.nodes(),
        t.endpoints(),
        t.ports(),
        t.terminals(),
        t.ports() + t.terminals()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn good_names_round_trip() {
        for (name, canonical) in [
            ("torus:10x10", "torus:10x10"),
            ("mesh:4x4", "mesh:4x4"),
            ("torus:10x10x10", "torus:10x10x10"),
            ("torus:8", "torus:8"),
            ("mesh:1x255", "mesh:1x255"),
            ("dragonfly:p=2,a=4,h=2", "dragonfly:p=2,a=4,h=2,g=9"),
            ("dragonfly:h=2,g=9,p=2,a=4", "dragonfly:p=2,a=4,h=2,g=9"),
            ("dragonfly:p=2,a=4,h=2,g=5", "dragonfly:p=2,a=4,h=2,g=5"),
            ("exanest:torus6x6", "exanest:torus6x6"),
            ("exanest:torus3x3", "exanest:torus3x3"),
            ("exanest:torus3x3x4", "exanest:torus3x3x4"),
            ("exanest:dragonfly", "exanest:dragonfly"),
        ] {
            let t = parse(name).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(t.name(), canonical);
            assert_eq!(parse(canonical).unwrap().name(), canonical);
        }
    }

    #[test]
    fn bad_names_say_what_is_wrong() {
        for (name, want) in [
            ("torus", "no ':'"),
            ("torus:", "no sizes"),
            ("torus:4x0", "size '0'"),
            ("torus:4x", "size ''"),
            ("torus:4xy", "size 'y'"),
            ("torus:2x2x2x2", "4 dimensions"),
            ("torus:300", "size '300'"),
            ("ring:4", "unknown kind 'ring'"),
            ("dragonfly:p=2,a=4", "missing h"),
            ("dragonfly:", "'' is not key=value"),
            ("dragonfly:p=2,a=4,h=2,g=4", "g - 1 = 3 must divide a h = 8"),
            ("dragonfly:p=9,a=2,h=1", "p = 9"),
            ("dragonfly:p=2,a=4,h=2,x=1", "unknown key 'x'"),
            ("dragonfly:p=2,a=4,h=0", "'h=0': h must be at least 1"),
            ("dragonfly:p=2,a=four,h=2", "'four' is not a number"),
            ("dragonfly:p=2,a=4,h=2,p=3", "key 'p' given twice"),
            ("dragonfly:p=2,a=200,h=2", "g = 401"),
            ("exanest:cube", "unknown preset 'cube'"),
            ("exanest:torus3x3x0", "C = '0'"),
            ("exanest:torus3x3x", "C = ''"),
        ] {
            let err = parse(name).map(|t| t.name()).unwrap_err();
            assert!(err.contains(&format!("'{name}'")), "{name}: {err}");
            assert!(err.contains(want), "{name}: {err} (expected '{want}')");
        }
    }

    #[test]
    fn errors_say_what_is_accepted() {
        assert!(parse("ring:4").unwrap_err().contains("torus:AxB"));
        assert!(parse("exanest:cube").unwrap_err().contains("torus3x3xC"));
        assert!(parse("dragonfly:p=2")
            .unwrap_err()
            .contains("p=P,a=A,h=H[,g=G]"));
        assert!(parse("dragonfly:p=2,a=4,h=2,g=4")
            .unwrap_err()
            .contains("accepted g: 2, 3, 5, 9"));
    }

    #[test]
    fn descriptions() {
        let d = describe(parse("dragonfly:p=2,a=4,h=2").unwrap().as_ref());
        assert_eq!(
            d,
            "dragonfly:p=2,a=4,h=2,g=9: fully connected dragonfly, 9 groups of 4 routers, 1 \
             global link a pair of groups; 36 nodes, 72 endpoints; 5 inter-tile + 2 intra-tile \
             ports a node (radix 7)"
        );
        let d = describe(parse("exanest:torus3x3x4").unwrap().as_ref());
        assert_eq!(
            d,
            "exanest:torus3x3x4: 3-D torus 3x3x4; 36 nodes, 36 endpoints; 6 inter-tile + 1 \
             intra-tile ports a node (radix 7)"
        );
        assert!(
            describe(parse("dragonfly:p=1,a=4,h=2,g=5").unwrap().as_ref())
                .contains("2 global links")
        );
    }
}
