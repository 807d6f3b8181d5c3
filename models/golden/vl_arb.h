// IB output-port VL arbitration (IB Vol.1 §7.6.9; docs/domain.md §3), SystemC-free.
// A high- and a low-priority table of (VL, weight) entries; weight in 64-byte units,
// 0 skips the entry. LimitOfHighPriority counts 4096-byte units of high-priority data that may
// pass while low-priority packets wait (255 = unbounded, 0 = one packet).
// VL15 is not in the tables: it always wins (the caller may handle it before calling pick, or
// set bit 15 of ready_mask; see vl_arbiter::pick).
//
// Exact semantics implemented by vl_arbiter (the reference for the cycle model and the RTL):
//
// Tables. Each table is served on its own with a current-entry pointer `idx` and the bytes
// `left` of the current entry's turn. Initially idx = 0 and left = weight[0] * 64.
//  * An entry "is eligible" iff its weight > 0 and its VL's ready bit is set. A VL's ready bit
//    means a packet is at its head and the caller has checked its credits.
//  * Serving a table: if the current entry is eligible and left > 0, its VL is chosen.
//    Otherwise the entries idx+1, idx+2, ... (wrapping around, ending with idx itself) are
//    scanned and the first eligible one is chosen; choosing it starts a new turn for it with
//    its full weight (left = weight * 64). Weight-0 entries are never chosen.
//  * A packet may start whenever left > 0; its wire bytes are then subtracted, so the last
//    packet of a turn may overshoot (left <= 0). The overshoot is NOT carried to the entry's
//    next turn (standard IB; each turn restarts at the full weight).
//  * Idle VL: if the current entry's VL is not ready and the table sends from another entry,
//    the current entry's remaining weight is lost (IB: the entry is skipped); when the pointer
//    comes back to it, it starts a fresh turn. The skip happens only when the table actually
//    sends (commit), never in pick: a table that is not served (e.g. low while high sends, or
//    an idle port) keeps its pointer and remaining weight, so a VL that is only briefly
//    unready keeps its turn if nothing else was sent from its table meanwhile.
//  * A VL may appear in several entries: each entry is a separate turn with its own weight.
//  * Consequence for long runs with all VLs always ready: each nonzero entry gets one turn per
//    round, and a turn sends packets until at least weight*64 bytes have gone. Shares equal the
//    weight ratios exactly when the packet size divides weight*64 (e.g. 4096 B packets and
//    weights that are multiples of 64, docs/domain.md §3); with mixed sizes the overshoot inflates
//    small-weight entries (0:64,1:192 with sizes uniform on 256..4096 B gives 29.0 % / 71.0 %,
//    not 25 % / 75 %; see vl_arb_test.cpp). Weights large relative to the MTU shrink the error.
//
// High versus low priority. hs = high-priority wire bytes sent since the last low-priority
// packet (reset to 0 only when a low-priority packet is sent; it also counts high bytes sent
// while no low packet was waiting). The limit is reached iff L != 255 and hs >= max(L*4096, 1);
// so L = 0 allows exactly one high packet, L = n allows high packets to START while fewer than
// n*4096 bytes were sent (the last one may overshoot).
//  * If some VL of the high table is eligible, and not (limit reached and some VL of the low
//    table is eligible), the high table is served.
//  * Otherwise, if some VL of the low table is eligible, the low table is served (hs := 0).
//  * Otherwise pick returns -1.
//  Because hs also counts high bytes sent while low was idle, a low packet that becomes ready
//  after >= L*4096 high bytes is sent at the next decision ("the opportunity stays open").
//  When high is pre-empted by the limit, its current entry keeps its remaining weight.
//
// Hot path: pick and commit are O(1) when the current entry continues, otherwise a scan of at
// most 64 entries of one table; no allocation, no exceptions unless the contract is broken.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ndr::golden {

inline constexpr std::size_t VL_ARB_MAX_ENTRIES = 64;      ///< per table (IB: up to 64)
inline constexpr uint8_t VL_ARB_LIMIT_UNBOUNDED = 255;     ///< LimitOfHighPriority: no limit
inline constexpr uint32_t VL_ARB_WEIGHT_BYTES = 64;        ///< bytes per weight unit
inline constexpr uint32_t VL_ARB_LIMIT_UNIT_BYTES = 4096;  ///< bytes per LimitOfHighPriority unit
inline constexpr int VL_MGMT = 15;                         ///< VL15, subnet management

struct vl_arb_entry {
    uint8_t vl = 0;      ///< 0..14
    uint8_t weight = 0;  ///< 64-byte units, 0..255; 0 = entry skipped
};

struct vl_arb_table {
    std::vector<vl_arb_entry> high;  ///< up to 64 entries
    std::vector<vl_arb_entry> low;   ///< up to 64 entries
    uint8_t limit_of_high_priority = 0;
    /// Validates entry counts (<= 64 per table), VL numbers (< num_data_vls, 1..15 data VLs)
    /// and that at least one entry has a nonzero weight; throws std::invalid_argument.
    void validate(unsigned num_data_vls) const;
    /// Default table for n data VLs: low table only, one entry per VL with weight 64
    /// (one 4 KiB MTU per turn), high table empty (docs/domain.md §13: low-priority table only).
    /// Throws std::invalid_argument unless 1 <= n <= 15 and weight > 0.
    static vl_arb_table equal_weights(unsigned num_data_vls, uint8_t weight = 64);
    /// Parses "vl:weight,vl:weight,..." for each table (whitespace around tokens ignored;
    /// vl 0..14, weight 0..255). Empty high = no high table; empty low = equal_weights(n).
    /// The result is validate()d against num_data_vls. Throws std::invalid_argument naming
    /// the table and the bad token.
    static vl_arb_table parse(const std::string& high, const std::string& low, uint8_t limit,
                              unsigned num_data_vls);
};

/// Arbiter state machine. Usage per decision: pick() from current state (evaluate), then
/// commit(vl, bytes) for the packet actually sent (commit). pick() has no side effects.
class vl_arbiter {
public:
    /// Throws std::invalid_argument if table.validate(15) fails.
    explicit vl_arbiter(vl_arb_table table);
    /// ready_mask bit v set = VL v has a packet that may be sent now (credits checked by the
    /// caller). Returns the VL to send, or -1 if no ready VL can be scheduled (ready_mask == 0,
    /// or every ready VL has no nonzero-weight entry: such a VL is never served). If bit 15 is
    /// set, returns 15 (VL15 always wins). Bits above 15 are ignored.
    int pick(uint32_t ready_mask) const;
    /// Account a packet of wire_bytes sent on vl (must be the result of pick for the same state).
    /// commit(15, ..) changes no state. Throws std::logic_error if vl is out of range, has no
    /// nonzero-weight entry, or wire_bytes == 0.
    void commit(int vl, uint32_t wire_bytes) {
        // Hot path, inline: no high table and the current low entry continues its turn (the
        // first case of commit_in). Everything else, including errors, goes to commit_slow.
        // lo_vl_ caches table_.low[lo_.idx].vl: the fast path reads only the first cache line
        // of the object, not the table on the heap.
        if (hi_vls_ == 0 && wire_bytes != 0 && vl >= 0 && vl < VL_MGMT && lo_.left > 0 &&
            lo_vl_ == vl) {
            lo_.left -= wire_bytes;
            hi_sent_since_low_ = 0;
            return;
        }
        commit_slow(vl, wire_bytes);
    }
    const vl_arb_table& table() const { return table_; }
    /// VLs with a nonzero-weight entry in either table: pick(1 << v) == v exactly for these.
    uint32_t weighted_vls() const { return hi_vls_ | lo_vls_; }

    // Inspection (tests, traces). `high` selects the table.
    /// Index of the table's current entry.
    std::size_t current_entry(bool high) const { return (high ? hi_ : lo_).idx; }
    /// Bytes left in the current entry's turn (<= 0: exhausted, may be negative by overshoot).
    int64_t weight_left_bytes(bool high) const { return (high ? hi_ : lo_).left; }
    /// High-priority bytes sent since the last low-priority packet.
    uint64_t high_bytes_since_low() const { return hi_sent_since_low_; }
    /// True iff the LimitOfHighPriority is reached (low wins if it has a ready VL).
    bool high_limit_reached() const {
        return !hi_unbounded_ && hi_sent_since_low_ >= hi_limit_bytes_;
    }

private:
    struct table_state {
        std::size_t idx = 0;  ///< current entry
        int64_t left = 0;     ///< bytes left in the current entry's turn
    };
    void commit_slow(int vl, uint32_t wire_bytes);
    static int pick_in(const std::vector<vl_arb_entry>& entries, const table_state& st,
                       uint32_t ready);
    static bool commit_in(const std::vector<vl_arb_entry>& entries, table_state& st, int vl,
                          uint32_t wire_bytes);

    // Hot state first (weighted_vls and the commit fast path touch one cache line).
    uint32_t hi_vls_ = 0;  ///< VLs with a nonzero-weight entry in the high table
    uint32_t lo_vls_ = 0;  ///< VLs with a nonzero-weight entry in the low table
    table_state lo_;
    int lo_vl_ = -1;                  ///< table_.low[lo_.idx].vl (-1: empty low table)
    uint64_t hi_sent_since_low_ = 0;  ///< high-priority bytes since low last had a turn
    table_state hi_;
    uint64_t hi_limit_bytes_ = 1;  ///< max(L * 4096, 1)
    bool hi_unbounded_ = false;    ///< L == 255
    vl_arb_table table_;
};

}  // namespace ndr::golden
