//! The progress line of a long run: what is being done, how far it is, the time spent and an
//! estimate of the time left, redrawn in place on stderr.
//!
//! Shown only when stderr is a terminal: piped or redirected (tests, scripts, `--json` read by
//! another program) a [`Progress`] is a no-op and nothing at all is written, so every output and
//! every result is the same with or without it. Library loops (the co-simulation lockstep, the
//! KARMA ping-pong) take a `&Progress` and only count into it; what they compute never depends
//! on it.
//!
//! ```no_run
//! let p = exanet::progress::Progress::new(1000, "cosim link");
//! for k in 0..1000 {
//!     if k % 100 == 0 {
//!         p.set_message(format!("block {}", k / 100));
//!     }
//!     p.inc(1);
//! }
//! p.finish();
//! ```
//!
//! Counting is cheap (an atomic add, the drawing rate-limited by `indicatif`), but a loop of
//! millions of steps a second counts in batches ([`Progress::every`]).
//!
//! A program that calls the library in its own process (the Python module, `cli::embed`)
//! shows progress its own way and stops runs its own way: while it [`watch`]es, every new
//! `Progress` counts without drawing and is the one [`watched`] reads; once it has said
//! [`cancel`], the next count of any `Progress`, drawn or hidden, on any thread, unwinds with a
//! [`Cancelled`] payload, and the program catches that where it called the library. Every long
//! loop counts (a network run at least every few thousand cycles), so a run stops within
//! moments. The command line does neither: its runs are the same as before.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressFinish, ProgressStyle};
use std::fmt;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Duration;

static WATCHING: AtomicBool = AtomicBool::new(false);
static WATCHED: Mutex<Option<ProgressBar>> = Mutex::new(None);
static CANCEL: AtomicBool = AtomicBool::new(false);

/// The payload a cancelled run unwinds with ([`cancel`]).
#[derive(Debug)]
pub struct Cancelled;

/// Starts (`true`) or ends watching: while on, every new [`Progress`] counts without drawing
/// and becomes the one [`watched`] reads.
pub fn watch(on: bool) {
    WATCHING.store(on, Ordering::SeqCst);
    *WATCHED.lock().unwrap_or_else(|p| p.into_inner()) = None;
}

/// How far the newest watched [`Progress`] is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    /// What is being done (`"network run (cycles)"`).
    pub what: String,
    pub position: u64,
    /// Steps in all, when known.
    pub length: Option<u64>,
    /// What is being done now, as [`Progress::set_message`] said it.
    pub message: String,
}

/// The newest [`Progress`] made since [`watch`] began, if any.
pub fn watched() -> Option<Snapshot> {
    WATCHED
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .as_ref()
        .map(|b| Snapshot {
            what: b.prefix(),
            position: b.position(),
            length: b.length(),
            message: b.message().trim_start().to_string(),
        })
}

/// Asks every run counting into a [`Progress`] to stop (`true`), or clears the request
/// once the runs have stopped (`false`).
pub fn cancel(on: bool) {
    CANCEL.store(on, Ordering::SeqCst);
}

/// Has [`cancel`] been asked?
pub fn cancelled() -> bool {
    CANCEL.load(Ordering::Relaxed)
}

/// Unwinds with [`Cancelled`] when [`cancel`] has been asked (one relaxed load otherwise).
#[inline]
fn stop_if_cancelled() {
    if CANCEL.load(Ordering::Relaxed) {
        stop();
    }
}

#[cold]
#[inline(never)]
fn stop() -> ! {
    // (not `panic!`: no message, no panic hook; the caller catches it)
    std::panic::resume_unwind(Box::new(Cancelled))
}

/// How the line reads: `karma pingpong [00:01:12] [=====>    ] 120/288 1 hop, 4096 B 00:12:34 left`.
const TEMPLATE: &str =
    "{prefix} [{elapsed_precise}] [{bar:30}] {human_pos}/{human_len}{msg} {eta_precise} left";

/// A progress line on stderr, or nothing when stderr is not a terminal. Clones share the line;
/// it is cleared when the last clone is dropped or at [`Progress::finish`].
#[derive(Clone, Default)]
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl fmt::Debug for Progress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Progress")
            .field("shown", &self.is_shown())
            .finish()
    }
}

impl Progress {
    /// A line for `total` steps of `what` (`"cosim link"`), shown if stderr is a terminal.
    /// While another program [`watch`]es, a line that counts without drawing, for it to read.
    pub fn new(total: u64, what: impl Into<String>) -> Progress {
        if WATCHING.load(Ordering::SeqCst) {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden())
                .with_prefix(what.into());
            *WATCHED.lock().unwrap_or_else(|p| p.into_inner()) = Some(bar.clone());
            return Progress { bar: Some(bar) };
        }
        Progress::when(std::io::stderr().is_terminal(), total, what)
    }

    /// A line on stderr if `shown`, else [`Progress::hidden`].
    pub fn when(shown: bool, total: u64, what: impl Into<String>) -> Progress {
        if shown {
            Progress::on(total, what, ProgressDrawTarget::stderr())
        } else {
            Progress::hidden()
        }
    }

    /// A line drawn on `target` whatever stderr is (tests draw into memory).
    pub fn on(total: u64, what: impl Into<String>, target: ProgressDrawTarget) -> Progress {
        let style = ProgressStyle::with_template(TEMPLATE)
            .expect("the template is valid")
            .progress_chars("=> ");
        let bar = ProgressBar::with_draw_target(Some(total), target)
            .with_style(style)
            .with_prefix(what.into())
            .with_finish(ProgressFinish::AndClear);
        // the elapsed time moves on even while a long step does not count (a lost message's
        // timeout, a slow phase)
        bar.enable_steady_tick(Duration::from_millis(500));
        Progress { bar: Some(bar) }
    }

    /// Nothing shown, nothing counted.
    pub fn hidden() -> Progress {
        Progress { bar: None }
    }

    /// Is a line being drawn?
    pub fn is_shown(&self) -> bool {
        self.bar.is_some()
    }

    /// `n` more steps done. (Unwinds if a run was [`cancel`]led.)
    pub fn inc(&self, n: u64) {
        stop_if_cancelled();
        if let Some(b) = &self.bar {
            b.inc(n);
        }
    }

    /// `n` more steps to do (a search that learns its length as it goes).
    pub fn inc_length(&self, n: u64) {
        if let Some(b) = &self.bar {
            b.inc_length(n);
        }
    }

    /// `n` steps done in all. (Unwinds if a run was [`cancel`]led.)
    pub fn set_position(&self, n: u64) {
        stop_if_cancelled();
        if let Some(b) = &self.bar {
            b.set_position(n);
        }
    }

    /// Steps done, as counted.
    pub fn position(&self) -> u64 {
        self.bar.as_ref().map_or(0, |b| b.position())
    }

    /// What is being done now (`"1 hop, 4096 B"`), after the count.
    pub fn set_message(&self, m: impl Into<String>) {
        if let Some(b) = &self.bar {
            // (the template has no space before it: none shows when there is no message)
            b.set_message(format!(" {}", m.into()));
        }
    }

    /// Count step `k` (0-based) of a loop in batches of `batch`: the line moves every `batch`
    /// steps, and the loop pays one comparison a step.
    #[inline]
    pub fn every(&self, k: u64, batch: u64) {
        if self.bar.is_some() && (k + 1).is_multiple_of(batch) {
            self.inc(batch);
        }
    }

    /// Done: the line is cleared (the run's own output follows).
    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn off_a_terminal_nothing_is_counted_or_drawn() {
        // what `new` makes when stderr is not a terminal (piped, redirected)
        let p = Progress::when(false, 100, "test");
        assert!(!p.is_shown());
        p.inc(5);
        p.every(9, 10);
        p.set_message("x");
        assert_eq!(p.position(), 0);
        p.finish();
    }

    /// A terminal that keeps what is written on it.
    #[derive(Debug, Default, Clone)]
    struct Screen(std::sync::Arc<std::sync::Mutex<String>>);

    impl indicatif::TermLike for Screen {
        fn width(&self) -> u16 {
            120
        }
        fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn write_line(&self, s: &str) -> std::io::Result<()> {
            self.write_str(s)?;
            self.write_str("\n")
        }
        fn write_str(&self, s: &str) -> std::io::Result<()> {
            self.0.lock().unwrap().push_str(s);
            Ok(())
        }
        fn clear_line(&self) -> std::io::Result<()> {
            self.write_str("<clear>")
        }
        fn flush(&self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn on_a_terminal_the_line_shows_what_the_count_elapsed_and_time_left() {
        let screen = Screen::default();
        let p = Progress::on(
            1000,
            "cosim link",
            ProgressDrawTarget::term_like(Box::new(screen.clone())),
        );
        assert!(p.is_shown());
        for k in 0..1000 {
            p.every(k, 64);
        }
        // 15 whole batches of 64 counted; the 40 steps of the last part batch are not
        assert_eq!(p.position(), 960);
        p.set_message("router");
        p.set_position(500);
        std::thread::sleep(Duration::from_millis(600)); // a steady tick draws the line
        let shown = screen.0.lock().unwrap().clone();
        let line = shown
            .split(['\n', '\r'])
            .rev()
            .flat_map(|l| l.split("<clear>"))
            .find(|l| l.contains(" 500/1,000 "))
            .unwrap_or_else(|| panic!("no line at 500/1,000 in {shown:?}"))
            .trim_end()
            .to_string();
        assert!(line.starts_with("cosim link [00:00:0"), "{line}");
        assert!(line.contains(" router "), "{line}");
        assert!(line.ends_with(" left"), "{line}");
        p.finish();
        assert!(
            screen.0.lock().unwrap().ends_with("<clear>"),
            "cleared at the end"
        );
    }
}
