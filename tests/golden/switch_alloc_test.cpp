// Switch allocation golden rule (models/golden/switch_alloc.h): iSLIP and separable input-first
// round robin on hand-computed request matrices. Every expectation is derived in the comment
// above it from the rules in the header; none is a snapshot of the code's output.
#include <catch2/catch.hpp>

#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <utility>
#include <vector>

#include "golden/switch_alloc.h"
#include "golden/vl_arb.h"

using namespace ndr::golden;

namespace {

using pair_list = std::vector<std::pair<uint32_t, uint32_t>>;  // (input, output) in match order

/// Masks from bit lists, so the matrices below read like the comments.
constexpr uint64_t m(std::initializer_list<uint32_t> ports) {
    uint64_t r = 0;
    for (uint32_t p : ports) r |= bit(p);
    return r;
}

/// A request matrix req[i] = outputs input i requests, with the plain round-robin oracle of
/// the RTL block: output o grants rr_pick(inputs requesting o & avail, gptr[o]).
struct matrix {
    std::vector<uint64_t> req;

    uint64_t column(uint32_t o) const {
        uint64_t c = 0;
        for (uint32_t i = 0; i < req.size(); ++i) {
            if ((req[i] & bit(o)) != 0) c |= bit(i);
        }
        return c;
    }
    auto oracle() const {
        return [this](uint32_t o, uint64_t avail, uint32_t from) {
            return rr_pick(column(o) & avail, from);
        };
    }
};

struct recorder {
    pair_list pairs;
    std::vector<uint32_t> iterations;
    auto fn() {
        return [this](uint32_t i, uint32_t o, uint32_t it) {
            pairs.emplace_back(i, o);
            iterations.push_back(it);
        };
    }
};

std::vector<uint32_t> grant_ptrs(const switch_alloc& a) {
    std::vector<uint32_t> v;
    for (uint32_t o = 0; o < a.ports(); ++o) v.push_back(a.grant_ptr(o));
    return v;
}
std::vector<uint32_t> accept_ptrs(const switch_alloc& a) {
    std::vector<uint32_t> v;
    for (uint32_t i = 0; i < a.ports(); ++i) v.push_back(a.accept_ptr(i));
    return v;
}

constexpr uint64_t ALL4 = 0xF;

// The 4x4 matrix of the iSLIP cases:
//   in0 -> {out0, out1}, in1 -> {out1}, in2 -> {out2, out3}, in3 -> {out3}
// Columns: out0 {in0}, out1 {in0, in1}, out2 {in2}, out3 {in2, in3}.
const matrix ISLIP_4X4{{m({0, 1}), m({1}), m({2, 3}), m({3})}};

}  // namespace

TEST_CASE("rr_pick: first set bit at or after the pointer, wrapping") {
    CHECK(rr_pick(m({1, 3}), 0) == 1);
    CHECK(rr_pick(m({1, 3}), 1) == 1);  // at the pointer counts
    CHECK(rr_pick(m({1, 3}), 2) == 3);
    CHECK(rr_pick(m({1, 3}), 4) == 1);    // nothing at or after 4: wraps to the lowest
    CHECK(rr_pick(m({63}), 63) == 63);    // top bit
    CHECK(rr_pick(m({0, 63}), 64) == 0);  // from = 64: the whole mask wraps
    CHECK(rr_pick(0, 5) == MASK_PORTS);   // empty: no port
}

TEST_CASE("switch_alloc: 1..64 ports, pointers start at 0") {
    CHECK_THROWS_AS(switch_alloc(0), std::invalid_argument);
    CHECK_THROWS_AS(switch_alloc(65), std::invalid_argument);
    const switch_alloc a(4);
    CHECK(grant_ptrs(a) == std::vector<uint32_t>{0, 0, 0, 0});
    CHECK(accept_ptrs(a) == std::vector<uint32_t>{0, 0, 0, 0});
}

TEST_CASE("iSLIP 4x4, one iteration: two matches, grants lost, retry") {
    // Iteration 0, all pointers 0: each output grants the lowest input requesting it:
    //   out0 -> in0, out1 -> in0, out2 -> in2, out3 -> in2.
    // Accept (aptr 0): in0 has grants {out0, out1}, accepts out0; in2 has {out2, out3}, accepts
    // out2. Grants of out1 and out3 are lost, and this was the last iteration: retry.
    // Pointers: gptr[0] = 0 + 1 = 1, aptr[0] = 0 + 1 = 1; gptr[2] = 2 + 1 = 3, aptr[2] = 3.
    switch_alloc a(4);
    recorder rec;
    const switch_alloc_result r = a.islip(ALL4, ALL4, 1, ISLIP_4X4.oracle(), rec.fn());
    CHECK(rec.pairs == pair_list{{0, 0}, {2, 2}});
    CHECK(r.matched_in == m({0, 2}));
    CHECK(r.matched_out == m({0, 2}));
    CHECK(r.retry);
    CHECK(grant_ptrs(a) == std::vector<uint32_t>{1, 0, 3, 0});
    CHECK(accept_ptrs(a) == std::vector<uint32_t>{1, 0, 3, 0});
}

TEST_CASE("iSLIP 4x4, two iterations: the second adds two matches, pointers stay") {
    // Iteration 0 as in the one-iteration case: (in0, out0), (in2, out2), grants lost.
    // Iteration 1 among unmatched outputs {out1, out3} and inputs {in1, in3}:
    //   out1: requesting {in0, in1} & {in1, in3} = {in1} -> in1;
    //   out3: {in2, in3} & {in1, in3} = {in3} -> in3.
    // Accept: in1 takes out1, in3 takes out3; no grant lost: stop, no retry.
    // Iteration-1 accepts do not move pointers: gptr[1], gptr[3], aptr[1], aptr[3] stay 0.
    switch_alloc a(4);
    recorder rec;
    const switch_alloc_result r = a.islip(ALL4, ALL4, 2, ISLIP_4X4.oracle(), rec.fn());
    CHECK(rec.pairs == pair_list{{0, 0}, {2, 2}, {1, 1}, {3, 3}});
    CHECK(rec.iterations == std::vector<uint32_t>{0, 0, 1, 1});
    CHECK(r.matched_in == ALL4);
    CHECK(r.matched_out == ALL4);
    CHECK_FALSE(r.retry);
    CHECK(grant_ptrs(a) == std::vector<uint32_t>{1, 0, 3, 0});
    CHECK(accept_ptrs(a) == std::vector<uint32_t>{1, 0, 3, 0});

    // The same requests again, with gptr = {1, 0, 3, 0}, aptr = {1, 0, 3, 0}:
    // Iteration 0: out0 {in0} from 1 -> wraps to in0; out1 {in0, in1} from 0 -> in0;
    //   out2 {in2} from 3 -> wraps to in2; out3 {in2, in3} from 0 -> in2.
    //   in0 has {out0, out1}, aptr 1 -> out1; in2 has {out2, out3}, aptr 3 -> out3.
    //   Pointers: gptr[1] = 1, aptr[0] = 2; gptr[3] = 3, aptr[2] = (3 + 1) mod 4 = 0.
    // Iteration 1: outputs {out0, out2}, inputs {in1, in3}: out0 {in0} & {in1, in3} = {},
    //   out2 {in2} & {in1, in3} = {}: no output grants: stop, no retry (nothing more possible).
    recorder rec2;
    const switch_alloc_result r2 = a.islip(ALL4, ALL4, 2, ISLIP_4X4.oracle(), rec2.fn());
    CHECK(rec2.pairs == pair_list{{0, 1}, {2, 3}});
    CHECK_FALSE(r2.retry);
    CHECK(grant_ptrs(a) == std::vector<uint32_t>{1, 1, 3, 3});
    CHECK(accept_ptrs(a) == std::vector<uint32_t>{2, 0, 0, 0});
}

TEST_CASE("iSLIP stops after an iteration without lost grants") {
    // A permutation: in0 -> out1, in1 -> out2, in2 -> out3, in3 -> out0. Iteration 0: every
    // output grants its only requester, every input has one grant and accepts it: nothing is
    // lost, so iterations 1 and 2 do not run: the oracle is called 4 times, not more.
    const matrix perm{{m({1}), m({2}), m({3}), m({0})}};
    switch_alloc a(4);
    unsigned calls = 0;
    const auto oracle = [&](uint32_t o, uint64_t avail, uint32_t from) {
        ++calls;
        return rr_pick(perm.column(o) & avail, from);
    };
    recorder rec;
    const switch_alloc_result r = a.islip(ALL4, ALL4, 3, oracle, rec.fn());
    CHECK(calls == 4);
    CHECK(rec.pairs == pair_list{{0, 1}, {1, 2}, {2, 3}, {3, 0}});  // by input
    CHECK_FALSE(r.retry);
    // gptr[o] = i + 1 per pair: gptr[1] = 1, gptr[2] = 2, gptr[3] = 3, gptr[0] = 0 (3 + 1 mod 4).
    CHECK(grant_ptrs(a) == std::vector<uint32_t>{0, 1, 2, 3});
    // aptr[i] = o + 1: aptr[0] = 2, aptr[1] = 3, aptr[2] = 0, aptr[3] = 1.
    CHECK(accept_ptrs(a) == std::vector<uint32_t>{2, 3, 0, 1});
}

TEST_CASE("iSLIP: lost grants but no further grant possible: no retry with 2 iterations") {
    // in0 -> {out0, out1}, nothing else. Iteration 0: out0 and out1 both grant in0, which
    // accepts out0 (aptr 0); out1's grant is lost. With 1 iteration that is the last one:
    // retry. With 2: iteration 1 has out1 unmatched but no unmatched input requests it, so no
    // output grants: stop before the retry rule applies.
    const matrix one{{m({0, 1}), 0, 0, 0}};
    recorder rec;
    switch_alloc a1(4);
    CHECK(a1.islip(ALL4, ALL4, 1, one.oracle(), rec.fn()).retry);
    switch_alloc a2(4);
    CHECK_FALSE(a2.islip(ALL4, ALL4, 2, one.oracle(), rec.fn()).retry);
    CHECK(rec.pairs == pair_list{{0, 0}, {0, 0}});
}

TEST_CASE("iSLIP: busy ports are left out, and the oracle decides the grant") {
    // ISLIP_4X4 with in0 busy (free_in = {1, 2, 3}) and out3 busy (free_out = {0, 1, 2}).
    // Iteration 0: out0 {in0} & free = {} -> no grant; out1 {in0, in1} & free = {in1} -> in1;
    //   out2 {in2} -> in2. Each input has one grant: both accepted, nothing lost, stop.
    // gptr[1] = 2, aptr[1] = 2; gptr[2] = 3, aptr[2] = 3.
    switch_alloc a(4);
    recorder rec;
    const switch_alloc_result r =
        a.islip(m({1, 2, 3}), m({0, 1, 2}), 2, ISLIP_4X4.oracle(), rec.fn());
    CHECK(rec.pairs == pair_list{{1, 1}, {2, 2}});
    CHECK_FALSE(r.retry);
    CHECK(grant_ptrs(a) == std::vector<uint32_t>{0, 2, 3, 0});
    CHECK(accept_ptrs(a) == std::vector<uint32_t>{0, 2, 3, 0});

    // An oracle of its own, as credits would decide: out0 grants in1 (round robin from gptr 0
    // would have been in0), out1 grants in2, out2 and out3 grant nothing; free_out = {0, 1, 2}.
    // Accept: in1 takes out0, in2 takes out1, one grant each. gptr[0] = 2, aptr[1] = 0 + 1 = 1;
    // gptr[1] = 3, aptr[2] = 1 + 1 = 2.
    switch_alloc b(4);
    const auto picky = [](uint32_t o, uint64_t avail, uint32_t /*from*/) -> uint32_t {
        if (o == 0) return (avail & bit(1)) != 0 ? 1 : MASK_PORTS;
        if (o == 1) return (avail & bit(2)) != 0 ? 2 : MASK_PORTS;
        return MASK_PORTS;
    };
    recorder rec2;
    const switch_alloc_result r2 = b.islip(ALL4, m({0, 1, 2}), 2, picky, rec2.fn());
    CHECK(rec2.pairs == pair_list{{1, 0}, {2, 1}});
    CHECK_FALSE(r2.retry);
    CHECK(grant_ptrs(b) == std::vector<uint32_t>{2, 3, 0, 0});
    CHECK(accept_ptrs(b) == std::vector<uint32_t>{0, 1, 2, 0});
}

TEST_CASE("iSLIP: pointers wrap at the last of 64 ports") {
    // in63 -> out63: one match; gptr[63] = aptr[63] = (63 + 1) mod 64 = 0.
    // in62 -> out63 and in63 -> out62 next: out62 grants in63, out63 grants in62 (from 0,
    // the lowest requester); one grant each: both accepted.
    std::vector<uint64_t> req(64, 0);
    req[63] = bit(63);
    const matrix one{req};
    switch_alloc a(64);
    recorder rec;
    a.islip(~uint64_t{0}, ~uint64_t{0}, 2, one.oracle(), rec.fn());
    CHECK(rec.pairs == pair_list{{63, 63}});
    CHECK(a.grant_ptr(63) == 0);
    CHECK(a.accept_ptr(63) == 0);
    req[63] = bit(62);
    req[62] = bit(63);
    const matrix cross{req};
    recorder rec2;
    a.islip(~uint64_t{0}, ~uint64_t{0}, 2, cross.oracle(), rec2.fn());
    CHECK(rec2.pairs == pair_list{{62, 63}, {63, 62}});
    CHECK(a.grant_ptr(63) == 63);   // 62 + 1
    CHECK(a.accept_ptr(63) == 63);  // 62 + 1
}

TEST_CASE("input-first round robin: picks, grants, pointers and retry over three cycles") {
    // in0 -> {out1, out2}, in1 -> {out1}, in2 -> {out1, out3}, in3 -> {}.
    const matrix req{{m({1, 2}), m({1}), m({1, 3}), 0}};
    const auto requests = [&](uint32_t i) { return req.req[i]; };
    switch_alloc a(4);

    // Cycle 1, all pointers 0: in0 picks out1 (lowest from 0), in1 out1, in2 out1.
    // out1 was picked by {in0, in1, in2}, gptr 0 -> grants in0; in1 and in2 lose: retry.
    // gptr[1] = 1, aptr[0] = 2. out2, out3 were not picked.
    recorder c1;
    const switch_alloc_result r1 = a.input_first(ALL4, ALL4, requests, req.oracle(), c1.fn());
    CHECK(c1.pairs == pair_list{{0, 1}});
    CHECK(r1.retry);
    CHECK(grant_ptrs(a) == std::vector<uint32_t>{0, 1, 0, 0});
    CHECK(accept_ptrs(a) == std::vector<uint32_t>{2, 0, 0, 0});

    // Cycle 2: in0 from 2 picks out2; in1 out1; in2 from 0 picks out1.
    // out1 picked by {in1, in2}, gptr 1 -> in1 (in2 loses: retry); out2 picked by {in0} -> in0.
    // Matches by output: (in1, out1), (in0, out2). gptr[1] = 2, aptr[1] = 2; gptr[2] = 1,
    // aptr[0] = 3.
    recorder c2;
    const switch_alloc_result r2 = a.input_first(ALL4, ALL4, requests, req.oracle(), c2.fn());
    CHECK(c2.pairs == pair_list{{1, 1}, {0, 2}});
    CHECK(r2.retry);
    CHECK(grant_ptrs(a) == std::vector<uint32_t>{0, 2, 1, 0});
    CHECK(accept_ptrs(a) == std::vector<uint32_t>{3, 2, 0, 0});

    // Cycle 3: in0 from 3: {out1, out2} has nothing >= 3, wraps to out1; in1 from 2 wraps to
    // out1; in2 from 0 picks out1. out1 picked by {in0, in1, in2}, gptr 2 -> in2; retry.
    // gptr[1] = 3, aptr[2] = 2.
    recorder c3;
    const switch_alloc_result r3 = a.input_first(ALL4, ALL4, requests, req.oracle(), c3.fn());
    CHECK(c3.pairs == pair_list{{2, 1}});
    CHECK(r3.retry);
    CHECK(grant_ptrs(a) == std::vector<uint32_t>{0, 3, 1, 0});
    CHECK(accept_ptrs(a) == std::vector<uint32_t>{3, 2, 2, 0});
}

TEST_CASE("input-first: picks only free outputs, pointers stay when the oracle refuses") {
    // in0 -> {out1, out2}, in1 -> {out2}. out1 busy (free_out = {0, 2, 3}):
    // in0 picks out2 (its only free request), in1 picks out2. out2 picked by {in0, in1}; the
    // oracle refuses (e.g. no credits): no match, no retry, no pointer moves.
    const matrix req{{m({1, 2}), m({2}), 0, 0}};
    const auto requests = [&](uint32_t i) { return req.req[i]; };
    const auto refuse = [](uint32_t, uint64_t, uint32_t) { return MASK_PORTS; };
    switch_alloc a(4);
    recorder rec;
    const switch_alloc_result r = a.input_first(ALL4, m({0, 2, 3}), requests, refuse, rec.fn());
    CHECK(rec.pairs.empty());
    CHECK_FALSE(r.retry);
    CHECK(r.matched_out == 0);
    CHECK(grant_ptrs(a) == std::vector<uint32_t>{0, 0, 0, 0});
    CHECK(accept_ptrs(a) == std::vector<uint32_t>{0, 0, 0, 0});

    // The scratch is clear after the refusal: with in0 busy (free_in = {1, 2, 3}) only in1
    // picks out2, which grants it: one match, nobody lost, no retry; gptr[2] = 2, aptr[1] = 3.
    recorder rec2;
    const switch_alloc_result r2 =
        a.input_first(m({1, 2, 3}), m({0, 2, 3}), requests, req.oracle(), rec2.fn());
    CHECK(rec2.pairs == pair_list{{1, 2}});
    CHECK_FALSE(r2.retry);
    CHECK(grant_ptrs(a) == std::vector<uint32_t>{0, 0, 2, 0});
    CHECK(accept_ptrs(a) == std::vector<uint32_t>{0, 3, 0, 0});
}

TEST_CASE("pick_output_vl: one weighted VL directly, otherwise the VL arbiter") {
    // Low table 0:64, 1:64, 2:0 (VL 2 has weight 0: never chosen), no high table.
    const vl_arbiter low(vl_arb_table::parse("", "0:64,1:64,2:0", 255, 3));
    CHECK(pick_output_vl(low, 0) == -1);
    CHECK(pick_output_vl(low, m({1})) == 1);     // the only eligible VL, weighted
    CHECK(pick_output_vl(low, m({2})) == -1);    // only weight-0 VL 2: the arbiter has none
    CHECK(pick_output_vl(low, m({0, 1})) == 0);  // arbiter: entry 0 is current, with weight
    // High table 1:64, low 0:64: with both eligible the high table is served.
    const vl_arbiter hi(vl_arb_table::parse("1:64", "0:64", 255, 2));
    CHECK(pick_output_vl(hi, m({0, 1})) == 1);
    CHECK(pick_output_vl(hi, m({0})) == 0);
}
