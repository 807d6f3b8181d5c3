#!/usr/bin/env python3
"""report.timeline levels (tests/e2e/run_cli.cmake): each level of timeline.json holds the events
it promises (docs/report.md), and the level changes no simulated result.

  timeline_levels_check.py NDRSIM OUTDIR TRACE NRANKS BYTES [ARGS...]

TRACE is one ring allreduce of BYTES on NRANKS ranks (`ndrsim gen collective --algo ring`).
Runs `ndrsim run TRACE -q --out OUTDIR/LEVEL --set report.timeline=LEVEL ARGS...` per level:
  off          no timeline.json (one left from an earlier run in OUTDIR/off is removed)
  collectives  one ph "X" slice per rank (NRANKS, tids 0..NRANKS-1, named allreduce) inside the
               collective's [start_ns, end_ns]; no transfer slice (pid 3), no ph "C" counter
  transfers    the same rank slices, plus one X slice per RDMA transfer on pid 3: as many as the
               report's collectives[0].transfers, each inside [start_ns, end_ns], their bytes
               summing to 2 (NRANKS - 1) BYTES (a ring allreduce sends each of its NRANKS blocks
               2 (NRANKS - 1) times: n - 1 reduce-scatter and n - 1 allgather steps); no counter
  packets      the same rank and transfer slices, plus ph "C" counters: one series per link of
               report.json (up to 512), each value in [0, 1]
report.json is identical at every level apart from the wall-clock fields and report.timeline.
"""
import json
import os
import shutil
import subprocess
import sys

LEVELS = ["off", "collectives", "transfers", "packets"]
WALL = {"wall_s", "cycles_per_wall_s", "peak_rss_MiB"}
EPS_US = 1e-6  # ts/dur are microseconds from cycles; report times are ns


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def load(path):
    with open(path) as f:
        return json.load(f)


def simulated(rep):
    """report.json without its wall-clock fields and without the level itself."""
    def strip(d):
        if isinstance(d, dict):
            return {k: strip(v) for k, v in d.items() if k not in WALL and k != "report.timeline"}
        if isinstance(d, list):
            return [strip(v) for v in d]
        return d
    return strip(rep)


def run_level(ndrsim, out, trace, level, extra):
    d = os.path.join(out, level)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    if level == "off":  # a timeline of an earlier run must not survive
        with open(os.path.join(d, "timeline.json"), "w") as f:
            f.write("{}\n")
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    p = subprocess.run([ndrsim, "run", trace, "-q", "--out", d, "--set",
                        f"report.timeline={level}"] + extra,
                       capture_output=True, text=True, env=env, timeout=300)
    if p.returncode != 0:
        fail(f"{level}: exit {p.returncode}: {p.stderr.strip()}")
    rep = load(os.path.join(d, "report.json"))
    tl_path = os.path.join(d, "timeline.json")
    return rep, (load(tl_path) if os.path.exists(tl_path) else None)


def within(e, c):
    return (e["ts"] >= c["start_ns"] / 1000 - EPS_US and
            e["ts"] + e["dur"] <= c["end_ns"] / 1000 + EPS_US)


def main():
    if len(sys.argv) < 6:
        fail("usage: timeline_levels_check.py NDRSIM OUTDIR TRACE NRANKS BYTES [ARGS...]")
    ndrsim, out, trace = sys.argv[1:4]
    n, nbytes, extra = int(sys.argv[4]), int(sys.argv[5]), sys.argv[6:]
    reps, tls = {}, {}
    for level in LEVELS:
        reps[level], tls[level] = run_level(ndrsim, out, trace, level, extra)
        if reps[level]["config"].get("report.timeline") != level:
            fail(f"{level}: report.json config says {reps[level]['config'].get('report.timeline')}")
    for level in LEVELS[1:]:
        if simulated(reps[level]) != simulated(reps["off"]):
            fail(f"report.json at {level} differs from off in a simulated field")
    if tls["off"] is not None:
        fail("off: timeline.json exists")
    coll = reps["off"]["collectives"]
    if len(coll) != 1:
        fail(f"expected one collective, got {len(coll)}")
    c = coll[0]
    kinds = {}
    for level in LEVELS[1:]:
        ev = tls[level]["traceEvents"]
        ranks = [e for e in ev if e["ph"] == "X" and e["pid"] != 3]
        xfers = [e for e in ev if e["ph"] == "X" and e["pid"] == 3]
        counters = [e for e in ev if e["ph"] == "C"]
        kinds[level] = (ranks, xfers, counters)
        if sorted(e["tid"] for e in ranks) != list(range(n)):
            fail(f"{level}: rank slices on tids {sorted(e['tid'] for e in ranks)}, "
                 f"want one on each of 0..{n - 1}")
        if any(e["name"] != "allreduce" or not within(e, c) for e in ranks):
            fail(f"{level}: a rank slice is not an allreduce inside the collective's time")
    r_c, x_c, c_c = kinds["collectives"]
    if x_c or c_c:
        fail(f"collectives: {len(x_c)} transfer slices and {len(c_c)} counters, want none")
    r_t, x_t, c_t = kinds["transfers"]
    if r_t != r_c:
        fail("transfers: its rank slices differ from those of collectives")
    if len(x_t) != c["transfers"]:
        fail(f"transfers: {len(x_t)} transfer slices, report says {c['transfers']} transfers")
    total = sum(e["args"]["bytes"] for e in x_t)
    if total != 2 * (n - 1) * nbytes:
        fail(f"transfers: {total} bytes in transfer slices, want 2(n-1)S = "
             f"{2 * (n - 1) * nbytes}")
    if not all(within(e, c) and 0 <= e["args"]["dst"] < n and e["dur"] > 0 for e in x_t):
        fail("transfers: a transfer slice outside the collective, to no rank, or of no time")
    if c_t:
        fail(f"transfers: {len(c_t)} counters, want none")
    r_p, x_p, c_p = kinds["packets"]
    if r_p != r_c or x_p != x_t:
        fail("packets: its rank or transfer slices differ from those of transfers")
    names = {e["name"] for e in c_p}
    links = [l["link"] for l in reps["packets"]["links"]][:512]
    if names != set(links):
        fail(f"packets: counters for {len(names)} links, report.json has {len(links)}")
    if not all(0.0 <= e["args"]["utilisation"] <= 1.0 for e in c_p):
        fail("packets: a counter outside [0, 1]")
    print(f"ok: collectives {len(r_c)} slices; transfers + {len(x_t)} transfers ({total} B); "
          f"packets + {len(c_p)} counters on {len(names)} links; off: no timeline.json")


if __name__ == "__main__":
    main()
