// Linear forwarding table (docs/domain.md §4).
#include "golden/lft.h"

#include <algorithm>
#include <cstddef>
#include <stdexcept>

#include <fmt/format.h>

namespace ndr::golden {

namespace {
void check_unicast(uint16_t lid, const char* what) {
    if (lid > LID_UNICAST_MAX) {
        throw std::invalid_argument(fmt::format(
            "lft: {} 0x{:04X} is not a unicast LID (max 0x{:04X})", what, lid, LID_UNICAST_MAX));
    }
}
}  // namespace

lft::lft(uint16_t top_lid) {
    check_unicast(top_lid, "top_lid");
    ports_.assign(static_cast<std::size_t>(top_lid) + 1, LFT_NO_ROUTE);
}

void lft::set(uint16_t dlid, uint8_t port) {
    check_unicast(dlid, "DLID");
    if (dlid >= ports_.size()) {
        ports_.resize(static_cast<std::size_t>(dlid) + 1, LFT_NO_ROUTE);
    }
    ports_[dlid] = port;
}

std::vector<uint8_t> lft::block(uint16_t b) const {
    if (b >= LFT_MAX_BLOCKS) {
        throw std::invalid_argument(fmt::format(
            "lft: block {} out of range (unicast LIDs span blocks 0..{})", b, LFT_MAX_BLOCKS - 1));
    }
    std::vector<uint8_t> out(LFT_BLOCK_ENTRIES, LFT_NO_ROUTE);
    const std::size_t first = static_cast<std::size_t>(b) * LFT_BLOCK_ENTRIES;
    if (first < ports_.size()) {
        const std::size_t n = std::min<std::size_t>(LFT_BLOCK_ENTRIES, ports_.size() - first);
        std::copy_n(ports_.begin() + static_cast<std::ptrdiff_t>(first), n, out.begin());
    }
    return out;
}

}  // namespace ndr::golden
