#include "golden/wire/aeth.h"

#include "golden/wire/ib_field.h"

namespace ndr::golden {

void aeth::validate() const {
    detail::check_width(msn, 24, "aeth", "msn");
}

void aeth::encode(uint8_t* out) const {
    validate();
    out[0] = syndrome;
    detail::put_be(out + 1, msn, 3);
}

aeth aeth::decode(const uint8_t* in) {
    aeth h;
    h.syndrome = in[0];
    h.msn = static_cast<uint32_t>(detail::get_be(in + 1, 3));
    return h;
}

bool aeth::operator==(const aeth& o) const {
    return syndrome == o.syndrome && msn == o.msn;
}

}  // namespace ndr::golden
