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

/// Optimal-string-alignment distance of `a` and `b` (Levenshtein plus the transposition of two
/// adjacent letters as one edit: `prots` is one edit from `ports`) if it is at most `max`, else
/// max + 1. Only the band |i - j| <= max of the table is computed, so the time is linear in the
/// names' length: the full table made a long unknown key quadratic (a 30 KB key took minutes;
/// found by fuzzing).
size_t edit_distance_upto(const std::string& a, const std::string& b, size_t max) {
    const size_t n = a.size();
    const size_t m = b.size();
    const size_t inf = max + 1;
    if ((n > m ? n - m : m - n) > max) return inf;
    std::vector<size_t> prev2(m + 1, inf);  // row i - 2 (read inside its band only)
    std::vector<size_t> prev(m + 1, inf);
    std::vector<size_t> cur(m + 1, inf);
    size_t prev_hi = std::min(m, max);  // the last column of the previous row's band
    for (size_t j = 0; j <= prev_hi; ++j) prev[j] = j;
    for (size_t i = 1; i <= n; ++i) {
        const size_t lo = i > max ? i - max : 1;
        const size_t hi = std::min(m, i + max);
        cur[lo - 1] = lo == 1 ? i : inf;  // column 0, or the cell left of the band
        for (size_t j = lo; j <= hi; ++j) {
            const size_t up = j <= prev_hi ? prev[j] : inf;
            const size_t subst = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
            size_t d = std::min({up + 1, cur[j - 1] + 1, subst, inf});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
                d = std::min(d, prev2[j - 2] + 1);
            }
            cur[j] = d;
        }
        prev_hi = hi;
        std::swap(prev2, prev);  // prev2 = row i - 1, prev = row i - 2's storage
        std::swap(prev, cur);    // prev = row i; cur = row i - 2's storage, rewritten next
    }
    return prev[m];
}

}  // namespace

std::string suggest_key(std::string_view unknown) {
    const std::string typed = lower(unknown);
    const bool dotted = typed.find('.') != std::string::npos;
    // A typo: a few edits, fewer than a third of the typed name.
    const size_t limit = std::max<size_t>(1, std::min<size_t>(3, typed.size() / 3));
    std::string best;
    size_t best_d = SIZE_MAX;
    // `extra`: a field under the wrong section is one more edit than the same field in its own
    // (switch.prots is switch.ports, not nccl.proto).
    auto consider = [&](const std::string& candidate, const std::string& compare_to,
                        size_t extra = 0) {
        const size_t d = edit_distance_upto(typed, compare_to, limit) + extra;
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
        else if (typed.compare(0, typed.find('.') + 1, k.key, 0, k.key.find('.') + 1) != 0)
            consider(k.key, typed.substr(0, typed.find('.') + 1) + field, 1);
    }
    if (!dotted) {
        for (const std::string& s : config_sections()) consider(s, s);
    }
    return best_d <= limit ? best : std::string();
}

std::string unknown_key_reason(std::string_view unknown) {
    const std::string s = suggest_key(unknown);
    if (!s.empty()) return "unknown key, did you mean " + s + "?";
    return "unknown key (see docs/configuration.md or 'ndrsim config keys')";
}

}  // namespace ndr::cfg
