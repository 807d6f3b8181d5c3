#include "ib_extension.h"

#include <memory>
#include <stdexcept>

namespace ndr::tlmm {

tlm::tlm_extension_base* ib_extension::clone() const {
    // TLM's extension API hands ownership of the clone to the caller as a raw pointer.
    return std::make_unique<ib_extension>(*this).release();
}

void ib_extension::copy_from(const tlm::tlm_extension_base& other) {
    *this = static_cast<const ib_extension&>(other);
}

tlm::tlm_extension_base* fc_extension::clone() const {
    return std::make_unique<fc_extension>(*this).release();
}

void fc_extension::copy_from(const tlm::tlm_extension_base& other) {
    *this = static_cast<const fc_extension&>(other);
}

ib_payload::ib_payload(tlm::tlm_mm_interface* mm) : tlm::tlm_generic_payload(mm) {
    set_extension(&ib);
    set_extension(&fc);
}

ib_payload::~ib_payload() {
    clear_extension(&ib);
    clear_extension(&fc);
}

ib_extension& ib_of_slow(tlm::tlm_generic_payload& gp) {
    ib_extension* e = gp.get_extension<ib_extension>();
    if (e == nullptr) throw std::logic_error("tlm payload without ib_extension");
    return *e;
}

fc_extension& fc_of_slow(tlm::tlm_generic_payload& gp) {
    fc_extension* e = gp.get_extension<fc_extension>();
    if (e == nullptr) throw std::logic_error("tlm payload without fc_extension");
    return *e;
}

}  // namespace ndr::tlmm
