//! Building the routing algorithm a `RoutingSpec` names (`spec/routing.rs` reads the names).

use super::df_min::DfMin;
use super::ecube::Ecube;
use super::smart_dor::SmartDor;
use super::star_channel::StarChannel;
use super::updown::UpDown;
use super::Routing;
use crate::spec::RoutingSpec;

/// The VCs of `min-adapt` when the configuration does not say (`net.adaptive_vcs`).
pub const DEFAULT_ADAPTIVE_VCS: u32 = 6;

impl RoutingSpec {
    /// The algorithm this names (`min-adapt` over `DEFAULT_ADAPTIVE_VCS`).
    pub fn build(self) -> Box<dyn Routing> {
        self.build_with(DEFAULT_ADAPTIVE_VCS)
    }

    /// The algorithm this names, `min-adapt` over `adaptive_vcs` VCs.
    pub fn build_with(self, adaptive_vcs: u32) -> Box<dyn Routing> {
        match self {
            RoutingSpec::Ecube => Box::new(Ecube::new()),
            RoutingSpec::EcubeDateline => Box::new(Ecube::dateline()),
            RoutingSpec::StarChannel => Box::new(StarChannel::default()),
            RoutingSpec::MinAdapt => Box::new(StarChannel::min_adapt(adaptive_vcs)),
            RoutingSpec::SmartDor => Box::new(SmartDor),
            RoutingSpec::Min => Box::new(DfMin::new()),
            RoutingSpec::Updown => Box::new(UpDown::new()),
            RoutingSpec::Ecube1Vc => Box::new(Ecube::single_vc()),
            RoutingSpec::Min1Vc => Box::new(DfMin::single_vc()),
        }
    }
}

impl RoutingSpec {
    /// Whether the APErouter's RTL routes as this algorithm does (`Routing::rtl_twin`).
    pub fn rtl_twin(self) -> bool {
        self.build().rtl_twin()
    }

    /// What a result says of its routing: RTL-backed or model-only.
    pub fn provenance(self) -> &'static str {
        if self.rtl_twin() {
            "RTL-backed: the APErouter's own routing function"
        } else {
            "model-only: no RTL twin (the routers are the RTL's blocks, this routing function is not)"
        }
    }
}

/// The routing algorithm named `name`.
pub fn parse_routing(name: &str) -> Result<Box<dyn Routing>, String> {
    Ok(name.parse::<RoutingSpec>()?.build())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_algorithm_is_named_as_its_description() {
        for r in RoutingSpec::ALL {
            assert_eq!(r.build().name(), r.name());
        }
        assert_eq!(
            RoutingSpec::Min.without_extra_vc().unwrap().build().name(),
            "min-1vc"
        );
    }
}
