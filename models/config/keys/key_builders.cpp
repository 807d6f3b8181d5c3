#include "config/keys/key_builders.h"

#include <cctype>

#include "config/link_down_spec.h"
#include "config/weighted_list.h"
#include "golden/credit_fc.h"

namespace ndr::cfg::detail {

std::string cited_source(std::string_view help) {
    const size_t at = help.find("docs/");
    if (at == std::string_view::npos) return {};
    const size_t md = help.find(".md", at);
    if (md == std::string_view::npos) return {};
    size_t end = md + 3;
    const std::string_view sect = " §";
    if (help.substr(end, sect.size()) == sect) {
        size_t n = end + sect.size();
        while (n < help.size() && (std::isdigit(static_cast<unsigned char>(help[n])) != 0 ||
                                   (help[n] == '.' && n + 1 < help.size() &&
                                    std::isdigit(static_cast<unsigned char>(help[n + 1])) != 0))) {
            ++n;
        }
        if (n > end + sect.size()) end = n;
    }
    return std::string(help.substr(at, end - at));
}

config_key base(std::string key, value_kind kind, std::string unit, std::string range,
                std::string help) {
    config_key k;
    k.key = std::move(key);
    k.kind = kind;
    k.unit = std::move(unit);
    k.range = std::move(range);
    k.source = cited_source(help);
    k.help = std::move(help);
    return k;
}

void attach_check(config_key& k, std::function<std::string(const config&)> raw_check) {
    auto fmt_value = k.format;
    k.check = [raw_check = std::move(raw_check), fmt_value](const config& c) -> std::string {
        std::string why = raw_check(c);
        if (!why.empty()) why += ", got " + fmt_value(c);
        return why;
    };
}

void parse_into(std::string_view t, bytes_t& v) {
    v = parse_bytes(t);
}
void parse_into(std::string_view t, time_ps_t& v) {
    v = parse_time(t);
}
void parse_into(std::string_view t, rate_bps_t& v) {
    v = parse_rate(t);
}
void parse_into(std::string_view t, length_mm_t& v) {
    v = parse_length(t);
}
std::string format_of(bytes_t v) {
    return format_bytes(v);
}
std::string format_of(time_ps_t v) {
    return format_time(v);
}
std::string format_of(rate_bps_t v) {
    return format_rate(v);
}
std::string format_of(length_mm_t v) {
    return format_length(v);
}

std::string link_down_syntax(const std::string& item) {
    try {
        parse_link_down(item);
    } catch (const config_error& e) {
        return e.reason;
    }
    return {};
}

std::string positive(uint64_t v) {
    return v == 0 ? "must be > 0" : "";
}

std::string cable(uint64_t mm) {
    return mm > 100'000'000 ? "must be at most 100km" : "";
}

std::string latency(uint64_t ps) {
    return ps > 1'000'000'000'000 ? "must be at most 1s" : "";
}

checker<uint64_t> one_of(std::vector<uint64_t> allowed, std::string unit) {
    return [allowed = std::move(allowed), unit = std::move(unit)](uint64_t v) -> std::string {
        for (uint64_t a : allowed) {
            if (a == v) return {};
        }
        std::string list;
        for (uint64_t a : allowed) list += (list.empty() ? "" : "|") + std::to_string(a) + unit;
        return "must be one of " + list;
    };
}

std::string credit_buffer(uint64_t v) {
    const uint64_t block = golden::CREDIT_BLOCK_BYTES;
    const uint64_t max_bytes = uint64_t{golden::FC_MAX_OUTSTANDING} * block;
    if (v % block != 0) return "must be a whole number of 64-byte credit blocks";
    if (v > max_bytes)
        return fmt::format(
            "must be at most {} credit blocks ({}) per VL, the most that may be "
            "outstanding (docs/domain.md §2.2)",
            golden::FC_MAX_OUTSTANDING, format_bytes(bytes_t{max_bytes}));
    return {};
}

checker<const std::string&> weighted(uint64_t lo, uint64_t hi) {
    return [lo, hi](const std::string& text) -> std::string {
        try {
            parse_weighted_list(text, lo, hi);
        } catch (const config_error& e) {
            return e.reason;
        }
        return {};
    };
}

}  // namespace ndr::cfg::detail
