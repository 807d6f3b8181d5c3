// The verify registry (verify_registry.h).
#include "verify/verify_registry.h"

#include "credit_fc/credit_fc_check.h"
#include "ib_switch_core/switch_core_check.h"
#include "sharp_alu/sharp_alu_check.h"
#include "switch_alloc/switch_alloc_check.h"
#include "vl_arb/vl_arb_check.h"
#include "xbar/xbar_check.h"

namespace ndr::verify {

const std::vector<registered_check>& registered_checks() {
    static const std::vector<registered_check> checks = {
        {"credit_fc", &check_credit_fc, "rtl/credit_fc vs golden credit_sender/receiver"},
        {"vl_arb", &check_vl_arb, "rtl/vl_arb vs golden vl_arbiter (high/low, limit)"},
        {"switch_alloc", &check_switch_alloc, "rtl/switch_alloc vs golden switch_alloc (iSLIP/RR)"},
        {"xbar", &check_xbar, "rtl/xbar (allocator-driven) vs beat scoreboard"},
        {"switch", &check_switch_core,
         "rtl/ib_switch_core vs the TLM scoreboard (payload, order, credits)"},
        {"sharp_alu", &check_sharp_alu,
         "rtl/sharp_alu vs golden reduce_elementwise (108 op x dtype)"},
    };
    return checks;
}

const registered_check* find_check(std::string_view name) {
    for (const registered_check& c : registered_checks()) {
        if (c.name == name) return &c;
    }
    return nullptr;
}

std::string check_names() {
    std::string out;
    for (const registered_check& c : registered_checks()) {
        if (!out.empty()) out += ", ";
        out += c.name;
    }
    return out;
}

}  // namespace ndr::verify
