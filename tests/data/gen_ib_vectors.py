#!/usr/bin/env python3
"""Independent oracle for the golden IB packet-format library (models/golden/).

Writes ib_vectors.txt next to this script: whole IB packets (LRH [+GRH] + BTH + extended
headers + payload + pad + ICRC + VCRC), flow-control packets and CRC check values, all
computed here with the Python 3 standard library only. Nothing is shared with the C++: headers
are packed as integers with explicit shifts, and both CRCs are bit-by-bit loops.

    python3 tests/data/gen_ib_vectors.py        # regenerates tests/data/ib_vectors.txt

Conventions (see models/golden/wire/crc.h for sources):
  * ICRC: CRC-32 poly 0x04C11DB7 processed LSB-first, init 0xFFFFFFFF, final XOR 0xFFFFFFFF,
    variant fields forced to 1 (local: LRH.VL, BTH byte 4; global: whole LRH, GRH TClass,
    FlowLabel, HopLmt, BTH byte 4); appended least-significant byte first.
  * VCRC: CRC-16 poly 0x100B processed LSB-first, init 0xFFFF, final XOR 0xFFFF, over LRH
    through ICRC; appended least-significant byte first ([U]).
  * FC packet LPCRC: the same CRC-16 over the first 4 bytes, LSB first ([U]).

File format, one record per line, '#' starts a comment:
    packet <name> <hex bytes LRH..VCRC>
    icrc   <name> <value, 8 hex digits>
    vcrc   <name> <value, 4 hex digits>
    fc     <name> <hex 6 bytes>
    crc32  <name> <hex input bytes> <value>
    crc16  <name> <hex input bytes> <value>
"""

import os

# ---------------------------------------------------------------------------------------------
# CRCs, bit by bit.


def crc32_bitwise(data, init=0xFFFFFFFF):
    """Ethernet CRC-32: each input bit, LSB of each byte first, goes through the register."""
    poly = 0x04C11DB7
    reg = init
    for byte in data:
        for bit in range(8):
            in_bit = (byte >> bit) & 1
            # Register kept MSB-first (non-reflected); the LSB-first input order and the
            # reflected output below make this equal to the usual reflected formulation.
            top = (reg >> 31) & 1
            reg = (reg << 1) & 0xFFFFFFFF
            if top ^ in_bit:
                reg ^= poly
    # Reflect the 32-bit register and invert.
    out = 0
    for i in range(32):
        if (reg >> i) & 1:
            out |= 1 << (31 - i)
    return out ^ 0xFFFFFFFF


def crc16_ib_bitwise(data):
    """IB VCRC: poly 0x100B, LSB-first input, init 0xFFFF, reflected output, inverted."""
    poly = 0x100B
    reg = 0xFFFF
    for byte in data:
        for bit in range(8):
            in_bit = (byte >> bit) & 1
            top = (reg >> 15) & 1
            reg = (reg << 1) & 0xFFFF
            if top ^ in_bit:
                reg ^= poly
    out = 0
    for i in range(16):
        if (reg >> i) & 1:
            out |= 1 << (15 - i)
    return out ^ 0xFFFF


# ---------------------------------------------------------------------------------------------
# Header packing with explicit shifts into one big integer per header.


def be(value, nbytes):
    return value.to_bytes(nbytes, "big")


def pack_lrh(vl, lver, sl, lnh, dlid, pktlen, slid):
    v = (vl << 60) | (lver << 56) | (sl << 52) | (lnh << 48) | (dlid << 32) | (pktlen << 16) | slid
    return be(v, 8)


def pack_grh(ipver, tclass, flow, paylen, nxthdr, hoplmt, sgid, dgid):
    v = (ipver << 28) | (tclass << 20) | flow
    return be(v, 4) + be(paylen, 2) + bytes([nxthdr, hoplmt]) + bytes(sgid) + bytes(dgid)


def pack_bth(opcode, se, migreq, padcnt, tver, pkey, fecn, becn, destqp, ackreq, psn):
    hi = (opcode << 24) | (se << 23) | (migreq << 22) | (padcnt << 20) | (tver << 16) | pkey
    mid = (fecn << 31) | (becn << 30) | destqp
    lo = (ackreq << 31) | psn
    return be(hi, 4) + be(mid, 4) + be(lo, 4)


def pack_reth(va, rkey, dma_len):
    return be((va << 64) | (rkey << 32) | dma_len, 16)


def pack_aeth(syndrome, msn):
    return be((syndrome << 24) | msn, 4)


def pack_deth(qkey, srcqp):
    return be((qkey << 32) | srcqp, 8)


def pack_immdt(data):
    return be(data, 4)


# Extended-header bytes after the BTH, per opcode, for the opcodes used below.
EXT_LEN = {0x04: 0, 0x0A: 16, 0x11: 4, 0x65: 12, 0x0B: 20}


def icrc_input(pkt_wo_crcs):
    """Copy of the packet with the variant fields forced to ones."""
    b = bytearray(pkt_wo_crcs)
    lnh = b[1] & 3
    if lnh == 3:
        for i in range(8):
            b[i] = 0xFF
        g = 8
        b[g + 0] |= 0x0F
        b[g + 1] = 0xFF
        b[g + 2] = 0xFF
        b[g + 3] = 0xFF
        b[g + 7] = 0xFF
        bth_off = 8 + 40
    else:
        assert lnh == 2
        b[0] |= 0xF0
        bth_off = 8
    b[bth_off + 4] = 0xFF
    return bytes(b)


def make_packet(lrh, bth, ext, payload, grh=None):
    """lrh/bth/grh: dicts of field values; pktlen, lnh, padcnt, paylen filled in here."""
    pad = (-len(payload)) % 4
    grh_len = 40 if grh is not None else 0
    through_icrc = 8 + grh_len + 12 + len(ext) + len(payload) + pad + 4
    assert through_icrc % 4 == 0
    pktlen = through_icrc // 4
    lnh = 3 if grh is not None else 2
    out = pack_lrh(lrh["vl"], lrh["lver"], lrh["sl"], lnh, lrh["dlid"], pktlen, lrh["slid"])
    if grh is not None:
        paylen = through_icrc - 8 - 40
        out += pack_grh(grh["ipver"], grh["tclass"], grh["flow"], paylen, grh["nxthdr"],
                        grh["hoplmt"], grh["sgid"], grh["dgid"])
    out += pack_bth(bth["opcode"], bth["se"], bth["migreq"], pad, bth["tver"], bth["pkey"],
                    bth["fecn"], bth["becn"], bth["destqp"], bth["ackreq"], bth["psn"])
    out += ext + bytes(payload) + bytes(pad)
    icrc = crc32_bitwise(icrc_input(out))
    out += icrc.to_bytes(4, "little")
    vcrc = crc16_ib_bitwise(out)
    out += vcrc.to_bytes(2, "little")
    return out, icrc, vcrc


def pack_fc(op, fctbs, vl, fccl):
    body = be((op << 28) | (fctbs << 16) | (vl << 12) | fccl, 4)
    return body + crc16_ib_bitwise(body).to_bytes(2, "little")


# ---------------------------------------------------------------------------------------------
# The vectors. tests/golden/packet_format_test.cpp builds the same packets field by field.

PAYLOAD_37 = bytes(((i * 7) + 3) & 0xFF for i in range(37))
PAYLOAD_64 = bytes(range(64))
PAYLOAD_13 = b"hello, world!"
PAYLOAD_5 = bytes([0xDE, 0xAD, 0xBE, 0xEF, 0x01])
SGID = bytes([0xFE, 0x80, 0, 0, 0, 0, 0, 0, 0x00, 0x02, 0xC9, 0x03, 0x00, 0x01, 0x02, 0x03])
DGID = bytes([0xFE, 0x80, 0, 0, 0, 0, 0, 0, 0x00, 0x02, 0xC9, 0x03, 0x00, 0x0A, 0x0B, 0x0C])


def bth_fields(**kw):
    d = dict(opcode=0, se=0, migreq=0, tver=0, pkey=0xFFFF, fecn=0, becn=0, destqp=0,
             ackreq=0, psn=0)
    d.update(kw)
    return d


def vectors():
    recs = []

    def add(name, lrh, bth, ext, payload, grh=None):
        pkt, icrc, vcrc = make_packet(lrh, bth, ext, payload, grh)
        recs.append(("packet", name, pkt.hex()))
        recs.append(("icrc", name, "%08x" % icrc))
        recs.append(("vcrc", name, "%04x" % vcrc))
        return pkt, icrc, vcrc

    # 1. RC RDMA_WRITE_ONLY + RETH, 37-byte payload (pad 3).
    lrh1 = dict(vl=0, lver=0, sl=0, dlid=0x0005, slid=0x0003)
    bth1 = bth_fields(opcode=0x0A, migreq=1, destqp=0x000012, ackreq=1, psn=0x000100)
    reth1 = pack_reth(0x00007F0012345678, 0xCAFEBABE, 37)
    _, icrc1, vcrc1 = add("rc_rdma_write_only_37", lrh1, bth1, reth1, PAYLOAD_37)

    # 1b. Same packet after a switch changed VL and set FECN/BECN: ICRC unchanged.
    lrh1b = dict(lrh1, vl=7)
    bth1b = dict(bth1, fecn=1, becn=1)
    _, icrc1b, vcrc1b = add("rc_rdma_write_only_37_remarked", lrh1b, bth1b, reth1, PAYLOAD_37)
    assert icrc1b == icrc1 and vcrc1b != vcrc1

    # 2. RC SEND_ONLY, 64-byte payload (pad 0), extreme field values.
    lrh2 = dict(vl=1, lver=0, sl=1, dlid=0x0102, slid=0x0201)
    bth2 = bth_fields(opcode=0x04, se=1, pkey=0x8001, destqp=0xABCDEF, psn=0xFFFFFF)
    add("rc_send_only_64", lrh2, bth2, b"", PAYLOAD_64)

    # 3. Global RC SEND_ONLY with GRH, 13-byte payload (pad 3).
    lrh3 = dict(vl=2, lver=0, sl=4, dlid=0x0010, slid=0x0020)
    grh3 = dict(ipver=6, tclass=0x20, flow=0x12345, nxthdr=0x1B, hoplmt=64, sgid=SGID, dgid=DGID)
    bth3 = bth_fields(opcode=0x04, destqp=0x000456, ackreq=1, psn=0x000789)
    _, icrc3, vcrc3 = add("rc_send_only_grh_13", lrh3, bth3, b"", PAYLOAD_13, grh3)

    # 3b. Same packet after a router: new LRH (VL, SL, LIDs), TClass, FlowLabel, HopLmt, FECN.
    lrh3b = dict(vl=5, lver=0, sl=9, dlid=0x0777, slid=0x0888)
    grh3b = dict(grh3, tclass=0xB8, flow=0xFEDCB, hoplmt=63)
    bth3b = dict(bth3, fecn=1)
    _, icrc3b, vcrc3b = add("rc_send_only_grh_13_routed", lrh3b, bth3b, b"", PAYLOAD_13, grh3b)
    assert icrc3b == icrc3 and vcrc3b != vcrc3

    # 4. UD SEND_ONLY_WITH_IMMEDIATE: DETH + ImmDt, 5-byte payload (pad 3).
    lrh4 = dict(vl=0, lver=0, sl=0, dlid=0xC001, slid=0x0001)
    bth4 = bth_fields(opcode=0x65, pkey=0x7FFF, destqp=0x000001, psn=0x000042)
    ext4 = pack_deth(0x80010000, 0x00ABCD) + pack_immdt(0x11223344)
    add("ud_send_only_imm_5", lrh4, bth4, ext4, PAYLOAD_5)

    # 5. RC ACKNOWLEDGE: AETH, no payload.
    lrh5 = dict(vl=0, lver=0, sl=0, dlid=0x0003, slid=0x0005)
    bth5 = bth_fields(opcode=0x11, destqp=0x000034, psn=0x000100)
    add("rc_ack", lrh5, bth5, pack_aeth(0x1F, 0x000007), b"")

    # Flow-control packets.
    recs.append(("fc", "fc_normal", pack_fc(0, 0x123, 1, 0xABC).hex()))
    recs.append(("fc", "fc_init_max", pack_fc(1, 0xFFF, 15, 0xFFF).hex()))
    recs.append(("fc", "fc_zero", pack_fc(0, 0, 0, 0).hex()))

    # CRC check values.
    check = b"123456789"
    recs.append(("crc32", "check", check.hex(), "%08x" % crc32_bitwise(check)))
    recs.append(("crc16", "check", check.hex(), "%04x" % crc16_ib_bitwise(check)))
    data = bytes(range(256))
    recs.append(("crc32", "bytes_0_255", data.hex(), "%08x" % crc32_bitwise(data)))
    recs.append(("crc16", "bytes_0_255", data.hex(), "%04x" % crc16_ib_bitwise(data)))
    return recs


def self_checks():
    # Published check value of CRC-32/ISO-HDLC.
    assert crc32_bitwise(b"123456789") == 0xCBF43926
    # RoCEv2 CNP captured on a ConnectX-4 Lx (scapy test/contrib/roce.uts): IPv4 + UDP + BTH +
    # 16 zero bytes, ICRC bytes 82 fd 00 2a. Pseudo-header: 8 x 0xFF for the LRH, IPv4 TOS,
    # TTL and checksum, UDP checksum and BTH byte 4 forced to ones (rxe_icrc.c).
    ip = bytearray.fromhex("45c2003c718c400040119161 0a001101 0a001201".replace(" ", ""))
    ip[1] = 0xFF
    ip[8] = 0xFF
    ip[10] = ip[11] = 0xFF
    udp = bytearray.fromhex("000012b700280000")
    udp[6] = udp[7] = 0xFF
    bth = bytearray.fromhex("8100ffff4000011800000000")
    bth[4] = 0xFF
    pseudo = b"\xff" * 8 + bytes(ip) + bytes(udp) + bytes(bth) + bytes(16)
    assert crc32_bitwise(pseudo).to_bytes(4, "little") == bytes.fromhex("82fd002a")


def main():
    self_checks()
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ib_vectors.txt")
    with open(path, "w") as f:
        f.write("# Generated by tests/data/gen_ib_vectors.py -- do not edit by hand.\n")
        f.write("# Format: see the docstring of gen_ib_vectors.py.\n")
        for rec in vectors():
            f.write(" ".join(rec) + "\n")
    print("wrote", path)


if __name__ == "__main__":
    main()
