#!/usr/bin/env python3
"""Check for the Chakra replay end-to-end tests (tests/e2e/chakra.cmake).

  replay NDRSIM OUTDIR PREFIX OP BYTES RANKS
      `ndrsim import chakra PREFIX`, `ndrsim gen collective --op OP --bytes BYTES --ranks
      RANKS` (the equivalent trace, written by ndrsim's own generator), `ndrsim run` of both;
      the two report.json files must agree on every collective's op, bytes, ranks, start_ns
      and end_ns (the completion time), and on the run's end. Exit 0 on success, 1 otherwise.
"""
import json
import os
import shutil
import subprocess
import sys


def fail(msg):
    print(f"FAIL: {msg}")
    sys.exit(1)


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        fail(f"{' '.join(cmd)}: exit {p.returncode}\n{p.stdout}\n{p.stderr}")
    return p.stdout


def summary(report_path):
    with open(report_path) as f:
        rep = json.load(f)
    colls = [(c["op"], c["bytes"], c["ranks"], c["start_ns"], c["end_ns"])
             for c in rep["collectives"]]
    if not colls:
        fail(f"{report_path}: no collectives")
    return colls


def mode_replay(argv):
    if len(argv) != 6:
        fail("usage: replay NDRSIM OUTDIR PREFIX OP BYTES RANKS")
    ndrsim, out, prefix, op, size, ranks = argv
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    imported = os.path.join(out, "chakra.jsonl")
    generated = os.path.join(out, "gen.jsonl")
    run([ndrsim, "import", "chakra", prefix, "-o", imported])
    run([ndrsim, "gen", "collective", "--op", op, "--bytes", size, "--ranks", ranks,
         "-o", generated])
    run([ndrsim, "run", imported, "--out", os.path.join(out, "c"), "-q"])
    run([ndrsim, "run", generated, "--out", os.path.join(out, "g"), "-q"])
    a = summary(os.path.join(out, "c", "report.json"))
    b = summary(os.path.join(out, "g", "report.json"))
    if a != b:
        fail(f"imported Chakra trace replays differently:\n  chakra {a}\n  gen    {b}")
    print(f"ok: {len(a)} collectives, completion {a[-1][4]} ns in both")


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] != "replay":
        fail("usage: chakra_check.py replay ...")
    mode_replay(sys.argv[2:])
