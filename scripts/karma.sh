#!/usr/bin/env bash
# The main job: the KARMA ping-pong demo (docs/karma.md). Installs Rust and a C linker when they
# are missing (scripts/setup.sh), then runs `cargo run --release -- karma pingpong`, with the
# features the test command builds with when their libraries are installed (so that after
# `bash scripts/test-all.sh` it reuses that build); any arguments go to `karma pingpong` (e.g.
# --plot out/pingpong.svg, --backend rtl).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/setup.sh
source scripts/setup.sh
need_rust
# the test command's features when their libraries are there: no second build after it
read -r -a features <<< "$(test_features)"
exec cargo run --release "${features[@]}" -- karma pingpong "$@"
