#include "config/config_key.h"

namespace ndr::cfg {

std::string_view kind_name(value_kind kind) {
    switch (kind) {
        case value_kind::uint:
            return "uint";
        case value_kind::real:
            return "real";
        case value_kind::boolean:
            return "bool";
        case value_kind::choice:
            return "enum";
        case value_kind::text:
            return "string";
        case value_kind::bytes:
            return "size";
        case value_kind::time:
            return "time";
        case value_kind::rate:
            return "rate";
        case value_kind::length:
            return "length";
    }
    return "?";
}

}  // namespace ndr::cfg
