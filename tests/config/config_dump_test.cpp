// Printing: to_yaml loads back to the same config; flatten and describe_keys cover every key.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "config/config_dump.h"
#include "config/config_loader.h"
#include "config/config_schema.h"
#include "temp_yaml.h"

using namespace ndr::cfg;
using ndr::cfg::test::temp_yaml;

TEST_CASE("registry keys are section.field, unique, and documented", "[config]") {
    std::set<std::string> seen;
    for (const config_key& k : config_schema()) {
        CAPTURE(k.key);
        CHECK(seen.insert(k.key).second);
        CHECK(k.key.find('.') != std::string::npos);
        CHECK(find_config_key(k.key) == &k);
        CHECK_FALSE(k.help.empty());
        CHECK_FALSE(k.range.empty());
        CHECK(k.check(config{}).empty());  // every default is valid
    }
    CHECK(find_config_key("switch.sw") == nullptr);
    CHECK(find_config_key("sw.ports") == nullptr);
}

TEST_CASE("to_yaml round-trips through load_config", "[config]") {
    SECTION("defaults") {
        const config d;
        const temp_yaml f(to_yaml(d));
        CHECK(flatten(load_config(f.path(), {})) == flatten(d));
    }
    SECTION("a config with every kind changed") {
        const config c = load_config(
            "", {"link.rate=200Gbps", "link.fec_latency=0.05us", "link.cable_length=2.5m",
                 "switch.ports=16", "switch.speedup=1.1", "switch.cut_through=false",
                 "switch.queueing=fifo", "switch.buffer_per_vl=4224",
                 "switch.vl_arb_low=0:64, 1:192", "switch.sl2vl=0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,15",
                 "traffic.size=256@3,4096@1", "traffic.sl=0@1,1@2", "traffic.load=0.3",
                 "endpoint.rx_processing=1.28ns", "sim.seed=18446744073709551615"});
        const std::string yaml = to_yaml(c);
        const temp_yaml f(yaml);
        const config back = load_config(f.path(), {});
        CHECK(flatten(back) == flatten(c));
        CHECK(back.sw.speedup == 1.1);
        CHECK(back.traffic.load == 0.3);
        CHECK(back.sw.vl_arb_low == "0:64, 1:192");
        CHECK(yaml.find("  rate: 200Gbps") != std::string::npos);
        CHECK(yaml.find("  fec_latency: 50ns") != std::string::npos);
        CHECK(yaml.find("  buffer_per_vl: 4.125KiB") != std::string::npos);
        CHECK(yaml.find("  vl_arb_high: \"\"") != std::string::npos);
    }
}

TEST_CASE("flatten and describe_keys list every key in schema order", "[config]") {
    const auto flat = flatten(config{});
    REQUIRE(flat.size() == config_schema().size());
    for (size_t i = 0; i < flat.size(); ++i) CHECK(flat[i].first == config_schema()[i].key);
    CHECK(flat.front() == std::make_pair(std::string("link.rate"), std::string("400Gbps")));
    const std::string keys = describe_keys();
    for (const config_key& k : config_schema()) {
        CAPTURE(k.key);
        CHECK(keys.find(k.key) != std::string::npos);
    }
    CHECK(keys.find("switch.buffer_per_vl") != std::string::npos);
    CHECK(keys.find("32KiB") != std::string::npos);
}

TEST_CASE("docs/configuration.md documents every key", "[config]") {
    const std::string path = NDR_TEST_DATA_DIR "/../../docs/configuration.md";
    std::ifstream in(path);
    REQUIRE(in.good());
    std::stringstream text;
    text << in.rdbuf();
    const std::string doc = text.str();
    const config d;
    for (const config_key& k : config_schema()) {
        CAPTURE(k.key);
        // The key and its default (strings quoted), as a table row: | `key` | `default` | ...
        const std::string def =
            k.kind == value_kind::text ? "\"" + k.format(d) + "\"" : k.format(d);
        CHECK(doc.find("| `" + k.key + "` | `" + def + "` |") != std::string::npos);
    }
}

TEST_CASE("docs/configuration.md documents no key the registry lacks", "[config]") {
    // The reverse of the test above: every table row `| `section.field` | ...` of the page names
    // a registry key, once; so the page and the registry hold the same set of keys.
    std::ifstream in(NDR_TEST_DATA_DIR "/../../docs/configuration.md");
    REQUIRE(in.good());
    std::set<std::string> documented;
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("| `", 0) != 0) continue;
        const std::size_t end = line.find('`', 3);
        const std::string key = line.substr(3, end - 3);
        const std::string section = key.substr(0, key.find('.'));
        const auto& sections = config_sections();
        const bool plain =
            key.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_.") == std::string::npos;
        if (!plain || key.find('.') == std::string::npos ||
            std::find(sections.begin(), sections.end(), section) == sections.end())
            continue;  // a row of another table (files, precedence, warnings)
        CAPTURE(key);
        CHECK(find_config_key(key) != nullptr);
        CHECK(documented.insert(key).second);
    }
    CHECK(documented.size() == config_schema().size());
}
