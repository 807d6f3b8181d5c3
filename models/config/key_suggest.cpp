#include "config/key_suggest.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <vector>

#include "config/config_schema.h"

namespace ndr::cfg {
namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& ch : out) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return out;
}

/// Levenshtein distance.
size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<size_t> prev(b.size() + 1);
    std::vector<size_t> cur(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t subst = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, subst});
        }
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

}  // namespace

std::string suggest_key(std::string_view unknown) {
    const std::string typed = lower(unknown);
    const bool dotted = typed.find('.') != std::string::npos;
    std::string best;
    size_t best_d = SIZE_MAX;
    auto consider = [&](const std::string& candidate, const std::string& compare_to) {
        const size_t d = edit_distance(typed, compare_to);
        if (d < best_d) {
            best_d = d;
            best = candidate;
        }
    };
    for (const config_key& k : config_schema()) {
        consider(k.key, k.key);
        // A bare field name (`ports`) or a field under the wrong section (`link.ports`).
        const std::string field = k.key.substr(k.key.find('.') + 1);
        if (!dotted)
            consider(k.key, field);
        else
            consider(k.key, typed.substr(0, typed.find('.') + 1) + field);
    }
    if (!dotted) {
        for (const std::string& s : config_sections()) consider(s, s);
    }
    // A typo: a few edits, fewer than a third of the typed name.
    const size_t limit = std::max<size_t>(1, std::min<size_t>(3, typed.size() / 3));
    return best_d <= limit ? best : std::string();
}

std::string unknown_key_reason(std::string_view unknown) {
    const std::string s = suggest_key(unknown);
    if (!s.empty()) return "unknown key, did you mean " + s + "?";
    return "unknown key (see docs/configuration.md or 'ndrsim config keys')";
}

}  // namespace ndr::cfg
