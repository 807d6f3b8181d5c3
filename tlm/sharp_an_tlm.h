// SHARP aggregation node of a TLM switch (ib_switch_tlm): the TLM side of the node, around the
// SystemC-free node logic of models/common/sharp_an.h, so both levels share one implementation
// of the tree, LLT/SAT and OST semantics and reduce with the same golden ALU calls
// (golden/reduce_op.h). This class turns a SHARP packet that fully arrived into node inputs,
// holds the node's emits until they are due, builds the result packets (tlm_generic_payload +
// ib_extension, kind PK_SHARP_UP/DOWN) and queues them per output port for the switch's egress,
// where they compete with crossbar traffic through the output's VL arbiter (as in the cycle
// switch; common::ib_ports::local_wins).
#pragma once
#include <cstdint>
#include <vector>

#include <tlm>

#include "common/lazy_fifo.h"
#include "common/sharp_an.h"
#include "common/timing.h"
#include "ib_extension.h"
#include "payload_pool.h"

namespace ndr::tlmm {

class sharp_an_tlm {
public:
    sharp_an_tlm(uint32_t ports, uint32_t osts, uint32_t ost_bytes, uint32_t alu_cycles,
                 common::sharp_payloads* payloads, uint8_t vl, const common::timing& tm);
    common::sharp_an& node() { return node_; }
    const common::sharp_an& node() const { return node_; }
    uint8_t vl() const { return vl_; }
    /// The SHARP packet `gp` fully arrived on input `in` at cycle t. Returns the node's emits as
    /// (due cycle, emit slot) pairs; the switch calls emit(slot) when due. taken() then lists
    /// the packets the node consumed (this one unless it waits for OSTs, and waiting ones let in).
    const std::vector<std::pair<uint64_t, uint32_t>>& on_packet(uint64_t t, uint16_t in,
                                                                tlm::tlm_generic_payload& gp);
    const std::vector<uint64_t>& taken() const { return taken_; }
    /// Emit `slot` is due at cycle t: builds its packet (reference held for the downstream hop)
    /// and queues it on its output port.
    void emit(uint64_t t, uint32_t slot);
    /// Sets the size fields of a SHARP transaction (sim.tlm_sharp_burst): `bytes` of payload in
    /// `packets` packets of `packet_bytes` each but the last, which holds the rest. A burst
    /// (packets > 1) charges the credits burst_shape::charge gives against `buffer_blocks`, its
    /// pkt_* fields are its largest packet and its beats all its packets back to back.
    static void shape(ib_extension& p, uint32_t bytes, uint32_t packets, uint32_t packet_bytes,
                      uint32_t block_bytes, uint32_t buffer_blocks);
    /// A burst's shape as the node's tag (common::sharp_an::on_packet); 0 for one packet.
    static uint64_t tag_of(const ib_extension& p);
    common::lazy_fifo<tlm::tlm_generic_payload*>& queue(uint16_t port) { return queues_[port]; }
    /// Output ports with queued result packets (bit per port).
    uint64_t pending = 0;

private:
    common::sharp_an node_;
    uint8_t vl_;
    common::timing tm_;
    uint32_t burst_buffer_;  ///< burst_buffer_blocks(tm_): a burst's credit charge bound
    payload_pool pool_;
    /// Per output port; no storage until used (a std::deque took 576 bytes per port).
    std::vector<common::lazy_fifo<tlm::tlm_generic_payload*>> queues_;
    std::vector<common::sharp_emit> emits_;
    std::vector<uint32_t> free_emits_;
    std::vector<common::sharp_emit> scratch_;
    std::vector<std::pair<uint64_t, uint32_t>> due_;
    std::vector<uint64_t> taken_;           ///< tokens: tlm_generic_payload addresses
    uint64_t next_id_ = uint64_t{1} << 48;  ///< packet ids of switch-made packets
};

}  // namespace ndr::tlmm
