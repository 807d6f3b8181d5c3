// Where a report's JSON goes, one event at a time: begin/end of objects and arrays, keys and
// values. json_stream writes it to a file as it goes (report.json, timeline.json); json_tree
// builds an nlohmann::json value (tests, compare, validate, sweeps). A report is written once,
// against this interface, whatever its destination.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include <nlohmann/json.hpp>

namespace ndr::tb {

class json_out {
public:
    json_out() = default;
    json_out(const json_out&) = delete;
    json_out& operator=(const json_out&) = delete;
    json_out(json_out&&) = delete;
    json_out& operator=(json_out&&) = delete;
    virtual ~json_out() = default;

    virtual void begin_object() = 0;
    virtual void end_object() = 0;
    virtual void begin_array() = 0;
    virtual void end_array() = 0;
    /// The key of the next value in the current object.
    virtual void key(std::string_view k) = 0;

    /// A value: string, bool, integer, floating point (non-finite ones are written as null,
    /// as nlohmann::json's dump() does) or a small nlohmann::json subtree (the config section).
    template <class T>
    void value(const T& v) {
        if constexpr (std::is_same_v<T, bool>) {
            put_bool(v);
        } else if constexpr (std::is_same_v<T, float>) {
            put_float(v);
        } else if constexpr (std::is_floating_point_v<T>) {
            put_double(static_cast<double>(v));
        } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
            put_int(static_cast<int64_t>(v));
        } else if constexpr (std::is_integral_v<T>) {
            put_uint(static_cast<uint64_t>(v));
        } else if constexpr (std::is_same_v<T, nlohmann::json>) {
            put_tree(v);
        } else if constexpr (std::is_same_v<T, std::nullptr_t>) {
            put_null();
        } else {
            put_string(std::string_view(v));
        }
    }
    /// key(k) then value(v).
    template <class T>
    void field(std::string_view k, const T& v) {
        key(k);
        value(v);
    }

protected:
    virtual void put_string(std::string_view s) = 0;
    virtual void put_bool(bool b) = 0;
    virtual void put_int(int64_t v) = 0;
    virtual void put_uint(uint64_t v) = 0;
    virtual void put_double(double v) = 0;
    virtual void put_float(float v) = 0;
    virtual void put_null() = 0;
    /// Walks `j` with the calls above.
    void put_tree(const nlohmann::json& j);
};

}  // namespace ndr::tb
