#include "trace/generators.h"

#include <fmt/format.h>

#include <stdexcept>

#include "collective/schedule.h"

namespace ndr::trace {

namespace {

[[noreturn]] void bad(const std::string& what) {
    throw std::invalid_argument(what);
}

/// Appends records while tracking each rank's record index (= its default id).
class builder {
public:
    explicit builder(trace& t) : t_(t), index_(t.nranks, 0) {}

    /// Adds a record on r.rank; returns its id (its index on the rank).
    uint32_t add(op_record r) {
        r.id = index_[r.rank]++;
        t_.records.push_back(std::move(r));
        return t_.records.back().id;
    }

private:
    trace& t_;
    std::vector<uint32_t> index_;
};

trace world(uint32_t nranks, const std::string& name) {
    if (nranks < 2 || nranks > max_ranks) {
        bad(fmt::format("ranks: {} out of range (2..{})", nranks, max_ranks));
    }
    trace t;
    t.nranks = nranks;
    t.name = name;
    communicator c;
    c.id = 0;
    for (uint32_t r = 0; r < nranks; ++r) c.ranks.push_back(r);
    t.comms.push_back(std::move(c));
    return t;
}

op_record compute_record(uint32_t rank, uint64_t ns) {
    op_record r;
    r.rank = rank;
    r.compute = true;
    r.duration_ns = ns;
    return r;
}

/// The checks every size sweep shares (the op's own ones are its generator's);
/// `per_rank`: records each rank gets per (algo, size, iteration).
void check_sweep(const collective_sweep& p, uint64_t per_rank) {
    if (p.sizes.empty() && p.op != coll::op_kind::barrier) bad("bytes: no sizes given");
    if (p.algos.empty()) bad("algo: no algorithm given");
    if (p.iters < 1 || p.iters > 1'000'000)
        bad(fmt::format("iters: {} out of range (1..1000000)", p.iters));
    // Each factor is below 2^32 and per_rank is at most 2: the product fits in a double exactly
    // enough to compare with the limit.
    const uint64_t sizes = p.op == coll::op_kind::barrier ? 1 : p.sizes.size();
    const double records = static_cast<double>(p.algos.size()) * static_cast<double>(sizes) *
                           static_cast<double>(p.iters) * static_cast<double>(p.nranks) *
                           static_cast<double>(per_rank);
    if (records > static_cast<double>(max_generated_records)) {
        bad(fmt::format(
            "records: {} algorithm(s) x {} size(s) x {} iteration(s) x {} rank(s){} "
            "= {:.0f} records, more than the {} a generated trace may hold",
            p.algos.size(), sizes, p.iters, p.nranks,
            per_rank > 1 ? fmt::format(" x {}", per_rank) : "", records, max_generated_records));
    }
}

/// The API count of size `s` in sweep `p`; throws when it is 0 (but for a barrier) or too big.
uint64_t sweep_count(const collective_sweep& p, uint64_t s) {
    const uint64_t count = count_for_bytes(p.op, s, p.dt, p.nranks);
    if (count == 0 && p.op != coll::op_kind::barrier) {
        bad(fmt::format(
            "bytes: {} B is less than one {} element{} for {} on {} ranks", s, coll::name(p.dt),
            p.op == coll::op_kind::allreduce || p.op == coll::op_kind::send ? "" : " per rank",
            coll::name(p.op), p.nranks));
    }
    if (count > max_count) bad(fmt::format("bytes: {} B is more than {} elements", s, max_count));
    return count;
}

}  // namespace

std::vector<uint64_t> geometric_sizes(uint64_t min_bytes, uint64_t max_bytes, uint64_t factor) {
    if (min_bytes == 0) bad("size sweep: MIN must be at least 1 byte");
    if (max_bytes < min_bytes)
        bad(fmt::format("size sweep: MAX {} is below MIN {}", max_bytes, min_bytes));
    if (factor < 2 && min_bytes != max_bytes) bad("size sweep: FACTOR must be at least 2");
    std::vector<uint64_t> v;
    for (uint64_t s = min_bytes; s <= max_bytes; s *= factor) {
        v.push_back(s);
        if (factor < 2 || s > max_bytes / factor) break;
    }
    return v;
}

uint64_t linear_size_count(uint64_t min_bytes, uint64_t max_bytes, uint64_t step) {
    if (min_bytes == 0) bad("size sweep: MIN must be at least 1 byte");
    if (max_bytes < min_bytes)
        bad(fmt::format("size sweep: MAX {} is below MIN {}", max_bytes, min_bytes));
    if (step == 0 && min_bytes != max_bytes) bad("size sweep: STEP must be at least 1 byte");
    return step == 0 ? 1 : (max_bytes - min_bytes) / step + 1;
}

std::vector<uint64_t> linear_sizes(uint64_t min_bytes, uint64_t max_bytes, uint64_t step) {
    std::vector<uint64_t> v;
    v.reserve(linear_size_count(min_bytes, max_bytes, step));
    for (uint64_t s = min_bytes; s <= max_bytes; s += step) {
        v.push_back(s);
        if (step == 0 || s > max_bytes - step) break;
    }
    return v;
}

uint64_t count_for_bytes(coll::op_kind op, uint64_t bytes, coll::dtype dt, uint32_t nranks) {
    const uint64_t elems = bytes / coll::dtype_bytes(dt);
    switch (op) {
        case coll::op_kind::barrier:
            return 0;
        case coll::op_kind::reduce_scatter:
        case coll::op_kind::allgather:
            return elems / nranks;
        case coll::op_kind::alltoall:
            return elems / nranks * nranks;
        default:
            return elems;
    }
}

trace gen_collective(const collective_sweep& p) {
    if (is_point_to_point(p.op)) {
        bad(
            fmt::format("op: {} is point-to-point; gen collective makes collectives (allreduce, "
                        "reduce_scatter, allgather, alltoall, broadcast, reduce, barrier)",
                        coll::name(p.op)));
    }
    trace t = world(p.nranks, p.name);
    check_sweep(p, 1);
    for (const coll::algo_kind algo : p.algos) {
        // A host algorithm that cannot build the op would be refused by ndrsim run.
        const coll::algo_info* a = coll::find_algo(algo);
        if (a != nullptr && a->where == coll::algo_class::host &&
            !coll::algo_supported(p.op, algo)) {
            bad(fmt::format("algo: {} does not fit {} (use {})", coll::name(algo), coll::name(p.op),
                            coll::supported_list(p.op)));
        }
    }
    if (has_root(p.op) && p.root >= p.nranks) {
        bad(fmt::format("root: {} out of range (0..{})", p.root, p.nranks - 1));
    }
    const std::vector<uint64_t> sizes =
        p.op == coll::op_kind::barrier ? std::vector<uint64_t>{0} : p.sizes;
    builder b(t);
    uint64_t seq = 0;
    for (coll::algo_kind algo : p.algos) {
        for (uint64_t s : sizes) {
            const uint64_t count = sweep_count(p, s);
            for (uint32_t it = 0; it < p.iters; ++it, ++seq) {
                for (uint32_t rank = 0; rank < p.nranks; ++rank) {
                    op_record r;
                    r.rank = rank;
                    r.comm = 0;
                    r.seq = seq;
                    r.op = p.op;
                    r.count = count;
                    r.dt = p.dt;
                    r.rop = has_redop(p.op) ? p.rop : coll::redop::sum;
                    r.root = has_root(p.op) ? p.root : 0;
                    r.algo = algo;
                    b.add(std::move(r));
                }
            }
        }
    }
    return t;
}

trace gen_sendrecv_ring(const collective_sweep& p) {
    if (p.op != coll::op_kind::send) bad("op: a send/recv ring needs op send");
    trace t = world(p.nranks, p.name);
    check_sweep(p, 2);  // a send and a recv
    builder b(t);
    uint64_t seq = 0;
    // Each rank's send and recv of one iteration wait for both of its previous pair (ids 2k-2,
    // 2k-1); the first pair issues at time 0. Both of a pair are posted together, so the ring
    // cannot deadlock on a send waiting for a recv that waits behind its own rank's send.
    for (coll::algo_kind algo : p.algos) {
        for (uint64_t s : p.sizes) {
            const uint64_t count = sweep_count(p, s);
            for (uint32_t it = 0; it < p.iters; ++it, ++seq) {
                for (uint32_t rank = 0; rank < p.nranks; ++rank) {
                    for (const coll::op_kind op : {coll::op_kind::send, coll::op_kind::recv}) {
                        op_record r;
                        r.rank = rank;
                        r.comm = 0;
                        r.seq = seq;
                        r.op = op;
                        r.count = count;
                        r.dt = p.dt;
                        r.root = op == coll::op_kind::send ? (rank + 1) % p.nranks
                                                           : (rank + p.nranks - 1) % p.nranks;
                        r.algo = algo;
                        if (seq == 0) {
                            r.issue_ns = 0;
                        } else {
                            const auto prev = static_cast<uint32_t>(2 * seq);
                            r.deps = {prev - 2, prev - 1};
                        }
                        b.add(std::move(r));
                    }
                }
            }
        }
    }
    return t;
}

trace gen_permutation(const std::vector<uint32_t>& dest, uint64_t bytes, const std::string& name) {
    const auto n = static_cast<uint32_t>(dest.size());
    trace t = world(n, name);
    if (bytes == 0) bad("bytes: must be at least 1");
    std::vector<uint8_t> hit(n, 0);
    for (uint32_t r = 0; r < n; ++r) {
        if (dest[r] >= n || dest[r] == r || hit[dest[r]] != 0) {
            bad(fmt::format("dest: rank {} -> {} is not a derangement", r, dest[r]));
        }
        hit[dest[r]] = 1;
    }
    builder b(t);
    for (uint32_t r = 0; r < n; ++r) {
        op_record rec;
        rec.rank = r;
        rec.comm = 0;
        rec.seq = 0;
        rec.op = coll::op_kind::rdma_write;
        rec.count = bytes;
        rec.dt = coll::dtype::uint8;
        rec.root = dest[r];
        rec.issue_ns = 0;
        b.add(std::move(rec));
    }
    return t;
}

trace gen_background(const std::vector<std::vector<uint32_t>>& dests, uint64_t bytes,
                     uint64_t interval_ps, const std::string& name) {
    const auto n = static_cast<uint32_t>(dests.size());
    trace t = world(n, name);
    if (bytes == 0) bad("bytes: must be at least 1");
    builder b(t);
    for (uint32_t r = 0; r < n; ++r) {
        for (std::size_t k = 0; k < dests[r].size(); ++k) {
            const uint32_t d = dests[r][k];
            if (d >= n || d == r) bad(fmt::format("dest: rank {} -> {} is not another rank", r, d));
            op_record rec;
            rec.rank = r;
            rec.comm = 0;
            rec.seq = k;
            rec.op = coll::op_kind::rdma_write;
            rec.count = bytes;
            rec.dt = coll::dtype::uint8;
            rec.root = d;
            rec.issue_ns = static_cast<uint64_t>(k) * interval_ps / 1000;
            b.add(std::move(rec));
        }
    }
    return t;
}

std::optional<ddp_model> find_ddp_model(std::string_view name) {
    // Parameter counts: docs/domain.md §11. Compute times are *choices* (docs/trace_format.md): a
    // training step costs ~6 * params * tokens FLOPs, 1/3 forward and 2/3 backward, so the
    // backward is twice the forward.
    if (name == "resnet50")
        return ddp_model{"resnet50", 25'557'032, 20'000'000, 40'000'000, 1'000'000};
    if (name == "bert-large")
        return ddp_model{"bert-large", 340'000'000, 45'000'000, 90'000'000, 5'000'000};
    return std::nullopt;
}

std::string ddp_model_names() {
    return "resnet50, bert-large";
}

std::vector<uint64_t> ddp_buckets(uint64_t grad_bytes, uint64_t first_bucket_bytes,
                                  uint64_t cap_bytes) {
    if (cap_bytes == 0) bad("buckets: the bucket cap must be at least 1 byte");
    std::vector<uint64_t> v;
    uint64_t left = grad_bytes;
    if (first_bucket_bytes != 0 && left != 0) {
        v.push_back(std::min(first_bucket_bytes, left));
        left -= v.back();
    }
    while (left != 0) {
        v.push_back(std::min(cap_bytes, left));
        left -= v.back();
    }
    return v;
}

trace gen_ddp(const ddp_params& p) {
    const ddp_model& m = p.model;
    if (m.params == 0) bad("model: no parameters");
    if (p.steps < 1 || p.steps > 100'000)
        bad(fmt::format("steps: {} out of range (1..100000)", p.steps));
    const uint32_t es = coll::dtype_bytes(p.dt);
    if (p.bucket_cap_bytes == 0 || p.bucket_cap_bytes % es != 0) {
        bad(fmt::format(
            "buckets: the bucket cap ({} B) must be a positive multiple of the {} size {}",
            p.bucket_cap_bytes, coll::name(p.dt), es));
    }
    if (p.first_bucket_bytes % es != 0) {
        bad(fmt::format("first bucket: {} B is not a multiple of the {} size {}",
                        p.first_bucket_bytes, coll::name(p.dt), es));
    }
    trace t = world(p.nranks, fmt::format("ddp {} {} ranks", m.name, p.nranks));
    const uint64_t grad = m.params * es;
    const std::vector<uint64_t> buckets =
        ddp_buckets(grad, p.first_bucket_bytes, p.bucket_cap_bytes);
    // Per step and rank: forward, a backward slice and an allreduce per bucket, optimizer.
    const double records = static_cast<double>(p.steps) * static_cast<double>(p.nranks) *
                           (2.0 + 2.0 * static_cast<double>(buckets.size()));
    if (records > static_cast<double>(max_generated_records)) {
        bad(
            fmt::format("records: {} step(s) x {} rank(s) x {} per step = {:.0f} records, more "
                        "than the {} a generated trace may hold",
                        p.steps, p.nranks, 2 + 2 * buckets.size(), records, max_generated_records));
    }
    // Backward slice k ends when the bytes of buckets 0..k are produced: cumulative rounding
    // keeps the slices summing to bwd_ns exactly.
    std::vector<uint64_t> slice_ns;
    uint64_t cum_bytes = 0, cum_ns = 0;
    for (uint64_t bb : buckets) {
        cum_bytes += bb;
        // bwd_ns * cum_bytes / grad without overflow: long double has a 64-bit mantissa here.
        const auto end = static_cast<uint64_t>(static_cast<long double>(m.bwd_ns) *
                                               static_cast<long double>(cum_bytes) /
                                               static_cast<long double>(grad));
        slice_ns.push_back(end - cum_ns);
        cum_ns = end;
    }
    builder b(t);
    uint64_t seq = 0;
    std::vector<uint32_t> last_ar(p.nranks, 0);
    std::vector<uint32_t> last_slice(p.nranks, 0);
    for (uint32_t step = 0; step < p.steps; ++step) {
        for (uint32_t rank = 0; rank < p.nranks; ++rank) b.add(compute_record(rank, m.fwd_ns));
        for (std::size_t k = 0; k < buckets.size(); ++k, ++seq) {
            for (uint32_t rank = 0; rank < p.nranks; ++rank) {
                op_record s = compute_record(rank, slice_ns[k]);
                if (k > 0)
                    s.deps.push_back(last_slice[rank]);  // the previous record is an allreduce
                last_slice[rank] = b.add(std::move(s));
            }
            for (uint32_t rank = 0; rank < p.nranks; ++rank) {
                op_record r;
                r.rank = rank;
                r.comm = 0;
                r.seq = seq;
                r.op = coll::op_kind::allreduce;
                r.count = buckets[k] / es;
                r.dt = p.dt;
                r.rop = coll::redop::sum;
                r.algo = p.algo;
                r.deps.push_back(last_slice[rank]);
                if (k > 0) r.deps.push_back(last_ar[rank]);
                last_ar[rank] = b.add(std::move(r));
            }
        }
        // Optimizer: its previous record is the last allreduce, which follows the last slice.
        for (uint32_t rank = 0; rank < p.nranks; ++rank) b.add(compute_record(rank, m.opt_ns));
    }
    return t;
}

}  // namespace ndr::trace
