// Reference executor and static checks for collective schedules (see schedule_exec.h).
#include "collective/schedule_exec.h"

#include <algorithm>
#include <cstring>
#include <queue>
#include <random>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

namespace ndr::coll {

namespace {

template <typename T>
void add_elems(uint8_t* acc, const uint8_t* in, uint64_t bytes) {
    for (uint64_t i = 0; i + sizeof(T) <= bytes; i += sizeof(T)) {
        T a;
        T b;
        std::memcpy(&a, acc + i, sizeof(T));
        std::memcpy(&b, in + i, sizeof(T));
        a = static_cast<T>(a + b);
        std::memcpy(acc + i, &a, sizeof(T));
    }
}

bool range_ok(uint64_t offset, uint64_t bytes, uint64_t limit) {
    return offset <= limit && bytes <= limit - offset;
}

/// Dependents of every transfer (CSR).
struct dependents {
    std::vector<uint32_t> start;  ///< size T+1
    std::vector<uint32_t> list;
};

dependents make_dependents(const schedule& s) {
    const size_t t = s.xfers.size();
    dependents d;
    d.start.assign(t + 1, 0);
    for (const xfer& x : s.xfers) {
        for (uint32_t p : x.deps) ++d.start[p + 1];
    }
    for (size_t i = 0; i < t; ++i) d.start[i + 1] += d.start[i];
    d.list.resize(d.start[t]);
    std::vector<uint32_t> fill(d.start.begin(), d.start.end() - 1);
    for (size_t i = 0; i < t; ++i) {
        for (uint32_t p : s.xfers[i].deps) d.list[fill[p]++] = static_cast<uint32_t>(i);
    }
    return d;
}

}  // namespace

reduce_fn wrapping_sum(uint32_t elem_bytes) {
    switch (elem_bytes) {
        case 1:
            return add_elems<uint8_t>;
        case 2:
            return add_elems<uint16_t>;
        case 4:
            return add_elems<uint32_t>;
        case 8:
            return add_elems<uint64_t>;
        default:
            throw std::invalid_argument(
                fmt::format("wrapping_sum: element size must be 1, 2, 4 or 8, got {}", elem_bytes));
    }
}

void validate_schedule(const schedule& s) {
    const uint32_t n = s.params.nranks + s.relay_ranks;
    if (s.algo == algo_kind::auto_) {
        throw std::invalid_argument("schedule: algo is auto (not resolved)");
    }
    for (size_t i = 0; i < s.xfers.size(); ++i) {
        const xfer& x = s.xfers[i];
        if (x.src >= n || x.dst >= n) {
            throw std::invalid_argument(
                fmt::format("schedule: xfer {}: rank {} -> {} out of range (nranks {}, relays {})",
                            i, x.src, x.dst, s.params.nranks, s.relay_ranks));
        }
        if (x.src == x.dst && x.src_offset < x.dst_offset + x.bytes &&
            x.dst_offset < x.src_offset + x.bytes) {
            throw std::invalid_argument(fmt::format(
                "schedule: xfer {}: local step of rank {} reads and writes overlapping bytes", i,
                x.src));
        }
        if (!range_ok(x.src_offset, x.bytes, s.buffer_bytes) ||
            !range_ok(x.dst_offset, x.bytes, s.buffer_bytes)) {
            throw std::invalid_argument(fmt::format(
                "schedule: xfer {}: {} bytes at src offset {} / dst offset {} exceed the "
                "{}-byte buffer",
                i, x.bytes, x.src_offset, x.dst_offset, s.buffer_bytes));
        }
        for (uint32_t d : x.deps) {
            if (d >= i) {
                throw std::invalid_argument(
                    fmt::format("schedule: xfer {}: dep {} is not an earlier transfer", i, d));
            }
        }
    }
    for (size_t i = 0; i < s.local_copies.size(); ++i) {
        const local_copy& c = s.local_copies[i];
        if (c.rank >= n || !range_ok(c.src_offset, c.bytes, s.buffer_bytes) ||
            !range_ok(c.dst_offset, c.bytes, s.buffer_bytes)) {
            throw std::invalid_argument(
                fmt::format("schedule: local copy {}: rank {} / range outside the {}-byte buffer",
                            i, c.rank, s.buffer_bytes));
        }
    }
}

std::vector<uint32_t> execution_order(const schedule& s, const exec_options& opt) {
    const size_t t = s.xfers.size();
    std::vector<uint32_t> order;
    order.reserve(t);
    if (opt.order == exec_order::listed) {
        for (size_t i = 0; i < t; ++i) order.push_back(static_cast<uint32_t>(i));
        return order;
    }
    const dependents d = make_dependents(s);
    std::vector<uint32_t> missing(t);
    std::vector<uint32_t> ready;
    std::priority_queue<uint32_t> latest;
    const bool random = opt.order == exec_order::random;
    auto make_ready = [&](uint32_t i) {
        if (random) {
            ready.push_back(i);
        } else {
            latest.push(i);
        }
    };
    for (size_t i = 0; i < t; ++i) {
        missing[i] = static_cast<uint32_t>(s.xfers[i].deps.size());
        if (missing[i] == 0) make_ready(static_cast<uint32_t>(i));
    }
    std::mt19937_64 rng(opt.seed);
    while (!ready.empty() || !latest.empty()) {
        uint32_t i = 0;
        if (random) {
            std::uniform_int_distribution<size_t> pick(0, ready.size() - 1);
            const size_t k = pick(rng);
            i = ready[k];
            ready[k] = ready.back();
            ready.pop_back();
        } else {
            i = latest.top();
            latest.pop();
        }
        order.push_back(i);
        for (uint32_t k = d.start[i]; k < d.start[i + 1]; ++k) {
            if (--missing[d.list[k]] == 0) make_ready(d.list[k]);
        }
    }
    return order;
}

std::vector<std::vector<uint8_t>> execute(const schedule& s,
                                          std::vector<std::vector<uint8_t>> inputs,
                                          const reduce_fn& reduce, const exec_options& opt) {
    validate_schedule(s);
    if (inputs.size() != s.params.nranks) {
        throw std::invalid_argument(
            fmt::format("execute: {} input buffers for {} ranks", inputs.size(), s.params.nranks));
    }
    inputs.resize(std::size_t{s.params.nranks} + s.relay_ranks);  // PXN relays start empty
    for (size_t r = 0; r < inputs.size(); ++r) {
        if (inputs[r].size() > s.buffer_bytes) {
            throw std::invalid_argument(
                fmt::format("execute: rank {} input has {} bytes, buffer is {}", r,
                            inputs[r].size(), s.buffer_bytes));
        }
        inputs[r].resize(s.buffer_bytes, 0);
    }
    for (const local_copy& c : s.local_copies) {
        std::vector<uint8_t>& b = inputs[c.rank];
        std::memmove(b.data() + c.dst_offset, b.data() + c.src_offset, c.bytes);
    }
    for (uint32_t i : execution_order(s, opt)) {
        const xfer& x = s.xfers[i];
        if (x.bytes == 0) continue;
        const uint8_t* from = inputs[x.src].data() + x.src_offset;
        uint8_t* to = inputs[x.dst].data() + x.dst_offset;  // never overlaps `from`
        if (x.reduce) {
            reduce(to, from, x.bytes);
        } else {
            std::memcpy(to, from, x.bytes);
        }
    }
    return inputs;
}

std::vector<std::string> find_races(const schedule& s, size_t max_reports, size_t max_xfers) {
    validate_schedule(s);
    const size_t t = s.xfers.size();
    if (t > max_xfers) {
        throw std::invalid_argument(
            fmt::format("find_races: {} transfers, limit {}", t, max_xfers));
    }
    // reach[i] = transfers that must complete before i starts (transitive closure of deps).
    const size_t words = (t + 63) / 64;
    std::vector<uint64_t> reach(t * words, 0);
    for (size_t i = 0; i < t; ++i) {
        uint64_t* ri = reach.data() + i * words;
        for (uint32_t d : s.xfers[i].deps) {
            const uint64_t* rd = reach.data() + size_t{d} * words;
            for (size_t w = 0; w < words; ++w) ri[w] |= rd[w];
            ri[d / 64] |= uint64_t{1} << (d % 64);
        }
    }
    auto ordered = [&](uint32_t a, uint32_t b) {
        if (a > b) std::swap(a, b);  // listed topologically: only b can follow a
        return (reach[size_t{b} * words + a / 64] >> (a % 64) & 1U) != 0;
    };

    enum class access : uint8_t { read, copy, reduce };
    struct touch {
        uint64_t offset;
        uint64_t end;
        uint32_t idx;
        access kind;
    };
    std::vector<std::vector<touch>> per_rank(std::size_t{s.params.nranks} + s.relay_ranks);
    for (size_t i = 0; i < t; ++i) {
        const xfer& x = s.xfers[i];
        if (x.bytes == 0) continue;
        const auto idx = static_cast<uint32_t>(i);
        per_rank[x.src].push_back(touch{x.src_offset, x.src_offset + x.bytes, idx, access::read});
        per_rank[x.dst].push_back(touch{x.dst_offset, x.dst_offset + x.bytes, idx,
                                        x.reduce ? access::reduce : access::copy});
    }
    static constexpr const char* KIND[] = {"reads", "copies into", "reduces into"};
    std::vector<std::string> out;
    for (size_t r = 0; r < per_rank.size(); ++r) {
        std::vector<touch>& v = per_rank[r];
        std::sort(v.begin(), v.end(),
                  [](const touch& a, const touch& b) { return a.offset < b.offset; });
        for (size_t i = 0; i < v.size(); ++i) {
            for (size_t j = i + 1; j < v.size() && v[j].offset < v[i].end; ++j) {
                const touch& a = v[i];
                const touch& b = v[j];
                if (a.kind == b.kind && a.kind != access::copy) continue;  // read/read, red/red
                if (ordered(a.idx, b.idx)) continue;
                out.push_back(fmt::format(
                    "rank {}: xfer {} {} [{},{}) and xfer {} {} [{},{}) are not ordered by deps", r,
                    a.idx, KIND[static_cast<int>(a.kind)], a.offset, a.end, b.idx,
                    KIND[static_cast<int>(b.kind)], b.offset, b.end));
                if (out.size() >= max_reports) return out;
            }
        }
    }
    return out;
}

}  // namespace ndr::coll
