// Linear forwarding table: one 8-bit egress port per unicast DLID (docs/domain.md §4).
#pragma once
#include <cstdint>
#include <vector>

namespace ndr::golden {

inline constexpr uint16_t LID_UNICAST_MAX = 0xBFFF;
inline constexpr uint8_t LFT_NO_ROUTE = 0xFF;
inline constexpr uint16_t LFT_BLOCK_ENTRIES = 64;  ///< DLIDs per LinearForwardingTable block
/// Blocks covering every unicast LID 0..0xBFFF: 768 (blocks 0..767).
inline constexpr uint16_t LFT_MAX_BLOCKS = (LID_UNICAST_MAX + 1) / LFT_BLOCK_ENTRIES;

class lft {
public:
    /// Table covering DLIDs 0..top_lid, all entries LFT_NO_ROUTE.
    /// Throws std::invalid_argument if top_lid > LID_UNICAST_MAX.
    explicit lft(uint16_t top_lid = 0);
    /// Sets the egress port of dlid (port LFT_NO_ROUTE clears it). A dlid beyond top_lid grows
    /// the table (top_lid := dlid, new entries LFT_NO_ROUTE), as LinearFDBTop grows when the
    /// SM assigns LIDs. Throws std::invalid_argument if dlid > LID_UNICAST_MAX (multicast and
    /// permissive LIDs are not in the LFT).
    void set(uint16_t dlid, uint8_t port);
    /// Egress port for dlid, or LFT_NO_ROUTE if dlid is beyond the table or unset.
    uint8_t port(uint16_t dlid) const { return dlid < ports_.size() ? ports_[dlid] : LFT_NO_ROUTE; }
    uint16_t top_lid() const { return static_cast<uint16_t>(ports_.size() - 1); }
    /// 64-entry block b (IB SubnGet(LinearForwardingTable) granularity): entry i is the port of
    /// DLID 64*b + i; DLIDs beyond top_lid read LFT_NO_ROUTE. Throws std::invalid_argument if
    /// b >= LFT_MAX_BLOCKS (768). Not a hot-path call (allocates the returned vector).
    std::vector<uint8_t> block(uint16_t b) const;
    /// Blocks needed to cover DLIDs 0..top_lid: top_lid / 64 + 1.
    uint16_t num_blocks() const { return static_cast<uint16_t>(top_lid() / LFT_BLOCK_ENTRIES + 1); }

private:
    std::vector<uint8_t> ports_;  ///< index = DLID, size = top_lid + 1 (never empty)
};

}  // namespace ndr::golden
