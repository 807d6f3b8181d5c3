#!/usr/bin/env python3
"""Checks for the SHARP end-to-end tests (tests/e2e/sharp.cmake).

Each mode runs ndrsim itself and exits 0 on success, 1 with a message on failure:

  gen-run NDRSIM WORKDIR -- GEN_ARGS... [--- RUN_ARGS...]
      run `ndrsim gen GEN_ARGS... -o WORKDIR/trace.jsonl`, then
      `ndrsim run WORKDIR/trace.jsonl --out WORKDIR/out -q RUN_ARGS...`; both must exit 0;
      then the report checks below.
  shipped NDRSIM WORKDIR TRACE [-- RUN_ARGS...]
      run `ndrsim run TRACE --out WORKDIR/out -q RUN_ARGS...` and the report checks below.

  host-path NDRSIM WORKDIR
      the SHARP library's host path (common/endpoint_stack.h): an 8 B SHARP allreduce on 8
      hosts of the default fabric, run with host.stack none, mpi and nccl, costs chosen as
      whole 1.28 ns cycles. One OST, so each member's call is entry + one WQE post + one CQ
      poll + exit longer than with none, all members alike, and the collective's time grows
      by exactly that: mpi 2 x (o 256 ns + 8 B copy at 6.25 GB/s = 1.28 ns) + 128 + 64 ns =
      706.56 ns; nccl launch 1280 + 128 + 64 = 1472 ns.

Report checks: every collective has a time > 0; every algo hint of the trace appears; each
row requested as sharp ran as algo "sharp" with no fallback, busbw_factor (n-1)/(n+1) and a
collectives[i].sharp {tree, levels >= 1, data_checked} block, data_checked true exactly when
the size is <= 1 MiB (sharp.data auto); report.sharp lists the trees and per-level stats.
"""
import json
import os
import shutil
import subprocess
import sys

TIMEOUT_S = 240


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def run(ndrsim, args):
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    p = subprocess.run([ndrsim] + args, capture_output=True, text=True, timeout=TIMEOUT_S,
                       env=env)
    if p.returncode != 0:
        fail("`ndrsim {}` exited {}:\n{}{}".format(" ".join(args), p.returncode, p.stdout,
                                                   p.stderr))
    return p.stdout


def check_report(outdir):
    with open(os.path.join(outdir, "report.json")) as f:
        rep = json.load(f)
    colls = rep.get("collectives", [])
    if not colls:
        fail("report has no collectives")
    algos = {}
    for i, c in enumerate(colls):
        req = c.get("algo_requested")
        algos[req] = algos.get(req, 0) + 1
        if not c.get("time_ns", 0) > 0:
            fail("collective {}: time_ns {} not > 0".format(i, c.get("time_ns")))
        if req != "sharp":
            continue
        if c.get("algo") != "sharp":
            fail("collective {} ({} B): requested sharp, ran {} (fallback: {})".format(
                i, c["bytes"], c.get("algo"), c.get("fallback")))
        if "fallback" in c:
            fail("collective {}: sharp row with a fallback: {}".format(i, c["fallback"]))
        n = c["ranks"]
        want = (n - 1) / (n + 1)
        if abs(c["busbw_factor"] - want) > 1e-12:
            fail("collective {}: busbw_factor {} != (n-1)/(n+1) = {}".format(
                i, c["busbw_factor"], want))
        sh = c.get("sharp")
        if not isinstance(sh, dict) or not {"tree", "levels", "data_checked"} <= sh.keys():
            fail("collective {}: missing sharp {{tree, levels, data_checked}}: {}".format(i, sh))
        if sh["levels"] < 1:
            fail("collective {}: sharp.levels {}".format(i, sh["levels"]))
        if sh["data_checked"] != (c["bytes"] <= (1 << 20)):
            fail("collective {} ({} B): data_checked {} (sharp.data auto: <= 1 MiB)".format(
                i, c["bytes"], sh["data_checked"]))
    if algos.get("sharp", 0) == 0:
        fail("no collective requested algo sharp: {}".format(algos))
    sh = rep.get("sharp", {})
    if not sh.get("trees"):
        fail("report.sharp.trees is empty: {}".format(sh))
    levels = sh.get("levels", [])
    if not levels or any(not {"level", "chunks_reduced", "alu_utilisation", "max_osts_in_use",
                              "mean_aggregation_latency_ns"} <= l.keys() for l in levels):
        fail("report.sharp.levels incomplete: {}".format(levels))
    print("ok: {} collectives {}, sharp trees {}".format(len(colls), algos, sh["trees"]))


def main(argv):
    if len(argv) < 3:
        fail("usage: see the module docstring")
    mode, ndrsim, work = argv[0], argv[1], argv[2]
    rest = argv[3:]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    out = os.path.join(work, "out")
    if mode == "gen-run":
        if not rest or rest[0] != "--":
            fail("gen-run: expected -- GEN_ARGS")
        rest = rest[1:]
        gen, runargs = (rest[:rest.index("---")], rest[rest.index("---") + 1:]) \
            if "---" in rest else (rest, [])
        trace = os.path.join(work, "trace.jsonl")
        run(ndrsim, ["gen"] + gen + ["-o", trace])
        run(ndrsim, ["run", trace, "--out", out, "-q"] + runargs)
    elif mode == "shipped":
        if not rest:
            fail("shipped: expected TRACE")
        trace, runargs = rest[0], rest[1:]
        if runargs and runargs[0] == "--":
            runargs = runargs[1:]
        run(ndrsim, ["run", trace, "--out", out, "-q"] + runargs)
    elif mode == "host-path":
        host_path(ndrsim, work)
        return
    else:
        fail("unknown mode " + mode)
    check_report(out)


def host_path(ndrsim, work):
    trace = os.path.join(work, "trace.jsonl")
    run(ndrsim, ["gen", "collective", "--op", "allreduce", "--ranks", "8", "--bytes", "8B",
                 "--algo", "sharp", "-o", trace])
    costs = ["--set", "host.mpi_o=256ns", "--set", "host.mpi_copy_rate=50Gbps",
             "--set", "host.wqe_post=128ns", "--set", "host.cqe_poll=64ns",
             "--set", "host.nccl_launch=1280ns"]
    times = {}
    for stack in ("none", "mpi", "nccl"):
        out = os.path.join(work, stack)
        run(ndrsim, ["run", trace, "--out", out, "-q", "--set", "host.stack=" + stack] + costs)
        rep = json.load(open(os.path.join(out, "report.json")))
        c = rep["collectives"][0]
        if c["algo"] != "sharp" or c.get("fallback"):
            fail(f"{stack}: ran {c['algo']} ({c.get('fallback')}), expected sharp")
        times[stack] = c["time_ns"]
    for stack, extra in (("mpi", 2 * (256 + 1.28) + 128 + 64), ("nccl", 1280 + 128 + 64)):
        got = times[stack] - times["none"]
        if abs(got - extra) > 0.01:
            fail(f"{stack}: SHARP host path added {got:.2f} ns, expected {extra:.2f} ns "
                 f"(none {times['none']:.2f} ns, {stack} {times[stack]:.2f} ns)")
    print(f"ok: none {times['none']:.2f} ns, mpi +706.56 ns, nccl +1472 ns")


if __name__ == "__main__":
    main(sys.argv[1:])
