#include "golden/table_parse.h"

#include <cctype>

namespace ndr::golden {

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())) != 0) {
        s.remove_prefix(1);
    }
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())) != 0) {
        s.remove_suffix(1);
    }
    return s;
}

bool parse_small_uint(std::string_view s, unsigned max_value, unsigned& out) {
    if (s.empty() || s.size() > 3) return false;
    unsigned v = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return false;
        v = v * 10U + static_cast<unsigned>(c - '0');
    }
    if (v > max_value) return false;
    out = v;
    return true;
}

}  // namespace ndr::golden
