// The synthetic-traffic endpoints of `ndrsim traffic --level tlm`: the TLM counterpart of
// traffic_endpoints.h (same random streams and draw order, so the stimulus is identical to the
// cycle level's: same packets, same creation cycles). One TLM device for all endpoints; per
// endpoint four sockets (see tlm/link_tlm.h for the phases): `tx` data out, `fc_in` FCCL for
// the tx VLs, `rx` data in (accepted at the header, delivered after the tail: BEGIN_RESP),
// `fc_out` FCCL of the receive buffer.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

#include "common/endpoint_stats.h"
#include "common/ib_port.h"
#include "common/rng.h"
#include "common/timing.h"
#include "common/traffic_mix.h"
#include "common/traffic_pattern.h"
#include "config/sim_config.h"
#include "golden/credit_fc.h"
#include "golden/sl2vl.h"
#include "golden/vl_arb.h"
#include "ib_extension.h"
#include "nb_sockets.h"
#include "payload_pool.h"
#include "timed_device.h"

namespace ndr::tb {

class traffic_endpoints_tlm : public tlmm::timed_device {
public:
    using target_socket = tlmm::nb_target_socket<traffic_endpoints_tlm>;
    using initiator_socket = tlmm::nb_initiator_socket<traffic_endpoints_tlm>;
    std::vector<std::unique_ptr<initiator_socket>> tx;
    std::vector<std::unique_ptr<target_socket>> fc_in;
    std::vector<std::unique_ptr<target_socket>> rx;
    std::vector<std::unique_ptr<initiator_socket>> fc_out;

    /// (cycle the first beat leaves, endpoint = switch input port, packet).
    using inject_observer = std::function<void(uint64_t, uint16_t, const tlmm::ib_extension&)>;

    traffic_endpoints_tlm(sc_core::sc_module_name name, const cfg::config& c,
                          const common::timing& tm, tlmm::run_status& status);
    /// Endpoint e is cabled to a switch port whose receive buffer holds peer_buffer_blocks per
    /// VL: the initial credits of every tx VL. Same call as traffic_endpoints::connect, without
    /// the cycle-level peer.
    void connect(uint16_t e, uint32_t peer_buffer_blocks);
    void start();
    void set_window(uint64_t start, uint64_t end);
    void set_inject_observer(inject_observer f) { observer_ = std::move(f); }
    uint64_t tagged_outstanding() const { return stats_.window_created - stats_.tagged_delivered; }
    const endpoint_stats& stats() const { return stats_; }
    std::size_t live_packets() const { return pool_.live(); }

protected:
    void on_timer(uint64_t now, const tlmm::timer& t) override;
    void evaluate(uint64_t now) override;

private:
    enum : uint8_t { T_GEN = 1, T_TXFREE, T_DELIVER, T_RXFREE, T_FC_FLUSH, T_WIN_START, T_WIN_END };
    enum : uint8_t { T_ARRIVE = DELIVERY, T_FC_ARRIVE };  ///< from the links (deliver)
    struct endpoint {
        rng gen;
        std::vector<std::deque<tlm::tlm_generic_payload*>> queues;  ///< per VL
        uint64_t tx_free = 0;
        uint32_t nonempty = 0;
        bool txfree_pending = false;
        bool tx_dirty = false;
        uint64_t queued = 0;
    };

    tlm::tlm_sync_enum tx_bw(int e, tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                             sc_core::sc_time& d);
    tlm::tlm_sync_enum fc_in_fw(int e, tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                sc_core::sc_time& d);
    tlm::tlm_sync_enum rx_fw(int e, tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                             sc_core::sc_time& d);
    tlm::tlm_sync_enum fc_out_bw(int e, tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                 sc_core::sc_time& d);
    void generate(uint64_t t, uint16_t e);
    void try_send(uint64_t t, uint16_t e);
    void mark_tx(uint16_t e);
    void deliver(uint64_t t, uint16_t e, tlm::tlm_generic_payload& gp);
    using timed_device::deliver;
    /// A packet's header arrived at endpoint e at cycle t: into the receive buffer.
    void accept(uint64_t t, uint16_t e, tlm::tlm_generic_payload& gp);

    common::timing tm_;
    uint32_t ports_;
    uint32_t vls_;
    bool check_;
    bool backlogged_;
    traffic_pattern pattern_;
    traffic_mix mix_;  ///< payload/SL mixes, wire sizes, packet rate (traffic_mix.h)
    std::vector<endpoint> eps_;
    std::vector<uint32_t> send_seq_;
    std::vector<uint32_t> recv_seq_;
    std::vector<uint16_t> tx_dirty_;
    /// The link layer of every endpoint's port (common/ib_port.h), as in traffic_endpoints.
    common::ib_ports<> link_;
    tlmm::payload_pool pool_;
    tlmm::payload_pool fc_pool_;
    inject_observer observer_;
    uint64_t next_id_ = 0;
    uint64_t win_start_ = 0;
    uint64_t win_end_ = 0;
    bool in_window_ = false;
    endpoint_stats stats_;
};

}  // namespace ndr::tb
