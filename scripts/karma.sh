#!/usr/bin/env bash
# The main job: the KARMA ping-pong demo (docs/karma.md). Installs Rust and a C linker when they
# are missing (scripts/setup.sh), then runs `cargo run --release -- karma pingpong`; any
# arguments go to `karma pingpong` (e.g. --plot out/pingpong.svg, --backend rtl).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/setup.sh
source scripts/setup.sh
need_rust
exec cargo run --release -- karma pingpong "$@"
