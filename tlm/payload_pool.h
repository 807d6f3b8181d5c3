// Pool of tlm_generic_payloads with a TLM memory manager: a payload returns to the pool when its
// last reference is released (acquire/release, IEEE 1666-2011 §14.5). Payloads are owned by
// std::unique_ptr and are ib_payloads (ib_extension and fc_extension embedded, attached once).
#pragma once
#include <memory>
#include <vector>

#include <tlm>

#include "ib_extension.h"

namespace ndr::tlmm {

class payload_pool : public tlm::tlm_mm_interface {
public:
    payload_pool() = default;
    payload_pool(const payload_pool&) = delete;
    payload_pool& operator=(const payload_pool&) = delete;
    ~payload_pool() override;
    /// A payload with reference count 0 (the caller acquires it), command WRITE, OK response.
    tlm::tlm_generic_payload& allocate();
    void free(tlm::tlm_generic_payload* gp) override;
    std::size_t live() const { return all_.size() - free_.size(); }

private:
    std::vector<std::unique_ptr<tlm::tlm_generic_payload>> all_;
    std::vector<tlm::tlm_generic_payload*> free_;
};

/// One FC packet (the FCCL of one VL) as a transaction from a pooled payload through `out`
/// (an initiator socket towards the link's fc_in), `delay` after the caller's local time.
template <typename Socket>
void send_fc_packet(payload_pool& pool, Socket& out, uint32_t vl, uint32_t fccl,
                    sc_core::sc_time delay) {
    tlm::tlm_generic_payload& gp = pool.allocate();
    gp.acquire();
    fc_extension& f = fc_of(gp);
    f.vl = static_cast<uint8_t>(vl);
    f.fccl = fccl;
    tlm::tlm_phase ph = tlm::BEGIN_REQ;
    out->nb_transport_fw(gp, ph, delay);
    gp.release();
}

}  // namespace ndr::tlmm
