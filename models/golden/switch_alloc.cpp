// Crossbar switch allocation (switch_alloc.h): construction; the rules are header templates.
#include "golden/switch_alloc.h"

#include <stdexcept>

#include <fmt/format.h>

namespace ndr::golden {

namespace {
uint32_t checked_ports(uint32_t ports) {
    if (ports < 1 || ports > MASK_PORTS) {
        throw std::invalid_argument(
            fmt::format("switch_alloc: {} ports (valid: 1..{})", ports, MASK_PORTS));
    }
    return ports;
}
}  // namespace

switch_alloc::switch_alloc(uint32_t ports)
    : ports_(checked_ports(ports)),
      grant_ptr_(ports, 0),
      accept_ptr_(ports, 0),
      grants_(ports, 0) {}

}  // namespace ndr::golden
