#!/usr/bin/env bash
# Run a fixed set of short `ndrsim traffic` runs and keep every report.json, so that two
# binaries can be compared with compare_reports.py (only wall-clock fields may differ).
# Usage: testbench/perf/regress_runs.sh NDRSIM_BINARY OUT_DIR
set -euo pipefail
bin=$1
out=$2
mkdir -p "$out"
n=0
run() {
    n=$((n + 1))
    local d="$out/run$(printf %02d $n)"
    mkdir -p "$d"
    echo "$*" >"$d/args.txt"
    "$bin" traffic -q -j 1 --out "$d" "$@"
}
short=(--cycles 4000 --warmup 1000)
for q in voq fifo; do
    for a in "islip --set switch.islip_iterations=1" "islip --set switch.islip_iterations=2" rr; do
        # shellcheck disable=SC2086
        run "${short[@]}" --queueing $q --allocator $a --load 1.0 --size 36
        # shellcheck disable=SC2086
        run "${short[@]}" --queueing $q --allocator $a --load 0.3 --size 4096 --seed 7
    done
done
run "${short[@]}" --load 1.0 --size 36 --set switch.cut_through=false
run "${short[@]}" --load 0.3 --size 4096 --set switch.cut_through=false --seed 3
run "${short[@]}" --load 1.0 --size 36 --set switch.speedup=2
run "${short[@]}" --load 1.0 --size 4096 --set switch.speedup=2 --queueing fifo
run "${short[@]}" --set traffic.arrivals=backlogged --size 36
run "${short[@]}" --set traffic.arrivals=backlogged --size 36 --seed 11 --set sim.drain_cycles=0
run "${short[@]}" --load 0.3 --size 36 --seed 5
run "${short[@]}" --load 0.3:1.0:0.7 --size 36,256,4096 --set switch.vls=2 --set traffic.sl=0,1
run "${short[@]}" --pattern hotspot --load 0.6 --size 36
run "${short[@]}" --pattern incast --load 1.0 --size 4096
run "${short[@]}" --pattern incast --load 1.0 --size 36 --queueing fifo
run "${short[@]}" --pattern permutation --load 1.0 --size 36 --seed 9
run "${short[@]}" --pattern permutation --load 1.0 --size 4096 --queueing fifo --seed 2
run "${short[@]}" --pattern bitcomp --load 0.8 --size 256
run --cycles 3000 --warmup 500 --ports 16 --load 0.9 --size 36 --set switch.vls=4 --set traffic.sl=0,1,2,3 --seed 4
# RoCE (PFC, ECN; the switch's and endpoints' Ethernet paths)
roce=(--set fabric.technology=roce --set switch.buffer_per_vl=128KiB --set endpoint.rx_buffer_per_vl=128KiB)
run "${short[@]}" "${roce[@]}" --load 0.9 --size 1024
run "${short[@]}" "${roce[@]}" --pattern incast --load 1.0 --size 36
# TLM traffic (ib_switch_tlm, traffic_endpoints_tlm)
run "${short[@]}" --level tlm --load 1.0 --size 36
run "${short[@]}" --level tlm --load 0.3:1.0:0.7 --size 36,256,4096 --set switch.vls=2 --set traffic.sl=0,1
run "${short[@]}" --level tlm --pattern incast --load 1.0 --size 4096
# Trace replay (`ndrsim run`): HCAs, replay, SHARP, fat trees, at the cycle and TLM levels.
replay() {
    n=$((n + 1))
    local d="$out/run$(printf %02d $n)"
    mkdir -p "$d"
    echo "run $*" >"$d/args.txt"
    "$bin" run -q --out "$d" "$@"
    rm -f "$d/timeline.json"
}
tr=${NDRSIM_TRACES:-$(cd "$(dirname "$0")/../../traces" && pwd)}
for level in cycle tlm; do
    replay "$tr/allreduce_ring_tree_8.jsonl" --level $level
    replay "$tr/alltoall_16.jsonl" --level $level
    replay "$tr/ddp_resnet50_8.jsonl" --level $level
    replay "$tr/example_all_records.jsonl" --level $level
    replay "$tr/sharp_compare_single.jsonl" --level $level
    replay "$tr/allreduce_ring_tree_8.jsonl" --level $level --topology fat_tree --set switch.ports=4
done
replay "$tr/sharp_compare_fat_tree.jsonl"
replay "$tr/alltoall_16.jsonl" --set fault.icrc_error_rate=0.01 --set sim.seed=3 --set hca.ack_timeout=20us
replay "$tr/allreduce_ring_tree_8.jsonl" --preset roce-400g
replay "$tr/allreduce_ring_tree_8.jsonl" --level tlm --set sim.tlm_mode=lt
replay "$tr/sharp_compare_fat_tree.jsonl" --level tlm
echo "$n runs in $out"
