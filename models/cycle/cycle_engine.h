// Base of every cycle-level model: a calendar of future events and one step per active cycle.
// A step evaluates everything from the state at the start of the cycle and commits at the end
// (docs/style.md §8). Engines exchange events only with latency >= 1 cycle, and the events of one
// cycle are applied in an order-independent way, so results never depend on which SystemC
// process runs first. Idle cycles cost nothing: an engine is stepped only at cycles that have
// events (see engine_driver.h, which ties an engine to one SystemC process).
#pragma once
#include <limits>
#include <vector>

#include "cycle/event.h"
#include "cycle/event_wheel.h"

namespace ndr::cycle {

inline constexpr cycle_t NEVER = std::numeric_limits<cycle_t>::max();

/// Told when an engine needs to run earlier than it last asked.
class wake_sink {
public:
    virtual ~wake_sink() = default;
    virtual void wake_at(cycle_t c) = 0;
};

class cycle_engine {
public:
    virtual ~cycle_engine() = default;
    cycle_engine() = default;
    cycle_engine(const cycle_engine&) = delete;
    cycle_engine& operator=(const cycle_engine&) = delete;

    /// Schedules e at cycle `at` (strictly after the cycle being processed anywhere).
    void schedule(cycle_t at, event e) {
        wheel_.push(at, e);
        if (at < pending_wake_) {
            pending_wake_ = at;
            if (sink_ != nullptr) sink_->wake_at(at);
        }
    }
    /// Runs cycle t (which must be next_cycle()), then asks to be woken for the next one.
    void step(cycle_t t) {
        pending_wake_ = t;
        wheel_.pop_cycle(t, events_);
        run_cycle(t, events_);
        pending_wake_ = wheel_.next_cycle();
        if (sink_ != nullptr && pending_wake_ != NEVER) sink_->wake_at(pending_wake_);
    }
    cycle_t next_cycle() const { return wheel_.next_cycle(); }
    /// next_cycle() outside step(), without scanning the calendar: the cycle the engine last
    /// asked to be woken for, lowered by every earlier schedule().
    cycle_t wake_cycle() const { return pending_wake_; }
    void set_wake_sink(wake_sink* s) { sink_ = s; }

protected:
    /// All events of cycle t; the engine evaluates and commits cycle t.
    virtual void run_cycle(cycle_t t, const std::vector<event>& events) = 0;

private:
    event_wheel wheel_;
    std::vector<event> events_;
    cycle_t pending_wake_ = NEVER;
    wake_sink* sink_ = nullptr;
};

/// Event kinds every engine understands (engine-private kinds start at EV_PRIVATE).
enum event_kind : uint8_t {
    EV_HDR = 1,    ///< packet header arrives on `port` (pkt); VL in packet::vl
    EV_FC = 2,     ///< FC update on `port`: FCCL `a` for VL `vl` (sender side)
    EV_FCTBS = 3,  ///< FC packet's FCTBS `a` for VL `vl` (receiver side check)
    EV_WAKE = 4,   ///< run allocation / transmission again
    EV_PFC = 5,    ///< PFC frame for `port`'s egress, priority `vl`: a = 1 PAUSE, 0 resume
    EV_PRIVATE = 16,
};

/// One end of a point-to-point link: which engine and which of its ports, and the link's
/// latency (first beat sent -> first beat received: FEC/PHY + cable), in cycles.
struct link_peer {
    cycle_engine* engine = nullptr;
    uint16_t port = 0;
    uint32_t link_cycles = 1;
};

}  // namespace ndr::cycle
