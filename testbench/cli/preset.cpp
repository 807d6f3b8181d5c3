#include "preset.h"

#include <sstream>

#include "config/config_error.h"
#include "config/config_source.h"

namespace ndr::tb {

namespace {

std::string trim(std::string s) {
    const size_t b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos) return {};
    const size_t e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
}

preset parse(const embedded_preset& e) {
    preset p;
    p.name = std::string(e.name);
    p.yaml = std::string(e.yaml);
    std::istringstream in(p.yaml);
    std::string line;
    const std::string desc_tag = "# description:";
    const std::string soft_tag = "# soft:";
    while (std::getline(in, line)) {
        if (line.rfind(desc_tag, 0) == 0) {
            p.description = trim(line.substr(desc_tag.size()));
        } else if (line.rfind(soft_tag, 0) == 0) {
            p.soft.push_back(trim(line.substr(soft_tag.size())));
        }
    }
    return p;
}

}  // namespace

const std::vector<preset>& presets() {
    static const std::vector<preset> all = [] {
        std::vector<preset> v;
        for (const embedded_preset& e : embedded_presets()) v.push_back(parse(e));
        return v;
    }();
    return all;
}

const preset& find_preset(const std::string& name) {
    std::string known;
    for (const preset& p : presets()) {
        if (p.name == name) return p;
        known += (known.empty() ? "" : ", ") + p.name;
    }
    throw cfg::config_error(cfg::config_source::flag("--preset"), "",
                            "unknown preset '" + name + "' (known: " + known + ")");
}

std::string preset_header(const preset& p) {
    std::string h = "# preset: " + p.name + "\n";
    if (!p.description.empty()) h += "# description: " + p.description + "\n";
    for (const std::string& s : p.soft) h += "# soft: " + s + "\n";
    return h;
}

std::string preset_source_name(const std::string& name) {
    return "preset:" + name;
}

}  // namespace ndr::tb
