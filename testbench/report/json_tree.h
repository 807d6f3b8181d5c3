// Builds an nlohmann::json value from json_out calls: the in-memory form of a report, for the
// commands and tests that read fields of it (compare, validate, sweeps).
#pragma once
#include <string>
#include <vector>

#include "json_out.h"

namespace ndr::tb {

class json_tree final : public json_out {
public:
    void begin_object() override;
    void end_object() override;
    void begin_array() override;
    void end_array() override;
    void key(std::string_view k) override;

    /// The value built so far (complete once every container is closed).
    [[nodiscard]] nlohmann::json& result() { return root_; }

private:
    void put_string(std::string_view s) override;
    void put_bool(bool b) override;
    void put_int(int64_t v) override;
    void put_uint(uint64_t v) override;
    void put_double(double v) override;
    void put_float(float v) override;
    void put_null() override;

    /// Stores `v` at the current position; returns where it went.
    nlohmann::json& place(nlohmann::json v);

    nlohmann::json root_;
    std::vector<nlohmann::json*> stack_;
    std::string key_;
    bool has_key_ = false;
};

}  // namespace ndr::tb
