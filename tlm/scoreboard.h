// Scoreboard for a switch DUT (any level): from the stimulus (packets injected at each input,
// with time) it predicts, with the golden LFT and SL2VL, the packets each output must deliver,
// payload-exact (identity fields of ib_extension) and in order per (input, output, VL), and
// checks the DUT's outputs against that. Order between different (input, VL) streams is free
// (arbitration decides it). The first mismatch is kept with time, port, VL, expected and got.
// SystemC-free: the harness forwards what it observes.
#pragma once
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "golden/lft.h"
#include "golden/sl2vl.h"
#include "ib_extension.h"

namespace ndr::tlmm {

/// The fields a packet must carry unchanged through the switch (plus the VL it leaves on).
struct sb_packet {
    uint64_t id = 0;
    uint64_t created = 0;
    uint32_t flow_seq = 0;
    uint32_t wire_bytes = 0;
    uint16_t blocks = 0;
    uint16_t beats = 0;
    uint16_t src = 0;
    uint16_t dst = 0;
    uint8_t sl = 0;
    uint8_t vl = 0;
    static sb_packet of(const ib_extension& e);
    bool operator==(const sb_packet& o) const;
    std::string str() const;
};

struct sb_mismatch {
    uint64_t time = 0;  ///< cycle of the output (or of the end-of-test check)
    uint16_t port = 0;  ///< output port
    uint8_t vl = 0;
    std::optional<sb_packet> expected;
    std::optional<sb_packet> got;
    std::string str() const;
};

class scoreboard {
public:
    scoreboard(golden::lft routes, golden::sl2vl_table sl2vl, uint32_t ports);
    /// A packet entered the DUT on input `port` at cycle t (VL = the VL of that link).
    void on_input(uint64_t t, uint16_t port, const ib_extension& e);
    /// A packet left the DUT on output `port` at cycle t. Returns false on a mismatch.
    bool on_output(uint64_t t, uint16_t port, const ib_extension& e);
    /// End of test at cycle t: every predicted packet must have come out (call after draining).
    bool finish(uint64_t t);
    bool ok() const { return !first_.has_value(); }
    const std::optional<sb_mismatch>& first_mismatch() const { return first_; }
    uint64_t matched() const { return matched_; }
    uint64_t mismatches() const { return mismatches_; }
    uint64_t pending() const;

private:
    uint32_t key(uint32_t in, uint32_t out, uint32_t vl) const {
        return (in * ports_ + out) * 16 + vl;
    }
    void record(sb_mismatch m);

    golden::lft routes_;
    golden::sl2vl_table sl2vl_;
    uint32_t ports_;
    std::vector<std::deque<sb_packet>> expect_;        ///< [(in*ports + out)*16 + vl]
    std::unordered_map<uint64_t, uint16_t> input_of_;  ///< packet id -> input port
    std::optional<sb_mismatch> first_;
    uint64_t matched_ = 0;
    uint64_t mismatches_ = 0;
};

}  // namespace ndr::tlmm
