// The synthetic-traffic endpoints of `ndrsim traffic`: one HCA-like port per switch port, all
// in one engine (one SystemC process). Each endpoint creates packets by a Bernoulli process
// (geometric gaps: at most one packet per cycle, rate = load / mean beats per packet) into
// unbounded per-VL source queues, sends them under IB credit flow control with the same VL
// arbiter as the switch, and sinks what arrives (credits return after endpoint.rx_processing).
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "common/endpoint_stats.h"
#include "common/ib_port.h"
#include "common/rng.h"
#include "common/timing.h"
#include "common/traffic_mix.h"
#include "common/traffic_pattern.h"
#include "config/sim_config.h"
#include "cycle/cycle_engine.h"
#include "cycle/packet.h"
#include "cycle/pfc.h"
#include "golden/credit_fc.h"
#include "golden/sl2vl.h"
#include "golden/vl_arb.h"

namespace ndr::tb {

using common::cycle_t;

class traffic_endpoints : public cycle::cycle_engine {
public:
    traffic_endpoints(const cfg::config& c, const common::timing& tm, cycle::packet_pool& pool);
    /// Endpoint e's link goes to `peer`, whose receive buffer holds peer_buffer_blocks per VL.
    void connect(uint16_t e, cycle::link_peer peer, uint32_t peer_buffer_blocks);
    /// Schedules the first arrivals and FC refresh at cycle `now`.
    void start(cycle_t now);
    void set_window(cycle_t start, cycle_t end);
    uint64_t tagged_outstanding() const { return stats_.window_created - stats_.tagged_delivered; }
    const endpoint_stats& stats() const { return stats_; }
    /// RoCE: PFC state and statistics of the endpoint ports (nullptr for IB).
    const cycle::pfc_ports* pfc() const { return pfc_.get(); }
    uint64_t queued_packets() const;
    /// Generate the Bernoulli arrivals of every source up to cycle `last` (end of a run:
    /// the statistics then count what one event per arrival would have).
    void flush_arrivals(cycle_t last);

protected:
    void run_cycle(cycle_t t, const std::vector<cycle::event>& events) override;

private:
    enum : uint8_t {
        EV_GEN = cycle::EV_PRIVATE,
        EV_TXFREE,
        EV_DELIVER,
        EV_RXFREE,
        EV_FC_FLUSH,
        EV_TICK,
        EV_REFRESH,
        EV_WIN_START,
        EV_WIN_END
    };
    /// A packet created but not yet sent: what generate() drew. It becomes a pool packet when
    /// it goes on the link, so a long source queue (an overloaded run) costs 16 B per packet,
    /// read and written sequentially, instead of a scattered 64 B pool record. Its id is
    /// given when it is sent (ids are for messages; they count packets in sending order).
    struct pending {
        cycle_t created = 0;
        uint16_t dst = 0;
        uint16_t choice = 0;  ///< index into the size mix
        uint8_t sl = 0;
    };
    static_assert(sizeof(pending) == 16, "a queued packet is 16 bytes");
    /// FIFO ring of pending packets; capacity a power of two, grows by doubling.
    struct pending_queue {
        std::vector<pending> buf;
        std::size_t mask = 0;  ///< buf.size() - 1
        std::size_t head = 0;
        std::size_t size = 0;
        bool empty() const { return size == 0; }
        const pending& front() const { return buf[head]; }
        void push(const pending& p) {
            if (buf.empty() || size == mask + 1) grow();
            buf[(head + size) & mask] = p;
            ++size;
            // The tail runs into lines not touched since the ring last wrapped: claim them
            // ahead (hint only).
            __builtin_prefetch(&buf[(head + size + PF_RECORDS) & mask], 1);
        }
        void pop() {
            head = (head + 1) & mask;
            --size;
            // A long queue's head was written long ago (cold): load it a few lines ahead, so
            // the next front() does not stall (64 sources are too many streams for the
            // hardware prefetcher). A hint only: results do not depend on it.
            __builtin_prefetch(&buf[(head + PF_RECORDS) & mask]);
        }
        static constexpr std::size_t PF_RECORDS = 16;  ///< 4 cache lines of 16-byte records
        void grow();
    };
    /// Per-endpoint state, laid out for the per-packet path: the first cache line holds the
    /// link state; the per-VL source queues are in the flat array queues_ ([e * vls + vl]), the
    /// link layer (credits, VL arbiter, FC, stalls) in link_.
    struct alignas(64) endpoint {
        cycle_t tx_free = 0;
        uint32_t nonempty = 0;  ///< VLs with queued packets
        bool txfree_pending = false;
        bool tx_dirty = false;
        uint64_t queued = 0;
        /// Bernoulli sources are materialised lazily: the next arrival not yet in the queue
        /// (drawn, not generated), and the cycle of the pending EV_GEN wake-up, if any.
        cycle_t next_gen = NO_WAKE;
        cycle_t gen_wake = NO_WAKE;
        rng gen;
        cycle::link_peer peer;
        explicit endpoint(rng g) : gen(g) {}
    };

    static constexpr cycle_t NO_WAKE = ~cycle_t{0};
    /// Bound on pending packets (as packet_pool's on live ones): a runaway overload fails.
    static constexpr uint64_t MAX_QUEUED = 64'000'000;

    void generate(cycle_t t, uint16_t e);
    /// Bernoulli source: generate every arrival up to cycle t, in order, from the endpoint's
    /// own random stream (gap, then what generate() draws), exactly as one event per arrival
    /// would; only the global packet ids (used in messages) come out in another order.
    void materialize(cycle_t t, uint16_t e) {
        endpoint& ep = eps_[e];
        while (ep.next_gen <= t) {
            generate(ep.next_gen, e);
            ep.next_gen += ep.gen.geometric_gap(mix_.inv_log_q);
        }
    }
    /// An idle Bernoulli source must run at its next arrival (credit-stall accounting, other
    /// VLs); one pending EV_GEN per source.
    void wake_at_arrival(uint16_t e) {
        endpoint& ep = eps_[e];
        if (ep.gen_wake != ep.next_gen) {
            ep.gen_wake = ep.next_gen;
            schedule(ep.next_gen, cycle::event{EV_GEN, 0, e, 0, 0, 0});
        }
    }
    void try_send(cycle_t t, uint16_t e);
    void mark_tx(uint16_t e);
    void tick_next(cycle_t t) {  ///< make sure the engine runs at t + 1 (one EV_TICK)
        if (tick_at_ != t + 1) {
            tick_at_ = t + 1;
            schedule(t + 1, cycle::event{EV_TICK, 0, 0, 0, 0, 0});
        }
    }
    void deliver(cycle_t t, uint16_t e, uint32_t pkt);
    /// Inline: once per delivered packet.
    void rx_freed(cycle_t t, uint16_t e, uint32_t vl, uint32_t blocks) {
        link_.rx(e, vl).on_free(blocks);
        if (!roce_) {
            link_.mark_fc(e * vls_ + vl);
            return;
        }
        pfc_check(t, e, vl);
    }
    void pfc_check(cycle_t t, uint16_t e, uint32_t vl);
    /// Prefetch distance (list entries ahead) of the hints below; they never change results.
    static constexpr std::size_t PF_AHEAD = 4;
    void prefetch_endpoint(uint16_t e) const {  ///< what try_send(e) touches first
        const endpoint& ep = eps_[e];
        __builtin_prefetch(&ep.tx_free);
        __builtin_prefetch(&ep.gen);
        __builtin_prefetch(&ep.peer);
        __builtin_prefetch(&queues_[e * vls_]);
        __builtin_prefetch(&link_.tx(e, 0));
        __builtin_prefetch(&link_.arb(e));
    }
    void prefetch_delivery(const cycle::event& d) const {  ///< what deliver() touches
        const cycle::packet& p = pool_[d.pkt];
        __builtin_prefetch(&recv_seq_[(std::size_t{p.sl} * ports_ + d.port) * ports_ + p.src]);
        __builtin_prefetch(&link_.rx(d.port, p.vl));
    }

    const common::timing tm_;
    cycle::packet_pool& pool_;
    uint32_t ports_;
    uint32_t vls_;
    bool check_;
    bool backlogged_;
    traffic_pattern pattern_;
    traffic_mix mix_;  ///< payload/SL mixes, wire sizes, packet rate (traffic_mix.h)
    std::vector<endpoint> eps_;
    std::vector<pending_queue> queues_;  ///< [e * vls + vl]
    /// The link layer of every endpoint's port (common/ib_port.h): [e * vls + vl].
    common::ib_ports<> link_;
    /// Per size choice (index into mix_.sizes), everything a packet of that size needs.
    struct size_info {
        uint16_t payload_bytes;
        uint16_t wire_bytes;
        uint16_t blocks;  ///< credit blocks
        uint16_t beats;   ///< datapath beats
    };
    std::vector<size_info> size_of_;
    /// [(sl*ports + src)*ports + dst]: the flows of one SL are one contiguous block (16 KiB at
    /// 64 ports), so a one-SL run touches no lines 4 KiB apart that would fight over L1 sets.
    std::vector<uint32_t> send_seq_;
    std::vector<uint32_t> recv_seq_;  ///< [(sl*ports + dst)*ports + src] (record_delivery)
    std::vector<uint16_t> tx_dirty_;  ///< endpoints to evaluate for transmission this cycle
    std::vector<uint16_t> tx_next_;   ///< endpoints free again next cycle (one-beat packets)
    std::vector<uint16_t> tx_now_;
    std::vector<cycle::event> deliver_next_;  ///< one-beat packets whose tail arrives next cycle
    std::vector<cycle::event> deliver_now_;
    cycle_t tick_at_ = ~cycle_t{0};  ///< cycle of the pending EV_TICK
    uint64_t next_id_ = 0;
    uint64_t queued_total_ = 0;  ///< pending packets, all endpoints
    cycle_t win_start_ = 0;
    cycle_t win_end_ = 0;
    bool in_window_ = false;
    bool refresh_due_ = false;
    endpoint_stats stats_;
    bool roce_ = false;
    std::unique_ptr<cycle::pfc_ports> pfc_;  ///< RoCE with pfc.enabled
};

}  // namespace ndr::tb
