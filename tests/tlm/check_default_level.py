#!/usr/bin/env python3
"""`ndrsim run` without --level picks the TLM level above sim.tlm_above_hosts hosts (issue #5).

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
    subprocess.run([ndrsim, "run", trace, "--set", f"sim.tlm_above_hosts={above}", *flags, "-q",
                    "--out", out], check=True)
    with open(os.path.join(out, "report.json")) as f:
        got = json.load(f)["sim"].get("level")
    print(f"sim.tlm_above_hosts={above} {' '.join(flags)}: level {got or 'cycle'}")
    if got != want:
        fail.append(f"tlm_above_hosts={above} {flags}: level {got}, expected {want}")
for f in fail:
    print("FAIL:", f)
sys.exit(1 if fail else 0)
