#!/usr/bin/python3
"""ndrsim against BookSim2 at equal simulated cycles and delivered bytes (issue #19 item 4).

  python3 testbench/perf/booksim_compare.py NDRSIM BOOKSIM_BINARY OUT_DIR [--reps N] [--only NAME,...]
                                            [--switch-scale F] [--ft-cycles C]

BOOKSIM_BINARY is a stock build of https://github.com/booksim/booksim2 (src/Makefile, -O3);
nothing of BookSim is part of this repository. The script writes the BookSim config files it
needs (and the ndrsim traces) into OUT_DIR, runs every pair `--reps` times (default 3), the two
simulators alternating (ndrsim, BookSim, ndrsim, ...), each run one whole process under
`/usr/bin/time -v`, and writes OUT_DIR/booksim.csv (every run), OUT_DIR/booksim.md (medians
and ratios) and the outputs of every run under OUT_DIR/runs/.

Units. One BookSim flit = one ndrsim 64-byte beat (switch.datapath_width); one BookSim cycle =
one ndrsim core cycle (1.28 ns at NDR). Loads are flits (beats) per cycle per source:
BookSim `injection_rate_uses_flits = 1`, which is how `ndrsim traffic --load` counts (a 36 B
payload is 62 B on the wire = one beat; 4096 B is 4122 B = 65 beats). "Delivered bytes" =
delivered flits or beats x 64 B in both.

The pairs:

- single switch, 64 ports, uniform, 1-beat (`--size 36`, BookSim `packet_size = 1`) and
  65-beat packets (`--size 4096`, `packet_size = 65`), load 0.3 and near saturation, FIFO and
  VOQ. BookSim: `topology = fly; k = 64; n = 1` is one 64x64 input-queued router (`router =
  iq`), iSLIP with 2 iterations (ndrsim's switch.allocator islip, switch.islip_iterations 2),
  a 512-flit input buffer per port (ndrsim: 32 KiB per VL = 512 blocks; `buffer_policy =
  shared; buf_size = 512`), `hold_switch_for_packet = 1` (ndrsim moves a packet across the
  crossbar as a whole), `speculative = 1; routing_delay = 0` (without them BookSim's VC
  pipeline limited a 1-VC router to 0.25 accepted at offered 0.3, measured). FIFO = `num_vcs = 1`
  (one queue per input) against `--queueing fifo`; VOQ = `num_vcs = 64; noq = 1` (BookSim's
  next-hop output queueing: the VCs of an input are split among the 64 outputs, one queue per
  output = a virtual output queue) against `--queueing voq`. "Near saturation" is a load below
  the saturation throughput of both models (measured: FIFO about 0.59 in both, so 0.55; VOQ
  about 0.86-0.95, so 0.80), so both deliver the offered bytes.
  Equal span: ndrsim `--warmup W --cycles M --set sim.drain_cycles=0` (W + M cycles); BookSim
  `warmup_periods = 1; sample_period = W; max_samples = 1 + M / W` with M / W <= 3 (so its
  convergence test cannot end the run early) and `latency_thres = -1` (no abort): W + M
  cycles plus its drain of the packets still in flight (reported: the "cycles" columns).
  Equal bytes: the flits / beats delivered in the M-cycle measurement window (BookSim's overall
  accepted flit rate x 64 nodes x M; ndrsim report.json vls[].delivered_beats); they differ
  only by the two random streams.

- fat trees of 512 and 1,024 hosts, uniform at 0.3 of line rate. ndrsim: `ndrsim gen
  background --pattern uniform --load 0.3 --bytes 64KiB --duration D` replayed by `ndrsim run
  --topology fat_tree --level cycle` (two-level fat tree of 64-port switches; RDMA WRITEs of
  16 MTU packets each, with ACKs; the load issue #19 names). BookSim: `topology = fattree`,
  1,024 hosts = k 32, n 2 (32 leaves and 32 tops of radix 64: the same two levels of 64-port
  switches), 512 hosts = k 8, n 3 (BookSim's fat tree has k^n terminals: no two-level tree
  of 512; this one has radix-16 switches and three levels, so 5 switch hops instead of 3),
  routing `nca` (random up-port), 65-flit packets (one 4 KiB MTU packet) at 0.3 x 65 x 64 /
  4096), VOQ-equivalent as above (`num_vcs = 2k; noq = 1`). The ndrsim run comes first (it
  is deterministic) and sets BookSim's run: equal span = BookSim injects for 4 sample periods
  (a warm-up period and 3 samples, sim_type throughput) of ndrsim's simulated cycles / 4, then
  drains with injection stopped; equal bytes = its injection rate is the trace's data beats
  (16 packets x 65 beats per message) / (hosts x that span), i.e. 0.3 x 65 x 64 / 4096 x D /
  span. The time profile differs (ndrsim's messages are offered in the first D = --ft-cycles
  cycles, default 24,000, the run ends when the last completes; BookSim offers Bernoulli over
  the whole span), and the load averaged over the span is below 0.3 by the tail's share.
  Delivered bytes: ndrsim (data packets x 65 + ACKs) beats; BookSim flits accepted in the
  four periods (the drain's few flits are not in its statistics).

Figures per pair (medians over the reps): user CPU, wall, peak RSS of each process, simulated
cycles, delivered bytes, and the speed ratio ndrsim / BookSim in simulated cycles per user-CPU
second and in delivered bytes per user-CPU second. User CPU is the figure to compare on a
shared machine; the 1-minute load average is recorded with every run. This is a developer
tool; CI does not run it.
"""
import argparse
import csv
import json
import os
import re
import statistics
import subprocess
import sys

BEAT = 64  # bytes per ndrsim beat = per BookSim flit

SWITCH_BASE = {
    "topology": "fly", "k": 64, "n": 1, "routing_function": "dest_tag", "router": "iq",
    "buffer_policy": "shared", "buf_size": 512, "speculative": 1, "routing_delay": 0,
    "hold_switch_for_packet": 1, "vc_allocator": "islip", "sw_allocator": "islip",
    "alloc_iters": 2, "traffic": "uniform", "injection_process": "bernoulli",
    "injection_rate_uses_flits": 1, "sim_type": "latency", "warmup_periods": 1,
    "latency_thres": -1.0, "seed": 1,
}
QUEUEING = {"fifo": {"num_vcs": 1}, "voq": {"num_vcs": 64, "noq": 1}}
SIZES = {1: 36, 65: 4096}  # flits per packet -> ndrsim payload bytes
SW_WARMUP, SW_WINDOW = 10000, 30000  # x --switch-scale (ndrsim's user CPU is counted in 10 ms)

FT_SPAN = 24000  # default --ft-cycles: the trace offers traffic for FT_SPAN x 1.28 ns
FT_SHAPES = {512: (8, 3), 1024: (32, 2)}  # hosts -> BookSim fattree (k, n)


def switch_pairs(scale):
    pairs = []
    for queueing, near in (("fifo", 0.55), ("voq", 0.80)):
        for flits in (1, 65):
            for load in (0.3, near):
                pairs.append({"name": f"switch_{queueing}_{flits}flit_{load}", "kind": "switch",
                              "queueing": queueing, "flits": flits, "load": load,
                              "scale": scale})
    return pairs


def fat_tree_pairs(span):
    return [{"name": f"fattree_{h}", "kind": "fattree", "hosts": h, "load": 0.3,
             "span": span} for h in FT_SHAPES]


def switch_span(pair):
    """Warm-up and window cycles of a single-switch pair."""
    return SW_WARMUP * pair["scale"], SW_WINDOW * pair["scale"]


def booksim_config(pair, ndrsim_figures=None):
    """BookSim's config of a pair; a fat tree's follows its ndrsim run (span and bytes)."""
    if pair["kind"] == "switch":
        cfg = dict(SWITCH_BASE, **QUEUEING[pair["queueing"]])
        warmup, window = switch_span(pair)
        cfg.update(packet_size=pair["flits"], injection_rate=pair["load"],
                   sample_period=warmup, max_samples=1 + window // warmup)
        return cfg
    k, n = FT_SHAPES[pair["hosts"]]
    period = round(ndrsim_figures["cycles"] / 4)
    rate = ndrsim_figures["trace_beats"] / (pair["hosts"] * 4 * period)
    return dict(SWITCH_BASE, topology="fattree", k=k, n=n, routing_function="nca",
                num_vcs=2 * k, noq=1, packet_size=65, sim_type="throughput",
                injection_rate=f"{rate:.6f}", sample_period=period, max_samples=4)


def write_booksim_config(cfg, path):
    with open(path, "w") as f:
        for key, value in cfg.items():
            f.write(f"{key} = {value};\n")


def ndrsim_command(ndrsim, pair, out_dir, trace):
    if pair["kind"] == "switch":
        warmup, window = switch_span(pair)
        return [ndrsim, "traffic", "--ports", "64", "--pattern", "uniform",
                "--queueing", pair["queueing"], "--allocator", "islip",
                "--load", str(pair["load"]), "--size", str(SIZES[pair["flits"]]),
                "--warmup", str(warmup), "--cycles", str(window),
                "--set", "sim.drain_cycles=0", "--seed", "1", "-j", "1", "-q", "--out", out_dir]
    return [ndrsim, "run", trace, "--topology", "fat_tree", "--level", "cycle", "-q",
            "--out", out_dir]


def make_trace(ndrsim, pair, work):
    """The open-loop uniform trace of a fat-tree pair (none for the single switch)."""
    if pair["kind"] != "fattree":
        return None
    path = os.path.join(work, f"{pair['name']}.jsonl")
    ns = pair["span"] * 1.28
    subprocess.run([ndrsim, "gen", "background", "--pattern", "uniform", "--load",
                    str(pair["load"]), "--ranks", str(pair["hosts"]), "--bytes", "64KiB",
                    "--duration", f"{ns:g}ns", "--seed", "1", "-o", path],
                   check=True, stdout=subprocess.DEVNULL, env=child_env())
    return path


def child_env():
    env = dict(os.environ)
    env["SYSTEMC_DISABLE_COPYRIGHT_MESSAGE"] = "1"
    return env


def time_v(stderr):
    """Wall seconds, user seconds and peak RSS (KiB) from /usr/bin/time -v."""
    out = {}
    for line in stderr.splitlines():
        line = line.strip()
        if line.startswith("User time (seconds):"):
            out["user_s"] = float(line.split(":")[1])
        elif line.startswith("Elapsed (wall clock) time"):
            parts = line.rsplit(": ", 1)[1].split(":")
            out["wall_s"] = sum(float(p) * 60 ** i for i, p in enumerate(reversed(parts)))
        elif line.startswith("Maximum resident set size"):
            out["rss_kib"] = int(line.split(":")[1])
    return out


def timed(cmd, cwd, stdout_path):
    with open(stdout_path, "w") as out:
        proc = subprocess.run(["/usr/bin/time", "-v"] + cmd, cwd=cwd, stdout=out,
                              stderr=subprocess.PIPE, text=True, env=child_env())
    return proc.returncode, time_v(proc.stderr), proc.stderr


def load_average():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def parse_ndrsim(pair, out_dir):
    with open(os.path.join(out_dir, "report.json")) as f:
        rep = json.load(f)
    cycles = rep["sim"]["cycles"]
    if pair["kind"] == "switch":
        beats = sum(v["delivered_beats"] for v in rep["vls"])
        return {"cycles": cycles, "bytes": beats * BEAT, "fabric": "64-port switch"}
    hca = rep["hca"]
    if hca["retransmitted_packets"] or hca["messages_delivered"] != hca["messages_posted"]:
        sys.exit(f"booksim_compare: {pair['name']}: ndrsim run lost or retransmitted packets")
    data_beats = hca["payload_bytes_delivered"] // 4096 * 65
    beats = data_beats + hca["acks_sent"]
    return {"cycles": cycles, "bytes": beats * BEAT, "fabric": rep["fabric"]["topology"],
            "trace_beats": data_beats}


def parse_booksim(pair, cfg, stdout_path):
    text = open(stdout_path).read()
    taken = re.search(r"^Time taken is (\d+) cycles", text, re.M)
    if not taken:
        sys.exit(f"booksim_compare: {pair['name']}: BookSim did not finish ({stdout_path})")
    nodes = cfg["k"] ** cfg["n"]
    period = cfg["sample_period"]
    window = period * (cfg["max_samples"] - 1)
    overall = float(re.search(r"^Accepted flit rate average = ([0-9.eE+-]+)", text, re.M).group(1))
    flits = overall * nodes * window
    if pair["kind"] == "fattree":  # add the warm-up period: the whole injection span
        first = float(re.search(r"^Accepted flit rate average= ([0-9.eE+-]+)", text, re.M).group(1))
        flits += first * nodes * period
    return {"cycles": int(taken.group(1)), "bytes": round(flits) * BEAT,
            "fabric": f"{cfg['topology']} k={cfg['k']} n={cfg['n']}"}


def run_pair(pair, args, work):
    cfg = booksim_config(pair) if pair["kind"] == "switch" else None
    cfg_path = os.path.join(work, f"{pair['name']}.cfg")
    trace = make_trace(args.ndrsim, pair, work)
    rows = []
    for rep in range(args.reps):
        for sim in ("ndrsim", "booksim"):
            run_dir = os.path.join(work, "runs", f"{pair['name']}_{sim}_{rep}")
            os.makedirs(run_dir, exist_ok=True)
            stdout_path = os.path.join(run_dir, "stdout.txt")
            load = load_average()
            if sim == "ndrsim":
                cmd = ndrsim_command(args.ndrsim, pair, run_dir, trace)
            else:
                write_booksim_config(cfg, cfg_path)
                cmd = [args.booksim, cfg_path]
            rc, times, stderr = timed(cmd, run_dir, stdout_path)
            # BookSim's main() exits with -1 (255) after a successful run.
            if sim == "ndrsim" and rc != 0:
                sys.exit(f"booksim_compare: {' '.join(cmd)} failed:\n{stderr[-2000:]}")
            if sim == "ndrsim":
                figures = parse_ndrsim(pair, run_dir)
                if cfg is None:
                    cfg = booksim_config(pair, figures)
            else:
                figures = parse_booksim(pair, cfg, stdout_path)
            row = {"pair": pair["name"], "sim": sim, "rep": rep, "load_avg_1m": load,
                   **times, **figures, "command": " ".join(cmd)}
            rows.append(row)
            print(f"{pair['name']:28} {sim:8} rep {rep}: user {row['user_s']:.2f} s, "
                  f"wall {row['wall_s']:.2f} s, {row['rss_kib'] / 1024:.0f} MiB, "
                  f"{row['cycles']} cycles, {row['bytes']} B, load {load:.2f}", flush=True)
    return rows


def median_of(rows, sim, key):
    return statistics.median(r[key] for r in rows if r["sim"] == sim)


def summary(pair_rows):
    n = {k: median_of(pair_rows, "ndrsim", k) for k in ("user_s", "wall_s", "rss_kib", "cycles", "bytes")}
    b = {k: median_of(pair_rows, "booksim", k) for k in ("user_s", "wall_s", "rss_kib", "cycles", "bytes")}
    cyc_ratio = (n["cycles"] / n["user_s"]) / (b["cycles"] / b["user_s"])
    byte_ratio = (n["bytes"] / n["user_s"]) / (b["bytes"] / b["user_s"])
    loads = [r["load_avg_1m"] for r in pair_rows]
    return n, b, cyc_ratio, byte_ratio, (min(loads), max(loads))


def write_csv(rows, path):
    keys = ["pair", "sim", "rep", "user_s", "wall_s", "rss_kib", "cycles", "bytes",
            "fabric", "load_avg_1m", "command"]
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)


def write_markdown(pairs, rows, path):
    lines = [
        "| Pair | Cycles ndrsim / BookSim | Delivered MB ndrsim / BookSim | User CPU s ndrsim / BookSim "
        "| Wall s ndrsim / BookSim | Peak RSS MiB ndrsim / BookSim | Speed-up, cycles per CPU s "
        "| Speed-up, bytes per CPU s | Load avg (1 min) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for pair in pairs:
        pr = [r for r in rows if r["pair"] == pair["name"]]
        n, b, cr, br, (lo, hi) = summary(pr)
        lines.append(
            f"| {pair['name']} | {n['cycles']:,.0f} / {b['cycles']:,.0f} "
            f"| {n['bytes'] / 1e6:.2f} / {b['bytes'] / 1e6:.2f} "
            f"| {n['user_s']:.2f} / {b['user_s']:.2f} | {n['wall_s']:.2f} / {b['wall_s']:.2f} "
            f"| {n['rss_kib'] / 1024:.0f} / {b['rss_kib'] / 1024:.0f} | {cr:.1f}x | {br:.1f}x "
            f"| {lo:.1f}-{hi:.1f} |")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ndrsim")
    ap.add_argument("booksim")
    ap.add_argument("out_dir")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--only", default="", help="comma-separated pair names (default: all)")
    ap.add_argument("--switch-scale", type=int, default=1,
                    help="multiply the single-switch warm-up and window (default 1: 10,000 + 30,000 cycles)")
    ap.add_argument("--ft-cycles", type=int, default=FT_SPAN,
                    help=f"fat trees: cycles the ndrsim trace offers traffic for (default {FT_SPAN})")
    args = ap.parse_args()
    args.ndrsim = os.path.abspath(args.ndrsim)
    args.booksim = os.path.abspath(args.booksim)
    work = os.path.abspath(args.out_dir)
    os.makedirs(work, exist_ok=True)
    pairs = switch_pairs(args.switch_scale) + fat_tree_pairs(args.ft_cycles)
    if args.only:
        wanted = set(args.only.split(","))
        pairs = [p for p in pairs if p["name"] in wanted]
    rows = []
    for pair in pairs:
        rows += run_pair(pair, args, work)
        write_csv(rows, os.path.join(work, "booksim.csv"))
    print(write_markdown(pairs, rows, os.path.join(work, "booksim.md")))


if __name__ == "__main__":
    main()
