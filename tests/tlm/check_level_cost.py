#!/usr/bin/env python3
"""sim.level auto with sim.level_auto cost (the default) picks the level of a trace replay by
estimated CPU time (issue 19 item 3), and report.json says why.

usage: check_level_cost.py NDRSIM WORKDIR
1. The counts behind the estimate against closed forms: a ring allreduce of S bytes on n ranks
   is 2(n-1) steps of n transfers of S/n bytes, ceil(S/n / 4096) packets each and, with bursts
   of up to 1 MiB, one TLM transaction each.
2. The choice against the CPU times measured in docs/performance.md ("Choosing the level"):
   64 hosts, 16 MiB ring: TLM 0.05 s vs cycle 0.29 s -> tlm; 1,024 hosts, 1 MiB ring: cycle
   4.3 s vs TLM 58 s -> cycle; 256 hosts, 1 MiB SHARP: cycle 1.3 s vs TLM 2.5 s -> cycle;
   2,048 hosts, 256 MiB ring: TLM 146-201 s (LT) vs cycle, estimated several times longer ->
   tlm. These with sim.level_auto_cycle_below_s=0 (rank only); at the default (60 s) the
   64-host run (estimated 0.5 s at the cycle level) stays at the cycle level and says why, the
   2,048-host one still runs at TLM. --which-level prints the choice without simulating.
3. A simulated run writes the same choice into report.json sim.level_choice."""
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
print(f"64-rank ring 16 MiB: {k['transfers']:.0f} transfers, {k['packets']:.0f} packets (closed form)")

# 2. Choices.
cases = [(gen(64, "16MiB", "ring"), [], "tlm"),
         (gen(1024, "1MiB", "ring"), ["--topology", "fat_tree"], "cycle"),
         (gen(256, "1MiB", "sharp"), ["--topology", "fat_tree"], "cycle"),
         (gen(2048, "256MiB", "ring"), ["--topology", "fat_tree"], "tlm")]
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
# The default floor keeps small runs at the cycle level, not large ones.
small = which(cases[0][0])
if small["level"] != "cycle" or "below sim.level_auto_cycle_below_s 60 s" not in small["reason"]:
    fail.append(f"64 hosts at the default floor: {small['level']}, {small['reason']!r}")
big = which(cases[3][0], "--topology", "fat_tree")
if big["level"] != "tlm":
    fail.append(f"2,048 hosts 256 MiB at the default floor: {big['level']}")
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
