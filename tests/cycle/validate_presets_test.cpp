// Config presets (testbench/presets/*.yaml, docs/presets.md): every embedded preset parses,
// validates, names its description and soft numbers, and derives the intended cycle time.
// Precedence defaults < preset < --config < --set < flags is checked through config_options.
#include <catch2/catch.hpp>

#include <string>

#include "cli.h"
#include "common/timing.h"
#include "config/config_dump.h"
#include "config/config_error.h"
#include "preset.h"

using ndr::tb::config_options;

namespace {

ndr::cfg::config resolve(const std::string& preset, std::vector<std::string> sets = {}) {
    config_options o;
    o.preset = preset;
    o.sets = std::move(sets);
    return o.resolve();
}

}  // namespace

TEST_CASE("the four presets are embedded, described and valid", "[presets]") {
    const auto& all = ndr::tb::presets();
    REQUIRE(all.size() >= 4);
    for (const char* name : {"ndr", "hdr", "xdr", "edr"}) {
        const auto& p = ndr::tb::find_preset(name);
        CHECK_FALSE(p.description.empty());
        CHECK_FALSE(p.soft.empty());
        CHECK_THAT(ndr::tb::preset_header(p), Catch::Matchers::Contains("# soft: "));
        CHECK_NOTHROW(resolve(name));
    }
}

TEST_CASE("ndr preset equals the built-in defaults but for adaptive routing", "[presets]") {
    const ndr::cfg::config d = resolve("");
    const ndr::cfg::config n = resolve("ndr");
    // Production Quantum-2 fabrics run AR (docs/routing.md 'Presets'); the default is static.
    CHECK(d.routing.mode == "static");
    CHECK(n.routing.mode == "adaptive");
    CHECK(resolve("dgx-h100").routing.mode == "adaptive");  // NDR, as ndr: docs/routing.md 'Presets'

    CHECK(resolve("hdr").routing.mode == "static");
    // Every other key equal: the flattened configurations differ in routing.mode only.
    const auto fd = ndr::cfg::flatten(d);
    const auto fn = ndr::cfg::flatten(resolve("ndr", {"routing.mode=static"}));
    CHECK(fd == fn);
    CHECK(n.link.rate.bps == d.link.rate.bps);
    CHECK(n.sw.ports == d.sw.ports);
    CHECK(n.sw.latency.ps == d.sw.latency.ps);
    CHECK(n.hca.tx_latency.ps == d.hca.tx_latency.ps);
    CHECK(n.sharp.ost_bytes.count == d.sharp.ost_bytes.count);
}

TEST_CASE("presets derive the intended link rate, radix and cycle", "[presets]") {
    struct expect {
        const char* name;
        uint64_t bps;
        uint32_t ports;
        uint64_t cycle_ps;
    };
    for (const expect& e :
         {expect{"ndr", 400'000'000'000ULL, 64, 1280}, expect{"hdr", 200'000'000'000ULL, 40, 2560},
          expect{"xdr", 800'000'000'000ULL, 64, 640},
          expect{"edr", 100'000'000'000ULL, 36, 5120}}) {
        INFO(e.name);
        const ndr::cfg::config c = resolve(e.name);
        CHECK(c.link.rate.bps == e.bps);
        CHECK(c.sw.ports == e.ports);
        CHECK(ndr::common::derive_timing(c).cycle_ps == e.cycle_ps);
    }
    CHECK(resolve("edr").sharp.ost_bytes.count == 256);  // Switch-IB 2 OST (docs/domain.md §7)
}

TEST_CASE("presets: set overrides a preset value, an unknown preset is a config error",
          "[presets]") {
    const ndr::cfg::config c = resolve("edr", {"link.rate=200Gbps"});
    CHECK(c.link.rate.bps == 200'000'000'000ULL);
    CHECK(c.sw.ports == 36);  // still from the preset
    CHECK_THROWS_AS(resolve("nope"), ndr::cfg::config_error);
    CHECK_THROWS_WITH(resolve("nope"), Catch::Matchers::Contains("known: "));
}
