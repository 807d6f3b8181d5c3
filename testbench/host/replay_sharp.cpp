// The SHARP half of the trace replay (replay.h): a collective on the switches' aggregation
// trees, its chunks sent under the OST window, results checked against the golden reduction,
// and streaming-aggregation slots. The host-algorithm half is in replay.cpp, the NCCL choice in
// replay_nccl.cpp.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <optional>
#include <stdexcept>

#include "golden/float_formats.h"
#include "replay.h"
#include "sharp_chunking.h"
#include "sharp_manager.h"

namespace ndr::tb {

namespace {

std::optional<golden::red_type> red_type_of(coll::dtype d) {
    switch (d) {
        case coll::dtype::int8:
            return golden::red_type::int8;
        case coll::dtype::uint8:
            return golden::red_type::uint8;
        case coll::dtype::int16:
            return golden::red_type::int16;
        case coll::dtype::uint16:
            return golden::red_type::uint16;
        case coll::dtype::int32:
            return golden::red_type::int32;
        case coll::dtype::uint32:
            return golden::red_type::uint32;
        case coll::dtype::int64:
            return golden::red_type::int64;
        case coll::dtype::uint64:
            return golden::red_type::uint64;
        case coll::dtype::fp16:
            return golden::red_type::fp16;
        case coll::dtype::bf16:
            return golden::red_type::bf16;
        case coll::dtype::fp32:
            return golden::red_type::fp32;
        case coll::dtype::fp64:
            return golden::red_type::fp64;
        default:
            return std::nullopt;  // fp8: not a SHARP type (docs/domain.md §7)
    }
}

/// Deterministic input values: small integers and exact binary fractions, so sums stay finite.
std::vector<uint8_t> make_input(golden::red_type type, uint64_t bytes, uint64_t seed) {
    std::vector<uint8_t> v(bytes);
    uint64_t s = seed * 0x9E3779B97F4A7C15ULL + 0x1234567ULL;
    const auto next = [&] {
        uint64_t z = (s += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    };
    const std::size_t es = golden::red_type_size(type);
    for (std::size_t off = 0; off + es <= bytes; off += es) {
        const uint64_t r = next();
        const double x = static_cast<double>(static_cast<int64_t>(r % 4001) - 2000) / 8.0;
        switch (type) {
            case golden::red_type::fp32: {
                const auto f = static_cast<float>(x);
                std::memcpy(&v[off], &f, 4);
                break;
            }
            case golden::red_type::fp64:
                std::memcpy(&v[off], &x, 8);
                break;
            case golden::red_type::fp16: {
                const uint16_t h = golden::float_to_fp16(static_cast<float>(x) / 64.0F);
                std::memcpy(&v[off], &h, 2);
                break;
            }
            case golden::red_type::bf16: {
                const uint16_t h = golden::float_to_bf16(static_cast<float>(x));
                std::memcpy(&v[off], &h, 2);
                break;
            }
            default:
                std::memcpy(&v[off], &r, es);
                break;
        }
    }
    return v;
}

}  // namespace

std::string replay::sharp_unsupported(const trace::op_record& rec, coll::op_kind op) const {
    if (op == coll::op_kind::barrier || op == coll::op_kind::broadcast) return "";
    if (!red_type_of(rec.dt)) {
        return fmt::format("dtype {} is not supported by SHARP", coll::name(rec.dt));
    }
    if (rec.rop != coll::redop::sum && rec.rop != coll::redop::min && rec.rop != coll::redop::max) {
        return fmt::format("redop {} is not supported by SHARP (sum, min, max only)",
                           coll::name(rec.rop));
    }
    return "";
}

bool replay::start_sharp(cycle_t t, uint32_t inst, std::string& why) {
    const trace::collective_instance& ci = tr_.collectives[inst];
    if (sharp_ == nullptr) {
        why = "SHARP is not enabled on this fabric";
        return false;
    }
    if (!coll::algo_runs(coll::algo_kind::sharp, ci.op)) {
        why = fmt::format("{} is not a SHARP operation here", coll::name(ci.op));
        return false;
    }
    why = sharp_unsupported(tr_.records[ci.records[0]], ci.op);
    if (!why.empty()) return false;
    // The members' HCAs (host r with one GPU per node); two members behind one HCA cannot
    // both be leaves of a tree.
    std::vector<uint32_t> hosts(ci.ranks.size());
    for (std::size_t m = 0; m < hosts.size(); ++m) hosts[m] = host_of(ci.ranks[m]);
    if (layout_.multi_gpu()) {
        std::vector<uint32_t> sorted = hosts;
        std::sort(sorted.begin(), sorted.end());
        if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
            why = "several members share one HCA (SHARP takes one member per HCA)";
            return false;
        }
    }
    return start_sharp_job(t, inst, ci.comm, hosts, ci.bytes, false, why);
}

bool replay::start_sharp_job(cycle_t t, uint32_t inst, uint32_t comm,
                             const std::vector<uint32_t>& hosts, uint64_t bytes, bool hier,
                             std::string& why, uint32_t slice) {
    const trace::collective_instance& ci = tr_.collectives[inst];
    const trace::op_record& rec = tr_.records[ci.records[0]];
    sharp_job job;
    job.instance = inst;
    job.hier = hier;
    job.slice = slice;
    if (ci.op != coll::op_kind::barrier && ci.op != coll::op_kind::broadcast) {
        job.type = *red_type_of(rec.dt);
        job.op = rec.rop == coll::redop::sum   ? golden::red_op::sum
                 : rec.rop == coll::redop::min ? golden::red_op::min
                                               : golden::red_op::max;
    }
    const sharp_tree* tree = sharp_->tree_for(comm, hosts, why);
    if (tree == nullptr) return false;
    job.tree = tree->id;
    job.bytes = bytes;
    job.hosts = hosts;
    const uint64_t elem = ci.op == coll::op_kind::barrier ? 1 : coll::dtype_bytes(rec.dt);
    bool sat = sharp_wants_sat(cfg_.sharp, bytes);
    // A rail of a hierarchical collective cannot wait for a slot alone (its phase runs on):
    // without one it runs in low-latency chunks.
    std::string busy;
    const bool hier_sat = hier && sat && sharp_->sat_acquire(tree->id, busy);
    if (hier) sat = hier_sat;
    const uint64_t cb = sharp_chunk_bytes(cfg_.sharp, sat, elem);
    // Chunk ids are 32-bit per tree, shared by its collectives: a message whose chunks do not
    // fit the ids left (a 2^48-element allreduce wrapped to 0 chunks and never finished) runs
    // on a host algorithm instead, and the report says why.
    const uint64_t chunks = std::max<uint64_t>(1, (bytes + cb - 1) / cb);
    if (chunks > UINT32_MAX - sharp_chunks_used_[tree->id]) {
        why = fmt::format("{} chunks of {} B exceed the 32-bit chunk ids left on SHARP tree {}",
                          chunks, cb, tree->id);
        if (hier_sat) sharp_->sat_release(tree->id);
        return false;
    }
    // Streaming aggregation: the tree's switches and ports must have a SAT slot free, or the
    // collective waits until a running one ends (docs/architecture.md "SHARP resources").
    if (sat && !hier) {
        if (!sharp_->sat_acquire(tree->id, busy)) {
            sat_waiting_.push_back(inst);
            sat_first_try_.emplace(inst, t);  // the first try stays
            return true;
        }
    }
    job.sat = sat;
    sharp_->set_reduction(tree->id, job.op, job.type);
    const uint32_t osts_per_chunk = std::max<uint32_t>(
        1,
        static_cast<uint32_t>((cb + cfg_.sharp.ost_bytes.count - 1) / cfg_.sharp.ost_bytes.count));
    const uint32_t window = std::max<uint32_t>(1, cfg_.sharp.osts_per_tree / osts_per_chunk);
    // TLM bursts (sim.tlm_sharp_burst): job.packets consecutive chunks per transaction.
    job.packets = sharp_burst_chunks(cfg_.sharp, hcas_.sharp_burst_bytes(), cb, chunks);
    job.packet_bytes = static_cast<uint32_t>(cb);
    job.chunk_bytes = static_cast<uint32_t>(cb * job.packets);
    job.chunks = static_cast<uint32_t>((chunks + job.packets - 1) / job.packets);
    // In bursts (which divide the window): a member may send the next burst when the first
    // chunk of the result burst a window before it is in (on_sharp_first): its chunk slots free
    // one per packet from then on, as the burst's own packets leave, so the window of chunks
    // holds as packet by packet, whether or not it limits the rate.
    job.window = window / job.packets;
    if (ci.op == coll::op_kind::broadcast) job.root = ci.root;
    uint32_t& used = sharp_chunks_used_[tree->id];
    job.chunk_base = used;
    used += job.chunks;
    const auto n = static_cast<uint32_t>(hosts.size());
    job.next.assign(n, 0);
    job.posted.assign(n, 0);
    // The SHARP library's host path (host.stack nccl / mpi): each member enters the call, then
    // posts its requests one by one (common/endpoint_stack.h).
    job.host_free.assign(n, t + (hier ? 0 : stack_.sharp_entry_cycles(bytes)));
    job.received.assign(n, 0);
    job.started.assign(n, 0);
    for (uint32_t m = 0; m < n; ++m) {  // host -> member, for the per-chunk results
        const uint32_t h = hosts[m];
        if (h >= job.member_of.size()) job.member_of.resize(h + 1, n);
        job.member_of[h] = m;
    }
    job.members_left = n;
    // auto: collectives of up to 1 MiB (a rail of a larger hierarchical one carries none).
    job.data = sharp_carries_data(cfg_.sharp, ci.op, ci.bytes);
    if (job.data) {
        for (uint32_t m = 0; m < n; ++m) {
            job.inputs.push_back(
                make_input(job.type, bytes, cfg_.sim.seed * 1000003ULL + inst * 65537ULL + m));
        }
        // The golden reduction in the tree's own order: each switch folds its children in
        // port order, bottom-up.
        std::map<uint32_t, uint32_t> member_of_host;
        for (uint32_t m = 0; m < n; ++m) member_of_host[hosts[m]] = m;
        const std::size_t count = bytes / golden::red_elem_size(job.op, job.type);
        std::function<std::vector<uint8_t>(uint32_t)> fold = [&](uint32_t sw) {
            std::vector<std::vector<uint8_t>> parts;
            for (const sharp_tree::child& ch : tree->children.at(sw)) {
                parts.push_back(ch.is_host ? job.inputs[member_of_host.at(ch.node)]
                                           : fold(ch.node));
            }
            std::vector<const uint8_t*> ptrs;
            for (const auto& pv : parts) ptrs.push_back(pv.data());
            std::vector<uint8_t> out(bytes);
            golden::reduce_tree(job.op, job.type, ptrs, out.data(), count);
            return out;
        };
        job.expected = fold(tree->root_switch);
    }
    collective_result& res = results_[inst];
    if (hier) {  // the report names the first rail's tree
        res.transfers += chunks * n;
        if (res.sharp_tree < 0) {
            res.sharp_tree = static_cast<int32_t>(tree->id);
            res.sharp_levels = tree->levels;
            res.data_checked = job.data;
        }
        res.data_checked = res.data_checked && job.data;
    } else {
        res.start = t;  // a SAT collective that waited for slots: when it first tried (below)
        if (const auto w = sat_first_try_.find(inst); w != sat_first_try_.end()) {
            res.start = w->second;
            sat_first_try_.erase(w);
        }
        res.algo = coll::algo_kind::sharp;
        res.transfers = chunks * n;
        res.sharp_tree = static_cast<int32_t>(tree->id);
        res.sharp_levels = tree->levels;
        res.data_checked = job.data;
    }
    const auto j = static_cast<uint32_t>(sharp_jobs_.size());
    sharp_job_of_[(uint64_t{job.tree} << 32) | job.chunk_base] = j;
    sharp_jobs_.push_back(std::move(job));
    for (uint32_t m = 0; m < n; ++m) sharp_send_next(t, j, m);
    return true;
}

void replay::sharp_send_next(cycle_t t, uint32_t j, uint32_t m) {
    sharp_job& job = sharp_jobs_[j];
    const std::vector<uint32_t>& back = job.packets > 1 ? job.started : job.received;
    while (job.next[m] < job.chunks && job.next[m] - back[m] < job.window) {
        ++job.next[m];
        if (!stack_.sharp_costs() || job.hier) {
            // host.stack none, or a CollNet rail (whose NCCL launch covers it; the plugin's
            // per-request costs are not modelled there yet): at the HCA's times
            sharp_post_chunk(t, j, m);
            continue;
        }
        // Requests leave in order: each waits for the host to be free, then takes its post
        // (a TLM burst: one per chunk in it).
        const cycle_t at = std::max(t, job.host_free[m]) +
                           stack_.sharp_post_cycles() * job.packets_in(job.next[m] - 1);
        job.host_free[m] = at;
        defer(t, at, step::sharp_post, j, m);
    }
}

void replay::sharp_post_chunk(cycle_t t, uint32_t j, uint32_t m) {
    sharp_job& job = sharp_jobs_[j];
    const uint32_t k = job.posted[m]++;
    const uint64_t off = uint64_t{k} * job.chunk_bytes;
    const auto len = static_cast<uint32_t>(
        job.bytes > off ? std::min<uint64_t>(job.chunk_bytes, job.bytes - off) : 0);
    const bool carries = job.root == 0xFFFFFFFFU || job.root == m;
    uint32_t slot = 0xFFFFFFFFU;
    if (job.data) {
        slot = sharp_->payloads().store(
            std::vector<uint8_t>(job.inputs[m].begin() + static_cast<std::ptrdiff_t>(off),
                                 job.inputs[m].begin() + static_cast<std::ptrdiff_t>(off + len)));
    }
    hcas_.sharp_send(
        t, job.hosts[m],
        common::sharp_contribution{job.tree, job.chunk_base + k, carries ? len : 0, 0xFFFFFFFFU,
                                   slot, job.packets_in(k), job.packet_bytes});
}

std::pair<uint32_t, uint32_t> replay::sharp_member(uint32_t h, uint32_t tree,
                                                   uint32_t chunk) const {
    auto it = sharp_job_of_.upper_bound((uint64_t{tree} << 32) | chunk);
    if (it == sharp_job_of_.begin()) throw std::logic_error("SHARP result for no collective");
    const uint32_t j = std::prev(it)->second;
    const sharp_job& job = sharp_jobs_[j];
    const auto n = static_cast<uint32_t>(job.received.size());
    const uint32_t m = h < job.member_of.size() ? job.member_of[h] : n;
    if (m >= n) throw std::logic_error("SHARP result for a non-member host");
    return {j, m};
}

void replay::on_sharp_first(cycle_t t, uint32_t h, uint32_t tree, uint32_t chunk) {
    const auto [j, m] = sharp_member(h, tree, chunk);
    ++sharp_jobs_[j].started[m];
    sharp_send_next(t, j, m);
}

void replay::on_sharp_result(cycle_t t, uint32_t h, uint32_t tree, uint32_t chunk, uint32_t data) {
    const auto [j, m] = sharp_member(h, tree, chunk);
    sharp_job& job = sharp_jobs_[j];
    const uint32_t k = chunk - job.chunk_base;
    if (job.data) {
        const std::vector<uint8_t>& got = sharp_->payloads().get(data);
        const uint64_t off = uint64_t{k} * job.chunk_bytes;
        const std::size_t es = golden::red_elem_size(job.op, job.type);
        for (std::size_t i = 0; i < got.size(); ++i) {
            if (got[i] != job.expected[off + i]) {
                const std::size_t e = (off + i) / es;
                throw std::runtime_error(fmt::format(
                    "SHARP result mismatch: rank {} (host {}), element {} (byte offset {}): "
                    "expected 0x{:02x}, got 0x{:02x} at byte {} of the element",
                    m, h, e, off + i, job.expected[off + i], got[i], (off + i) % es));
            }
        }
        if (got.size() != std::min<uint64_t>(job.chunk_bytes, job.bytes - off)) {
            throw std::runtime_error(
                fmt::format("SHARP result size mismatch: rank {} chunk {}", m, k));
        }
        sharp_->payloads().release(data);
    }
    if (stack_.sharp_costs() && !job.hier) {
        defer(t, t + stack_.sharp_poll_cycles() * job.packets_in(k), step::sharp_polled, j, m);
    } else {
        sharp_polled(t, j, m);
    }
}

void replay::sharp_polled(cycle_t t, uint32_t j, uint32_t m) {
    sharp_job& job = sharp_jobs_[j];
    ++job.received[m];
    sharp_send_next(t, j, m);
    if (job.received[m] != job.chunks) return;
    const cycle_t exit = job.hier ? 0 : stack_.sharp_exit_cycles(job.bytes);
    if (exit != 0) {
        defer(t, t + exit, step::sharp_return, j, m);
    } else {
        sharp_member_done(t, j, m);
    }
}

void replay::sharp_member_done(cycle_t t, uint32_t j, uint32_t m) {
    if (!sharp_jobs_[j].hier) finish_record(t, tr_.collectives[sharp_jobs_[j].instance].records[m]);
    sharp_job& jb = sharp_jobs_[j];  // finish_record may have started collectives
    if (--jb.members_left == 0) {
        if (!jb.hier) {
            results_[jb.instance].end = t;
            results_[jb.instance].done = true;
        }
        jb.inputs.clear();
        jb.expected.clear();
        // retry_sat_waiting may start collectives and grow sharp_jobs_: no use of jb after it.
        const bool hier = jb.hier;
        const uint32_t instance = jb.instance;
        const auto slice = jb.slice;
        if (jb.sat) {
            jb.sat = false;
            sharp_->sat_release(jb.tree);
            retry_sat_waiting(t);
        }
        if (hier) hier_piece_done(t, instance, slice);
    }
}

void replay::retry_sat_waiting(cycle_t t) {
    // Oldest first; one that still finds no slot queues again, in the same order.
    std::vector<uint32_t> queued;
    queued.swap(sat_waiting_);
    for (const uint32_t inst : queued) start_collective(t, inst);
}

}  // namespace ndr::tb
