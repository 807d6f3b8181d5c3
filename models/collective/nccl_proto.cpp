// Protocol names and wire sizes (nccl_proto.h).
#include "collective/nccl_proto.h"

#include <cstddef>
#include <iterator>

namespace ndr::coll {

namespace {

constexpr bool protocols_in_enum_order() {
    for (size_t i = 0; i < std::size(PROTOCOLS); ++i) {
        if (static_cast<size_t>(PROTOCOLS[i].kind) != i) return false;
    }
    return true;
}
static_assert(protocols_in_enum_order(), "PROTOCOLS rows must follow proto_kind order");
static_assert(std::size(PROTOCOLS) == static_cast<size_t>(proto_kind::simple) + 1,
              "one PROTOCOLS row per proto_kind");

}  // namespace

const proto_info& info(proto_kind p) {
    const auto i = static_cast<size_t>(p);
    return i < std::size(PROTOCOLS) ? PROTOCOLS[i] : PROTOCOLS[0];
}

std::string_view name(proto_kind p) {
    const auto i = static_cast<size_t>(p);
    return i < std::size(PROTOCOLS) ? PROTOCOLS[i].name : std::string_view("?");
}

std::optional<proto_kind> parse_proto(std::string_view s) {
    for (const proto_info& p : PROTOCOLS) {
        if (p.name == s) return p.kind;
    }
    return std::nullopt;
}

const std::string& proto_names() {
    static const std::string names = [] {
        std::string out;
        for (const proto_info& p : PROTOCOLS) {
            if (!out.empty()) out += ", ";
            out += p.name;
        }
        return out;
    }();
    return names;
}

uint64_t wire_bytes(proto_kind p, uint64_t data) {
    const proto_info& i = info(p);
    if (i.line_data == i.line_bytes) return data;
    return (data + i.line_data - 1) / i.line_data * i.line_bytes;
}

}  // namespace ndr::coll
