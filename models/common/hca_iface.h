// What the host-side software (testbench/replay) needs from the HCAs of a fabric, whatever
// level models them: post verbs, send SHARP contributions, set host timers. Implemented by the
// cycle-level hca_array (models/cycle/hca.h) and the TLM hca_tlm (tlm/hca_tlm.h). Completions
// come back through hca_host. Times are whole beats ("cycles") of common::timing at both levels.
#pragma once
#include <cstdint>

#include "common/cycles.h"
#include "golden/rc_segment.h"

namespace ndr::common {

/// RC verbs: RDMA WRITE (no receive completion), RDMA WRITE with immediate (the last packet
/// carries ImmDt and the responder gets a completion: what the collective engine uses), SEND,
/// RDMA READ.
enum class verb : uint8_t { rdma_write, rdma_write_imm, send, rdma_read };

/// The RC data stream a packet of verb `v` belongs to (read_response: the responder's data of
/// an RDMA READ), for golden::rc_data_opcode.
inline golden::rc_stream rc_stream_of(verb v, bool read_response) {
    if (read_response) return golden::rc_stream::read_response;
    switch (v) {
        case verb::rdma_read:
            return golden::rc_stream::read_request;
        case verb::send:
            return golden::rc_stream::send;
        case verb::rdma_write:
            return golden::rc_stream::rdma_write;
        case verb::rdma_write_imm:
        default:
            return golden::rc_stream::rdma_write_imm;
    }
}

/// One SHARP contribution a host hands its HCA: chunk `chunk` of tree `tree` with `bytes` of
/// payload (root_host: rooted op, only towards this host; data: data-mode payload slot). At the
/// TLM level it may be a burst of `packets` consecutive chunks (ids chunk..chunk+packets-1 of
/// the host's own numbering; the node takes the burst as one chunk of their payloads), each a
/// packet of `packet_bytes` of payload but the last, which holds the rest.
struct sharp_contribution {
    uint32_t tree = 0;
    uint32_t chunk = 0;
    uint32_t bytes = 0;
    uint32_t root_host = 0xFFFFFFFFU;
    uint32_t data = 0xFFFFFFFFU;
    uint32_t packets = 1;
    uint32_t packet_bytes = 0;
};

class hca_iface {
public:
    virtual ~hca_iface() = default;
    /// Posts a message (a WQE) at cycle `now` (the current or a future cycle) from src to dst.
    /// `tag` comes back in the completions. RDMA READ moves `bytes` from dst to src.
    virtual void post(cycle_t now, verb v, uint32_t src, uint32_t dst, uint64_t bytes,
                      uint64_t tag) = 0;
    /// Queues a SHARP aggregation packet (or, at the TLM level, a burst of them) from host h to
    /// its leaf switch's aggregation node, after hca.tx_latency.
    virtual void sharp_send(cycle_t now, uint32_t h, const sharp_contribution& c) = 0;
    /// Payload bytes of consecutive SHARP chunks one transaction may carry
    /// (sim.tlm_sharp_burst at the TLM level); 0: one packet per transaction.
    virtual uint64_t sharp_burst_bytes() const { return 0; }
    /// Calls host->on_timer(token) at cycle `at` (> the current cycle).
    virtual void set_timer(cycle_t at, uint64_t token) = 0;
    virtual uint32_t hosts() const = 0;
};

}  // namespace ndr::common
