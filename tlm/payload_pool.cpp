#include "payload_pool.h"

#include "ib_extension.h"

namespace ndr::tlmm {

payload_pool::~payload_pool() = default;  // payloads delete their extensions

tlm::tlm_generic_payload& payload_pool::allocate() {
    tlm::tlm_generic_payload* gp = nullptr;
    if (!free_.empty()) {
        gp = free_.back();
        free_.pop_back();
    } else {
        auto p = std::make_unique<ib_payload>(this);  // extensions embedded and attached
        gp = p.get();
        all_.push_back(std::move(p));
    }
    gp->set_command(tlm::TLM_WRITE_COMMAND);
    gp->set_address(0);
    gp->set_data_ptr(nullptr);
    gp->set_data_length(0);
    gp->set_streaming_width(0);
    gp->set_byte_enable_ptr(nullptr);
    gp->set_dmi_allowed(false);
    gp->set_response_status(tlm::TLM_OK_RESPONSE);
    return *gp;
}

void payload_pool::free(tlm::tlm_generic_payload* gp) {
    free_.push_back(gp);
}

}  // namespace ndr::tlmm
