#include "config/config_error.h"

#include <utility>

namespace ndr::cfg {

std::string format_config_message(const config_source& where, const std::string& key,
                                  const std::string& reason) {
    std::string msg;
    switch (where.type) {
        case config_source::kind::file:
            msg = where.name;
            if (where.line > 0) msg += ":" + std::to_string(where.line);
            msg += ": ";
            break;
        case config_source::kind::command_line:
            msg = where.name + (key.empty() ? ": " : " ");
            break;
        case config_source::kind::merged:
            break;
    }
    if (!key.empty()) msg += key + ": ";
    msg += reason;
    for (char& c : msg) {
        if (c == '\n' || c == '\r') c = ' ';
    }
    return msg;
}

config_error::config_error(config_source where, std::string key_name, std::string why)
    : std::runtime_error(format_config_message(where, key_name, why)),
      source(std::move(where)),
      key(std::move(key_name)),
      reason(std::move(why)) {}

config_error::config_error(std::string why)
    : std::runtime_error(format_config_message(config_source::merged(), "", why)),
      reason(std::move(why)) {}

}  // namespace ndr::cfg
