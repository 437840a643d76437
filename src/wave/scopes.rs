//! Scope filters for waves (`exanet cosim --scope S`, issue 32 §3): write only the signals of
//! the scopes named, on both sides alike. A filter is a dotted run of scope names, matched
//! against whole components of a signal's full name (`u_router.gen_in[0]` keeps every signal
//! under `TOP.exanet_router_top.u_router.gen_in[0].`, at any depth; a filter may also end in a
//! signal's own name). The signals directly under `TOP` (the top's ports: its clock, reset and
//! stimulus) are always kept, so that every wave file still shows time and inputs.
//!
//! The model's wave applies the filter as it declares its signals. The RTL's wave, which
//! Verilator's tracer writes whole, goes through [`VcdFilter`]: a stream filter of the VCD it
//! writes, keeping the declarations (and the scopes around them) of the signals kept and the
//! value changes of their identifier codes (a code two names share is kept when either is).

use std::io::{BufRead, Read};

/// The scopes to keep (`--scope`, repeatable).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScopeFilter {
    runs: Vec<Vec<String>>,
}

impl ScopeFilter {
    /// From the filters as given; an empty one, or one with an empty component, is refused.
    pub fn new(filters: &[String]) -> Result<ScopeFilter, String> {
        if filters.is_empty() {
            return Err("no scope given".into());
        }
        let mut runs = Vec::new();
        for f in filters {
            let run: Vec<String> = f.split('.').map(str::to_string).collect();
            if run
                .iter()
                .any(|c| c.is_empty() || c.contains(char::is_whitespace))
            {
                return Err(format!(
                    "{f:?}: a scope is dotted names without spaces, such as u_router.gen_in[0]"
                ));
            }
            runs.push(run);
        }
        Ok(ScopeFilter { runs })
    }

    /// Whether the signal of full dotted name `name` (`TOP.top.u_a.sig`) is written.
    pub fn keeps(&self, name: &str) -> bool {
        let parts: Vec<&str> = name.split('.').collect();
        if parts.len() <= 2 {
            // directly under TOP: the top's ports
            return true;
        }
        self.runs.iter().any(|run| {
            parts
                .windows(run.len())
                .any(|w| w.iter().zip(run).all(|(a, b)| *a == b))
        })
    }

    /// Whether any of `names` is kept (a filter that keeps only the top's ports names nothing).
    pub fn matches_any<'a>(&self, names: impl IntoIterator<Item = &'a str>) -> bool {
        names
            .into_iter()
            .any(|n| n.split('.').count() > 2 && self.keeps(n))
    }
}

/// A VCD stream (one declaration or value change a line, as Verilator and this crate write
/// them) with only the signals `filter` keeps. The header is read whole before the first byte
/// comes out (a few hundred kilobytes for the largest top); the body streams line by line.
pub struct VcdFilter<R: BufRead> {
    inner: R,
    filter: ScopeFilter,
    /// Identifier codes kept.
    codes: std::collections::HashSet<String>,
    header_done: bool,
    out: Vec<u8>,
    at: usize,
    line: String,
}

impl<R: BufRead> VcdFilter<R> {
    pub fn new(inner: R, filter: ScopeFilter) -> VcdFilter<R> {
        VcdFilter {
            inner,
            filter,
            codes: Default::default(),
            header_done: false,
            out: Vec::new(),
            at: 0,
            line: String::new(),
        }
    }

    /// Reads the header up to `$enddefinitions` and puts what is kept of it into `out`.
    fn header(&mut self) -> std::io::Result<()> {
        let mut lines = Vec::new();
        loop {
            self.line.clear();
            if self.inner.read_line(&mut self.line)? == 0 {
                break;
            }
            let end = self.line.contains("$enddefinitions");
            lines.push(std::mem::take(&mut self.line));
            if end {
                break;
            }
        }
        // which lines go: scopes holding a kept signal, kept signals, the rest of the header
        let mut keep = vec![true; lines.len()];
        let mut path: Vec<String> = Vec::new();
        let mut open: Vec<usize> = Vec::new();
        let mut needed: Vec<bool> = Vec::new();
        for (i, l) in lines.iter().enumerate() {
            let t: Vec<&str> = l.split_whitespace().collect();
            match t.as_slice() {
                ["$scope", _, name, "$end"] => {
                    path.push(name.to_string());
                    open.push(i);
                    needed.push(false);
                    keep[i] = false;
                }
                ["$upscope", "$end"] => {
                    path.pop();
                    let s = open.pop();
                    let n = needed.pop().unwrap_or(false);
                    if let Some(s) = s {
                        keep[s] = n;
                    }
                    keep[i] = n;
                }
                ["$var", _, _, code, name, ..] => {
                    let full = format!("{}.{name}", path.join("."));
                    let k = self.filter.keeps(&full);
                    keep[i] = k;
                    if k {
                        self.codes.insert(code.to_string());
                        needed.iter_mut().for_each(|n| *n = true);
                    }
                }
                _ => {}
            }
        }
        for (l, k) in lines.iter().zip(keep) {
            if k {
                self.out.extend_from_slice(l.as_bytes());
            }
        }
        self.header_done = true;
        Ok(())
    }

    /// The identifier code of a value-change line, None for another line.
    fn code_of(l: &str) -> Option<&str> {
        let l = l.trim_end();
        match l.as_bytes().first()? {
            b'0' | b'1' | b'x' | b'X' | b'z' | b'Z' => Some(&l[1..]),
            b'b' | b'B' | b'r' | b'R' | b's' | b'S' => l.split_whitespace().nth(1),
            _ => None,
        }
    }

    /// Refills `out` with the next kept lines; false at the end of the stream.
    fn refill(&mut self) -> std::io::Result<bool> {
        self.out.clear();
        self.at = 0;
        if !self.header_done {
            self.header()?;
            if !self.out.is_empty() {
                return Ok(true);
            }
        }
        while self.out.len() < 1 << 16 {
            self.line.clear();
            if self.inner.read_line(&mut self.line)? == 0 {
                break;
            }
            let kept = match Self::code_of(&self.line) {
                Some(c) => self.codes.contains(c),
                None => true,
            };
            if kept {
                self.out.extend_from_slice(self.line.as_bytes());
            }
        }
        Ok(!self.out.is_empty())
    }
}

impl<R: BufRead> Read for VcdFilter<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let avail = self.fill_buf()?;
        let n = avail.len().min(buf.len());
        buf[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for VcdFilter<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.at >= self.out.len() && !self.refill()? {
            return Ok(&[]);
        }
        Ok(&self.out[self.at..])
    }

    fn consume(&mut self, n: usize) {
        self.at = (self.at + n).min(self.out.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(s: &[&str]) -> ScopeFilter {
        ScopeFilter::new(&s.iter().map(|x| x.to_string()).collect::<Vec<_>>()).unwrap()
    }

    #[test]
    fn a_filter_matches_whole_components_anywhere_in_the_path() {
        let x = f(&["u_router.gen_in[0]"]);
        assert!(x.keeps("TOP.top.u_router.gen_in[0].u_in.state_q"));
        assert!(x.keeps("TOP.top.u_router.gen_in[0].req_q"));
        assert!(!x.keeps("TOP.top.u_router.gen_in[1].u_in.state_q"));
        assert!(
            !x.keeps("TOP.top.u_router.gen_in[0]x.state_q"),
            "whole components"
        );
        assert!(x.keeps("TOP.clk_i"), "the top's ports are kept");
        assert!(
            f(&["state_q"]).keeps("TOP.top.u_a.state_q"),
            "a signal's own name"
        );
        assert!(ScopeFilter::new(&["a..b".into()]).is_err());
        assert!(ScopeFilter::new(&[]).is_err());
        assert!(x.matches_any(["TOP.clk_i", "TOP.top.u_router.gen_in[0].x"]));
        assert!(!x.matches_any(["TOP.clk_i", "TOP.top.u_b.x"]));
    }

    #[test]
    fn the_vcd_filter_keeps_the_scopes_codes_and_changes_of_the_signals_kept() {
        let vcd = "$timescale 1ps $end\n $scope module TOP $end\n  $var wire 1 ! clk_i $end\n  \
                   $scope module top $end\n   $scope module u_a $end\n    $var wire 8 \" x [7:0] $end\n   \
                   $upscope $end\n   $scope module u_b $end\n    $var wire 1 # y $end\n   $upscope $end\n  \
                   $upscope $end\n $upscope $end\n$enddefinitions $end\n#0\n0!\nb00000001 \"\n1#\n#5\n1!\n0#\n";
        let mut out = String::new();
        VcdFilter::new(vcd.as_bytes(), f(&["u_a"]))
            .read_to_string(&mut out)
            .unwrap();
        assert!(out.contains("$scope module u_a $end"), "{out}");
        assert!(!out.contains("u_b") && !out.contains(" y "), "{out}");
        assert!(
            out.contains("clk_i") && out.contains("b00000001 \""),
            "{out}"
        );
        assert!(!out.contains("1#") && !out.contains("0#"), "{out}");
        assert_eq!(
            out.matches("$scope").count(),
            out.matches("$upscope").count()
        );
        assert!(out.ends_with("#5\n1!\n"), "{out}");
    }
}
