// common::qp_table: queue pairs numbered in creation order, one per (src, dst), the reverse
// direction found (and created) as index() would, and references that survive growth.
#include "common/qp_table.h"

#include <catch2/catch.hpp>
#include <cstdint>

namespace {
struct test_qp {
    uint32_t src = 0;
    uint32_t dst = 0;
    uint32_t payload = 0;
};
}  // namespace

TEST_CASE("qp_table numbers queue pairs in creation order, one per (src, dst)", "[common]") {
    ndr::common::qp_table<test_qp> t;
    CHECK(t.size() == 0);
    CHECK(t.find(0, 1) == t.npos);
    CHECK(t.index(0, 1) == 0);
    CHECK(t.index(2, 0) == 1);
    CHECK(t.index(0, 1) == 0);  // found, not added
    CHECK(t.index(1, 0) == 2);  // the opposite direction is a QP of its own
    CHECK(t.size() == 3);
    CHECK(t.find(2, 0) == 1);
    CHECK(t.find(0, 2) == t.npos);
    CHECK(t.size() == 3);  // find creates nothing
    CHECK(t[1].src == 2);
    CHECK(t[1].dst == 0);
}

TEST_CASE("qp_table::reverse is the QP dst -> src, created on first use like index()", "[common]") {
    ndr::common::qp_table<test_qp> t;
    const uint32_t a = t.index(3, 5);  // 0
    const uint32_t b = t.index(5, 3);  // 1: exists before reverse() is asked
    const uint32_t c = t.index(4, 6);  // 2
    CHECK(t.reverse(a) == b);
    CHECK(t.reverse(b) == a);
    CHECK(t.size() == 3);
    CHECK(t.reverse(c) == 3);  // 6 -> 4 did not exist: appended, the next index
    CHECK(t.size() == 4);
    CHECK(t[3].src == 6);
    CHECK(t[3].dst == 4);
    CHECK(t.index(6, 4) == 3);
    CHECK(t.reverse(3) == c);  // cached both ways
    CHECK(t.reverse(c) == 3);
}

TEST_CASE("qp_table keeps references valid while queue pairs are added", "[common]") {
    ndr::common::qp_table<test_qp> t;
    test_qp& first = t[t.index(0, 1)];
    first.payload = 42;
    for (uint32_t d = 2; d < 5000; ++d) t.index(0, d);
    CHECK(&first == &t[0]);
    CHECK(first.payload == 42);
    CHECK(t.size() == 4999);
}
