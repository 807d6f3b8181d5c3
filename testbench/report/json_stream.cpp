#include "json_stream.h"

#include <fmt/format.h>

#include <cmath>
#include <iterator>
#include <stdexcept>

namespace ndr::tb {

namespace {

/// Length of the valid UTF-8 sequence at s[i], 0 if the bytes there are not one.
std::size_t utf8_length(std::string_view s, std::size_t i) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = b(i);
    std::size_t n = 0;
    uint32_t cp = 0;
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
        cp = c & 0x1FU;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        cp = c & 0x0FU;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        cp = c & 0x07U;
    } else {
        return 0;
    }
    if (i + n > s.size()) return 0;
    for (std::size_t k = 1; k < n; ++k) {
        if ((b(i + k) & 0xC0U) != 0x80U) return 0;
        cp = (cp << 6U) | (b(i + k) & 0x3FU);
    }
    const bool overlong = (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000);
    const bool surrogate = cp >= 0xD800 && cp <= 0xDFFF;
    if (overlong || surrogate || cp > 0x10FFFF) return 0;
    return n;
}

constexpr std::size_t flush_bytes = std::size_t{1} << 16;

}  // namespace

json_stream::~json_stream() {
    flush();
}

void json_stream::flush() {
    if (buf_.empty()) return;
    os_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
    buf_.clear();
}

void json_stream::end_value() {
    if (stack_.empty()) {
        done_ = true;
        flush();
    } else if (buf_.size() >= flush_bytes) {
        flush();
    }
}

void json_stream::newline(std::size_t depth) {
    if (indent_ < 0) return;
    buf_.push_back('\n');
    buf_.append(depth * static_cast<std::size_t>(indent_), ' ');
}

void json_stream::before_value() {
    if (after_key_) {
        after_key_ = false;
        return;
    }
    if (stack_.empty()) {
        if (done_) throw std::logic_error("json_stream: a second top-level value");
        return;
    }
    frame& f = stack_.back();
    if (f.object) throw std::logic_error("json_stream: a value in an object without a key");
    if (f.count++ > 0) buf_.push_back(',');
    newline(stack_.size());
}

void json_stream::open(char c, bool object) {
    before_value();
    buf_.push_back(c);
    stack_.push_back(frame{object, 0});
}

void json_stream::close(char c, bool object) {
    if (stack_.empty() || stack_.back().object != object || after_key_) {
        throw std::logic_error("json_stream: unbalanced close");
    }
    const bool empty = stack_.back().count == 0;
    stack_.pop_back();
    if (!empty) newline(stack_.size());
    buf_.push_back(c);
    end_value();
}

void json_stream::begin_object() {
    open('{', true);
}
void json_stream::end_object() {
    close('}', true);
}
void json_stream::begin_array() {
    open('[', false);
}
void json_stream::end_array() {
    close(']', false);
}

void json_stream::key(std::string_view k) {
    if (stack_.empty() || !stack_.back().object || after_key_) {
        throw std::logic_error("json_stream: a key outside an object");
    }
    frame& f = stack_.back();
    if (f.count++ > 0) buf_.push_back(',');
    newline(stack_.size());
    write_escaped(k);
    buf_.append(indent_ < 0 ? ":" : ": ");
    after_key_ = true;
}

void json_stream::write_escaped(std::string_view s) {
    buf_.push_back('"');
    std::size_t i = 0;
    while (i < s.size()) {
        std::size_t run = i;  // a run of characters written as they are
        while (run < s.size()) {
            const auto c = static_cast<unsigned char>(s[run]);
            if (c < 0x20 || c == '"' || c == '\\' || c >= 0x80) break;
            ++run;
        }
        buf_.append(s.data() + i, run - i);
        i = run;
        if (i == s.size()) break;
        const auto c = static_cast<unsigned char>(s[i]);
        switch (c) {
            case '"':
                buf_.append("\\\"");
                break;
            case '\\':
                buf_.append("\\\\");
                break;
            case '\b':
                buf_.append("\\b");
                break;
            case '\f':
                buf_.append("\\f");
                break;
            case '\n':
                buf_.append("\\n");
                break;
            case '\r':
                buf_.append("\\r");
                break;
            case '\t':
                buf_.append("\\t");
                break;
            default:
                if (c < 0x20) {
                    fmt::format_to(std::back_inserter(buf_), "\\u{:04x}", c);
                } else {
                    const std::size_t n = utf8_length(s, i);
                    if (n == 0) {
                        buf_.append("\xEF\xBF\xBD");  // invalid UTF-8: U+FFFD, as dump's replace
                    } else {
                        buf_.append(s.data() + i, n);
                        i += n;
                        continue;
                    }
                }
        }
        ++i;
    }
    buf_.push_back('"');
}

void json_stream::write_scalar(std::string_view text) {
    before_value();
    buf_.append(text);
    end_value();
}

void json_stream::put_string(std::string_view s) {
    before_value();
    write_escaped(s);
    end_value();
}

void json_stream::put_bool(bool b) {
    write_scalar(b ? "true" : "false");
}
void json_stream::put_null() {
    write_scalar("null");
}
void json_stream::put_int(int64_t v) {
    const fmt::format_int f(v);
    write_scalar(std::string_view(f.data(), f.size()));
}
void json_stream::put_uint(uint64_t v) {
    const fmt::format_int f(v);
    write_scalar(std::string_view(f.data(), f.size()));
}

namespace {

/// Shortest round-trip text of a finite number, with ".0" on integral values (dump() does too,
/// so a reader still sees a floating-point number); non-finite: null, as dump().
template <class F>
fmt::memory_buffer float_text(F v) {
    fmt::memory_buffer b;
    if (!std::isfinite(v)) {
        fmt::format_to(std::back_inserter(b), "null");
        return b;
    }
    fmt::format_to(std::back_inserter(b), "{}", v);
    if (std::string_view(b.data(), b.size()).find_first_of(".e") == std::string_view::npos) {
        fmt::format_to(std::back_inserter(b), ".0");
    }
    return b;
}

}  // namespace

void json_stream::put_double(double v) {
    const fmt::memory_buffer b = float_text(v);
    write_scalar(std::string_view(b.data(), b.size()));
}
void json_stream::put_float(float v) {
    const fmt::memory_buffer b = float_text(v);
    write_scalar(std::string_view(b.data(), b.size()));
}

}  // namespace ndr::tb
