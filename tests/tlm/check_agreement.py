#!/usr/bin/env python3
"""Runs `ndrsim traffic` at cycle and TLM level on the same config and compares the reports.

usage: check_agreement.py NDRSIM OUTDIR
Checks, per load point (16 ports, uniform, 4 KiB, loads 0.1..0.6): identical injected packets,
identical minimum latency (the zero-load latency), mean latency within 5 %, delivered packets
within 1 %. Prints one table row per point (the numbers in docs/fidelity_tlm.md)."""
import json
import subprocess
import sys

ndrsim, outdir = sys.argv[1], sys.argv[2]
args = ["traffic", "--ports", "16", "--load", "0.1:0.6:0.1", "--warmup", "5000",
        "--cycles", "40000", "-j", "2", "-q"]
reports = {}
for level in ("cycle", "tlm"):
    out = f"{outdir}/{level}"
    subprocess.run([ndrsim, *args, "--level", level, "--out", out], check=True)
    with open(f"{out}/report.json") as f:
        reports[level] = json.load(f)["points"]

fail = []
print(f"{'load':>5} {'min cyc/tlm ns':>16} {'mean cycle':>10} {'mean tlm':>9} {'diff %':>7} "
      f"{'p99 cycle':>9} {'p99 tlm':>8} {'deliv cycle':>11} {'deliv tlm':>9}")
for c, t in zip(reports["cycle"], reports["tlm"]):
    load = c["traffic"]["configured_load"]
    lc, lt = c["latency_ns"], t["latency_ns"]
    diff = (lt["mean"] - lc["mean"]) / lc["mean"] * 100.0
    dc, dt = c["packets"]["delivered"], t["packets"]["delivered"]
    print(f"{load:5.2f} {lc['min']:7.1f}/{lt['min']:7.1f} {lc['mean']:10.1f} {lt['mean']:9.1f} "
          f"{diff:7.2f} {lc['p99']:9.1f} {lt['p99']:8.1f} {dc:11d} {dt:9d}")
    if c["packets"]["injected"] != t["packets"]["injected"]:
        fail.append(f"load {load}: injected {c['packets']['injected']} vs {t['packets']['injected']}")
    if lc["min"] != lt["min"]:
        fail.append(f"load {load}: min latency {lc['min']} vs {lt['min']}")
    if abs(diff) > 5.0:
        fail.append(f"load {load}: mean latency differs by {diff:.2f} %")
    if abs(dc - dt) > 0.01 * dc:
        fail.append(f"load {load}: delivered {dc} vs {dt}")
for f in fail:
    print("FAIL:", f)
sys.exit(1 if fail else 0)
