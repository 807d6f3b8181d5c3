// SL-to-VL mapping table (docs/domain.md §3).
#include "golden/sl2vl.h"
#include "golden/table_parse.h"

#include <cctype>
#include <cstddef>
#include <stdexcept>
#include <string_view>
#include <vector>

#include <fmt/format.h>

namespace ndr::golden {

namespace {

void check_num_vls(unsigned num_data_vls) {
    if (num_data_vls < 1 || num_data_vls > 15) {
        throw std::invalid_argument(
            fmt::format("sl2vl: number of data VLs must be 1..15, got {}", num_data_vls));
    }
}

}  // namespace

sl2vl_table sl2vl_table::modulo(unsigned num_data_vls) {
    check_num_vls(num_data_vls);
    std::array<uint8_t, 16> map{};
    for (unsigned sl = 0; sl < map.size(); ++sl) {
        map[sl] = static_cast<uint8_t>(sl % num_data_vls);
    }
    return sl2vl_table(map);
}

sl2vl_table sl2vl_table::parse(const std::string& csv, unsigned num_data_vls) {
    check_num_vls(num_data_vls);
    const std::string_view all = trim(csv);
    if (all.empty()) return modulo(num_data_vls);

    std::vector<std::string_view> tokens;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = all.find(',', start);
        tokens.push_back(trim(all.substr(
            start, comma == std::string_view::npos ? std::string_view::npos : comma - start)));
        if (comma == std::string_view::npos) break;
        start = comma + 1;
    }
    if (tokens.size() != 16) {
        throw std::invalid_argument(fmt::format(
            "sl2vl: expected exactly 16 comma-separated VLs (one per SL 0..15), got {} in \"{}\"",
            tokens.size(), csv));
    }
    std::array<uint8_t, 16> map{};
    for (std::size_t sl = 0; sl < tokens.size(); ++sl) {
        unsigned v = 0;
        if (!parse_small_uint(tokens[sl], 15, v)) {
            throw std::invalid_argument(fmt::format(
                "sl2vl: bad token \"{}\" for SL {}: expected a VL number 0..15 in \"{}\"",
                tokens[sl], sl, csv));
        }
        map[sl] = static_cast<uint8_t>(v);
    }
    sl2vl_table t(map);
    t.validate(num_data_vls);
    return t;
}

void sl2vl_table::validate(unsigned num_data_vls) const {
    check_num_vls(num_data_vls);
    for (std::size_t sl = 0; sl < map_.size(); ++sl) {
        const unsigned v = map_[sl];
        if (v == SL2VL_DROP) continue;
        if (v >= num_data_vls) {
            throw std::invalid_argument(
                fmt::format("sl2vl: SL {} maps to VL {}, but only {} data VL(s) exist (VL0..VL{}); "
                            "use 15 to drop",
                            sl, v, num_data_vls, num_data_vls - 1));
        }
    }
}

}  // namespace ndr::golden
