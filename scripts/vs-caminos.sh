#!/usr/bin/env bash
# Single-thread simulation speed of exanet against the network simulator caminos 0.6.3 (crate
# `caminos`, library `caminos-lib`, https://docs.rs/caminos-lib/0.6.3), side by side, in one
# sitting, interleaved. Not part of the test suite. How the two configurations were matched,
# and what cannot be: docs/decisions/0053-caminos-comparison.md.
#
#   bash scripts/vs-caminos.sh [--rounds N] [--case NAME] [--cycles W,M] [--json]
#
#   --rounds N     rounds per case (default 3). Round r runs exanet then caminos when r is odd,
#                  caminos then exanet when r is even, so that neither always runs first.
#   --case NAME    only this case: torus8-30, torus32-10, torus10x3-20, dragonfly1056-30
#                  (repeatable; default all four).
#   --cycles W,M   warm-up and measured cycles (default 2000,4000); both simulators run exactly
#                  W + M cycles (exanet with net.drain_cycles = 0: no drain after the window).
#   --json         print the results as JSON instead of the table.
#
# Environment: EXANET, the exanet binary (default target/release/exanet, built with
# `cargo build --release --features otf2,mpi`).
#
# What it measures: the CPU time (user + system) of each simulator's whole process (set-up,
# warm-up and measured cycles, output), by bash's `time` keyword; one thread each. Each run's
# own output goes to target/vs-caminos/<case>/{exanet,caminos}-r<round>.log; the caminos
# configurations are generated there (main.cfg of each case) from the here-documents below.
# Every figure printed is computed from those measurements.
#
# caminos is built on first use with
#   cargo install caminos --version 0.6.3 --locked --root target/caminos
# (the crate ships its Cargo.lock, so --locked works; cargo builds it in a temporary directory
# of its own, not in target/release).
set -euo pipefail
export LC_ALL=C # '.' as the decimal point in `time`'s figures and awk's.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$ROOT/target/vs-caminos"
CAMINOS_VERSION=0.6.3
CAMINOS_ROOT="$ROOT/target/caminos"
CAMINOS="$CAMINOS_ROOT/bin/caminos"
EXANET="${EXANET:-$ROOT/target/release/exanet}"
ALL_CASES=(torus8-30 torus32-10 torus10x3-20 dragonfly1056-30)

die() {
    echo "vs-caminos: error: $*" >&2
    exit 1
}

usage() {
    sed -n '7,15p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

# ---------------------------------------------------------------------------------------------
# Arguments.
ROUNDS=3
WARMUP=2000
MEASURED=4000
JSON=0
CASES=()
while [ $# -gt 0 ]; do
    case "$1" in
    --rounds)
        [ $# -ge 2 ] || die "--rounds needs a value"
        ROUNDS="$2"
        shift 2
        ;;
    --rounds=*)
        ROUNDS="${1#*=}"
        shift
        ;;
    --case)
        [ $# -ge 2 ] || die "--case needs a value"
        CASES+=("$2")
        shift 2
        ;;
    --case=*)
        CASES+=("${1#*=}")
        shift
        ;;
    --cycles)
        [ $# -ge 2 ] || die "--cycles needs a value W,M"
        CYCLES_ARG="$2"
        shift 2
        ;;
    --cycles=*)
        CYCLES_ARG="${1#*=}"
        shift
        ;;
    --json)
        JSON=1
        shift
        ;;
    -h | --help)
        usage
        exit 0
        ;;
    *)
        usage >&2
        die "unknown argument '$1'"
        ;;
    esac
done
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || die "--rounds must be a positive integer, not '$ROUNDS'"
if [ -n "${CYCLES_ARG:-}" ]; then
    [[ "$CYCLES_ARG" =~ ^([0-9]+),([1-9][0-9]*)$ ]] ||
        die "--cycles must be W,M (warm-up >= 0, measured >= 1 cycles), not '$CYCLES_ARG'"
    WARMUP="${BASH_REMATCH[1]}"
    MEASURED="${BASH_REMATCH[2]}"
    [ "$WARMUP" -le 1000000000 ] && [ "$MEASURED" -le 1000000000 ] ||
        die "--cycles: at most 1e9 cycles each (exanet's limit)"
fi
TOTAL=$((WARMUP + MEASURED))
[ ${#CASES[@]} -gt 0 ] || CASES=("${ALL_CASES[@]}")
for c in "${CASES[@]}"; do
    case " ${ALL_CASES[*]} " in
    *" $c "*) ;;
    *) die "unknown case '$c' (cases: ${ALL_CASES[*]})" ;;
    esac
done

# ---------------------------------------------------------------------------------------------
# The load and the packet, matched.
#
# exanet: a load L is a fraction of an endpoint's injection bandwidth of 8 payload bytes a cycle
# (net.injection_bytes_per_cycle, one APElink lane); Bernoulli injection starts a packet with
# probability L x 8 / 64 a cycle for the default 64-byte payload, a 6-word packet of 128-bit
# words (header, four payload words, footer). Its NIC writes one word a cycle into the router.
#
# caminos: a load is the fraction of cycles a server injects a phit (a server link carries one
# phit a cycle); a message of S phits starts with probability load / S a cycle. With one phit =
# one 128-bit word and S = 6 (message_size = maximum_packet_size = 6: one 6-phit packet a
# message), the same packets a cycle as exanet's need load_caminos / 6 = L x 8 / 64, i.e.
#
#     load_caminos = L x 8 x 6 / 64 = 0.75 L
#
# which is also exanet's offered words a cycle as a fraction of its NIC's one word a cycle: the
# same offered load as a fraction of the injection port's capacity, the same packets, the same
# words. (exanet's inter-router lanes carry 64 bits a cycle, so there a 6-word packet takes 14
# beats with its MAGIC and START; caminos's links carry a phit a cycle: see the decision.)
EXANET_INJECTION_BYTES_PER_CYCLE=8
PAYLOAD_BYTES=64
PACKET_PHITS=6
caminos_load() { # exanet load -> caminos load
    awk -v l="$1" -v b="$EXANET_INJECTION_BYTES_PER_CYCLE" -v p="$PAYLOAD_BYTES" -v s="$PACKET_PHITS" \
        'BEGIN { printf "%.6g", l * b * s / p }'
}

# Latency matched at zero load: exanet's hop costs about 62 cycles (11 the router, 51 the link:
# TCL, PHY of 42 cycles, FIFOs); caminos's Basic router adds a cycle or two to its links' delay.
# Router-to-router links of 60 cycles and server links of 12 put caminos's zero-load packet
# latency within a few per cent of exanet's (8x8 torus: 271 against 276 cycles; dragonfly: 194
# against 189), so the two networks hold about as many packets in flight at the same load.
CAMINOS_LINK_DELAY=60
CAMINOS_SERVER_LINK_DELAY=12

# case -> topology, routing, load, routers, endpoints.
case_info() {
    EX_ROUTING=()
    case "$1" in
    torus8-30) EX_TOPO="torus:8x8" LOAD=0.3 ROUTERS=64 ENDPOINTS=64 SIDES="8,8" ;;
    torus32-10) EX_TOPO="torus:32x32" LOAD=0.1 ROUTERS=1024 ENDPOINTS=1024 SIDES="32,32" ;;
    torus10x3-20) EX_TOPO="torus:10x10x10" LOAD=0.2 ROUTERS=1000 ENDPOINTS=1000 SIDES="10,10,10" ;;
    dragonfly1056-30)
        EX_TOPO="dragonfly:p=4,a=8,h=4" LOAD=0.3 ROUTERS=264 ENDPOINTS=1056 SIDES=""
        EX_ROUTING=(--routing min)
        ;;
    *) die "unknown case '$1'" ;;
    esac
}

# The router common to every case. exanet's inter-tile RX FIFO holds 1024 words a VC and its
# credits count them; its TX FIFO 1024 words a VC: input and output buffers of 1024 phits a VC.
# flit_size = packet size: virtual cut-through, as exanet's whole-packet credit check
# (net.whole_packet_credit). server_queue_size: exanet's source queue is unbounded; 100000
# messages never fill at these loads (caminos's default is 20).
router_cfg() { # $1 = virtual channels, $2 = bubble (true|false)
    cat <<EOF
	server_queue_size: 100000,
	router: Basic
	{
		//exanet: 2 VCs on every port (link.num_vcs), tori and dragonfly; here 2 on the tori, 3 on
		//the dragonfly, whose minimal routing here needs them (see routing).
		virtual_channels: $1,
		//Among the routing's legal VCs, one at random (caminos's own default set-up).
		virtual_channel_policies: [ EnforceFlowControl, Random ],
		delay: 0,
		//Phits a VC of an input buffer: exanet's RX FIFO, 1024 words a VC.
		buffer_size: 1024,
		//Bubble flow control: deadlock freedom of DOR on a torus's rings.
		bubble: $2,
		//= the packet: virtual cut-through (exanet checks credits for whole packets).
		flit_size: $PACKET_PHITS,
		intransit_priority: false,
		allow_request_busy_port: true,
		output_prioritize_lowest_label: false,
		//Phits a VC of an output buffer: exanet's TX FIFO, 1024 words a VC.
		output_buffer_size: 1024,
	},
EOF
}

# Writes the caminos configuration of case $1 into $2.
write_caminos_cfg() {
    local name=$1 file=$2 load_c
    case_info "$name"
    load_c=$(caminos_load "$LOAD")
    {
        cat <<EOF
//Generated by scripts/vs-caminos.sh (caminos $CAMINOS_VERSION): case $name, matched to
//  exanet network run --topology $EX_TOPO${EX_ROUTING[*]:+ ${EX_ROUTING[*]}} --load $LOAD --threads 1
//    --set net.warmup_cycles=$WARMUP --set net.measure_cycles=$MEASURED --set net.drain_cycles=0
//One phit = one 128-bit exanet word; a message = one packet of $PACKET_PHITS phits (exanet's 64-byte
//payload: header, four payload words, footer). exanet's load $LOAD is $LOAD x $EXANET_INJECTION_BYTES_PER_CYCLE payload bytes a cycle,
//$LOAD x $EXANET_INJECTION_BYTES_PER_CYCLE / $PAYLOAD_BYTES packets a cycle an endpoint; caminos starts a message with
//probability load / $PACKET_PHITS a cycle, so load = $LOAD x $EXANET_INJECTION_BYTES_PER_CYCLE x $PACKET_PHITS / $PAYLOAD_BYTES = $load_c phits a cycle (the
//same packets and words a cycle; as a fraction of a one-word-a-cycle injection port, the same).
//Cycles: warmup + measured = $TOTAL, as exanet's warm-up + window without drain.
Configuration
{
	random_seed: 1,
	warmup: $WARMUP,
	measured: $MEASURED,
EOF
        if [ -n "$SIDES" ]; then
            local dims order classes="" i
            dims=$(awk -F, '{ print NF }' <<<"$SIDES")
            order=$(seq -s, 0 $((dims - 1)))
            for ((i = 0; i < dims; i++)); do
                classes+="		LinkClass { delay: $CAMINOS_LINK_DELAY },//dimension $i, both directions"$'\n'
            done
            cat <<EOF
	//exanet: $EX_TOPO, one endpoint a router.
	topology: Torus { sides: [$SIDES], servers_per_router: 1 },
	traffic: HomogeneousTraffic
	{
		pattern: Uniform,//uniform over the other servers, as exanet's 'uniform'
		servers: $ENDPOINTS,
		load: $load_c,
		message_size: $PACKET_PHITS,
	},
	maximum_packet_size: $PACKET_PHITS,
EOF
            router_cfg 2 true
            cat <<EOF
	//exanet: e-cube (dimension order, X first) over 2 VCs chosen by the APErouter's rule; here
	//dimension order over 2 VCs, any VC legal, bubble flow control against the rings' deadlock.
	routing: DOR { order: [$order] },
	//Router-to-router links 60 cycles (exanet's hop is about 62: router 11 + link 51, PHY 42 of it),
	//server links 12: zero-load latency within a few per cent of exanet's.
	link_classes:
	[
$classes		LinkClass { delay: $CAMINOS_SERVER_LINK_DELAY },//server <-> router
	],
}
EOF
        else
            cat <<EOF
	//exanet: dragonfly:p=4,a=8,h=4: 33 groups of 8 routers, 4 endpoints and 4 global links a
	//router, one global link between every two groups (exanet's wiring is consecutive, Pisani 2016
	//Listing 3.4; caminos offers Palmtree or Random: Palmtree, its default).
	topology: Dragonfly
	{
		global_ports_per_router: 4,
		servers_per_router: 4,
		group_size: 8,
		number_of_groups: 33,
		global_arrangement: Palmtree,
	},
	traffic: HomogeneousTraffic
	{
		pattern: Uniform,
		servers: $ENDPOINTS,
		load: $load_c,
		message_size: $PACKET_PHITS,
	},
	maximum_packet_size: $PACKET_PHITS,
EOF
            router_cfg 3 false
            cat <<EOF
	//exanet: min, local-global-local with local hops after the global one on VC 1, every other hop
	//on VC 0 (2 VCs). caminos's minimal routing, Shortest, takes any shortest path, and global-
	//global-local paths are as short; AscendantChannelsWithLinkClass with bases [1,1] gives a
	//hop the VC (global hops so far) x 1 + (local hops since the last global one): the l-g-l
	//paths get exanet's VCs 0, 0, 1, the g-g-l paths 0, 1, 2: a third VC, which they need to be
	//deadlock-free (with 2 caminos stops: "There are no choices for packet").
	routing: AscendantChannelsWithLinkClass { routing: Shortest, bases: [1,1] },
	link_classes:
	[
		LinkClass { delay: $CAMINOS_LINK_DELAY },//local
		LinkClass { delay: $CAMINOS_LINK_DELAY },//global (exanet: the same link as a local one)
		LinkClass { delay: $CAMINOS_SERVER_LINK_DELAY },//server <-> router
	],
}
EOF
        fi
    } >"$file"
}

# ---------------------------------------------------------------------------------------------
# The binaries.
[ -x "$EXANET" ] ||
    die "no exanet binary at $EXANET: run \`cargo build --release --features otf2,mpi\` in $ROOT (or set EXANET)"
if [ ! -x "$CAMINOS" ]; then
    command -v cargo >/dev/null || die "cargo is needed to build caminos $CAMINOS_VERSION (scripts/setup.sh installs Rust)"
    echo "vs-caminos: building caminos $CAMINOS_VERSION into $CAMINOS_ROOT (once; a few minutes)" >&2
    cargo install caminos --version "$CAMINOS_VERSION" --locked --root "$CAMINOS_ROOT" >&2 ||
        die "cargo install caminos --version $CAMINOS_VERSION --locked failed"
fi
CAMINOS_HELP=$("$CAMINOS" --help 2>&1) || die "$CAMINOS does not run"
[[ "$CAMINOS_HELP" == *"version_number=$CAMINOS_VERSION"* ]] ||
    die "$CAMINOS is not caminos $CAMINOS_VERSION (remove $CAMINOS_ROOT to rebuild it)"

# ---------------------------------------------------------------------------------------------
# Runs.
TIMEFORMAT='%3U %3S'
CPU=0
# run_timed LOG CMD...: runs CMD with stdout and stderr to LOG; CPU = its user + system seconds.
run_timed() {
    local log=$1 tf rc=0 t
    shift
    tf="$log.time"
    { time "$@" >"$log" 2>&1; } 2>"$tf" || rc=$?
    [ "$rc" -eq 0 ] || die "exit code $rc from: $* (output in $log)"
    t=$(tail -n 1 "$tf")
    [[ "$t" =~ ^[0-9.]+\ [0-9.]+$ ]] || die "could not read the CPU time of '$*' from $tf: '$t'"
    CPU=$(awk -v u="${t% *}" -v s="${t#* }" 'BEGIN { printf "%.3f", u + s }')
    rm -f "$tf"
}

# Reads one numeric value after "key": in exanet's JSON (first occurrence).
json_num() {
    grep -m1 -o "\"$1\": *[-0-9.eE+]*" "$2" | sed 's/.*: *//'
}

# Reads the value of KEY in a caminos result file (KEY:\n\tVALUE,).
caminos_num() {
    awk -v k="$1:" '$1 == k { getline; sub(/,$/, "", $1); print $1; exit }' "$2"
}

run_exanet() { # case dir round
    local log="$2/exanet-r$3.log" cycles acc
    run_timed "$log" "$EXANET" network run --topology "$EX_TOPO" "${EX_ROUTING[@]}" --load "$LOAD" \
        --threads 1 --set net.warmup_cycles="$WARMUP" --set net.measure_cycles="$MEASURED" \
        --set net.drain_cycles=0 --json
    cycles=$(json_num cycles "$log")
    acc=$(json_num accepted_load "$log")
    [ "$cycles" = "$TOTAL" ] || die "exanet ran '$cycles' cycles, not $TOTAL ($log)"
    [ -n "$acc" ] || die "no accepted_load in exanet's output ($log)"
    EX_CPU+=("$CPU")
    EX_ACC="$acc"
}

run_caminos() { # case dir round
    local log="$2/caminos-r$3.log" res="$2/caminos-r$3.result" cycles acc
    rm -f "$res"
    # caminos exits 0 after printing "Got error ..." (a configuration it cannot read): the
    # result file, with its cycle count, is the proof that it ran.
    run_timed "$log" "$CAMINOS" "$2/main.cfg" --results="$res"
    [ -s "$res" ] || die "caminos wrote no result ($log: $(grep -m1 -i 'error' "$log" || true))"
    cycles=$(caminos_num cycle "$res")
    acc=$(caminos_num accepted_load "$res")
    [ "$cycles" = "$TOTAL" ] || die "caminos ran '$cycles' cycles, not $TOTAL ($res)"
    [ -n "$acc" ] || die "no accepted_load in caminos's result ($res)"
    CA_CPU+=("$CPU")
    CA_ACC="$acc"
}

# Statistics over a list of numbers: best (minimum) and median.
best() { printf '%s\n' "$@" | awk 'NR == 1 || $1 < m { m = $1 } END { printf "%.3f", m }'; }
median() {
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
        if (NR % 2) printf "%.3f", v[(NR + 1) / 2]; else printf "%.3f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b <= 0) b = 0.0005; printf "%.3f", a / b }'; }
mega() { awk -v x="$1" 'BEGIN { printf "%.3f M", x / 1e6 }'; }
div() { awk -v a="$1" -v b="$2" 'BEGIN { if (b <= 0) b = 0.0005; printf "%.4g", a / b }'; }

mkdir -p "$OUT"
ROWS=()
for name in "${CASES[@]}"; do
    case_info "$name"
    dir="$OUT/$name"
    mkdir -p "$dir"
    write_caminos_cfg "$name" "$dir/main.cfg"
    EX_CPU=()
    CA_CPU=()
    EX_ACC=""
    CA_ACC=""
    for ((r = 1; r <= ROUNDS; r++)); do
        echo "vs-caminos: $name round $r/$ROUNDS" >&2
        if ((r % 2 == 1)); then
            run_exanet "$name" "$dir" "$r"
            run_caminos "$name" "$dir" "$r"
        else
            run_caminos "$name" "$dir" "$r"
            run_exanet "$name" "$dir" "$r"
        fi
        echo "vs-caminos:   exanet ${EX_CPU[-1]} s, caminos ${CA_CPU[-1]} s CPU" >&2
    done
    ratios=()
    for ((i = 0; i < ROUNDS; i++)); do
        ratios+=("$(ratio "${CA_CPU[i]}" "${EX_CPU[i]}")")
    done
    nc=$((ROUTERS * TOTAL))
    ex_med=$(median "${EX_CPU[@]}")
    ca_med=$(median "${CA_CPU[@]}")
    # One row: fields separated by '|', lists by ','.
    ROWS+=("$name|$ROUTERS|$ENDPOINTS|$TOTAL|$LOAD|$(caminos_load "$LOAD")|$(
        IFS=,
        echo "${EX_CPU[*]}"
    )|$(best "${EX_CPU[@]}")|$ex_med|$(
        IFS=,
        echo "${CA_CPU[*]}"
    )|$(best "${CA_CPU[@]}")|$ca_med|$(div "$nc" "$ex_med")|$(div "$nc" "$ca_med")|$(
        IFS=,
        echo "${ratios[*]}"
    )|$(median "${ratios[@]}")|$EX_ACC|$CA_ACC|$(div "$CA_ACC" "$(caminos_load 1)")")
done

# ---------------------------------------------------------------------------------------------
# Output.
if [ "$JSON" = 1 ]; then
    {
        printf '{\n  "caminos_version": "%s",\n  "exanet": "%s",\n' "$CAMINOS_VERSION" "$EXANET"
        printf '  "warmup_cycles": %s,\n  "measured_cycles": %s,\n  "rounds": %s,\n' "$WARMUP" "$MEASURED" "$ROUNDS"
        printf '  "cpu": "user + system seconds of the whole process, one thread",\n'
        printf '  "node_cycles_per_cpu_second": "routers x (warm-up + measured cycles) / median CPU seconds",\n'
        printf '  "ratio": "caminos CPU / exanet CPU of a round (>1: exanet faster)",\n  "cases": [\n'
        n=0
        for row in "${ROWS[@]}"; do
            IFS='|' read -r name routers endpoints cycles load load_c ex_l ex_b ex_m ca_l ca_b ca_m ex_nc ca_nc ra_l ra_m ex_acc ca_acc ca_acc_ex <<<"$row"
            [ $n -eq 0 ] || printf ',\n'
            n=$((n + 1))
            printf '    {\n      "case": "%s",\n      "routers": %s,\n      "endpoints": %s,\n      "cycles": %s,\n' \
                "$name" "$routers" "$endpoints" "$cycles"
            printf '      "exanet": {"load": %s, "cpu_s": [%s], "best_cpu_s": %s, "median_cpu_s": %s, "node_cycles_per_cpu_s": %s, "accepted_load": %s},\n' \
                "$load" "$ex_l" "$ex_b" "$ex_m" "$ex_nc" "$ex_acc"
            printf '      "caminos": {"load": %s, "cpu_s": [%s], "best_cpu_s": %s, "median_cpu_s": %s, "node_cycles_per_cpu_s": %s, "accepted_load": %s, "accepted_load_exanet_scale": %s},\n' \
                "$load_c" "$ca_l" "$ca_b" "$ca_m" "$ca_nc" "$ca_acc" "$ca_acc_ex"
            printf '      "ratio_per_round": [%s],\n      "ratio_median": %s\n    }' "$ra_l" "$ra_m"
        done
        printf '\n  ]\n}\n'
    }
else
    echo "exanet $EXANET against caminos $CAMINOS_VERSION: one thread each, $WARMUP warm-up + $MEASURED measured cycles, $ROUNDS round(s) a case"
    echo "CPU: user + system seconds of the whole process (best / median of the rounds); node-cycles: routers x cycles / median CPU s"
    echo
    printf '%-17s %7s %9s %7s | %17s %17s | %11s %11s | %-24s %7s\n' \
        case routers endpoints cycles "exanet CPU s" "caminos CPU s" "exanet nc/s" "caminos nc/s" "ratio caminos/exanet" median
    printf '%-17s %7s %9s %7s | %17s %17s | %11s %11s | %-24s %7s\n' \
        "" "" "" "" "best / median" "best / median" "" "" "per round" ""
    for row in "${ROWS[@]}"; do
        IFS='|' read -r name routers endpoints cycles load load_c ex_l ex_b ex_m ca_l ca_b ca_m ex_nc ca_nc ra_l ra_m ex_acc ca_acc ca_acc_ex <<<"$row"
        printf '%-17s %7s %9s %7s | %17s %17s | %11s %11s | %-24s %7s\n' "$name" "$routers" "$endpoints" \
            "$cycles" "$ex_b / $ex_m" "$ca_b / $ca_m" "$(mega "$ex_nc")" "$(mega "$ca_nc")" "${ra_l//,/ }" "$ra_m"
    done
    echo "ratio > 1: exanet faster."
    echo
    echo "Load check (last round; exanet's scale, 8 payload bytes a cycle = 1; caminos's accepted phits a cycle / 0.75):"
    for row in "${ROWS[@]}"; do
        IFS='|' read -r name routers endpoints cycles load load_c ex_l ex_b ex_m ca_l ca_b ca_m ex_nc ca_nc ra_l ra_m ex_acc ca_acc ca_acc_ex <<<"$row"
        printf '  %-17s offered %s (caminos load %s): accepted exanet %.4f, caminos %.4f\n' \
            "$name" "$load" "$load_c" "$ex_acc" "$ca_acc_ex"
    done
    echo "Logs and caminos configurations: $OUT"
fi
