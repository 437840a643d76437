//! Links and nodes that fail and recover during a network run (issue 14 §2, SWORDFISH's
//! simulation controller, Nüssle et al. "Simulation Controller"; docs/network.md, "Links and nodes that fail";
//! docs/decisions/0032-link-and-node-failures.md).
//!
//! Three parts, each modelled on what the hardware and its management would do:
//! - the *physical* fault (`Action`): at its cycle a lane stops delivering. The beats in it
//!   are lost, and so is every beat it is given until it recovers (`NetPort`'s `FaultState`,
//!   counted in `beats_lost`). A node fault cuts every lane to and from the node and mutes its
//!   NICs. The engine applies these at the exact cycle (a run is split there), so where they
//!   fall does not depend on threads, partitions, the window or idle skipping;
//! - the *detection* at each end (`NetNode::step`): a port whose partner sent no credit for
//!   `net.fault_detect_credit_periods` credit periods is marked down. Credits go out at least
//!   every credit period between packets and every `max_interval` inside one, so a healthy
//!   link never goes that long without one. A port marked down stops launching beats, so its
//!   partner's port goes down in turn (the link is down both ways, as LO|FA|MO's health
//!   report would tell it); its TX sends what its FIFOs hold into the dead link, counted as
//!   lost there; its RX ends the packet it was receiving with a stomped CRC (`PAD`, the
//!   packet is delivered flagged `crc_bad`), or loses it if its header had not yet been
//!   written;
//! - the *management* (`FaultView`): every `net.fault_manager_period_cycles` the engine reads
//!   the ports marked down over the whole network, and when they changed it recomputes the
//!   components of the network and, for a table-based routing, the tables. A router drops a
//!   packet its routing has no hop for through a live port: `no_route`, or `unreachable` when
//!   the destination is in another component (a dead node, a split network).

use super::topology::{Addr, DragonflyParams, PortClass, Shape, Topology};
use crate::router::params::MAX_INTER;
use crate::spec::faults::{Fault, FaultSchedule, FaultTarget, RandomFaults};
use std::sync::Arc;

/// Beat a receiver whose port went down feeds its parser to end the packet it was receiving
/// (`NetNode::step`): a data beat that is neither MAGIC nor START, whose footer carries a
/// link sequence number that does not check (so no loss is counted from it) and whose CRC
/// field is not the packet's (the packet is delivered with `crc_bad`; a match is a 2^-32
/// chance).
pub const PAD: u64 = 0x5a5a_5a5a_a5a5_a5a5;

/// What changes at a cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// The lane node `node` sends on through port `port` stops delivering.
    Cut {
        node: usize,
        port: usize,
    },
    /// It delivers again.
    Heal {
        node: usize,
        port: usize,
    },
    /// Node `n`'s NICs stop injecting; packets reaching them are counted lost.
    NodeDown(usize),
    NodeUp(usize),
}

/// An action and its cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Event {
    pub at: u64,
    pub action: Action,
}

/// Every pair of linked nodes of `t`, (lower node, higher node), in order: each counted once
/// however many links join them.
pub fn links(t: &dyn Topology) -> Vec<(usize, usize)> {
    let mut out = std::collections::BTreeSet::new();
    for a in 0..t.nodes() {
        for q in 0..t.ports() {
            if let Some((b, _)) = t.link(a, q) {
                if a < b {
                    out.insert((a, b));
                }
            }
        }
    }
    out.into_iter().collect()
}

/// Every fault of the run: the schedule's, checked against the topology, and the random ones
/// drawn from `seed`.
pub fn resolve(
    t: &dyn Topology,
    schedule: &FaultSchedule,
    random: Option<RandomFaults>,
    seed: u64,
) -> Result<Vec<Fault>, String> {
    let n = t.nodes();
    let node_ok = |x: usize, f: &Fault| {
        if x >= n {
            Err(format!(
                "net.faults: '{f}': node {x} does not exist (the topology {} has nodes 0 to {})",
                t.name(),
                n - 1
            ))
        } else {
            Ok(())
        }
    };
    let mut out = Vec::new();
    for f in &schedule.0 {
        match f.target {
            FaultTarget::Link { a, b, .. } => {
                node_ok(a, f)?;
                node_ok(b, f)?;
                if super::setup::lanes_between(t, a, b).next().is_none() {
                    return Err(format!(
                        "net.faults: '{f}': nodes {a} and {b} are not linked in the topology {}",
                        t.name()
                    ));
                }
            }
            FaultTarget::Node(x) => node_ok(x, f)?,
        }
        out.push(*f);
    }
    if let Some(r) = random {
        let all = links(t);
        if r.links > all.len() || r.nodes > n {
            return Err(format!(
                "net.random_faults: {} links and {} nodes: the topology {} has {} links and {n} \
                 nodes",
                r.links,
                r.nodes,
                t.name(),
                all.len()
            ));
        }
        let mut rng = rand_mt::Mt64::new(seed ^ 0xfa01_75ed_0f1e_a5e5);
        let pick = |k: usize, of: usize, rng: &mut rand_mt::Mt64| -> Vec<usize> {
            // a partial Fisher-Yates shuffle: k distinct of 0..of
            let mut ix: Vec<usize> = (0..of).collect();
            for i in 0..k {
                let j = i + (rng.next_u64() % (of - i) as u64) as usize;
                ix.swap(i, j);
            }
            ix.truncate(k);
            ix
        };
        let when = |rng: &mut rand_mt::Mt64| {
            let down = r.from + rng.next_u64() % (r.to - r.from);
            (down, r.duration.map(|d| down + d))
        };
        for i in pick(r.links, all.len(), &mut rng) {
            let (a, b) = all[i];
            let (down, up) = when(&mut rng);
            out.push(Fault {
                target: FaultTarget::Link {
                    a,
                    b,
                    one_way: false,
                },
                down,
                up,
            });
        }
        for x in pick(r.nodes, n, &mut rng) {
            let (down, up) = when(&mut rng);
            out.push(Fault {
                target: FaultTarget::Node(x),
                down,
                up,
            });
        }
    }
    Ok(out)
}

/// The lanes a fault cuts: (sender node, port).
fn lanes(t: &dyn Topology, target: FaultTarget) -> Vec<(usize, usize)> {
    match target {
        FaultTarget::Link { a, b, one_way } => super::setup::lanes_between(t, a, b)
            .filter(|&(x, _)| !one_way || x == a)
            .collect(),
        FaultTarget::Node(x) => {
            let mut v = Vec::new();
            for q in 0..t.ports() {
                if let Some((m, r)) = t.link(x, q) {
                    v.push((x, q));
                    v.push((m, r));
                }
            }
            v
        }
    }
}

/// The actions of `faults`, by cycle; at one cycle, recoveries before failures.
pub fn events(t: &dyn Topology, faults: &[Fault]) -> Vec<Event> {
    let mut ev = Vec::new();
    for f in faults {
        let ls = lanes(t, f.target);
        for &(node, port) in &ls {
            ev.push(Event {
                at: f.down,
                action: Action::Cut { node, port },
            });
            if let Some(u) = f.up {
                ev.push(Event {
                    at: u,
                    action: Action::Heal { node, port },
                });
            }
        }
        if let FaultTarget::Node(x) = f.target {
            ev.push(Event {
                at: f.down,
                action: Action::NodeDown(x),
            });
            if let Some(u) = f.up {
                ev.push(Event {
                    at: u,
                    action: Action::NodeUp(x),
                });
            }
        }
    }
    let rank = |a: &Action| match a {
        Action::Heal { .. } | Action::NodeUp(_) => 0,
        _ => 1,
    };
    ev.sort_by_key(|e| (e.at, rank(&e.action)));
    ev
}

/// Per node, the ports that are down (bit q: port q), and the dead nodes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DownSet {
    pub ports: Vec<u16>,
    pub dead: Vec<bool>,
}

impl DownSet {
    pub fn none(nodes: usize) -> DownSet {
        DownSet {
            ports: vec![0; nodes],
            dead: vec![false; nodes],
        }
    }

    /// Whether the link at `node`'s port `q` can carry packets: neither end is down and
    /// neither node is dead.
    pub fn live(&self, t: &dyn Topology, node: usize, q: usize) -> Option<(usize, usize)> {
        let (m, r) = t.link(node, q)?;
        let down = self.ports[node] >> q & 1 != 0
            || self.ports[m] >> r & 1 != 0
            || self.dead[node]
            || self.dead[m];
        (!down).then_some((m, r))
    }

    /// The ground truth of the faults in force during [at, next event): every lane cut marks
    /// both of its ends down (a link with one dead direction carries no packet: its credits
    /// cannot come back).
    pub fn at(t: &dyn Topology, events: &[Event], at: u64) -> DownSet {
        let mut cut = std::collections::HashMap::<(usize, usize), i32>::new();
        let mut dead = vec![0i32; t.nodes()];
        for e in events.iter().take_while(|e| e.at <= at) {
            match e.action {
                Action::Cut { node, port } => *cut.entry((node, port)).or_default() += 1,
                Action::Heal { node, port } => *cut.entry((node, port)).or_default() -= 1,
                Action::NodeDown(x) => dead[x] += 1,
                Action::NodeUp(x) => dead[x] -= 1,
            }
        }
        let mut s = DownSet::none(t.nodes());
        for (&(node, port), &k) in &cut {
            if k > 0 {
                s.ports[node] |= 1 << port;
                if let Some((m, r)) = t.link(node, port) {
                    s.ports[m] |= 1 << r;
                }
            }
        }
        for (x, &k) in dead.iter().enumerate() {
            s.dead[x] = k > 0;
        }
        s
    }

    /// Connected components over the live links (`comp[node]`, numbered from 0 in the order
    /// of their lowest node); a dead node is a component of its own.
    pub fn components(&self, t: &dyn Topology) -> Vec<u32> {
        let n = t.nodes();
        let mut comp = vec![u32::MAX; n];
        let mut level = vec![u32::MAX; n];
        let mut next = 0;
        for s in 0..n {
            if level[s] == u32::MAX {
                for x in
                    crate::net::topology::bfs(t.ports(), s, &mut level, |x, q| self.live(t, x, q))
                {
                    comp[x] = next;
                }
                next += 1;
            }
        }
        comp
    }
}

/// A network split: its live nodes fall into more than one component.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Split {
    /// The first cycle of the split.
    pub at: u64,
    /// The live nodes of each component (dead nodes left out), the largest first.
    pub groups: Vec<Vec<usize>>,
}

impl Split {
    /// Endpoints of one group cannot reach those of another: "nodes 0-7,9 | nodes 8".
    pub fn describe(&self) -> String {
        self.groups
            .iter()
            .map(|g| format!("nodes {}", ranges(g)))
            .collect::<Vec<_>>()
            .join(" | ")
    }
}

/// "0-7,9,12-13".
pub fn ranges(v: &[usize]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < v.len() {
        let mut j = i;
        while j + 1 < v.len() && v[j + 1] == v[j] + 1 {
            j += 1;
        }
        out.push(if j > i {
            format!("{}-{}", v[i], v[j])
        } else {
            v[i].to_string()
        });
        i = j + 1;
    }
    out.join(",")
}

/// Every interval of the schedule whose faults split the live nodes (the ground truth, before
/// any detection).
pub fn splits(t: &dyn Topology, events: &[Event]) -> Vec<Split> {
    let mut out = Vec::new();
    let mut cycles: Vec<u64> = events.iter().map(|e| e.at).collect();
    cycles.dedup();
    for at in cycles {
        let s = DownSet::at(t, events, at);
        let comp = s.components(t);
        let mut groups: std::collections::BTreeMap<u32, Vec<usize>> = Default::default();
        for (x, &c) in comp.iter().enumerate() {
            if !s.dead[x] {
                groups.entry(c).or_default().push(x);
            }
        }
        if groups.len() > 1 {
            let mut g: Vec<Vec<usize>> = groups.into_values().collect();
            g.sort_by_key(|v| std::cmp::Reverse(v.len()));
            out.push(Split { at, groups: g });
        }
    }
    out
}

/// What the fault manager knows: the ports marked down and the components they leave.
#[derive(Debug, Clone)]
pub struct FaultView {
    pub down: DownSet,
    pub comp: Vec<u32>,
}

impl FaultView {
    pub fn new(t: &dyn Topology, down: DownSet) -> FaultView {
        let comp = down.components(t);
        FaultView { down, comp }
    }
}

/// `base` without the links `view` knows to be down: what a table-based routing computes its
/// tables on.
#[derive(Debug)]
pub struct Faulty {
    pub base: Arc<dyn Topology>,
    pub view: Arc<FaultView>,
}

impl Topology for Faulty {
    fn name(&self) -> String {
        self.base.name()
    }
    fn nodes(&self) -> usize {
        self.base.nodes()
    }
    fn terminals(&self) -> usize {
        self.base.terminals()
    }
    fn ports(&self) -> usize {
        self.base.ports()
    }
    fn port_class(&self, node: usize, q: usize) -> PortClass {
        self.base.port_class(node, q)
    }
    fn link(&self, node: usize, q: usize) -> Option<(usize, usize)> {
        self.view.down.live(self.base.as_ref(), node, q)
    }
    fn addr(&self, node: usize) -> Addr {
        self.base.addr(node)
    }
    fn node_at(&self, a: Addr) -> Option<usize> {
        self.base.node_at(a)
    }
    fn endpoint(&self, index: usize) -> (usize, usize) {
        self.base.endpoint(index)
    }
    fn endpoint_index(&self, node: usize, terminal: usize) -> usize {
        self.base.endpoint_index(node, terminal)
    }
    fn shape(&self) -> Option<&Shape> {
        self.base.shape()
    }
    fn dragonfly(&self) -> Option<DragonflyParams> {
        self.base.dragonfly()
    }
}

// a port mask holds every inter-tile port
const _: () = assert!(MAX_INTER <= 16);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::topology::parse;

    #[test]
    fn the_pad_beat_ends_a_packet_without_counting_a_loss() {
        use crate::packet::wire::{MAGIC, START};
        const { assert!(PAD != MAGIC && PAD != START) };
        let footer = (PAD as u128) << 64 | PAD as u128;
        assert_eq!(crate::link::lseq::read(footer), None);
    }

    #[test]
    fn a_node_fault_cuts_every_lane_of_it_and_a_split_is_found() {
        let t = parse("torus:4x1").unwrap();
        let s: FaultSchedule = "node:1@100..200; link:2-3@150".parse().unwrap();
        let f = resolve(t.as_ref(), &s, None, 1).unwrap();
        let ev = events(t.as_ref(), &f);
        // node 1 of a 4-ring: two links, four lanes; link 2-3: two lanes
        let cuts = ev
            .iter()
            .filter(|e| matches!(e.action, Action::Cut { .. }))
            .count();
        assert_eq!(cuts, 6);
        let sp = splits(t.as_ref(), &ev);
        // from 150 to 200, node 1 dead and 2-3 cut: {0, 3} and {2}
        assert_eq!(sp.len(), 1, "{sp:?}");
        assert_eq!(sp[0].at, 150);
        assert_eq!(sp[0].groups, vec![vec![0, 3], vec![2]]);
        assert_eq!(sp[0].describe(), "nodes 0,3 | nodes 2");
    }

    #[test]
    fn random_faults_are_distinct_seeded_and_refused_past_the_network() {
        let t = parse("torus:4x4").unwrap();
        let r: RandomFaults = "links=5,nodes=2,from=100,to=200,for=50".parse().unwrap();
        let a = resolve(t.as_ref(), &FaultSchedule::default(), Some(r), 7).unwrap();
        let b = resolve(t.as_ref(), &FaultSchedule::default(), Some(r), 7).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.len(), 7);
        let mut targets: Vec<_> = a.iter().map(|f| f.target).collect();
        targets.dedup();
        assert_eq!(targets.len(), 7);
        assert!(a
            .iter()
            .all(|f| (100..200).contains(&f.down) && f.up == Some(f.down + 50)));
        let too_many: RandomFaults = "links=33,from=1,to=2".parse().unwrap();
        let e = resolve(t.as_ref(), &FaultSchedule::default(), Some(too_many), 1).unwrap_err();
        assert!(e.contains("has 32 links"), "{e}");
        let s: FaultSchedule = "link:0-5@10".parse().unwrap();
        let e = resolve(t.as_ref(), &s, None, 1).unwrap_err();
        assert!(e.contains("nodes 0 and 5 are not linked"), "{e}");
        let s: FaultSchedule = "node:16@10".parse().unwrap();
        let e = resolve(t.as_ref(), &s, None, 1).unwrap_err();
        assert!(e.contains("node 16 does not exist"), "{e}");
    }
}
