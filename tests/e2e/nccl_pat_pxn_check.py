#!/usr/bin/env python3
"""End-to-end checks of NCCL's PAT and PXN in the model (docs/architecture.md "PAT", "PXN").

  nccl_pat_pxn_check.py pat NDRSIM DIR
      allgather and reduce_scatter of 4 KiB .. 16 MiB on 16 one-GPU nodes, host.stack=nccl,
      algo auto: every collective runs what NCCL's cost model picks, recomputed here from
      NVIDIA/nccl src/graph/tuning.cc's formulas and constants (ring LL / LL128 / Simple and
      PAT Simple: base 8 us + log2(16) x 14 / 3.5 us + 16 x 2.8 us, 0.75 x the bus bandwidth),
      and the report's tuner estimate is that formula's; at 4 KiB PAT (floor(log2 16) = 4
      dependent hops) takes less than half the ring's time (15 hops).
  nccl_pat_pxn_check.py pxn NDRSIM DIR
      `ndrsim run` of an alltoall of 256 KiB on 2 dgx-h100 nodes (16 GPUs, 8 rails),
      host.stack=nccl: report.json's pxn_relayed is 16 x 7 (every GPU has 7 remote peers on
      other rails; 16 KiB blocks, one chunk each) and transfers 16 x 15 + 112; the transfer
      timeline shows every inter-node transfer between GPUs of one local index (one rail) and
      every relay's send preceded by an NVLink hop of the same size into it; nccl.pxn=false
      relays nothing.
  nccl_pat_pxn_check.py p2p NDRSIM DIR
      a 4 MiB send from rank 7 (node 0, rail 7) to rank 8 (node 1, rail 0) on 2 dgx-h100 nodes:
      with PXN the data goes over NVLink to rank 0 (node 0's rail-0 GPU, outside the pair) in
      four 1 MiB pieces (collective.chunk), each leaving from rank 0's HCA (pxn_relayed 4,
      transfers 8, every inter-node transfer from rank 0); the time is at least S / 50 GB/s and,
      the legs pipelining, within 5 % of the send without PXN.
  nccl_pat_pxn_check.py a2a NDRSIM
      `ndrsim nccl-tests alltoall_perf -b 64K -e 16M -f 4 --preset dgx-h100 --nodes 2`: with
      algo auto = p2p (NCCL's grouped send/recv, every peer in flight). With and without PXN
      (nccl.pxn=false) every size takes at least the analytic bound S/2 / 50 GB/s (each GPU's
      HCA carries the 8 remote blocks of S/16, with or without relays); without PXN 16 MiB is
      within 10 % of that bound (all peers in flight keep the HCA busy); with PXN a size takes
      at most the time without PXN plus the relay hops' NVLink time, if none of it overlapped
      (each GPU sends 7 blocks of S/16 into relays at 18 x 25 GB/s x 0.824 = 370.8 GB/s).
  nccl_pat_pxn_check.py error NDRSIM DIR
      algo pat in a trace on 2 nodes of 8 GPUs: exit 2, one line naming the trace line, `algo`
      and the one-GPU-per-node rule.
"""
import json
import math
import os
import re
import subprocess
import sys


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def run(ndrsim, args, code=0):
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    p = subprocess.run([ndrsim] + args, capture_output=True, text=True, env=env)
    if p.returncode != code:
        fail(f"ndrsim {' '.join(args)}: exit {p.returncode} (want {code})\n{p.stderr}")
    return p.stdout, p.stderr


def nccl_estimates_us(nbytes, n, bw):
    """NCCL's ring (LL, LL128, Simple) and PAT (Simple) estimates for allgather/reduce_scatter
    on n nodes of one GPU, > 2 nodes, Hopper, Intel CPU, 1 channel of bw GB/s
    (ncclTopoTuneModel + ncclTopoGetAlgoTime)."""
    out = {}
    nsteps = n - 1
    inter = {"ll": 5.0, "ll128": 8.5, "simple": 14.0}  # NET latency of Tree (ppn 1)
    base = {"ll": 6.6, "ll128": 14.0, "simple": 8.4}
    ring_bw = {"ll": min(20.4, bw * 0.5), "ll128": min(bw * 0.92, 36.7), "simple": bw}
    for p in ("ll", "ll128", "simple"):
        lat = base[p] + nsteps * inter[p]  # every ring step crosses the network
        out[("ring", p)] = lat + nbytes / (1000 * ring_bw[p] * n / nsteps)
    lat = 8.0 + int(math.log2(n)) * (inter["simple"] / 3.5) + n * 2.8
    out[("pat", "simple")] = lat + nbytes / (1000 * bw * 0.75)
    return out


def pat(ndrsim, d):
    os.makedirs(d, exist_ok=True)
    times = {}
    for op in ("allgather", "reduce_scatter"):
        for algo in ("auto", "ring"):
            trace = os.path.join(d, f"{op}_{algo}.jsonl")
            run(ndrsim, ["gen", "collective", "--op", op, "--ranks", "16", "--algo", algo,
                         "--bytes", "4KiB:16MiB:16", "-o", trace])
            out = os.path.join(d, f"o_{op}_{algo}")
            run(ndrsim, ["run", trace, "--set", "host.stack=nccl", "--out", out, "-q"])
            rep = json.load(open(os.path.join(out, "report.json")))
            for c in rep["collectives"]:
                times[(op, algo, c["bytes"])] = c["time_ns"]
                if algo != "auto":
                    continue
                t = c.get("tuner")
                if t is None:
                    fail(f"{op} {c['bytes']} B: no tuner estimate in the report")
                est = nccl_estimates_us(c["bytes"], 16, 50.0)  # one NDR port: 400 Gb/s
                best = min(est, key=est.get)
                if (c["algo"], c["proto"]) != best:
                    fail(f"{op} {c['bytes']} B: ran {c['algo']}/{c['proto']}, NCCL's model "
                         f"picks {best[0]}/{best[1]} ({est})")
                want = est[best] * 1000
                if abs(t["estimate_ns"] - want) > 1e-6 * want:
                    fail(f"{op} {c['bytes']} B: tuner {t['estimate_ns']} ns, formula {want} ns")
    for op in ("allgather", "reduce_scatter"):
        a, r = times[(op, "auto", 4096)], times[(op, "ring", 4096)]
        if not a < 0.5 * r:
            fail(f"{op} 4 KiB: auto (PAT) {a} ns is not under half the ring's {r} ns")
        print(f"ok: {op} 4 KiB: PAT {a / 1000:.1f} us, ring {r / 1000:.1f} us")
    print("ok: allgather and reduce_scatter on 16 nodes pick as NCCL's cost model does")


def pxn(ndrsim, d):
    os.makedirs(d, exist_ok=True)
    trace = os.path.join(d, "a2a.jsonl")
    run(ndrsim, ["gen", "collective", "--op", "alltoall", "--nodes", "2", "--gpus-per-node", "8",
                 "--bytes", "256KiB", "-o", trace])
    for pxn_on in (True, False):
        out = os.path.join(d, f"o_{pxn_on}")
        run(ndrsim, ["run", trace, "--preset", "dgx-h100", "--set", "host.stack=nccl",
                     "--set", f"nccl.pxn={'true' if pxn_on else 'false'}",
                     "--set", "report.timeline=transfers", "--out", out, "-q"])
        rep = json.load(open(os.path.join(out, "report.json")))
        c = rep["collectives"][0]
        relayed = c.get("pxn_relayed", 0)
        if relayed != (112 if pxn_on else 0):
            fail(f"pxn {pxn_on}: pxn_relayed {relayed}")
        if c["transfers"] != 240 + relayed:
            fail(f"pxn {pxn_on}: {c['transfers']} transfers, want {240 + relayed}")
        tl = json.load(open(os.path.join(out, "timeline.json")))
        events = tl["traceEvents"] if isinstance(tl, dict) else tl
        xs = [e for e in events if e.get("ph") == "X" and e.get("pid") == 3]
        if len(xs) != c["transfers"]:
            fail(f"pxn {pxn_on}: {len(xs)} transfer slices, want {c['transfers']}")
        cross_rail = 0
        for e in xs:
            src, dst = e["tid"], e["args"]["dst"]
            if src // 8 != dst // 8 and src % 8 != dst % 8:
                cross_rail += 1
        if pxn_on and cross_rail:
            fail(f"pxn: {cross_rail} inter-node transfers change rail")
        if not pxn_on and cross_rail != 112:
            fail(f"no pxn: {cross_rail} cross-rail inter-node transfers, want 112")
        # NVLink hops into relays: intra-node transfers of one 16 KiB block beyond the 15 x 16
        # direct ones... every GPU sends 7 intra-node blocks directly, plus 7 hops with PXN.
        intra = sum(1 for e in xs if e["tid"] // 8 == e["args"]["dst"] // 8)
        if intra != 16 * 7 + relayed:
            fail(f"pxn {pxn_on}: {intra} intra-node transfers, want {16 * 7 + relayed}")
    print("ok: alltoall on 2 x 8 GPUs: 112 relays, every inter-node transfer on one rail")


def p2p(ndrsim, d):
    os.makedirs(d, exist_ok=True)
    trace = os.path.join(d, "p2p.jsonl")
    size = 4 << 20
    with open(trace, "w") as f:
        f.write('{"type": "header", "version": 1, "nranks": 16, "name": "send 7 -> 8"}\n')
        f.write(json.dumps({"type": "comm", "id": 0, "ranks": list(range(16))}) + "\n")
        for rank, op, peer in ((7, "send", 8), (8, "recv", 7)):
            f.write(json.dumps({"type": "op", "rank": rank, "comm": 0, "seq": 1, "op": op,
                                "count": size, "dtype": "uint8", "peer": peer}) + "\n")
    times = {}
    for pxn_on in (True, False):
        out = os.path.join(d, f"o_{pxn_on}")
        run(ndrsim, ["run", trace, "--preset", "dgx-h100", "--set", "host.stack=nccl",
                     "--set", f"nccl.pxn={'true' if pxn_on else 'false'}",
                     "--set", "report.timeline=transfers", "--out", out, "-q"])
        c = json.load(open(os.path.join(out, "report.json")))["collectives"][0]
        times[pxn_on] = c["time_ns"]
        if c.get("pxn_relayed", 0) != (4 if pxn_on else 0) or c["transfers"] != (8 if pxn_on else 1):
            fail(f"pxn {pxn_on}: {c['transfers']} transfers, pxn_relayed {c.get('pxn_relayed')}")
        tl = json.load(open(os.path.join(out, "timeline.json")))
        events = tl["traceEvents"] if isinstance(tl, dict) else tl
        xs = [e for e in events if e.get("ph") == "X" and e.get("pid") == 3]
        inter = sorted({e["tid"] for e in xs if e["tid"] // 8 != e["args"]["dst"] // 8})
        hops = [e for e in xs if e["tid"] // 8 == e["args"]["dst"] // 8]
        if pxn_on and (inter != [0] or len(hops) != 4 or any(
                (e["tid"], e["args"]["dst"]) != (7, 0) for e in hops)):
            fail(f"pxn: inter-node senders {inter}, NVLink hops {len(hops)}")
        if not pxn_on and inter != [7]:
            fail(f"no pxn: inter-node senders {inter}")
        if times[pxn_on] < size / 50.0:
            fail(f"pxn {pxn_on}: {times[pxn_on]} ns beats one 50 GB/s HCA")
    if times[True] > 1.05 * times[False]:
        fail(f"PXN send {times[True]} ns more than 5 % over {times[False]} ns")
    print(f"ok: 4 MiB send 7 -> 8 through rank 0's HCA: {times[True] / 1000:.1f} us "
          f"(without PXN {times[False] / 1000:.1f} us)")


def table_times(so):
    t = {}
    for line in so.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        f = line.split()
        t[int(f[0])] = float(f[5])
    return t


def a2a(ndrsim):
    args = ["nccl-tests", "alltoall_perf", "-b", "64K", "-e", "16M", "-f", "4", "--preset",
            "dgx-h100", "--nodes", "2", "-n", "2", "-w", "1"]
    on = table_times(run(ndrsim, args)[0])
    off = table_times(run(ndrsim, args + ["--set", "nccl.pxn=false"])[0])
    if sorted(on) != [65536, 262144, 1048576, 4194304, 16777216] or sorted(off) != sorted(on):
        fail(f"sizes {sorted(on)} / {sorted(off)}")
    for s in sorted(on):
        bound = s / 2 / 50e3  # us: S/2 bytes through one 50 GB/s HCA
        relay = 7 * s / 16 / 370.8e3  # us: the relay hops over NVLink, none overlapped
        for name, t in (("PXN", on[s]), ("no PXN", off[s])):
            if t < bound:
                fail(f"{s} B: {name} {t} us beats the HCA bound {bound:.1f} us")
        if on[s] > off[s] + relay:
            fail(f"{s} B: PXN {on[s]} us > no PXN {off[s]} us + relay NVLink {relay:.2f} us")
        print(f"  {s:>9} B: PXN {on[s]:8.1f} us, no PXN {off[s]:8.1f} us, bound {bound:7.1f} us")
    if off[16777216] > 1.10 * 16777216 / 2 / 50e3:
        fail(f"16 MiB without PXN: {off[16777216]} us, more than 10 % above the HCA bound")
    print("ok: alltoall_perf on 2 dgx-h100 nodes: p2p at the HCA bound, PXN within its relay cost")


def error(ndrsim, d):
    os.makedirs(d, exist_ok=True)
    trace = os.path.join(d, "ag_pat.jsonl")
    run(ndrsim, ["gen", "collective", "--op", "allgather", "--nodes", "2", "--gpus-per-node",
                 "8", "--algo", "pat", "--bytes", "1MiB", "-o", trace])
    so, se = run(ndrsim, ["run", trace, "--preset", "dgx-h100", "--out",
                          os.path.join(d, "o"), "-q"], code=2)
    lines = [l for l in (so + se).splitlines() if l.strip()]
    want = re.compile(r"ag_pat\.jsonl:\d+: algo: pat runs only with one GPU per node .*16 ranks on 2 nodes")
    if len(lines) != 1 or not want.search(lines[0]):
        fail(f"want one line matching {want.pattern}, got {lines}")
    print("ok:", lines[0])


def main():
    mode = sys.argv[1]
    if mode == "pat":
        pat(sys.argv[2], sys.argv[3])
    elif mode == "pxn":
        pxn(sys.argv[2], sys.argv[3])
    elif mode == "p2p":
        p2p(sys.argv[2], sys.argv[3])
    elif mode == "a2a":
        a2a(sys.argv[2])
    elif mode == "error":
        error(sys.argv[2], sys.argv[3])
    else:
        fail(f"unknown mode {mode}")


if __name__ == "__main__":
    main()
