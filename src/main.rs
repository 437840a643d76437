//! The `exanet` binary: parses the command line (`exanet::cli::command::Cli`) and runs it. Bad
//! input exits with status 2 and a message naming what is wrong; a failed run with status 1.

use clap::Parser;
use exanet::cli::command::{execute, Cli};
use std::process::ExitCode;

fn main() -> ExitCode {
    #[cfg(unix)]
    default_sigpipe();
    match execute(Cli::parse()) {
        Ok(code) => code,
        Err(e) => {
            // (empty: another MPI rank says it)
            if !e.message.is_empty() {
                eprintln!("error: {e}");
            }
            ExitCode::from(e.exit_code())
        }
    }
}

/// A closed pipe on stdout (`exanet ... | head`) ends the process quietly, as for any Unix
/// tool, instead of making `println!` panic: restore the default action of SIGPIPE, which the
/// Rust runtime sets to "ignore".
#[cfg(unix)]
fn default_sigpipe() {
    extern "C" {
        fn signal(signum: i32, handler: usize) -> usize;
    }
    const SIGPIPE: i32 = 13;
    const SIG_DFL: usize = 0;
    // SAFETY: `signal` from the C library, with the default disposition for SIGPIPE (13 on
    // Linux and the BSDs); no Rust state depends on the previous disposition.
    unsafe {
        signal(SIGPIPE, SIG_DFL);
    }
}
