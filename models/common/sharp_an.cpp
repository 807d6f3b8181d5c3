#include "common/sharp_an.h"

#include <fmt/format.h>

#include <algorithm>

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
                         uint32_t root_host, uint32_t data, std::vector<sharp_emit>& out) {
    if (root_host != 0xFFFFFFFFU) {  // rooted op: only towards the root host
        const auto it = n.port_of_host.find(root_host);
        if (it == n.port_of_host.end()) return;
        out.push_back(
            sharp_emit{it->second, at, true, n.tree, chunk, bytes, root_host,
                       data == 0xFFFFFFFFU ? data : payloads_->store(payloads_->get(data))});
        return;
    }
    for (uint16_t p : n.child_ports) {
        out.push_back(
            sharp_emit{p, at, true, n.tree, chunk, bytes, root_host,
                       data == 0xFFFFFFFFU ? data : payloads_->store(payloads_->get(data))});
    }
}

void sharp_an::on_packet(cycle_t t, uint16_t in, bool down, uint32_t tree, uint32_t chunk,
                         uint32_t bytes, uint32_t root_host, uint32_t data, uint32_t beats,
                         std::vector<sharp_emit>& out) {
    const auto it = trees_.find(tree);
    if (it == trees_.end()) {
        throw invariant_error(fmt::format(
            "cycle {}: SHARP packet of tree {} reached a switch that is not in the tree", t, tree));
    }
    const sharp_tree_node& n = it->second;
    if (down) {  // replicate the result towards the hosts
        send_down(n, t + 1, chunk, bytes, root_host, data, out);
        if (data != 0xFFFFFFFFU) payloads_->release(data);
        return;
    }
    const auto child = std::find(n.child_ports.begin(), n.child_ports.end(), in);
    if (child == n.child_ports.end()) {
        throw invariant_error(
            fmt::format("cycle {}: SHARP tree {} chunk {}: contribution on port {}, not a child", t,
                        tree, chunk, in));
    }
    const uint64_t key = (uint64_t{tree} << 32) | chunk;
    auto [cit, fresh] = chunks_.try_emplace(key);
    chunk_state& cs = cit->second;
    const uint32_t need = osts_for(std::max(bytes, cs.bytes));
    if (need > cs.osts) {
        if (in_use_ + need - cs.osts > osts_) {
            throw invariant_error(fmt::format(
                "cycle {}: SHARP aggregation node out of OSTs ({} in use of {}): tree {} chunk {} "
                "needs {}; lower sharp.osts_per_tree or raise sharp.osts",
                t, in_use_, osts_, tree, chunk, need));
        }
        in_use_ += need - cs.osts;
        cs.osts = need;
        stats_.max_osts_in_use = std::max(stats_.max_osts_in_use, in_use_);
    }
    if (fresh) {
        cs.first = t;
        cs.bytes = bytes;
        cs.root_host = root_host;
        if (data != 0xFFFFFFFFU) cs.data.assign(n.child_ports.size(), 0xFFFFFFFFU);
    }
    cs.bytes = std::max(cs.bytes, bytes);  // broadcast: only the root's contribution has data
    cs.last = std::max(cs.last, t);
    if (data != 0xFFFFFFFFU) {
        if (cs.data.empty()) cs.data.assign(n.child_ports.size(), 0xFFFFFFFFU);
        cs.data[static_cast<std::size_t>(child - n.child_ports.begin())] = data;
    }
    if (++cs.arrived < n.child_ports.size()) return;
    // All children are in: reduce (line rate per input, so the ALU adds only its pipeline).
    const cycle_t done = cs.last + alu_cycles_;
    stats_.alu_busy_cycles += beats;
    ++stats_.chunks_reduced;
    stats_.aggregation_cycles += done - cs.first;
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
    in_use_ -= cs.osts;
    chunks_.erase(cit);
    if (n.parent_port >= 0) {
        out.push_back(sharp_emit{static_cast<uint16_t>(n.parent_port), done, false, tree, chunk,
                                 out_bytes, rh, result});
    } else {
        send_down(n, done, chunk, out_bytes, rh, result, out);
        if (result != 0xFFFFFFFFU) payloads_->release(result);
    }
}

}  // namespace ndr::common
