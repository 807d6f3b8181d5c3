#!/usr/bin/python3
"""The scale suite of issue #19 item 4: whole-process cost of ndrsim at cluster scale.

  /usr/bin/python3 testbench/perf/scale_suite.py NDRSIM OUT_DIR [--gpus 64,256,1024] [--sizes 8,1MiB,1GiB]
                 [--algos ring,sharp] [--levels cycle,tlm] [--limit SECONDS] [--no-plot]

For every point (algorithm, GPUs, size, level) it generates one allreduce with
`ndrsim gen collective --nodes GPUS/8 --gpus-per-node 8` and replays it with
`ndrsim run --preset dgx-h100 --set host.stack=nccl --level L --out DIR` (the output is part of
the cost, as a user pays it). `sharp` is NCCL's CollNet Direct over the rails' SHARP trees
(`--algo collnet_direct --set nccl.collnet=true`). Each run is one process under
`/usr/bin/time` and `timeout LIMIT` (default 900 s); a run that exceeds it, or exits non-zero,
is recorded with its status and no figures. Beyond 2,048 GPUs the rail fat tree gets a third
level (`--set fabric.levels=3`): two levels of 64-port switches hold 2,048.

Written per point (OUT_DIR/scale.csv and scale.json): wall time, user CPU, peak RSS of the
whole process, the simulated time, the simulation's own wall time (report.json sim.wall_s;
the rest of the process is construction and output: `outside_sim_share`), the model's event
counts (transfers, packets, TLM transactions, SHARP packets, from `ndrsim run --which-level`,
which also says which level `sim.level=auto` would run: `auto_level`) and those per wall
second. With matplotlib, OUT_DIR/scale.png plots wall time and
peak RSS against GPUs, log-log, one line per (algorithm, size, level).

Wall times are whatever the machine gives: run it on an idle machine, one point at a time (the
suite never runs two at once). This is a developer tool; CI does not run it.
"""
import argparse
import csv
import json
import os
import re
import subprocess
import sys
import time

SIZES = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}


def parse_size(text):
    m = re.fullmatch(r"(\d+)(B|KiB|MiB|GiB)?", text)
    if not m:
        sys.exit(f"scale_suite: --sizes: '{text}' is not a size (e.g. 8, 1MiB, 1GiB)")
    return int(m.group(1)) * SIZES[m.group(2) or "B"]


def csv_list(text, what, check):
    items = [t.strip() for t in text.split(",") if t.strip()]
    for t in items:
        if not check(t):
            sys.exit(f"scale_suite: {what}: '{t}' is not allowed")
    return items


def time_v(stderr):
    """Wall seconds, user seconds and peak RSS (KiB) from /usr/bin/time -v."""
    wall = user = rss = None
    for line in stderr.splitlines():
        line = line.strip()
        if line.startswith("User time (seconds):"):
            user = float(line.split(":")[1])
        elif line.startswith("Maximum resident set size (kbytes):"):
            rss = int(line.split(":")[1])
        elif line.startswith("Elapsed (wall clock) time"):
            parts = line.rsplit(" ", 1)[1].split(":")
            wall = sum(float(p) * 60 ** i for i, p in enumerate(reversed(parts)))
    return wall, user, rss


def run_point(ndrsim, out, algo, gpus, size, level, limit):
    name = f"{algo}_{gpus}gpu_{size}B_{level}"
    d = os.path.join(out, name)
    os.makedirs(d, exist_ok=True)
    trace = os.path.join(d, "trace.jsonl")
    gen_algo = "collnet_direct" if algo == "sharp" else "ring"
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    subprocess.run([ndrsim, "gen", "collective", "--op", "allreduce", "--nodes",
                    str(gpus // 8), "--gpus-per-node", "8", "--bytes", str(size), "--algo",
                    gen_algo, "-o", trace], check=True, capture_output=True, env=env)
    base = [ndrsim, "run", trace, "--preset", "dgx-h100", "--set", "host.stack=nccl"]
    if algo == "sharp":
        base += ["--set", "nccl.collnet=true"]
    if gpus > 2048:
        # The preset's 2-level rail fat tree of 64-port switches holds 2,048 GPUs (64 rail
        # leaves of 32 hosts); beyond, a third level.
        base += ["--set", "fabric.levels=3"]
    # The model's own counts of the run and what sim.level=auto would pick (no simulation).
    which = json.loads(subprocess.run(base + ["--which-level"], check=True, capture_output=True,
                                      text=True, env=env).stdout)
    counts = which.get("counts", {})
    cmd = ["timeout", str(limit), "/usr/bin/time", "-v"] + base + [
        "--level", level, "--out", os.path.join(d, "out"), "-q"]
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    row = {"algo": algo, "gpus": gpus, "bytes": size, "level": level,
           "auto_level": which.get("level"), "command": " ".join(cmd[4:])}
    if p.returncode == 124:
        row["status"] = f"timeout after {limit} s"
        return row
    if p.returncode != 0:
        row["status"] = f"exit {p.returncode}: " + (p.stderr.strip().splitlines() or [""])[-1]
        return row
    wall, user, rss = time_v(p.stderr)
    rep = json.load(open(os.path.join(d, "out", "report.json")))
    sim = rep["sim"]
    row.update({
        "status": "ok",
        "wall_s": wall if wall is not None else time.monotonic() - t0,
        "user_s": user,
        "peak_rss_MiB": rss / 1024 if rss else None,
        "sim_time_us": sim["sim_time_ns"] / 1e3,
        "sim_wall_s": sim["wall_s"],
        "collective_us": rep["collectives"][0]["time_ns"] / 1e3,
        "algo_run": rep["collectives"][0].get("algo"),
    })
    row["outside_sim_share"] = max(0.0, 1 - row["sim_wall_s"] / row["wall_s"]) if row["wall_s"] else None
    for k in ("transfers", "packets", "tlm_transactions", "sharp_packets"):
        if k in counts:
            row[k] = counts[k]
            row[k + "_per_wall_s"] = counts[k] / row["wall_s"] if row["wall_s"] else None
    return row


def plot(rows, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("scale_suite: no matplotlib, no plot")
        return
    fig, (a, b) = plt.subplots(1, 2, figsize=(12, 4.5))
    series = {}
    for r in rows:
        if r["status"] == "ok":
            series.setdefault((r["algo"], r["bytes"], r["level"]), []).append(r)
    for (algo, size, level), rs in sorted(series.items()):
        rs.sort(key=lambda r: r["gpus"])
        x = [r["gpus"] for r in rs]
        label = f"{algo} {size} B {level}"
        style = "-o" if level == "cycle" else "--s"
        a.plot(x, [r["wall_s"] for r in rs], style, label=label)
        b.plot(x, [r["peak_rss_MiB"] for r in rs], style, label=label)
    for ax, what in ((a, "wall time (s)"), (b, "peak RSS (MiB)")):
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("GPUs (dgx-h100 nodes x 8)")
        ax.set_ylabel(what)
        ax.grid(True, which="both", alpha=0.3)
    b.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1))
    fig.suptitle("ndrsim allreduce, whole process with --out")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print(f"plot: {path}")


def main():
    ap = argparse.ArgumentParser(description="ndrsim scale suite (issue #19 item 4)")
    ap.add_argument("ndrsim")
    ap.add_argument("out")
    ap.add_argument("--gpus", default="64,256,1024")
    ap.add_argument("--sizes", default="8,1MiB,1GiB")
    ap.add_argument("--algos", default="ring,sharp")
    ap.add_argument("--levels", default="cycle,tlm")
    ap.add_argument("--limit", type=int, default=900)
    ap.add_argument("--no-plot", action="store_true")
    a = ap.parse_args()
    gpus = [int(g) for g in csv_list(a.gpus, "--gpus",
                                      lambda t: t.isdigit() and int(t) >= 16 and int(t) % 8 == 0)]
    sizes = [parse_size(s) for s in csv_list(a.sizes, "--sizes", lambda t: True)]
    algos = csv_list(a.algos, "--algos", lambda t: t in ("ring", "sharp"))
    levels = csv_list(a.levels, "--levels", lambda t: t in ("cycle", "tlm"))
    if a.limit < 1:
        sys.exit("scale_suite: --limit must be >= 1")
    os.makedirs(a.out, exist_ok=True)
    rows = []
    for algo in algos:
        for size in sizes:
            for level in levels:
                for g in gpus:
                    r = run_point(a.ndrsim, a.out, algo, g, size, level, a.limit)
                    rows.append(r)
                    if r["status"] == "ok":
                        print(f"{algo:5} {g:6} GPUs {size:>11} B {level:5}: wall {r['wall_s']:8.2f} s"
                              f"  user {r['user_s']:8.2f} s  RSS {r['peak_rss_MiB']:8.1f} MiB"
                              f"  outside sim {100 * r['outside_sim_share']:5.1f} %"
                              f"  collective {r['collective_us']:.1f} us ({r['algo_run']})",
                              flush=True)
                    else:
                        print(f"{algo:5} {g:6} GPUs {size:>11} B {level:5}: {r['status']}",
                              flush=True)
    keys = sorted({k for r in rows for k in r})
    with open(os.path.join(a.out, "scale.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys)
        w.writeheader()
        w.writerows(rows)
    with open(os.path.join(a.out, "scale.json"), "w") as f:
        json.dump(rows, f, indent=1)
    print(f"results: {a.out}/scale.csv, {a.out}/scale.json")
    if not a.no_plot:
        plot(rows, os.path.join(a.out, "scale.png"))


if __name__ == "__main__":
    main()
