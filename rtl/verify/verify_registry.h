// The blocks `ndrsim verify` knows: name -> check function (check_result.h). One table in
// verify_registry.cpp; registering a block is one line there.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "verify/check_result.h"

namespace ndr::verify {

struct registered_check {
    std::string_view name;  ///< block name as in rtl/<block>, or "switch" (ib_switch_core)
    check_fn fn;
    std::string_view what;  ///< one line: the RTL and its reference
};

/// Every registered check, in the order `ndrsim verify all` runs them.
const std::vector<registered_check>& registered_checks();
/// The check named `name`, or nullptr.
const registered_check* find_check(std::string_view name);
/// "credit_fc, vl_arb, ..." for error messages.
std::string check_names();

}  // namespace ndr::verify
