//! Routing algorithm names, as the command line and configuration files give them.
//!
//! ```text
//!   ecube          e-cube / dimension order, tori and meshes, 2 VCs        (ecube.rs)
//!   star-channel   minimal fully adaptive, e-cube escape, 3 VCs            (star_channel.rs)
//!   smart-dor      e-cube + one misroute at the first hop, 2 VCs           (smart_dor.rs)
//!   min            dragonfly minimal routing, 2 VCs                        (df_min.rs)
//!   ecube-1vc      e-cube without the dateline VC  } deadlock-prone: for the channel
//!   min-1vc        min without the extra local VC  } dependency analysis only
//! ```

use super::df_min::DfMin;
use super::ecube::Ecube;
use super::smart_dor::SmartDor;
use super::star_channel::StarChannel;
use super::Routing;

/// The names `parse_routing` accepts, for error messages.
pub const ROUTINGS: &str = "ecube, star-channel, smart-dor (tori and meshes), min (dragonflies); \
                            ecube-1vc, min-1vc (without the extra VC, deadlock-prone)";

/// Every name `parse_routing` accepts (the command line lists them in `--help`).
pub const ROUTING_NAMES: &[&str] = &[
    "ecube",
    "star-channel",
    "smart-dor",
    "min",
    "ecube-1vc",
    "min-1vc",
];

/// The routing algorithm named `name`.
pub fn parse_routing(name: &str) -> Result<Box<dyn Routing>, String> {
    Ok(match name {
        "ecube" => Box::new(Ecube::new()),
        "star-channel" => Box::new(StarChannel),
        "smart-dor" => Box::new(SmartDor),
        "min" => Box::new(DfMin::new()),
        "ecube-1vc" => Box::new(Ecube::single_vc()),
        "min-1vc" => Box::new(DfMin::single_vc()),
        _ => {
            return Err(format!(
                "routing '{name}': unknown algorithm; accepted: {ROUTINGS}"
            ))
        }
    })
}

/// The variant of routing `name` without the extra VC its deadlock freedom rests on: e-cube's
/// dateline VC, min-routing's local VC for packets from another group.
pub fn without_extra_vc(name: &str) -> Result<Box<dyn Routing>, String> {
    match name {
        "ecube" | "ecube-1vc" => parse_routing("ecube-1vc"),
        "min" | "min-1vc" => parse_routing("min-1vc"),
        _ => {
            parse_routing(name)?;
            Err(format!(
                "routing '{name}' has no variant without an extra VC; accepted: ecube, min"
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_name_parses_and_is_in_the_message() {
        for n in ROUTING_NAMES {
            parse_routing(n).unwrap();
            assert!(ROUTINGS.contains(n), "{n}");
        }
    }

    #[test]
    fn names_round_trip() {
        for name in [
            "ecube",
            "star-channel",
            "smart-dor",
            "min",
            "ecube-1vc",
            "min-1vc",
        ] {
            assert_eq!(parse_routing(name).unwrap().name(), name);
        }
        assert_eq!(without_extra_vc("ecube").unwrap().name(), "ecube-1vc");
        assert_eq!(without_extra_vc("min").unwrap().name(), "min-1vc");
    }

    #[test]
    fn bad_names_say_what_is_accepted() {
        for name in ["", "dor", "Ecube", "star"] {
            let e = parse_routing(name).map(|r| r.name()).unwrap_err();
            assert!(e.contains(&format!("'{name}'")), "{e}");
            assert!(e.contains("ecube, star-channel, smart-dor"), "{e}");
        }
        let e = without_extra_vc("smart-dor").map(|r| r.name()).unwrap_err();
        assert!(e.contains("'smart-dor' has no variant"), "{e}");
        let e = without_extra_vc("xy").map(|r| r.name()).unwrap_err();
        assert!(e.contains("unknown algorithm"), "{e}");
    }
}
