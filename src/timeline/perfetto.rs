//! Chrome's Trace Event Format, the JSON that `chrome://tracing` and ui.perfetto.dev open:
//! `{"traceEvents": [...], "displayTimeUnit": "ns"}`. Its events, as far as a timeline needs
//! them ("Trace Event Format", Google, the document both viewers follow):
//!
//! ```text
//!   ph "X"  a complete event: ts and dur, microseconds (fractions allowed), on pid/tid
//!   ph "M"  metadata: name "process_name" / "thread_name" (args.name), "*_sort_index"
//!   ph "s"  a flow's start, bound to the slice enclosing ts on pid/tid; "f" its end, with
//!           "bp": "e" bound to the slice enclosing its ts; a flow's events share cat, name, id
//! ```
//!
//! The file is written with serde_json and read back with it (the tests do).

use serde::{Deserialize, Serialize};
use std::path::Path;

/// A trace file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TraceFile {
    #[serde(rename = "traceEvents")]
    pub trace_events: Vec<TraceEvent>,
    /// How the viewer shows times ("ms" or "ns"); the file's times are microseconds anyway.
    #[serde(rename = "displayTimeUnit")]
    pub display_time_unit: String,
    /// Free key-values a viewer shows with the trace.
    #[serde(rename = "otherData", default, skip_serializing_if = "Option::is_none")]
    pub other_data: Option<serde_json::Value>,
}

/// One event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TraceEvent {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cat: Option<String>,
    pub ph: String,
    /// Microseconds.
    pub ts: f64,
    /// Microseconds ("X" events).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dur: Option<f64>,
    pub pid: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tid: Option<u64>,
    /// A flow's identifier ("s", "f").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<u64>,
    /// "e": a flow end bound to the enclosing slice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bp: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args: Option<serde_json::Value>,
}

impl TraceEvent {
    /// A complete event ("X") on `pid`/`tid` from `ts` for `dur` microseconds.
    pub fn complete(name: &str, cat: &str, ts: f64, dur: f64, pid: u64, tid: u64) -> TraceEvent {
        TraceEvent {
            name: name.into(),
            cat: Some(cat.into()),
            ph: "X".into(),
            ts,
            dur: Some(dur),
            pid,
            tid: Some(tid),
            id: None,
            bp: None,
            args: None,
        }
    }

    /// A metadata event ("M") `name` (e.g. "process_name") with `args`.
    pub fn meta(name: &str, pid: u64, tid: Option<u64>, args: serde_json::Value) -> TraceEvent {
        TraceEvent {
            name: name.into(),
            cat: None,
            ph: "M".into(),
            ts: 0.0,
            dur: None,
            pid,
            tid,
            id: None,
            bp: None,
            args: Some(args),
        }
    }

    /// A flow's start ("s", `end` false) or end ("f", bound to the enclosing slice).
    pub fn flow(
        name: &str,
        cat: &str,
        id: u64,
        ts: f64,
        pid: u64,
        tid: u64,
        end: bool,
    ) -> TraceEvent {
        TraceEvent {
            name: name.into(),
            cat: Some(cat.into()),
            ph: if end { "f" } else { "s" }.into(),
            ts,
            dur: None,
            pid,
            tid: Some(tid),
            id: Some(id),
            bp: end.then(|| "e".into()),
            args: None,
        }
    }
}

/// Write `t` to `path`; an error names the file.
pub fn write(t: &TraceFile, path: &Path) -> Result<(), String> {
    let f = std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut w = std::io::BufWriter::new(f);
    serde_json::to_writer(&mut w, t).map_err(|e| format!("{}: {e}", path.display()))?;
    std::io::Write::flush(&mut w).map_err(|e| format!("{}: {e}", path.display()))
}

/// Read a trace file back; an error names the file (and line and column).
pub fn read(path: &Path) -> Result<TraceFile, String> {
    let text = crate::input::read_text_bounded(path, crate::input::MAX_TRACE_BYTES)?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_serialize_as_the_format_names_them() {
        let t = TraceFile {
            trace_events: vec![
                TraceEvent::meta(
                    "thread_name",
                    1,
                    Some(2),
                    serde_json::json!({"name": "rank 1"}),
                ),
                TraceEvent::complete("Compute", "Compute", 0.0064, 1.5, 1, 2),
                TraceEvent::flow("message", "message", 7, 0.5, 1, 2, true),
            ],
            display_time_unit: "ns".into(),
            other_data: None,
        };
        let s = serde_json::to_string(&t).unwrap();
        assert_eq!(
            s,
            r#"{"traceEvents":[{"name":"thread_name","ph":"M","ts":0.0,"pid":1,"tid":2,"args":{"name":"rank 1"}},{"name":"Compute","cat":"Compute","ph":"X","ts":0.0064,"dur":1.5,"pid":1,"tid":2},{"name":"message","cat":"message","ph":"f","ts":0.5,"pid":1,"tid":2,"id":7,"bp":"e"}],"displayTimeUnit":"ns"}"#
        );
        let back: TraceFile = serde_json::from_str(&s).unwrap();
        assert_eq!(back, t);
    }
}
