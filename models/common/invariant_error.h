// Thrown when a lossless-fabric invariant breaks (negative credits, buffer over capacity, a
// packet lost, duplicated or reordered). The run stops with this message.
#pragma once
#include <stdexcept>
#include <string>

namespace ndr::common {

struct invariant_error : std::runtime_error {
    explicit invariant_error(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace ndr::common
