#!/usr/bin/env bash
# The Python module's build and tests (the test command's last step; docs/python.md):
# 1. a virtual environment under target/python (need_python: Python 3.11+ with venv), with
#    maturin, pandas, matplotlib, tqdm, networkx and mpi4py (a binary wheel that runs on the
#    system's Open MPI, need_mpi) from PyPI;
# 2. the module installed into it with `pip install ./python`, which maturin builds in the
#    workspace's target directory: the library the test command already compiled (with the
#    Verilated RTL, the features otf2 and mpi) is reused, only the module's own crate is built;
# 3. python/tests: the module's figures against the command line's (the binary built here from
#    the same tree), errors as exceptions, the GIL released, progress, Ctrl-C, a sweep spread
#    over parts and over mpi4py's ranks under mpirun, and the examples of examples/python run
#    as written, in their quick mode.
#
# With --environment it makes the environment of step 1 only (the test command starts that in
# the background while the Rust builds run: the downloads overlap them).
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/setup.sh
source scripts/setup.sh
# what the library builds with (the RTL, the OTF2 reader, MPI), and Python
need_verilator
need_rust
need_otf2
need_mpi
need_python

venv=target/python
if [ ! -x "$venv/bin/python" ]; then
  echo "== making a virtual environment in $venv"
  python3 -m venv "$venv"
fi
echo "== installing maturin, pandas, matplotlib, tqdm, mpi4py, networkx (pip, into $venv)"
"$venv/bin/pip" install -q --disable-pip-version-check \
  "maturin>=1.9.4,<2" "pandas>=2,<4" "matplotlib>=3.8,<4" "tqdm>=4,<5" "mpi4py>=4,<5" \
  "networkx>=3,<4"
if [ "${1:-}" = "--environment" ]; then exit 0; fi
echo "== building the module (pip install ./python)"
# (without build isolation the backend runs the environment's maturin, found on PATH)
PATH="$PWD/$venv/bin:$PATH" "$venv/bin/pip" install -q --disable-pip-version-check \
  --no-build-isolation ./python
# the command line the tests compare against, from the same tree
cargo build --release --features otf2,mpi --bin exanet
echo "== python/tests"
EXANET_BIN="$PWD/target/release/exanet" "$venv/bin/python" -m unittest discover -v -s python/tests
