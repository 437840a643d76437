#!/usr/bin/env bash
# Verilator lint (-Wall) of every module under rtl/ and testbench/rtl/, each as its own top, with
# the package first and the project's waiver file (rtl/lint_waivers.vlt, each waiver with its
# reason). Exits non-zero on the first warning.
set -euo pipefail
cd "$(dirname "$0")/.."
pkgs=(rtl/*_pkg.sv)
rtl_srcs=()
for f in rtl/*.sv; do [[ "$f" == *_pkg.sv ]] || rtl_srcs+=("$f"); done
tb_pkgs=()
tb_srcs=()
for f in testbench/rtl/*.sv; do
  [ -e "$f" ] || continue
  if [[ "$f" == *_pkg.sv ]]; then tb_pkgs+=("$f"); else tb_srcs+=("$f"); fi
done
status=0
lint() { # top, files...
  local top=$1; shift
  if ! out=$(verilator --lint-only -Wall +define+EXANET_ASSERT rtl/lint_waivers.vlt "$@" --top-module "$top" 2>&1); then
    echo "verilator lint failed for $top:"; echo "$out"; status=1
  elif [ -n "$out" ]; then
    echo "verilator lint reported for $top:"; echo "$out"; status=1
  fi
}
n=0
for f in "${rtl_srcs[@]}"; do
  lint "$(basename "$f" .sv)" "${pkgs[@]}" "${rtl_srcs[@]}"; n=$((n + 1))
done
for f in "${tb_srcs[@]}"; do
  lint "$(basename "$f" .sv)" "${pkgs[@]}" "${tb_pkgs[@]}" "${rtl_srcs[@]}" "${tb_srcs[@]}"; n=$((n + 1))
done
[ "$status" -eq 0 ] && echo "verilator --lint-only -Wall: $n modules clean"
exit "$status"
