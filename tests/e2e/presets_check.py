#!/usr/bin/env python3
"""End-to-end checks of config presets, `ndrsim compare` and `ndrsim validate`.

  presets_check.py presets  NDRSIM OUTDIR PRESET_DIR
      `config presets` lists ndr/hdr/xdr/edr with a description; `config show --preset X`
      prints the `# preset:` and `# soft:` header and the preset's link.rate, from any working
      directory (the presets are embedded); every key of the preset file matches `config show`;
      precedence preset < --config < --set; unknown preset exits 2; `run` and `traffic`
      accept --preset.
  presets_check.py compare  NDRSIM OUTDIR
      a generated trace on ndr, hdr, edr: exit 0, report.json per collective and total with one
      entry per preset, first preset's diff 0, CSV rows, large ring slower on hdr than on ndr.
  presets_check.py roce     NDRSIM OUTDIR
      `--preset roce-400g` end to end (docs/roce.md): compare against ndr (ring slower on RoCE:
      larger frames, slower switch; SHARP falls back to a host algorithm), run report has the
      RoCE sections and the fallback reason, an incast on `traffic` pauses without loss, and
      `traffic --level tlm` and `run --level tlm` are refused (exit 2).
  presets_check.py validate NDRSIM OUTDIR
      `validate --quick --out OUTDIR` exits 0 within 60 s; validation.md and validation.json
      exist; every scenario has a model value, an error and pass/fail, and is in the markdown;
      at most two scenarios are outside the strict set, each with its reason beside it in the
      markdown; every failure is printed as a FAIL line on stderr; `--strict` exits 1 exactly
      when a strict-set scenario fails.
"""
import csv
import json
import os
import subprocess
import sys
import time


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def run(args, cwd=None, expect=0):
    p = subprocess.run(args, cwd=cwd, capture_output=True, text=True)
    if expect is not None and p.returncode != expect:
        fail(f"{' '.join(args)}: exit {p.returncode}, expected {expect}\n{p.stdout}\n{p.stderr}")
    return p


def yaml_value(show, key):
    """Value of dotted `key` in `config show` output (section: / two-space key: value # ...)."""
    section, field = key.split(".", 1)
    cur = None
    for line in show.splitlines():
        if not line.startswith(" ") and line.endswith(":"):
            cur = line[:-1]
        elif cur == section and line.strip().startswith(field + ":"):
            return line.split(":", 1)[1].split("#", 1)[0].strip().strip('"')
    return None


def preset_keys(path):
    """(key, value) pairs of a preset file: two-level `section:` / `  key: value  # comment`."""
    out, cur = [], None
    for line in open(path, encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        if not line.startswith(" "):
            cur = line.split(":", 1)[0].strip()
            continue
        k, v = line.split(":", 1)
        out.append((cur + "." + k.strip(), v.split("#", 1)[0].strip()))
    return out


def check_presets(ndrsim, outdir, preset_dir):
    os.makedirs(outdir, exist_ok=True)
    lst = run([ndrsim, "config", "presets"], cwd="/").stdout
    for name in ("ndr", "hdr", "xdr", "edr", "roce-400g"):
        if not any(l.split()[:1] == [name] and len(l.split()) > 2 for l in lst.splitlines()):
            fail(f"config presets does not list {name} with a description:\n{lst}")
        show = run([ndrsim, "config", "show", "--preset", name], cwd="/").stdout
        if f"# preset: {name}" not in show or "# soft:" not in show:
            fail(f"config show --preset {name}: missing the preset/soft header:\n{show[:800]}")
        for key, value in preset_keys(os.path.join(preset_dir, name + ".yaml")):
            got = yaml_value(show, key)
            if got != value:
                fail(f"preset {name}: {key} is {got!r} in config show, {value!r} in the file")
    rate = lambda out: yaml_value(out, "link.rate")
    if rate(run([ndrsim, "config", "show", "--preset", "edr"]).stdout) != "100Gbps":
        fail("edr link.rate is not 100Gbps")
    cfg = os.path.join(outdir, "over.yaml")
    with open(cfg, "w") as f:
        f.write("switch:\n  ports: 8\nlink.rate: 200Gbps\n")
    out = run([ndrsim, "config", "show", "--preset", "edr", "--config", cfg]).stdout
    if yaml_value(out, "switch.ports") != "8" or rate(out) != "200Gbps":
        fail("--config does not override the preset")
    if yaml_value(out, "sharp.ost_bytes") != "256B":
        fail("preset value lost under --config")
    out = run([ndrsim, "config", "show", "--preset", "edr", "--config", cfg,
               "--set", "link.rate=400Gbps"]).stdout
    if rate(out) != "400Gbps":
        fail("--set does not override --config over a preset")
    p = run([ndrsim, "config", "show", "--preset", "nope"], expect=2)
    if "unknown preset" not in p.stderr:
        fail(f"unknown preset message: {p.stderr}")
    trace = os.path.join(outdir, "t.jsonl")
    run([ndrsim, "gen", "collective", "--op", "allreduce", "--ranks", "4", "--bytes", "64KiB",
         "--algo", "ring", "--algo", "sharp", "-o", trace])
    run([ndrsim, "run", trace, "--preset", "hdr", "--out", os.path.join(outdir, "run")])
    rep = json.load(open(os.path.join(outdir, "run", "report.json")))
    if rep["config"]["link.rate"] != "200Gbps" or rep["config"]["switch.ports"] != "40":
        fail("run --preset hdr: report config is not HDR")
    run([ndrsim, "traffic", "--preset", "edr", "--set", "sim.warmup_cycles=100",
         "--set", "sim.measure_cycles=1000", "--set", "traffic.load=0.2",
         "--out", os.path.join(outdir, "traffic")])
    rep = json.load(open(os.path.join(outdir, "traffic", "report.json")))
    if rep["config"]["switch.ports"] != "36":
        fail("traffic --preset edr: not 36 ports")


def check_compare(ndrsim, outdir):
    os.makedirs(outdir, exist_ok=True)
    trace = os.path.join(outdir, "t.jsonl")
    run([ndrsim, "gen", "collective", "--op", "allreduce", "--ranks", "8",
         "--bytes", "4KiB:4MiB:32", "--algo", "ring", "--algo", "sharp", "-o", trace])
    presets = ["ndr", "hdr", "edr"]
    args = [ndrsim, "compare", trace, "--out", os.path.join(outdir, "out")]
    for p in presets:
        args += ["--preset", p]
    out = run(args).stdout
    if "dtime%" not in out or "total (span)" not in out:
        fail(f"compare table:\n{out}")
    rep = json.load(open(os.path.join(outdir, "out", "report.json")))
    if [p["name"] for p in rep["presets"]] != presets:
        fail("report presets")
    if len(rep["collectives"]) != 6:  # 4 KiB, 128 KiB, 4 MiB x ring, sharp
        fail(f"expected 6 collectives, got {len(rep['collectives'])}")
    for c in rep["collectives"] + [rep["totals"]]:
        per = c["per_preset"]
        if [e["preset"] for e in per] != presets:
            fail(f"per_preset order: {per}")
        if per[0]["time_diff_pct"] != 0 or per[0]["time_ns"] <= 0:
            fail(f"base entry: {per[0]}")
        for e in per:
            want = (e["time_ns"] - per[0]["time_ns"]) / per[0]["time_ns"] * 100
            if abs(e["time_diff_pct"] - want) > 1e-6:
                fail(f"time_diff_pct: {e}")
    big_ring = rep["collectives"][2]["per_preset"]
    if not big_ring[1]["time_ns"] > big_ring[0]["time_ns"]:
        fail("4 MiB ring should take longer at 200G (hdr) than at 400G (ndr)")
    rows = list(csv.DictReader(open(os.path.join(outdir, "out", "compare.csv"))))
    if len(rows) != (6 + 1) * len(presets):
        fail(f"CSV rows: {len(rows)}")


def check_roce(ndrsim, outdir):
    os.makedirs(outdir, exist_ok=True)
    trace = os.path.join(outdir, "t.jsonl")
    run([ndrsim, "gen", "collective", "--op", "allreduce", "--ranks", "8",
         "--bytes", "1MiB", "--algo", "ring", "--algo", "sharp", "-o", trace])
    run([ndrsim, "compare", trace, "--preset", "ndr", "--preset", "roce-400g",
         "--out", os.path.join(outdir, "cmp")])
    rep = json.load(open(os.path.join(outdir, "cmp", "report.json")))
    ring, sharp = rep["collectives"][0]["per_preset"], rep["collectives"][1]["per_preset"]
    if ring[0]["algo"] != "ring" or not ring[1]["time_ns"] > ring[0]["time_ns"]:
        fail(f"1 MiB ring should be slower on roce-400g than on ndr: {ring}")
    if sharp[0]["algo"] != "sharp" or sharp[1]["algo"] == "sharp":
        fail(f"SHARP on ndr, a host algorithm on roce-400g expected: {sharp}")
    run([ndrsim, "run", trace, "--preset", "roce-400g", "--out", os.path.join(outdir, "run")])
    rep = json.load(open(os.path.join(outdir, "run", "report.json")))
    if rep["config"]["fabric.technology"] != "roce":
        fail("run --preset roce-400g: fabric.technology is not roce")
    if "roce" not in rep["hca"] or any("roce" not in s for s in rep["switches"]):
        fail("run report without the roce sections")
    fb = [c.get("fallback", "") for c in rep["collectives"] if c["algo_requested"] == "sharp"]
    if not fb or "roce" not in fb[0]:
        fail(f"SHARP fallback reason missing: {fb}")
    if rep["hca"]["retransmitted_packets"] != 0:
        fail("retransmissions on a lossless RoCE fabric")
    run([ndrsim, "traffic", "--preset", "roce-400g", "--set", "switch.ports=8",
         "--set", "traffic.pattern=incast", "--set", "traffic.load=1",
         "--set", "sim.warmup_cycles=1000", "--set", "sim.measure_cycles=20000",
         "--out", os.path.join(outdir, "traffic")])
    pt = json.load(open(os.path.join(outdir, "traffic", "report.json")))["points"][0]
    if pt["packets"]["dropped"] != 0:
        fail("incast under PFC dropped packets")
    if pt["roce"]["pfc"]["pause_sent"] == 0 or pt["roce"]["endpoints_pfc"]["pause_received"] == 0:
        fail(f"incast under PFC sent no PAUSE: {pt['roce']['pfc']}")
    p = run([ndrsim, "traffic", "--preset", "roce-400g", "--level", "tlm"], expect=2)
    if "cycle level only" not in p.stderr:
        fail(f"--level tlm with roce: {p.stderr}")
    p = run([ndrsim, "run", trace, "--preset", "roce-400g", "--level", "tlm"], expect=2)
    if "cycle level only" not in p.stderr:
        fail(f"run --level tlm with roce: {p.stderr}")


def check_validate(ndrsim, outdir):
    t0 = time.monotonic()
    p = run([ndrsim, "validate", "--quick", "--out", outdir])
    took = time.monotonic() - t0
    if took > 60:
        fail(f"validate --quick took {took:.1f} s (> 60 s)")
    md = open(os.path.join(outdir, "validation.md"), encoding="utf-8").read()
    rep = json.load(open(os.path.join(outdir, "validation.json")))
    scs = rep["scenarios"]
    if len(scs) < 5:
        fail(f"only {len(scs)} scenarios")
    names = {s["name"] for s in scs}
    for need in ("ring_allreduce_busbw_ndr", "sharp_v1_allreduce_8B_latency",
                 "host_allreduce_8B_latency", "sharp_v1_allreduce_4KiB_latency",
                 "host_allreduce_4KiB_latency", "hca_small_message_latency"):
        if need not in names:
            fail(f"scenario {need} missing")
    for s in scs:
        if s["result"] not in ("pass", "fail"):
            fail(f"{s['name']}: result {s['result']} ({s.get('error')})")
        for k in ("model", "rel_error_pct", "tolerance_pct"):
            if not isinstance(s.get(k), (int, float)):
                fail(f"{s['name']}: {k} missing")
        if not s["published"]["source"].startswith("docs/domain.md"):
            fail(f"{s['name']}: source {s['published']['source']}")
        want = abs(s["rel_error_pct"]) <= s["tolerance_pct"]
        if (s["result"] == "pass") != want:
            fail(f"{s['name']}: result disagrees with error/tolerance")
        if f"`{s['name']}`" not in md:
            fail(f"{s['name']} not in validation.md")
        loud = f"FAIL {s['name']}" in p.stderr
        if (s["result"] == "fail") != loud:
            fail(f"{s['name']}: result {s['result']} but FAIL line {'' if loud else 'not '}"
                 f"printed:\n{p.stderr}")
        if not isinstance(s.get("strict"), bool):
            fail(f"{s['name']}: strict missing")
        if not s["strict"] and (len(s.get("not_strict_reason", "")) < 40 or
                                s["not_strict_reason"] not in md):
            fail(f"{s['name']}: outside the strict set without its reason in validation.md")
    out_of_strict = [s["name"] for s in scs if not s["strict"]]
    if len(out_of_strict) > 2:
        fail(f"more than two scenarios outside the strict set: {out_of_strict}")
    strict_fail = sum(1 for s in scs if s["strict"] and s["result"] == "fail")
    if rep["summary"]["strict_fail"] != strict_fail:
        fail(f"summary strict_fail {rep['summary']['strict_fail']}, counted {strict_fail}")
    run([ndrsim, "validate", "--quick", "--strict"], expect=1 if strict_fail else 0)
    print(f"validate --quick: {len(scs)} scenarios in {took:.1f} s, {strict_fail} strict failures")


def main():
    if len(sys.argv) < 4:
        fail(__doc__)
    mode, ndrsim, outdir = sys.argv[1], sys.argv[2], sys.argv[3]
    if mode == "presets":
        check_presets(ndrsim, outdir, sys.argv[4])
    elif mode == "compare":
        check_compare(ndrsim, outdir)
    elif mode == "roce":
        check_roce(ndrsim, outdir)
    elif mode == "validate":
        check_validate(ndrsim, outdir)
    else:
        fail(f"unknown mode {mode}")
    print("OK")


if __name__ == "__main__":
    main()
