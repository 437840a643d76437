//! The command line called from another program in this process: the Python module
//! (python/, docs/python.md). A call is a command line without the program name, parsed by
//! the same [`Cli`] as the binary's, so that a value is refused by the same code with the same
//! message, and run by the same [`execute`]: the same configuration checks, the same runs, the
//! same figures. What differs:
//!
//! - the configuration starts from the one the caller gives (a `Config` the module built and
//!   validated), in place of the defaults; `--config FILE` and `--set` apply as always;
//! - each JSON document (`--json`) comes back to the caller instead of being printed, with
//!   the same `run` record, its command line the call's (`exanet` then the arguments);
//! - the caller watches the progress and may cancel the run (`progress::watch`,
//!   `progress::cancel`); a cancelled run comes back as [`Failure::Cancelled`];
//! - a launcher's processes (mpirun, srun) are the calling program's to share out: every
//!   command runs in this process alone (`net::dist::embedded`).
//!
//! Calls run one at a time in a process (they share the run record and the `--set`s of the
//! command line); a second caller waits for the first.

use super::command::{execute, Cli};
use super::{output, set_overrides, CliError};
use crate::config::Config;
use clap::Parser;
use serde_json::Value;
use std::panic::AssertUnwindSafe;
use std::process::ExitCode;
use std::sync::{Mutex, Once};

static CALL: Mutex<()> = Mutex::new(());
static BASE: Mutex<Option<Config>> = Mutex::new(None);

/// The configuration the calling program gave the running call, which `load_config` starts
/// from in place of the defaults (`None` on the command line).
pub fn base_config() -> Option<Config> {
    BASE.lock().unwrap_or_else(|p| p.into_inner()).clone()
}

/// What a call did.
#[derive(Debug)]
pub struct Outcome {
    /// The command's exit status was 0 (a check that fails, `coverage --check`, exits 1
    /// without an error).
    pub success: bool,
    /// The JSON documents the command made (one for a `--json` measurement; none without
    /// `--json`, when it printed its table on stdout).
    pub documents: Vec<Value>,
}

/// Why a call made no [`Outcome`].
#[derive(Debug)]
pub enum Failure {
    /// Bad input (code 2, the arguments or the configuration) or a failed run (code 1), with
    /// the message the command line prints after `error: `.
    Command(CliError),
    /// The caller cancelled the run (`progress::cancel`).
    Cancelled,
    /// The library panicked: a bug, with the panic's message.
    Panicked(String),
}

/// Runs the command line `args` (no program name) on `config` (or the defaults).
pub fn call(args: &[String], config: Option<Config>) -> Result<Outcome, Failure> {
    let _one = CALL.lock().unwrap_or_else(|p| p.into_inner());
    crate::net::dist::embedded();
    quiet_when_cancelled();
    let argv = std::iter::once("exanet".to_string()).chain(args.iter().cloned());
    let cli = match Cli::try_parse_from(argv) {
        Ok(c) => c,
        Err(e) => {
            use clap::error::ErrorKind;
            return match e.kind() {
                ErrorKind::DisplayHelp
                | ErrorKind::DisplayVersion
                | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                    print!("{}", e.render());
                    Ok(Outcome {
                        success: e.kind() != ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand,
                        documents: Vec::new(),
                    })
                }
                _ => Err(Failure::Command(CliError::input(
                    e.render()
                        .to_string()
                        .trim()
                        .trim_start_matches("error: ")
                        .to_string(),
                ))),
            };
        }
    };
    *BASE.lock().unwrap_or_else(|p| p.into_inner()) = config;
    output::start_run(
        std::iter::once("exanet".to_string())
            .chain(args.iter().cloned())
            .collect(),
    );
    output::capture(true);
    crate::progress::watch(true);
    let r = std::panic::catch_unwind(AssertUnwindSafe(|| execute(cli)));
    crate::progress::watch(false);
    let documents = output::capture(false);
    *BASE.lock().unwrap_or_else(|p| p.into_inner()) = None;
    set_overrides(&[]);
    match r {
        Ok(Ok(code)) => Ok(Outcome {
            success: code == ExitCode::SUCCESS,
            documents,
        }),
        Ok(Err(e)) => Err(Failure::Command(e)),
        Err(_) if crate::progress::cancelled() => Err(Failure::Cancelled),
        Err(p) => Err(Failure::Panicked(
            p.downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "a panic without a message".into()),
        )),
    }
}

/// A cancelled run unwinds on every thread that counts: the threads of a pool then end with
/// a panic of their own (`a scoped thread panicked`), which says nothing worth printing.
fn quiet_when_cancelled() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let earlier = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !crate::progress::cancelled() {
                earlier(info);
            }
        }));
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn a_call_gives_back_the_document_the_command_line_prints_with_its_own_run_record() {
        let mut cfg = Config::default();
        cfg.link.num_vcs = 4;
        let out = call(&args("link latency --json"), Some(cfg)).unwrap();
        assert!(out.success);
        let [doc] = &out.documents[..] else {
            panic!("one document: {:?}", out.documents)
        };
        assert_eq!(doc["run"]["command_line"][1], "link");
        assert_eq!(doc["run"]["config"]["link"]["num_vcs"], 4);
        assert!(doc["total_cycles"].as_u64().unwrap() > 0);
        // the next call starts from the defaults again
        let out = call(&args("link latency --json"), None).unwrap();
        assert_eq!(
            out.documents[0]["run"]["config"]["link"]["num_vcs"],
            Config::default().link.num_vcs
        );
    }

    #[test]
    fn bad_arguments_and_fields_are_refused_as_the_command_line_refuses_them() {
        let Err(Failure::Command(e)) = call(&args("link latency --bogus"), None) else {
            panic!("refused")
        };
        assert_eq!(e.code, 2);
        assert!(e.message.contains("--bogus"), "{}", e.message);
        let Err(Failure::Command(e)) =
            call(&args("link latency --json --set link.num_vcs=99"), None)
        else {
            panic!("refused")
        };
        assert_eq!(e.code, 2);
        assert!(e.message.contains("link.num_vcs"), "{}", e.message);
    }
}
