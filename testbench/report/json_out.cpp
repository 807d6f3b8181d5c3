#include "json_out.h"

namespace ndr::tb {

void json_out::put_tree(const nlohmann::json& j) {
    switch (j.type()) {
        case nlohmann::json::value_t::object:
            begin_object();
            for (const auto& [k, v] : j.items()) {
                key(k);
                put_tree(v);
            }
            end_object();
            break;
        case nlohmann::json::value_t::array:
            begin_array();
            for (const nlohmann::json& v : j) put_tree(v);
            end_array();
            break;
        case nlohmann::json::value_t::string:
            put_string(j.get_ref<const std::string&>());
            break;
        case nlohmann::json::value_t::boolean:
            put_bool(j.get<bool>());
            break;
        case nlohmann::json::value_t::number_integer:
            put_int(j.get<int64_t>());
            break;
        case nlohmann::json::value_t::number_unsigned:
            put_uint(j.get<uint64_t>());
            break;
        case nlohmann::json::value_t::number_float:
            put_double(j.get<double>());
            break;
        default:
            put_null();
            break;  // null, binary, discarded
    }
}

}  // namespace ndr::tb
