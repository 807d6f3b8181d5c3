#!/usr/bin/env python3
"""RoCE parity with InfiniBand (docs/roce.md 'Link faults', 'ECMP modes', 'Several jobs',
docs/cli.md 'ndrsim compare'), end to end. Each mode is one CTest entry; exit 0 on success,
1 with a message. All runs: --preset roce-400g on 2-level fat trees of radix-8 switches.

  jobs NDRSIM DIR     two copies of an 8-rank 4 MiB ring allreduce: packed on disjoint leaves
                      (16 hosts, 4 leaves of 4) both equal each other and each alone exactly;
                      placed at random (sim.seed 3) so they share leaves, both strictly slower
  fault NDRSIM DIR    16-rank 8 MiB ring allreduce, cable sw0.p4->sw4.p0 down at 100 us,
                      hca.ack_timeout 1 ms, flow and spray: every byte delivered exactly once
                      (2 (n-1) S = 251,658,240 B), packets lost and retransmitted, the reroute at
                      100 us + fault.reroute_delay (2 ms); spray, whose packets keep using every
                      up port, still finishes within two ACK timeouts of the reroute (the
                      rerouted ECMP sets avoid the dead cable)
  ecmp NDRSIM DIR     a random permutation of 4 MiB writes on 32 hosts (8 leaves, 4 spines,
                      full bisection): against the payload line rate L = 50 GB/s x 4096 / (66 x
                      64) (a 4 KiB RoCEv2 WRITE middle frame: 14 Ethernet + 20 IPv4 + 8 UDP + 12
                      BTH + 4096 + 4 ICRC + 4 FCS + 20 preamble/IFG = 4178 bytes, 66 beats of 64 B
                      in the cycle model, docs/roce.md 'Frames'), the slowest host gets at
                      least 0.75 L with spray and at most 0.5 L with flow hashing; spray places
                      packets out of order without any retransmission; flowlet reports
                      ecmp_new_flowlets, with a 500 ns gap beats flow; spray is deterministic.
                      128 hosts on radix 64 (4 leaves of 32, 2 spines, 16 parallel cables per
                      pair), 16 MiB writes: spray with routing.ecmp_down parallel gives every
                      host at least 0.9 L, flow hashing leaves the slowest below 0.5 L
  compare NDRSIM DIR  `compare A B --preset ndr ... --preset roce-400g ...`: jobs[] per job and
                      preset, slowdown = span / alone span, and the roce side equals
                      `ndrsim run A B` with the same settings
  errors NDRSIM DIR   bad routing.ecmp_mode, routing.flowlet_gap below / above its range: one
                      line naming the key, non-zero exit
"""
import json
import os
import re
import shutil
import subprocess
import sys

ROCE = ["--preset", "roce-400g", "--topology", "fat_tree", "--set", "switch.ports=8"]
FAULT = "sw0.p4->sw4.p0@100us"


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def run(ndrsim, args, expect_ok=True):
    p = subprocess.run([ndrsim] + args, capture_output=True, text=True, timeout=600)
    if expect_ok and p.returncode != 0:
        fail(f"{' '.join(args)}: exit {p.returncode}: {p.stdout}{p.stderr}")
    return p


def report(d):
    with open(os.path.join(d, "report.json")) as f:
        return json.load(f)


def gen_ring(ndrsim, d, ranks, size):
    path = os.path.join(d, f"ring{ranks}.jsonl")
    run(ndrsim, ["gen", "collective", "--op", "allreduce", "--ranks", str(ranks), "--bytes", size,
                 "--algo", "ring", "-o", path])
    return path


def times(job):
    return [c["time_ns"] for c in job["collectives"]]


def mode_jobs(ndrsim, d):
    t = gen_ring(ndrsim, d, 8, "4MiB")
    out = os.path.join(d, "packed")
    run(ndrsim, ["run", t, t] + ROCE + ["--hosts", "16", "--placement", "packed", "--baseline",
                                        "-q", "--out", out])
    jobs = report(out)["jobs"]
    if [j["hosts"] for j in jobs] != [list(range(8)), list(range(8, 16))]:
        fail(f"packed hosts {[j['hosts'] for j in jobs]}")
    if times(jobs[0]) != times(jobs[1]):
        fail(f"disjoint leaves: times differ {times(jobs[0])} {times(jobs[1])}")
    for j in jobs:
        if j["alone"]["time_ns"] != times(j) or j["slowdown"] != 1.0:
            fail(f"job {j['job']}: together {times(j)} != alone {j['alone']}")
    disjoint = times(jobs[0])
    out = os.path.join(d, "random")
    run(ndrsim, ["run", t, t] + ROCE + ["--hosts", "16", "--placement", "random", "--set",
                                        "sim.seed=3", "--baseline", "-q", "--out", out])
    jobs = report(out)["jobs"]
    leaves = lambda hs: {h // 4 for h in hs}
    if not leaves(jobs[0]["hosts"]) & leaves(jobs[1]["hosts"]):
        fail("random placement put the jobs on disjoint leaves")
    for j in jobs:
        if not times(j)[0] > j["alone"]["time_ns"][0] or not j["slowdown"] > 1.0:
            fail(f"job {j['job']} not slower together: {times(j)} vs {j['alone']}")
    print("jobs: disjoint", disjoint, "shared slowdowns", [j["slowdown"] for j in jobs])


def mode_fault(ndrsim, d):
    t = gen_ring(ndrsim, d, 16, "8MiB")
    delivered = 2 * 15 * 8 * 1024 * 1024
    for mode in ["flow", "spray"]:
        out = os.path.join(d, mode)
        run(ndrsim, ["run", t] + ROCE + ["--set", f"routing.ecmp_mode={mode}",
                                         "--set", f"fault.link_down={FAULT}",
                                         "--set", "hca.ack_timeout=1ms", "-q", "--out", out])
        r = report(out)
        h = r["hca"]
        if h["payload_bytes_delivered"] != delivered:
            fail(f"{mode}: delivered {h['payload_bytes_delivered']} != {delivered}")
        lf = r["link_faults"]
        if len(lf) != 1 or lf[0]["link"] != "sw0.p4->sw4.p0" or lf[0]["down_ns"] != 100000:
            fail(f"{mode}: link_faults {lf}")
        if lf[0]["reroute_ns"] != 2100000:
            fail(f"{mode}: reroute at {lf[0]['reroute_ns']} ns, expected 100 us + 2 ms")
        if not lf[0]["packets_lost"] > 0 or not h["retransmitted_packets"] >= lf[0]["packets_lost"]:
            fail(f"{mode}: lost {lf[0]['packets_lost']}, retransmitted "
                 f"{h['retransmitted_packets']}")
        span = r["totals"]["span_ns"]
        if not 2100000 < span < 2100000 + 2 * 1000000:
            fail(f"{mode}: span {span} ns: not recovered within two ACK timeouts of the reroute")
        print(f"fault {mode}: span {span} ns, lost {lf[0]['packets_lost']}, retransmitted "
              f"{h['retransmitted_packets']}, timeouts {h['timeouts']}")


def perm(ndrsim, d, mode, extra=()):
    t = os.path.join(d, "perm32.jsonl")
    if not os.path.exists(t):
        run(ndrsim, ["gen", "permutation", "--ranks", "32", "--bytes", "4MiB", "--seed", "1",
                     "-o", t])
    out = os.path.join(d, mode + "".join(extra).replace("=", "_").replace(".", "_"))
    run(ndrsim, ["run", t] + ROCE + ["--set", f"routing.ecmp_mode={mode}", "-q", "--out", out]
        + list(extra))
    r = report(out)
    bw = sorted(c["algbw_GBps"] for c in r["collectives"])
    if len(bw) != 32:
        fail(f"{mode}: {len(bw)} writes")
    return r, bw


def mode_ecmp(ndrsim, d):
    wire = 14 + 20 + 8 + 12 + 4096 + 4 + 4 + 20
    line = 400e9 / 8 / 1e9 * 4096 / (-(-wire // 64) * 64)
    rf, flow = perm(ndrsim, d, "flow")
    rs, spray = perm(ndrsim, d, "spray")
    print(f"line rate {line:.2f} GB/s; slowest host flow {flow[0]:.2f}, spray {spray[0]:.2f}")
    if not spray[0] >= 0.75 * line:
        fail(f"spray: slowest host {spray[0]} < 0.75 x {line}")
    if not flow[0] <= 0.5 * line:
        fail(f"flow: slowest host {flow[0]} > 0.5 x {line} (no collision?)")
    if max(spray) > line or max(flow) > line:
        fail("a host above the line rate")
    if "out_of_order_placed" in rf["hca"]:
        fail("flow hashing reports out-of-order placement")
    if not rs["hca"]["out_of_order_placed"] > 0 or rs["hca"]["retransmitted_packets"] != 0:
        fail(f"spray: out of order {rs['hca'].get('out_of_order_placed')}, retransmitted "
             f"{rs['hca']['retransmitted_packets']} (reordering must not cause go-back-N)")
    if rs["hca"]["payload_bytes_delivered"] != 32 * 4 * 1024 * 1024:
        fail("spray: not every byte delivered")
    _, again = perm(ndrsim, d, "spray", ("--set", "report.timeline=off"))
    if again != spray:
        fail("spray: not deterministic")
    rl, flowlet = perm(ndrsim, d, "flowlet", ("--set", "routing.flowlet_gap=500ns"))
    fl = [s["ecmp_new_flowlets"] for s in rl["switches"]]
    if not sum(fl) > 0 or not flowlet[0] > flow[0]:
        fail(f"flowlet 500ns: new flowlets {sum(fl)}, slowest {flowlet[0]} vs flow {flow[0]}")
    if any("ecmp_new_flowlets" in s for s in rs["switches"]):
        fail("ecmp_new_flowlets reported outside flowlet mode")
    print(f"flowlet 500 ns: slowest {flowlet[0]:.2f}, {sum(fl)} new flowlets")
    t = os.path.join(d, "perm128.jsonl")
    run(ndrsim, ["gen", "permutation", "--ranks", "128", "--bytes", "16MiB", "--seed", "1",
                 "-o", t])
    slowest = {}
    for mode in ["flow", "spray"]:
        out = os.path.join(d, "p128_" + mode)
        run(ndrsim, ["run", t, "--preset", "roce-400g", "--topology", "fat_tree", "--set",
                     f"routing.ecmp_mode={mode}", "--set", "routing.ecmp_down=parallel", "-q",
                     "--out", out])
        r = report(out)
        if r["hca"]["payload_bytes_delivered"] != 128 * 16 * 1024 * 1024:
            fail(f"128 hosts {mode}: not every byte delivered")
        slowest[mode] = min(c["algbw_GBps"] for c in r["collectives"])
    if not slowest["spray"] >= 0.9 * line or not slowest["flow"] < 0.5 * line:
        fail(f"128 hosts, parallel down cables: slowest {slowest}")
    print(f"128 hosts, ecmp_down parallel: slowest {slowest}")


def mode_compare(ndrsim, d):
    t = gen_ring(ndrsim, d, 8, "1MiB")
    common = ["--topology", "fat_tree", "--set", "switch.ports=8", "--hosts", "16",
              "--placement", "random", "--set", "sim.seed=3", "--baseline"]
    out = os.path.join(d, "cmp")
    p = run(ndrsim, ["compare", t, t, "--preset", "ndr", "--set", "routing.mode=adaptive",
                     "--set", "cc.enabled=true", "--preset", "roce-400g", "--set",
                     "routing.ecmp_mode=spray", "--out", out] + common)
    if "slowdown" not in p.stdout or "alone_us" not in p.stdout:
        fail(f"compare table:\n{p.stdout}")
    r = report(out)
    if [x["name"] for x in r["presets"]] != ["ndr", "roce-400g"] or len(r["jobs"]) != 2:
        fail("presets / jobs")
    for job in r["jobs"]:
        per = job["per_preset"]
        if [e["preset"] for e in per] != ["ndr", "roce-400g"]:
            fail(f"per_preset {per}")
        for e in per:
            if abs(e["slowdown"] - e["span_ns"] / e["alone_span_ns"]) > 1e-12:
                fail(f"slowdown {e}")
    runo = os.path.join(d, "run")
    run(ndrsim, ["run", t, t, "--preset", "roce-400g", "--set", "routing.ecmp_mode=spray",
                 "--set", "routing.mode=adaptive", "--set", "cc.enabled=true", "-q",
                 "--out", runo] + common)
    for j, rj in enumerate(report(runo)["jobs"]):
        e = r["jobs"][j]["per_preset"][1]
        if rj["span_ns"] != e["span_ns"] or rj["alone"]["span_ns"] != e["alone_span_ns"] or \
                rj["hosts"] != e["hosts"]:
            fail(f"job {j}: compare {e} != run {rj}")
    print("compare: slowdowns", [[e["slowdown"] for e in j["per_preset"]] for j in r["jobs"]])


def mode_errors(ndrsim, d):
    t = gen_ring(ndrsim, d, 8, "64KiB")
    cases = [("routing.ecmp_mode=packet", r"routing\.ecmp_mode.*flow.*flowlet.*spray"),
             ("routing.flowlet_gap=50ns", r"routing\.flowlet_gap.*at least 100ns"),
             ("routing.flowlet_gap=1s", r"routing\.flowlet_gap.*at most 32ms")]
    for kv, rx in cases:
        for cmd in (["run", t], ["compare", t, "--preset", "ndr"]):
            p = run(ndrsim, cmd + ROCE[2:] + ["--preset", "roce-400g", "--set", kv, "-q"]
                    if cmd[0] == "run" else cmd + ["--preset", "roce-400g", "--set", kv],
                    expect_ok=False)
            text = (p.stdout + p.stderr).strip()
            if p.returncode == 0 or len(text.splitlines()) != 1 or not re.search(rx, text):
                fail(f"{cmd[0]} --set {kv}: exit {p.returncode}: {text!r}")
    print("errors: ok")


def main():
    mode, ndrsim, d = sys.argv[1:4]
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    {"jobs": mode_jobs, "fault": mode_fault, "ecmp": mode_ecmp, "compare": mode_compare,
     "errors": mode_errors}[mode](ndrsim, d)


if __name__ == "__main__":
    main()
