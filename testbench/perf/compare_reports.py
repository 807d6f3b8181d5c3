#!/usr/bin/env python3
"""Compare two directories written by regress_runs.sh: every report.json must be identical
apart from wall-clock fields (sim.wall_s, sim.cycles_per_wall_s, sim.packets_per_wall_s,
sim.peak_rss_MiB) and config keys that only DIR_B's binary has (a new key echoed at its default
is not a changed result; they are listed once). Exit status 1 and the first differences on a
mismatch.
Usage: testbench/perf/compare_reports.py DIR_A DIR_B"""
import json
import pathlib
import sys

WALL = {"wall_s", "cycles_per_wall_s", "packets_per_wall_s", "peak_rss_MiB"}


def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if k not in WALL}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x


NEW_KEYS = set()


def diff(a, b, path, out):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if path.endswith(".config") and k in b and k not in a:
                NEW_KEYS.add(f"{k}={b[k]}")
            elif k not in a or k not in b:
                out.append(f"{path}.{k}: only in one report")
            else:
                diff(a[k], b[k], f"{path}.{k}", out)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            diff(x, y, f"{path}[{i}]", out)
    elif a != b:
        out.append(f"{path}: {a!r} != {b!r}")


def main():
    da, db = (pathlib.Path(p) for p in sys.argv[1:3])
    runs = sorted(p.parent.name for p in da.glob("*/report.json"))
    if not runs:
        sys.exit(f"no */report.json in {da}")
    bad = 0
    for r in runs:
        fb = db / r / "report.json"
        if not fb.exists():
            print(f"{r}: missing in {db}")
            bad += 1
            continue
        a = strip(json.load(open(da / r / "report.json")))
        b = strip(json.load(open(fb)))
        out = []
        diff(a, b, "", out)
        if out:
            bad += 1
            args = (da / r / "args.txt").read_text().strip()
            print(f"{r} ({args}): {len(out)} differences")
            for line in out[:10]:
                print("   ", line)
    if NEW_KEYS:
        print("config keys new in", db, "(ignored):", ", ".join(sorted(NEW_KEYS)))
    print(f"{len(runs) - bad}/{len(runs)} reports identical apart from wall-clock fields")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
