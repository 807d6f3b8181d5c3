// IB output-port VL arbitration (IB Vol.1 §7.6.9; docs/domain.md §3). Semantics: see vl_arb.h.
#include "golden/vl_arb.h"
#include "golden/table_parse.h"

#include <cctype>
#include <stdexcept>
#include <string_view>
#include <utility>

#include <fmt/format.h>

namespace ndr::golden {

namespace {

constexpr unsigned MAX_DATA_VLS = 15;

void check_num_vls(unsigned num_data_vls) {
    if (num_data_vls < 1 || num_data_vls > MAX_DATA_VLS) {
        throw std::invalid_argument(
            fmt::format("vl_arb: number of data VLs must be 1..15, got {}", num_data_vls));
    }
}

void validate_entries(const std::vector<vl_arb_entry>& entries, const char* name,
                      unsigned num_data_vls) {
    if (entries.size() > VL_ARB_MAX_ENTRIES) {
        throw std::invalid_argument(fmt::format("vl_arb {} table: {} entries, at most {}", name,
                                                entries.size(), VL_ARB_MAX_ENTRIES));
    }
    for (std::size_t i = 0; i < entries.size(); ++i) {
        if (entries[i].vl >= num_data_vls) {
            throw std::invalid_argument(
                fmt::format("vl_arb {} table entry {}: VL {} is not a data VL (VL0..VL{})", name, i,
                            entries[i].vl, num_data_vls - 1));
        }
    }
}

uint32_t vl_mask(const std::vector<vl_arb_entry>& entries) {
    uint32_t m = 0;
    for (const auto& e : entries) {
        if (e.weight != 0) m |= 1U << e.vl;
    }
    return m;
}

std::vector<vl_arb_entry> parse_entries(const std::string& text, const char* name) {
    std::vector<vl_arb_entry> out;
    const std::string_view all = trim(text);
    if (all.empty()) return out;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = all.find(',', start);
        const std::string_view tok = trim(all.substr(
            start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
        const std::size_t colon = tok.find(':');
        unsigned vl = 0;
        unsigned weight = 0;
        if (colon == std::string_view::npos ||
            !parse_small_uint(trim(tok.substr(0, colon)), MAX_DATA_VLS - 1, vl) ||
            !parse_small_uint(trim(tok.substr(colon + 1)), 255, weight)) {
            throw std::invalid_argument(fmt::format(
                "vl_arb {} table: bad token \"{}\" (expected vl:weight with vl 0..14 and "
                "weight 0..255) in \"{}\"",
                name, tok, text));
        }
        out.push_back(vl_arb_entry{static_cast<uint8_t>(vl), static_cast<uint8_t>(weight)});
        if (comma == std::string_view::npos) break;
        start = comma + 1;
    }
    return out;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// vl_arb_table

void vl_arb_table::validate(unsigned num_data_vls) const {
    check_num_vls(num_data_vls);
    validate_entries(high, "high", num_data_vls);
    validate_entries(low, "low", num_data_vls);
    if (vl_mask(high) == 0 && vl_mask(low) == 0) {
        throw std::invalid_argument(
            "vl_arb: no table entry has a nonzero weight, so no data VL could ever be sent");
    }
}

vl_arb_table vl_arb_table::equal_weights(unsigned num_data_vls, uint8_t weight) {
    check_num_vls(num_data_vls);
    if (weight == 0) {
        throw std::invalid_argument("vl_arb: equal_weights needs a weight > 0");
    }
    vl_arb_table t;
    for (unsigned vl = 0; vl < num_data_vls; ++vl) {
        t.low.push_back(vl_arb_entry{static_cast<uint8_t>(vl), weight});
    }
    t.limit_of_high_priority = 0;
    return t;
}

vl_arb_table vl_arb_table::parse(const std::string& high, const std::string& low, uint8_t limit,
                                 unsigned num_data_vls) {
    check_num_vls(num_data_vls);
    vl_arb_table t;
    t.high = parse_entries(high, "high");
    if (trim(low).empty()) {
        t.low = equal_weights(num_data_vls).low;
    } else {
        t.low = parse_entries(low, "low");
    }
    t.limit_of_high_priority = limit;
    t.validate(num_data_vls);
    return t;
}

// ---------------------------------------------------------------------------------------------
// vl_arbiter

vl_arbiter::vl_arbiter(vl_arb_table table) : table_(std::move(table)) {
    table_.validate(MAX_DATA_VLS);
    if (!table_.low.empty()) lo_vl_ = table_.low[0].vl;
    hi_vls_ = vl_mask(table_.high);
    lo_vls_ = vl_mask(table_.low);
    if (!table_.high.empty()) hi_.left = int64_t{table_.high[0].weight} * VL_ARB_WEIGHT_BYTES;
    if (!table_.low.empty()) lo_.left = int64_t{table_.low[0].weight} * VL_ARB_WEIGHT_BYTES;
    const uint8_t lim = table_.limit_of_high_priority;
    hi_unbounded_ = lim == VL_ARB_LIMIT_UNBOUNDED;
    hi_limit_bytes_ = lim == 0 ? 1 : uint64_t{lim} * VL_ARB_LIMIT_UNIT_BYTES;
}

int vl_arbiter::pick_in(const std::vector<vl_arb_entry>& entries, const table_state& st,
                        uint32_t ready) {
    // `ready` only holds VLs with a nonzero-weight entry in this table, so the scan succeeds.
    const std::size_t n = entries.size();
    const vl_arb_entry& cur = entries[st.idx];
    if (st.left > 0 && ((ready >> cur.vl) & 1U) != 0) return cur.vl;
    std::size_t e = st.idx;
    for (std::size_t j = 0; j < n; ++j) {
        if (++e == n) e = 0;
        if (entries[e].weight != 0 && ((ready >> entries[e].vl) & 1U) != 0) {
            return entries[e].vl;
        }
    }
    return -1;
}

bool vl_arbiter::commit_in(const std::vector<vl_arb_entry>& entries, table_state& st, int vl,
                           uint32_t wire_bytes) {
    // Replays pick_in: the first entry it would choose whose VL is `vl`. Any entry scanned
    // before it has a different VL, which was not ready (else pick would have returned it).
    const std::size_t n = entries.size();
    if (st.left > 0 && entries[st.idx].vl == vl) {
        st.left -= wire_bytes;
        return true;
    }
    std::size_t e = st.idx;
    for (std::size_t j = 0; j < n; ++j) {
        if (++e == n) e = 0;
        if (entries[e].weight != 0 && entries[e].vl == vl) {
            st.idx = e;  // the previous entry's remaining weight, if any, is lost
            st.left = int64_t{entries[e].weight} * VL_ARB_WEIGHT_BYTES - int64_t{wire_bytes};
            return true;
        }
    }
    return false;
}

int vl_arbiter::pick(uint32_t ready_mask) const {
    if ((ready_mask & (1U << VL_MGMT)) != 0) return VL_MGMT;
    const uint32_t hi = ready_mask & hi_vls_;
    const uint32_t lo = ready_mask & lo_vls_;
    if (hi != 0 && !(lo != 0 && high_limit_reached())) return pick_in(table_.high, hi_, hi);
    if (lo != 0) return pick_in(table_.low, lo_, lo);
    return -1;
}

void vl_arbiter::commit_slow(int vl, uint32_t wire_bytes) {
    if (vl == VL_MGMT) return;
    if (vl < 0 || vl > VL_MGMT) {
        throw std::logic_error(fmt::format("vl_arbiter::commit: VL {} out of range", vl));
    }
    if (wire_bytes == 0) {
        throw std::logic_error(fmt::format("vl_arbiter::commit: 0-byte packet on VL {}", vl));
    }
    const uint32_t bit = 1U << static_cast<unsigned>(vl);
    const bool in_hi = (hi_vls_ & bit) != 0;
    const bool in_lo = (lo_vls_ & bit) != 0;
    // A VL in both tables was ready, so low had a ready VL: pick chose low iff the limit is
    // reached. A VL in one table can only have come from that table.
    const bool use_high = in_hi && !(in_lo && high_limit_reached());
    if (use_high) {
        commit_in(table_.high, hi_, vl, wire_bytes);
        hi_sent_since_low_ += wire_bytes;
    } else if (in_lo) {
        commit_in(table_.low, lo_, vl, wire_bytes);
        lo_vl_ = table_.low[lo_.idx].vl;
        hi_sent_since_low_ = 0;
    } else {
        throw std::logic_error(fmt::format(
            "vl_arbiter::commit: VL {} has no entry with nonzero weight in either table", vl));
    }
}

}  // namespace ndr::golden
