#!/usr/bin/env python3
"""Checks of `ndrsim traffic --level rtl` (tests/e2e/traffic_rtl.cmake) against expectations
derived independently of the run, from the documented pipeline of rtl/ib_switch_core
(rtl/README.md) and from conservation.

  low NDRSIM OUTDIR BLOCKS -- ARGS...
      a low-load run: sim.level is "rtl"; delivered == injected - in_flight, dropped == 0;
      offered load within 10 % of the configured load; accepted load within 3 % of offered;
      the minimum latency is the zero-load pipeline: 2 * BLOCKS + 1 cycles (header in to
      header out BLOCKS + 1, then BLOCKS beats, delivered the cycle after the tail).
  saturation NDRSIM OUTDIR BLOCKS -- ARGS...
      a backlogged permutation: no output contention, so every output carries back-to-back
      packets with the one allocation cycle between them: accepted load per port =
      BLOCKS / (BLOCKS + 1) (within 0.01), dropped == 0.
"""
import json
import os
import subprocess
import sys


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def run_report(ndrsim, outdir, args):
    p = subprocess.run([ndrsim] + args + ["--out", outdir, "-q"], capture_output=True,
                       text=True, timeout=240)
    if p.returncode != 0:
        fail(f"ndrsim {' '.join(args)} exited {p.returncode}: {p.stderr.strip()}")
    with open(os.path.join(outdir, "report.json")) as f:
        return json.load(f)


def main(argv):
    i = argv.index("--")
    (mode, ndrsim, outdir, blocks), args = argv[:i], argv[i + 1:]
    blocks = int(blocks)
    j = run_report(ndrsim, outdir, args)
    if j["sim"].get("level") != "rtl":
        fail(f"sim.level is {j['sim'].get('level')}, expected rtl")
    pk = j["packets"]
    if pk["dropped"] != 0 or pk["delivered"] != pk["injected"] - pk["in_flight"]:
        fail(f"conservation: {pk}")
    t = j["traffic"]
    if mode == "low":
        if abs(t["offered_load"] - t["configured_load"]) > 0.1 * t["configured_load"]:
            fail(f"offered {t['offered_load']} vs configured {t['configured_load']}")
        if abs(t["accepted_load"] - t["offered_load"]) > 0.03 * t["offered_load"]:
            fail(f"accepted {t['accepted_load']} vs offered {t['offered_load']} at low load")
        want = (2 * blocks + 1) * j["sim"]["cycle_ns"]
        got = j["latency_ns"]["min"]
        if abs(got - want) > 1e-6:
            fail(f"zero-load latency {got} ns, expected {want} ns ({2 * blocks + 1} cycles)")
        if not j["latency_ns"]["complete"]:
            fail("not every measured packet was delivered at low load")
    elif mode == "saturation":
        want = blocks / (blocks + 1)
        for p in j["ports"]:
            if abs(p["accepted_load"] - want) > 0.01:
                fail(f"port {p['port']}: accepted {p['accepted_load']}, expected {want:.4f}")
    else:
        fail(f"unknown mode {mode}")
    print(f"ok: {mode}: offered {t['offered_load']:.4f}, accepted {t['accepted_load']:.4f}, "
          f"min latency {j['latency_ns']['min']} ns")


if __name__ == "__main__":
    main(sys.argv[1:])
