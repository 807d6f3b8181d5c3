#include "json_stream.h"

#include <fmt/format.h>

#include <cmath>
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

}  // namespace

void json_stream::newline(std::size_t depth) {
    if (indent_ < 0) return;
    os_.put('\n');
    for (std::size_t i = 0; i < depth * static_cast<std::size_t>(indent_); ++i) os_.put(' ');
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
    if (f.count++ > 0) os_.put(',');
    newline(stack_.size());
}

void json_stream::open(char c, bool object) {
    before_value();
    os_.put(c);
    stack_.push_back(frame{object, 0});
}

void json_stream::close(char c, bool object) {
    if (stack_.empty() || stack_.back().object != object || after_key_) {
        throw std::logic_error("json_stream: unbalanced close");
    }
    const bool empty = stack_.back().count == 0;
    stack_.pop_back();
    if (!empty) newline(stack_.size());
    os_.put(c);
    if (stack_.empty()) done_ = true;
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
    if (f.count++ > 0) os_.put(',');
    newline(stack_.size());
    write_escaped(k);
    os_.write(indent_ < 0 ? ":" : ": ", indent_ < 0 ? 1 : 2);
    after_key_ = true;
}

void json_stream::write_escaped(std::string_view s) {
    os_.put('"');
    std::size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        switch (c) {
            case '"':
                os_.write("\\\"", 2);
                break;
            case '\\':
                os_.write("\\\\", 2);
                break;
            case '\b':
                os_.write("\\b", 2);
                break;
            case '\f':
                os_.write("\\f", 2);
                break;
            case '\n':
                os_.write("\\n", 2);
                break;
            case '\r':
                os_.write("\\r", 2);
                break;
            case '\t':
                os_.write("\\t", 2);
                break;
            default:
                if (c < 0x20) {
                    os_ << fmt::format("\\u{:04x}", c);
                } else {
                    const std::size_t n = utf8_length(s, i);
                    if (n == 0) {
                        os_.write("\xEF\xBF\xBD", 3);  // invalid UTF-8: U+FFFD, as dump's replace
                    } else {
                        os_.write(s.data() + i, static_cast<std::streamsize>(n));
                        i += n;
                        continue;
                    }
                }
        }
        ++i;
    }
    os_.put('"');
}

void json_stream::write_number(const std::string& text) {
    before_value();
    os_.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (stack_.empty()) done_ = true;
}

void json_stream::put_string(std::string_view s) {
    before_value();
    write_escaped(s);
    if (stack_.empty()) done_ = true;
}

void json_stream::put_bool(bool b) {
    write_number(b ? "true" : "false");
}
void json_stream::put_null() {
    write_number("null");
}
void json_stream::put_int(int64_t v) {
    write_number(fmt::format_int(v).str());
}
void json_stream::put_uint(uint64_t v) {
    write_number(fmt::format_int(v).str());
}

namespace {

/// Shortest round-trip text of a finite number, with ".0" on integral values (dump() does too,
/// so a reader still sees a floating-point number); non-finite: null, as dump().
template <class F>
std::string float_text(F v) {
    if (!std::isfinite(v)) return "null";
    std::string s = fmt::format("{}", v);
    if (s.find_first_of(".e") == std::string::npos) s += ".0";
    return s;
}

}  // namespace

void json_stream::put_double(double v) {
    write_number(float_text(v));
}
void json_stream::put_float(float v) {
    write_number(float_text(v));
}

}  // namespace ndr::tb
