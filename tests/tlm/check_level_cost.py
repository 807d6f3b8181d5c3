#!/usr/bin/env python3
"""sim.level auto with sim.level_auto cost (the default) picks the level of a trace replay by
estimated CPU time (issue 19 item 3), and report.json says why.

usage: check_level_cost.py NDRSIM WORKDIR
1. The counts behind the estimate against closed forms: a ring allreduce of S bytes on n ranks
   is 2(n-1) steps of n transfers of S/n bytes, ceil(S/n / 4096) packets each and, with bursts
   of up to 1 MiB, one TLM transaction each.
2. The choice against the CPU times measured in docs/performance.md ("Choosing the level"):
   64 hosts, 16 MiB ring: TLM 0.05 s vs cycle 0.29 s -> tlm; 1,024 hosts, 1 MiB ring: cycle
   4.3 s vs TLM 58 s -> cycle; 256 hosts, 1 MiB SHARP: cycle 1.3 s vs TLM 2.5 s -> cycle (with
   TLM SHARP bursts, session 24: cycle 1.47 s vs TLM 1.56 s, both mostly the payload check);
   2,048 hosts, 256 MiB ring: TLM 146-201 s (LT) vs cycle, estimated several times longer ->
   tlm; 32 hosts, 256 MiB tree (several queue pairs per HCA take turns in bursts of
   sim.tlm_burst_shared): TLM 2.0 s vs cycle 6.1 s -> tlm, and with sim.tlm_burst_shared=0
   (packet by packet) TLM 12.9 s -> cycle; 4,096 GPUs (512 dgx-h100 nodes, 3-level rail tree),
   8 B ring with host.stack nccl, a 10 ms latency-bound run whose cost is the idle fabric:
   TLM 4.8-5.0 s vs cycle 7.6-13.9 s user -> tlm (session 18, after the utilisation series
   were bounded; before: TLM 6.6-8.1 s, cycle 13.3-22.3 s); 1,024 GPUs (128 dgx-h100 nodes),
   CollNet allreduce of 64 MiB (SHARP per rail): cycle 1.13 s vs TLM 9.86 s -> cycle (with TLM
   SHARP bursts, session 24: cycle 1.02 s vs TLM 2.28 s). These with sim.level_auto_cycle_below_s=0
   (rank only); at the default (10 s) the 64-host run (estimated 0.5 s at the cycle level)
   stays at the cycle level and says why, the 2,048-host and 4,096-GPU ones still run at TLM.
   --which-level prints the choice without simulating.
3. A simulated run writes the same choice into report.json sim.level_choice.
4. The idle-fabric counts against closed forms: one-way links 2 x hosts on one switch and
   2 x hosts x levels on a fat tree; forced FC refreshes = links x switch.vls x span /
   link.fc_refresh_period; with a fixed report.utilisation_interval below the sampler's cap,
   one sample per interval of the span."""
import json
import math
import os
import subprocess
import sys

nd, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
fail = []


def gen(n, size, algo):
    path = os.path.join(work, f"ar_{n}_{size}_{algo}.jsonl")
    subprocess.run([nd, "gen", "collective", "--op", "allreduce", "--ranks", str(n), "--bytes", size,
                    "--algo", algo, "-o", path], check=True, capture_output=True)
    return path


def which(path, *flags):
    p = subprocess.run([nd, "run", path, "--which-level", *flags], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"FAIL: --which-level {path}: {p.stderr}")
    return json.loads(p.stdout)


# 1. Counts.
n, s = 64, 16 << 20
c = which(gen(n, "16MiB", "ring"))
want_t = 2 * (n - 1) * n
want_p = want_t * math.ceil(s / n / 4096)
k = c["counts"]
if (k["transfers"], k["packets"], k["tlm_transactions"]) != (want_t, want_p, want_t):
    fail.append(f"counts {k}, want transfers {want_t}, packets {want_p}, transactions {want_t}")
if k["hosts"] != 64 or k["path_links"] != 2:
    fail.append(f"hosts/path_links {k}")
if k["links"] != 128:
    fail.append(f"one switch of 64 hosts: links {k['links']}, want 128")
# fc_refreshes over the span: span_us / 4.096 us refreshes per link and VL (defaults: 2 VLs).
# The model's cycle is 1.28 ns, the period 4.096 us = 3,200 cycles.
want_fc = 128 * 2 * (k["span_us"] * 1e3 / 1.28) / 3200
if not math.isclose(k["fc_refreshes"], want_fc, rel_tol=1e-9):
    fail.append(f"fc_refreshes {k['fc_refreshes']}, want {want_fc}")
fixed = which(gen(n, "16MiB", "ring"), "--set", "report.utilisation_interval=10us")["counts"]
want_samples = math.ceil(fixed["span_us"] * 1e3 / 1.28 / round(10e3 / 1.28))
if fixed["utilisation_samples"] != want_samples:
    fail.append(f"samples at 10 us: {fixed['utilisation_samples']}, want {want_samples}")
print(f"64-rank ring 16 MiB: {k['transfers']:.0f} transfers, {k['packets']:.0f} packets (closed form)")

# 2. Choices.
cases = [(gen(64, "16MiB", "ring"), [], "tlm"),
         (gen(1024, "1MiB", "ring"), ["--topology", "fat_tree"], "cycle"),
         (gen(256, "1MiB", "sharp"), ["--topology", "fat_tree"], "cycle"),
         (gen(2048, "256MiB", "ring"), ["--topology", "fat_tree"], "tlm"),
         (gen(32, "256MiB", "tree"), [], "tlm"),
         (gen(32, "256MiB", "tree"), ["--set", "sim.tlm_burst_shared=0"], "cycle")]
# 512 dgx-h100 nodes of 8 GPUs, 8 B ring (the scale suite's point, testbench/perf/scale_suite.py).
dgx = os.path.join(work, "ar_4096_8_dgx.jsonl")
subprocess.run([nd, "gen", "collective", "--op", "allreduce", "--nodes", "512", "--gpus-per-node",
                "8", "--bytes", "8", "--algo", "ring", "-o", dgx], check=True, capture_output=True)
dgx_flags = ["--preset", "dgx-h100", "--set", "host.stack=nccl", "--set", "fabric.levels=3"]
cases.append((dgx, dgx_flags, "tlm"))
# 128 dgx-h100 nodes, CollNet (SHARP per rail) allreduce of 64 MiB: cycle 1.13 s vs TLM 9.86 s
# user (session 20; the estimate counted it as a flat ring before and picked TLM).
collnet = os.path.join(work, "ar_1024_64MiB_collnet.jsonl")
subprocess.run([nd, "gen", "collective", "--op", "allreduce", "--nodes", "128", "--gpus-per-node",
                "8", "--bytes", "64MiB", "--algo", "collnet_direct", "-o", collnet], check=True,
               capture_output=True)
collnet_flags = ["--preset", "dgx-h100", "--set", "host.stack=nccl", "--set", "nccl.collnet=true"]
cases.append((collnet, collnet_flags, "cycle"))
rank_only = ["--set", "sim.level_auto_cycle_below_s=0"]
for path, flags, want in cases:
    ch = which(path, *flags, *rank_only)
    est = ch["estimated_cpu_s"]
    print(f"{os.path.basename(path)}: {ch['level']} (cycle {est['cycle']:.3g} s, tlm {est['tlm']:.3g} s)")
    if ch["rule"] != "cost" or ch["level"] != want:
        fail.append(f"{path}: rule {ch['rule']} level {ch['level']}, want cost/{want}")
    if (est["tlm"] < est["cycle"]) != (want == "tlm"):
        fail.append(f"{path}: estimates {est} disagree with the level")
    if "estimated CPU time" not in ch["reason"]:
        fail.append(f"{path}: reason {ch['reason']!r}")
# SHARP counts: one chunk per sharp.sat_chunk (4 KiB) of each member's input, up and down; a
# CollNet member (one GPU's HCA on its rail) holds 1/8 of the buffer. Payloads are carried and
# checked up to 1 MiB (sharp.data auto): n x S bytes of member input on a flat tree.
kc = which(collnet, *collnet_flags)["counts"]
want_sp = 2 * 1024 * math.ceil((64 << 20) / 8 / 4096)
if (kc["sharp_packets"], kc["sharp_data_bytes"]) != (want_sp, 0):
    fail.append(f"collnet 64 MiB: sharp {kc['sharp_packets']}/{kc['sharp_data_bytes']}, "
                f"want {want_sp}/0")
kf = which(gen(256, "1MiB", "sharp"), "--topology", "fat_tree")["counts"]
if (kf["sharp_packets"], kf["sharp_data_bytes"]) != (2 * 256 * 256, 256 * (1 << 20)):
    fail.append(f"flat SHARP 1 MiB on 256 hosts: {kf}")
# The default floor keeps small runs at the cycle level, not large ones.
small = which(cases[0][0])
if small["level"] != "cycle" or "below sim.level_auto_cycle_below_s 10 s" not in small["reason"]:
    fail.append(f"64 hosts at the default floor: {small['level']}, {small['reason']!r}")
big = which(cases[3][0], "--topology", "fat_tree")
if big["level"] != "tlm":
    fail.append(f"2,048 hosts 256 MiB at the default floor: {big['level']}")
big_dgx = which(dgx, *dgx_flags)
if big_dgx["level"] != "tlm":
    fail.append(f"4,096 GPUs 8 B at the default floor: {big_dgx['level']}")
if big_dgx["counts"]["links"] != 2 * 4096 * 3:
    fail.append(f"4,096 hosts, 3 levels: links {big_dgx['counts']['links']}, want {2 * 4096 * 3}")
# An explicit level is not estimated.
ex = which(cases[0][0], "--level", "cycle")
if ex["rule"] != "explicit" or "estimated_cpu_s" in ex:
    fail.append(f"--level cycle: {ex}")

# 3. The report of a real run carries the choice.
out = os.path.join(work, "run64")
subprocess.run([nd, "run", cases[0][0], "-q", "--out", out, *rank_only], check=True)
with open(os.path.join(out, "report.json")) as f:
    sim = json.load(f)["sim"]
if sim.get("level") != "tlm" or sim["level_choice"]["level"] != "tlm":
    fail.append(f"report sim.level {sim.get('level')}, level_choice {sim.get('level_choice')}")
for f_ in fail:
    print("FAIL:", f_)
sys.exit(1 if fail else 0)
