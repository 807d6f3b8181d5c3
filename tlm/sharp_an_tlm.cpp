#include "sharp_an_tlm.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "burst_shape.h"
#include "common/packet_kind.h"
#include "golden/credit_fc.h"

namespace ndr::tlmm {

sharp_an_tlm::sharp_an_tlm(uint32_t ports, uint32_t osts, uint32_t ost_bytes, uint32_t alu_cycles,
                           common::sharp_payloads* payloads, uint8_t vl, const common::timing& tm)
    : node_(osts, ost_bytes, alu_cycles, payloads),
      vl_(vl),
      tm_(tm),
      burst_buffer_(burst_buffer_blocks(tm)),
      queues_(ports) {}

void sharp_an_tlm::shape(ib_extension& p, uint32_t bytes, uint32_t packets, uint32_t packet_bytes,
                         uint32_t block_bytes, uint32_t buffer_blocks) {
    p.payload_bytes = bytes;
    p.count = std::max(1U, packets);
    const auto add = [&](burst_shape& b, uint32_t payload, uint32_t n) {
        if (n == 0) return;
        const uint32_t w = common::sharp_wire_bytes(payload);
        b.add(burst_shape::kind{payload, w, (w + block_bytes - 1) / block_bytes,
                                golden::blocks_for_bytes(w), 0, n});
    };
    burst_shape b;
    if (p.count == 1) {
        add(b, bytes, 1);
    } else if (bytes == 0) {  // a member without data (broadcast): empty contributions
        add(b, 0, p.count);
    } else {
        const uint64_t full = uint64_t{packet_bytes} * (p.count - 1);
        if (packet_bytes == 0 || full >= bytes) {
            throw std::logic_error(fmt::format("SHARP burst of {} B in {} packets of {} B", bytes,
                                               p.count, packet_bytes));
        }
        add(b, packet_bytes, p.count - 1);
        add(b, static_cast<uint32_t>(bytes - full), 1);
    }
    p.wire_bytes = static_cast<uint32_t>(b.wire_bytes());
    p.beats = static_cast<uint32_t>(b.beats());
    p.blocks = static_cast<uint16_t>(b.charge(buffer_blocks));
    if (p.count > 1) {
        p.pkt_beats = static_cast<uint16_t>(b.max_beats());
        p.pkt_blocks = static_cast<uint16_t>(b.max_blocks());
        p.pkt_payload = packet_bytes;
    }
}

uint64_t sharp_an_tlm::tag_of(const ib_extension& p) {
    return p.count <= 1 ? 0 : (uint64_t{p.count} << 32) | p.pkt_payload;
}

const std::vector<std::pair<uint64_t, uint32_t>>& sharp_an_tlm::on_packet(
    uint64_t t, uint16_t in, tlm::tlm_generic_payload& gp) {
    const ib_extension& p = ib_of(gp);
    scratch_.clear();
    due_.clear();
    taken_.clear();
    node_.on_packet(t, in, p.kind == common::PK_SHARP_DOWN, p.msg, p.index, p.payload_bytes, p.psn,
                    p.qp, p.count > 1 ? p.pkt_beats : p.beats, reinterpret_cast<uint64_t>(&gp),
                    tag_of(p), scratch_, taken_);
    for (const common::sharp_emit& em : scratch_) {
        uint32_t slot;
        if (!free_emits_.empty()) {
            slot = free_emits_.back();
            free_emits_.pop_back();
            emits_[slot] = em;
        } else {
            slot = static_cast<uint32_t>(emits_.size());
            emits_.push_back(em);
        }
        due_.emplace_back(em.at, slot);
    }
    return due_;
}

void sharp_an_tlm::emit(uint64_t t, uint32_t slot) {
    const common::sharp_emit em = emits_[slot];
    free_emits_.push_back(slot);
    tlm::tlm_generic_payload& gp = pool_.allocate();
    gp.acquire();  // released when the next device is done with it
    ib_extension& p = ib_of(gp);
    p = ib_extension{};
    p.id = next_id_++;
    p.created = t;
    p.kind = em.down ? common::PK_SHARP_DOWN : common::PK_SHARP_UP;
    p.msg = em.tree;
    p.index = em.chunk;
    p.psn = em.root_host;
    p.qp = em.data;
    // One packet, or a burst as the contributions were (sim.tlm_sharp_burst).
    shape(p, em.bytes, static_cast<uint32_t>(em.tag >> 32),
          static_cast<uint32_t>(em.tag & 0xFFFFFFFFU), tm_.block_bytes, burst_buffer_);
    p.vl = vl_;
    gp.set_data_length(p.wire_bytes);
    gp.set_streaming_width(p.wire_bytes);
    queues_[em.port].push_back(&gp);
    pending |= uint64_t{1} << em.port;
}

}  // namespace ndr::tlmm
