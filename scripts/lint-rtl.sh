#!/usr/bin/env bash
# Verilator lint (-Wall) of the RTL: first everything at once, as a newcomer would run it
#   verilator --lint-only -Wall rtl/*.sv testbench/rtl/*.sv
# (the waiver file rtl/0_lint_waivers.sv and the exanet_base_*_pkg packages sort first), then
# every module under rtl/ and testbench/rtl/ as its own top. Exits non-zero on any warning.
set -euo pipefail
cd "$(dirname "$0")/.."
waivers=rtl/0_lint_waivers.sv
pkgs=(rtl/*_pkg.sv)
rtl_srcs=()
for f in rtl/*.sv; do [[ "$f" == *_pkg.sv || "$f" == "$waivers" ]] || rtl_srcs+=("$f"); done
tb_pkgs=()
tb_srcs=()
for f in testbench/rtl/*.sv; do
  [ -e "$f" ] || continue
  if [[ "$f" == *_pkg.sv ]]; then tb_pkgs+=("$f"); else tb_srcs+=("$f"); fi
done
status=0
lint() { # top, files...
  local top=$1; shift
  if ! out=$(verilator --lint-only -Wall +define+EXANET_ASSERT "$waivers" "$@" --top-module "$top" 2>&1); then
    echo "verilator lint failed for $top:"; echo "$out"; status=1
  elif [ -n "$out" ]; then
    echo "verilator lint reported for $top:"; echo "$out"; status=1
  fi
}
for defs in "" "+define+EXANET_ASSERT"; do
  # shellcheck disable=SC2086
  if ! out=$(verilator --lint-only -Wall $defs rtl/*.sv testbench/rtl/*.sv 2>&1) || [ -n "$out" ]; then
    echo "verilator --lint-only -Wall $defs rtl/*.sv testbench/rtl/*.sv reported:"; echo "$out"; status=1
  fi
  if ! out=$(verilator --lint-only -Wall $defs rtl/*.sv 2>&1) || [ -n "$out" ]; then
    echo "verilator --lint-only -Wall $defs rtl/*.sv reported:"; echo "$out"; status=1
  fi
done
n=0
for f in "${rtl_srcs[@]}"; do
  lint "$(basename "$f" .sv)" "${pkgs[@]}" "${rtl_srcs[@]}"; n=$((n + 1))
done
for f in "${tb_srcs[@]}"; do
  lint "$(basename "$f" .sv)" "${pkgs[@]}" "${tb_pkgs[@]}" "${rtl_srcs[@]}" "${tb_srcs[@]}"; n=$((n + 1))
done
[ "$status" -eq 0 ] && echo "verilator --lint-only -Wall: $n modules clean"
exit "$status"
