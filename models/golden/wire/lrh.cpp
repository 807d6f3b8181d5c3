#include "golden/wire/lrh.h"

#include "golden/wire/ib_field.h"

namespace ndr::golden {

void lrh::validate() const {
    detail::check_width(vl, 4, "lrh", "vl");
    detail::check_width(lver, 4, "lrh", "lver");
    detail::check_width(sl, 4, "lrh", "sl");
    detail::check_width(lnh, 2, "lrh", "lnh");
    detail::check_width(pktlen, 11, "lrh", "pktlen");
}

void lrh::encode(uint8_t* out) const {
    validate();
    out[0] = static_cast<uint8_t>((vl << 4) | lver);
    out[1] = static_cast<uint8_t>((sl << 4) | lnh);
    detail::put_be(out + 2, dlid, 2);
    detail::put_be(out + 4, pktlen, 2);
    detail::put_be(out + 6, slid, 2);
}

lrh lrh::decode(const uint8_t* in) {
    lrh h;
    h.vl = static_cast<uint8_t>(in[0] >> 4);
    h.lver = static_cast<uint8_t>(in[0] & 0x0F);
    h.sl = static_cast<uint8_t>(in[1] >> 4);
    h.lnh = static_cast<uint8_t>(in[1] & 0x03);
    h.dlid = static_cast<uint16_t>(detail::get_be(in + 2, 2));
    h.pktlen = static_cast<uint16_t>(detail::get_be(in + 4, 2) & 0x07FF);
    h.slid = static_cast<uint16_t>(detail::get_be(in + 6, 2));
    return h;
}

bool lrh::operator==(const lrh& o) const {
    return vl == o.vl && lver == o.lver && sl == o.sl && lnh == o.lnh && dlid == o.dlid &&
           pktlen == o.pktlen && slid == o.slid;
}

}  // namespace ndr::golden
