// Pool of tlm_generic_payloads with a TLM memory manager: a payload returns to the pool when its
// last reference is released (acquire/release, IEEE 1666-2011 §14.5). Payloads are owned by
// std::unique_ptr and are ib_payloads (ib_extension and fc_extension embedded, attached once).
#pragma once
#include <memory>
#include <vector>

#include <tlm>

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

}  // namespace ndr::tlmm
