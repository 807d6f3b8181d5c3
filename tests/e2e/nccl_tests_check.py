#!/usr/bin/env python3
"""End-to-end checks of `ndrsim nccl-tests` (docs/nccl_tests.md).

  nccl_tests_check.py table NDRSIM
      all_reduce_perf on 4 GPUs: the header and column lines are nccl-tests 2.13's, formatted
      here with Python's printf from the format strings of nccl-tests' src/common.cu; one row
      per size of -b/-e/-f (and of -b/-e/-i); every row has nccl-tests' fixed column layout,
      count = size / 4, algbw = size / time and busbw = algbw x 2(n-1)/n recomputed from the
      printed time; `# Avg bus bandwidth` is the mean of every printed busbw, out-of-place and
      in-place (nccl-tests adds both passes to its average).
  nccl_tests_check.py factors NDRSIM
      every binary on 4 GPUs: count, redop and root columns as nccl-tests prints them, and
      busbw / algbw = the factor of nccl-tests' src/*.cu GetBw for n = 4.
  nccl_tests_check.py ring NDRSIM
      all_reduce_perf of 256 MiB on one dgx-h100 node of 8 GPUs: busbw within 10 % of the
      preset's NVLink bandwidth per GPU and direction (450 GB/s, node.nvlink_bandwidth 3.6 Tbps):
      a ring allreduce moves 2(n-1)/n x S over each GPU's link, which is what busbw undoes.
  nccl_tests_check.py rails NDRSIM
      all_reduce_perf of 128 MiB on 2 dgx-h100 nodes (16 GPUs, 8 NDR rails) with nccl.algo=ring
      (NCCL_ALGO=Ring; NCCL's tuner picks NVLSTree there): with the default nccl.channels (auto:
      one ring per rail) busbw is within 5 % of 8 x 50 GB/s (8 NICs of 400 Gb/s: each rail
      carries one ring's 2(n-1)/n x S/8 each way); with nccl.channels=1 one ring crosses one
      rail, so within 5 % of 50 GB/s.
  nccl_tests_check.py error NDRSIM CODE REGEX -- ARGS...
      the command exits CODE with exactly one line of output matching REGEX.
"""
import re
import subprocess
import sys

# nccl-tests src/common.cu (2.13), printf format strings of the table.
HDR1 = "# %10s  %12s  %8s  %6s  %6s           out-of-place                       in-place          "
HDR2 = "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s %6s  %7s  %6s  %6s %6s"
HDR3 = "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %5s  %7s  %6s  %6s  %5s"
# A row: "%12li  %12li  %8s  %6s  %6s" then per pass "  %7s  %6.2f  %6.2f  %5g" (or %5s N/A).
ROW = re.compile(r"^([ \d]{12})  ([ \d]{12})  (.{8})  (.{6})  (.{6})"
                 r"  (.{7})  (.{6})  (.{6})  (.{5})  (.{7})  (.{6})  (.{6})  (.{5})$")


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def run(ndrsim, args):
    p = subprocess.run([ndrsim] + args, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def table(ndrsim, args):
    code, so, se = run(ndrsim, ["nccl-tests"] + args)
    if code != 0:
        fail(f"nccl-tests {' '.join(args)}: exit {code}\n{se}")
    rows, footer, header = [], {}, []
    for line in so.splitlines():
        if line.startswith("#"):
            header.append(line)
            m = re.match(r"# (Out of bounds values|Avg bus bandwidth)\s*: (\S+)", line)
            if m:
                footer[m.group(1)] = m.group(2)
            continue
        m = ROW.match(line)
        if not m:
            fail(f"row does not have nccl-tests' layout: {line!r}")
        f = [g.strip() for g in m.groups()]
        rows.append({"size": int(f[0]), "count": int(f[1]), "type": f[2], "redop": f[3],
                     "root": int(f[4]),
                     "pass": [{"time": float(f[5 + 4 * k]), "algbw": float(f[6 + 4 * k]),
                               "busbw": float(f[7 + 4 * k]), "wrong": f[8 + 4 * k]}
                              for k in (0, 1)]})
    return header, rows, footer


def geometric(lo, hi, f):
    v, s = [], lo
    while s <= hi:
        v.append(s)
        s *= f
    return v


def check_bw(row, factor, label):
    for p in row["pass"]:
        t = p["time"]
        # The printed time has 3-4 significant digits: allow its rounding (half a unit of the
        # last printed digit) plus the 0.005 of the printed bandwidth.
        unit = 1.0 if t >= 10000 else (0.1 if t >= 100 else 0.01)
        alg = row["size"] / t / 1e3
        tol = alg * (unit / 2) / t + 0.006
        if abs(p["algbw"] - alg) > tol:
            fail(f"{label}: size {row['size']}: algbw {p['algbw']} != size/time {alg:.4f}")
        if abs(p["busbw"] - alg * factor) > tol * factor + 0.006:
            fail(f"{label}: size {row['size']}: busbw {p['busbw']} != algbw x {factor:.4f} = "
                 f"{alg * factor:.4f}")


def mode_table(ndrsim):
    n = 4
    header, rows, footer = table(ndrsim, ["all_reduce_perf", "-b", "8", "-e", "256K", "-f",
                                          "4", "-g", str(n), "-n", "3", "-w", "1"])
    want = [HDR1 % ("", "", "", "", ""),
            HDR2 % ("size", "count", "type", "redop", "root", "time", "algbw", "busbw",
                    "#wrong", "time", "algbw", "busbw", "#wrong"),
            HDR3 % ("(B)", "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)",
                    "(GB/s)", "(GB/s)", "")]
    for w in want:
        if w not in header:
            fail(f"header line missing: {w!r}\nheader: {header}")
    first = header[0]
    if first != ("# nThread 1 nGpus 4 minBytes 8 maxBytes 262144 step: 4(factor) warmup iters: "
                 "1 iters: 3 agg iters: 1 validation: 1 graph: 0"):
        fail(f"first line: {first!r}")
    ranks = [h for h in header if h.startswith("#  Rank ")]
    if len(ranks) != n:
        fail(f"{len(ranks)} device lines, want {n}")
    sizes = geometric(8, 256 * 1024, 4)
    if [r["size"] for r in rows] != sizes:
        fail(f"sizes {[r['size'] for r in rows]}, want {sizes}")
    busbws = []
    for r in rows:
        if r["count"] != r["size"] // 4 or r["type"] != "float" or r["redop"] != "sum" \
                or r["root"] != -1:
            fail(f"row columns: {r}")
        check_bw(r, 2 * (n - 1) / n, "all_reduce_perf")
        busbws += [p["busbw"] for p in r["pass"]]
    avg = sum(busbws) / len(busbws)
    if abs(float(footer["Avg bus bandwidth"]) - avg) > 0.006:
        fail(f"Avg bus bandwidth {footer['Avg bus bandwidth']} != mean of the busbw columns "
             f"{avg:.4f}")
    if footer.get("Out of bounds values") != "0":
        fail(f"Out of bounds values: {footer}")
    # -i: step by bytes when -f is 1: 1000, 1500, ..., 3000 (5 rows).
    header, rows, _ = table(ndrsim, ["all_reduce_perf", "-b", "1000", "-e", "3000", "-i", "500",
                                     "-g", "2", "-n", "1", "-w", "0"])
    if [r["size"] for r in rows] != [1000, 1500, 2000, 2500, 3000]:
        fail(f"-i 500 sizes: {[r['size'] for r in rows]}")
    if "step: 500(bytes)" not in header[0]:
        fail(f"-i header: {header[0]!r}")
    print(f"ok: {len(sizes)} rows, layout, bandwidths and Avg bus bandwidth {avg:.4f}")


def mode_factors(ndrsim):
    n = 4
    # (binary, factor, count of size S in float elements, redop, root) per nccl-tests src/*.cu.
    cases = [("all_reduce_perf", 2 * (n - 1) / n, lambda s: s // 4, "sum", -1),
             ("all_gather_perf", (n - 1) / n, lambda s: s // 4 // n, "none", -1),
             ("reduce_scatter_perf", (n - 1) / n, lambda s: s // 4 // n, "sum", -1),
             ("alltoall_perf", (n - 1) / n, lambda s: s // 4 // n, "none", -1),
             ("broadcast_perf", 1.0, lambda s: s // 4, "none", 0),
             ("reduce_perf", 1.0, lambda s: s // 4, "sum", 0),
             ("sendrecv_perf", 1.0, lambda s: s // 4, "sum", -1)]
    for binary, factor, count, redop, root in cases:
        _, rows, _ = table(ndrsim, [binary, "-b", "64K", "-e", "1M", "-f", "4", "-g", str(n),
                                    "-n", "2", "-w", "1"])
        if [r["size"] for r in rows] != [65536, 262144, 1048576]:
            fail(f"{binary}: sizes {[r['size'] for r in rows]}")
        for r in rows:
            if r["count"] != count(r["size"]) or r["redop"] != redop or r["root"] != root:
                fail(f"{binary}: row {r}: want count {count(r['size'])}, redop {redop}, "
                     f"root {root}")
            check_bw(r, factor, binary)
    print(f"ok: {len(cases)} binaries")


def mode_ring(ndrsim):
    _, rows, _ = table(ndrsim, ["all_reduce_perf", "-b", "256M", "-e", "256M", "-g", "8",
                                "--preset", "dgx-h100", "-n", "1", "-w", "0"])
    # node.nvlink_bandwidth x node.nvlink_efficiency of the preset, GB/s per direction:
    # 450 GB/s raw x 0.824 (NCCL's 20.6 GB/s per link) = 370.8
    nvlink = 3.6e12 / 8 / 1e9 * 0.824
    for p in rows[0]["pass"]:
        if abs(p["busbw"] - nvlink) > 0.10 * nvlink:
            fail(f"busbw {p['busbw']} GB/s not within 10 % of NVLink {nvlink} GB/s")
    print(f"ok: busbw {rows[0]['pass'][0]['busbw']} GB/s vs NVLink {nvlink} GB/s")


def mode_rails(ndrsim):
    args = ["all_reduce_perf", "-b", "128M", "-e", "128M", "-g", "8", "--nodes", "2",
            "--preset", "dgx-h100", "-n", "1", "-w", "0", "--set", "nccl.algo=ring"]
    nic = 400e9 / 8 / 1e9  # GB/s of one NDR port
    for extra, want in (([], 8 * nic), (["--set", "nccl.channels=1"], nic)):
        _, rows, _ = table(ndrsim, args + extra)
        got = rows[0]["pass"][0]["busbw"]
        if abs(got - want) > 0.05 * want:
            fail(f"{extra or 'default channels'}: busbw {got} GB/s not within 5 % of {want} GB/s")
        print(f"ok: {extra or 'default channels'}: busbw {got} GB/s vs {want} GB/s")


def mode_error(argv):
    if "--" not in argv:
        fail("usage: error NDRSIM CODE REGEX -- ARGS...")
    i = argv.index("--")
    ndrsim, want, rx = argv[0], int(argv[1]), argv[2]
    code, so, se = run(ndrsim, argv[i + 1:])
    lines = [l for l in (so + se).splitlines() if l.strip()]
    if code != want:
        fail(f"exit {code}, want {want}; output: {lines}")
    if len(lines) != 1:
        fail(f"want exactly one line of output, got {len(lines)}: {lines}")
    if not re.search(rx, lines[0]):
        fail(f"output {lines[0]!r} does not match {rx!r}")
    print(f"ok: exit {code}: {lines[0]}")


def main():
    modes = {"table": mode_table, "factors": mode_factors, "ring": mode_ring, "rails": mode_rails}
    if len(sys.argv) >= 3 and sys.argv[1] in modes:
        modes[sys.argv[1]](sys.argv[2])
    elif len(sys.argv) >= 3 and sys.argv[1] == "error":
        mode_error(sys.argv[2:])
    else:
        fail("usage: nccl_tests_check.py table|factors|ring|rails NDRSIM | error NDRSIM CODE RX -- ARGS")


if __name__ == "__main__":
    main()
