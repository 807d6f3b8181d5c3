#include "golden/wire/grh.h"

#include <algorithm>

#include "golden/wire/ib_field.h"

namespace ndr::golden {

void grh::validate() const {
    detail::check_width(ipver, 4, "grh", "ipver");
    detail::check_width(flow_label, 20, "grh", "flow_label");
}

void grh::encode(uint8_t* out) const {
    validate();
    const uint32_t word0 = (uint32_t{ipver} << 28) | (uint32_t{tclass} << 20) | flow_label;
    detail::put_be(out, word0, 4);
    detail::put_be(out + 4, paylen, 2);
    out[6] = nxthdr;
    out[7] = hoplmt;
    std::copy(sgid.begin(), sgid.end(), out + 8);
    std::copy(dgid.begin(), dgid.end(), out + 24);
}

grh grh::decode(const uint8_t* in) {
    grh h;
    const auto word0 = static_cast<uint32_t>(detail::get_be(in, 4));
    h.ipver = static_cast<uint8_t>(word0 >> 28);
    h.tclass = static_cast<uint8_t>(word0 >> 20);
    h.flow_label = word0 & 0xFFFFFu;
    h.paylen = static_cast<uint16_t>(detail::get_be(in + 4, 2));
    h.nxthdr = in[6];
    h.hoplmt = in[7];
    std::copy(in + 8, in + 24, h.sgid.begin());
    std::copy(in + 24, in + 40, h.dgid.begin());
    return h;
}

bool grh::operator==(const grh& o) const {
    return ipver == o.ipver && tclass == o.tclass && flow_label == o.flow_label &&
           paylen == o.paylen && nxthdr == o.nxthdr && hoplmt == o.hoplmt && sgid == o.sgid &&
           dgid == o.dgid;
}

}  // namespace ndr::golden
