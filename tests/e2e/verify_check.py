#!/usr/bin/env python3
"""Checks for the `ndrsim verify` end-to-end tests (tests/e2e/verify.cmake).

Each mode runs ndrsim itself and exits 0 on success, 1 with a message on failure:

  pass NDRSIM OUTDIR BLOCKS -- ARGS...
      run `ndrsim verify ARGS... --out OUTDIR`; expect exit 0, one "verify B: pass" line per
      block, and OUTDIR/report.json holding at least the blocks of the comma-separated list
      BLOCKS, every block passed with cycles, comparisons and coverage points > 0,
      hit <= points, and no mismatch.
  fault NDRSIM BLOCK FAULT
      run `ndrsim verify BLOCK --fault FAULT`; expect exit 1 and exactly one line
      "verify BLOCK: MISMATCH cycle C, port P, VL V, WHAT: expected E, got G".
  wave NDRSIM FILE -- ARGS...
      run `ndrsim verify ARGS... --wave FILE`; expect exit 0 and FILE to be an FST file:
      header block tag 0, header length 329, the FST endian-test double (e), end time > 0 and
      at least one variable (gtkwave/fstapi.c, fstWriterEmitHdrBytes).
  determinism NDRSIM OUTDIR -- ARGS...
      the same run twice: identical report.json except wall_s.
  error NDRSIM CODE REGEX -- ARGS...
      expect exit status CODE and exactly one non-empty line of output (stdout + stderr)
      matching REGEX (Python re).
"""
import json
import math
import os
import re
import shutil
import struct
import subprocess
import sys

TIMEOUT_S = 120


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def run(ndrsim, args):
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    p = subprocess.run([ndrsim, "verify"] + args, capture_output=True, text=True,
                       timeout=TIMEOUT_S, env=env)
    return p.returncode, p.stdout, p.stderr


def split_args(argv):
    if "--" not in argv:
        fail("missing '--' before the ndrsim arguments")
    i = argv.index("--")
    return argv[:i], argv[i + 1:]


def fresh_dir(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)


def load_report(outdir):
    path = os.path.join(outdir, "report.json")
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        fail(f"{path}: not readable JSON: {e}")


def mode_pass(argv):
    (ndrsim, outdir, names), args = split_args(argv)
    fresh_dir(outdir)
    code, out, err = run(ndrsim, args + ["--out", outdir])
    if code != 0:
        fail(f"exit {code}\n{out}{err}")
    rep = load_report(outdir)
    blocks = rep.get("blocks", [])
    missing = set(names.split(",")) - {b.get("block") for b in blocks}
    if missing:
        fail(f"blocks missing from report.json: {sorted(missing)}")
    if rep.get("result") != "pass":
        fail(f"report result {rep.get('result')}")
    for b in blocks:
        name = b.get("block")
        if not re.search(rf"^verify {re.escape(str(name))}: pass, ", out, re.M):
            fail(f"no pass line for {name} in:\n{out}")
        for key in ("cycles", "comparisons"):
            if not isinstance(b.get(key), int) or b[key] <= 0:
                fail(f"{name}: {key} = {b.get(key)}")
        cov = b.get("coverage", {})
        if not (cov.get("points", 0) > 0 and 0 < cov.get("hit", 0) <= cov["points"]):
            fail(f"{name}: coverage {cov}")
        if b.get("result") != "pass" or b.get("mismatch") is not None:
            fail(f"{name}: {b}")
    print(out, end="")


def mode_fault(argv):
    ndrsim, block, fault = argv
    code, out, err = run(ndrsim, [block, "--fault", fault])
    if code != 1:
        fail(f"exit {code}, expected 1\n{out}{err}")
    lines = [l for l in out.splitlines() if l.startswith("verify ")]
    pat = (rf"^verify {re.escape(block)}: MISMATCH cycle \d+, port (\d+|-), VL (\d+|-), "
           r"\S[^:]*: expected .+, got .+$")
    if len(lines) != 1 or not re.match(pat, lines[0]):
        fail(f"expected one mismatch line matching {pat!r}, got:\n{out}{err}")
    print(lines[0])


def mode_wave(argv):
    (ndrsim, path), args = split_args(argv)
    if os.path.exists(path):
        os.remove(path)
    code, out, err = run(ndrsim, args + ["--wave", path])
    if code != 0:
        fail(f"exit {code}\n{out}{err}")
    try:
        with open(path, "rb") as f:
            hdr = f.read(57)
    except OSError as e:
        fail(f"{path}: {e}")
    if len(hdr) < 57:
        fail(f"{path}: {len(hdr)} bytes, shorter than an FST header")
    tag = hdr[0]
    (seclen, _start, end) = struct.unpack(">QQQ", hdr[1:25])
    (endian_test,) = struct.unpack("=d", hdr[25:33])
    (num_vars,) = struct.unpack(">Q", hdr[49:57])
    if tag != 0 or seclen != 329 or not math.isclose(endian_test, math.e):
        fail(f"{path}: not an FST header (tag {tag}, length {seclen}, endian test {endian_test})")
    if end == 0 or num_vars == 0:
        fail(f"{path}: empty waveform (end time {end}, {num_vars} variables)")
    print(f"{path}: FST, end time {end}, {num_vars} variables")


def mode_determinism(argv):
    (ndrsim, outdir), args = split_args(argv)
    reports = []
    for i in range(2):
        d = os.path.join(outdir, str(i))
        fresh_dir(d)
        code, out, err = run(ndrsim, args + ["--out", d])
        if code != 0:
            fail(f"exit {code}\n{out}{err}")
        rep = load_report(d)
        for b in rep["blocks"]:
            b.pop("wall_s", None)
        reports.append(rep)
    if reports[0] != reports[1]:
        fail("two runs with the same seed differ")


def mode_error(argv):
    (ndrsim, code_s, regex), args = split_args(argv)
    code, out, err = run(ndrsim, args)
    if code != int(code_s):
        fail(f"exit {code}, expected {code_s}\n{out}{err}")
    lines = [l for l in (out + err).splitlines() if l.strip()]
    if len(lines) != 1 or not re.search(regex, lines[0]):
        fail(f"expected one line matching {regex!r}, got:\n{out}{err}")


MODES = {"pass": mode_pass, "fault": mode_fault, "wave": mode_wave,
         "determinism": mode_determinism, "error": mode_error}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in MODES:
        fail("usage: verify_check.py " + "|".join(MODES) + " ...")
    MODES[sys.argv[1]](sys.argv[2:])
