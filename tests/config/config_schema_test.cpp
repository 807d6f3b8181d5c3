// The registry rows (models/config/keys/*_keys.cpp): every key describes itself completely, the
// sections come out in their documented order, and every cited docs/ page and section exists.
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "config/config_schema.h"

using namespace ndr::cfg;

namespace {

std::string read_doc(const std::string& rel) {
    std::ifstream in(NDR_TEST_DATA_DIR "/../../" + rel);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

bool has_unit(value_kind k) {
    return k == value_kind::bytes || k == value_kind::time || k == value_kind::rate ||
           k == value_kind::length;
}

}  // namespace

TEST_CASE("every registered key has a kind or unit, a range and help", "[config]") {
    for (const config_key& k : config_schema()) {
        CAPTURE(k.key);
        CHECK(kind_name(k.kind) != "?");
        CHECK(has_unit(k.kind) == !k.unit.empty());  // sizes, times, rates, lengths only
        CHECK_FALSE(k.range.empty());
        CHECK_FALSE(k.help.empty());
        CHECK(static_cast<bool>(k.parse));
        CHECK(static_cast<bool>(k.format));
        CHECK(static_cast<bool>(k.check));
        if (k.kind == value_kind::choice) CHECK_FALSE(k.choices.empty());
    }
}

TEST_CASE("sections are listed in registry order", "[config]") {
    const std::vector<std::string> expected = {
        "link", "switch", "endpoint", "traffic",    "sim",    "fabric", "routing",
        "node", "hca",    "fault",    "collective", "host",   "nccl",   "sharp",
        "pfc",  "ecn",    "dcqcn",    "cc",         "report", "jobs"};
    CHECK(config_sections() == expected);
    // Every section's keys are contiguous: a registrar writes all rows of its section.
    size_t section = 0;
    for (const config_key& k : config_schema()) {
        CAPTURE(k.key);
        const std::string sec = k.key.substr(0, k.key.find('.'));
        while (section < expected.size() && expected[section] != sec) ++section;
        CHECK(section < expected.size());
    }
}

TEST_CASE("a key's source is the page its help cites, and that page and section exist",
          "[config]") {
    const std::regex cite(R"(docs/[a-z_]+\.md)");
    const std::regex source(R"((docs/[a-z_]+\.md)(?: §([0-9]+(?:\.[0-9]+)?))?)");
    size_t with_section = 0;
    for (const config_key& k : config_schema()) {
        CAPTURE(k.key, k.source);
        CHECK(std::regex_search(k.help, cite) == !k.source.empty());
        if (k.source.empty()) continue;
        CHECK(k.help.find(k.source) != std::string::npos);
        std::smatch m;
        REQUIRE(std::regex_match(k.source, m, source));
        const std::string doc = read_doc(m[1]);
        REQUIRE_FALSE(doc.empty());
        if (m[2].matched) {
            ++with_section;
            // `## 13. Realistic defaults`, `### 1.2 LRH (64 bits)`
            const std::string n = m[2];
            const bool sub = n.find('.') != std::string::npos;
            const std::string heading = sub ? "\n### " + n + " " : "\n## " + n + ". ";
            CHECK(doc.find(heading) != std::string::npos);
        }
    }
    CHECK(with_section > 30);
    CHECK(find_config_key("link.rate")->source == "docs/domain.md §13");
    CHECK(find_config_key("hca.mtu")->source == "docs/domain.md §1.2");
    CHECK(find_config_key("fabric.technology")->source == "docs/roce.md");
    CHECK(find_config_key("traffic.load")->source.empty());
}
