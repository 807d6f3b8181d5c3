// RoCE ECMP member choice. Rules in ecmp_selector.h.
#include "golden/ecmp_selector.h"

#include <stdexcept>

#include "golden/roce_packet.h"

namespace ndr::golden {

namespace {

uint64_t splitmix64(uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

}  // namespace

ecmp_mode ecmp_mode_of(const std::string& name) {
    if (name == "flow") return ecmp_mode::flow;
    if (name == "flowlet") return ecmp_mode::flowlet;
    if (name == "spray") return ecmp_mode::spray;
    throw std::invalid_argument("ecmp mode '" + name + "': expected flow, flowlet or spray");
}

std::size_t ecmp_selector::flow_hash::operator()(const ecmp_flow& f) const {
    const uint64_t a = (uint64_t{f.src_ip} << 32) | f.dst_ip;
    const uint64_t b = (uint64_t{f.src_port} << 16) | f.dst_port;
    return static_cast<std::size_t>(splitmix64(a ^ splitmix64(b)));
}

ecmp_selector::ecmp_selector(ecmp_mode mode, uint64_t flowlet_gap, uint32_t seed)
    : mode_(mode), gap_(flowlet_gap), seed_(seed) {}

uint32_t ecmp_selector::flowlet_seed(uint32_t seed, uint32_t n) {
    return seed + n * 0x9E3779B9U;  // golden-ratio step: distinct seeds for n < 2^32
}

uint32_t ecmp_selector::pick(const ecmp_flow& f, uint64_t now, uint32_t members) {
    if (members == 0) return 0;
    switch (mode_) {
        case ecmp_mode::flow:
            break;
        case ecmp_mode::flowlet: {
            const auto [it, fresh] = flowlets_.try_emplace(f, flowlet{now, 0});
            flowlet& fl = it->second;
            if (!fresh && now - fl.last > gap_) {
                ++fl.count;
                ++new_flowlets_;
            }
            fl.last = now;
            return ecmp_member(f.src_ip, f.dst_ip, f.src_port, f.dst_port,
                               flowlet_seed(seed_, fl.count), members);
        }
        case ecmp_mode::spray: {
            const uint64_t x = splitmix64((uint64_t{seed_} << 32) ^ sprayed_++);
            __extension__ using u128 = unsigned __int128;
            return static_cast<uint32_t>((static_cast<u128>(x) * members) >> 64);
        }
    }
    return ecmp_member(f.src_ip, f.dst_ip, f.src_port, f.dst_port, seed_, members);
}

}  // namespace ndr::golden
