// Loading: defaults < YAML file < --set, then validate; one-line errors with file, line, key.
#include <catch2/catch.hpp>

#include <string>

#include "config/config_error.h"
#include "config/config_loader.h"
#include "config/validate.h"
#include "temp_yaml.h"

using namespace ndr::cfg;
using ndr::cfg::test::temp_yaml;

namespace {

/// The message of the config_error thrown by load_config(path, sets).
std::string load_error(const std::string& path, const std::vector<std::string>& sets = {}) {
    try {
        load_config(path, sets);
    } catch (const config_error& e) {
        return e.what();
    }
    return "(no error)";
}

std::string yaml_error(const std::string& text, const std::vector<std::string>& sets = {}) {
    const temp_yaml f(text);
    const std::string msg = load_error(f.path(), sets);
    const std::string prefix = f.path() + ":";
    // Replace the temporary path with a fixed name so tests read naturally.
    if (msg.rfind(prefix, 0) == 0) return "test.yaml:" + msg.substr(prefix.size());
    if (msg.rfind(f.path(), 0) == 0) return "test.yaml" + msg.substr(f.path().size());
    return msg;
}

}  // namespace

TEST_CASE("no file and no overrides gives the defaults", "[config]") {
    const config c = load_config("", {});
    CHECK(c.sw.ports == 64);
    CHECK(c.sw.buffer_per_vl.count == 32768);
    CHECK(c.link.rate.bps == 400000000000);
    CHECK(c.link.fc_refresh_period.ps == 4096000);
    CHECK(c.traffic.pattern == "uniform");
}

TEST_CASE("YAML with nested sections and dotted keys", "[config]") {
    const temp_yaml f(
        "# a test configuration\n"
        "switch:\n"
        "  ports: 8\n"
        "  buffer_per_vl: 16KiB\n"
        "  queueing: fifo\n"
        "  speedup: 1.5\n"
        "  cut_through: false\n"
        "  sl2vl: \"0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,15\"\n"
        "link: {rate: 200Gbps, cable_length: 30m}\n"
        "link.fec_latency: 50ns\n"
        "traffic.pattern: hotspot\n"
        "traffic.size: 256@3,4096@1\n"
        "sim:\n"
        "  seed: 42\n"
        "  measure_cycles: 1000\n"
        "endpoint:\n");
    const config c = load_config(f.path(), {});
    CHECK(c.sw.ports == 8);
    CHECK(c.sw.buffer_per_vl.count == 16384);
    CHECK(c.sw.queueing == "fifo");
    CHECK(c.sw.speedup == 1.5);
    CHECK_FALSE(c.sw.cut_through);
    CHECK(c.sw.sl2vl == "0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,15");
    CHECK(c.link.rate.bps == 200000000000);
    CHECK(c.link.cable_length.mm == 30000);
    CHECK(c.link.fec_latency.ps == 50000);
    CHECK(c.traffic.pattern == "hotspot");
    CHECK(c.traffic.size == "256@3,4096@1");
    CHECK(c.sim.seed == 42);
    CHECK(c.sim.measure_cycles == 1000);
    // untouched keys keep their defaults
    CHECK(c.sw.vls == 2);
    CHECK(c.link.propagation_per_m.ps == 5000);
}

TEST_CASE("the fixture file loads", "[config]") {
    const config c = load_config(NDR_TEST_DATA_DIR "/config/small_switch.yaml", {});
    CHECK(c.sw.ports == 8);
    CHECK(c.sw.mtu.count == 2048);
    CHECK(c.sw.buffer_per_vl.count == 8192);
    CHECK(c.traffic.load == 0.8);
}

TEST_CASE("command-line --set overrides the file, in order", "[config]") {
    const temp_yaml f("switch:\n  ports: 8\n  vls: 4\n");
    const config c = load_config(f.path(), {"switch.ports=16", "traffic.load = 0.9",
                                            "switch.ports=32", "switch.vl_arb_low=0:64,1:128"});
    CHECK(c.sw.ports == 32);
    CHECK(c.sw.vls == 4);
    CHECK(c.traffic.load == 0.9);
    CHECK(c.sw.vl_arb_low == "0:64,1:128");

    config d;
    apply_set(d, "switch.latency=130ns");
    CHECK(d.sw.latency.ps == 130000);
    set_value(d, "switch.ports", "4", config_source::flag("--ports"));
    CHECK(d.sw.ports == 4);
}

TEST_CASE("file errors name file, line, key and reason", "[config]") {
    SECTION("unknown key with a suggestion") {
        CHECK(yaml_error("switch:\n  ports: 8\n  bufer_per_vl: 16KiB\n") ==
              "test.yaml:3: switch.bufer_per_vl: unknown key, did you mean switch.buffer_per_vl?");
        CHECK(yaml_error("swich.ports: 8\n") ==
              "test.yaml:1: swich.ports: unknown key, did you mean switch.ports?");
        CHECK(yaml_error("link:\n  rate: 400Gbps\nports: 8\n") ==
              "test.yaml:3: ports: unknown key, did you mean switch.ports?");
        CHECK(yaml_error("swtich:\n  ports: 8\n") ==
              "test.yaml:1: swtich: unknown key, did you mean switch?");
        CHECK(yaml_error("sim.frobnicate: 1\n") ==
              "test.yaml:1: sim.frobnicate: unknown key (see docs/configuration.md or "
              "'ndrsim config keys')");
    }
    SECTION("bad unit") {
        CHECK(yaml_error("# comment\nswitch:\n  latency: 300\n") ==
              "test.yaml:3: switch.latency: a time needs a unit, e.g. 300ns, got '300' "
              "(units: ps, ns, us, ms, s)");
        CHECK(yaml_error("link.rate: 400Gb\n") ==
              "test.yaml:1: link.rate: expected a rate like 400Gbps, got '400Gb' (units: bps, "
              "Kbps, Mbps, Gbps, Tbps, KBps, MBps, GBps, TBps)");
        CHECK(yaml_error("switch:\n  buffer_per_vl: 32KB/s\n") ==
              "test.yaml:2: switch.buffer_per_vl: expected a size like 32KiB, got '32KB/s' "
              "(units: B, KiB, MiB, GiB, KB, MB, GB; plain number = B)");
    }
    SECTION("out of range") {
        CHECK(yaml_error("switch:\n  vls: 2\n  ports: 65\n") ==
              "test.yaml:3: switch.ports: must be in 2..64, got 65");
        CHECK(yaml_error("switch.speedup: 0.5\n") ==
              "test.yaml:1: switch.speedup: must be 1.0 <= x <= 4.0, got 0.5");
        CHECK(yaml_error("traffic:\n  load: 0\n") ==
              "test.yaml:2: traffic.load: must be 0 < x <= 1, got 0");
        CHECK(yaml_error("switch:\n  mtu: 1500\n") ==
              "test.yaml:2: switch.mtu: must be one of 256B|512B|1024B|2048B|4096B, got 1500B");
        CHECK(yaml_error("switch:\n  buffer_per_vl: 256KiB\n") ==
              "test.yaml:2: switch.buffer_per_vl: must be at most 2048 credit blocks (128KiB) "
              "per VL, the most that may be outstanding (docs/domain.md §2.2), got 256KiB");
        CHECK(yaml_error("switch:\n  ports: 99999999999\n") ==
              "test.yaml:2: switch.ports: '99999999999' is too large (at most 4294967295)");
    }
    SECTION("wrong enum lists the allowed values") {
        CHECK(yaml_error("switch:\n  queueing: vqo\n") ==
              "test.yaml:2: switch.queueing: expected one of voq, fifo, got 'vqo'");
        CHECK(yaml_error("\n\ntraffic.pattern: tornado\n") ==
              "test.yaml:3: traffic.pattern: expected one of uniform, permutation, hotspot, "
              "incast, bitcomp, got 'tornado'");
    }
    SECTION("wrong type") {
        CHECK(yaml_error("switch:\n  ports: eight\n") ==
              "test.yaml:2: switch.ports: expected a whole number like 8, got 'eight'");
        CHECK(yaml_error("switch:\n  cut_through: yes please\n") ==
              "test.yaml:2: switch.cut_through: expected true or false, got 'yes please'");
        CHECK(yaml_error("switch:\n  ports: [1, 2]\n") ==
              "test.yaml:2: switch.ports: expected a single value, got a list");
        CHECK(yaml_error("switch:\n  ports:\n") ==
              "test.yaml:2: switch.ports: missing value (range: 2..64)");
    }
    SECTION("cross-field validation points at the line that set the key") {
        CHECK(yaml_error("switch:\n  mtu: 4096\n  buffer_per_vl: 4KiB\n") ==
              "test.yaml:3: switch.buffer_per_vl: must hold one MTU packet: switch.mtu 4096B + "
              "126B headers rounded up to 64-byte blocks = 4224B (66 blocks), got 4KiB");
        // The same buffer is fine with a smaller MTU set later in the file.
        const temp_yaml ok(
            "switch:\n  buffer_per_vl: 4KiB\n  output_buffer: 4KiB\n"
            "  mtu: 2048\ntraffic.size: 2048\nendpoint.rx_buffer_per_vl: 2240\n");
        CHECK(load_config(ok.path(), {}).sw.buffer_per_vl.count == 4096);
        CHECK(yaml_error("endpoint:\n  rx_buffer_per_vl: 4160\n") ==
              "test.yaml:2: endpoint.rx_buffer_per_vl: must hold one MTU packet: switch.mtu "
              "4096B + 126B headers rounded up to 64-byte blocks = 4224B (66 blocks), got 4160B");
        CHECK(yaml_error("traffic:\n  pattern: hotspot\n  hot_port: 8\nswitch.ports: 8\n") ==
              "test.yaml:3: traffic.hot_port: must be a port of the switch, < switch.ports 8, "
              "got 8");
        CHECK(yaml_error("switch.ports: 6\ntraffic.pattern: bitcomp\n") ==
              "test.yaml:2: traffic.pattern: bitcomp needs a power-of-two switch.ports, got 6 "
              "ports");
        CHECK_THAT(yaml_error("switch:\n  vls: 2\n  sl2vl: \"0,1,2,0,1,2,0,1,2,0,1,2,0,1,2,0\"\n"),
                   Catch::StartsWith("test.yaml:3: switch.sl2vl: "));
        CHECK_THAT(yaml_error("switch.vl_arb_low: \"0:64,5:64\"\n"),
                   Catch::StartsWith("test.yaml:1: switch.vl_arb_low: "));
        CHECK_THAT(yaml_error("switch.vl_arb_high: \"0:300\"\n"),
                   Catch::StartsWith("test.yaml:1: switch.vl_arb_high: "));
        CHECK(yaml_error("switch.mtu: 1024\n") ==
              "traffic.size: payload 4096B exceeds switch.mtu 1024B");
    }
    SECTION("file-level problems") {
        CHECK(yaml_error("- 1\n- 2\n") ==
              "test.yaml:1: the top level must be a map of sections such as 'switch: {ports: 8}' "
              "or dotted keys such as 'switch.ports: 8', got a list");
        CHECK(yaml_error("switch:\n  ports: 8\n  ports: 16\n") ==
              "test.yaml:3: switch.ports: duplicate key (already set on line 2)");
        CHECK(yaml_error("switch:\n  ports: 8\nswitch.ports: 16\n") ==
              "test.yaml:3: switch.ports: duplicate key (already set on line 2)");
        CHECK(yaml_error("switch: 8\n") ==
              "test.yaml:1: switch: a section must be a map of keys such as 'ports: 8', got a "
              "single value");
        CHECK_THAT(yaml_error("switch: {ports: 8\n"),
                   Catch::StartsWith("test.yaml:") && Catch::Contains("YAML syntax error"));
        CHECK(load_error("/nonexistent/dir/x.yaml") ==
              "/nonexistent/dir/x.yaml: cannot read the file: No such file or directory");
        CHECK(load_config(temp_yaml("# nothing but a comment\n").path(), {}).sw.ports == 64);
    }
}

TEST_CASE("command-line --set errors", "[config]") {
    CHECK(load_error("", {"switch.ports=100"}) == "--set switch.ports: must be in 2..64, got 100");
    CHECK(load_error("", {"switch.prots=8"}) ==
          "--set switch.prots: unknown key, did you mean switch.ports?");
    CHECK(load_error("", {"switch.latency=300"}) ==
          "--set switch.latency: a time needs a unit, e.g. 300ns, got '300' (units: ps, ns, us, "
          "ms, s)");
    CHECK(load_error("", {"switch.ports"}) ==
          "--set: expected KEY=VALUE such as switch.ports=8, got 'switch.ports'");
    CHECK(load_error("", {"switch.buffer_per_vl=2KiB"}) ==
          "--set switch.buffer_per_vl: must hold one MTU packet: switch.mtu 4096B + 126B headers "
          "rounded up to 64-byte blocks = 4224B (66 blocks), got 2KiB");
    // A CLI flag mapped onto a key names itself.
    config c;
    try {
        set_value(c, "switch.ports", "1", config_source::flag("--ports"));
        FAIL("no error");
    } catch (const config_error& e) {
        CHECK(std::string(e.what()) == "--ports switch.ports: must be in 2..64, got 1");
        CHECK(e.key == "switch.ports");
        CHECK(e.reason == "must be in 2..64, got 1");
    }
    CHECK(c.sw.ports == 64);  // unchanged on error
    // --set wins over the file, and the file line is not blamed for the override.
    const temp_yaml f("switch:\n  ports: 8\n");
    CHECK(load_error(f.path(), {"traffic.hot_port=9"}) ==
          "--set traffic.hot_port: must be a port of the switch, < switch.ports 8, got 9");
}

namespace {

bool ends_with(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

TEST_CASE("a very long unknown key is answered at once", "[config]") {
    // Found by fuzzing (tests/fuzz): the typo suggestion compared names with a full edit-distance
    // table, quadratic in the length; a 30 KB key took minutes, these would take hours. (The
    // 200 KB messages are checked by their ends, not printed.)
    const std::string section(200000, 's');
    const std::string wrong_section = load_error("", {section + ".ports=1"});
    CHECK(wrong_section.rfind("--set ssss", 0) == 0);
    CHECK(ends_with(wrong_section, "s.ports: unknown key, did you mean switch.ports?"));
    const std::string field(200000, 'f');
    const std::string unknown_field = load_error("", {"switch." + field + "=1"});
    CHECK(unknown_field.rfind("--set switch.ffff", 0) == 0);
    CHECK(ends_with(unknown_field,
                    "f: unknown key (see docs/configuration.md or 'ndrsim config keys')"));
    // Suggestions within three edits are unchanged (see "command-line --set errors").
    CHECK(load_error("", {"swich.prots=8"}) ==
          "--set swich.prots: unknown key, did you mean switch.ports?");
}

TEST_CASE("validate() of a config built in code names the field", "[config]") {
    CHECK_NOTHROW(validate(config{}));
    config c;
    c.sw.vls = 0;
    CHECK_THROWS_WITH(validate(c), "switch.vls: must be in 1..15, got 0");
    c = config{};
    c.sw.queueing = "crossbar";
    CHECK_THROWS_WITH(validate(c), "switch.queueing: must be one of voq|fifo, got crossbar");
    c = config{};
    c.link.rate = rate_bps_t{0};
    CHECK_THROWS_WITH(validate(c), "link.rate: must be > 0, got 0bps");
    c = config{};
    c.sw.output_buffer = bytes_t{4096};
    CHECK_THROWS_WITH(validate(c), Catch::StartsWith("switch.output_buffer: must hold one MTU"));
    c = config{};
    c.sw.buffer_per_vl = bytes_t{5000};
    CHECK_THROWS_WITH(validate(c),
                      "switch.buffer_per_vl: must be a whole number of 64-byte "
                      "credit blocks, got 5KB");
    c = config{};
    c.traffic.incast_sources = 64;
    CHECK_THROWS_WITH(validate(c),
                      "traffic.incast_sources: must be at most switch.ports - 1 = "
                      "63, got 64");
    c = config{};
    c.traffic.sl = "0@1,16@1";
    CHECK_THROWS_WITH(validate(c), Catch::StartsWith("traffic.sl: value 16"));
    CHECK(mtu_packet_buffer_bytes(4096) == 4224);
    CHECK(mtu_packet_buffer_bytes(256) == 384);
}
