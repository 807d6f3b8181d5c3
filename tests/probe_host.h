// A host (common::hca_host) that records the completion times the HCAs report, for tests that
// drive an HCA array directly at either level.
#pragma once
#include <cstdint>
#include <map>

#include "common/hca_host.h"

namespace ndr::test {

struct probe_host : ndr::common::hca_host {
    std::map<uint64_t, uint64_t> delivered;  ///< tag -> cycle
    std::map<uint64_t, uint64_t> acked;
    void on_delivered(ndr::common::cycle_t t, uint32_t, uint64_t tag) override {
        delivered[tag] = t;
    }
    void on_send_complete(ndr::common::cycle_t t, uint32_t, uint64_t tag) override {
        acked[tag] = t;
    }
    void on_timer(ndr::common::cycle_t, uint64_t) override {}
};

}  // namespace ndr::test
