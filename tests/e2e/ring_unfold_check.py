#!/usr/bin/env python3
"""A ring reduce_scatter, allgather or allreduce unfolds step by step (issue 19 item 2).

Usage: ring_unfold_check.py NDRSIM OUTDIR -- RUN_ARGS...

Runs `ndrsim run RUN_ARGS... -q --out OUTDIR` and checks every ring collective of report.json
against the schedule's own arithmetic: a ring of n ranks has L = 2(n-1) steps (allreduce) or
n-1 (reduce_scatter, allgather), every step of a channel sends the same number of transfers,
so one step of all channels is `transfers` / L. The replay unfolds step k+1 of a channel at the
first completion of step k and drops a step once it and those before it completed, so it holds
at least one step, and it holds the steps between the slowest and the fastest rank's, not the
schedule: before this change transfers_held_peak would have been `transfers` (the schedule was
built whole). How far ranks drift apart depends on the fabric (2 steps on one switch, 4 on a
fat tree of 8-port switches, 6 on two DGX nodes where NVLink hops outrun the IB ones), so the
check is: one step <= peak, and for a collective of 8 steps or more peak <= half the schedule.
Any other collective must not report the field.
"""
import json
import os
import shutil
import subprocess
import sys


def fail(msg):
    print(f"FAIL: {msg}")
    sys.exit(1)


def main():
    if len(sys.argv) < 4 or sys.argv[3] != "--":
        fail("usage: ring_unfold_check.py NDRSIM OUTDIR -- RUN_ARGS...")
    ndrsim, out, args = sys.argv[1], sys.argv[2], sys.argv[4:]
    shutil.rmtree(out, ignore_errors=True)
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    p = subprocess.run([ndrsim, "run", *args, "-q", "--out", out], env=env,
                       capture_output=True, text=True)
    if p.returncode != 0:
        fail(f"ndrsim exited {p.returncode}: {p.stderr.strip()}")
    with open(os.path.join(out, "report.json")) as f:
        report = json.load(f)
    rings = 0
    for c in report["collectives"]:
        name = f"{c['op']} {c['bytes']} B on {c['ranks']} ranks ({c['algo']})"
        ring = c["algo"] == "ring" and c["op"] in ("allreduce", "reduce_scatter", "allgather")
        if not ring:
            if "transfers_held_peak" in c:
                fail(f"{name}: transfers_held_peak on a schedule built whole")
            continue
        rings += 1
        n = c["ranks"]
        steps = 2 * (n - 1) if c["op"] == "allreduce" else n - 1
        total = c["transfers"]
        if total % steps != 0:
            fail(f"{name}: {total} transfers are not {steps} equal steps")
        step = total // steps
        peak = c.get("transfers_held_peak")
        if peak is None:
            fail(f"{name}: no transfers_held_peak")
        if peak < step:
            fail(f"{name}: transfers_held_peak {peak} below one step ({step})")
        if steps >= 8 and 2 * peak > total:
            fail(f"{name}: held {peak} of {total} transfers at once, more than half the "
                 f"schedule ({steps} steps of {step})")
        print(f"ok: {name}: peak {peak} held of {total} ({steps} steps of {step})")
    if rings == 0:
        fail("no ring reduce_scatter, allgather or allreduce in the report")


if __name__ == "__main__":
    main()
