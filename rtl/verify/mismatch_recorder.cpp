// One-line form of a mismatch (mismatch_recorder.h).
#include "verify/mismatch_recorder.h"

namespace ndr::verify {

std::string format_mismatch(const mismatch& m) {
    const auto num = [](int v) { return v < 0 ? std::string("-") : std::to_string(v); };
    return fmt::format("cycle {}, port {}, VL {}, {}: expected {}, got {}", m.cycle, num(m.port),
                       num(m.vl), m.what, m.expected, m.got);
}

}  // namespace ndr::verify
