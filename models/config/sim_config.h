// The typed configuration of one ndrsim run. Field initialisers are THE defaults (one source):
// a Quantum-2-class NDR switch with ConnectX-class endpoints, docs/domain.md §13 "Realistic
// defaults". YAML key = section.field (e.g. `switch.buffer_per_vl: 32KiB`); the registrar of each
// section, config/keys/SECTION_keys.cpp, registers every field with its key, unit, range and help
// text.
#pragma once
#include <cstdint>
#include <string>

#include "config/units.h"

namespace ndr::cfg {

/// One physical link (both directions are identical).
struct link_config {
    rate_bps_t rate{400'000'000'000ULL};     ///< data rate per direction, 4x NDR (§5)
    time_ps_t fec_latency{100'000};          ///< FEC + PHY per link, RS(544,514) (§13)
    length_mm_t cable_length{3'000};         ///< cable length (§13: 2-3 m DAC in rack)
    time_ps_t propagation_per_m{5'000};      ///< signal propagation per metre of cable (§5)
    time_ps_t fc_processing{5'000};          ///< FC packet generate+consume, both ends (§13)
    time_ps_t fc_refresh_period{4'096'000};  ///< forced per-VL FC refresh (§2.3)
    time_ps_t fc_min_interval{10'000};       ///< at most one FC packet per VL per this (*choice*)
};

/// The switch ASIC.
struct switch_config {
    uint32_t ports = 64;                ///< radix, 2..64
    uint32_t vls = 2;                   ///< data VLs (VL0..vls-1), 1..15; VL15 extra (§3)
    bytes_t buffer_per_vl{32 * 1024};   ///< input buffer per port per data VL (§13)
    time_ps_t latency{300'000};         ///< port-to-port, header in -> header out, zero load
    bool cut_through = true;            ///< false = store-and-forward
    std::string queueing = "voq";       ///< `voq` | `fifo`
    std::string allocator = "islip";    ///< `islip` | `rr`
    uint32_t islip_iterations = 2;      ///< 1..8
    double speedup = 1.25;              ///< crossbar speed-up over link rate, 1.0..4.0
    bytes_t output_buffer{8 * 1024};    ///< egress staging per output port, >= 1 MTU packet
    bytes_t datapath_width{64};         ///< bytes per core-clock beat; cycle = width / rate
    bytes_t mtu{4096};                  ///< payload MTU: 256/512/1024/2048/4096
    std::string vl_arb_high = "";       ///< high table "vl:weight,..." (weights 64 B units)
    std::string vl_arb_low = "";        ///< low table; empty = every data VL weight 64
    uint32_t vl_arb_limit_of_high = 0;  ///< LimitOfHighPriority, 0..255
    std::string sl2vl = "";             ///< 16 comma-separated VLs; empty = SL mod vls
};

/// Endpoint (HCA port) as seen by the switch testbench.
struct endpoint_config {
    bytes_t rx_buffer_per_vl{32 * 1024};  ///< receive buffer per VL at the endpoint
    time_ps_t rx_processing{0};           ///< delay from tail arrival to freeing credits
};

/// Synthetic traffic (`ndrsim traffic`).
struct traffic_config {
    std::string pattern = "uniform";     ///< uniform|permutation|hotspot|incast|bitcomp
    std::string arrivals = "bernoulli";  ///< `bernoulli` (open loop at `load`) | `backlogged`
                                         ///< (every source always has a packet waiting)
    double load = 0.5;                   ///< offered load, fraction of line rate, 0 < load <= 1
    std::string size = "4096";           ///< payload bytes: `N` or `N@w,M@w,...` (weighted mix)
    std::string sl = "0";                ///< SLs used: `s` or `s@w,t@w` (weighted mix)
    double hotspot_fraction = 0.2;       ///< hotspot: share of traffic to the hot port
    uint32_t hot_port = 0;               ///< hotspot/incast destination
    uint32_t incast_sources = 0;         ///< incast: senders (0 = all other ports)
};

/// The fabric of `ndrsim run`: hosts (one HCA each) and switches.
struct fabric_config {
    std::string technology = "ib";            ///< `ib` (InfiniBand, credits, LFT) | `roce`
                                              ///< (RoCEv2 Ethernet: PFC, ECN, DCQCN, ECMP)
    std::string topology = "single_switch";   ///< `single_switch` | `fat_tree`
    uint32_t hosts = 0;                       ///< 0 = as many as the trace has ranks
    uint32_t levels = 2;                      ///< fat_tree: 2 or 3 (radix = switch.ports)
    length_mm_t tier1_cable_length{30'000};   ///< leaf-spine cables (§13 'Cable': 30-100 m optics)
    length_mm_t tier2_cable_length{100'000};  ///< spine-core cables
};

/// ConnectX-7-class HCA (docs/domain.md §8, §13).
struct hca_config {
    time_ps_t tx_latency{250'000};          ///< doorbell -> first packet ready (§13: ~250 ns)
    time_ps_t rx_latency{250'000};          ///< last packet in -> data placed + CQE (~250 ns)
    rate_bps_t pcie_rate{504'000'000'000};  ///< payload DMA, PCIe Gen5 x16 ~63 GB/s (§13)
    time_ps_t message_interval{4'651};      ///< min time between WQEs: 1 / 215 M msg/s (§13)
    bytes_t mtu{4096};                      ///< path MTU, payload bytes per packet
    uint32_t ack_coalesce = 16;             ///< responder ACKs every N packets (and each last)
    time_ps_t ack_timeout{67'108'864'000};  ///< RC local ACK timeout 4.096 us x 2^14 (§13)
    uint32_t retry_count = 7;               ///< RC retries before the QP errors out (§13)
    uint32_t sl = 0;                        ///< service level of RDMA traffic
    uint32_t max_outstanding = 1024;        ///< unacknowledged packets per QP
};

/// Fault injection.
struct fault_config {
    double icrc_error_rate = 0.0;  ///< probability a packet arrives at an HCA with a bad ICRC
};

/// Host-side collective engine.
struct collective_config {
    bytes_t chunk{1 << 20};  ///< pipelining unit of ring/tree algorithms (NCCL-like)
};

/// SHARP in-network reduction (docs/domain.md §7).
struct sharp_config {
    uint32_t vl = 1;                   ///< VL of SHARP traffic (§13: VL1 SHARP/priority)
    bytes_t ost_bytes{2048};           ///< payload per OST (§7: 2048 B on Quantum)
    uint32_t osts = 256;               ///< OSTs per aggregation node (*choice*)
    uint32_t osts_per_tree = 64;       ///< OSTs one tree may hold per node (host window)
    bytes_t sat_threshold{16 * 1024};  ///< larger messages use streaming aggregation (§7)
    bytes_t sat_chunk{4096};           ///< SAT chunk payload (one MTU packet)
    uint32_t max_trees = 511;          ///< trees per subnet (§7: <= 511 LLT)
    time_ps_t alu_latency{50'000};     ///< ALU pipeline latency per reduction (*choice*)
    std::string data = "auto";         ///< carry real values: on|off|auto (auto: <= 1 MiB)
};

/// Priority flow control (IEEE 802.1Qbb), fabric.technology = roce (docs/roce.md).
struct pfc_config {
    bool enabled = true;               ///< false: no PAUSE (an overflow is then an error)
    time_ps_t reaction_time{500'000};  ///< PAUSE received -> sender stops (MAC/PHY), *soft*
    bytes_t xon_gap{8 * 1024};         ///< XON = XOFF - xon_gap (hysteresis), *choice*
};

/// ECN marking at the switch egress (RED-like), fabric.technology = roce.
struct ecn_config {
    bool enabled = true;
    bytes_t kmin{150 * 1024};   ///< no marking below (NVIDIA Onyx/Cumulus RoCE default 150 KB)
    bytes_t kmax{1500 * 1024};  ///< mark every packet above (same default: 1500 KB)
    double pmax = 1.0;          ///< marking probability at Kmax (*soft*: not in the sources)
};

/// DCQCN rate control at the RoCE NIC (Zhu et al., SIGCOMM 2015), fabric.technology = roce.
/// Defaults: the NVIDIA ConnectX firmware defaults (ConnectX-4 and later), docs/roce.md.
struct dcqcn_config {
    bool enabled = true;
    double g = 5.0 / 1024;              ///< alpha gain: dce_tcp_g 1019 -> (1024 - 1019) / 1024
    time_ps_t cnp_interval{4'000'000};  ///< NP: min_time_between_cnps 4 us (*soft*)
    time_ps_t alpha_timer{1'000'000};   ///< alpha update period dce_tcp_rtt = 1 us
    time_ps_t rate_timer{300'000'000};  ///< rate-increase timer rpg_time_reset = 300 us
    bytes_t byte_counter{32767};        ///< rate-increase byte counter rpg_byte_reset (*soft*)
    uint32_t fast_recovery_steps = 1;   ///< F = rpg_threshold = 1
    rate_bps_t rate_ai{80'000'000};     ///< R_AI: rpg_ai_rate 5 Mb/s x 400G/25G (*soft*)
    rate_bps_t rate_hai{800'000'000};   ///< R_HAI: rpg_hai_rate 50 Mb/s x 400G/25G (*soft*)
    rate_bps_t min_rate{1'000'000};     ///< floor of the current rate: rpg_min_rate 1 Mb/s
};

/// Run control.
struct sim_config {
    uint64_t seed = 1;
    uint64_t warmup_cycles = 20'000;              ///< not measured
    uint64_t measure_cycles = 100'000;            ///< measurement window
    uint64_t drain_cycles = 200'000;              ///< max cycles after the window to deliver
                                                  ///< packets created in it
    bool check_invariants = true;                 ///< lossless checks every event
    time_ps_t run_time_limit{1'000'000'000'000};  ///< `ndrsim run` fails past this simulated time
    std::string level = "auto";  ///< cycle|tlm|rtl|auto: model level of every command (--level)
    uint32_t tlm_above_hosts = 1024;  ///< sim.level auto, `ndrsim run`: TLM above this
                                      ///< many hosts (0 = always cycle level)
    std::string tlm_mode = "at";      ///< TLM level: at (approximately timed) or lt
                                      ///< (loosely timed, temporal decoupling)
    time_ps_t tlm_quantum{0};         ///< lt: global quantum; 0 = the shortest link latency
    bytes_t tlm_burst{1024 * 1024};   ///< TLM `run`: payload bytes of one message per
                                      ///< transaction at most; 0 = one packet each
};

struct config {
    link_config link;
    switch_config sw;  ///< YAML section `switch`
    endpoint_config endpoint;
    traffic_config traffic;
    sim_config sim;
    fabric_config fabric;
    hca_config hca;
    fault_config fault;
    collective_config collective;
    sharp_config sharp;
    pfc_config pfc;
    ecn_config ecn;
    dcqcn_config dcqcn;
};

}  // namespace ndr::cfg
