#include "golden/wire/reth.h"

#include "golden/wire/ib_field.h"

namespace ndr::golden {

void reth::encode(uint8_t* out) const {
    validate();
    detail::put_be(out, va, 8);
    detail::put_be(out + 8, rkey, 4);
    detail::put_be(out + 12, dma_len, 4);
}

reth reth::decode(const uint8_t* in) {
    reth h;
    h.va = detail::get_be(in, 8);
    h.rkey = static_cast<uint32_t>(detail::get_be(in + 8, 4));
    h.dma_len = static_cast<uint32_t>(detail::get_be(in + 12, 4));
    return h;
}

bool reth::operator==(const reth& o) const {
    return va == o.va && rkey == o.rkey && dma_len == o.dma_len;
}

}  // namespace ndr::golden
