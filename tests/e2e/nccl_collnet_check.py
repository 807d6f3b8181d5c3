#!/usr/bin/env python3
"""End-to-end checks of NCCL's hierarchical allreduces in `ndrsim run` (docs/architecture.md
"CollNet and NVLSTree"), on dgx-h100 nodes (8 GPUs, 8 HCAs, NVLink 450 GB/s x 0.824).

  nccl_collnet_check.py bytes NDRSIM DIR
      1 MiB fp32 allreduce on 2 nodes x 8 GPUs with algo collnet_direct, collnet_chain, nvls
      and nvls_tree (nccl.collnet=true): every GPU's NVLink bytes as counted by hand
      (collnet_*: (G-1)/G x S out and in in each of phases 1 and 3; nvls*: S + S/G out and in),
      the SHARP chunks (8 rails x S/8 / 4 KiB SAT chunks) and, for nvls_tree, the HCA payload of
      the rails' trees (2 nodes: each of the two trees moves half a block up and down: 2 S).
  nccl_collnet_check.py time NDRSIM DIR
      64 MiB collnet_direct on 2 nodes, pipelined in slices of 8 x collective.chunk (8 MiB):
      the time lies between the busiest resource's bound, max(2 x 7/8 S through one GPU's NVLink
      egress at its data rate, S/8 through one HCA at 50 GB/s), and that plus the pipeline's
      fill and drain (one slice's other phases: 7/8 x 8 MiB over NVLink and 1 MiB over the HCA)
      + 40 us (latencies, SHARP's tree and per-chunk costs).
  nccl_collnet_check.py pick NDRSIM DIR
      allreduce of 8 B, 1 MiB and 64 MiB on 4 nodes x 8 GPUs, host.stack nccl, algo auto,
      nccl.collnet true and false: report.json's tuner pick and estimate equal NCCL's cost
      model evaluated here (src/graph/tuning.cc, 5067397), and the collective ran that pick.
  nccl_collnet_check.py error NDRSIM DIR
      refusals (exit 2, one line naming the trace line): collnet_direct without nccl.collnet,
      collnet_chain on a RoCE fabric (no SHARP), nvls_tree without node.nvls, nvls_tree on one
      node, collnet_direct with one GPU per node.
"""
import json
import math
import os
import subprocess
import sys

S = 1 << 20


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def run(ndrsim, args, rc=0):
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    p = subprocess.run([ndrsim] + args, capture_output=True, text=True, env=env)
    if p.returncode != rc:
        fail(f"ndrsim {' '.join(args)}: exit {p.returncode}, {rc} expected\n{p.stderr}")
    return p


def gen(ndrsim, d, name, nodes, gpus, size, algo):
    trace = os.path.join(d, f"{name}.jsonl")
    run(ndrsim, ["gen", "collective", "--op", "allreduce", "--nodes", str(nodes),
                 "--gpus-per-node", str(gpus), "--bytes", size, "--algo", algo, "-o", trace])
    return trace


def report(ndrsim, d, name, trace, sets):
    out = os.path.join(d, f"o_{name}")
    args = ["run", trace, "--preset", "dgx-h100", "--out", out, "-q"]
    for s in sets:
        args += ["--set", s]
    run(ndrsim, args)
    return json.load(open(os.path.join(out, "report.json")))


def gpus_of(rep):
    for key in ("nodes", "node"):
        if key in rep and isinstance(rep[key], dict) and "gpus" in rep[key]:
            return rep[key]["gpus"]
    fail(f"no per-GPU NVLink counters in report.json (keys {sorted(rep)})")


def chunks_reduced(rep):
    return sum(lv["chunks_reduced"] for lv in rep.get("sharp", {}).get("levels", []))


def bytes_mode(ndrsim, d):
    g = 8
    want_nvl = {"collnet_direct": 2 * (g - 1) * S // g, "collnet_chain": 2 * (g - 1) * S // g,
                "nvls": S + S // g, "nvls_tree": S + S // g}
    for algo, nvl in want_nvl.items():
        trace = gen(ndrsim, d, algo, 2, g, "1MiB", algo)
        rep = report(ndrsim, d, algo, trace, ["nccl.collnet=true"])
        c = rep["collectives"][0]
        if c["algo"] != algo:
            fail(f"{algo}: ran {c['algo']} ({c.get('fallback')})")
        for gpu in gpus_of(rep):
            if gpu["nvlink_tx_bytes"] != nvl or gpu["nvlink_rx_bytes"] != nvl:
                fail(f"{algo}: GPU {gpu['node']}.{gpu['gpu']} NVLink tx {gpu['nvlink_tx_bytes']}"
                     f" rx {gpu['nvlink_rx_bytes']}, {nvl} expected")
        sharp = chunks_reduced(rep)
        if algo == "nvls_tree":
            if sharp != 0:
                fail(f"nvls_tree: {sharp} SHARP chunks, none expected")
            got = rep["hca"]["payload_bytes_delivered"]
            if got != 2 * S:
                fail(f"nvls_tree: {got} B delivered by the HCAs, {2 * S} expected")
        else:
            # 8 rails x (S/8 / 4 KiB): one leaf switch per rail reduces every chunk once.
            if sharp != g * (S // g // 4096):
                fail(f"{algo}: {sharp} SHARP chunks reduced, {g * (S // g // 4096)} expected")
        print(f"ok: {algo}: NVLink {nvl} B per GPU each way, SHARP chunks {sharp}")


def time_mode(ndrsim, d):
    s = 64 << 20
    trace = gen(ndrsim, d, "t64", 2, 8, "64MiB", "collnet_direct")
    rep = report(ndrsim, d, "t64", trace, ["nccl.collnet=true"])
    c = rep["collectives"][0]
    if c["algo"] != "collnet_direct":
        fail(f"ran {c['algo']}")
    nvl_Bps = 450e9 * 0.824
    slice_ = 8 << 20
    low = max(2 * (7 * s / 8) / nvl_Bps, (s / 8) / 50e9)
    t = c["time_ns"] * 1e-9
    high = low + (7 * slice_ / 8) / nvl_Bps + (slice_ / 8) / 50e9 + 40e-6
    if not low <= t <= high:
        fail(f"64 MiB collnet_direct: {t * 1e6:.1f} us outside [{low * 1e6:.1f}, "
             f"{high * 1e6:.1f}] us")
    print(f"ok: 64 MiB collnet_direct {t * 1e6:.1f} us in [{low * 1e6:.1f}, {high * 1e6:.1f}]")


# NCCL's cost model (src/graph/tuning.cc at 5067397), Hopper, Intel, allreduce, for N nodes x 8
# GPUs, 8 channels, NET 8 x 50 GB/s, NVLink 370.8 GB/s (450 x 0.824).
CORR = {"ll": [1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9,
               1.0, 1.0, 1.0, 1.0, 1.0],
        "ll128": [1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9,
                  .9, .9, .9, 1.0, 1.0, 1.0],
        "simple": [.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7,
                   .7, .8, .9, .9, .9]}


def nccl_table(nbytes, nnodes, collnet, ppn=8, nch=8, net=400.0, nvl=450 * 0.824):
    n = nnodes * ppn
    nsteps = 2 * (n - 1)
    i2 = 0 if nnodes == 1 else (1 if nnodes == 2 else 2)
    intra_bw = min(nvl, net)  # a ring's per-channel speed, the same inside and across nodes
    bus = intra_bw if nnodes <= 2 else net
    out = {}
    log2n = int(math.log2(nnodes))
    for p in ("ll", "ll128", "simple"):
        base = {"ll": 6.8, "ll128": 14.0, "simple": 8.4}[p]
        # tree
        b = min(bus * .92, nch * [38.7, 41.4, 36.0][i2])
        if p == "ll":
            b = min(b / 3.8, [141.0, 39.0, 20.4][i2] if nnodes > 1 else 141.0)
        if p == "ll128":
            b = min(b * 120 / 128, nch * [36.7, 36.7, 29.0][i2])
        b *= .5
        lat = base + 2 * ((ppn - 1) * {"ll": .6, "ll128": 1.25, "simple": 4.0}[p] +
                          log2n * {"ll": 5.0, "ll128": 8.5, "simple": 14.0}[p])
        ls = int(math.log2(nbytes >> 6)) if nbytes >= 64 else -1
        if 0 <= ls < 23:
            b *= CORR[p][ls]
        out[("tree", p)] = lat + nbytes / (1000 * b)
        # ring
        b = bus
        if p == "ll":
            b = min([141.0, 39.0, 20.4][i2], b * .5)
        if p == "ll128":
            b = min(b * .92, nch * 36.7)
        b *= n / nsteps
        rbase = {"ll": 6.6, "ll128": 14.0, "simple": 8.4}[p]
        intra = max({"ll": .6, "ll128": 1.9, "simple": 3.4}[p], 3.0 if p == "simple" else 1.0)
        inter_steps = 2 * (nnodes - 1)
        lat = rbase + (nsteps - inter_steps) * intra + inter_steps * {"ll": 2.7, "ll128": 4.0,
                                                                       "simple": 14.0}[p]
        if p == "simple" and nbytes // (nch * n) >= 64:
            lat *= 1.4
        out[("ring", p)] = lat + nbytes / (1000 * b)
    # NVLSTree (and NVLS with CollNet), Simple
    nvls_intra = nvl * .85 * (nch - 1) / nch * 2
    b = min(nvls_intra, net * (2 if nnodes <= 2 else 1), nch * [0.0, 57.7, 45.5][i2]) * n / nsteps
    out[("nvls_tree", "simple")] = 25 + 2 * log2n * 20.9 + nbytes / (1000 * b)
    if collnet:
        b = min(nvls_intra, net) * n / nsteps
        out[("nvls", "simple")] = 25 + 18 + nbytes / (1000 * b)
        out[("collnet_direct", "simple")] = (2 * (3.7 + (ppn - 1) * .4) + 31 +
                                             nbytes / (1000 * nvl * .85 * .5))
        out[("collnet_chain", "simple")] = 2 * (ppn - 1) * 2.8 + 30 + nbytes / (1000 * nvl * .5)
    return out


def pick_mode(ndrsim, d):
    order = ["tree", "ring", "collnet_direct", "collnet_chain", "nvls", "nvls_tree"]
    protos = ["ll", "ll128", "simple"]
    for collnet in (False, True):
        for size, nbytes in (("8B", 8), ("1MiB", 1 << 20), ("64MiB", 64 << 20)):
            name = f"p{size}_{collnet}"
            trace = gen(ndrsim, d, name, 4, 8, size, "auto")
            rep = report(ndrsim, d, name, trace,
                         ["host.stack=nccl", f"nccl.collnet={'true' if collnet else 'false'}"])
            c = rep["collectives"][0]
            table = nccl_table(nbytes, 4, collnet)
            best = None
            for a in order:  # NCCL's order, strict < (the first on a tie)
                for p in protos:
                    if (a, p) in table and (best is None or table[(a, p)] < table[best]):
                        best = (a, p)
            t = c.get("tuner")
            if t is None or (t["algo"], t["proto"]) != best:
                fail(f"{name}: tuner {t}, NCCL's model picks {best} ({table[best]:.2f} us)")
            if abs(t["estimate_ns"] - table[best] * 1000) > 1e-5 * table[best] * 1000:
                fail(f"{name}: estimate {t['estimate_ns']} ns, NCCL's formula "
                     f"{table[best] * 1000} ns")
            if (c["algo"], c["proto"]) != best:
                fail(f"{name}: ran {c['algo']}/{c['proto']} ({c.get('fallback')})")
            print(f"ok: 4 x 8 GPUs {size} collnet={collnet}: {best[0]}/{best[1]} at "
                  f"{table[best]:.2f} us (ran {c['time_ns'] / 1000:.1f} us)")


def error_mode(ndrsim, d):
    cases = [
        ("nocollnet", 2, 8, "collnet_direct", [], "needs CollNet: nccl.collnet=true"),
        ("roce", 2, 8, "collnet_chain", ["nccl.collnet=true", "fabric.technology=roce",
                                         "switch.buffer_per_vl=128KiB",
                                         "endpoint.rx_buffer_per_vl=128KiB"],
         "needs SHARP on the fabric"),
        ("nonvls", 2, 8, "nvls_tree", ["node.nvls=false"], "needs NVLink SHARP"),
        ("onenode", 1, 8, "nvls_tree", [], "needs the communicator on 2 or more nodes"),
        ("onegpu", 4, 1, "collnet_direct", ["nccl.collnet=true", "node.gpus=1", "node.hcas=1"],
         "needs multi-GPU nodes"),
    ]
    for name, nodes, gpus, algo, sets, text in cases:
        trace = gen(ndrsim, d, f"e_{name}", nodes, gpus, "1MiB", algo)
        args = ["run", trace, "--preset", "dgx-h100", "--out", os.path.join(d, f"oe_{name}"), "-q"]
        for s in sets:
            args += ["--set", s]
        p = run(ndrsim, args, rc=2)
        lines = [ln for ln in p.stderr.splitlines() if ln.strip()]
        if len(lines) != 1 or text not in lines[0] or f"{trace}:" not in lines[0] or \
                f"algo: {algo}" not in lines[0]:
            fail(f"{name}: stderr {p.stderr!r}, one line with '{trace}:', 'algo: {algo}' and "
                 f"'{text}' expected")
        print(f"ok: {name}: {lines[0]}")


def main():
    mode, ndrsim, d = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(d, exist_ok=True)
    {"bytes": bytes_mode, "time": time_mode, "pick": pick_mode, "error": error_mode}[mode](
        ndrsim, d)


if __name__ == "__main__":
    main()
