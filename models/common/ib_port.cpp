// The invariant errors of common::ib_ports (ib_port.h): one message format per rule, with the
// device's names for its ports (docs/architecture.md, "Lossless invariants").
#include "common/ib_port.h"

#include <fmt/format.h>

#include <stdexcept>

#include "common/invariant_error.h"

namespace ndr::common {

void throw_fccl_error(const port_names& names, cycle_t t, uint32_t port, uint32_t vl,
                      const std::logic_error& err) {
    throw invariant_error(
        fmt::format("cycle {}: {} {} VL {}: {}", t, names.sender, port, vl, err.what()));
}

void throw_fctbs_error(const port_names& names, cycle_t t, uint32_t port, uint32_t vl,
                       uint32_t fctbs, uint32_t abr) {
    throw invariant_error(
        fmt::format("cycle {}: {} {} VL {}: FCTBS {}{} disagrees with blocks received (ABR {}): "
                    "a packet was lost on the link",
                    t, names.receiver, port, vl, fctbs, names.fctbs_source, abr));
}

void throw_local_vl_error(const char* what, uint32_t vl, uint32_t vls) {
    if (vl >= vls) {
        throw std::invalid_argument(
            fmt::format("{} {} is not a data VL (switch.vls {})", what, vl, vls));
    }
    throw std::invalid_argument(fmt::format(
        "{} {} has no entry of nonzero weight in switch.vl_arb_high / switch.vl_arb_low: its "
        "packets could never win VL arbitration",
        what, vl));
}

void throw_credit_underflow(const port_names& names, cycle_t t, uint32_t port, uint32_t vl,
                            uint32_t blocks, uint32_t available) {
    throw invariant_error(
        fmt::format("cycle {}: {} {} VL {}: credit underflow: {} blocks, {} available", t,
                    names.sender, port, vl, blocks, available));
}

}  // namespace ndr::common
