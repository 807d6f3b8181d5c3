#!/usr/bin/env python3
"""e2e.cc_ring_victim: issue 20's congestion-control bar at the cycle level
(docs/congestion.md, "Experiment: a ring allreduce beside an incast"). An 8-rank 4 MiB ring
allreduce and an 8-rank incast aggressor (7 sources, load 1, 256 KiB writes for 200 us) are
placed at random on the 16 hosts of a 2-level fat tree of 8-port switches; `--baseline` runs
each job alone on its hosts too. For static d-mod-k and for adaptive routing, CC off and on
(the documented cc.* defaults): every byte delivered, no retransmission; the incast hurts the
ring without CC (slowdown > 2); with CC the ring's slowdown is at most half of it (the issue's
done-when). Anchor: the adaptive ring alone is bandwidth-bound, within 30 % of the ring's
2 (n - 1) / n x S / B = 146.8 us at 400 Gb/s."""
import json, os, subprocess, sys, tempfile

ndrsim = sys.argv[1]

def gen(d):
    ring = os.path.join(d, "ring8.jsonl")
    incast = os.path.join(d, "incast8.jsonl")
    subprocess.run([ndrsim, "gen", "collective", "--op", "allreduce", "--ranks", "8", "--bytes",
                    "4MiB", "--algo", "ring", "-o", ring], check=True, stdout=subprocess.DEVNULL)
    subprocess.run([ndrsim, "gen", "background", "--pattern", "incast", "--load", "1", "--ranks",
                    "8", "--bytes", "256KiB", "--duration", "200us", "-o", incast], check=True,
                   stdout=subprocess.DEVNULL)
    return ring, incast

def run(d, traces, mode, cc):
    out = os.path.join(d, f"{mode}.{cc}")
    subprocess.run([ndrsim, "run", *traces, "--topology", "fat_tree", "--set", "switch.ports=8",
                    "--hosts", "16", "--placement", "random", "--baseline", "-q", "--set",
                    f"routing.mode={mode}", "--set", f"cc.enabled={cc}", "--out", out],
                   check=True, stdout=subprocess.DEVNULL)
    r = json.load(open(os.path.join(out, "report.json")))
    # Every byte: the ring sends 2 (n - 1) chunks of S / n per rank, the incast its writes.
    writes = sum(1 for c in r["collectives"] if c["op"] == "rdma_write")
    ring_bytes = 8 * 2 * 7 * (4 * 2**20 // 8)
    assert writes == 7 * 38, writes  # 7 sources, a 256 KiB write every 5.24 us for 200 us
    assert r["hca"]["payload_bytes_delivered"] == ring_bytes + writes * 256 * 1024, (mode, cc)
    assert r["hca"]["retransmitted_packets"] == 0, (mode, cc)
    ring = r["jobs"][0]
    assert ring["name"].startswith("allreduce"), ring["name"]
    return r, ring

with tempfile.TemporaryDirectory() as d:
    traces = gen(d)
    for mode in ("static", "adaptive"):
        _, off = run(d, traces, mode, "false")
        on_r, on = run(d, traces, mode, "true")
        s_off, s_on = off["slowdown"], on["slowdown"]
        print(f"{mode}: ring alone {off['alone']['span_ns']/1e3:.1f} us, beside the incast "
              f"{off['span_ns']/1e3:.1f} us (x{s_off:.2f}) CC off; alone "
              f"{on['alone']['span_ns']/1e3:.1f} us, beside {on['span_ns']/1e3:.1f} us "
              f"(x{s_on:.2f}) CC on; {on_r['hca']['cc']['fecn_marked']} FECN")
        assert s_off > 2.0, (mode, "the incast must hurt the ring without CC", s_off)
        assert s_on <= 0.5 * s_off, (mode, s_on, s_off)
        assert on_r["hca"]["cc"]["fecn_marked"] > 0 and on_r["hca"]["cc"]["becn_received"] > 0
        if mode == "adaptive":
            bound = 2 * 7 / 8 * 4 * 2**20 / 50e9 * 1e9  # ns
            assert bound <= off["alone"]["span_ns"] <= 1.3 * bound, off["alone"]["span_ns"]
