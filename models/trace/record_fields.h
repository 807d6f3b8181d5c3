// Field access for the trace loader: one JSON Lines record, its typed fields and the one-line
// `FILE:LINE: FIELD: REASON` errors (trace_error). Internal to models/trace.
#pragma once
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "trace/trace.h"

namespace ndr::trace::detail {

using json = nlohmann::json;
inline constexpr uint32_t none = std::numeric_limits<uint32_t>::max();
/// Largest S accepted, 2^62 bytes: keeps every byte count summable without overflow.
inline constexpr uint64_t max_bytes = uint64_t{1} << 62;

[[noreturn]] inline void fail_at(const std::string& path, uint32_t line, std::string_view field,
                                 const std::string& reason) {
    std::string msg = fmt::format("{}:{}: {}: {}", path, line, field, reason);
    for (char& c : msg) {
        if (c == '\n' || c == '\r') c = ' ';  // one line, as config_error's messages
    }
    throw trace_error(msg);
}

inline std::string describe(const json& j) {
    std::string v = j.dump();
    if (v.size() > 40) v = v.substr(0, 37) + "...";
    return fmt::format("{} {}", j.type_name(), v);
}

template <typename T, typename F>
std::string join(const std::vector<T>& v, F f) {
    std::string s;
    for (const auto& x : v) {
        if (!s.empty()) s += ", ";
        s += f(x);
    }
    return s;
}

template <typename E, std::size_t N>
std::string allowed_names(const std::array<E, N>& all) {
    std::string s;
    for (E e : all) {
        if (!s.empty()) s += ", ";
        s += std::string(coll::name(e));
    }
    return s;
}

constexpr std::array<coll::op_kind, 11> all_ops{
    coll::op_kind::allreduce,  coll::op_kind::reduce_scatter, coll::op_kind::allgather,
    coll::op_kind::alltoall,   coll::op_kind::broadcast,      coll::op_kind::reduce,
    coll::op_kind::barrier,    coll::op_kind::send,           coll::op_kind::recv,
    coll::op_kind::rdma_write, coll::op_kind::rdma_read};
constexpr std::array<coll::dtype, 14> all_dtypes{
    coll::dtype::int8,    coll::dtype::uint8,  coll::dtype::int16, coll::dtype::uint16,
    coll::dtype::int32,   coll::dtype::uint32, coll::dtype::int64, coll::dtype::uint64,
    coll::dtype::fp16,    coll::dtype::bf16,   coll::dtype::fp32,  coll::dtype::fp64,
    coll::dtype::fp8e4m3, coll::dtype::fp8e5m2};
constexpr std::array<coll::redop, 5> all_redops{
    coll::redop::sum, coll::redop::prod, coll::redop::max, coll::redop::min, coll::redop::avg};

/// The fields of one JSON object, read by name; remembers which ones exist for the
/// unknown-field check and reports problems against this line.
class fields {
public:
    fields(const json& obj, const std::string& path, uint32_t line)
        : obj_(obj), path_(path), line_(line) {}

    [[noreturn]] void fail(std::string_view field, const std::string& reason) const {
        fail_at(path_, line_, field, reason);
    }

    /// Rejects every key not in `allowed` (all of them named in one message).
    void only(std::initializer_list<std::string_view> allowed, std::string_view type) const {
        std::vector<std::string> unknown;
        for (const auto& item : obj_.items()) {
            if (std::find(allowed.begin(), allowed.end(), item.key()) == allowed.end()) {
                unknown.push_back(item.key());
            }
        }
        if (unknown.empty()) return;
        std::string allowed_list;
        for (auto a : allowed) {
            if (!allowed_list.empty()) allowed_list += ", ";
            allowed_list += std::string(a);
        }
        fail(unknown.front(),
             fmt::format("unknown field{} {} in a {} record (allowed: {})",
                         unknown.size() > 1 ? "s" : "",
                         join(unknown, [](const std::string& k) { return "'" + k + "'"; }), type,
                         allowed_list));
    }

    bool has(const char* key) const { return obj_.contains(key); }

    const json& need(const char* key, std::string_view why = {}) const {
        auto it = obj_.find(key);
        if (it == obj_.end()) {
            fail(key, why.empty() ? std::string("missing field")
                                  : fmt::format("missing field ({})", why));
        }
        return *it;
    }

    uint64_t to_u64(const json& j, std::string_view field, uint64_t max) const {
        if (j.is_number_unsigned()) {
            const auto v = j.get<uint64_t>();
            if (v > max)
                fail(field, fmt::format("out of range: {} > {} (the largest allowed)", v, max));
            return v;
        }
        if (j.is_number_integer()) {
            fail(field, fmt::format("must not be negative, got {}", j.get<int64_t>()));
        }
        if (j.is_number_float()) {
            fail(field,
                 fmt::format("expected a non-negative integer, got {} (a float or out of range "
                             "of 64 bits)",
                             j.dump()));
        }
        fail(field, fmt::format("expected a non-negative integer, got {}", describe(j)));
    }

    uint64_t u64(const char* key, uint64_t max) const { return to_u64(need(key), key, max); }
    uint32_t u32(const char* key, uint64_t max = std::numeric_limits<uint32_t>::max()) const {
        return static_cast<uint32_t>(u64(key, max));
    }
    std::optional<uint64_t> opt_u64(const char* key, uint64_t max) const {
        if (!has(key)) return std::nullopt;
        return u64(key, max);
    }

    std::string str(const char* key) const {
        const json& j = need(key);
        if (!j.is_string()) fail(key, fmt::format("expected a string, got {}", describe(j)));
        return j.get<std::string>();
    }

    /// A name looked up with `parse`; unknown names list the allowed ones.
    template <typename E, std::size_t N, typename P>
    E named(const char* key, P parse, const std::array<E, N>& all, std::string_view what) const {
        return named(key, parse, allowed_names(all), what);
    }
    /// The same with the allowed names already joined (coll::algo_names()).
    template <typename P>
    auto named(const char* key, P parse, const std::string& allowed, std::string_view what) const {
        const std::string s = str(key);
        if (auto v = parse(s)) return *v;
        fail(key, fmt::format("unknown {} '{}' (allowed: {})", what, s, allowed));
    }

    std::vector<uint32_t> u32_list(const char* key, uint64_t max) const {
        const json& j = need(key);
        if (!j.is_array())
            fail(key, fmt::format("expected a list of integers, got {}", describe(j)));
        std::vector<uint32_t> out;
        for (std::size_t i = 0; i < j.size(); ++i) {
            out.push_back(static_cast<uint32_t>(to_u64(j[i], fmt::format("{}[{}]", key, i), max)));
        }
        return out;
    }

    /// Rejects `key` if present.
    void forbid(const char* key, const std::string& why) const {
        if (has(key)) fail(key, why);
    }

private:
    const json& obj_;
    const std::string& path_;
    uint32_t line_;
};

/// Deepest nesting of arrays and objects a record may have: a record is at most an object holding
/// arrays of numbers, so 32 levels is generous, and it keeps the parser's and the tree's
/// recursion far from the stack's limit.
constexpr int MAX_JSON_DEPTH = 32;

/// The nesting depth of `text` (brackets outside strings), stopping once past `limit`.
inline int json_depth(const std::string& text, int limit) {
    int depth = 0;
    int deepest = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (c == '\\') {
                ++i;
            } else if (c == '"') {
                in_string = false;
            }
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            deepest = std::max(deepest, ++depth);
            if (deepest > limit) return deepest;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return deepest;
}

/// Parses one line; duplicate keys (which nlohmann::json would resolve silently) are errors.
inline json parse_line(const std::string& text, const std::string& path, uint32_t line) {
    if (json_depth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
        fail_at(path, line, "json",
                fmt::format("malformed JSON: nested deeper than {} levels", MAX_JSON_DEPTH));
    }
    std::vector<std::set<std::string>> keys;
    std::string dup;
    const json::parser_callback_t cb = [&](int /*depth*/, json::parse_event_t ev, json& parsed) {
        if (ev == json::parse_event_t::object_start) {
            keys.emplace_back();
        } else if (ev == json::parse_event_t::object_end) {
            if (!keys.empty()) keys.pop_back();
        } else if (ev == json::parse_event_t::key && !keys.empty()) {
            const std::string k = parsed.get<std::string>();
            if (!keys.back().insert(k).second && dup.empty()) dup = k;
        }
        return true;
    };
    json j;
    try {
        j = json::parse(text, cb);
    } catch (const json::parse_error& e) {
        std::string what = e.what();
        // "[json.exception.parse_error.101] parse error at line 1, column 7: syntax error ..."
        const std::string marker = "parse error at line 1, ";
        if (auto p = what.find(marker); p != std::string::npos)
            what = what.substr(p + marker.size());
        else if (auto q = what.find("] "); q != std::string::npos)
            what = what.substr(q + 2);
        fail_at(path, line, "json", "malformed JSON: " + what);
    } catch (const json::out_of_range& e) {
        // "[json.exception.out_of_range.406] number overflow parsing '1e400'"
        std::string what = e.what();
        if (auto q = what.find("] "); q != std::string::npos) what = what.substr(q + 2);
        fail_at(path, line, "json", "number out of range: " + what);
    }
    if (!dup.empty()) fail_at(path, line, dup, "field given twice in one record");
    if (!j.is_object()) {
        fail_at(path, line, "json",
                fmt::format("expected one JSON object per line, got {}", describe(j)));
    }
    return j;
}

}  // namespace ndr::trace::detail
