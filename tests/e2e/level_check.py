#!/usr/bin/env python3
"""End-to-end checks of the level dispatcher, config key sim.level (flag --level), on every
command that simulates (tests/e2e/level.cmake).

  level_check.py MODE NDRSIM REPO WORKDIR
MODE:
  compare  `compare T --preset ndr --preset hdr --level tlm`: both presets run at the TLM level
           (report presets[].sim.level), and for messages of 4 MiB and more HDR (200 Gb/s) takes
           1.8x to 2.1x the NDR (400 Gb/s) time: halving the link rate doubles a
           bandwidth-bound time, less the fixed latencies.
  validate `validate --quick --level tlm`: exit 0, validation.json says level tlm and has a
           result for every scenario.
  sweep    tests/sweep/levels.yaml (axis sim.level: cycle, tlm, rtl): cycle and tlm done with
           spans within 1 % of each other (docs/fidelity_tlm.md: one switch, no congestion),
           rtl recorded as failed with the one-line reason.
  order    traces/sharp_compare_fat_tree.jsonl (ring, tree and SHARP, 32 ranks) at the TLM
           level: exit 0 and every posted message delivered, with the same message and byte
           counts as the cycle level (they are the schedule's, not the timing's). Before the
           express-ACK ordering fix (tlm/ib_switch_tlm.cpp) an ACK overtook an older ACK of its
           flow in the switch and the run stopped on "ACK for PSN ... out of window".
  refuse   `run --level rtl` and `traffic --level tlm --preset roce-400g`: exit 2, one line
           `ndrsim: error: sim.level: ...`, or `ndrsim: error: --level sim.level: ...` where
           the refusal names the flag that set the level (traffic).
"""
import json, os, shutil, sqlite3, subprocess, sys

ENV = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def run(args, ok=(0,)):
    p = subprocess.run(args, capture_output=True, text=True, timeout=240, env=ENV)
    if p.returncode not in ok:
        fail(f"{' '.join(args)} exited {p.returncode}\n{p.stdout}\n{p.stderr}")
    return p


def mode_compare(nd, repo, work):
    out = os.path.join(work, "cmp")
    run([nd, "compare", f"{repo}/traces/allreduce_ring_tree_8.jsonl", "--preset", "ndr",
         "--preset", "hdr", "--level", "tlm", "--out", out])
    rep = json.load(open(os.path.join(out, "report.json")))
    for p in rep["presets"]:
        if p["sim"].get("level") != "tlm":
            fail(f"preset {p['name']} did not run at the TLM level: {p['sim']}")
    n = 0
    for c in rep["collectives"]:
        if c["bytes"] < 4 << 20:
            continue
        t = [x["time_ns"] for x in c["per_preset"]]
        r = t[1] / t[0]
        if not 1.8 <= r <= 2.1:
            fail(f"{c['op']} {c['bytes']} B: HDR/NDR time ratio {r:.3f} outside 1.8..2.1")
        n += 1
    if n == 0:
        fail("no collective of 4 MiB or more in the report")
    print(f"compare: 2 presets at the TLM level, {n} large collectives with HDR/NDR in 1.8..2.1")


def mode_validate(nd, repo, work):
    out = os.path.join(work, "val")
    p = run([nd, "validate", "--quick", "--level", "tlm", "--out", out])
    if "--level tlm" not in p.stdout.splitlines()[0]:
        fail(f"first line does not name the level: {p.stdout.splitlines()[0]}")
    rep = json.load(open(os.path.join(out, "validation.json")))
    if rep.get("level") != "tlm":
        fail(f"validation.json level: {rep.get('level')}")
    bad = [s["name"] for s in rep["scenarios"] if s["result"] not in ("pass", "fail")]
    if bad or not rep["scenarios"]:
        fail(f"scenarios without a result: {bad}")
    print(f"validate: {len(rep['scenarios'])} scenarios at the TLM level")


def mode_sweep(nd, repo, work):
    db = os.path.join(work, "levels.db")
    run([nd, "sweep", f"{repo}/tests/sweep/levels.yaml", "--db", db, "-j", "2"], ok=(1,))
    con = sqlite3.connect(db)
    got = {json.loads(pr)["sim.level"]: (s, e, span)
           for pr, s, e, span in con.execute("SELECT params, status, error, span_us FROM points")}
    con.close()
    for lv in ("cycle", "tlm"):
        if got[lv][0] != "done" or not got[lv][2]:
            fail(f"{lv} point: {got[lv]}")
    rel = abs(got["tlm"][2] / got["cycle"][2] - 1)
    if rel > 0.01:
        fail(f"tlm span {got['tlm'][2]} vs cycle {got['cycle'][2]}: {rel:.2%} apart")
    s, e, _ = got["rtl"]
    if s != "failed" or not (e or "").startswith("sim.level: rtl: trace replay needs HCAs"):
        fail(f"rtl point: {s} {e}")
    print(f"sweep: cycle and tlm done ({rel:.3%} apart), rtl refused: {e}")


def mode_order(nd, repo, work):
    hca = {}
    for level in ("cycle", "tlm"):
        out = os.path.join(work, level)
        shutil.rmtree(out, ignore_errors=True)
        run([nd, "run", f"{repo}/traces/sharp_compare_fat_tree.jsonl", "--level", level, "-q",
             "--out", out])
        h = json.load(open(os.path.join(out, "report.json")))["hca"]
        if h["messages_delivered"] != h["messages_posted"]:
            fail(f"{level}: {h['messages_delivered']} of {h['messages_posted']} messages delivered")
        hca[level] = (h["messages_delivered"], h["payload_bytes_delivered"])
    if hca["tlm"] != hca["cycle"]:
        fail(f"TLM delivered {hca['tlm']} (messages, bytes), the cycle level {hca['cycle']}")
    print(f"order: TLM and cycle level both delivered {hca['tlm'][0]} messages, {hca['tlm'][1]} B")


def mode_refuse(nd, repo, work):
    cases = [
        ["run", f"{repo}/traces/allreduce_ring_tree_8.jsonl", "--level", "rtl", "-q"],
        ["traffic", "--level", "tlm", "--preset", "roce-400g", "-q"],
        ["compare", f"{repo}/traces/allreduce_ring_tree_8.jsonl", "--preset", "roce-400g",
         "--level", "tlm"],
    ]
    for args in cases:
        p = run([nd] + args, ok=(2,))
        lines = p.stderr.strip().splitlines()
        if len(lines) != 1 or not (lines[0].startswith("ndrsim: error: sim.level: ") or
                                   lines[0].startswith("ndrsim: error: --level sim.level: ")):
            fail(f"{' '.join(args)}: expected one 'ndrsim: error: sim.level: ' line, got {lines}")
    print(f"refuse: {len(cases)} commands refused in one line with exit 2")


def main():
    mode, nd, repo, work = sys.argv[1:5]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    modes = {"compare": mode_compare, "validate": mode_validate, "sweep": mode_sweep,
             "order": mode_order, "refuse": mode_refuse}
    if mode not in modes:
        fail(f"unknown mode {mode!r}")
    modes[mode](nd, repo, work)


if __name__ == "__main__":
    main()
