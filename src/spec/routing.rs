//! Routing algorithm names, as the configuration (`net.routing`) and the command line
//! (`--routing`) give them; `net::routing` builds the algorithm a name names.
//!
//! ```text
//!   ecube          e-cube / dimension order, tori and meshes, 2 VCs, the
//!                  APErouter's own VC rule: the one with an RTL twin        (ecube.rs)
//!   ecube-dateline e-cube with the dateline VC rule, 2 VCs (model-only)     (ecube.rs)
//!   star-channel   minimal fully adaptive, e-cube escape, 3 VCs            (star_channel.rs)
//!   min-adapt      star-channel over net.adaptive_vcs VCs (3-8)            (star_channel.rs)
//!   smart-dor      e-cube + one misroute at the first hop, 2 VCs           (smart_dor.rs)
//!   min            dragonfly minimal routing, 2 VCs                        (df_min.rs)
//!   updown         up*/down*, table-based, any topology, around faults, 1 VC (updown.rs)
//!   ecube-1vc      e-cube without the dateline VC  } deadlock-prone: for the channel
//!   min-1vc        min without the extra local VC  } dependency analysis only
//! ```

/// The names accepted, for error messages.
pub const ROUTINGS: &str = "ecube, ecube-dateline, star-channel, min-adapt, smart-dor (tori and \
                            meshes), min (dragonflies), \
                            updown (any topology, around failed links); \
                            ecube-1vc, min-1vc (without the extra VC, deadlock-prone)";

/// A routing algorithm, by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RoutingSpec {
    Ecube,
    #[value(name = "ecube-dateline")]
    EcubeDateline,
    StarChannel,
    MinAdapt,
    SmartDor,
    Min,
    Updown,
    #[value(name = "ecube-1vc")]
    Ecube1Vc,
    #[value(name = "min-1vc")]
    Min1Vc,
}

impl RoutingSpec {
    /// Every algorithm, in the order `ROUTINGS` lists them.
    pub const ALL: [RoutingSpec; 9] = [
        RoutingSpec::Ecube,
        RoutingSpec::EcubeDateline,
        RoutingSpec::StarChannel,
        RoutingSpec::MinAdapt,
        RoutingSpec::SmartDor,
        RoutingSpec::Min,
        RoutingSpec::Updown,
        RoutingSpec::Ecube1Vc,
        RoutingSpec::Min1Vc,
    ];

    /// The name, as the configuration and the command line give it.
    pub fn name(self) -> &'static str {
        match self {
            RoutingSpec::Ecube => "ecube",
            RoutingSpec::EcubeDateline => "ecube-dateline",
            RoutingSpec::StarChannel => "star-channel",
            RoutingSpec::MinAdapt => "min-adapt",
            RoutingSpec::SmartDor => "smart-dor",
            RoutingSpec::Min => "min",
            RoutingSpec::Updown => "updown",
            RoutingSpec::Ecube1Vc => "ecube-1vc",
            RoutingSpec::Min1Vc => "min-1vc",
        }
    }

    /// The variant without the extra VC its deadlock freedom rests on: e-cube's second VC,
    /// min-routing's local VC for packets from another group.
    pub fn without_extra_vc(self) -> Result<RoutingSpec, String> {
        match self {
            RoutingSpec::Ecube | RoutingSpec::EcubeDateline => Ok(RoutingSpec::Ecube1Vc),
            RoutingSpec::Min => Ok(RoutingSpec::Min1Vc),
            RoutingSpec::Ecube1Vc | RoutingSpec::Min1Vc => Err(format!(
                "routing '{self}' is already without its extra VC; give its two-VC form \
                 ({}) with --no-extra-vc, or '{self}' alone",
                if self == RoutingSpec::Ecube1Vc { "ecube" } else { "min" }
            )),
            _ => Err(format!(
                "routing '{self}' has no variant without an extra VC; accepted: ecube, ecube-dateline, min"
            )),
        }
    }
}

impl std::str::FromStr for RoutingSpec {
    type Err = String;
    fn from_str(name: &str) -> Result<Self, String> {
        RoutingSpec::ALL
            .into_iter()
            .find(|r| r.name() == name)
            .ok_or_else(|| format!("routing '{name}': unknown algorithm; accepted: {ROUTINGS}"))
    }
}

impl std::fmt::Display for RoutingSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

super::text_serde!(RoutingSpec);

#[cfg(test)]
mod tests {
    use super::*;
    use clap::ValueEnum;

    #[test]
    fn every_name_parses_back_is_in_the_message_and_is_clap_s() {
        for r in RoutingSpec::ALL {
            assert_eq!(r.name().parse::<RoutingSpec>(), Ok(r));
            assert!(ROUTINGS.contains(r.name()), "{r}");
            assert_eq!(r.to_possible_value().unwrap().get_name(), r.name());
        }
        assert_eq!(RoutingSpec::value_variants(), RoutingSpec::ALL);
    }

    #[test]
    fn bad_names_say_what_is_accepted() {
        for name in ["", "dor", "Ecube", "star"] {
            let e = name.parse::<RoutingSpec>().unwrap_err();
            assert!(e.contains(&format!("'{name}'")), "{e}");
            assert!(
                e.contains("ecube, ecube-dateline, star-channel, min-adapt, smart-dor"),
                "{e}"
            );
        }
        let e = RoutingSpec::SmartDor.without_extra_vc().unwrap_err();
        assert!(e.contains("'smart-dor' has no variant"), "{e}");
        // a one-VC form given with --no-extra-vc says it twice: refused, not passed through
        let e = RoutingSpec::Ecube1Vc.without_extra_vc().unwrap_err();
        assert!(
            e.contains("'ecube-1vc' is already without its extra VC"),
            "{e}"
        );
        assert!(e.contains("(ecube)"), "{e}");
        let e = RoutingSpec::Min1Vc.without_extra_vc().unwrap_err();
        assert!(e.contains("(min)"), "{e}");
    }
}
