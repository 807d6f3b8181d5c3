#include "burst_shape.h"

#include <algorithm>
#include <stdexcept>

#include "golden/credit_fc.h"

namespace ndr::tlmm {

uint32_t burst_buffer_blocks(const common::timing& tm) {
    return std::min({tm.sw_credit_blocks, tm.ep_buffer_blocks, golden::FC_MAX_OUTSTANDING});
}

void burst_shape::add(const kind& k) {
    if (k.n == 0 || nk_ == 3) throw std::logic_error("burst_shape: empty kind or a fourth kind");
    kinds_[nk_++] = k;
    packets_ += k.n;
    blocks_ = std::max(blocks_, k.blocks);
    beats_ = std::max(beats_, k.beats);
    payload_sum_ += uint64_t{k.payload} * k.n;
    wire_sum_ += uint64_t{k.wire} * k.n;
    beats_sum_ += uint64_t{k.beats} * k.n;
    blocks_sum_ += uint64_t{k.blocks} * k.n;
    dma_bound_ = dma_bound_ || k.dma > k.beats;
}

uint32_t burst_shape::charge(uint32_t buffer_blocks) const {
    if (packets_ == 1) return blocks_;
    return std::max(blocks_, static_cast<uint32_t>(
                                 std::min<uint64_t>(blocks_sum_, (buffer_blocks - blocks_) / 2)));
}

burst_shape::timing burst_shape::leave(uint64_t t, credit_pacer* pacer) const {
    if (pacer == nullptr && !dma_bound_) {  // back to back at line rate
        const uint64_t end = t + beats_sum_;
        return timing{end - kinds_[nk_ - 1].beats, end};
    }
    uint64_t start = t;
    uint64_t end = t + kinds_[0].beats;
    uint64_t dma = kinds_[0].dma;
    for (uint32_t k = 0; k < nk_; ++k) {
        for (uint32_t j = k == 0 ? 1 : 0; j < kinds_[k].n; ++j) {
            start = std::max(end, start + dma);
            if (pacer != nullptr) start = pacer->send(start, blocks_, beats_);
            end = start + kinds_[k].beats;
            dma = kinds_[k].dma;
        }
    }
    return timing{start, end};
}

}  // namespace ndr::tlmm
