// The link, switch and HCA timing that the hand-derived fabric tests (tests/cycle/run_*,
// pcap, SHARP) compute their expectations from, set explicitly so that a change of the
// defaults cannot move those tests. SystemC-free.
#pragma once
#include <initializer_list>
#include <string>
#include <vector>

namespace ndr::test {

/// 400 Gb/s links with 64-byte beats, 100 ns FEC, 3 m of cable at 5 ns/m; a 300 ns
/// cut-through switch; HCAs with 250 ns TX and RX latency (receive completion included: no
/// separate hca.cqe_latency), the ACK leaving at the data's tail (hca.ack_latency 0), a 4 KiB
/// MTU and static input buffers (switch.buffer_model static: every VL's credits are its
/// switch.buffer_per_vl from the start; the shared default is tested on its own). Then `more`.
inline std::vector<std::string> pinned_timing_sets(std::initializer_list<std::string> more = {}) {
    std::vector<std::string> sets = {
        "link.rate=400Gbps",         "switch.datapath_width=64B", "hca.tx_latency=250ns",
        "hca.rx_latency=250ns",      "hca.ack_latency=0ns",       "hca.cqe_latency=0ns",
        "link.fec_latency=100ns",    "link.cable_length=3m",      "link.propagation_per_m=5ns",
        "switch.latency=300ns",      "switch.cut_through=true",   "hca.mtu=4096B",
        "switch.buffer_model=static"};
    sets.insert(sets.end(), more);
    return sets;
}

}  // namespace ndr::test
