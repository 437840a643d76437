#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run runs exactly this script).
# 1. Installs what is missing: Verilator (Debian's 5.006) and a C++ compiler through apt-get,
#    and the rustfmt/clippy components through rustup.
# 2. Checks formatting, clippy (warnings are errors) and Verilator -Wall lint of all RTL.
# 3. Runs every test, co-simulation against the Verilated RTL included. A build without
#    Verilator makes the co-simulation tests fail; nothing is skipped.
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    echo "error: need root (or sudo) to run: $*" >&2; exit 1; fi
}

missing=()
command -v verilator >/dev/null || missing+=(verilator)
command -v g++ >/dev/null || missing+=(g++)
command -v make >/dev/null || missing+=(make)
if [ "${#missing[@]}" -gt 0 ]; then
  echo "== installing ${missing[*]} (apt-get)"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    verilator g++ make libc6-dev perl >/dev/null
fi
if ! command -v cargo >/dev/null; then
  echo "error: cargo not found: install Rust (https://rustup.rs), then run this script again" >&2
  exit 1
fi
for comp in rustfmt clippy; do
  if ! cargo "${comp/rustfmt/fmt}" --version >/dev/null 2>&1; then
    echo "== installing the $comp component (rustup)"
    rustup component add "$comp"
  fi
done
echo "== $(verilator --version); $(cargo --version)"

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== verilator lint"
bash scripts/lint-rtl.sh
echo "== cargo clippy"
cargo clippy --release --all-targets -- -D warnings
echo "== cargo test (release: the co-simulation runs a million cycles)"
cargo test --release --all-targets
echo "== all tests passed"
