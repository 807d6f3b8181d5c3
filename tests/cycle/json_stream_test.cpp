// The streaming JSON writer of report.json and timeline.json (testbench/report/json_stream.h)
// against nlohmann::json, an independent parser and printer: what it writes parses back to the
// values given (escapes, integers at their limits, doubles that round-trip exactly, nesting,
// empty containers), non-finite numbers become null as nlohmann's dump() writes them, the layout
// is dump()'s / dump(2)'s byte for byte, and json_tree builds the same value from the same calls.
// No simulation here (the SystemC stub main is linked as for every test of this folder).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>

#include "json_out.h"
#include "json_stream.h"
#include "json_tree.h"

namespace {

using nlohmann::json;

/// The same document, written through any json_out.
void write_sample(ndr::tb::json_out& w) {
    w.begin_object();
    w.field("quote \" backslash \\ slash /", "tab\there\nnewline\r\b\f");
    w.field("control", std::string("\x01\x1f", 2));
    w.field("utf8", "\xC2\xB5s \xE2\x86\x92 \xF0\x9F\x9A\x80");  // µs → 🚀
    w.field("u64_max", std::numeric_limits<uint64_t>::max());
    w.field("i64_min", std::numeric_limits<int64_t>::min());
    w.field("minus_one", -1);
    w.field("zero", 0U);
    w.field("tenth", 0.1);
    w.field("big", 1e300);
    w.field("denormal", 5e-324);
    w.field("third", 1.0 / 3.0);
    w.field("integral_double", 42.0);
    w.field("neg_zero", -0.0);
    w.field("t", true);
    w.field("f", false);
    w.field("nothing", nullptr);
    w.key("nested");
    w.begin_array();
    w.begin_object();
    w.key("a");
    w.begin_array();
    w.value(1);
    w.begin_array();
    w.end_array();
    w.begin_object();
    w.end_object();
    w.end_array();
    w.end_object();
    w.value("x");
    w.end_array();
    w.field("empty_obj", json::object());
    w.field("subtree", json{{"k", {1, 2, 3}}, {"s", "v"}});
    w.end_object();
}

json expected_sample() {
    json j;
    j["quote \" backslash \\ slash /"] = "tab\there\nnewline\r\b\f";
    j["control"] = std::string("\x01\x1f", 2);
    j["utf8"] = "\xC2\xB5s \xE2\x86\x92 \xF0\x9F\x9A\x80";
    j["u64_max"] = std::numeric_limits<uint64_t>::max();
    j["i64_min"] = std::numeric_limits<int64_t>::min();
    j["minus_one"] = -1;
    j["zero"] = 0U;
    j["tenth"] = 0.1;
    j["big"] = 1e300;
    j["denormal"] = 5e-324;
    j["third"] = 1.0 / 3.0;
    j["integral_double"] = 42.0;
    j["neg_zero"] = -0.0;
    j["t"] = true;
    j["f"] = false;
    j["nothing"] = nullptr;
    j["nested"] = json::array({json{{"a", json::array({1, json::array(), json::object()})}}, "x"});
    j["empty_obj"] = json::object();
    j["subtree"] = json{{"k", {1, 2, 3}}, {"s", "v"}};
    return j;
}

std::string stream_text(int indent) {
    std::ostringstream os;
    ndr::tb::json_stream w(os, indent);
    write_sample(w);
    REQUIRE(w.complete());
    return os.str();
}

}  // namespace

TEST_CASE("json_stream: compact and pretty output parse back to every value written",
          "[json_stream]") {
    const json want = expected_sample();
    for (int indent : {-1, 2}) {
        const json got = json::parse(stream_text(indent));
        CHECK(got == want);
        // Doubles round-trip bit for bit (shortest round-trip text), integers keep their kind.
        CHECK(got["third"].get<double>() == 1.0 / 3.0);
        CHECK(got["denormal"].get<double>() == 5e-324);
        CHECK(got["integral_double"].is_number_float());
        CHECK(std::signbit(got["neg_zero"].get<double>()));
        CHECK(got["u64_max"].is_number_unsigned());
        CHECK(got["i64_min"].get<int64_t>() == std::numeric_limits<int64_t>::min());
    }
}

TEST_CASE("json_stream: the layout is nlohmann dump() and dump(2) byte for byte", "[json_stream]") {
    // Keys in alphabetical order, so nlohmann's sorted object prints them in the written order.
    const auto write = [](ndr::tb::json_out& w) {
        w.begin_object();
        w.key("a");
        w.begin_array();
        w.value(1);
        w.value("two\n");
        w.begin_object();
        w.end_object();
        w.begin_array();
        w.end_array();
        w.end_array();
        w.field("b", -7);
        w.key("c");
        w.begin_object();
        w.field("d", true);
        w.field("e", nullptr);
        w.field("f", 0.5);
        w.field("g", 1e-7);
        w.field("h", 3.0);
        w.end_object();
        w.end_object();
    };
    const json ref = json::parse(R"({"a":[1,"two\n",{},[]],"b":-7,
                                   "c":{"d":true,"e":null,"f":0.5,"g":1e-07,"h":3.0}})");
    for (int indent : {-1, 2}) {
        std::ostringstream os;
        ndr::tb::json_stream w(os, indent);
        write(w);
        CHECK(os.str() == ref.dump(indent));
    }
}

TEST_CASE("json_stream: non-finite numbers are written as null, as dump() does", "[json_stream]") {
    std::ostringstream os;
    ndr::tb::json_stream w(os);
    w.begin_array();
    w.value(std::numeric_limits<double>::quiet_NaN());
    w.value(std::numeric_limits<double>::infinity());
    w.value(-std::numeric_limits<double>::infinity());
    w.value(std::numeric_limits<float>::infinity());
    w.end_array();
    const json ref = json::array({std::nan(""), INFINITY, -INFINITY, INFINITY});
    CHECK(os.str() == ref.dump());
    CHECK(os.str() == "[null,null,null,null]");
}

TEST_CASE("json_stream: floats are written in their shortest form and read back exactly",
          "[json_stream]") {
    std::ostringstream os;
    ndr::tb::json_stream w(os);
    w.begin_array();
    for (float f : {0.1F, 0.5953905F, 1.0F, 1e-30F, 3.4028235e38F}) w.value(f);
    w.end_array();
    CHECK(os.str() == "[0.1,0.5953905,1.0,1e-30,3.4028235e+38]");
    const json got = json::parse(os.str());
    CHECK(static_cast<float>(got[1].get<double>()) == 0.5953905F);
}

TEST_CASE("json_stream: invalid UTF-8 becomes U+FFFD, as dump() with error_handler replace",
          "[json_stream]") {
    const std::string bad = std::string("ok \xFF \xC3( \xED\xA0\x80 end", 16);
    std::ostringstream os;
    ndr::tb::json_stream w(os);
    w.value(bad);
    CHECK(os.str() == json(bad).dump(-1, ' ', false, json::error_handler_t::replace));
    CHECK_NOTHROW(json::parse(os.str()));
}

TEST_CASE("json_tree builds the value json_stream writes", "[json_stream]") {
    ndr::tb::json_tree t;
    write_sample(t);
    CHECK(t.result() == expected_sample());
    CHECK(t.result() == json::parse(stream_text(-1)));
}

TEST_CASE("json_stream: misuse is a logic error, not invalid output", "[json_stream]") {
    std::ostringstream os;
    ndr::tb::json_stream w(os);
    w.begin_object();
    CHECK_THROWS_AS(w.value(1), std::logic_error);  // a value without its key
    CHECK_THROWS_AS(w.end_array(), std::logic_error);
    w.key("k");
    CHECK_THROWS_AS(w.key("again"), std::logic_error);
    w.value(1);
    w.end_object();
    CHECK(w.complete());
    CHECK_THROWS_AS(w.begin_array(), std::logic_error);  // a second top-level value
    CHECK(os.str() == R"({"k":1})");
}
