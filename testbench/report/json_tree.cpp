#include "json_tree.h"

#include <stdexcept>

namespace ndr::tb {

nlohmann::json& json_tree::place(nlohmann::json v) {
    if (stack_.empty()) {
        root_ = std::move(v);
        return root_;
    }
    nlohmann::json& top = *stack_.back();
    if (top.is_object()) {
        if (!has_key_) throw std::logic_error("json_tree: a value in an object without a key");
        has_key_ = false;
        nlohmann::json& slot = top[key_];
        slot = std::move(v);
        return slot;
    }
    top.push_back(std::move(v));
    return top.back();
}

void json_tree::begin_object() {
    stack_.push_back(&place(nlohmann::json::object()));
}
void json_tree::begin_array() {
    stack_.push_back(&place(nlohmann::json::array()));
}

void json_tree::end_object() {
    if (stack_.empty() || !stack_.back()->is_object()) {
        throw std::logic_error("json_tree: unbalanced end_object");
    }
    stack_.pop_back();
}

void json_tree::end_array() {
    if (stack_.empty() || !stack_.back()->is_array()) {
        throw std::logic_error("json_tree: unbalanced end_array");
    }
    stack_.pop_back();
}

void json_tree::key(std::string_view k) {
    key_ = std::string(k);
    has_key_ = true;
}

void json_tree::put_string(std::string_view s) {
    place(std::string(s));
}
void json_tree::put_bool(bool b) {
    place(b);
}
void json_tree::put_int(int64_t v) {
    place(v);
}
void json_tree::put_uint(uint64_t v) {
    place(v);
}
void json_tree::put_double(double v) {
    place(v);
}
void json_tree::put_float(float v) {
    place(static_cast<double>(v));
}
void json_tree::put_null() {
    place(nullptr);
}

}  // namespace ndr::tb
