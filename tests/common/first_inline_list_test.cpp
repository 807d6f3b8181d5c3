// common::first_inline_list against a std::vector fed the same pushes: same size and elements in
// order after every push, whether the list holds one element (inline) or several (the rest on
// the heap), and empty again after clear(), reusable afterwards.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "common/first_inline_list.h"

namespace {
struct item {
    uint32_t x = 0;
    bool flag = false;
};
}  // namespace

TEST_CASE("first_inline_list: holds what a vector holds, in order, and clears", "[common]") {
    ndr::common::first_inline_list<item> l;
    CHECK(l.empty());
    CHECK(l.size() == 0);
    for (int round = 0; round < 2; ++round) {
        std::vector<item> ref;
        for (uint32_t i = 0; i < 5; ++i) {
            const item v{100 * static_cast<uint32_t>(round) + 7 * i, i % 2 == 1};
            l.push_back(v);
            ref.push_back(v);
            REQUIRE(l.size() == ref.size());
            CHECK_FALSE(l.empty());
            for (std::size_t k = 0; k < ref.size(); ++k) {
                CHECK(l[k].x == ref[k].x);
                CHECK(l[k].flag == ref[k].flag);
            }
        }
        l.clear();
        CHECK(l.empty());
        CHECK(l.size() == 0);
    }
}
