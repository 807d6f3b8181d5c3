// The one YAML reader of config and sweep files (models/config/yaml_document.h): what it
// refuses, with which FILE:LINE: KEY: REASON, and what it accepts unchanged (issue 16).
#include <catch2/catch.hpp>

#include <string>

#include "config/config_error.h"
#include "config/yaml_document.h"

namespace {

using ndr::cfg::load_one_document;

std::string error_of(const std::string& text) {
    try {
        load_one_document(text, "F.yaml");
    } catch (const ndr::cfg::config_error& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

TEST_CASE("YAML: a key given twice in one map is refused, naming both lines", "[config]") {
    CHECK(error_of("repeats: 2\nrepeats: 3\n") ==
          "F.yaml:2: repeats: duplicate key (already set on line 1)");
    CHECK(error_of("axes:\n  traffic.load: [0.2]\n  hca.mtu: [1024]\n  traffic.load: [0.3]\n") ==
          "F.yaml:4: axes.traffic.load: duplicate key (already set on line 2)");
    CHECK(error_of("zip:\n  - {a: [1], b: [2]}\n  - {c: [1], c: [2]}\n") ==
          "F.yaml:3: zip[1].c: duplicate key (already set on line 3)");
    CHECK(error_of("switch: {ports: 8, ports: 16}\n") ==
          "F.yaml:1: switch.ports: duplicate key (already set on line 1)");
    // The same key in two different maps is not a duplicate.
    CHECK(error_of("a: {x: 1}\nb: {x: 2}\n") == "no error");
}

TEST_CASE("YAML: a quote that never closes is refused at its line", "[config]") {
    // yaml-cpp read these to the end of the file: '4096 ' and '4096 ports: 8'.
    CHECK(error_of("switch:\n  buffer_per_vl: \"4096\n") ==
          "F.yaml:2: switch.buffer_per_vl: unclosed quote: \"4096 has no closing \"");
    CHECK(error_of("switch:\n  buffer_per_vl: \"4096\n  ports: 8\n") ==
          "F.yaml:2: switch.buffer_per_vl: unclosed quote: \"4096 has no closing \"");
    CHECK(error_of("name: 'd\nkind: traffic\n") ==
          "F.yaml:1: name: unclosed quote: 'd has no "
          "closing '");
    CHECK(error_of("a: !!str \"x\n") == "F.yaml:1: a: unclosed quote: \"x has no closing \"");
    CHECK(error_of("\"key: 1\n") == "F.yaml:1: unclosed quote: \"key: 1 has no closing \"");
    // Closed quotes, escaped quotes and quotes spanning lines are values like any other.
    const YAML::Node ok = load_one_document(
        "a: \"x\\\"y\"\nb: 'it''s'\nc: \"two\n  lines\"\nd: [\"q\", 'r']\n\"k\": v  # \"\n",
        "F.yaml");
    CHECK(ok["a"].Scalar() == "x\"y");
    CHECK(ok["b"].Scalar() == "it's");
    CHECK(ok["c"].Scalar() == "two lines");
    CHECK(ok["d"][1].Scalar() == "r");
    CHECK(ok["k"].Scalar() == "v");
}

TEST_CASE("YAML: a byte-order mark starts the file or nothing", "[config]") {
    const YAML::Node n = load_one_document("\xEF\xBB\xBF# comment\nswitch:\n  ports: 8\n", "F");
    CHECK(n["switch"]["ports"].Scalar() == "8");
    CHECK(load_one_document("\xEF\xBB\xBFports: 8\n", "F")["ports"].Scalar() == "8");
    CHECK(error_of("switch:\n  ports: 8\n\xEF\xBB\xBFhca.mtu: 1024\n") ==
          "F.yaml:3: a UTF-8 byte-order mark (EF BB BF) is allowed only at the start of the file");
}

TEST_CASE("YAML: syntax errors, documents and nesting", "[config]") {
    CHECK(error_of("a: 1\n---\na: 2\n") ==
          "F.yaml:3: YAML syntax error: a second YAML document ('---'): give one document per "
          "file");
    CHECK(error_of("a: [1, 2\n").rfind("F.yaml:", 0) == 0);
    // yaml-cpp's own message for this is "bad file".
    CHECK(error_of("a: " + std::string(600, '[') + std::string(600, ']') + "\n") ==
          "F.yaml:1: YAML syntax error: nested deeper than 500 levels");
    CHECK(load_one_document("", "F").IsNull());
    CHECK(load_one_document("# only a comment\n", "F").IsNull());
}

TEST_CASE("YAML: aliases are checked once, not once per use", "[config]") {
    // Nine levels of ten aliases each: 10^9 leaves if every use were walked.
    std::string text = "l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n";
    for (int i = 1; i <= 9; ++i) {
        text += "l" + std::to_string(i) + ": &l" + std::to_string(i) + " [";
        for (int k = 0; k < 10; ++k) text += (k ? ", *l" : "*l") + std::to_string(i - 1);
        text += "]\n";
    }
    CHECK(load_one_document(text, "F").IsMap());
}
