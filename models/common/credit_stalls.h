// Credit-stall accounting of one device's ports, per (port, VL): a stall starts when the
// (port, VL) becomes credit-blocked (something waits to be sent, the link could take it, the VL
// lacks credits) and ends when it stops being blocked; its cycles are handed to the caller's
// sink when it ends, or at the window's close while still running. At the window's opening a
// running stall counts from the opening. SystemC-free, used through common::ib_ports
// (ib_port.h) by every device of both levels.
//
// Two ways to report what is blocked, the same rule behind both (stall_edges):
//   by VL   (switches, once per allocation): per VL, the bit mask of ports blocked on it;
//   by port (HCAs and traffic endpoints, once per transmission attempt): the port's VL mask.
// A device uses one of them; the other's masks stay zero.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "common/bits.h"
#include "common/cycles.h"

namespace ndr::common {

class credit_stalls {
public:
    credit_stalls(uint32_t ports, uint32_t vls)
        : vls_(vls), since_(std::size_t{ports} * vls, 0), by_vl_(vls, 0), by_port_(ports, 0) {}

    /// Switch form, at cycle t: blocked[vl] = ports credit-blocked on vl now. A stall that ends
    /// calls add(port, vl, cycles) if `counting` (inside the measurement window).
    template <class Add>
    void track_vls(cycle_t t, const std::vector<uint64_t>& blocked, bool counting, Add&& add) {
        for (uint32_t vl = 0; vl < vls_; ++vl) {
            const uint64_t now = blocked[vl];
            const uint64_t was = by_vl_[vl];
            if (now == was) continue;
            stall_edges(t, was & ~now, now & ~was, counting, add, [&](uint32_t port) {
                return std::pair<uint32_t, uint32_t>{port, vl};
            });
            by_vl_[vl] = now;
        }
    }
    /// Endpoint form, at cycle t: `blocked` = the VLs of `port` credit-blocked now.
    template <class Add>
    void track_port(cycle_t t, uint32_t port, uint32_t blocked, bool counting, Add&& add) {
        const uint32_t was = by_port_[port];
        if (blocked == was) return;
        stall_edges(t, was & ~blocked, blocked & ~was, counting, add, [&](uint32_t vl) {
            return std::pair<uint32_t, uint32_t>{port, vl};
        });
        by_port_[port] = blocked;
    }
    /// The window opens at t: stalls in progress count from t.
    void open_window(cycle_t t) {
        for_each_stalled([&](uint32_t port, uint32_t vl) { since_[port * vls_ + vl] = t; });
    }
    /// The window closes at t: each stall in progress hands its cycles so far to
    /// add(port, vl, cycles) and counts on from t.
    template <class Add>
    void close_window(cycle_t t, Add&& add) {
        for_each_stalled([&](uint32_t port, uint32_t vl) {
            cycle_t& since = since_[port * vls_ + vl];
            add(port, vl, t - since);
            since = t;
        });
    }
    /// Ports stalled on vl (switch form) / VLs of port stalled (endpoint form).
    uint64_t stalled_ports(uint32_t vl) const { return by_vl_[vl]; }
    uint32_t stalled_vls(uint32_t port) const { return by_port_[port]; }

private:
    /// The rule, once: each ended stall adds its cycles (when counting), each started one
    /// remembers t. `at(bit)` names the (port, VL) of a mask bit.
    template <class Add, class At>
    void stall_edges(cycle_t t, uint64_t ended, uint64_t started, bool counting, Add& add,
                     At&& at) {
        if (counting) {
            for_each_bit(ended, [&](uint32_t b) {
                const auto [port, vl] = at(b);
                add(port, vl, t - since_[port * vls_ + vl]);
            });
        }
        for_each_bit(started, [&](uint32_t b) {
            const auto [port, vl] = at(b);
            since_[port * vls_ + vl] = t;
        });
    }
    template <class F>
    void for_each_stalled(F&& f) {
        for (uint32_t vl = 0; vl < vls_; ++vl) {
            for_each_bit(by_vl_[vl], [&](uint32_t port) { f(port, vl); });
        }
        for (uint32_t port = 0; port < by_port_.size(); ++port) {
            for_each_bit(by_port_[port], [&](uint32_t vl) { f(port, vl); });
        }
    }

    uint32_t vls_;
    std::vector<cycle_t> since_;     ///< [port * vls + vl]: cycle the running stall began
    std::vector<uint64_t> by_vl_;    ///< [vl]: ports stalled (switch form)
    std::vector<uint32_t> by_port_;  ///< [port]: VLs stalled (endpoint form)
};

}  // namespace ndr::common
