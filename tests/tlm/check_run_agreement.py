#!/usr/bin/env python3
"""Replays one trace with `ndrsim run --level cycle` and `--level tlm` and compares the reports.

usage: check_run_agreement.py NDRSIM OUTDIR CASE
CASE names a trace and fabric below. Checks, per collective: the same algorithm, the completion
time (time_ns) within 2 % for messages of at least 1 MiB and within 5 % below (issue #5), the
same bytes delivered per host pair and, when SHARP carries data, that both levels checked every
result byte against the golden reduction. Also runs the TLM level loosely timed
(--set sim.tlm_mode=lt, default quantum = the shortest link latency) and requires the very same
results as approximately timed (temporal decoupling within the lookahead is exact).
Cases in PER_PACKET run the TLM level with sim.tlm_burst=0 and print the burst-level times
without checking them. Prints one row per collective (the numbers in docs/fidelity_tlm.md)."""
import json
import os
import subprocess
import sys

ndrsim, outdir, case = sys.argv[1], sys.argv[2], sys.argv[3]
src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")

# name: (gen collective args or a shipped trace, extra run args)
single = ["--set", "switch.ports=16"]
fat = ["--topology", "fat_tree", "--set", "switch.ports=8"]
CASES = {
    "ring": (["--op", "allreduce", "--ranks", "8", "--bytes", "64KiB:16MiB:16", "--algo", "ring"], single),
    "tree": (["--op", "allreduce", "--ranks", "8", "--bytes", "8KiB:2MiB:16", "--algo", "tree"], single),
    "sharp": (["--op", "allreduce", "--ranks", "8", "--bytes", "8B:8MiB:32", "--algo", "sharp"], single),
    "fat_ring": (["--op", "allreduce", "--ranks", "16", "--bytes", "64KiB:4MiB:64", "--algo", "ring"], fat),
    "fat_sharp": (["--op", "allreduce", "--ranks", "16", "--bytes", "2KiB:2MiB:32", "--algo", "sharp"], fat),
    # SHARP bursts at the TLM level (sim.tlm_sharp_burst=64KiB; off by default): bursts of 8 SAT
    # chunks, a quarter of the 32-chunk OST window, with the real values carried and checked at
    # every member (sharp.data=on): the nodes reduce a burst's payload as one chunk.
    "sharp_burst": (["--op", "allreduce", "--ranks", "8", "--bytes", "16MiB:64MiB:4", "--algo", "sharp"],
                    single + ["--set", "sharp.data=on", "--set", "sim.tlm_sharp_burst=64KiB"]),
    # 32 MiB on a two-level tree of 16 hosts: bursts of 8 through three aggregation nodes.
    "fat_sharp_burst": (["--op", "allreduce", "--ranks", "16", "--bytes", "32MiB", "--algo", "sharp"],
                        fat + ["--set", "sharp.data=on", "--set", "sim.tlm_sharp_burst=64KiB"]),
    "verbs": ("traces/example_all_records.jsonl", single),
    "verbs_read": ("tests/tlm/traces/verbs_read.jsonl", single),
    "alltoall": (["--op", "alltoall", "--ranks", "8", "--bytes", "16KiB:4MiB:16"], single),
    "fat_alltoall": (["--op", "alltoall", "--ranks", "16", "--bytes", "64KiB:4MiB:64"], fat),
    # 8 dgx-h100 nodes on a 3-level rail tree of 8-port switches (100 m spine-core cables,
    # adaptive routing), ring of 4 MiB: one 64 KiB message per hop and step, more than one
    # spine-core cable's credit loop carries back to back. Bursts split where adaptive routing
    # has a choice (docs/fidelity_tlm.md); unsplit, TLM took 303.5 us against 222.5 us.
    "rail3_ring": (["--op", "allreduce", "--nodes", "8", "--gpus-per-node", "8", "--bytes", "4MiB",
                    "--algo", "ring"],
                   ["--preset", "dgx-h100", "--set", "host.stack=nccl", "--set", "switch.ports=8",
                    "--set", "fabric.levels=3"]),
}
# Cases compared packet by packet at the TLM level (sim.tlm_burst=0): bursts are outside the
# tolerance there (docs/fidelity_tlm.md: concurrent messages on one HCA port; congested fat
# tree, where a waiting burst does not back-pressure its upstream link; streams whose credit
# loop is longer than the buffer because FC packets wait for data on the reverse wire, which the
# bursts' credit pacer does not model: ring, fat_ring, alltoall). Their burst-level times are
# printed for the fidelity table, not checked.
PER_PACKET = {"verbs_read", "fat_alltoall", "ring", "fat_ring", "alltoall"}
# Cases whose messages take several paths (bursts split where adaptive routing has a choice):
# their parts can arrive at a merge point in the same cycle from different inputs, which AT
# (SystemC's delta order) and LT (quanta) may take in either order, so LT is checked within
# 0.01 % of AT rather than exactly; and the receivers' ACK counts follow the order packets
# arrive in (an out-of-order packet ends a coalesced run), which differs per level.
MULTIPATH = {"rail3_ring"}
gen, extra = CASES[case]
tlm_extra = ["--set", "sim.tlm_burst=0"] if case in PER_PACKET else []
os.makedirs(outdir, exist_ok=True)
if isinstance(gen, str):
    trace = os.path.join(src, gen)
else:
    trace = os.path.join(outdir, f"{case}.jsonl")
    subprocess.run([ndrsim, "gen", "collective", *gen, "-o", trace], check=True,
                   stdout=subprocess.DEVNULL)
rep = {}
runs = [("cycle", "cycle", []), ("tlm", "tlm", tlm_extra),
        ("lt", "tlm", tlm_extra + ["--set", "sim.tlm_mode=lt"])]
if tlm_extra:
    runs.append(("burst", "tlm", []))
for name, level, more in runs:
    out = os.path.join(outdir, f"{case}_{name}")
    subprocess.run([ndrsim, "run", trace, *extra, *more, "--level", level, "-q", "--out", out],
                   check=True)
    with open(os.path.join(out, "report.json")) as f:
        rep[name] = json.load(f)

fail = []
# A burst run of an alltoall on a multi-switch fabric must carry the congestion note (bursts
# are optimistic there); packet-by-packet runs and uncongested cases must not.
for name, r in rep.items():
    if name == "cycle":
        continue
    want = case == "fat_alltoall" and name == "burst"
    if ("tlm_burst_note" in r["sim"]) != want:
        fail.append(f"{name} run: sim.tlm_burst_note {'missing' if want else 'unexpected'}")
print(f"{case}: {'op':>9} {'algo':>5} {'bytes':>9} {'cycle ns':>12} {'tlm ns':>12} {'diff %':>7}")
rc, rt = rep["cycle"], rep["tlm"]
if rt["sim"].get("level") != "tlm" or "level" in rc["sim"]:
    fail.append("report sim.level does not name the engine")
for c, t in zip(rc["collectives"], rt["collectives"]):
    tc, tt = c["time_ns"], t["time_ns"]
    diff = (tt - tc) / tc * 100.0 if tc > 0 else 0.0
    print(f"{case}: {c['op']:>9} {c['algo']:>5} {c['bytes']:>9} {tc:12.1f} {tt:12.1f} {diff:7.2f}")
    tol = 2.0 if c["bytes"] >= (1 << 20) else 5.0
    if case == "fat_alltoall":
        # Congested fat tree: the TLM switch's greedy oldest-first pass and the cycle switch's
        # iSLIP resolve contention differently; with FC packets waiting on busy reverse wires
        # (both levels, common::wire_schedule) the packet-level gap grew from -1.6 % to -2.4 %
        # at 4 MiB (docs/fidelity_tlm.md).
        tol = max(tol, 3.0)
    if c["algo"] != t["algo"]:
        fail.append(f"{c['op']} {c['bytes']} B: algo {c['algo']} vs {t['algo']}")
    if abs(diff) > tol:
        fail.append(f"{c['op']} {c['bytes']} B: time differs by {diff:.2f} % (tolerance {tol} %)")
    if c.get("sharp") != t.get("sharp"):
        fail.append(f"{c['op']} {c['bytes']} B: sharp {c.get('sharp')} vs {t.get('sharp')}")
    checked = (case == "sharp" and c["bytes"] <= (1 << 20)) or "sharp.data=on" in extra
    if checked and not t.get("sharp", {}).get("data_checked"):
        fail.append(f"{c['op']} {c['bytes']} B: TLM SHARP result bytes were not checked")
if "burst" in rep:
    for c, b in zip(rc["collectives"], rep["burst"]["collectives"]):
        d = (b["time_ns"] - c["time_ns"]) / c["time_ns"] * 100.0 if c["time_ns"] > 0 else 0.0
        print(f"{case}: {c['op']:>9} {c['algo']:>5} {c['bytes']:>9} {c['time_ns']:12.1f} "
              f"{b['time_ns']:12.1f} {d:7.2f}  (default sim.tlm_burst, not checked)")
if len(rc["collectives"]) != len(rt["collectives"]) or not rc["collectives"]:
    fail.append("different number of collectives")
# LT = AT exactly: both modes file every arrival in the receiver's calendar (link_tlm.h), and
# the LT quantum is the shortest link latency, so nothing arrives inside a quantum already run.
# The whole report must match, apart from wall-clock fields, the echoed sim.tlm_mode and the
# links' utilisation samples (an LT device reports the beats it committed while running ahead
# within its quantum, so a sample can read a few beats early: output resolution, not a result).
SKIP = {"wall_s", "cycles_per_wall_s", "packets_per_wall_s", "peak_rss_MiB", "config",
        "peak_utilisation"}


def results(x):
    if isinstance(x, dict):
        return {k: results(v) for k, v in x.items() if k not in SKIP}
    if isinstance(x, list):
        return [results(v) for v in x]
    return x


for a, b in zip(rep["tlm"]["collectives"], rep["lt"]["collectives"]):
    exact = a["time_ns"] == b["time_ns"] and a["start_ns"] == b["start_ns"]
    close = abs(b["time_ns"] - a["time_ns"]) <= 1e-4 * a["time_ns"]
    if not (exact or (case in MULTIPATH and close)):
        fail.append(f"{a['op']} {a['bytes']} B: lt {b['time_ns']} ns vs at {a['time_ns']} ns")
if case not in MULTIPATH and results(rep["lt"]) != results(rep["tlm"]):
    fail.append("lt and at reports differ (beyond wall-clock fields and config)")
sw_c = [(s["switch"], s["level"]) for s in rc.get("switches", [])]
sw_t = [(s["switch"], s["level"]) for s in rt.get("switches", [])]
if not sw_t or sw_c != sw_t:
    fail.append(f"switches[]: {len(sw_c)} at cycle level, {len(sw_t)} at TLM level")
for k in ("payload_bytes_delivered", "messages_delivered", "data_packets_sent", "acks_sent"):
    if k == "acks_sent" and case in MULTIPATH:
        continue
    a, b = rc.get("hca", {}).get(k), rt.get("hca", {}).get(k)
    if a != b:
        fail.append(f"hca.{k}: {a} vs {b}")
for f in fail:
    print("FAIL:", f)
sys.exit(1 if fail else 0)
