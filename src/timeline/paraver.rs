//! Paraver traces: a writer and a reader of the three files Paraver opens, independent of what
//! is traced (Minkenberg and Rodriguez 2008 §3.2, §4.2 and Table 1; the syntax is BSC paraver-kernel's
//! `utils/traceparser`: `traceheader.h`, `tracebodyio_v1.cpp`, `pcffileparser.cpp`,
//! `rowfileparser.cpp`).
//!
//! ```text
//!   NAME.prv   #Paraver (01/01/70 at 00:00):END_ns:NODES(CPUS,..):APPLS:TASKS(THREADS:NODE,..):..
//!              1:cpu:appl:task:thread:begin:end:state              a state record
//!              2:cpu:appl:task:thread:time:type:value[:type:value]  an event record
//!              3:cpu:appl:task:thread:lsend:psend:cpu:appl:task:thread:lrecv:precv:size:tag
//!   NAME.pcf   DEFAULT_OPTIONS, DEFAULT_SEMANTIC, STATES, STATES_COLOR, EVENT_TYPE sections
//!   NAME.row   LEVEL CPU|NODE|APPL|TASK|THREAD SIZE n, then n names
//! ```
//!
//! Objects are Paraver's two hierarchies: the resource model (nodes and their CPUs) and the
//! process model (applications, their tasks, each on one node, and the tasks' threads, each
//! optionally on a CPU of its task's node). The API numbers every object from 0; the files from
//! 1, as Paraver writes them (CPU 0 in a record: no CPU).
//!
//! Time: integer units only (Minkenberg and Rodriguez 2008 §4.1 reports the trouble floating-point times make).
//! Paraver's header knows ns, us and ms, and labels what it shows in them. A trace in clock
//! cycles is written in ns, the finest (each cycle's time rounded to the nearest ns; a cycle is
//! at least a ns, so no two meet and the order holds), so that Paraver labels it truthfully;
//! its `.pcf` and `.row` say in a comment line that the times are those of the cycles of a
//! named clock (decision 0021), and [`read`] turns them back into exactly those cycles.
//!
//! The records are written sorted by their first time (a state's begin, an event's time, a
//! communication's logical send), then state before event before communication, then by
//! object, as Paraver requires; the header's date is fixed so that a trace is a function of its
//! records only.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The header's date: fixed, so that the same records give the same file.
pub const DATE: &str = "01/01/70 at 00:00";

/// What one unit of the trace's times is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TimeUnit {
    /// Nanoseconds.
    Ns,
    /// Cycles of a clock of `freq_mhz` MHz (at most 1000: a cycle of at least a ns). The files
    /// hold nanoseconds, the unit Paraver shows: each time the cycle's, rounded to the nearest
    /// ns, which [`read`] turns back into exactly that cycle.
    Cycles { freq_mhz: f64 },
}

impl TimeUnit {
    /// Time `t` of the trace as the files hold it: ns.
    fn written(self, t: u64) -> u64 {
        match self {
            TimeUnit::Ns => t,
            TimeUnit::Cycles { freq_mhz } => (t as f64 * 1000.0 / freq_mhz).round() as u64,
        }
    }

    /// A time of the files (ns) as the trace's unit: the cycle it was rounded from (a cycle
    /// is at least a ns long, so no two cycles round to one ns).
    fn read_back(self, t: u64) -> u64 {
        match self {
            TimeUnit::Ns => t,
            TimeUnit::Cycles { freq_mhz } => (t as f64 * freq_mhz / 1000.0).round() as u64,
        }
    }
}

/// A node of the resource model and the names of its CPUs (at least one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    pub name: String,
    pub cpus: Vec<String>,
}

/// An application of the process model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Appl {
    pub name: String,
    pub tasks: Vec<Task>,
}

/// A task (a process): the node it runs on (an index into [`Trace::nodes`]) and its threads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Task {
    pub name: String,
    pub node: u32,
    pub threads: Vec<Thread>,
}

/// A thread: the CPU of its task's node it runs on (an index into that node's CPUs), if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Thread {
    pub name: String,
    pub cpu: Option<u32>,
}

/// A thread of the process model: application, task within it, thread within that, from 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Obj {
    pub appl: u32,
    pub task: u32,
    pub thread: u32,
}

/// `obj` was in `state` from `begin` to `end` (Paraver draws [begin, end)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct State {
    pub obj: Obj,
    pub begin: u64,
    pub end: u64,
    pub state: u32,
}

/// Punctual events at `obj` at `time`: (type, value) pairs, written on one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    pub obj: Obj,
    pub time: u64,
    pub events: Vec<(u32, i64)>,
}

/// A communication (Minkenberg and Rodriguez 2008 Table 1): logical send (the send posted), physical send (it
/// left), logical receive (the receive posted), physical receive (it arrived), size in bytes
/// and tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Comm {
    pub send: Obj,
    pub log_send: u64,
    pub phys_send: u64,
    pub recv: Obj,
    pub log_recv: u64,
    pub phys_recv: u64,
    pub size: u64,
    pub tag: i64,
}

/// The name and colour (red, green, blue) of a state value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StateLabel {
    pub name: String,
    pub color: (u8, u8, u8),
}

/// The name of an event type and, if its values are codes, the name of each value.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EventType {
    pub name: String,
    /// Empty: the values are numbers (sizes, counts) shown as they are.
    pub values: BTreeMap<i64, String>,
}

/// A whole trace: objects, records and the names the `.pcf` gives.
#[derive(Debug, Clone, PartialEq)]
pub struct Trace {
    pub unit: TimeUnit,
    /// The trace's total time (the header's); no record may end after it.
    pub end: u64,
    pub nodes: Vec<Node>,
    pub appls: Vec<Appl>,
    pub states: Vec<State>,
    pub events: Vec<Event>,
    pub comms: Vec<Comm>,
    /// Every state value a record uses must be named here.
    pub state_labels: BTreeMap<u32, StateLabel>,
    /// Every event type a record uses must be named here (and its value, when the type names
    /// values).
    pub event_types: BTreeMap<u32, EventType>,
}

fn name_ok(what: &str, s: &str) -> Result<(), String> {
    if s.is_empty() || s.contains(['\n', '\r']) || s.trim() != s {
        return Err(format!(
            "{what} {s:?}: a name is one non-empty line without leading or trailing blanks"
        ));
    }
    Ok(())
}

impl Trace {
    /// An empty trace in `unit` (add objects, records and names).
    pub fn new(unit: TimeUnit) -> Trace {
        Trace {
            unit,
            end: 0,
            nodes: Vec::new(),
            appls: Vec::new(),
            states: Vec::new(),
            events: Vec::new(),
            comms: Vec::new(),
            state_labels: BTreeMap::new(),
            event_types: BTreeMap::new(),
        }
    }

    fn thread(&self, o: Obj) -> Option<&Thread> {
        self.appls
            .get(o.appl as usize)?
            .tasks
            .get(o.task as usize)?
            .threads
            .get(o.thread as usize)
    }

    /// The record's CPU field: the global CPU (from 1) the thread runs on, 0 for none.
    fn cpu_field(&self, o: Obj) -> u64 {
        let task = &self.appls[o.appl as usize].tasks[o.task as usize];
        match task.threads[o.thread as usize].cpu {
            None => 0,
            Some(c) => {
                let before: usize = self.nodes[..task.node as usize]
                    .iter()
                    .map(|n| n.cpus.len())
                    .sum();
                (before + c as usize + 1) as u64
            }
        }
    }

    /// Every object a record names exists, every time is within `end`, every name is one line,
    /// every state value and event type used (and event value, where the type names values) is
    /// named.
    pub fn validate(&self) -> Result<(), String> {
        if let TimeUnit::Cycles { freq_mhz } = self.unit {
            if !(freq_mhz.is_finite() && freq_mhz > 0.0) {
                return Err(format!("clock of {freq_mhz} MHz: must be positive"));
            }
            if freq_mhz > 1000.0 {
                return Err(format!(
                    "clock of {freq_mhz} MHz: a cycle of {} ns, and Paraver's finest unit is \
                     the ns, in which two cycles could not be told apart; a Paraver trace needs \
                     a clock of at most 1000 MHz, or one whose cycle is a whole number of ns",
                    1000.0 / freq_mhz
                ));
            }
        }
        if self.nodes.is_empty() {
            return Err("no node: Paraver's resource model needs at least one".into());
        }
        for n in &self.nodes {
            name_ok("node", &n.name)?;
            if n.cpus.is_empty() {
                return Err(format!(
                    "node {:?} has no CPU: Paraver's resource model needs at least one",
                    n.name
                ));
            }
            for c in &n.cpus {
                name_ok("CPU", c)?;
            }
        }
        if self.appls.is_empty() {
            return Err("no application: Paraver's process model needs at least one".into());
        }
        for a in &self.appls {
            name_ok("application", &a.name)?;
            if a.tasks.is_empty() {
                return Err(format!("application {:?} has no task", a.name));
            }
            for t in &a.tasks {
                name_ok("task", &t.name)?;
                let Some(node) = self.nodes.get(t.node as usize) else {
                    return Err(format!(
                        "task {:?} is on node {}; there are {} nodes",
                        t.name,
                        t.node,
                        self.nodes.len()
                    ));
                };
                if t.threads.is_empty() {
                    return Err(format!("task {:?} has no thread", t.name));
                }
                for th in &t.threads {
                    name_ok("thread", &th.name)?;
                    if let Some(c) = th.cpu {
                        if c as usize >= node.cpus.len() {
                            return Err(format!(
                                "thread {:?} is on CPU {c} of node {:?}, which has {}",
                                th.name,
                                node.name,
                                node.cpus.len()
                            ));
                        }
                    }
                }
            }
        }
        for (v, l) in &self.state_labels {
            name_ok(&format!("state {v}"), &l.name)?;
        }
        for (ty, e) in &self.event_types {
            name_ok(&format!("event type {ty}"), &e.name)?;
            for (v, n) in &e.values {
                name_ok(&format!("value {v} of event type {ty}"), n)?;
            }
        }
        let obj = |o: Obj, what: &str| -> Result<(), String> {
            match self.thread(o) {
                Some(_) => Ok(()),
                None => Err(format!("{what} names object {o:?}, which does not exist")),
            }
        };
        let within = |t: u64, what: &str| -> Result<(), String> {
            if t > self.end {
                return Err(format!("{what} at {t}, after the trace's end {}", self.end));
            }
            Ok(())
        };
        for s in &self.states {
            obj(s.obj, "a state record")?;
            if s.begin > s.end {
                return Err(format!("state record {s:?} ends before it begins"));
            }
            within(s.end, "a state record ends")?;
            if !self.state_labels.contains_key(&s.state) {
                return Err(format!("state value {} has no name", s.state));
            }
        }
        for e in &self.events {
            obj(e.obj, "an event record")?;
            within(e.time, "an event record")?;
            if e.events.is_empty() {
                return Err(format!("event record {e:?} holds no event"));
            }
            for &(ty, v) in &e.events {
                let Some(t) = self.event_types.get(&ty) else {
                    return Err(format!("event type {ty} has no name"));
                };
                if !t.values.is_empty() && !t.values.contains_key(&v) {
                    return Err(format!(
                        "value {v} of event type {ty} ({}) has no name",
                        t.name
                    ));
                }
            }
        }
        for c in &self.comms {
            obj(c.send, "a communication record's sender")?;
            obj(c.recv, "a communication record's receiver")?;
            for t in [c.log_send, c.phys_send, c.log_recv, c.phys_recv] {
                within(t, "a communication record")?;
            }
        }
        Ok(())
    }

    /// Sort every record list in the order the `.prv` holds them (so a trace read back equals
    /// the sorted trace written).
    pub fn sort(&mut self) {
        self.states
            .sort_by_key(|s| (s.begin, s.obj, s.end, s.state));
        self.events
            .sort_by(|a, b| (a.time, a.obj, &a.events).cmp(&(b.time, b.obj, &b.events)));
        self.comms.sort_by_key(|c| {
            (
                c.log_send,
                c.send,
                c.phys_send,
                c.recv,
                c.log_recv,
                c.phys_recv,
                c.size,
                c.tag,
            )
        });
    }

    /// The `.prv` file's text.
    pub fn prv(&self) -> Result<String, String> {
        self.validate()?;
        let mut t = self.clone();
        t.sort();
        // the files hold ns (rounding keeps the order: a cycle is at least a ns)
        let u = t.unit;
        t.end = u.written(t.end);
        for x in &mut t.states {
            (x.begin, x.end) = (u.written(x.begin), u.written(x.end));
        }
        for x in &mut t.events {
            x.time = u.written(x.time);
        }
        for x in &mut t.comms {
            (x.log_send, x.phys_send) = (u.written(x.log_send), u.written(x.phys_send));
            (x.log_recv, x.phys_recv) = (u.written(x.log_recv), u.written(x.phys_recv));
        }
        let mut s = String::new();
        let cpus: Vec<String> = t.nodes.iter().map(|n| n.cpus.len().to_string()).collect();
        let _ = write!(
            s,
            "#Paraver ({DATE}):{}_ns:{}({}):{}",
            t.end,
            t.nodes.len(),
            cpus.join(","),
            t.appls.len()
        );
        for a in &t.appls {
            let tasks: Vec<String> = a
                .tasks
                .iter()
                .map(|k| format!("{}:{}", k.threads.len(), k.node + 1))
                .collect();
            let _ = write!(s, ":{}({})", a.tasks.len(), tasks.join(","));
        }
        s.push('\n');
        let o = |o: Obj| {
            format!(
                "{}:{}:{}:{}",
                t.cpu_field(o),
                o.appl + 1,
                o.task + 1,
                o.thread + 1
            )
        };
        // merge the three sorted lists: by time, then state < event < communication
        let (mut i, mut j, mut k) = (0, 0, 0);
        loop {
            let next = [
                t.states.get(i).map(|x| (x.begin, 0)),
                t.events.get(j).map(|x| (x.time, 1)),
                t.comms.get(k).map(|x| (x.log_send, 2)),
            ]
            .into_iter()
            .flatten()
            .min();
            match next {
                None => break,
                Some((_, 0)) => {
                    let x = &t.states[i];
                    let _ = writeln!(s, "1:{}:{}:{}:{}", o(x.obj), x.begin, x.end, x.state);
                    i += 1;
                }
                Some((_, 1)) => {
                    let x = &t.events[j];
                    let _ = write!(s, "2:{}:{}", o(x.obj), x.time);
                    for (ty, v) in &x.events {
                        let _ = write!(s, ":{ty}:{v}");
                    }
                    s.push('\n');
                    j += 1;
                }
                Some(_) => {
                    let x = &t.comms[k];
                    let _ = writeln!(
                        s,
                        "3:{}:{}:{}:{}:{}:{}:{}:{}",
                        o(x.send),
                        x.log_send,
                        x.phys_send,
                        o(x.recv),
                        x.log_recv,
                        x.phys_recv,
                        x.size,
                        x.tag
                    );
                    k += 1;
                }
            }
        }
        Ok(s)
    }

    /// The comment line that tells a trace in cycles from one in ns (Paraver has no cycles).
    fn unit_comment(&self) -> Option<String> {
        match self.unit {
            TimeUnit::Ns => None,
            TimeUnit::Cycles { freq_mhz } => Some(format!(
                "# {UNIT_NOTE}{freq_mhz} MHz clock ({} ns a cycle), each rounded to the nearest ns",
                1000.0 / freq_mhz
            )),
        }
    }

    /// The `.pcf` file's text: Paraver's default options, then the name and colour of every
    /// state value and the name of every event type and named value.
    pub fn pcf(&self) -> Result<String, String> {
        self.validate()?;
        let mut s = String::new();
        if let Some(c) = self.unit_comment() {
            s.push_str(&c);
            s.push('\n');
        }
        let opt = |s: &mut String, k: &str, v: &str| {
            let _ = writeln!(s, "{k:<20}{v}");
        };
        s.push_str("DEFAULT_OPTIONS\n\n");
        opt(&mut s, "LEVEL", "THREAD");
        opt(&mut s, "UNITS", "NANOSEC");
        opt(&mut s, "LOOK_BACK", "100");
        opt(&mut s, "SPEED", "1");
        opt(&mut s, "FLAG_ICONS", "ENABLED");
        opt(
            &mut s,
            "NUM_OF_STATE_COLORS",
            &self.state_labels.len().to_string(),
        );
        opt(&mut s, "YMAX_SCALE", "37");
        s.push_str("\n\nDEFAULT_SEMANTIC\n\n");
        opt(&mut s, "THREAD_FUNC", "State As Is");
        s.push_str("\n\nSTATES\n");
        for (v, l) in &self.state_labels {
            let _ = writeln!(s, "{v:<4} {}", l.name);
        }
        s.push_str("\n\nSTATES_COLOR\n");
        for (v, l) in &self.state_labels {
            let (r, g, b) = l.color;
            let _ = writeln!(s, "{v:<4} {{{r},{g},{b}}}");
        }
        // one EVENT_TYPE section a type: a section's VALUES name the values of all its types
        for (ty, e) in &self.event_types {
            let _ = writeln!(s, "\n\nEVENT_TYPE\n0    {ty:<10} {}", e.name);
            if !e.values.is_empty() {
                s.push_str("VALUES\n");
                for (v, n) in &e.values {
                    let _ = writeln!(s, "{v:<10} {n}");
                }
            }
        }
        Ok(s)
    }

    /// The `.row` file's text: the name of every CPU, node, application, task and thread.
    pub fn row(&self) -> Result<String, String> {
        self.validate()?;
        let mut s = String::new();
        if let Some(c) = self.unit_comment() {
            s.push_str(&c);
            s.push('\n');
        }
        let level = |s: &mut String, l: &str, names: Vec<&str>| {
            let _ = writeln!(s, "LEVEL {l} SIZE {}", names.len());
            for n in names {
                s.push_str(n);
                s.push('\n');
            }
            s.push('\n');
        };
        let cpus = self
            .nodes
            .iter()
            .flat_map(|n| n.cpus.iter().map(String::as_str))
            .collect();
        level(&mut s, "CPU", cpus);
        level(
            &mut s,
            "NODE",
            self.nodes.iter().map(|n| n.name.as_str()).collect(),
        );
        level(
            &mut s,
            "APPL",
            self.appls.iter().map(|a| a.name.as_str()).collect(),
        );
        let tasks = self.appls.iter().flat_map(|a| a.tasks.iter());
        level(
            &mut s,
            "TASK",
            tasks.clone().map(|t| t.name.as_str()).collect(),
        );
        level(
            &mut s,
            "THREAD",
            tasks
                .flat_map(|t| t.threads.iter().map(|h| h.name.as_str()))
                .collect(),
        );
        Ok(s)
    }
}

/// The start of the comment line that marks a trace of cycles (held as ns).
const UNIT_NOTE: &str = "times are ns: the cycles of a ";

/// The three files of trace `stem`: `stem.prv`, `stem.pcf`, `stem.row`.
pub fn files(stem: &Path) -> [PathBuf; 3] {
    ["prv", "pcf", "row"].map(|e| {
        let mut p = stem.as_os_str().to_owned();
        p.push(".");
        p.push(e);
        PathBuf::from(p)
    })
}

/// Write `t` to `stem.prv`, `stem.pcf` and `stem.row`; an error names the file.
pub fn write(t: &Trace, stem: &Path) -> Result<(), String> {
    let texts = [t.prv()?, t.pcf()?, t.row()?];
    for (p, text) in files(stem).iter().zip(texts) {
        std::fs::write(p, text).map_err(|e| format!("{}: {e}", p.display()))?;
    }
    Ok(())
}

/// Read the trace `stem.prv`, `stem.pcf`, `stem.row` back; an error names file and line.
pub fn read(stem: &Path) -> Result<Trace, String> {
    let [prv, pcf, row] = files(stem);
    let text = |p: &Path| crate::input::read_text_bounded(p, crate::input::MAX_TRACE_BYTES);
    parse(
        (&prv.display().to_string(), &text(&prv)?),
        (&pcf.display().to_string(), &text(&pcf)?),
        (&row.display().to_string(), &text(&row)?),
    )
}

/// A field of a record line, parsed.
fn num<T: std::str::FromStr>(f: Option<&str>, what: &str) -> Result<T, String> {
    let f = f.ok_or_else(|| format!("{what} missing"))?;
    f.trim()
        .parse()
        .map_err(|_| format!("{what} {f:?} is not a number of its kind"))
}

/// The header's process and resource models: CPUs a node, (threads, node from 1) a task of
/// each application, the end time.
struct Header {
    end: u64,
    cpus: Vec<u32>,
    appls: Vec<Vec<(u32, u32)>>,
}

fn parse_header(line: &str) -> Result<Header, String> {
    let rest = line
        .strip_prefix("#Paraver (")
        .ok_or("the header does not start with \"#Paraver (\"")?;
    let close = rest.find(')').ok_or("the header's date has no ')'")?;
    let rest = rest[close + 1..]
        .strip_prefix(':')
        .ok_or("no ':' after the header's date")?;
    let (end, rest) = rest
        .split_once(':')
        .ok_or("the header ends after its time")?;
    let end = end
        .strip_suffix("_ns")
        .ok_or_else(|| format!("header time {end:?}: this reader takes _ns times only"))?;
    let end = num(Some(end), "header time")?;
    // resource model: N(c,c,..)
    let open = rest.find('(').ok_or("the resource model has no '('")?;
    let close = rest.find(')').ok_or("the resource model has no ')'")?;
    let nodes: usize = num(Some(&rest[..open]), "node count")?;
    let cpus = rest[open + 1..close]
        .split(',')
        .map(|c| num(Some(c), "CPU count"))
        .collect::<Result<Vec<u32>, _>>()?;
    if cpus.len() != nodes {
        return Err(format!("{nodes} nodes but {} CPU counts", cpus.len()));
    }
    let rest = rest[close + 1..]
        .strip_prefix(':')
        .ok_or("no ':' after the resource model")?;
    let (n, mut rest) = rest
        .split_once(':')
        .ok_or("no ':' after the application count")?;
    let n: usize = num(Some(n), "application count")?;
    let mut appls = Vec::new();
    for a in 0..n {
        let open = rest.find('(').ok_or("an application has no '('")?;
        let close = rest.find(')').ok_or("an application has no ')'")?;
        let ntasks: usize = num(Some(&rest[..open]), "task count")?;
        let tasks = rest[open + 1..close]
            .split(',')
            .map(|t| {
                let (th, node) = t.split_once(':').ok_or("a task is not THREADS:NODE")?;
                let node: u32 = num(Some(node), "node")?;
                if node == 0 {
                    return Err("a task on node 0 (nodes count from 1)".to_string());
                }
                Ok((num(Some(th), "thread count")?, node))
            })
            .collect::<Result<Vec<(u32, u32)>, String>>()?;
        if tasks.len() != ntasks {
            return Err(format!(
                "application {}: {ntasks} tasks but {} given",
                a + 1,
                tasks.len()
            ));
        }
        appls.push(tasks);
        rest = &rest[close + 1..];
        if a + 1 < n {
            rest = rest
                .strip_prefix(':')
                .ok_or("no ':' between applications")?;
        }
    }
    if !rest.is_empty() {
        return Err(format!(
            "{rest:?} after the applications: this reader takes no communicators"
        ));
    }
    Ok(Header { end, cpus, appls })
}

/// Parse the `.prv`, `.pcf` and `.row` texts (each with its name for errors) into a trace.
pub fn parse(prv: (&str, &str), pcf: (&str, &str), row: (&str, &str)) -> Result<Trace, String> {
    let (unit, state_labels, event_types) =
        parse_pcf(pcf.1).map_err(|e| format!("{}{e}", pcf.0))?;
    let rows = parse_row(row.1).map_err(|e| format!("{}{e}", row.0))?;
    let mut lines = prv.1.lines().enumerate();
    let (_, head) = lines
        .next()
        .ok_or_else(|| format!("{}: empty file", prv.0))?;
    let h = parse_header(head).map_err(|e| format!("{}:1: {e}", prv.0))?;
    let names = |level: &str, n: usize| -> Result<Vec<String>, String> {
        let v = rows.get(level).cloned().unwrap_or_default();
        if v.len() != n {
            return Err(format!(
                "{}: LEVEL {level} names {} objects; the trace has {n}",
                row.0,
                v.len()
            ));
        }
        Ok(v)
    };
    let ncpus: usize = h.cpus.iter().map(|&c| c as usize).sum();
    let mut cpu_names = names("CPU", ncpus)?.into_iter();
    let node_names = names("NODE", h.cpus.len())?;
    let mut nodes = Vec::new();
    let mut first_cpu = Vec::new();
    for (name, &c) in node_names.into_iter().zip(&h.cpus) {
        first_cpu.push(nodes.iter().map(|n: &Node| n.cpus.len()).sum::<usize>() + 1);
        nodes.push(Node {
            name,
            cpus: cpu_names.by_ref().take(c as usize).collect(),
        });
    }
    let appl_names = names("APPL", h.appls.len())?;
    let mut task_names = names("TASK", h.appls.iter().map(Vec::len).sum())?.into_iter();
    let nthreads = h.appls.iter().flatten().map(|t| t.0 as usize).sum();
    let mut thread_names = names("THREAD", nthreads)?.into_iter();
    let mut appls: Vec<Appl> = appl_names
        .into_iter()
        .zip(&h.appls)
        .map(|(name, tasks)| Appl {
            name,
            tasks: tasks
                .iter()
                .map(|&(th, node)| Task {
                    name: task_names.next().unwrap_or_default(),
                    node: node - 1,
                    threads: thread_names
                        .by_ref()
                        .take(th as usize)
                        .map(|name| Thread { name, cpu: None })
                        .collect(),
                })
                .collect(),
        })
        .collect();
    for t in appls.iter().flat_map(|a| &a.tasks) {
        if t.node as usize >= nodes.len() {
            return Err(format!(
                "{}:1: task {:?} on node {}, of {}",
                prv.0,
                t.name,
                t.node + 1,
                nodes.len()
            ));
        }
    }
    let (mut states, mut events, mut comms) = (Vec::new(), Vec::new(), Vec::new());
    // an object and its CPU field: the CPU must be one of its task's node (or 0)
    let obj = |f: &mut std::str::Split<'_, char>, appls: &mut Vec<Appl>| -> Result<Obj, String> {
        let cpu: usize = num(f.next(), "CPU")?;
        let a: u32 = num(f.next(), "application")?;
        let k: u32 = num(f.next(), "task")?;
        let th: u32 = num(f.next(), "thread")?;
        let o = Obj {
            appl: a.wrapping_sub(1),
            task: k.wrapping_sub(1),
            thread: th.wrapping_sub(1),
        };
        let task = appls
            .get_mut(o.appl as usize)
            .and_then(|x| x.tasks.get_mut(o.task as usize))
            .ok_or_else(|| format!("object {a}:{k}:{th} does not exist"))?;
        let fc = first_cpu[task.node as usize];
        let ncpu = nodes[task.node as usize].cpus.len();
        let thread = task
            .threads
            .get_mut(o.thread as usize)
            .ok_or_else(|| format!("object {a}:{k}:{th} does not exist"))?;
        let c = if cpu == 0 {
            None
        } else if cpu >= fc && cpu < fc + ncpu {
            Some((cpu - fc) as u32)
        } else {
            return Err(format!(
                "object {a}:{k}:{th} on CPU {cpu}, not one of its task's node"
            ));
        };
        if thread.cpu.is_some() && thread.cpu != c {
            return Err(format!("object {a}:{k}:{th} on two CPUs"));
        }
        thread.cpu = thread.cpu.or(c);
        Ok(o)
    };
    for (i, line) in lines {
        let at = |e: String| format!("{}:{}: {e}", prv.0, i + 1);
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut f = line.split(':');
        let kind = f.next().unwrap_or_default();
        match kind {
            "1" => {
                let o = obj(&mut f, &mut appls).map_err(at)?;
                states.push(State {
                    obj: o,
                    begin: num(f.next(), "begin").map_err(at)?,
                    end: num(f.next(), "end").map_err(at)?,
                    state: num(f.next(), "state").map_err(at)?,
                });
            }
            "2" => {
                let o = obj(&mut f, &mut appls).map_err(at)?;
                let time = num(f.next(), "time").map_err(at)?;
                let rest: Vec<&str> = f.by_ref().collect();
                if rest.is_empty() || !rest.len().is_multiple_of(2) {
                    return Err(at("an event record is TIME then TYPE:VALUE pairs".into()));
                }
                let pairs = rest
                    .chunks(2)
                    .map(|p| {
                        Ok((
                            num(Some(p[0]), "event type")?,
                            num(Some(p[1]), "event value")?,
                        ))
                    })
                    .collect::<Result<Vec<_>, String>>()
                    .map_err(at)?;
                events.push(Event {
                    obj: o,
                    time,
                    events: pairs,
                });
            }
            "3" => {
                let send = obj(&mut f, &mut appls).map_err(at)?;
                let log_send = num(f.next(), "logical send").map_err(at)?;
                let phys_send = num(f.next(), "physical send").map_err(at)?;
                let recv = obj(&mut f, &mut appls).map_err(at)?;
                comms.push(Comm {
                    send,
                    log_send,
                    phys_send,
                    recv,
                    log_recv: num(f.next(), "logical receive").map_err(at)?,
                    phys_recv: num(f.next(), "physical receive").map_err(at)?,
                    size: num(f.next(), "size").map_err(at)?,
                    tag: num(f.next(), "tag").map_err(at)?,
                });
            }
            k => {
                return Err(at(format!(
                    "record type {k:?}: this reader takes 1, 2 and 3"
                )))
            }
        }
        if let Some(x) = f.next() {
            return Err(at(format!("{x:?} and more after the record's last field")));
        }
    }
    // the files hold ns: back to the trace's unit
    let u = unit;
    for x in &mut states {
        (x.begin, x.end) = (u.read_back(x.begin), u.read_back(x.end));
    }
    for x in &mut events {
        x.time = u.read_back(x.time);
    }
    for x in &mut comms {
        (x.log_send, x.phys_send) = (u.read_back(x.log_send), u.read_back(x.phys_send));
        (x.log_recv, x.phys_recv) = (u.read_back(x.log_recv), u.read_back(x.phys_recv));
    }
    let t = Trace {
        unit,
        end: u.read_back(h.end),
        nodes,
        appls,
        states,
        events,
        comms,
        state_labels,
        event_types,
    };
    t.validate().map_err(|e| format!("{}: {e}", prv.0))?;
    Ok(t)
}

type Labels = (
    TimeUnit,
    BTreeMap<u32, StateLabel>,
    BTreeMap<u32, EventType>,
);

/// The `.pcf`'s unit comment, state names and colours, and event types and values. Errors
/// start with ":LINE: " (the caller puts the file name first).
fn parse_pcf(text: &str) -> Result<Labels, String> {
    let mut unit = TimeUnit::Ns;
    let mut names: BTreeMap<u32, String> = BTreeMap::new();
    let mut colors: BTreeMap<u32, (u8, u8, u8)> = BTreeMap::new();
    let mut types: BTreeMap<u32, EventType> = BTreeMap::new();
    let mut section = "";
    let mut current: Vec<u32> = Vec::new();
    let mut in_values = false;
    for (i, raw) in text.lines().enumerate() {
        let at = |e: String| format!(":{}: {e}", i + 1);
        let line = raw.replace('\t', " ");
        let line = line.trim();
        if let Some(c) = line.strip_prefix("# ") {
            if let Some(f) = c.strip_prefix(UNIT_NOTE) {
                let mhz = f.split(' ').next().unwrap_or_default();
                unit = TimeUnit::Cycles {
                    freq_mhz: num(Some(mhz), "clock frequency").map_err(at)?,
                };
            }
            continue;
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match line {
            "DEFAULT_OPTIONS" | "DEFAULT_SEMANTIC" | "STATES" | "STATES_COLOR" | "EVENT_TYPE"
            | "GRADIENT_COLOR" | "GRADIENT_NAMES" => {
                section = match line {
                    "DEFAULT_OPTIONS" => "options",
                    "DEFAULT_SEMANTIC" => "semantic",
                    "STATES" => "states",
                    "STATES_COLOR" => "colors",
                    "EVENT_TYPE" => "events",
                    _ => "ignored",
                };
                current.clear();
                in_values = false;
                continue;
            }
            _ => {}
        }
        let (first, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        match section {
            "states" => {
                names.insert(num(Some(first), "state value").map_err(at)?, rest.into());
            }
            "colors" => {
                let rgb = rest
                    .strip_prefix('{')
                    .and_then(|r| r.strip_suffix('}'))
                    .ok_or_else(|| at(format!("colour {rest:?} is not {{R,G,B}}")))?;
                let c = rgb
                    .split(',')
                    .map(|x| num(Some(x), "colour component"))
                    .collect::<Result<Vec<u8>, _>>()
                    .map_err(at)?;
                if c.len() != 3 {
                    return Err(at(format!("colour {rest:?} is not {{R,G,B}}")));
                }
                colors.insert(
                    num(Some(first), "state value").map_err(at)?,
                    (c[0], c[1], c[2]),
                );
            }
            "events" if line == "VALUES" => in_values = true,
            "events" if !in_values => {
                let (ty, name) = rest.split_once(' ').unwrap_or((rest, ""));
                let ty: u32 = num(Some(ty), "event type").map_err(at)?;
                current.push(ty);
                types.entry(ty).or_default().name = name.trim().into();
            }
            "events" => {
                let v: i64 = num(Some(first), "event value").map_err(at)?;
                for ty in &current {
                    types
                        .get_mut(ty)
                        .expect("types of the section")
                        .values
                        .insert(v, rest.into());
                }
            }
            "" => return Err(at(format!("{line:?} before any section"))),
            _ => {}
        }
    }
    let mut labels = BTreeMap::new();
    for (v, name) in names {
        let color = *colors
            .get(&v)
            .ok_or_else(|| format!(": state {v} ({name}) has no colour"))?;
        labels.insert(v, StateLabel { name, color });
    }
    Ok((unit, labels, types))
}

/// The `.row`'s names by level. Errors start with ":LINE: ".
fn parse_row(text: &str) -> Result<BTreeMap<String, Vec<String>>, String> {
    let mut out = BTreeMap::new();
    let mut lines = text.lines().enumerate();
    while let Some((i, line)) = lines.next() {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split(' ').collect();
        let [kw, level, size_kw, n] = f[..] else {
            return Err(format!(":{}: {line:?} is not LEVEL NAME SIZE N", i + 1));
        };
        if kw != "LEVEL" || size_kw != "SIZE" {
            return Err(format!(":{}: {line:?} is not LEVEL NAME SIZE N", i + 1));
        }
        let n: usize = num(Some(n), "size").map_err(|e| format!(":{}: {e}", i + 1))?;
        let names: Vec<String> = lines.by_ref().take(n).map(|(_, l)| l.to_string()).collect();
        if names.len() != n {
            return Err(format!(": LEVEL {level} SIZE {n} but the file ends"));
        }
        out.insert(level.to_string(), names);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obj(task: u32) -> Obj {
        Obj {
            appl: 0,
            task,
            thread: 0,
        }
    }

    /// Two nodes, two tasks (one thread on a CPU each, the second task two threads), states,
    /// a multi-event line and a communication, records given out of order.
    fn sample(unit: TimeUnit) -> Trace {
        let mut t = Trace::new(unit);
        t.end = 100;
        t.nodes = vec![
            Node {
                name: "endpoint 0".into(),
                cpus: vec!["ep0.cpu0".into()],
            },
            Node {
                name: "endpoint 1".into(),
                cpus: vec!["ep1.cpu0".into(), "ep1.cpu1".into()],
            },
        ];
        t.appls = vec![Appl {
            name: "program".into(),
            tasks: vec![
                Task {
                    name: "rank 0".into(),
                    node: 0,
                    threads: vec![Thread {
                        name: "rank 0".into(),
                        cpu: Some(0),
                    }],
                },
                Task {
                    name: "rank 1".into(),
                    node: 1,
                    threads: vec![
                        Thread {
                            name: "rank 1".into(),
                            cpu: Some(1),
                        },
                        Thread {
                            name: "rank 1 helper".into(),
                            cpu: None,
                        },
                    ],
                },
            ],
        }];
        t.state_labels.insert(
            1,
            StateLabel {
                name: "Compute".into(),
                color: (0, 0, 255),
            },
        );
        t.state_labels.insert(
            3,
            StateLabel {
                name: "Send".into(),
                color: (255, 0, 0),
            },
        );
        t.event_types.insert(
            50000001,
            EventType {
                name: "Call".into(),
                values: [(0, "End".into()), (1, "Send".into())].into(),
            },
        );
        t.event_types.insert(
            50100001,
            EventType {
                name: "Message size".into(),
                values: BTreeMap::new(),
            },
        );
        t.states = vec![
            State {
                obj: obj(1),
                begin: 0,
                end: 100,
                state: 1,
            },
            State {
                obj: obj(0),
                begin: 40,
                end: 100,
                state: 1,
            },
            State {
                obj: obj(0),
                begin: 0,
                end: 40,
                state: 3,
            },
        ];
        t.events = vec![Event {
            obj: obj(0),
            time: 0,
            events: vec![(50000001, 1), (50100001, 4096)],
        }];
        t.comms = vec![Comm {
            send: obj(0),
            log_send: 0,
            phys_send: 10,
            recv: Obj {
                appl: 0,
                task: 1,
                thread: 1,
            },
            log_recv: 5,
            phys_recv: 60,
            size: 4096,
            tag: -7,
        }];
        t
    }

    fn round_trip(t: &Trace) -> Trace {
        parse(
            ("t.prv", &t.prv().unwrap()),
            ("t.pcf", &t.pcf().unwrap()),
            ("t.row", &t.row().unwrap()),
        )
        .unwrap()
    }

    #[test]
    fn a_trace_read_back_equals_the_sorted_trace_written() {
        for unit in [TimeUnit::Ns, TimeUnit::Cycles { freq_mhz: 156.25 }] {
            let t = sample(unit);
            let mut sorted = t.clone();
            sorted.sort();
            assert_ne!(sorted.states, t.states, "the sample is out of order");
            assert_eq!(round_trip(&t), sorted);
        }
    }

    #[test]
    fn cycles_are_held_as_the_nearest_ns_and_read_back_exactly() {
        for freq_mhz in [156.25, 300.0, 999.9, 1.5] {
            let u = TimeUnit::Cycles { freq_mhz };
            let mut last = None;
            for c in (0..20_000).chain([1 << 40, (1 << 40) + 1]) {
                let ns = u.written(c);
                assert!((ns as f64 - c as f64 * 1000.0 / freq_mhz).abs() <= 0.5);
                assert_eq!(u.read_back(ns), c, "{freq_mhz} MHz, cycle {c}");
                assert!(last.is_none_or(|l| ns > l), "{freq_mhz} MHz: order");
                last = Some(ns);
            }
        }
        // a cycle shorter than a ns cannot be held in ns without two cycles meeting
        let mut t = sample(TimeUnit::Cycles { freq_mhz: 2000.0 });
        let e = t.prv().unwrap_err();
        assert!(e.contains("Paraver's finest unit is the ns"), "{e}");
        t.unit = TimeUnit::Cycles { freq_mhz: 1000.0 };
        assert!(t.prv().is_ok());
    }

    #[test]
    fn the_files_follow_paraver_syntax() {
        let t = sample(TimeUnit::Cycles { freq_mhz: 156.25 });
        let prv = t.prv().unwrap();
        let lines: Vec<&str> = prv.lines().collect();
        assert_eq!(
            lines,
            [
                // cycles of 6.4 ns held as ns, Paraver's unit (issue 32 §2)
                "#Paraver (01/01/70 at 00:00):640_ns:2(1,2):1:2(1:1,2:2)",
                "1:1:1:1:1:0:256:3",
                "1:3:1:2:1:0:640:1",
                "2:1:1:1:1:0:50000001:1:50100001:4096",
                "3:1:1:1:1:0:64:0:1:2:2:32:384:4096:-7",
                "1:1:1:1:1:256:640:1",
            ]
        );
        let pcf = t.pcf().unwrap();
        assert!(pcf.starts_with(
            "# times are ns: the cycles of a 156.25 MHz clock (6.4 ns a cycle), each rounded"
        ));
        assert!(pcf.contains("\nSTATES\n1    Compute\n3    Send\n"), "{pcf}");
        assert!(pcf.contains("\nSTATES_COLOR\n1    {0,0,255}\n"), "{pcf}");
        assert!(
            pcf.contains("\nEVENT_TYPE\n0    50000001   Call\nVALUES\n0          End\n"),
            "{pcf}"
        );
        let row = t.row().unwrap();
        assert!(row.contains("LEVEL CPU SIZE 3\nep0.cpu0\nep1.cpu0\nep1.cpu1\n\n"));
        assert!(row.contains("LEVEL THREAD SIZE 3\nrank 0\nrank 1\nrank 1 helper\n"));
    }

    #[test]
    fn a_name_missing_or_an_object_unknown_is_an_error() {
        let mut t = sample(TimeUnit::Ns);
        t.states[0].state = 2;
        assert_eq!(t.prv().unwrap_err(), "state value 2 has no name");
        let mut t = sample(TimeUnit::Ns);
        t.events[0].events[0].1 = 9;
        assert!(t
            .prv()
            .unwrap_err()
            .contains("value 9 of event type 50000001"));
        let mut t = sample(TimeUnit::Ns);
        t.comms[0].recv.thread = 5;
        assert!(t.prv().unwrap_err().contains("does not exist"));
        let mut t = sample(TimeUnit::Ns);
        t.states[0].end = 101;
        assert!(t.prv().unwrap_err().contains("after the trace's end 100"));
        let mut t = sample(TimeUnit::Ns);
        t.appls[0].tasks[0].name = "two\nlines".into();
        assert!(t.row().is_err());
    }

    #[test]
    fn a_bad_line_is_an_error_naming_file_and_line() {
        let t = sample(TimeUnit::Ns);
        let (pcf, row) = (t.pcf().unwrap(), t.row().unwrap());
        let prv = t.prv().unwrap();
        for (bad, want) in [
            ("1:1:1:1:1:0:x:3", "t.prv:3: end \"x\""),
            ("1:1:1:9:1:0:4:3", "t.prv:3: object 1:9:1 does not exist"),
            ("4:1:1:1:1:0", "t.prv:3: record type \"4\""),
            ("2:1:1:1:1:0:5", "t.prv:3: an event record"),
            ("1:1:1:1:1:0:4:3:9", "t.prv:3: \"9\" and more"),
        ] {
            let mut l: Vec<&str> = prv.lines().collect();
            l.insert(2, bad);
            let text = l.join("\n");
            let e = parse(("t.prv", &text), ("t.pcf", &pcf), ("t.row", &row)).unwrap_err();
            assert!(e.starts_with(want), "{bad}: {e}");
        }
        let e = parse(
            ("t.prv", "#Paraver (x):5_us:1(1):1:1(1:1)\n"),
            ("t.pcf", &pcf),
            ("t.row", &row),
        )
        .unwrap_err();
        assert!(e.starts_with("t.prv:1: header time \"5_us\""), "{e}");
    }
}
