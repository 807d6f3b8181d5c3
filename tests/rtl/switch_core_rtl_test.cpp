// rtl/ib_switch_core against the TLM scoreboard through check_switch_core (the `switch` check
// of `ndrsim verify`), plus the core's documented pipeline latency, the waveform and the
// coverage summary. Label `rtl`.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <stdexcept>
#include <string>

#include "ib_switch_core/switch_core_bench.h"
#include "ib_switch_core/switch_core_check.h"

namespace v = ndr::verify;

// The check links the TLM scoreboard, hence libsystemc, which needs an sc_main (never called).
extern "C" int sc_main(int, char*[]) {
    return 0;
}

namespace {
std::string describe(const v::check_result& r) {
    if (r.ok()) return "ok";
    const v::mismatch& m = *r.first_mismatch;
    return "cycle " + std::to_string(m.cycle) + ", port " + std::to_string(m.port) + ", VL " +
           std::to_string(m.vl) + ", " + m.what + ": expected " + m.expected + ", got " + m.got;
}
}  // namespace

TEST_CASE("switch core matches the TLM scoreboard on random traffic, several seeds", "[rtl]") {
    for (uint64_t seed : {1, 2, 3, 4}) {
        v::check_options o;
        o.seed = seed;
        o.cycles = 15000;
        const v::check_result r = v::check_switch_core(o);
        INFO("seed " << seed << ": " << describe(r));
        CHECK(r.ok());
        CHECK(r.block == "switch");
        CHECK(r.cycles >= o.cycles);
        // Every delivered packet was compared, plus the per-cycle credit checks: at least
        // 4 ports x 2 VLs x 4 invariants per cycle.
        CHECK(r.comparisons >= 32 * o.cycles);
    }
}

TEST_CASE("switch core: a packet list is delivered exactly", "[rtl]") {
    // Hand-written: trains on one stream, crossing streams, every size class, all VLs.
    std::vector<v::core_packet> list;
    uint64_t id = 100;
    for (uint16_t k = 0; k < 40; ++k) {
        const auto blocks = static_cast<uint16_t>(1 + (k * 7) % 65);
        list.push_back(v::core_packet{
            id++, 0, 0, static_cast<uint16_t>(blocks * 64), blocks, static_cast<uint8_t>(k % 4),
            static_cast<uint8_t>((k / 4) % 4), static_cast<uint8_t>(k % 3), 0});
    }
    v::check_options o;
    o.seed = 7;
    const v::check_result r = v::check_switch_core_packets(list, o);
    INFO(describe(r));
    CHECK(r.ok());
}

TEST_CASE("switch core: every fault build is caught", "[rtl]") {
    for (const std::string& f : v::switch_core_bench::fault_names()) {
        v::check_options o;
        o.seed = 1;
        o.cycles = 15000;
        o.fault = f;
        const v::check_result r = v::check_switch_core(o);
        INFO(f << ": " << describe(r));
        REQUIRE_FALSE(r.ok());
        WARN("fault " << f << " reported as intended: " << describe(r));
        CHECK(r.first_mismatch->port >= 0);
        CHECK(r.first_mismatch->vl >= 0);
        CHECK_FALSE(r.first_mismatch->expected.empty());
    }
    v::check_options bad;
    bad.fault = "no_such_fault";
    CHECK_THROWS_AS(v::check_switch_core(bad), std::invalid_argument);
}

TEST_CASE("switch core: zero-load latency is the documented pipeline", "[rtl]") {
    // rtl/README.md: header in at cycle t -> header out at t + len + 1 (store-and-forward: the
    // eop beat at t + len - 1, requestable at t + len, first beat out the cycle after), and one
    // beat per cycle after it.
    for (const uint16_t len : std::initializer_list<uint16_t>{1, 2, 5, 65}) {
        v::bench_params p;
        v::switch_core_bench b(p);
        uint64_t in = 0;
        uint64_t sop = 0;
        uint64_t eop = 0;
        bool done = false;
        b.on_header_in = [&](uint64_t t, const v::core_packet&) { in = t; };
        b.on_delivery = [&](const v::core_delivery& d) {
            sop = d.sop_cycle;
            eop = d.eop_cycle;
            done = true;
        };
        // Wait for the first FC updates (credits) before injecting.
        for (int i = 0; i < 10; ++i) b.step();
        b.push(v::core_packet{1, 0, 0, static_cast<uint16_t>(len * 64), len, 2, 1, 0, 0});
        for (int i = 0; i < 400 && !done; ++i) b.step();
        REQUIRE(done);
        CHECK(sop - in == len + 1U);
        CHECK(eop - sop == len - 1U);
        CHECK_FALSE(b.first_mismatch());
    }
}

TEST_CASE("switch core: --wave writes an FST file, coverage is summarised", "[rtl]") {
    const auto path = std::filesystem::temp_directory_path() / "ndr_switch_core_test.fst";
    std::filesystem::remove(path);
    v::check_options o;
    o.seed = 3;
    o.cycles = 2000;
    o.wave_path = path.string();
    const v::check_result r = v::check_switch_core(o);
    CHECK(r.ok());
    REQUIRE(std::filesystem::exists(path));
    CHECK(std::filesystem::file_size(path) > 1000);
    // FST files start with a header block: block type 0 (FST_BL_HDR), then its length.
    std::ifstream in(path, std::ios::binary);
    char first = 1;
    in.read(&first, 1);
    CHECK(first == 0);
#ifdef NDR_FST2VCD
    // GTKWave's own reader (fst2vcd) parses it: the core's ports are declared and values change.
    const auto vcd = std::filesystem::temp_directory_path() / "ndr_switch_core_test.vcd";
    const std::string cmd = std::string(NDR_FST2VCD) + " -f " + path.string() + " -o " +
                            vcd.string() + " > /dev/null 2>&1";
    REQUIRE(std::system(cmd.c_str()) == 0);
    std::ifstream v(vcd);
    const std::string text((std::istreambuf_iterator<char>(v)), std::istreambuf_iterator<char>());
    CHECK(text.find("$enddefinitions") != std::string::npos);
    CHECK(text.find(" out_valid_o ") != std::string::npos);
    CHECK(text.find(" in_data_i ") != std::string::npos);
    CHECK(text.find("#3999") != std::string::npos);  // 2000 cycles, two time steps each
    std::filesystem::remove(vcd);
#endif
    std::filesystem::remove(path);
    CHECK(r.coverage.points > 100);
    CHECK(r.coverage.hit > 0);
    CHECK(r.coverage.hit <= r.coverage.points);
    // An unwritable path is an error, not a silently missing file.
    o.wave_path = "/nonexistent_dir/x.fst";
    CHECK_THROWS_AS(v::check_switch_core(o), std::runtime_error);
}
