// `ndrsim verify --wave`: the FST file a check writes is readable by GTKWave's own FST reader
// (gtkwave/fstapi, compiled into the Verilator runtime of ndr_rtl_models): it has the block's
// signals and ends at the last dumped time step.
#include <cstdint>
#include <cstdio>
#include <set>
#include <string>

#include <gtkwave/fstapi.h>
#include <unistd.h>
#include <catch2/catch.hpp>

#include "vl_arb/vl_arb_check.h"

TEST_CASE("vl_arb check writes an FST waveform that GTKWave's reader opens", "[rtl]") {
    const std::string path = "verify_wave_test_" + std::to_string(::getpid()) + ".fst";
    ndr::verify::check_options opt;
    opt.cycles = 500;
    opt.wave_path = path;
    const ndr::verify::check_result r = ndr::verify::check_vl_arb(opt);
    REQUIRE(r.ok());

    void* fst = fstReaderOpen(path.c_str());
    REQUIRE(fst != nullptr);
    CHECK(fstReaderGetVarCount(fst) > 10);
    // Reset: 2 edges of 2 time steps; then per cycle 2 steps; the last edge dumps the clock-high
    // state one step after the last low state: end = 4 + 2 * cycles - 1.
    CHECK(fstReaderGetEndTime(fst) == 4 + 2 * opt.cycles - 1);
    std::set<std::string> names;
    while (const fstHier* h = fstReaderIterateHier(fst)) {
        // A vector may be named with its range ("gnt_vl_o [3:0]"): keep the bare name.
        if (h->htyp == FST_HT_VAR) {
            const std::string name = h->u.var.name;
            names.insert(name.substr(0, name.find_first_of(" [")));
        }
    }
    fstReaderClose(fst);
    std::remove(path.c_str());
    for (const char* sig : {"clk_i", "gnt_valid_o", "gnt_vl_o", "hi_sent_o", "limit_i"}) {
        INFO(sig);
        CHECK(names.count(sig) == 1);
    }
}
