#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run runs exactly this script).
# 1. Installs what is missing (scripts/setup.sh): Verilator (Debian's 5.006), a C++ compiler
#    and make through apt-get; Rust through rustup; the rustfmt/clippy components; SimGrid's
#    SMPI (libsimgrid-dev, apt-get) for the tests that trace real MPI programs; the OTF2
#    library, its tools and its Python writer (libotf2-trace-dev, otf2-tools, python3-otf2,
#    whose Debian Python 3 also runs the co-simulation server's Python client in
#    tests/serve_python.rs);
#    Open MPI and libclang (libopenmpi-dev, openmpi-bin, libclang-dev) for network runs over
#    MPI ranks; Chromium (chromium) for the test that opens a network report in a browser;
#    Icarus Verilog (iverilog) for tests/icarus.rs, the RTL under a second simulator; Yosys
#    (yosys, apt-get) and YoWASP's Yosys (pip, target/yowasp) for tests/synth.rs; Python 3.11+
#    with venv (python3-venv) for the Python module.
# 2. Checks formatting, clippy (warnings are errors) and Verilator -Wall lint of all RTL.
# 3. Runs every test, co-simulation against the Verilated RTL included. A build without
#    Verilator makes the co-simulation tests fail; nothing is skipped.
# 4. Builds the Python module (python/, with pip and maturin, reusing the library built for the
#    tests) and runs its tests and the examples of examples/python (scripts/test-python.sh).
# Clippy and the tests build with the features `otf2` (the OTF2 trace reader and its tests) and
# `mpi` (network runs over MPI ranks, tests/net_mpi.rs).
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/setup.sh
source scripts/setup.sh
need_verilator
need_rust
need_lints
need_simgrid
need_otf2
need_mpi
need_chromium
need_fonts
need_iverilog
need_yosys
need_python
echo "== $(verilator --version); $(cargo --version)"
# the Python module's environment (pip's downloads) made while the Rust builds run
mkdir -p target
bash scripts/test-python.sh --environment > target/python-environment.log 2>&1 &
python_environment=$!

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== verilator lint"
bash scripts/lint-rtl.sh
echo "== cargo clippy"
cargo clippy --release --all-targets --features otf2,mpi -- -D warnings
cargo clippy --release --all-targets -p exanet-python -- -D warnings
echo "== cargo test (release: the co-simulation runs a million cycles)"
# (the coverage campaign runs in the next step, once, with its figures printed)
cargo test --release --all-targets --features otf2,mpi -- \
  --skip the_campaign_holds_the_
echo "== RTL coverage of the lockstep (tests/coverage.rs: the campaign of testbench/coverage.toml)"
cargo test --release --features otf2,mpi --test coverage -- --nocapture \
  the_campaign_holds_the_
echo "== cargo test --doc (the examples in the documentation compile)"
cargo test --release --doc --features otf2,mpi
echo "== the Python module (scripts/test-python.sh)"
if ! wait "$python_environment"; then
  cat target/python-environment.log
  echo "error: the Python module's environment could not be made (above)" >&2
  exit 1
fi
cat target/python-environment.log
bash scripts/test-python.sh
echo "== all tests passed"
