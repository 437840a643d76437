//! What the configuration's `[net]` section and the command line name: the topology, the
//! routing algorithm, the destination pattern, the packet sizes, the injection process and the
//! probe, each a typed description parsed once, where the file or the option is read
//! (`FromStr`), and written back as the same text (`Display`). A bad value is refused there,
//! naming the field and what is accepted. The network (`net::setup`) builds the topology,
//! routing and pattern objects from them; checks that need two of them together (a routing on
//! a topology) are made there. Nothing here depends on the rest of the crate
//! (docs/decisions/0025-typed-configuration.md).

pub mod faults;
pub mod routing;
pub mod topology;
pub mod traffic;

pub use faults::{FaultSchedule, RandomFaults};
pub use routing::RoutingSpec;
pub use topology::TopologySpec;
pub use traffic::{Injection, PatternSpec, Probe, SizeDist};

/// Serde and JSON schema of a description as its text: serialised with `Display`, read with
/// `FromStr` (whose error becomes the deserialiser's), a string in the schema.
macro_rules! text_serde {
    ($t:ty) => {
        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }

        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let text = <String as serde::Deserialize>::deserialize(d)?;
                text.parse().map_err(serde::de::Error::custom)
            }
        }

        impl schemars::JsonSchema for $t {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                <String as schemars::JsonSchema>::schema_name()
            }
            fn inline_schema() -> bool {
                true
            }
            fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
                <String as schemars::JsonSchema>::json_schema(g)
            }
        }
    };
}
pub(crate) use text_serde;
