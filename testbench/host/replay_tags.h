// Internal to testbench/host/replay*.cpp: how the replay encodes its timers and the tags of
// the transfers, control messages and NVLink flows it hands to the HCAs and the NVLink model.
#pragma once
#include <cstdint>

namespace ndr::tb::replay_tags {

inline constexpr uint64_t TIMER_ISSUE = 0;
inline constexpr uint64_t TIMER_COMPUTE_DONE = 1;
inline constexpr uint64_t TIMER_DEFERRED = 2;  ///< node path: a deferred step (slot in deferred_)
inline constexpr uint64_t TIMER_NODE = 3;      ///< node path: a node's next NVLink finish
inline constexpr uint64_t NVLS_TAG = uint64_t{1} << 63;
/// With NVLS_TAG: an NVLS flow of a hierarchical collective (replay_hier.cpp).
inline constexpr uint64_t HIER_TAG = uint64_t{1} << 62;
/// host.stack mpi rendezvous: the 0-byte request (sender -> receiver) and reply of a transfer.
inline constexpr uint64_t RTS_TAG = uint64_t{1} << 62;
inline constexpr uint64_t CTS_TAG = uint64_t{1} << 61;
inline constexpr uint64_t CONTROL_TAGS = RTS_TAG | CTS_TAG;

inline uint64_t make_token(uint64_t kind, uint32_t rec) {
    return (kind << 62) | rec;
}
inline uint64_t make_tag(uint32_t run, uint32_t xfer) {
    return (uint64_t{run} << 32) | xfer;
}

}  // namespace ndr::tb::replay_tags
