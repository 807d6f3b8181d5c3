#include "golden/wire/immdt.h"

#include "golden/wire/ib_field.h"

namespace ndr::golden {

void immdt::encode(uint8_t* out) const {
    validate();
    detail::put_be(out, data, 4);
}

immdt immdt::decode(const uint8_t* in) {
    immdt h;
    h.data = static_cast<uint32_t>(detail::get_be(in, 4));
    return h;
}

}  // namespace ndr::golden
