// Rules in nvlink_fabric.h.
#include "common/nvlink_fabric.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ndr::common {

namespace {
/// A flow is done when less than half a byte is left (the rounding of doubles).
constexpr double DONE_BYTES = 0.5;
}  // namespace

nvlink_fabric::nvlink_fabric(uint32_t nodes, uint32_t gpus, double bytes_per_cycle)
    : gpus_(gpus),
      bpc_(bytes_per_cycle),
      nodes_(nodes),
      stats_(std::size_t{nodes} * gpus),
      cap_(std::size_t{2} * gpus + 1),
      users_(std::size_t{2} * gpus + 1),
      first_(std::size_t{2} * gpus + 2),
      fill_(std::size_t{2} * gpus + 1) {
    if (!(bytes_per_cycle > 0)) throw std::invalid_argument("nvlink_fabric: bandwidth must be > 0");
}

void nvlink_fabric::start(cycle_t now, uint32_t node, uint32_t src, uint32_t dst, uint64_t bytes,
                          uint64_t tag, double max_share) {
    node_state& n = nodes_.at(node);
    const bool one_way = (src == NO_GPU) != (dst == NO_GPU);
    if ((src >= gpus_ || dst >= gpus_) && !(one_way && std::min(src, dst) < gpus_)) {
        throw std::out_of_range("nvlink_fabric: gpu out of range");
    }
    if (!(max_share > 0 && max_share <= 1)) {
        throw std::invalid_argument("nvlink_fabric: max_share must be in (0, 1]");
    }
    progress(n, now);
    flow f;
    f.src = src;
    f.dst = dst;
    f.left = static_cast<double>(bytes);
    f.cap = max_share * bpc_;
    f.tag = tag;
    n.flows.push_back(f);
    if (src != NO_GPU) stats_[std::size_t{node} * gpus_ + src].tx_bytes += bytes;
    if (dst != NO_GPU) stats_[std::size_t{node} * gpus_ + dst].rx_bytes += bytes;
    share(n);
}

cycle_t nvlink_fabric::next_finish(uint32_t node) const {
    return nodes_.at(node).next;
}

std::vector<uint64_t> nvlink_fabric::advance(cycle_t now, uint32_t node) {
    node_state& n = nodes_.at(node);
    progress(n, now);
    std::vector<uint64_t> done;
    auto keep = n.flows.begin();
    for (auto it = n.flows.begin(); it != n.flows.end(); ++it) {
        if (it->left < DONE_BYTES) {
            done.push_back(it->tag);
        } else {
            *keep++ = *it;
        }
    }
    n.flows.erase(keep, n.flows.end());
    share(n);
    return done;
}

void nvlink_fabric::progress(node_state& n, cycle_t now) const {
    if (now < n.last) throw std::logic_error("nvlink_fabric: time went backwards");
    const auto dt = static_cast<double>(now - n.last);
    for (flow& f : n.flows) f.left = std::max(0.0, f.left - f.rate * dt);
    n.last = now;
}

void nvlink_fabric::share(node_state& n) {
    // Progressive filling over 2 * gpus resources: egress of GPU g = g, ingress = gpus + g.
    // A one-way flow (NO_GPU end) uses one resource; its missing one is the index nr (none).
    const std::size_t nr = std::size_t{2} * gpus_;
    const std::size_t nf = n.flows.size();
    const auto egress = [&](const flow& f) { return f.src == NO_GPU ? nr : std::size_t{f.src}; };
    const auto ingress = [&](const flow& f) {
        return f.dst == NO_GPU ? nr : std::size_t{gpus_} + f.dst;
    };
    // The scratch of the resources is sized once (constructor); fixed_ grows with the flows.
    std::fill(cap_.begin(), cap_.end(), bpc_);
    std::fill(users_.begin(), users_.end(), 0U);
    if (fixed_.size() < nf) fixed_.resize(nf);
    std::fill_n(fixed_.begin(), nf, char{0});
    // The flows of each resource, in start order: by_res_[first_[r] .. first_[r + 1]).
    first_[0] = 0;
    bool any_capped = false;
    for (const flow& f : n.flows) {
        ++users_[egress(f)];
        ++users_[ingress(f)];
        any_capped = any_capped || f.cap < bpc_;
    }
    for (std::size_t r = 0; r <= nr; ++r) first_[r + 1] = first_[r] + users_[r];
    by_res_.resize(first_[nr + 1]);
    std::copy(first_.begin(), first_.end() - 1, fill_.begin());
    for (std::size_t i = 0; i < nf; ++i) {
        by_res_[fill_[egress(n.flows[i])]++] = static_cast<uint32_t>(i);
        by_res_[fill_[ingress(n.flows[i])]++] = static_cast<uint32_t>(i);
    }
    const auto fix = [&](std::size_t i, double rate) {
        flow& f = n.flows[i];
        fixed_[i] = 1;
        f.rate = rate;
        cap_[egress(f)] -= rate;
        cap_[ingress(f)] -= rate;
        --users_[egress(f)];
        --users_[ingress(f)];
    };
    std::size_t left = nf;
    while (left > 0) {
        std::size_t best = nr;
        double share_of_best = 0;
        for (std::size_t r = 0; r < nr; ++r) {
            if (users_[r] == 0) continue;
            const double s = cap_[r] / users_[r];
            if (best == nr || s < share_of_best) {
                best = r;
                share_of_best = s;
            }
        }
        // A flow whose own cap is below every fair share it would get is fixed at its cap
        // first (a resource of its own, one user); the others then share what it leaves. A
        // fair share is never above B, so only flows capped below B can be (any_capped).
        if (any_capped) {
            std::size_t capped = nf;
            for (std::size_t i = 0; i < nf; ++i) {
                const flow& f = n.flows[i];
                if (fixed_[i] || f.cap >= share_of_best) continue;
                if (capped == nf || f.cap < n.flows[capped].cap) capped = i;
            }
            if (capped != nf) {
                fix(capped, n.flows[capped].cap);
                --left;
                continue;
            }
        }
        // Every flow of `best` gets the same share, so the order they are fixed in leaves the
        // same capacities behind.
        for (std::size_t j = first_[best]; j < first_[best + 1]; ++j) {
            const uint32_t i = by_res_[j];
            if (fixed_[i]) continue;
            fix(i, share_of_best);
            --left;
        }
    }
    n.next = NEVER;
    for (const flow& f : n.flows) {
        const double cycles = f.left < DONE_BYTES ? 0.0 : std::ceil(f.left / f.rate);
        n.next = std::min(n.next, n.last + static_cast<cycle_t>(cycles));
    }
}

}  // namespace ndr::common
