#include "common/sharp_an.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "common/invariant_error.h"

namespace ndr::common {

uint32_t sharp_wire_bytes(uint32_t payload) {
    return 8 + 12 + 8 + 16 + ((payload + 3U) & ~3U) + 4 + 2;
}

uint32_t sharp_payloads::store(std::vector<uint8_t> bytes) {
    uint32_t slot;
    if (!free_.empty()) {
        slot = free_.back();
        free_.pop_back();
        slots_[slot] = std::move(bytes);
    } else {
        slot = static_cast<uint32_t>(slots_.size());
        slots_.push_back(std::move(bytes));
    }
    return slot;
}

void sharp_payloads::release(uint32_t slot) {
    slots_[slot].clear();
    slots_[slot].shrink_to_fit();
    free_.push_back(slot);
}

void sharp_an::send_down(const sharp_tree_node& n, cycle_t at, uint32_t chunk, uint32_t bytes,
                         uint32_t root_host, uint32_t data, uint64_t tag,
                         std::vector<sharp_emit>& out) {
    if (root_host != 0xFFFFFFFFU) {  // rooted op: only towards the root host
        const auto it = n.port_of_host.find(root_host);
        if (it == n.port_of_host.end()) return;
        out.push_back(
            sharp_emit{it->second, at, true, n.tree, chunk, bytes, root_host,
                       data == 0xFFFFFFFFU ? data : payloads_->store(payloads_->get(data)), tag});
        return;
    }
    for (uint16_t p : n.child_ports) {
        out.push_back(
            sharp_emit{p, at, true, n.tree, chunk, bytes, root_host,
                       data == 0xFFFFFFFFU ? data : payloads_->store(payloads_->get(data)), tag});
    }
}

void sharp_an::on_packet(cycle_t t, uint16_t in, bool down, uint32_t tree, uint32_t chunk,
                         uint32_t bytes, uint32_t root_host, uint32_t data, uint32_t beats,
                         uint64_t token, uint64_t tag, std::vector<sharp_emit>& out,
                         std::vector<uint64_t>& taken) {
    const auto it = trees_.find(tree);
    if (it == trees_.end()) {
        throw invariant_error(fmt::format(
            "cycle {}: SHARP packet of tree {} reached a switch that is not in the tree", t, tree));
    }
    const sharp_tree_node& n = it->second;
    if (down) {  // replicate the result towards the hosts
        send_down(n, t + 1, chunk, bytes, root_host, data, tag, out);
        if (data != 0xFFFFFFFFU) payloads_->release(data);
        taken.push_back(token);
        return;
    }
    if (std::find(n.child_ports.begin(), n.child_ports.end(), in) == n.child_ports.end()) {
        throw invariant_error(
            fmt::format("cycle {}: SHARP tree {} chunk {}: contribution on port {}, not a child", t,
                        tree, chunk, in));
    }
    const contribution c{t,     in, tree, chunk, bytes, root_host, data, std::max(1U, beats),
                         token, tag};
    const uint64_t reductions = stats_.chunks_reduced;
    if (!take(t, c, out)) {  // no OSTs: it stays in its input buffer, holding the credits
        waiting_.push_back(c);
        ++stats_.ost_waits;
        return;
    }
    taken.push_back(token);
    // A reduction freed OSTs: let the waiting contributions in, oldest first, until none fits.
    bool freed = stats_.chunks_reduced != reductions;
    while (freed && !waiting_.empty()) {
        freed = false;
        for (std::size_t i = 0; i < waiting_.size();) {
            const contribution w = waiting_[i];
            const uint64_t before = stats_.chunks_reduced;
            if (!take(t, w, out)) {
                ++i;
                continue;
            }
            stats_.ost_wait_cycles += static_cast<double>(t - w.t);
            taken.push_back(w.token);
            waiting_.erase(waiting_.begin() + static_cast<std::ptrdiff_t>(i));
            freed = freed || stats_.chunks_reduced != before;
        }
    }
}

bool sharp_an::take(cycle_t t, const contribution& c, std::vector<sharp_emit>& out) {
    const sharp_tree_node& n = trees_.at(c.tree);
    const uint64_t key = (uint64_t{c.tree} << 32) | c.chunk;
    auto cit = chunks_.find(key);
    const uint32_t held = cit == chunks_.end() ? 0 : cit->second.osts;
    const uint32_t need =
        osts_for(std::max(c.bytes, cit == chunks_.end() ? 0U : cit->second.bytes));
    if (need > osts_) {
        throw invariant_error(fmt::format(
            "cycle {}: SHARP tree {} chunk {} of {} B needs {} OSTs of sharp.ost_bytes {} B, more "
            "than the node's sharp.osts {}",
            t, c.tree, c.chunk, c.bytes, need, ost_bytes_, osts_));
    }
    if (need > held && in_use_ + (need - held) > osts_) return false;
    const bool fresh = cit == chunks_.end();
    if (fresh) cit = chunks_.try_emplace(key).first;
    chunk_state& cs = cit->second;
    if (need > held) {
        in_use_ += need - held;
        cs.osts = need;
        stats_.max_osts_in_use = std::max(stats_.max_osts_in_use, in_use_);
    }
    // Its data streamed in over its beats (a waiting one: all in when taken).
    const cycle_t from = c.t == t && t + 1 >= c.beats ? t + 1 - c.beats : t;
    if (fresh) {
        cs.first = t;
        cs.data_from = from;
        cs.bytes = c.bytes;
        cs.root_host = c.root_host;
        cs.tag = c.tag;
        if (c.data != 0xFFFFFFFFU) cs.data.assign(n.child_ports.size(), 0xFFFFFFFFU);
    }
    cs.bytes = std::max(cs.bytes, c.bytes);  // broadcast: only the root's contribution has data
    cs.last = std::max(cs.last, t);
    cs.data_from = std::min(cs.data_from, from);
    cs.in_bytes += c.bytes;
    if (c.data != 0xFFFFFFFFU) {
        if (cs.data.empty()) cs.data.assign(n.child_ports.size(), 0xFFFFFFFFU);
        const auto child = std::find(n.child_ports.begin(), n.child_ports.end(), c.in);
        cs.data[static_cast<std::size_t>(child - n.child_ports.begin())] = c.data;
    }
    if (++cs.arrived == n.child_ports.size()) reduce(t, key, out);
    return true;
}

void sharp_an::reduce(cycle_t t, uint64_t key, std::vector<sharp_emit>& out) {
    (void)t;
    const auto cit = chunks_.find(key);
    chunk_state& cs = cit->second;
    const auto tree = static_cast<uint32_t>(key >> 32);
    const auto chunk = static_cast<uint32_t>(key & 0xFFFFFFFFU);
    const sharp_tree_node& n = trees_.at(tree);
    // All children are in. The ALU (one per node, shared by every tree) reads the chunk's
    // contribution bytes at alu_bpc_ bytes per cycle: its work starts at the beginning of the
    // cycle the ALU is free and the chunk's first data is in (contributions stream into the
    // OSTs beat by beat), and its last cycle is
    // no earlier than the cycle the last contribution arrived (work within a cycle ends in
    // that cycle); then the pipeline latency.
    const double work = alu_bpc_ > 0 ? static_cast<double>(cs.in_bytes) / alu_bpc_ : 0.0;
    const double end = std::max(alu_free_, static_cast<double>(cs.data_from)) + work;
    alu_free_ = end;
    const auto last_cycle = static_cast<cycle_t>(std::max(0.0, std::ceil(end - 1e-9) - 1.0));
    const cycle_t done = std::max(cs.last, last_cycle) + alu_cycles_;
    stats_.alu_busy_cycles += work;
    // A TLM burst stands for tag >> 32 chunks (sim.tlm_sharp_burst): they count as many.
    const uint64_t stands_for = std::max<uint64_t>(1, cs.tag >> 32);
    stats_.chunks_reduced += stands_for;
    stats_.aggregation_cycles += (done - cs.first) * stands_for;
    uint32_t result = 0xFFFFFFFFU;
    if (!cs.data.empty()) {
        const auto rit = reduction_.find(tree);
        std::vector<const uint8_t*> inputs;
        std::size_t len = 0;
        for (uint32_t slot : cs.data) {
            if (slot == 0xFFFFFFFFU) continue;
            inputs.push_back(payloads_->get(slot).data());
            len = payloads_->get(slot).size();
        }
        std::vector<uint8_t> acc(len);
        if (!inputs.empty() && rit != reduction_.end()) {
            const std::size_t elem = golden::red_elem_size(rit->second.first, rit->second.second);
            golden::reduce_tree(rit->second.first, rit->second.second, inputs, acc.data(),
                                len / elem);
        } else if (!inputs.empty()) {
            acc = payloads_->get(cs.data.front() != 0xFFFFFFFFU ? cs.data.front() : cs.data.back());
        }
        for (uint32_t slot : cs.data) {
            if (slot != 0xFFFFFFFFU) payloads_->release(slot);
        }
        result = payloads_->store(std::move(acc));
    }
    const uint32_t out_bytes = cs.bytes;
    const uint32_t rh = cs.root_host;
    const uint64_t tag = cs.tag;
    in_use_ -= cs.osts;
    chunks_.erase(cit);
    if (n.parent_port >= 0) {
        out.push_back(sharp_emit{static_cast<uint16_t>(n.parent_port), done, false, tree, chunk,
                                 out_bytes, rh, result, tag});
    } else {
        send_down(n, done, chunk, out_bytes, rh, result, tag, out);
        if (result != 0xFFFFFFFFU) payloads_->release(result);
    }
}

}  // namespace ndr::common
