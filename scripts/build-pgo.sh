#!/usr/bin/env bash
# The fastest exanet binary for long network-scale runs (issue 34, decision 0054): the release
# build with fat link-time optimisation, one code-generation unit and profile-guided
# optimisation, trained on the network benchmark's cases and a short run of every other kind
# of command. Same source, same results (the statistics hashes and the lockstep do not depend
# on how the binary was optimised); only faster. Not part of the test command: it builds the
# crate twice (some 40 minutes on two cores).
#
#   bash scripts/build-pgo.sh            # writes target/pgo/release/exanet
#
# Then compare it with the plain release build, side by side:
#   target/pgo/release/exanet bench network --against target/release/exanet
#
# Needs llvm-profdata of the toolchain's own LLVM: the rustup component llvm-tools (installed
# here when missing, scripts/setup.sh need_llvm_tools).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=scripts/setup.sh
source scripts/setup.sh
need_rust
need_verilator
need_llvm_tools
PROFDATA=$(llvm_profdata)

# the test command's features when their libraries are there (as scripts/karma.sh)
read -r -a FEATURES <<< "$(test_features)"

export CARGO_PROFILE_RELEASE_LTO=fat
export CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1
RAW="$ROOT/target/pgo/raw"
rm -rf "$RAW"
mkdir -p "$RAW"

echo "== 1/3: the instrumented build (target/pgo-gen)"
RUSTFLAGS="-Cprofile-generate=$RAW" CARGO_TARGET_DIR="$ROOT/target/pgo-gen" \
  cargo build --release "${FEATURES[@]}" --bin exanet
GEN="$ROOT/target/pgo-gen/release/exanet"

echo "== 2/3: training runs"
train() {
  echo "   exanet $*"
  "$GEN" "$@" >/dev/null
}
# the network engine: the benchmark's cases, short, and the other tori of the comparisons
train bench network --case torus32-10 --warmup 500 --cycles 1500
train bench network --case torus32-sat --warmup 500 --cycles 1000
train bench network --case dragonfly1056-30 --warmup 500 --cycles 1500
train network run --topology torus:8x8 --load 0.3 --threads 1 --set net.measure_cycles=3000 --set net.drain_cycles=0
train network run --topology torus:10x10x10 --load 0.2 --threads 1 --set net.warmup_cycles=500 \
  --set net.measure_cycles=1000 --set net.drain_cycles=0
train network run --topology torus:8x8 --routing min-adapt --load 0.3 --threads 2 --set net.measure_cycles=2000
# the rest, so that no path is left cold (optimised for size)
train link efficiency
train router latency
train karma pingpong --iterations 5
train app run alltoall --ranks 16 --topology torus:4x4

echo "== 3/3: the optimised build (target/pgo)"
"$PROFDATA" merge -o "$ROOT/target/pgo/exanet.profdata" "$RAW"
RUSTFLAGS="-Cprofile-use=$ROOT/target/pgo/exanet.profdata" CARGO_TARGET_DIR="$ROOT/target/pgo" \
  cargo build --release "${FEATURES[@]}" --bin exanet
echo "== built target/pgo/release/exanet"
