// Flow-control packet codec (models/golden/wire/fc_packet.h) against hand-computed bytes and the
// independent Python oracle (tests/data/ib_vectors.txt).
#include <catch2/catch.hpp>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "golden/wire/crc.h"
#include "golden/wire/fc_packet.h"

namespace g = ndr::golden;

namespace {

using bytes = std::vector<uint8_t>;

/// Hex bytes of record "fc <name>" in tests/data/ib_vectors.txt.
bytes fc_vector(const std::string& name) {
    std::ifstream in(std::string(NDR_TEST_DATA_DIR) + "/ib_vectors.txt");
    if (!in) {
        throw std::runtime_error("cannot open ib_vectors.txt in " NDR_TEST_DATA_DIR);
    }
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream ss(line);
        std::string kind, n, hex;
        ss >> kind >> n >> hex;
        if (kind == "fc" && n == name) {
            bytes out;
            for (size_t i = 0; i + 1 < hex.size(); i += 2) {
                out.push_back(static_cast<uint8_t>(std::stoul(hex.substr(i, 2), nullptr, 16)));
            }
            return out;
        }
    }
    throw std::runtime_error("missing fc vector " + name);
}

bytes encode(const g::fc_packet& p) {
    bytes out(g::fc_packet::SIZE, 0xEE);
    p.encode(out.data());
    return out;
}

g::fc_packet make(uint8_t op, uint16_t fctbs, uint8_t vl, uint16_t fccl) {
    g::fc_packet p;
    p.op = op;
    p.fctbs = fctbs;
    p.vl = vl;
    p.fccl = fccl;
    return p;
}

}  // namespace

TEST_CASE("FC packet bit positions match hand-computed bytes", "[fc_packet]") {
    // Op 1, FCTBS 0x234 -> 1234; VL 0xF, FCCL 0x567 -> F567.
    const bytes b = encode(make(g::FC_OP_INIT, 0x234, 0xF, 0x567));
    CHECK(b[0] == 0x12);
    CHECK(b[1] == 0x34);
    CHECK(b[2] == 0xF5);
    CHECK(b[3] == 0x67);
    // LPCRC [U]: CRC-16 of the first 4 bytes, LSB first.
    const uint16_t lpcrc = g::crc16_ib(b.data(), 4);
    CHECK(b[4] == (lpcrc & 0xFF));
    CHECK(b[5] == (lpcrc >> 8));
}

TEST_CASE("FC packets match the Python oracle", "[fc_packet]") {
    CHECK(encode(make(g::FC_OP_NORMAL, 0x123, 1, 0xABC)) == fc_vector("fc_normal"));
    CHECK(encode(make(g::FC_OP_INIT, 0xFFF, 15, 0xFFF)) == fc_vector("fc_init_max"));
    CHECK(encode(make(0, 0, 0, 0)) == fc_vector("fc_zero"));
    for (const char* name : {"fc_normal", "fc_init_max", "fc_zero"}) {
        const bytes v = fc_vector(name);
        const g::fc_packet p = g::fc_packet::decode(v.data());
        INFO(name);
        CHECK(p.lpcrc_ok());
        CHECK(encode(p) == v);
    }
}

TEST_CASE("FC packet round-trips and detects a corrupted LPCRC", "[fc_packet]") {
    const g::fc_packet src = make(g::FC_OP_INIT, 0xFFF, 0xF, 0xFFF);
    const bytes b = encode(src);
    const g::fc_packet d = g::fc_packet::decode(b.data());
    CHECK(d.op == src.op);
    CHECK(d.fctbs == src.fctbs);
    CHECK(d.vl == src.vl);
    CHECK(d.fccl == src.fccl);
    CHECK(d.lpcrc == g::fc_packet::compute_lpcrc(b.data()));
    CHECK(d.lpcrc_ok());
    for (size_t i = 0; i < g::fc_packet::SIZE; ++i) {
        for (int bit = 0; bit < 8; ++bit) {
            bytes bad = b;
            bad[i] = static_cast<uint8_t>(bad[i] ^ (1u << bit));
            INFO("byte " << i << " bit " << bit);
            CHECK_FALSE(g::fc_packet::decode(bad.data()).lpcrc_ok());
        }
    }
}

TEST_CASE("FC packet fields wider than their bit width are rejected", "[fc_packet]") {
    using Catch::Matchers::Contains;
    bytes buf(6);
    CHECK_THROWS_WITH(make(16, 0, 0, 0).encode(buf.data()), Contains("fc_packet.op"));
    CHECK_THROWS_WITH(make(0, 0x1000, 0, 0).encode(buf.data()), Contains("fc_packet.fctbs"));
    CHECK_THROWS_WITH(make(0, 0, 16, 0).encode(buf.data()), Contains("fc_packet.vl"));
    CHECK_THROWS_WITH(make(0, 0, 0, 0x1000).encode(buf.data()), Contains("fc_packet.fccl"));
}
