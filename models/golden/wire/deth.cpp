#include "golden/wire/deth.h"

#include "golden/wire/ib_field.h"

namespace ndr::golden {

void deth::validate() const {
    detail::check_width(srcqp, 24, "deth", "srcqp");
}

void deth::encode(uint8_t* out) const {
    validate();
    detail::put_be(out, qkey, 4);
    out[4] = 0;
    detail::put_be(out + 5, srcqp, 3);
}

deth deth::decode(const uint8_t* in) {
    deth h;
    h.qkey = static_cast<uint32_t>(detail::get_be(in, 4));
    h.srcqp = static_cast<uint32_t>(detail::get_be(in + 5, 3));
    return h;
}

bool deth::operator==(const deth& o) const {
    return qkey == o.qkey && srcqp == o.srcqp;
}

}  // namespace ndr::golden
