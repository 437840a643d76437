#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run runs exactly this script).
# 1. Installs what is missing (scripts/setup.sh): Verilator (Debian's 5.006), a C++ compiler
#    and make through apt-get; Rust through rustup; the rustfmt/clippy components; SimGrid's
#    SMPI (libsimgrid-dev, apt-get) for the tests that trace real MPI programs.
# 2. Checks formatting, clippy (warnings are errors) and Verilator -Wall lint of all RTL.
# 3. Runs every test, co-simulation against the Verilated RTL included. A build without
#    Verilator makes the co-simulation tests fail; nothing is skipped.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/setup.sh
source scripts/setup.sh
need_verilator
need_rust
need_lints
need_simgrid
echo "== $(verilator --version); $(cargo --version)"

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== verilator lint"
bash scripts/lint-rtl.sh
echo "== cargo clippy"
cargo clippy --release --all-targets -- -D warnings
echo "== cargo test (release: the co-simulation runs a million cycles)"
cargo test --release --all-targets
echo "== cargo test --doc (the examples in the documentation compile)"
cargo test --release --doc
echo "== all tests passed"
