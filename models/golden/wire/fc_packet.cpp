#include "golden/wire/fc_packet.h"

#include "golden/wire/crc.h"
#include "golden/wire/ib_field.h"

namespace ndr::golden {
namespace {

void encode_body(const fc_packet& p, uint8_t* out) {
    detail::put_be(out, (uint32_t{p.op} << 12) | p.fctbs, 2);
    detail::put_be(out + 2, (uint32_t{p.vl} << 12) | p.fccl, 2);
}

}  // namespace

void fc_packet::validate() const {
    detail::check_width(op, 4, "fc_packet", "op");
    detail::check_width(fctbs, 12, "fc_packet", "fctbs");
    detail::check_width(vl, 4, "fc_packet", "vl");
    detail::check_width(fccl, 12, "fc_packet", "fccl");
}

void fc_packet::encode(uint8_t* out) const {
    validate();
    encode_body(*this, out);
    detail::put_le(out + 4, compute_lpcrc(out), 2);
}

fc_packet fc_packet::decode(const uint8_t* in) {
    fc_packet p;
    const auto w0 = static_cast<uint16_t>(detail::get_be(in, 2));
    const auto w1 = static_cast<uint16_t>(detail::get_be(in + 2, 2));
    p.op = static_cast<uint8_t>(w0 >> 12);
    p.fctbs = static_cast<uint16_t>(w0 & 0x0FFF);
    p.vl = static_cast<uint8_t>(w1 >> 12);
    p.fccl = static_cast<uint16_t>(w1 & 0x0FFF);
    p.lpcrc = static_cast<uint16_t>(detail::get_le(in + 4, 2));
    return p;
}

uint16_t fc_packet::compute_lpcrc(const uint8_t* first4) {
    return crc16_ib(first4, 4);
}

bool fc_packet::lpcrc_ok() const {
    validate();
    uint8_t body[4];
    encode_body(*this, body);
    return compute_lpcrc(body) == lpcrc;
}

bool fc_packet::operator==(const fc_packet& o) const {
    return op == o.op && fctbs == o.fctbs && vl == o.vl && fccl == o.fccl && lpcrc == o.lpcrc;
}

}  // namespace ndr::golden
