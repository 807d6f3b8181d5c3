// Credit-based link-level flow control arithmetic (IB Vol.1 ch.7.9; docs/domain.md §2.2).
#include "golden/credit_fc.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace ndr::golden {

namespace {
constexpr uint32_t FC_MASK = FC_COUNTER_MOD - 1;  // 0xFFF
static_assert((FC_COUNTER_MOD & FC_MASK) == 0, "FC counter modulus must be a power of two");

void require_12bit(uint32_t value, const char* what) {
    if (value > FC_MASK) {
        throw std::logic_error(fmt::format("{} {} is not a 12-bit value (0..4095)", what, value));
    }
}
}  // namespace

uint32_t blocks_for_bytes(uint32_t wire_bytes, uint32_t block_bytes) {
    if (block_bytes == 0) {
        throw std::invalid_argument("blocks_for_bytes: block_bytes must be > 0");
    }
    // Written without (bytes + block - 1) so that it cannot overflow near UINT32_MAX.
    return wire_bytes / block_bytes + (wire_bytes % block_bytes != 0 ? 1U : 0U);
}

// ---------------------------------------------------------------------------------------------
// credit_sender

credit_sender::credit_sender(uint32_t initial_fccl) : fctbs_(0), fccl_(initial_fccl) {
    if (initial_fccl > FC_MAX_OUTSTANDING) {
        throw std::invalid_argument(
            fmt::format("credit_sender: initial FCCL {} is more than {} blocks ahead of FCTBS 0",
                        initial_fccl, FC_MAX_OUTSTANDING));
    }
}

void credit_sender::throw_underflow(uint32_t blocks) const {
    throw std::logic_error(fmt::format(
        "credit underflow on send: {} blocks requested, {} available (FCTBS {}, FCCL {})", blocks,
        available(), fctbs_, fccl_));
}

void credit_sender::on_fccl(uint32_t fccl) {
    require_12bit(fccl, "FCCL update:");
    const uint32_t ahead = fc_sub(fccl, fctbs_);
    if (ahead > FC_MAX_OUTSTANDING) {
        throw std::logic_error(fmt::format(
            "FCCL update out of range: FCCL {} is {} blocks ahead of FCTBS {} (i.e. {} behind); "
            "at most {} ahead allowed",
            fccl, ahead, fctbs_, FC_COUNTER_MOD - ahead, FC_MAX_OUTSTANDING));
    }
    fccl_ = fccl;
}

// ---------------------------------------------------------------------------------------------
// credit_receiver

credit_receiver::credit_receiver(uint32_t capacity_blocks) : capacity_(capacity_blocks) {}

void credit_receiver::throw_overflow(uint32_t blocks) const {
    throw std::logic_error(fmt::format(
        "buffer overflow on receive: {} blocks arrived, {} free (capacity {}, occupied {})", blocks,
        free_blocks(), capacity_, occupied_));
}

void credit_receiver::throw_underflow(uint32_t blocks) const {
    throw std::logic_error(
        fmt::format("buffer underflow on free: {} blocks freed, {} occupied (capacity {})", blocks,
                    occupied_, capacity_));
}

void credit_receiver::throw_capacity(uint32_t capacity_blocks) const {
    throw std::logic_error(
        fmt::format("buffer capacity {} below the {} blocks occupied", capacity_blocks, occupied_));
}

bool credit_receiver::on_fctbs(uint32_t fctbs) {
    require_12bit(fctbs, "FCTBS in FC packet:");
    const bool in_sync = abr_ == fctbs;
    abr_ = fctbs;
    return in_sync;
}

uint32_t credit_receiver::fccl() const {
    return fc_add(abr_, std::min(free_blocks(), FC_MAX_OUTSTANDING));
}

}  // namespace ndr::golden
