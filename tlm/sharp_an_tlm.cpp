#include "sharp_an_tlm.h"

#include "common/packet_kind.h"
#include "golden/credit_fc.h"

namespace ndr::tlmm {

sharp_an_tlm::sharp_an_tlm(uint32_t ports, uint32_t osts, uint32_t ost_bytes, uint32_t alu_cycles,
                           common::sharp_payloads* payloads, uint8_t vl, const common::timing& tm)
    : node_(osts, ost_bytes, alu_cycles, payloads), vl_(vl), tm_(tm), queues_(ports) {}

const std::vector<std::pair<uint64_t, uint32_t>>& sharp_an_tlm::on_packet(
    uint64_t t, uint16_t in, tlm::tlm_generic_payload& gp) {
    const ib_extension& p = ib_of(gp);
    scratch_.clear();
    due_.clear();
    taken_.clear();
    node_.on_packet(t, in, p.kind == common::PK_SHARP_DOWN, p.msg, p.index, p.payload_bytes, p.psn,
                    p.qp, p.beats, reinterpret_cast<uint64_t>(&gp), scratch_, taken_);
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
    p.payload_bytes = em.bytes;
    p.wire_bytes = common::sharp_wire_bytes(em.bytes);
    p.blocks = static_cast<uint16_t>(golden::blocks_for_bytes(p.wire_bytes));
    p.beats = static_cast<uint16_t>((p.wire_bytes + tm_.block_bytes - 1) / tm_.block_bytes);
    p.vl = vl_;
    gp.set_data_length(p.wire_bytes);
    gp.set_streaming_width(p.wire_bytes);
    queues_[em.port].push_back(&gp);
    pending |= uint64_t{1} << em.port;
}

}  // namespace ndr::tlmm
