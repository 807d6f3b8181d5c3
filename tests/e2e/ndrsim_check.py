#!/usr/bin/env python3
"""Checks for the ndrsim CLI end-to-end tests (tests/e2e/traffic_cli.cmake).

Each mode runs ndrsim itself (so a test is one self-contained CTest entry) and exits 0 on
success, 1 with a message on failure:

  report NDRSIM OUTDIR -- ARGS...      run `ndrsim ARGS... --out OUTDIR`, expect exit 0 and a
                                       report.json holding every required field
  points NDRSIM OUTDIR N -- ARGS...    as report, but a load curve: exactly N entries in points[]
  ok NDRSIM REGEX -- ARGS...           expect exit 0 and REGEX (Python re, MULTILINE) in stdout
  determinism NDRSIM OUTDIR -- ARGS... same seed twice: identical report.json except wall-clock
                                       fields; a different seed: different results
  bench NDRSIM OUTDIR CYCLES REPEAT -- ARGS...
                                       run `ndrsim bench ARGS... --out OUTDIR`: 5 scenarios,
                                       each with REPEAT runs of CYCLES+1 cycles whose simulated
                                       results agree, and the median run by wall time shown
  error NDRSIM REGEX... -- ARGS...     expect a non-zero exit and exactly one non-empty line of
                                       output (stdout + stderr) matching every REGEX
  error-yaml NDRSIM FILE LINE YAML REGEX... -- ARGS...
                                       write YAML (\\n = newline) to FILE, run with
                                       `--config FILE`, expect an error naming FILE:LINE
"""
import json
import os
import re
import shutil
import subprocess
import sys

TIMEOUT_S = 60

# Wall-clock dependent fields: the only ones allowed to differ between identical runs.
WALL_FIELDS = {"wall_s", "cycles_per_wall_s", "packets_per_wall_s", "peak_rss_MiB"}

REQUIRED = [
    "config",
    "sim.cycles", "sim.sim_time_ns", "sim.wall_s",
    "traffic.offered_load", "traffic.accepted_load",
    "packets.injected", "packets.delivered", "packets.dropped", "packets.in_flight",
    "latency_ns.mean", "latency_ns.p50", "latency_ns.p99", "latency_ns.p999", "latency_ns.max",
    "ports", "buffer_occupancy", "credit_stall_cycles",
]


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def run(ndrsim, args):
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    p = subprocess.run([ndrsim] + args, capture_output=True, text=True, timeout=TIMEOUT_S,
                       env=env)
    return p.returncode, p.stdout, p.stderr


def split_args(argv):
    if "--" not in argv:
        fail("usage: missing '--' before the ndrsim arguments")
    i = argv.index("--")
    return argv[:i], argv[i + 1:]


def get(j, dotted):
    cur = j
    for part in dotted.split("."):
        if not isinstance(cur, dict) or part not in cur:
            return None, False
        cur = cur[part]
    return cur, True


def check_point(j, where):
    missing = [k for k in REQUIRED if not get(j, k)[1]]
    if missing:
        fail(f"{where}: missing report fields: {', '.join(missing)}")
    for k in REQUIRED[1:]:
        v = get(j, k)[0]
        if k in ("ports", "buffer_occupancy"):
            if not isinstance(v, list) or not v:
                fail(f"{where}: {k} must be a non-empty list, got {v!r}")
        elif k == "credit_stall_cycles":
            if not isinstance(v, dict) or "total" not in v:
                fail(f"{where}: credit_stall_cycles must be an object with 'total'")
        elif not isinstance(v, (int, float)) or isinstance(v, bool):
            fail(f"{where}: {k} must be a number, got {v!r}")
    for i, b in enumerate(j["buffer_occupancy"]):
        for f in ("max_blocks", "mean_blocks"):
            if f not in b:
                fail(f"{where}: buffer_occupancy[{i}] lacks {f}")
    for i, p in enumerate(j["ports"]):
        if "accepted_load" not in p or "offered_load" not in p:
            fail(f"{where}: ports[{i}] lacks accepted_load/offered_load")
    inj, dl, fl = (j["packets"][k] for k in ("injected", "delivered", "in_flight"))
    if inj != dl + fl:
        fail(f"{where}: packets.injected {inj} != delivered {dl} + in_flight {fl}")
    if j["sim"]["cycles"] <= 0 or j["packets"]["delivered"] <= 0:
        fail(f"{where}: nothing simulated: {j['sim']} {j['packets']}")


def run_report(ndrsim, outdir, args):
    shutil.rmtree(outdir, ignore_errors=True)
    rc, out, err = run(ndrsim, args + ["--out", outdir])
    if rc != 0:
        fail(f"ndrsim {' '.join(args)} exited {rc}: {err.strip()}")
    path = os.path.join(outdir, "report.json")
    if not os.path.isfile(path):
        fail(f"{path} was not written")
    with open(path) as f:
        return json.load(f)


def strip_wall(j):
    if isinstance(j, dict):
        return {k: strip_wall(v) for k, v in j.items() if k not in WALL_FIELDS}
    if isinstance(j, list):
        return [strip_wall(v) for v in j]
    return j


def first_diff(a, b, path="$"):
    if type(a) is not type(b):
        return path
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{path}.{k}"
            d = first_diff(a[k], b[k], f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}[len]"
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_diff(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    return None if a == b else path


def expect_error(ndrsim, regexes, args):
    rc, out, err = run(ndrsim, args)
    text = (out + err).strip()
    lines = [l for l in text.splitlines() if l.strip()]
    if rc == 0:
        fail(f"ndrsim {' '.join(args)} succeeded; expected an error")
    if len(lines) != 1:
        fail(f"expected exactly one line of output, got {len(lines)}:\n{text}")
    for r in regexes:
        if not re.search(r, lines[0]):
            fail(f"error line does not match /{r}/: {lines[0]}")
    print(f"ok: exit {rc}: {lines[0]}")


def number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def check_ci(ndrsim, outdir, args):
    """The _ci95 fields and the warm-up verdict are there; the latency half-width shrinks about
    as 1/sqrt(window) (16x the window: ~1/4); a warm-up of 0 at load 0.9 is flagged."""
    j = run_report(ndrsim, outdir, args + ["--cycles", "20000"])
    hw = get(j, "latency_ns.mean_ci95")[0]
    acc = get(j, "traffic.accepted_load_ci95")[0]
    if not number(hw) or not hw > 0 or not number(acc) or not acc > 0:
        fail(f"latency_ns.mean_ci95 {hw!r} / traffic.accepted_load_ci95 {acc!r} not positive")
    if not hw < j["latency_ns"]["mean"]:
        fail(f"half-width {hw} not below the mean {j['latency_ns']['mean']}")
    for v in j["vls"]:
        if "share_ci95" not in v:
            fail(f"vls[{v['vl']}] lacks share_ci95")
    w = j.get("warmup_check", {})
    if w.get("verdict") not in ("ok", "too_short", "undetermined"):
        fail(f"warmup_check.verdict missing or unknown: {w!r}")
    long = run_report(ndrsim, outdir + "_long", args + ["--cycles", "320000"])
    ratio = long["latency_ns"]["mean_ci95"] / hw
    if not 0.1 < ratio < 0.5:
        fail(f"16x the window: half-width ratio {ratio:.3f}, expected about 1/4")
    shutil.rmtree(outdir + "_w0", ignore_errors=True)
    hot = list(args)
    hot[hot.index("--load") + 1] = "0.9"
    rc, out, err = run(ndrsim, hot + ["--cycles", "20000", "--warmup", "0", "--out", outdir + "_w0"])
    if rc != 0:
        fail(f"warm-up 0 run exited {rc}: {err.strip()}")
    with open(os.path.join(outdir + "_w0", "report.json")) as f:
        w0 = json.load(f)["warmup_check"]
    if w0["verdict"] != "too_short" or "warm-up of 0 cycles looks too short" not in err:
        fail(f"warm-up 0 at load 0.9 not flagged: {w0!r}, stderr {err.strip()!r}")
    print(f"ok: mean {j['latency_ns']['mean']:.1f} +/- {hw:.2f} ns, verdict {w['verdict']}; "
          f"16x window ratio {ratio:.2f}; warm-up 0 flagged at cycle {w0['truncation_cycle']}")


def check_precision(ndrsim, outdir, target, args):
    """--precision P: either both relative half-widths are below P, or the window reached its
    cap (64x) and the report and stdout say so."""
    shutil.rmtree(outdir, ignore_errors=True)
    rc, out, err = run(ndrsim, args + ["--precision", str(target), "--out", outdir])
    if rc != 0:
        fail(f"exit {rc}: {err.strip()}")
    with open(os.path.join(outdir, "report.json")) as f:
        j = json.load(f)
    p = j["sim"]["precision"]
    lat = j["latency_ns"]["mean_ci95"] / j["latency_ns"]["mean"]
    acc = j["traffic"]["accepted_load_ci95"] / j["traffic"]["accepted_load"]
    wins = p["windows_cycles"]
    if wins[-1] != j["sim"]["window_cycles"] or p["cap_cycles"] != 64 * wins[0]:
        fail(f"windows {wins}, cap {p['cap_cycles']}, window {j['sim']['window_cycles']}")
    if any(b != 2 * a for a, b in zip(wins, wins[1:])):
        fail(f"windows do not double: {wins}")
    if p["reached"]:
        if not (lat < target and acc < target):
            fail(f"reached claimed but relative half-widths {lat:.4g}, {acc:.4g} >= {target}")
        if len(wins) > 1 and (p["latency_mean_rel_ci95"] is None):
            fail("no relative half-width recorded")
        if "below" not in out:
            fail(f"stdout does not report the precision reached:\n{out}")
    else:
        if wins[-1] != p["cap_cycles"] or (lat < target and acc < target):
            fail(f"not reached, yet window {wins[-1]} (cap {p['cap_cycles']}), {lat:.4g}, {acc:.4g}")
        if "NOT reached" not in out:
            fail(f"stdout does not report the cap:\n{out}")
    print(f"ok: target {target}: reached={p['reached']} after windows {wins}: "
          f"latency +/- {100 * lat:.3f} %, accepted +/- {100 * acc:.3f} %")


def main(argv):
    if len(argv) < 2:
        fail(__doc__)
    mode, rest = argv[0], argv[1:]
    head, args = split_args(rest)
    ndrsim = head[0]
    if mode == "report":
        j = run_report(ndrsim, head[1], args)
        check_point(j, "report.json")
    elif mode == "points":
        j = run_report(ndrsim, head[1], args)
        n = int(head[2])
        if "config" not in j:
            fail("report.json lacks config")
        pts = j.get("points")
        if not isinstance(pts, list) or len(pts) != n:
            fail(f"expected {n} entries in points[], got {None if pts is None else len(pts)}")
        for i, p in enumerate(pts):
            q = dict(p, config=j["config"])
            check_point(q, f"points[{i}]")
        loads = [p["traffic"]["configured_load"] for p in pts]
        print(f"ok: configured loads {loads}")
    elif mode == "ok":
        rc, out, err = run(ndrsim, args)
        if rc != 0:
            fail(f"exit {rc}: {err.strip()}")
        if not re.search(head[1], out, re.MULTILINE):
            fail(f"stdout does not match /{head[1]}/:\n{out[:2000]}")
    elif mode == "determinism":
        base = head[1]
        a = run_report(ndrsim, base + "_a", args + ["--seed", "7"])
        b = run_report(ndrsim, base + "_b", args + ["--seed", "7"])
        c = run_report(ndrsim, base + "_c", args + ["--seed", "8"])
        d = first_diff(strip_wall(a), strip_wall(b))
        if d:
            fail(f"same seed, reports differ at {d}")
        sa, sc = strip_wall(a), strip_wall(c)
        sa["config"].pop("sim.seed", None)
        sc["config"].pop("sim.seed", None)
        for j in (sa, sc):
            j.get("sim", {}).pop("seed", None)
            for p in j.get("points", []):
                p.get("sim", {}).pop("seed", None)
        if first_diff(sa["packets"], sc["packets"]) is None and \
                first_diff(sa["latency_ns"], sc["latency_ns"]) is None:
            fail("a different seed gave identical packets and latency")
        print("ok: same seed identical (except wall-clock fields), other seed differs")
    elif mode == "bench":
        outdir, cycles, repeat = head[1], int(head[2]), int(head[3])
        shutil.rmtree(outdir, ignore_errors=True)
        rc, out, err = run(ndrsim, args + ["--out", outdir])
        if rc != 0:
            fail(f"ndrsim {' '.join(args)} exited {rc}: {err.strip()}")
        with open(os.path.join(outdir, "bench.json")) as f:
            rows = json.load(f)
        if len(rows) != 5:
            fail(f"expected 5 scenarios, got {len(rows)}")
        for row in rows:
            name, runs = row["scenario"], row["runs"]
            if len(runs) != repeat:
                fail(f"{name}: expected {repeat} runs, got {len(runs)}")
            for r in runs:
                # warm-up cycles/10 + measured cycles - cycles/10 + the cycle closing the window
                if r["cycles"] != cycles + 1:
                    fail(f"{name}: {r['cycles']} cycles simulated, expected {cycles + 1}")
                if first_diff(strip_wall(r), strip_wall(runs[0])):
                    fail(f"{name}: runs of the same scenario differ in simulated results")
            walls = sorted(r["wall_s"] for r in runs)
            if row["sim"]["wall_s"] != walls[(len(walls) - 1) // 2]:
                fail(f"{name}: shown wall {row['sim']['wall_s']} s is not the median of {walls}")
            if name not in out:
                fail(f"{name} missing from the table:\n{out}")
        print(f"ok: 5 scenarios x {repeat} runs, medians shown")
    elif mode == "ci":
        check_ci(ndrsim, head[1], args)
    elif mode == "precision":
        check_precision(ndrsim, head[1], float(head[2]), args)
    elif mode == "error":
        expect_error(ndrsim, head[1:], args)
    elif mode == "error-yaml":
        path, line, text = head[1], head[2], head[3]
        with open(path, "w") as f:
            f.write(text.replace("\\n", "\n"))
        regexes = [re.escape(f"{path}:{line}:")] + head[4:]
        expect_error(ndrsim, regexes, args + ["--config", path])
    else:
        fail(f"unknown mode {mode}")


if __name__ == "__main__":
    main(sys.argv[1:])
