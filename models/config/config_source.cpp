#include "config/config_source.h"

#include <utility>

namespace ndr::cfg {

config_source config_source::file(std::string path, int line_1based) {
    return config_source{kind::file, std::move(path), line_1based};
}

config_source config_source::flag(std::string flag_name) {
    return config_source{kind::command_line, std::move(flag_name), 0};
}

config_source config_source::merged() {
    return config_source{};
}

}  // namespace ndr::cfg
