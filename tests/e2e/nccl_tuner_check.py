#!/usr/bin/env python3
"""End-to-end checks of NCCL's protocols and tuner in `ndrsim run` (docs/architecture.md
"Protocols" and "NCCL's tuner").

  nccl_tuner_check.py pick NDRSIM DIR
      allreduce of 8 B and 1 MiB on 128 dgx-h100 nodes x 8 GPUs (1,024 ranks) with
      host.stack=nccl and algo/proto auto: report.json says tree/ll and tree/ll128, and its
      tuner.estimate_ns equals NCCL's cost model computed here from NVIDIA/nccl
      src/graph/tuning.cc's formulas and constants (8 channels, 8 x 50 GB/s NICs per node).
  nccl_tuner_check.py proto NDRSIM DIR
      a 2-rank ring allreduce of 1 MiB with proto simple, ll and ll128 in the trace: the HCAs
      deliver 2 MiB of data as S x 1, x 2 (8 B of data per 16 B line) and ceil(S/2 / 120) x 128
      x 4 bytes (LL128 lines); LL cuts each 512 KiB block into 32 KiB steps (64 transfers).
  nccl_tuner_check.py stack NDRSIM DIR
      NCCL's network transport (common/endpoint_stack.h) in whole runs: an 8 B allreduce of 2
      one-GPU hosts (ring: 2 dependent network steps) is 2 x (3 R + P + W) longer with
      host.pcie_rtt R, host.nccl_proxy_step P and host.wqe_post W set than with them 0 (LL
      with GDR: nothing after arrival); with proto simple on ampere, doubling the costs adds
      2 x (3 R + P + W) and 2 x the simple arrival (P + C + R + the GDR flush W + 3 R + P +
      C); a ring of the 8 GPUs of one dgx-h100 node (NVLink only) takes the same time with
      and without the costs.
"""
import json
import math
import os
import subprocess
import sys


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def run(ndrsim, args):
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    p = subprocess.run([ndrsim] + args, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        fail(f"ndrsim {' '.join(args)}: exit {p.returncode}\n{p.stderr}")
    return p.stdout


def tree_estimate_us(nbytes, proto, nranks=1024, nnodes=128, nch=8, bus=400.0):
    """NCCL's tree allreduce estimate (ncclTopoTuneModel + ncclTopoGetAlgoTime), Hopper, >2 nodes."""
    base = {"ll": 6.8, "ll128": 14.0, "simple": 8.4}[proto]
    intra = {"ll": 0.6, "ll128": 1.25, "simple": 4.0}[proto]  # NVLink, tree
    inter = {"ll": 5.0, "ll128": 8.5, "simple": 14.0}[proto]  # NET, tree
    lat = base + 2 * ((nranks // nnodes - 1) * intra + int(math.log2(nnodes)) * inter)
    bw = min(bus * 0.92, nch * 36.0)  # perChMaxTreeBw Hopper, > 2 nodes
    if proto == "ll":
        bw = min(bw / 3.8, 20.4)  # llMaxBw, Intel CPU, > 2 nodes
    elif proto == "ll128":
        bw = min(bw * 120 / 128, nch * 29.0)  # perChMaxTreeLL128Bw
    bw *= 0.5
    corr = {"ll": [1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9],
            "ll128": [1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9],
            "simple": [.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8]}
    if nbytes >= 64:
        bw *= corr[proto][int(math.log2(nbytes // 64))]
    return lat + nbytes / (1000 * bw)


def pick(ndrsim, d):
    trace = os.path.join(d, "t1024.jsonl")
    run(ndrsim, ["gen", "collective", "--op", "allreduce", "--nodes", "128", "--gpus-per-node",
                 "8", "--bytes", "8B:1MiB:131072", "-o", trace])
    out = os.path.join(d, "o1024")
    run(ndrsim, ["run", trace, "--preset", "dgx-h100", "--set", "host.stack=nccl", "--out", out,
                 "-q"])
    rep = json.load(open(os.path.join(out, "report.json")))
    want = {8: ("tree", "ll"), 1 << 20: ("tree", "ll128")}
    seen = 0
    for c in rep["collectives"]:
        a, p = want[c["bytes"]]
        if (c["algo"], c["proto"]) != (a, p):
            fail(f"{c['bytes']} B: ran {c['algo']}/{c['proto']}, NCCL's model picks {a}/{p}")
        t = c.get("tuner")
        if t is None or (t["algo"], t["proto"]) != (a, p):
            fail(f"{c['bytes']} B: report tuner {t}")
        est = tree_estimate_us(c["bytes"], p) * 1000
        if abs(t["estimate_ns"] - est) > 1e-6 * est:
            fail(f"{c['bytes']} B: tuner estimate {t['estimate_ns']} ns, NCCL's formula {est} ns")
        if c["time_ns"] <= 0:
            fail(f"{c['bytes']} B: time {c['time_ns']}")
        seen += 1
    if seen != 2:
        fail(f"{seen} collectives in the report, 2 expected")
    print("ok: 1,024 GPUs: 8 B tree/ll, 1 MiB tree/ll128 at NCCL's estimates")


def proto(ndrsim, d):
    base = os.path.join(d, "p2.jsonl")
    run(ndrsim, ["gen", "collective", "--op", "allreduce", "--ranks", "2", "--bytes", "1MiB",
                 "-o", base])
    s = 1 << 20
    half = s // 2
    # 4 transfers of S/2: reduce-scatter and allgather, each rank to the other.
    want = {"simple": (4 * half, 4), "ll": (2 * 4 * half, 64),
            "ll128": (4 * math.ceil(half / 120) * 128, 4)}
    for p, (wire, transfers) in want.items():
        trace = os.path.join(d, f"p2_{p}.jsonl")
        with open(base) as f, open(trace, "w") as g:
            for line in f:
                g.write(line.replace('"op":"allreduce"', f'"op":"allreduce","proto":"{p}"'))
        out = os.path.join(d, f"o_{p}")
        run(ndrsim, ["run", trace, "--out", out, "-q"])
        rep = json.load(open(os.path.join(out, "report.json")))
        c = rep["collectives"][0]
        if c["proto"] != p or c["proto_requested"] != p:
            fail(f"{p}: report proto {c['proto']} requested {c['proto_requested']}")
        got = rep["hca"]["payload_bytes_delivered"]
        if got != wire:
            fail(f"{p}: {got} bytes delivered on the wire, {wire} expected")
        if c["transfers"] != transfers:
            fail(f"{p}: {c['transfers']} transfers, {transfers} expected")
    print("ok: simple, ll, ll128 wire bytes and steps")


def stack_time_ns(ndrsim, d, name, trace, preset, sets):
    out = os.path.join(d, name)
    args = ["run", trace, "--out", out, "-q", "--preset", preset, "--set", "host.stack=nccl"]
    for kv in sets:
        args += ["--set", kv]
    run(ndrsim, args)
    return json.load(open(os.path.join(out, "report.json")))["collectives"][0]


def stack(ndrsim, d):
    # Every cost is a whole number of cycles at both presets' clocks (multiples of 2.56 ns),
    # so a run's time moves by exactly their sum.
    r_ns, p_ns, w_ns, c_ns = 655.36, 409.6, 102.4, 51.2
    costs = [f"host.pcie_rtt={r_ns}ns", f"host.nccl_proxy_step={p_ns}ns",
             f"host.wqe_post={w_ns}ns", f"host.cqe_poll={c_ns}ns"]
    zero = ["host.pcie_rtt=0ns", "host.nccl_proxy_step=0ns", "host.wqe_post=0ns",
            "host.cqe_poll=0ns"]
    two = os.path.join(d, "two.jsonl")
    run(ndrsim, ["gen", "collective", "--op", "allreduce", "--ranks", "2", "--bytes", "8B",
                 "--algo", "ring", "-o", two])
    # Sender per network step: GPU write R/2, proxy pass P, post W, doorbell R/2, WQE fetch R,
    # payload fetch R. Simple receiver on ampere: P + C, the GDR flush W + 3R + P + C, tail R.
    send = r_ns / 2 + p_ns + w_ns + r_ns / 2 + r_ns + r_ns
    simple_arrival = (p_ns + c_ns) + (w_ns + 3 * r_ns + p_ns + c_ns) + r_ns
    # LL: from no costs to the costs. Simple: from the costs to twice the costs, because with
    # none the second step waits for its sender's ACK, which comes later than the data's
    # arrival (the arrival's cost then hides in that wait); with the costs the arrival is last.
    doubled = [f"host.pcie_rtt={2 * r_ns}ns", f"host.nccl_proxy_step={2 * p_ns}ns",
               f"host.wqe_post={2 * w_ns}ns", f"host.cqe_poll={2 * c_ns}ns"]
    cases = [("ll", ["nccl.proto=ll"], zero, costs, 2 * send),
             ("simple", ["nccl.proto=simple"], costs, doubled, 2 * (send + simple_arrival))]
    for name, extra, lo, hi, want in cases:
        sets = ["nccl.gpu_arch=ampere"] + extra
        t0 = stack_time_ns(ndrsim, d, name + "_0", two, "hdr", lo + sets)
        t1 = stack_time_ns(ndrsim, d, name + "_1", two, "hdr", hi + sets)
        if t0["proto"] != name or t1["proto"] != name:
            fail(f"{name}: ran proto {t0['proto']} / {t1['proto']}, expected {name}")
        got = t1["time_ns"] - t0["time_ns"]
        if abs(got - want) > 0.01:
            fail(f"{name}: the transport costs added {got:.2f} ns, expected {want:.2f} ns "
                 f"({t0['time_ns']:.2f} -> {t1['time_ns']:.2f} ns)")
    # NVLink transfers inside a node pass no proxy: the same time with or without the costs.
    node = os.path.join(d, "node.jsonl")
    run(ndrsim, ["gen", "collective", "--op", "allreduce", "--nodes", "1", "--gpus-per-node",
                 "8", "--bytes", "64KiB", "--algo", "ring", "-o", node])
    n0 = stack_time_ns(ndrsim, d, "nvlink_0", node, "dgx-h100", zero)
    n1 = stack_time_ns(ndrsim, d, "nvlink_1", node, "dgx-h100", costs)
    if abs(n1["time_ns"] - n0["time_ns"]) > 0.01:
        fail(f"NVLink ring: {n0['time_ns']:.2f} ns without the transport costs, "
             f"{n1['time_ns']:.2f} ns with them; NVLink transfers must not pay them")
    print(f"ok: ll +{cases[0][4]:.2f} ns, simple on ampere +{cases[1][4]:.2f} ns, "
          f"NVLink ring unchanged ({n0['time_ns']:.2f} ns)")


def main():
    mode, ndrsim, d = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(d, exist_ok=True)
    {"pick": pick, "proto": proto, "stack": stack}[mode](ndrsim, d)


if __name__ == "__main__":
    main()
