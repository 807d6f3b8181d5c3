#!/usr/bin/env python3
"""An RC ACK's wait in the switch, read from pcap captures (issue 16 item 6).

Usage: ack_wait_check.py NDRSIM OUTDIR HOSTS BOUND_CYCLES -- ARGS...

Runs `ndrsim ARGS... --pcap` once per host cable of a single-switch fabric (`hostH->sw0.pH`,
both directions; the runs are deterministic, so they are one run seen on every cable), then
pairs every ACK (BTH opcode 0x11) leaving a host with its copy arriving at the destination host
(same SLID, DLID, destination QP and PSN). For each ACK:

  ready = max(first beat on the sender's uplink + (LINK + SW) cycles,
              end on the destination cable of every earlier packet of the same SLID -> DLID
              flow)   (a VOQ is FIFO: the ACK may not pass its own flow's data)
  excess = first beat on the destination cable - ready, in cycles (1.28 ns)

and fails if any excess is above BOUND_CYCLES (or no ACK was seen). LINK + SW is the zero-load
path from the first beat on the uplink to the first beat on the downlink (docs/architecture.md:
LINK = ceil((100 ns FEC + 3 m x 5 ns/m) / 1.28 ns) = 90, SW = ceil(300 ns / 1.28 ns) = 235; the
cable and latency defaults are asserted by the caller's config). The pcap timestamps are
truncated to whole ns, so 1 cycle of slack is added.
"""
import os
import shutil
import struct
import subprocess
import sys

CYCLE_NS = 1.28
LINK = 90
SW = 235
ACK = 0x11


def fail(msg):
    print(f"FAIL: {msg}")
    sys.exit(1)


def read_pcap(path):
    """Records of a pcap with ERF InfiniBand records (testbench/report/pcap_writer.h)."""
    with open(path, "rb") as f:
        b = f.read()
    if len(b) < 24 or struct.unpack_from("<I", b, 0)[0] != 0xA1B23C4D:
        fail(f"{path}: not a nanosecond pcap")
    at = 24
    out = []
    while at + 16 <= len(b):
        sec, nsec, incl, _ = struct.unpack_from("<IIII", b, at)
        at += 16
        rec = b[at:at + incl]
        at += incl
        pkt = rec[16:]
        out.append({
            "t": sec * 10**9 + nsec,
            "iface": rec[9] & 3,
            "dlid": struct.unpack_from(">H", pkt, 2)[0],
            "slid": struct.unpack_from(">H", pkt, 6)[0],
            "op": pkt[8],
            "qp": int.from_bytes(pkt[13:16], "big"),
            "psn": int.from_bytes(pkt[17:20], "big"),
            "beats": (len(pkt) + 63) // 64,
        })
    return out


def main():
    if "--" not in sys.argv:
        fail("usage: ack_wait_check.py NDRSIM OUTDIR HOSTS BOUND_CYCLES -- ARGS...")
    k = sys.argv.index("--")
    ndrsim, out, hosts, bound = sys.argv[1:k]
    args = sys.argv[k + 1:]
    hosts = int(hosts)
    bound = float(bound)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    sent = {}  # key -> record, on the sender's uplink (interface 0 of its cable)
    arrived = {}  # key -> record, on the destination's downlink (interface 1)
    for h in range(hosts):
        pcap = os.path.join(out, f"host{h}.pcap")
        r = subprocess.run([ndrsim] + args + ["-q", "--out", os.path.join(out, "run"), "--pcap",
                                              pcap, "--pcap-link", f"host{h}->sw0.p{h}"],
                           capture_output=True, text=True, timeout=300)
        if r.returncode != 0:
            fail(f"host {h}: exit {r.returncode}\n{r.stdout}{r.stderr}")
        for p in read_pcap(pcap):
            key = (p["slid"], p["dlid"], p["op"], p["qp"], p["psn"])
            (sent if p["iface"] == 0 else arrived).setdefault(key, p)
    flows = {}
    for key, p in sent.items():
        if key in arrived:
            flows.setdefault(key[:2], []).append((p["t"], key))
    worst = None
    acks = 0
    for packets in flows.values():
        packets.sort()
        prev_end = 0.0
        for t, key in packets:
            down = arrived[key]
            if key[2] == ACK:
                acks += 1
                ready = max(t + (LINK + SW) * CYCLE_NS, prev_end)
                excess = (down["t"] - ready) / CYCLE_NS
                if worst is None or excess > worst[0]:
                    worst = (excess, key, t)
            prev_end = max(prev_end, down["t"] + down["beats"] * CYCLE_NS)
    if acks == 0:
        fail("no ACK seen on both of its cables")
    excess, key, t = worst
    print(f"{acks} ACKs; largest wait beyond the zero-load path and its flow's data: "
          f"{excess:.0f} cycles (SLID {key[0]} -> DLID {key[1]}, QP {key[3]}, PSN {key[4]}, "
          f"sent at {t} ns); bound {bound:.0f}")
    if excess > bound + 1:
        fail(f"an ACK waited {excess:.0f} cycles in the switch, above the bound of {bound:.0f}")


if __name__ == "__main__":
    main()
