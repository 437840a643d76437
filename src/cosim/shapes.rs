//! The structures the Verilated router and node exist at (`testbench/shapes.rs`, one table with
//! `build.rs`): KARMA's (the `router` and `node` tops, the configuration's defaults) and the
//! network nodes' (`router_<shape>`, `node_<shape>`). `exanet cosim --design router|node
//! --shape S` sets the configuration to shape S; a configuration given otherwise is matched
//! against the table, and one that matches no shape is refused naming what differs (a shape the
//! RTL cannot take at all, more link ports than `MAX_INTER`, names that limit).

#[path = "../../testbench/shapes.rs"]
mod table;

pub use table::{RtlShape, MINUS, PLUS, SHAPES};

use super::rtl::RtlTop;
use crate::config::{Config, InterPortConfig};
use crate::router::params::{Dir, RouterParams};

/// The inter-tile ports the RTL router takes at most (`MAX_INTER` of
/// `rtl/exanet_base_router_pkg.sv`).
pub const RTL_MAX_INTER: usize = 6;

/// The name of KARMA's shape (the plain `router` and `node` tops).
pub const KARMA: &str = "karma";

/// Every shape name `--shape` accepts, KARMA's first.
pub fn names() -> Vec<&'static str> {
    std::iter::once(KARMA)
        .chain(SHAPES.iter().map(|s| s.name))
        .collect()
}

/// The shape called `name`: None for KARMA's.
pub fn by_name(name: &str) -> Result<Option<&'static RtlShape>, String> {
    if name == KARMA {
        return Ok(None);
    }
    SHAPES
        .iter()
        .find(|s| s.name == name)
        .map(Some)
        .ok_or_else(|| {
            format!(
                "--shape {name}: no such shape; the RTL is Verilated at {}",
                names().join(", ")
            )
        })
}

/// `base` set to shape `s` (None: KARMA's, the defaults): the router's ports, dimensions and VCs,
/// and the node's place in its lattice.
pub fn apply(base: &Config, s: Option<&RtlShape>) -> Config {
    let d = Config::default();
    let mut c = base.clone();
    match s {
        None => {
            c.router.intra_ports = d.router.intra_ports;
            c.router.tx_only_ports = d.router.tx_only_ports.clone();
            c.router.inter_ports = d.router.inter_ports.clone();
            c.router.dims = d.router.dims;
            c.link.num_vcs = d.link.num_vcs;
            c.node.coord = d.node.coord;
            c.node.lattice = d.node.lattice;
            c.node.torus = d.node.torus;
        }
        Some(s) => {
            c.router.intra_ports = s.n_intra;
            c.router.tx_only_ports = Vec::new();
            c.router.inter_ports = s
                .inter
                .iter()
                .map(|&(dim, dir)| InterPortConfig {
                    dim: dim as u8,
                    dir: if dir == PLUS { Dir::Plus } else { Dir::Minus },
                })
                .collect();
            c.router.dims = s.dims;
            c.link.num_vcs = s.num_vcs;
            c.node.coord = s.coord;
            c.node.lattice = s.lattice;
            c.node.torus = s.torus;
        }
    }
    c
}

/// The shape whose Verilated router `cfg`'s router structure is, and its tops (router, node);
/// an error naming the limit or the shapes built.
pub fn of(cfg: &Config) -> Result<(Option<&'static RtlShape>, RtlTop, RtlTop), String> {
    let n = cfg.router.inter_ports.len();
    if n > RTL_MAX_INTER {
        return Err(format!(
            "router.inter_ports: {n} link ports; the RTL router takes at most {RTL_MAX_INTER} \
             (MAX_INTER, rtl/exanet_base_router_pkg.sv)"
        ));
    }
    let p = RouterParams::from_config(cfg);
    if p == RouterParams::from_config(&apply(cfg, None)) {
        return Ok((None, RtlTop::Router, RtlTop::Node));
    }
    for s in SHAPES {
        if p == RouterParams::from_config(&apply(cfg, Some(s))) {
            let find = |kind: &str| {
                let name = format!("{kind}_{}", s.ident());
                RtlTop::ALL
                    .into_iter()
                    .find(|t| t.name() == name)
                    .ok_or_else(|| format!("build.rs built no top {name}"))
            };
            return Ok((Some(s), find("router")?, find("node")?));
        }
    }
    Err(format!(
        "the router structure of this configuration ({} intra-tile ports, {n} inter-tile ports, \
         {} dimensions, {} VCs, these FIFO depths) is not one the RTL is Verilated at; \
         --shape gives one of {} (FIFO depths and latency are the defaults in every shape)",
        p.n_intra,
        p.dims,
        p.num_vcs,
        names().join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shape_is_found_from_its_configuration_and_validates() {
        let base = Config::default();
        assert_eq!(of(&base).unwrap().0, None);
        for s in SHAPES {
            let c = apply(&base, Some(s));
            c.validate().unwrap_or_else(|e| panic!("{}: {e}", s.name));
            let (found, r, n) = of(&c).unwrap();
            assert_eq!(found.map(|f| f.name), Some(s.name));
            assert_eq!(r.name(), format!("router_{}", s.ident()));
            assert_eq!(n.name(), format!("node_{}", s.ident()));
            assert_eq!(of(&apply(&c, None)).unwrap().0, None, "back to KARMA's");
        }
    }

    #[test]
    fn shapes_the_rtl_cannot_take_are_refused_by_name() {
        let mut c = Config::default();
        c.link.num_vcs = 5;
        let e = of(&c).unwrap_err();
        assert!(e.contains("5 VCs") && e.contains("torus2d-4vc"), "{e}");
        let mut c = apply(&Config::default(), Some(&SHAPES[1]));
        c.router.inter_ports.push(InterPortConfig {
            dim: 0,
            dir: Dir::Both,
        });
        let e = of(&c).unwrap_err();
        assert!(e.contains("7 link ports") && e.contains("at most 6"), "{e}");
        assert!(by_name("torus9d").unwrap_err().contains("torus2d, torus3d"));
    }

    #[test]
    fn verilator_parameters_pack_ports_as_the_rtl_reads_them() {
        let p = SHAPES[0].verilator_params(true);
        // ports X+ X- Y+ Y-: dims 0 0 1 1, directions 0 1 0 1, two bits a port
        assert!(p.contains(&"-GINTER_DIM=12'h050".to_string()), "{p:?}");
        assert!(p.contains(&"-GINTER_DIR=12'h044".to_string()), "{p:?}");
        assert!(
            p.contains(&"-GRST_LATTICE=32'h00010404".to_string()),
            "{p:?}"
        );
        assert!(p.contains(&"-GRST_TORUS=32'h00000003".to_string()), "{p:?}");
        assert!(!SHAPES[0]
            .verilator_params(false)
            .iter()
            .any(|x| x.contains("RST_")));
    }
}
