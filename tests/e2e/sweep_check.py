#!/usr/bin/env python3
"""End-to-end checks of `ndrsim sweep`, `ndrsim results` and `ndrsim plot` (tests/e2e/sweep.cmake).

  sweep_check.py MODE NDRSIM SWEEPDIR WORKDIR
MODE: grid | zip | failing | interrupt | results | plot | slurm
Every expectation is computed here independently (itertools grids, sqlite3 reads, PNG headers).
"""
import csv, itertools, json, math, os, shutil, signal, socket, sqlite3, struct, subprocess, sys, time

ENV = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def run(args, ok=(0,), timeout=120):
    p = subprocess.run(args, capture_output=True, text=True, timeout=timeout, env=ENV)
    if p.returncode not in ok:
        fail(f"{' '.join(args)} exited {p.returncode}\n{p.stdout}\n{p.stderr}")
    return p


def rows(db, sql, *a):
    con = sqlite3.connect(db)
    try:
        return con.execute(sql, a).fetchall()
    finally:
        con.close()


def launches(db):
    """Number of processes that ran each point (lines of launches.log), by point_key."""
    d = os.path.join(db + ".d", "points")
    out = {}
    for k in os.listdir(d) if os.path.isdir(d) else []:
        f = os.path.join(d, k, "launches.log")
        out[k] = sum(1 for _ in open(f)) if os.path.exists(f) else 0
    return out


def fresh(work):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    return work


def mode_grid(nd, sd, work):
    db = os.path.join(work, "g.db")
    out = run([nd, "sweep", f"{sd}/grid.yaml", "--db", db, "--dry-run"]).stdout
    if "6 points" not in out:
        fail("dry run does not count 6 points:\n" + out)
    if os.path.exists(db):
        fail("--dry-run created the database")
    p = run([nd, "sweep", f"{sd}/grid.yaml", "--db", db, "-j", "2"])
    got = sorted((json.loads(r[0])["switch.queueing"], json.loads(r[0])["traffic.load"], r[1])
                 for r in rows(db, "SELECT params, status FROM points WHERE sweep_id='grid'"))
    want = sorted((q, l, "done") for q, l in itertools.product(["voq", "fifo"], ["0.2", "0.5", "0.8"]))
    if got != want:
        fail(f"grid rows {got} != {want}")
    keys = [r[0] for r in rows(db, "SELECT point_key FROM points")]
    if len(set(keys)) != 6:
        fail("point keys not distinct")
    for r in rows(db, "SELECT lat_p99_ns, accepted_load, wall_s, seed FROM points"):
        if r[0] is None or not (0 < r[1] <= 1) or r[2] is None or r[3] != 1:
            fail(f"bad metrics row {r}")
    # The accepted load of the DB equals the point's own report.json.
    for k, acc in rows(db, "SELECT point_key, accepted_load FROM points"):
        rep = json.load(open(os.path.join(db + ".d", "points", k, "report.json")))
        if abs(rep["traffic"]["accepted_load"] - acc) > 1e-12:
            fail(f"{k}: DB accepted_load {acc} != report {rep['traffic']['accepted_load']}")
    before = launches(db)
    if sorted(before.values()) != [1] * 6:
        fail(f"expected one launch per point, got {before}")
    p = run([nd, "sweep", f"{sd}/grid.yaml", "--db", db])
    if launches(db) != before or "ran 0 points" not in p.stdout:
        fail("re-running a finished sweep launched points:\n" + p.stdout)
    # Delete two rows' results: a re-run runs exactly those two.
    con = sqlite3.connect(db)
    gone = [r[0] for r in con.execute("SELECT point_key FROM points ORDER BY idx LIMIT 2")]
    con.execute("UPDATE points SET status='pending' WHERE point_key IN (?, ?)", gone)
    con.commit()
    con.close()
    for k in gone:
        os.remove(os.path.join(db + ".d", "points", k, "result.json"))
    run([nd, "sweep", f"{sd}/grid.yaml", "--db", db])
    after = launches(db)
    for k, n in after.items():
        if n != (2 if k in gone else 1):
            fail(f"resume: point {k} launched {n} times")
    print("grid: 6 points, resume runs only the 2 unfinished ones")


def mode_zip(nd, sd, work):
    db = os.path.join(work, "z.db")
    out = run([nd, "sweep", f"{sd}/zip_repeats.yaml", "--db", db, "--dry-run"]).stdout
    if "8 points" not in out:
        fail("expected 8 points:\n" + out)
    run([nd, "sweep", f"{sd}/zip_repeats.yaml", "--db", db])
    got = sorted((json.loads(p)["traffic.load"], json.loads(p)["switch.buffer_per_vl"],
                  json.loads(p)["switch.latency"], json.loads(p)["repeat"], s)
                 for p, s in rows(db, "SELECT params, seed FROM points"))
    want = sorted((l, b, t, r, 1 + r) for l in ["0.3", "0.6"]
                  for b, t in [("8KiB", "200ns"), ("16KiB", "400ns")] for r in [0, 1])
    if got != want:
        fail(f"zip rows {got} != {want}")
    # Repeats differ only in the seed: the two seeds give different results somewhere.
    lat = rows(db, "SELECT json_extract(params,'$.repeat'), lat_mean_ns FROM points")
    if len({round(v, 9) for _, v in lat}) < 2:
        fail("repeats with distinct seeds gave identical latencies everywhere")
    print("zip: 2 x 2 zipped x 2 repeats = 8 points with seeds 1, 2")


def mode_failing(nd, sd, work):
    db = os.path.join(work, "f.db")
    p = run([nd, "sweep", f"{sd}/failing.yaml", "--db", db, "-j", "2"], ok=(1,))
    st = {json.dumps(json.loads(pr), sort_keys=True): (s, e)
          for pr, s, e in rows(db, "SELECT params, status, error FROM points")}
    def get(limit, buf):
        return st[json.dumps({"sim.run_time_limit": limit, "switch.buffer_per_vl": buf}, sort_keys=True)]
    if get("1s", "32KiB")[0] != "done":
        fail("the valid point did not finish")
    s, e = get("2us", "32KiB")
    if s != "failed" or "did not finish within sim.run_time_limit" not in (e or ""):
        fail(f"runtime failure not recorded: {s} {e}")
    for limit in ["1s", "2us"]:
        s, e = get(limit, "4KiB")
        if s != "failed" or "switch.buffer_per_vl" not in (e or "") or "MTU" not in e:
            fail(f"invalid point not recorded: {s} {e}")
    n = rows(db, "SELECT span_us FROM points WHERE status='done'")
    if not n or n[0][0] is None or n[0][0] <= 0:
        fail("done run point has no span_us")
    print("failing: 1 done, 1 runtime failure, 2 invalid, all recorded with their errors")


def wait_done(db, n, timeout):
    t = time.time() + timeout
    while time.time() < t:
        try:
            if rows(db, "SELECT count(*) FROM points WHERE status='done'")[0][0] >= n:
                return
        except sqlite3.Error:
            pass
        time.sleep(0.05)
    fail(f"no {n} finished points within {timeout} s")


def mode_interrupt(nd, sd, work):
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGKILL):
        db = os.path.join(work, f"slow_{sig.name}.db")
        p = subprocess.Popen([nd, "sweep", f"{sd}/slow.yaml", "--db", db, "-j", "2"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
        wait_done(db, 1, 60)
        p.send_signal(sig)
        out, err = p.communicate(timeout=30)
        want = -sig if sig == signal.SIGKILL else 128 + sig
        if p.returncode != want:
            fail(f"{sig.name}: exit {p.returncode}, want {want}\n{out}\n{err}")
        if rows(db, "PRAGMA integrity_check")[0][0] != "ok":
            fail(f"{sig.name}: database not consistent")
        if sig == signal.SIGKILL:
            time.sleep(3)  # orphaned children finish their shards
        st = rows(db, "SELECT point_key, status, lat_mean_ns, wall_s FROM points")
        done = {k for k, s, l, w in st if s == "done"}
        for k, s, l, w in st:
            if s == "done" and (l is None or w is None):
                fail(f"{sig.name}: done point without metrics")
            if s == "pending" and (l is not None or w is not None):
                fail(f"{sig.name}: pending point with metrics")
            if s not in ("done", "pending"):
                fail(f"{sig.name}: point {k} is {s} after the interrupt")
        if not 1 <= len(done) < 6:
            fail(f"{sig.name}: {len(done)} points done; want an interrupted sweep")
        # Every done point has a complete shard; points killed mid-run have none.
        for k, s, _, _ in st:
            shard = os.path.join(db + ".d", "points", k, "result.json")
            if s == "done" and not os.path.exists(shard):
                fail(f"{sig.name}: done point {k} without shard")
        before = launches(db)
        r = run([nd, "sweep", f"{sd}/slow.yaml", "--db", db, "-j", "2"], timeout=120)
        after = launches(db)
        for k in done:
            if after[k] != before[k]:
                fail(f"{sig.name}: finished point {k} was run again")
        if rows(db, "SELECT count(*) FROM points WHERE status='done'")[0][0] != 6:
            fail(f"{sig.name}: resume did not finish the sweep:\n{r.stdout}")
        print(f"{sig.name}: {len(done)} of 6 done at the interrupt, consistent, resumed without re-running them")


def mode_results(nd, sd, work):
    db = os.path.join(work, "r.db")
    run([nd, "sweep", f"{sd}/grid.yaml", "--db", db])
    csvf = os.path.join(work, "r.csv")
    run([nd, "results", db, "--csv", csvf])
    with open(csvf) as f:
        data = list(csv.DictReader(f))
    if len(data) != 6:
        fail(f"CSV has {len(data)} rows")
    for col in ["sweep_id", "point_key", "status", "seed", "switch.queueing", "traffic.load",
                "wall_s", "lat_p99_ns", "accepted_load", "error"]:
        if col not in data[0]:
            fail(f"CSV lacks column {col}")
    db_p99 = {k: v for k, v in rows(db, "SELECT point_key, lat_p99_ns FROM points")}
    for r in data:
        if abs(float(r["lat_p99_ns"]) - db_p99[r["point_key"]]) > 1e-9:
            fail("CSV value differs from the database")
    # Filtered CSV: only fifo rows.
    run([nd, "results", db, "--where", "switch.queueing=fifo", "--csv", csvf])
    with open(csvf) as f:
        data = list(csv.DictReader(f))
    if len(data) != 3 or {r["switch.queueing"] for r in data} != {"fifo"}:
        fail("--where filter wrong")
    out = run([nd, "results", db, "--pivot", "lat_p99_ns", "--rows", "switch.queueing",
               "--cols", "traffic.load"]).stdout.splitlines()
    hdr = out[1].split()
    if hdr != ["switch.queueing", "0.2", "0.5", "0.8"]:
        fail(f"pivot header {hdr}")
    for line in out[2:4]:
        cells = line.split()
        for load, cell in zip(hdr[1:], cells[1:]):
            v = rows(db, "SELECT lat_p99_ns FROM points WHERE json_extract(params,'$.\"switch.queueing\"')=? "
                     "AND json_extract(params,'$.\"traffic.load\"')=?", cells[0], load)[0][0]
            if abs(float(cell) - v) > 1e-6 * max(1.0, abs(v)):
                fail(f"pivot {cells[0]} {load}: {cell} != {v}")
    out = run([nd, "results", db, "--status", "done"]).stdout
    if "6 done" not in out:
        fail("listing:\n" + out)
    print("results: CSV columns and values, --where, pivot = DB values")


def mode_repeats(nd, sd, work):
    """CSV _mean/_ci95/_n columns and the pivot's mean ± CI against values computed here from
    the database: mean, sample standard deviation, t_{0.975,2} = 4.302653 (published table)."""
    import statistics
    db = os.path.join(work, "rep.db")
    run([nd, "sweep", f"{sd}/repeats3.yaml", "--db", db])
    csvf = os.path.join(work, "rep.csv")
    run([nd, "results", db, "--csv", csvf])
    with open(csvf) as f:
        data = list(csv.DictReader(f))
    if len(data) != 6:
        fail(f"CSV has {len(data)} rows")
    t2 = 4.302653
    checked = 0
    for metric in ("lat_mean_ns", "lat_p99_ns", "accepted_load"):
        for load in ("0.3", "0.6"):
            vals = [v for (v,) in rows(db, f"SELECT {metric} FROM points WHERE status='done' AND "
                                       "json_extract(params,'$.\"traffic.load\"')=?", load)]
            if len(vals) != 3:
                fail(f"{metric} at {load}: {len(vals)} done repeats")
            mean = statistics.mean(vals)
            hw = t2 * statistics.stdev(vals) / math.sqrt(3)
            for r in data:
                if r["traffic.load"] != load:
                    continue
                if int(r[f"{metric}_n"]) != 3:
                    fail(f"{metric}_n = {r[metric + '_n']}, want 3")
                if abs(float(r[f"{metric}_mean"]) - mean) > 1e-9 * max(1, abs(mean)):
                    fail(f"{metric}_mean at {load}: {r[metric + '_mean']} != {mean}")
                if abs(float(r[f"{metric}_ci95"]) - hw) > 1e-6 * max(1e-12, hw):
                    fail(f"{metric}_ci95 at {load}: {r[metric + '_ci95']} != {hw}")
                checked += 1
    out = run([nd, "results", db, "--pivot", "lat_mean_ns", "--rows", "traffic.load",
               "--cols", "repeat"]).stdout
    if "±" in out:
        fail("a pivot over repeat cells must show single values:\n" + out)
    listing = run([nd, "results", db]).stdout
    if "over repeats" not in listing:
        fail("listing lacks the repeat summary:\n" + listing)
    for load in ("0.3", "0.6"):
        vals = [v for (v,) in rows(db, "SELECT lat_mean_ns FROM points WHERE "
                                   "json_extract(params,'$.\"traffic.load\"')=?", load)]
        want = f"lat_mean_ns: {statistics.mean(vals):.6g} ± " \
               f"{t2 * statistics.stdev(vals) / math.sqrt(3):.3g} (n=3)"
        if not any(l.strip().startswith(f"traffic.load={load} ") and want in l
                   for l in listing.splitlines()):
            fail(f"listing lacks '{want}' for load {load}:\n" + listing)
    print(f"repeats: {checked} CSV cells = hand-computed mean, t CI, n; listing summarises")


def check_png(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        fail(f"{path} is not a PNG")
    w, h = struct.unpack(">II", head[16:24])
    if w < 300 or h < 200 or os.path.getsize(path) < 10000:
        fail(f"{path}: {w}x{h}, {os.path.getsize(path)} B: too small")


def mode_plot(nd, sd, work):
    db = os.path.join(work, "p.db")
    run([nd, "sweep", f"{sd}/grid.yaml", "--db", db])
    run([nd, "sweep", f"{sd}/failing.yaml", "--db", db], ok=(1,))
    out = os.path.join(work, "plots")
    run([nd, "plot", db, "-o", out, "--y", "accepted_load"])
    want = ["grid_latency_vs_load.png", "grid_throughput_vs_load.png", "grid_heatmap_lat_p99_ns.png",
            "grid_accepted_load_vs_switch.queueing.png", "failing_bandwidth_vs_size.png",
            "failing_heatmap_span_us.png"]
    for f in want:
        p = os.path.join(out, f)
        if not os.path.exists(p):
            fail(f"missing {f}; have {os.listdir(out)}")
        check_png(p)
    print(f"plot: {len(want)} valid PNG files")
    plot_data_with_repeats(nd, work)


def plot_data_with_repeats(nd, work):
    """`ndrsim plot --data` of a 2 x 2 grid with 2 repeats: every heat-map cell and every
    point of a metric-vs-axis figure is the mean ± 95 % Student-t half-width of its two
    repeats, recomputed here from the database with t_{0.975,1} = 12.706205 (published table);
    colours are distinct within a figure and a label has one colour in every figure."""
    import statistics
    sweep = os.path.join(work, "rep2x2.yaml")
    with open(sweep, "w") as f:
        f.write("name: rep2x2\nkind: traffic\nset:\n  switch.ports: 4\n"
                "  sim.warmup_cycles: 500\n  sim.measure_cycles: 2000\n  sim.seed: 3\n"
                "axes:\n  switch.queueing: [voq, fifo]\n  traffic.load: [0.3, 0.6]\n"
                "repeats: 2\n")
    db = os.path.join(work, "rep2x2.db")
    run([nd, "sweep", sweep, "--db", db, "-j", "2"])
    data = os.path.join(work, "rep2x2.json")
    out = os.path.join(work, "rep2x2_plots")
    run([nd, "plot", db, "-o", out, "--y", "lat_p99_ns", "--x", "traffic.load", "--data", data])
    figs = json.load(open(data))
    t1 = 12.706205

    def ref(queueing, load, metric):
        vals = [v for (v,) in rows(db, f"SELECT {metric} FROM points WHERE status='done' AND "
                                   "json_extract(params,'$.\"switch.queueing\"')=? AND "
                                   "json_extract(params,'$.\"traffic.load\"')=?", queueing, load)]
        if len(vals) != 2:
            fail(f"{queueing} {load}: {len(vals)} repeats")
        return statistics.mean(vals), t1 * statistics.stdev(vals) / math.sqrt(2)

    def close(a, b, what):
        if abs(a - b) > 1e-6 * max(1.0, abs(b)):
            fail(f"{what}: plot data {a} != {b} recomputed from the database")

    heat = [f for f in figs if f["type"] == "heatmap"]
    if len(heat) != 1 or "n = 2 repeats" not in heat[0]["title"]:
        fail(f"heat map missing or without the repeats note: {[f.get('title') for f in heat]}")
    h = heat[0]
    cells = 0
    for i, q in enumerate(h["yticklabels"]):
        for j, load in enumerate(h["xticklabels"]):
            mean, hw = ref(q, str(load), "lat_p99_ns")
            close(h["values"][i][j], mean, f"heat map {q} {load} mean")
            if h["errors"][i][j] is None:
                fail(f"heat map {q} {load}: no half-width with 2 repeats")
            close(h["errors"][i][j], hw, f"heat map {q} {load} half-width")
            cells += 1
    line = [f for f in figs if f["file"].endswith("rep2x2_lat_p99_ns_vs_traffic.load.png")]
    if len(line) != 1:
        fail(f"no lat_p99_ns vs traffic.load figure: {[f['file'] for f in figs]}")
    points = 0
    for s in line[0]["panels"][0]["series"]:
        q = s["label"].split("=")[1]
        for x, y, e in zip(s["x"], s["y"], s["err"]):
            mean, hw = ref(q, "%g" % x, "lat_p99_ns")
            close(y, mean, f"{s['label']} at {x}")
            close(e, hw, f"{s['label']} at {x} error bar")
            points += 1
    colour_of = {}
    for f in figs:
        for p in f.get("panels", []):
            cs = [s["colour"] for s in p["series"]]
            labels = [s["label"] for s in p["series"]]
            if len(set(cs)) != len(set(labels)):
                fail(f"{f['file']}: colours {cs} for labels {labels}")
            for s in p["series"]:
                if s["colour"] >= f["ncolours"]:
                    fail(f"{f['file']}: colour {s['colour']} outside a palette of {f['ncolours']}")
                if colour_of.setdefault(s["label"], s["colour"]) != s["colour"]:
                    fail(f"{s['label']} has colours {colour_of[s['label']]} and {s['colour']}")
    if len(colour_of) != 2:
        fail(f"want the two queueing series, have {sorted(colour_of)}")
    print(f"plot --data: {cells} heat-map cells and {points} points match mean ± t-interval "
          f"of 2 repeats; one colour per label in {len(figs)} figures")


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def run_tasks_locally(script, n):
    for i in range(n):
        p = subprocess.run(["bash", script, str(i)], capture_output=True, text=True, timeout=60, env=ENV)
        if p.returncode != 0:
            fail(f"task {i} of {script}: {p.returncode}\n{p.stderr}")


def mode_slurm(nd, sd, work):
    # 1. The array script runs as plain tasks (SLURM_ARRAY_TASK_ID given as argument).
    db = os.path.join(work, "local_tasks.db")
    out = run([nd, "sweep", f"{sd}/grid.yaml", "--db", db, "--backend", "slurm", "--no-submit"]).stdout
    script = os.path.join(db + ".d", "slurm", "grid.sh")
    body = open(script).read()
    if "#SBATCH --array=0-5" not in body:
        fail("array script lacks --array=0-5:\n" + body)
    run_tasks_locally(script, 6)
    o = run([nd, "sweep", f"{sd}/grid.yaml", "--db", db, "--collect"]).stdout
    if rows(db, "SELECT count(*) FROM points WHERE status='done'")[0][0] != 6:
        fail("collect after local tasks:\n" + o)
    print("slurm script: 6 tasks run locally, collected 6 points")
    # 2. A real single-node Slurm cluster on localhost (slurmctld + slurmd, auth/none).
    if shutil.which("slurmctld") is None or shutil.which("slurmd") is None or os.geteuid() != 0:
        print("SKIP real Slurm: slurmctld/slurmd missing or not root")
        return
    sw = os.path.join(work, "slurm")
    os.makedirs(os.path.join(sw, "state"))
    os.makedirs(os.path.join(sw, "spool"))
    host = socket.gethostname().split(".")[0]
    conf = os.path.join(sw, "slurm.conf")
    with open(conf, "w") as f:
        f.write(f"""ClusterName=ndrsimtest
SlurmctldHost={host}(127.0.0.1)
AuthType=auth/none
CredType=cred/none
SlurmUser=root
SlurmdUser=root
SlurmctldPort={free_port()}
SlurmdPort={free_port()}
StateSaveLocation={sw}/state
SlurmdSpoolDir={sw}/spool
SlurmctldPidFile={sw}/slurmctld.pid
SlurmdPidFile={sw}/slurmd.pid
SlurmctldLogFile={sw}/slurmctld.log
SlurmdLogFile={sw}/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName={host} NodeAddr=127.0.0.1 CPUs={os.cpu_count()} State=UNKNOWN
PartitionName=ndrsim Nodes={host} Default=YES MaxTime=10 State=UP
""")
    ENV["SLURM_CONF"] = conf
    daemons = []
    try:
        daemons.append(subprocess.Popen(["slurmctld", "-D", "-i", "-f", conf],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV))
        time.sleep(1)
        daemons.append(subprocess.Popen(["slurmd", "-D", "-f", conf],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV))
        t = time.time() + 30
        while time.time() < t:
            p = subprocess.run(["sinfo", "-h", "-o", "%t"], capture_output=True, text=True, env=ENV, timeout=10)
            if p.stdout.strip() == "idle":
                break
            time.sleep(0.5)
        else:
            fail("single-node Slurm did not come up:\n" + open(os.path.join(sw, "slurmctld.log")).read()[-2000:])
        db = os.path.join(work, "slurm.db")
        o = run([nd, "sweep", f"{sd}/grid.yaml", "--db", db, "--backend", "slurm"]).stdout
        if "submitted job array" not in o:
            fail("no job submitted:\n" + o)
        job = o.split("submitted job array ")[1].split()[0]
        t = time.time() + 60
        while time.time() < t:
            q = subprocess.run(["squeue", "-h", "-j", job], capture_output=True, text=True, env=ENV, timeout=10)
            if q.returncode == 0 and q.stdout.strip() == "":
                break
            time.sleep(0.5)
        else:
            fail(f"job {job} still queued after 60 s")
        o = run([nd, "sweep", f"{sd}/grid.yaml", "--db", db, "--collect"]).stdout
        if rows(db, "SELECT count(*) FROM points WHERE status='done'")[0][0] != 6:
            fail("Slurm collect:\n" + o)
        logs = [f for f in os.listdir(os.path.join(db + ".d", "slurm")) if f.startswith(f"task-{job}_")]
        if len(logs) != 6:
            fail(f"expected 6 Slurm task logs, got {logs}")
        print(f"slurm: job array {job} ran 6 tasks on a single-node cluster, collected 6 points")
    finally:
        for d in reversed(daemons):
            d.terminate()
        for d in daemons:
            try:
                d.wait(timeout=10)
            except subprocess.TimeoutExpired:
                d.kill()


def main():
    if len(sys.argv) != 5:
        fail(__doc__)
    mode, nd, sd, work = sys.argv[1:]
    fresh(work)
    {"grid": mode_grid, "zip": mode_zip, "failing": mode_failing, "interrupt": mode_interrupt,
     "results": mode_results, "repeats": mode_repeats, "plot": mode_plot, "slurm": mode_slurm}[mode](nd, sd, work)


if __name__ == "__main__":
    main()
