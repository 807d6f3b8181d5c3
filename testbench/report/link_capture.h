// `ndrsim run --pcap`: captures every packet that crosses one cable of the fabric, both
// directions, into a pcap file of ERF InfiniBand records (pcap_writer.h). The named direction
// (default "host0->swX.pY") is ERF capture interface 0, the reverse direction interface 1
// (Wireshark shows them as sent / received). Timestamps are the cycle a packet's first beat
// starts on the link x cycle_ps. Records are written in time order: the models report a
// packet when they commit it, which can be before an earlier-starting packet of the other
// direction, so records wait in a buffer until flush_before() guarantees no earlier one can
// still come.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "cycle/link_tap.h"
#include "fabric.h"
#include "pcap_writer.h"

namespace ndr::tb {

class link_capture {
public:
    /// Opens `path` and taps `link_name` (a name from fabric::links(), e.g. "host0->sw0.p0"; empty:
    /// host 0's uplink) and its reverse direction. Throws cfg::config_error for an unknown link
    /// (the message lists some valid names), std::runtime_error if the file cannot be written.
    /// Call during elaboration, before the simulation starts; `f` must outlive this object's
    /// use, and this object must outlive the simulation (the models keep pointers to it).
    link_capture(fabric& f, const std::string& path, const std::string& link_name);
    link_capture(const link_capture&) = delete;
    link_capture& operator=(const link_capture&) = delete;
    ~link_capture();

    /// Writes the buffered records that start before cycle `t`. Call when the simulation has
    /// run up to `t`: no packet reported later can start before it.
    void flush_before(common::cycle_t t);
    /// Writes everything still buffered, closes the file and removes the taps.
    void finish();
    /// The captured direction that is interface 0, e.g. "host0->sw0.p0".
    const std::string& link_name() const { return names_[0]; }
    /// Records written so far.
    uint64_t records() const { return writer_.records(); }

private:
    struct direction_tap final : cycle::link_tap {
        link_capture* owner = nullptr;
        uint8_t interface_id = 0;
        void on_packet(common::cycle_t start, const cycle::packet& p) override;
    };
    struct pending {
        common::cycle_t start = 0;
        uint8_t interface_id = 0;
        std::vector<uint8_t> bytes;
    };

    void attach(const link_ref& l, cycle::link_tap* tap);

    fabric& fabric_;
    pcap_writer writer_;
    uint64_t cycle_ps_;
    std::array<std::string, 2> names_;
    std::array<const link_ref*, 2> links_{};
    std::array<direction_tap, 2> taps_{};
    std::vector<pending> pending_;
    bool attached_ = false;
};

}  // namespace ndr::tb
