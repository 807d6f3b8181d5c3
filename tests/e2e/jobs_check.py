#!/usr/bin/env python3
"""Multi-job runs (`ndrsim run A B ...`, docs/multijob.md), end to end. Each mode is one CTest
entry; exit 0 on success, 1 with a message.

  disjoint NDRSIM DIR   two copies of an 8-rank ring allreduce packed on disjoint leaves of a
                        radix-8 fat tree (16 hosts, 4 leaves): both jobs' collective times are
                        equal to each other and to each job alone (--baseline) exactly
  shared NDRSIM DIR     the same two jobs placed at random (sim.seed 3) so that they share leaf
                        up-links: both strictly slower than alone
  jobsfile NDRSIM DIR   a jobs file with explicit hosts: jobs[].hosts are those hosts, the
                        report's collectives[] hold both jobs' collectives
  background NDRSIM DIR `gen background --pattern incast --load 1 --ranks 8 --bytes 256KiB
                        --duration 200us`: 256 KiB at 400 Gb/s is one write every 5242.88 ns,
                        floor(200000 / 5242.88) = 38 per source, 7 sources -> 266 writes to rank 0
  errors NDRSIM DIR     bad input: one line naming file/field, non-zero exit
"""
import json
import os
import re
import shutil
import subprocess
import sys

FABRIC = ["--topology", "fat_tree", "--set", "switch.ports=8", "--hosts", "16"]


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def run(ndrsim, args, expect_ok=True):
    p = subprocess.run([ndrsim] + args, capture_output=True, text=True, timeout=300)
    if expect_ok and p.returncode != 0:
        fail(f"{' '.join(args)}: exit {p.returncode}: {p.stdout}{p.stderr}")
    return p


def ring(ndrsim, d):
    path = os.path.join(d, "ring8.jsonl")
    run(ndrsim, ["gen", "collective", "--op", "allreduce", "--ranks", "8", "--bytes", "4MiB",
                 "--algo", "ring", "-o", path])
    return path


def report(d):
    with open(os.path.join(d, "report.json")) as f:
        return json.load(f)


def times(job):
    return [c["time_ns"] for c in job["collectives"]]


def mode_disjoint(ndrsim, d):
    t = ring(ndrsim, d)
    out = os.path.join(d, "out")
    run(ndrsim, ["run", t, t] + FABRIC + ["--placement", "packed", "--baseline", "-q", "--out", out])
    jobs = report(out)["jobs"]
    if len(jobs) != 2:
        fail(f"expected 2 jobs, got {len(jobs)}")
    if jobs[0]["hosts"] != list(range(8)) or jobs[1]["hosts"] != list(range(8, 16)):
        fail(f"packed hosts: {jobs[0]['hosts']} {jobs[1]['hosts']}")
    a, b = times(jobs[0]), times(jobs[1])
    if len(a) != 1 or a != b:
        fail(f"disjoint leaves: times differ {a} {b}")
    for j in jobs:
        if j["alone"]["time_ns"] != times(j) or j["slowdown"] != 1.0:
            fail(f"job {j['job']}: together {times(j)} != alone {j['alone']}")
    print("disjoint: both", a[0], "ns = alone")


def mode_shared(ndrsim, d):
    t = ring(ndrsim, d)
    out = os.path.join(d, "out")
    run(ndrsim, ["run", t, t] + FABRIC +
        ["--placement", "random", "--set", "sim.seed=3", "--baseline", "-q", "--out", out])
    jobs = report(out)["jobs"]
    leaves = lambda hs: {h // 4 for h in hs}
    if not leaves(jobs[0]["hosts"]) & leaves(jobs[1]["hosts"]):
        fail("random placement put the jobs on disjoint leaves: not a shared-up-link case")
    for j in jobs:
        if not times(j)[0] > j["alone"]["time_ns"][0] or not j["slowdown"] > 1.0:
            fail(f"job {j['job']} not slower together: {times(j)} vs {j['alone']}")
    print("shared: slowdowns", [j["slowdown"] for j in jobs])


def mode_jobsfile(ndrsim, d):
    t = ring(ndrsim, d)
    jf = os.path.join(d, "jobs.yaml")
    with open(jf, "w") as f:
        f.write("jobs:\n  - trace: ring8.jsonl\n    hosts: [15, 14, 13, 12, 11, 10, 9, 8]\n"
                "  - trace: ring8.jsonl\n")
    out = os.path.join(d, "out")
    run(ndrsim, ["run", "--jobs", jf] + FABRIC + ["-q", "--out", out])
    r = report(out)
    jobs = r["jobs"]
    if jobs[0]["hosts"] != list(range(15, 7, -1)) or jobs[1]["hosts"] != list(range(8)):
        fail(f"hosts {jobs[0]['hosts']} {jobs[1]['hosts']}")
    if len(r["collectives"]) != 2 or jobs[0]["collectives"][0]["comm"] != 0:
        fail("collectives[] should list both jobs' collectives, jobs[] their own comm ids")
    if "alone" in jobs[0]:
        fail("no baseline asked, yet alone reported")
    print("jobsfile: ok")


def mode_background(ndrsim, d):
    path = os.path.join(d, "incast8.jsonl")
    run(ndrsim, ["gen", "background", "--pattern", "incast", "--load", "1", "--ranks", "8",
                 "--bytes", "256KiB", "--duration", "200us", "-o", path])
    ops = [json.loads(l) for l in open(path) if '"type":"op"' in l.replace(" ", "")]
    if len(ops) != 266:
        fail(f"expected 266 writes, got {len(ops)}")
    if any(o["op"] != "rdma_write" or o["peer"] != 0 or o["rank"] == 0 or o["count"] != 262144
           for o in ops):
        fail("every write should go from a rank other than 0 to rank 0, 262144 bytes")
    r1 = [o["issue_ns"] for o in ops if o["rank"] == 1]
    if r1[:3] != [0, 5242, 10485] or len(r1) != 38:
        fail(f"rank 1 issue times {r1[:3]} ({len(r1)} writes)")
    print("background: ok")


def mode_errors(ndrsim, d):
    t = ring(ndrsim, d)
    cases = []

    def jobs_file(name, text):
        p = os.path.join(d, name)
        with open(p, "w") as f:
            f.write(text)
        return p

    overlap = jobs_file("overlap.yaml", "jobs:\n  - trace: ring8.jsonl\n    hosts: [0,1,2,3,4,5,6,7]\n"
                        "  - trace: ring8.jsonl\n    hosts: [7,8,9,10,11,12,13,14]\n")
    cases.append((["run", "--jobs", overlap] + FABRIC,
                  [r"overlap\.yaml:4: jobs\[1\]\.hosts: host 7 is already used by job 0"]))
    short = jobs_file("short.yaml", "jobs:\n  - trace: ring8.jsonl\n    hosts: [0,1]\n")
    cases.append((["run", "--jobs", short] + FABRIC,
                  [r"short\.yaml:2: jobs\[0\]\.hosts: .*2 hosts but the trace .* needs 8"]))
    missing = jobs_file("missing.yaml", "jobs:\n  - trace: nothere.jsonl\n")
    cases.append((["run", "--jobs", missing], [r"missing\.yaml:2: jobs\[0\]\.trace: no such file"]))
    cases.append((["run", t, t, "--hosts", "12"],
                  [r"fabric\.hosts: the jobs need 16 hosts, the fabric has 12"]))
    cases.append((["run", t, t, "--placement", "diagonal"], [r"jobs\.placement"]))
    cases.append((["gen", "background", "--pattern", "incast", "--load", "1.5", "--ranks", "4",
                   "-o", os.path.join(d, "x.jsonl")], [r"--load: 1.5 out of range"]))
    for args, regexes in cases:
        p = run(ndrsim, args, expect_ok=False)
        text = (p.stdout + p.stderr).strip()
        if p.returncode == 0:
            fail(f"{args}: exit 0")
        if len(text.splitlines()) != 1:
            fail(f"{args}: expected one line, got:\n{text}")
        for rx in regexes:
            if not re.search(rx, text):
                fail(f"{args}: {text!r} does not match {rx}")
    print("errors: ok")


def main():
    mode, ndrsim, d = sys.argv[1:4]
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    {"disjoint": mode_disjoint, "shared": mode_shared, "jobsfile": mode_jobsfile,
     "background": mode_background, "errors": mode_errors}[mode](ndrsim, d)


if __name__ == "__main__":
    main()
