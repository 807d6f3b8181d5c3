#!/usr/bin/env python3
"""report.utilisation_interval (tests/e2e/run_cli.cmake): NDRSIM OUTDIR TRACE.

Runs TRACE at the automatic period and at 100 ns and 3 us. The collectives, totals and the
links' bytes and mean utilisation must be identical (the period changes only the samples); the
reported period must be the requested one rounded to whole cycles (100 ns / 1.28 ns = 78.125 ->
78 cycles = 99.84 ns); every sample is in [0, 1]; the timeline holds one counter per link per
sample, so the 100 ns run has ~30x the counters of the 3 us one."""
import json
import os
import subprocess
import sys


def run(ndrsim, out, trace, period):
    d = os.path.join(out, period or "auto")
    args = [ndrsim, "run", trace, "-q", "--out", d, "--set", "report.timeline=packets"]
    if period:
        args += ["--set", f"report.utilisation_interval={period}"]
    subprocess.run(args, check=True)
    with open(os.path.join(d, "report.json")) as f:
        rep = json.load(f)
    with open(os.path.join(d, "timeline.json")) as f:
        counters = [e for e in json.load(f)["traceEvents"] if e["ph"] == "C"]
    return rep, counters


def main():
    ndrsim, out, trace = sys.argv[1:4]
    base, _ = run(ndrsim, out, trace, None)
    fine, cf = run(ndrsim, out, trace, "100ns")
    coarse, cc = run(ndrsim, out, trace, "3us")
    cyc = base["sim"]["cycle_ns"]
    for name, rep in (("100ns", fine), ("3us", coarse)):
        for key in ("collectives", "totals"):
            if rep[key] != base[key]:
                sys.exit(f"FAIL: {key} differ between the automatic period and {name}")
        strip = [{k: l[k] for k in ("link", "bytes", "utilisation")} for l in rep["links"]]
        if strip != [{k: l[k] for k in ("link", "bytes", "utilisation")} for l in base["links"]]:
            sys.exit(f"FAIL: links[] bytes/utilisation differ at {name}")
        if any(not 0.0 <= l["peak_utilisation"] <= 1.0 for l in rep["links"]):
            sys.exit(f"FAIL: a peak outside [0, 1] at {name}")
    want_fine = round(100 / cyc) * cyc
    want_coarse = round(3000 / cyc) * cyc
    if abs(fine["sim"]["utilisation_interval_ns"] - want_fine) > 1e-6:
        sys.exit(f"FAIL: 100ns period reported {fine['sim']['utilisation_interval_ns']}, want {want_fine}")
    if abs(coarse["sim"]["utilisation_interval_ns"] - want_coarse) > 1e-6:
        sys.exit(f"FAIL: 3us period reported {coarse['sim']['utilisation_interval_ns']}, want {want_coarse}")
    if any(not 0.0 <= e["args"]["utilisation"] <= 1.0 for e in cf + cc):
        sys.exit("FAIL: a timeline sample outside [0, 1]")
    ratio = len(cf) / max(1, len(cc))
    expect = want_coarse / want_fine
    if not 0.9 * expect <= ratio <= 1.1 * expect:
        sys.exit(f"FAIL: counter ratio {ratio:.2f}, want about {expect:.2f}")
    print(f"ok: {len(cf)} vs {len(cc)} counters, periods {want_fine:.2f} / {want_coarse:.2f} ns")


if __name__ == "__main__":
    main()
