#!/bin/sh
# Simulation speed of the Verilated switch core vs the cycle-level switch at 4, 8 and 16 ports
# (docs/performance.md, "RTL level"). Opt-in: Verilates the core at those port counts
# (cmake -DNDR_RTL_BENCH=ON, which the test suite does not need), builds the benchmark
# executables and runs the same uniform traffic (load L, packets of B beats) on both levels.
# Usage: rtl/ib_switch_core/switch_core_speed.sh [BUILD_DIR [CYCLES [LOAD [PAYLOAD_BYTES]]]]
set -eu
build=${1:-build}
cycles=${2:-100000}
load=${3:-0.5}
payload=${4:-256}            # 256 B payload = 282 B on the wire = 5 beats
beats=$(( (payload + 26 + 63) / 64 ))
cmake -S . -B "$build" -DNDR_RTL_BENCH=ON >/dev/null
# Back to the normal build (no benchmark models) however the script ends.
trap 'cmake -S . -B "$build" -DNDR_RTL_BENCH=OFF >/dev/null' EXIT
cmake --build "$build" -j2 --target ndrsim switch_core_speed_p4 switch_core_speed_p8 \
  switch_core_speed_p16 >/dev/null
out=$(mktemp -d)
printf '%-6s %-28s %14s %14s\n' ports model cycles/wall_s packets/wall_s
for n in 4 8 16; do
  "$build/ndrsim" traffic --ports "$n" --pattern uniform --load "$load" --size "$payload" \
    --warmup 0 --cycles "$cycles" -q -j 1 --out "$out/c$n" >/dev/null
  python3 - "$out/c$n/report.json" "$n" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
print(f"{sys.argv[2]:<6} {'cycle-level (SystemC)':<28} {j['sim']['cycles_per_wall_s']:>14.0f} "
      f"{j['sim']['packets_per_wall_s']:>14.0f}")
PY
  "$build/switch_core_speed_p$n" "$cycles" "$load" "$beats" | python3 -c 'import json, sys
j = json.load(sys.stdin)
print("%-6s %-28s %14.0f %14.0f" % (j["ports"], "RTL (Verilator, --assert)",
      j["cycles_per_wall_s"], j["packets_per_wall_s"]))'
done
"$build/ndrsim" traffic --level rtl --ports 4 --pattern uniform --load "$load" \
  --size "$payload" --warmup 0 --cycles "$cycles" -q -j 1 --out "$out/r4" >/dev/null
python3 - "$out/r4/report.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
print(f"{4:<6} {'ndrsim --level rtl (+cov)':<28} {j['sim']['cycles_per_wall_s']:>14.0f} "
      f"{j['sim']['packets_per_wall_s']:>14.0f}")
PY
rm -rf "$out"
