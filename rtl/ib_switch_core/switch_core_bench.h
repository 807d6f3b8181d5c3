// Harness of the Verilated rtl/ib_switch_core (built with --assert, --trace-fst, --coverage;
// block.cmake): sources that inject packets on the inputs under the IB credit rule against
// the core's FC updates (golden::credit_sender per input and VL), random gaps between beats,
// sinks on the outputs with random back-pressure (out_ready), a downstream receive buffer per
// output and VL (golden::credit_receiver) that frees delivered packets at a random rate with
// random credit-starvation periods and returns credits as FC updates, and the collection of
// delivered packets with cycle stamps. It checks on its own what needs no reference model:
// framing, payload words, credit invariants, RTL assertions. Order and completeness are the
// caller's (the TLM scoreboard, switch_core_check.cpp).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core_packet.h"
#include "verify/check_result.h"

namespace ndr::verify {

/// The parameterisation the core was Verilated with (block.cmake, NDR_RTL_CORE_*).
struct core_geometry {
    uint32_t ports = 0;
    uint32_t vls = 0;
    uint32_t buf_blocks = 0;  ///< input buffer per port per VL
    uint32_t max_blocks = 0;  ///< largest packet, blocks (2^BlocksW - 1)
    uint32_t iterations = 0;  ///< iSLIP iterations
};

struct bench_params {
    uint64_t seed = 1;
    bool islip = true;           ///< allocator: iSLIP, or round-robin
    double in_valid_p = 1.0;     ///< probability a source presents its next beat in a cycle
    double out_ready_p = 1.0;    ///< probability an output takes a beat in a cycle
    uint32_t down_blocks = 256;  ///< downstream receive buffer per output per VL, blocks
    double drain_p = 1.0;        ///< probability per cycle that a sink frees one packet
    double starve_p = 0.0;       ///< probability per cycle that a sink starts a credit starvation
    uint32_t starve_max = 0;     ///< longest starvation, cycles
    std::string fault;           ///< "" = the real RTL; a name of fault_names()
    std::string wave_path;       ///< FST file, or empty
};

/// A packet delivered on an output: the fields decoded from its beats, the VL and length the
/// core gave it, and the cycles its first and last beats left.
struct core_delivery {
    core_packet pkt;
    uint16_t port = 0;
    uint64_t sop_cycle = 0;
    uint64_t eop_cycle = 0;
};

/// Counters for the traffic report (whole run).
struct core_stats {
    std::vector<uint64_t> out_beats;         ///< per output
    std::vector<uint64_t> out_packets;       ///< per output
    std::vector<uint64_t> vl_occ_sum;        ///< per VL: sum over cycles and ports of occupancy
    std::vector<uint32_t> vl_occ_max;        ///< per VL: max over ports and cycles
    std::vector<uint64_t> out_zero_credit;   ///< per VL: cycles x outputs with no credit
    std::vector<uint64_t> src_credit_stall;  ///< per VL: cycles x sources idle for lack of credit
    uint64_t fc_packets = 0;                 ///< FC updates the core sent upstream
};

class switch_core_bench {
public:
    static core_geometry geometry();
    /// Names of the fault-injected builds ("drop_credit").
    static std::vector<std::string> fault_names();

    /// Throws std::invalid_argument for an unknown fault name.
    explicit switch_core_bench(const bench_params& p);
    class iface;
    /// A bench around another Verilated build (the speed benchmark's 8- and 16-port cores):
    /// switch_core_bench_model<Model> from switch_core_bench_model.h.
    explicit switch_core_bench(std::unique_ptr<iface> impl);
    ~switch_core_bench();
    switch_core_bench(const switch_core_bench&) = delete;
    switch_core_bench& operator=(const switch_core_bench&) = delete;

    /// Queues a packet at source p.src (VL p.vl); it goes when credits allow.
    void push(const core_packet& p);
    /// One clock cycle (drive, evaluate, sample, check, rising edge).
    void step();
    uint64_t cycle() const;
    /// Packets queued at the sources or partly injected.
    uint64_t queued() const;
    /// Packets whose header entered the core and that have not been delivered.
    uint64_t in_core() const;
    /// Checks the credit state of an idle core (call once everything is delivered): buffers
    /// empty, every block's credit returned, sender counters equal to what was delivered.
    void final_check();
    const std::optional<mismatch>& first_mismatch() const;
    uint64_t comparisons() const;
    coverage_summary coverage() const;
    const core_stats& stats() const;
    /// Zeroes the counters of stats() (at the start of a measurement window).
    void reset_stats();

    /// A header entered the core (cycle, packet).
    std::function<void(uint64_t, const core_packet&)> on_header_in;
    /// A packet's last beat left the core.
    std::function<void(const core_delivery&)> on_delivery;

private:
    std::unique_ptr<iface> impl_;
};

}  // namespace ndr::verify
