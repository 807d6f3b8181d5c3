#!/usr/bin/env python3
"""`ndrsim run` without --level, with sim.level_auto=hosts, picks the TLM level above
sim.tlm_above_hosts hosts (issue #5; the rule `auto` followed before issue 19's cost estimate).

usage: check_default_level.py NDRSIM TRACE OUTDIR
The trace has 4 ranks: with sim.tlm_above_hosts=3 the report must say sim.level "tlm", with 4
(not above) and with 0 (never) it must be the cycle level (no sim.level field); --level cycle
overrides the threshold."""
import json
import os
import subprocess
import sys

ndrsim, trace, outdir = sys.argv[1], sys.argv[2], sys.argv[3]
fail = []
for above, flags, want in (("3", [], "tlm"), ("4", [], None), ("0", [], None),
                           ("3", ["--level", "cycle"], None), ("1000", ["--level", "tlm"], "tlm")):
    out = os.path.join(outdir, f"above_{above}_{len(flags)}")
    subprocess.run([ndrsim, "run", trace, "--set", "sim.level_auto=hosts", "--set",
                    f"sim.tlm_above_hosts={above}", *flags, "-q", "--out", out], check=True)
    with open(os.path.join(out, "report.json")) as f:
        sim = json.load(f)["sim"]
    got = sim.get("level")
    rule = sim["level_choice"]["rule"]
    if rule != ("explicit" if flags else "hosts"):
        fail.append(f"tlm_above_hosts={above} {flags}: level_choice.rule {rule}")
    print(f"sim.tlm_above_hosts={above} {' '.join(flags)}: level {got or 'cycle'}")
    if got != want:
        fail.append(f"tlm_above_hosts={above} {flags}: level {got}, expected {want}")
for f in fail:
    print("FAIL:", f)
sys.exit(1 if fail else 0)
