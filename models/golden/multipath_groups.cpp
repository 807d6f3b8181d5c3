#include "golden/multipath_groups.h"

#include <stdexcept>

namespace ndr::golden {

namespace {

const topo_switch& switch_at(const topology& t, uint32_t sw) {
    if (sw >= t.switches.size()) {
        throw std::out_of_range("multipath_groups: no such switch");
    }
    return t.switches[sw];
}

}  // namespace

uint64_t up_port_mask(const topology& t, uint32_t sw) {
    const topo_switch& ts = switch_at(t, sw);
    uint64_t up = 0;
    for (std::size_t p = 0; p < ts.peers.size() && p < 64; ++p) {
        const topo_peer& peer = ts.peers[p];
        if (peer.kind == topo_peer_kind::sw && t.switches[peer.node].level > ts.level) {
            up |= uint64_t{1} << p;
        }
    }
    return up;
}

std::vector<uint64_t> ar_port_groups(const topology& t, uint32_t sw) {
    const topo_switch& ts = switch_at(t, sw);
    const uint64_t up = up_port_mask(t, sw);
    std::vector<uint64_t> groups(ts.peers.size(), 0);
    for (std::size_t p = 0; p < ts.peers.size() && p < 64; ++p) {
        const topo_peer& peer = ts.peers[p];
        if ((up >> p & 1U) != 0) {
            groups[p] = up;
            continue;
        }
        groups[p] = uint64_t{1} << p;
        if (peer.kind != topo_peer_kind::sw) continue;
        for (std::size_t q = 0; q < ts.peers.size() && q < 64; ++q) {
            const topo_peer& other = ts.peers[q];
            if (other.kind == topo_peer_kind::sw && other.node == peer.node) {
                groups[p] |= uint64_t{1} << q;
            }
        }
    }
    return groups;
}

}  // namespace ndr::golden
