#include "golden/wire/bth.h"

#include "golden/wire/ib_field.h"

namespace ndr::golden {

void bth::validate() const {
    detail::check_width(padcnt, 2, "bth", "padcnt");
    detail::check_width(tver, 4, "bth", "tver");
    detail::check_width(destqp, 24, "bth", "destqp");
    detail::check_width(psn, 24, "bth", "psn");
}

void bth::encode(uint8_t* out) const {
    validate();
    out[0] = opcode;
    out[1] = static_cast<uint8_t>((se ? 0x80 : 0) | (migreq ? 0x40 : 0) | (padcnt << 4) | tver);
    detail::put_be(out + 2, pkey, 2);
    out[4] = static_cast<uint8_t>((fecn ? 0x80 : 0) | (becn ? 0x40 : 0));
    detail::put_be(out + 5, destqp, 3);
    out[8] = static_cast<uint8_t>(ackreq ? 0x80 : 0);
    detail::put_be(out + 9, psn, 3);
}

bth bth::decode(const uint8_t* in) {
    bth h;
    h.opcode = in[0];
    h.se = (in[1] & 0x80) != 0;
    h.migreq = (in[1] & 0x40) != 0;
    h.padcnt = static_cast<uint8_t>((in[1] >> 4) & 0x03);
    h.tver = static_cast<uint8_t>(in[1] & 0x0F);
    h.pkey = static_cast<uint16_t>(detail::get_be(in + 2, 2));
    h.fecn = (in[4] & 0x80) != 0;
    h.becn = (in[4] & 0x40) != 0;
    h.destqp = static_cast<uint32_t>(detail::get_be(in + 5, 3));
    h.ackreq = (in[8] & 0x80) != 0;
    h.psn = static_cast<uint32_t>(detail::get_be(in + 9, 3));
    return h;
}

bool bth::operator==(const bth& o) const {
    return opcode == o.opcode && se == o.se && migreq == o.migreq && padcnt == o.padcnt &&
           tver == o.tver && pkey == o.pkey && fecn == o.fecn && becn == o.becn &&
           destqp == o.destqp && ackreq == o.ackreq && psn == o.psn;
}

}  // namespace ndr::golden
