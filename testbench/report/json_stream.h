// A streaming JSON writer: text goes to the stream as it is produced (through a 64 KiB buffer,
// flushed when full and when the document is complete), so memory does not grow with the
// document (report.json, timeline.json). Output is nlohmann::json's dump() layout:
// compact, or pretty with `indent` spaces per level; numbers in their shortest round-trip form.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "json_out.h"

namespace ndr::tb {

class json_stream final : public json_out {
public:
    /// indent < 0: compact (dump()); otherwise pretty (dump(indent)).
    explicit json_stream(std::ostream& os, int indent = -1) : os_(os), indent_(indent) {}
    json_stream(const json_stream&) = delete;
    json_stream& operator=(const json_stream&) = delete;
    json_stream(json_stream&&) = delete;
    json_stream& operator=(json_stream&&) = delete;
    /// Writes what is still buffered (an incomplete document stays incomplete).
    ~json_stream() override;

    void begin_object() override;
    void end_object() override;
    void begin_array() override;
    void end_array() override;
    void key(std::string_view k) override;

    /// True once the top-level value is complete and every container is closed.
    [[nodiscard]] bool complete() const { return done_ && stack_.empty(); }

private:
    void put_string(std::string_view s) override;
    void put_bool(bool b) override;
    void put_int(int64_t v) override;
    void put_uint(uint64_t v) override;
    void put_double(double v) override;
    void put_float(float v) override;
    void put_null() override;

    /// Separator and indentation before a value (or a key in an object).
    void before_value();
    void open(char c, bool object);
    void close(char c, bool object);
    void newline(std::size_t depth);
    void write_escaped(std::string_view s);
    void write_scalar(std::string_view text);
    /// After a value: hands the buffer to the stream when full or when the document is done.
    void end_value();
    void flush();

    struct frame {
        bool object = false;
        std::size_t count = 0;
    };
    std::ostream& os_;
    std::string buf_;
    int indent_;
    std::vector<frame> stack_;
    bool after_key_ = false;
    bool done_ = false;
};

}  // namespace ndr::tb
