// common::place_jobs (jobs.placement) against host lists computed by hand from the rules in
// job_placement.h.
#include "common/job_placement.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

using ndr::common::job_request;
using ndr::common::place_jobs;
using ndr::common::placement_error;

namespace {

/// n nodes, `per` per leaf: node k on leaf k / per (the fat tree's host order).
std::vector<uint32_t> leaves(uint32_t n, uint32_t per) {
    std::vector<uint32_t> l(n);
    for (uint32_t k = 0; k < n; ++k) l[k] = k / per;
    return l;
}

using hosts = std::vector<std::vector<uint32_t>>;

}  // namespace

TEST_CASE("packed placement takes the lowest free hosts in order", "[jobs]") {
    const hosts h = place_jobs("packed", leaves(16, 4), {{8, {}}, {8, {}}}, 1);
    CHECK(h == hosts{{0, 1, 2, 3, 4, 5, 6, 7}, {8, 9, 10, 11, 12, 13, 14, 15}});
}

TEST_CASE("spread placement deals the ranks round-robin over the leaves", "[jobs]") {
    // 4 leaves of 4: job 0 takes leaf 0, 1, 2, 3, 0, ... (lowest free host of each), job 1 starts
    // again at leaf 0.
    const hosts h = place_jobs("spread", leaves(16, 4), {{8, {}}, {8, {}}}, 1);
    CHECK(h == hosts{{0, 4, 8, 12, 1, 5, 9, 13}, {2, 6, 10, 14, 3, 7, 11, 15}});
    // A full leaf is skipped: leaves 0 and 1 hold 2 hosts each here.
    const hosts g = place_jobs("spread", leaves(4, 2), {{3, {}}}, 1);
    CHECK(g == hosts{{0, 2, 1}});
}

TEST_CASE("fixed hosts are kept and the others placed around them", "[jobs]") {
    const hosts h =
        place_jobs("packed", leaves(8, 4), {{2, std::vector<uint32_t>{0, 5}}, {3, {}}}, 1);
    CHECK(h == hosts{{0, 5}, {1, 2, 3}});
    const hosts s =
        place_jobs("spread", leaves(8, 4), {{2, std::vector<uint32_t>{0, 4}}, {2, {}}}, 1);
    CHECK(s == hosts{{0, 4}, {1, 5}});
}

TEST_CASE("random placement is a seeded shuffle of distinct free hosts", "[jobs]") {
    const std::vector<job_request> req{{5, {}}, {6, {}}};
    const hosts a = place_jobs("random", leaves(16, 4), req, 7);
    CHECK(a == place_jobs("random", leaves(16, 4), req, 7));
    CHECK(a != place_jobs("random", leaves(16, 4), req, 8));
    std::set<uint32_t> all;
    for (const auto& j : a) all.insert(j.begin(), j.end());
    CHECK(all.size() == 11);
    CHECK(*all.rbegin() < 16);
    CHECK(a[0].size() == 5);
    CHECK(a[1].size() == 6);
    CHECK(a != place_jobs("packed", leaves(16, 4), req, 7));
}

TEST_CASE("placement refuses overlapping and out-of-range hosts and too many jobs", "[jobs]") {
    try {
        place_jobs("packed", leaves(8, 4),
                   {{2, std::vector<uint32_t>{0, 1}}, {2, std::vector<uint32_t>{1, 2}}}, 1);
        FAIL("overlap accepted");
    } catch (const placement_error& e) {
        CHECK(e.job == 1);
        CHECK(std::string(e.what()) == "host 1 is already used by job 0");
    }
    try {
        place_jobs("packed", leaves(8, 4), {{1, std::vector<uint32_t>{8}}}, 1);
        FAIL("out of range accepted");
    } catch (const placement_error& e) {
        CHECK(e.job == 0);
        CHECK(std::string(e.what()) == "host 8 out of range (the fabric has hosts 0..7)");
    }
    try {
        place_jobs("spread", leaves(8, 4), {{5, {}}, {4, {}}}, 1);
        FAIL("too many accepted");
    } catch (const placement_error& e) {
        CHECK(e.job == -1);
        CHECK(std::string(e.what()) == "the jobs need 9 hosts, the fabric has 8");
    }
}
