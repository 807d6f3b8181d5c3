// SL-to-VL mapping per (input port, output port) pair (docs/domain.md §3).
#include "golden/sl2vl_ports.h"

#include <fmt/format.h>

#include <cstddef>
#include <stdexcept>
#include <string_view>

#include "golden/table_parse.h"

namespace ndr::golden {

namespace {

/// A port number < ports, or `*` (returns ports: every port).
unsigned parse_port(std::string_view tok, unsigned ports, std::string_view entry) {
    if (tok == "*") return ports;
    unsigned p = 0;
    if (!parse_small_uint(tok, 255, p) || p >= ports) {
        throw std::invalid_argument(
            fmt::format("sl2vl_ports: bad port \"{}\" in entry \"{}\": expected a port number "
                        "0..{} or *",
                        tok, entry, ports - 1));
    }
    return p;
}

}  // namespace

sl2vl_ports sl2vl_ports::parse(const sl2vl_table& base, const std::string& spec, unsigned ports,
                               unsigned num_data_vls) {
    sl2vl_ports t(base);
    const std::string_view all = trim(spec);
    if (all.empty()) return t;
    if (ports == 0) throw std::invalid_argument("sl2vl_ports: a switch needs ports");
    t.ports_ = ports;
    t.per_pair_.resize(std::size_t{ports} * ports * 16);
    for (std::size_t k = 0; k < t.per_pair_.size(); ++k) {
        t.per_pair_[k] = base.vl(static_cast<uint8_t>(k % 16));
    }
    std::size_t start = 0;
    while (start <= all.size()) {
        const std::size_t semi = all.find(';', start);
        const std::string_view entry = trim(all.substr(
            start, semi == std::string_view::npos ? std::string_view::npos : semi - start));
        start = semi == std::string_view::npos ? all.size() + 1 : semi + 1;
        if (entry.empty()) continue;  // a trailing ';'
        const std::size_t colon = entry.find(':');
        const std::size_t eq = entry.find('=');
        if (colon == std::string_view::npos || eq == std::string_view::npos || colon > eq) {
            throw std::invalid_argument(fmt::format(
                "sl2vl_ports: entry \"{}\" is not IN:OUT=16 comma-separated VLs", entry));
        }
        const unsigned in = parse_port(trim(entry.substr(0, colon)), ports, entry);
        const unsigned out =
            parse_port(trim(entry.substr(colon + 1, eq - colon - 1)), ports, entry);
        sl2vl_table table = sl2vl_table::modulo(num_data_vls);
        try {
            table = sl2vl_table::parse(std::string(entry.substr(eq + 1)), num_data_vls);
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument(
                fmt::format("sl2vl_ports: entry \"{}\": {}", entry, e.what()));
        }
        for (unsigned i = 0; i < ports; ++i) {
            if (in != ports && i != in) continue;
            for (unsigned o = 0; o < ports; ++o) {
                if (out != ports && o != out) continue;
                for (unsigned sl = 0; sl < 16; ++sl) {
                    t.per_pair_[(std::size_t{i} * ports + o) * 16 + sl] =
                        table.vl(static_cast<uint8_t>(sl));
                }
            }
        }
    }
    return t;
}

}  // namespace ndr::golden
