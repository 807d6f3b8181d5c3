// The up-port choice of a RoCE switch among its ECMP members, per routing.ecmp_mode
// (docs/roce.md 'ECMP modes'). SystemC-free; the cycle switch (models/cycle/ib_switch_eth.cpp)
// calls it for every packet whose LFT port is an up port.
//  * flow: ecmp_member of the packet's 5-tuple with the switch's seed (one port per flow).
//  * flowlet: as flow, but the seed is salted with the flow's flowlet counter. A flow's first
//    packet at the switch has counter 0 (so it takes its flow port); a packet arriving more
//    than `flowlet_gap` after the flow's previous one at this switch increments it (a new
//    flowlet, counted by new_flowlets) and so re-draws the port (LetFlow-style random choice).
//  * spray: every packet draws a member from the switch's own seeded counter-based generator
//    (splitmix64 of seed and a packet counter), independent of its flow.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>

namespace ndr::golden {

enum class ecmp_mode : uint8_t { flow, flowlet, spray };

/// "flow" | "flowlet" | "spray". Throws std::invalid_argument for another name.
ecmp_mode ecmp_mode_of(const std::string& name);

/// The 5-tuple fields ECMP hashes (the protocol is UDP).
struct ecmp_flow {
    uint32_t src_ip = 0;
    uint32_t dst_ip = 0;
    uint16_t src_port = 0;
    uint16_t dst_port = 0;
};

class ecmp_selector {
public:
    /// `flowlet_gap` in the unit of the `now` passed to pick (the cycle switch: cycles).
    ecmp_selector(ecmp_mode mode, uint64_t flowlet_gap, uint32_t seed);

    /// Member 0..members-1 for a packet of flow `f` arriving at `now` (non-decreasing across
    /// calls). members = 0 returns 0.
    uint32_t pick(const ecmp_flow& f, uint64_t now, uint32_t members);

    /// flowlet: flowlets started after a flow's first (re-draws); 0 in the other modes.
    uint64_t new_flowlets() const { return new_flowlets_; }
    ecmp_mode mode() const { return mode_; }

    /// The seed of a flow's flowlet `n` (n = 0: `seed` itself).
    static uint32_t flowlet_seed(uint32_t seed, uint32_t n);

private:
    struct flowlet {
        uint64_t last = 0;
        uint32_t count = 0;
    };
    struct flow_hash {
        std::size_t operator()(const ecmp_flow& f) const;
    };
    struct flow_eq {
        bool operator()(const ecmp_flow& a, const ecmp_flow& b) const {
            return a.src_ip == b.src_ip && a.dst_ip == b.dst_ip && a.src_port == b.src_port &&
                   a.dst_port == b.dst_port;
        }
    };

    ecmp_mode mode_;
    uint64_t gap_;
    uint32_t seed_;
    uint64_t sprayed_ = 0;  ///< spray: packets drawn so far (the generator's counter)
    uint64_t new_flowlets_ = 0;
    std::unordered_map<ecmp_flow, flowlet, flow_hash, flow_eq> flowlets_;
};

}  // namespace ndr::golden
