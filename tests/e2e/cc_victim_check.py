#!/usr/bin/env python3
"""e2e.cc_victim: incast + victim on a 2-level fat tree (traces/cc_incast_victim.jsonl), IB CC
off vs on (docs/congestion.md). Checks: every byte delivered in each run (lossless); the
victim alone is at line-rate-bound speed; with CC on the victim loses at most half of the time
it loses with CC off (its excess time, slowdown - 1, at least halved: without CC the
HOL-blocked victim drains at the incast flow's share of the shared buffer, with CC it keeps
most of the spare link)."""
import json, subprocess, sys, tempfile, os

ndrsim, traces = sys.argv[1], sys.argv[2]
common = ["--topology", "fat_tree", "--set", "switch.ports=8", "-q"]

def run(trace, cc, d):
    out = os.path.join(d, f"{os.path.basename(trace)}.{cc}")
    subprocess.run([ndrsim, "run", os.path.join(traces, trace), *common, "--set",
                    f"cc.enabled={cc}", "--out", out], check=True, stdout=subprocess.DEVNULL)
    r = json.load(open(os.path.join(out, "report.json")))
    total = sum(c["bytes"] for c in r["collectives"])
    assert r["hca"]["payload_bytes_delivered"] == total, (trace, cc, "bytes lost")
    assert r["hca"]["retransmitted_packets"] == 0
    return r

with tempfile.TemporaryDirectory() as d:
    alone = run("cc_victim_alone.jsonl", "false", d)["collectives"][0]["time_ns"]
    off = run("cc_incast_victim.jsonl", "false", d)
    on = run("cc_incast_victim.jsonl", "true", d)
    t_off, t_on = off["collectives"][0]["time_ns"], on["collectives"][0]["time_ns"]
    # Alone: 4 MiB at 400 Gb/s takes >= 83.9 us; within 10 % of it.
    assert 83886 <= alone <= 1.1 * 83886 / 0.94, alone
    s_off, s_on = t_off / alone, t_on / alone
    print(f"victim alone {alone/1e3:.1f} us; off {t_off/1e3:.1f} us (x{s_off:.2f}); "
          f"on {t_on/1e3:.1f} us (x{s_on:.2f}); cc {on['hca']['cc']['becn_received']} BECNs")
    assert s_off > 2.0, "the incast must hurt the victim without CC"
    assert s_on - 1 <= 0.5 * (s_off - 1), (s_on, s_off)
    assert on["hca"]["cc"]["fecn_marked"] > 0 and on["hca"]["cc"]["becn_received"] > 0
