// Test helper: a header's encode() into a fresh buffer (pre-filled with 0xEE, so bytes the
// encoder forgets to write show up). Shared by the golden packet-format tests.
#pragma once
#include <cstdint>
#include <vector>

namespace ndr_test {

using bytes = std::vector<uint8_t>;

template <typename H>
bytes encode(const H& h) {
    bytes out(H::SIZE, 0xEE);
    h.encode(out.data());
    return out;
}

}  // namespace ndr_test
