#!/usr/bin/env python3
"""Checks for the node-model end-to-end tests (tests/e2e/run_nodes.cmake), issue 17.

Each mode runs ndrsim itself and exits 0 on success, 1 with a message on failure:

  counts NDRSIM OUTDIR       `config show` prints the derived fabric counts: equal to counts
                             derived by hand below, and equal to report.json's `fabric` for a
                             run on the same fabric
  import NDRSIM LOG OUTDIR   `import nccl-log LOG` of 2 nodes x 8 GPUs writes the header
                             placement derived by hand; the trace replays on 2 nodes of 8 GPUs
                             (--preset dgx-h100) and is refused on one-GPU nodes
"""
import json
import os
import re
import subprocess
import sys

TIMEOUT_S = 240


def fail(msg):
    print(f"FAIL: {msg}")
    sys.exit(1)


def run(ndrsim, args, expect=0):
    p = subprocess.run([ndrsim] + args, capture_output=True, text=True, timeout=TIMEOUT_S)
    if p.returncode != expect:
        fail(f"ndrsim {' '.join(args)}: exit {p.returncode}, want {expect}\n"
             f"stdout:\n{p.stdout[-2000:]}\nstderr:\n{p.stderr[-2000:]}")
    return p


def shown_counts(ndrsim, args):
    """The `#   key: value` lines after `# fabric (derived...` in `config show ARGS`."""
    out = run(ndrsim, ["config", "show"] + args).stdout
    lines = out.splitlines()
    try:
        at = next(i for i, l in enumerate(lines) if l.startswith("# fabric (derived"))
    except StopIteration:
        fail(f"config show {' '.join(args)}: no '# fabric (derived' block:\n{out[-1500:]}")
    counts = {}
    for l in lines[at + 1:]:
        m = re.match(r"^#   (\w+): (.*?)(\s+#.*)?$", l)
        if not m:
            break
        v = m.group(2)
        counts[m.group(1)] = int(v) if re.fullmatch(r"\d+", v) else v
    return counts


def expect_counts(label, got, want):
    for k, v in want.items():
        if got.get(k) != v:
            fail(f"{label}: {k} = {got.get(k)!r}, hand-derived {v!r} (all: {got})")


def mode_counts(argv):
    ndrsim, out = argv
    os.makedirs(out, exist_ok=True)
    # dgx-h100: 8 GPUs and 8 HCAs per node, rail_fat_tree, 2 levels, 64-port switches (the ndr
    # defaults), so h = 32 down ports per leaf. 40 nodes: ceil(40 / 32) = 2 node groups, one
    # leaf per rail and group: 2 x 8 = 16 leaves; spines = smallest divisor of 32 that is
    # >= ceil(16 / 2) = 8: 8 spines (4 links to each leaf). 320 GPUs, 320 HCAs, 24 switches.
    expect_counts("dgx-h100, 40 nodes", shown_counts(ndrsim, ["--preset", "dgx-h100", "--nodes", "40"]),
                  {"nodes": 40, "gpus_per_node": 8, "gpus": 320, "hcas_per_node": 8, "hcas": 320,
                   "rails": 8, "leaves": 16, "spines": 8, "cores": 0, "switches": 24,
                   "levels": 2, "tiers": 2})
    # 3 levels of 8-port switches (h = 4), 8 nodes: 2 groups x 8 rails = 16 leaves; pods of
    # h = 4 leaves: 4 pods, aggregations per pod = smallest divisor of 4 >= min(16, 4) = 4, so
    # 16; cores per aggregation index = smallest divisor of 4 >= ceil(4 / 2) = 2, 4 x 2 = 8
    # cores. 64 GPUs, 40 switches.
    expect_counts("dgx-h100, 8 nodes, 3 levels",
                  shown_counts(ndrsim, ["--preset", "dgx-h100", "--nodes", "8", "--set",
                                        "switch.ports=8", "--set", "fabric.levels=3"]),
                  {"nodes": 8, "gpus": 64, "hcas": 64, "rails": 8, "leaves": 16, "spines": 16,
                   "cores": 8, "switches": 40, "levels": 3, "tiers": 3})
    # Single-GPU nodes, fat_tree of 8-port switches, 16 hosts: h = 4, 4 leaves; spines =
    # smallest divisor of 4 >= 2 = 2 (README's "4 leaves, 2 spines"); one rail.
    expect_counts("fat_tree, 16 hosts",
                  shown_counts(ndrsim, ["--set", "fabric.topology=fat_tree", "--set",
                                        "switch.ports=8", "--set", "fabric.hosts=16"]),
                  {"nodes": 16, "gpus_per_node": 1, "gpus": 16, "hcas": 16, "rails": 1,
                   "leaves": 4, "spines": 2, "switches": 6, "levels": 2})
    # Without a host count the fabric is the trace's: a hint, no counts.
    show = run(ndrsim, ["config", "show"]).stdout
    if "# fabric: sized by the trace" not in show:
        fail(f"config show without hosts: no hint line:\n{show[-500:]}")

    # A run on 4 nodes x 8 GPUs (dgx-h100): report.json's fabric equals config show --nodes 4,
    # and the hand count: 1 group x 8 rails = 8 leaves, spines = smallest divisor of 32 >= 4.
    trace = os.path.join(out, "ar32.jsonl")
    run(ndrsim, ["gen", "collective", "--op", "allreduce", "--nodes", "4", "--gpus-per-node", "8",
                 "--bytes", "256KiB", "--algo", "ring", "-o", trace])
    rdir = os.path.join(out, "run32")
    run(ndrsim, ["run", trace, "--preset", "dgx-h100", "--out", rdir, "-q"])
    with open(os.path.join(rdir, "report.json")) as f:
        fab = json.load(f)["fabric"]
    shown = shown_counts(ndrsim, ["--preset", "dgx-h100", "--nodes", "4"])
    expect_counts("dgx-h100, 4 nodes", shown,
                  {"nodes": 4, "gpus": 32, "hcas": 32, "rails": 8, "leaves": 8, "spines": 4,
                   "levels": 2})
    report_keys = {"nodes": "nodes", "gpus_per_node": "gpus_per_node", "gpus": "gpus",
                   "hcas_per_node": "hcas_per_node", "hcas": "hcas", "rails": "rails",
                   "leaves": "leaves", "spines": "spines", "levels": "levels",
                   "switches": "switches", "topology": "topology"}
    for shown_key, rep_key in report_keys.items():
        if fab.get(rep_key) != shown.get(shown_key):
            fail(f"report.json fabric.{rep_key} = {fab.get(rep_key)!r}, config show says "
                 f"{shown.get(shown_key)!r}")
    if "cores" in fab:
        fail(f"2-level report.json fabric has cores: {fab}")
    print("OK: config show counts = hand-derived = report.json fabric")


def mode_import(argv):
    ndrsim, log, out = argv
    os.makedirs(out, exist_ok=True)
    trace = os.path.join(out, "dgx.jsonl")
    p = run(ndrsim, ["import", "nccl-log", log, "-o", trace])
    if "placement: 16 ranks on 2 nodes (hosts), GPU indices 0..7" not in p.stdout:
        fail(f"import: no placement line:\n{p.stdout}")
    with open(trace) as f:
        header = next(json.loads(l) for l in f if l.strip() and not l.startswith("#"))
    # The log (tests/data/nccl/dgx_2nodes_8gpus.log): ranks 0..7 on host dgx-b (nvmlDev r),
    # ranks 8..15 on dgx-a (nvmlDev r - 8); node 0 is rank 0's host.
    want = [[0 if r < 8 else 1, r % 8] for r in range(16)]
    if header.get("placement") != want:
        fail(f"placement {header.get('placement')}, hand-derived {want}")
    # Replayed on 8-GPU nodes: 2 nodes, 16 GPUs, 16 HCAs (not 16 single-GPU hosts).
    rdir = os.path.join(out, "run")
    run(ndrsim, ["run", trace, "--preset", "dgx-h100", "--out", rdir, "-q"])
    with open(os.path.join(rdir, "report.json")) as f:
        fab = json.load(f)["fabric"]
    for k, v in {"nodes": 2, "gpus_per_node": 8, "gpus": 16, "hcas": 16}.items():
        if fab.get(k) != v:
            fail(f"replay: fabric.{k} = {fab.get(k)!r}, want {v} ({fab})")
    # On one-GPU nodes (the default) the placement is refused, naming the trace and the field.
    p = run(ndrsim, ["run", trace, "-q"], expect=2)
    if not re.search(r"dgx\.jsonl:1: placement\[1\]: gpu 1 out of range", p.stderr + p.stdout):
        fail(f"replay with node.gpus = 1: unexpected message:\n{p.stderr}{p.stdout}")
    # --no-placement: one host per rank, no placement in the header.
    flat = os.path.join(out, "flat.jsonl")
    p = run(ndrsim, ["import", "nccl-log", log, "-o", flat, "--no-placement"])
    if "placement:" in p.stdout:
        fail(f"--no-placement printed a placement:\n{p.stdout}")
    with open(flat) as f:
        header = next(json.loads(l) for l in f if l.strip() and not l.startswith("#"))
    if "placement" in header:
        fail(f"--no-placement wrote a placement: {header}")
    print("OK: imported placement = hand-derived; replays on 2 nodes x 8 GPUs")


def main():
    modes = {"counts": mode_counts, "import": mode_import}
    if len(sys.argv) < 2 or sys.argv[1] not in modes:
        fail(f"usage: nodes_check.py {'|'.join(modes)} ARGS...")
    modes[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    main()
