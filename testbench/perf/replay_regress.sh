#!/usr/bin/env bash
# Run a fixed set of `ndrsim run` and `ndrsim nccl-tests` replays and keep their outputs, so that
# two binaries can be compared with compare_reports.py (report.json) and diff (the rest): the
# host-side collective engine (testbench/host) must replay every schedule to the same cycle
# after a restructuring. Rings flat and on dgx-h100 nodes (channels, rail-spread orders), ring
# reduce_scatter and allgather, host.stack none/nccl/mpi (kernel launch, rendezvous), both
# levels, a transfer timeline, tree/rhd/rd/pairwise/p2p schedules, SHARP and the shipped traces.
# Usage: replay_regress.sh NDRSIM OUT_DIR   (about a minute on one core)
set -euo pipefail
bin=$(realpath "$1")
here=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$2/traces"
# Generated traces by a relative path, so that reports of two OUT_DIRs name the same trace.
cd "$2"
out=.
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
n=0
run() {  # run TRACE ARGS...: one `ndrsim run`, its outputs in OUT/runNN
    local d
    d=$(printf '%s/run%02d' "$out" "$n")
    n=$((n + 1))
    mkdir -p "$d"
    echo "$*" > "$d/args.txt"
    "$bin" run "$@" -q --out "$d" > "$d/stdout.txt"
}
gen() {  # gen NAME ARGS...: a generated trace
    "$bin" gen collective "${@:2}" -o "$out/traces/$1.jsonl" > /dev/null
}
gen ar16 --op allreduce --ranks 16 --bytes 4KiB:16MiB:16 --algo ring --algo tree --algo rhd
gen rs16 --op reduce_scatter --ranks 16 --bytes 64KiB:4MiB:8 --algo ring
gen ag16 --op allgather --ranks 16 --bytes 64KiB:4MiB:8 --algo ring --algo pat
gen a2a16 --op alltoall --ranks 16 --bytes 1MiB --algo pairwise --algo p2p
gen ar64 --op allreduce --ranks 64 --bytes 8:16MiB:64 --algo ring --algo auto
gen dgx2 --op allreduce --nodes 2 --gpus-per-node 8 --bytes 8:64MiB:16 --algo ring --algo auto
gen dgxag --op allgather --nodes 2 --gpus-per-node 8 --bytes 1MiB:16MiB:4 --algo ring
gen mpi16 --op allreduce --ranks 16 --bytes 8:4MiB:32 --algo auto --algo ring
t=$out/traces
run "$here/traces/default.jsonl"
run "$here/traces/allreduce_ring_tree_8.jsonl" --set report.timeline=transfers
run "$here/traces/ddp_resnet50_8.jsonl"
run "$here/traces/sharp_compare_fat_tree.jsonl"
run "$t/ar16.jsonl"
run "$t/ar16.jsonl" --level tlm
run "$t/rs16.jsonl" --set report.timeline=transfers
run "$t/ag16.jsonl"
run "$t/a2a16.jsonl" --set host.stack=nccl
run "$t/ar64.jsonl" --topology fat_tree
run "$t/ar64.jsonl" --topology fat_tree --level tlm --set collective.chunk=64KiB
run "$t/dgx2.jsonl" --preset dgx-h100 --set host.stack=nccl
run "$t/dgx2.jsonl" --preset dgx-h100 --set host.stack=nccl --level tlm
run "$t/dgxag.jsonl" --preset dgx-h100 --set host.stack=nccl --set report.timeline=transfers
run "$t/mpi16.jsonl" --set host.stack=mpi
run "$t/mpi16.jsonl" --set host.stack=mpi --level tlm
d=$(printf '%s/run%02d' "$out" "$n")
mkdir -p "$d"
"$bin" nccl-tests all_reduce_perf -b 8 -e 64M -f 8 -g 8 --nodes 2 --preset dgx-h100 \
    | grep -v '^#.*\(Rank\|time\|wall\)' > "$d/stdout.txt"
echo "$n runs in $PWD"
