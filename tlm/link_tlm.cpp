#include "link_tlm.h"

#include <fmt/format.h>

#include <stdexcept>

#include "common/invariant_error.h"
#include "ib_extension.h"

namespace ndr::tlmm {

link_tlm::link_tlm(sc_core::sc_module_name name, uint32_t link_cycles, uint64_t cycle_ps,
                   run_status& status)
    : sc_core::sc_module(name),
      tx("tx"),
      rx("rx"),
      fc_in("fc_in"),
      fc_out("fc_out"),
      latency_(sc_core::sc_time(static_cast<double>(cycle_ps * link_cycles), sc_core::SC_PS)),
      beat_(sc_core::sc_time(static_cast<double>(cycle_ps), sc_core::SC_PS)),
      status_(status) {
    if (link_cycles == 0) throw std::invalid_argument("link_tlm: link_cycles must be >= 1");
    tx.register_nb_transport_fw(this, &link_tlm::tx_fw);
    rx.register_nb_transport_bw(this, &link_tlm::rx_bw);
    fc_in.register_nb_transport_fw(this, &link_tlm::fc_fw);
    fc_out.register_nb_transport_bw(this, &link_tlm::fc_bw);
}

void link_tlm::fail(std::exception_ptr e) {
    if (!status_.error) status_.error = e;
    sc_core::sc_stop();
}

tlm::tlm_sync_enum link_tlm::tx_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                   sc_core::sc_time& d) {
    if (ph != tlm::BEGIN_REQ) {
        // END_RESP is never sent: senders complete responses with TLM_COMPLETED.
        throw std::logic_error(fmt::format("{}: unexpected phase on tx", name()));
    }
    const sc_core::sc_time start = sc_core::sc_time_stamp() + d;
    const ib_extension& e = ib_of(gp);
    if (e.express) {
        // Between the packets of the burst on the wire: no wire time of its own (ib_extension).
    } else if (start < busy_until_) {
        fail(std::make_exception_ptr(common::invariant_error(fmt::format(
            "{}: packet {} sent at {} while the wire is busy until {} (serialisation overrun)",
            name(), e.id, start.to_string(), busy_until_.to_string()))));
        return tlm::TLM_COMPLETED;
    }
    const sc_core::sc_time ser = beat_ * static_cast<double>(e.beats);
    if (!e.express) busy_until_ = start + ser;
    ++packets_;
    // Straight to the receiver with the arrival annotated: it files the header's arrival in
    // its calendar (timed_device::deliver), so no event of the link's own per packet.
    tlm::tlm_phase p = tlm::BEGIN_REQ;
    sc_core::sc_time at = d + latency_;
    const tlm::tlm_sync_enum r = rx->nb_transport_fw(gp, p, at);
    if (r != tlm::TLM_UPDATED || p != tlm::END_REQ) {
        fail(std::make_exception_ptr(std::logic_error(
            fmt::format("{}: receiver did not accept a packet at its header", name()))));
    }
    ph = tlm::END_REQ;
    d += ser;
    return tlm::TLM_UPDATED;
}

tlm::tlm_sync_enum link_tlm::rx_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                   sc_core::sc_time& d) {
    if (ph != tlm::BEGIN_RESP) {
        throw std::logic_error(fmt::format("{}: unexpected backward phase on rx", name()));
    }
    // The receiver is done with the packet: complete the sender's transaction.
    tlm::tlm_phase p = tlm::BEGIN_RESP;
    const tlm::tlm_sync_enum r = tx->nb_transport_bw(gp, p, d);
    if (r != tlm::TLM_COMPLETED) {
        throw std::logic_error(fmt::format("{}: sender must complete BEGIN_RESP", name()));
    }
    return tlm::TLM_COMPLETED;
}

tlm::tlm_sync_enum link_tlm::fc_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                   sc_core::sc_time& d) {
    if (ph != tlm::BEGIN_REQ) {
        throw std::logic_error(fmt::format("{}: unexpected phase on fc_in", name()));
    }
    tlm::tlm_phase p = ph;
    sc_core::sc_time at = d + latency_;
    fc_out->nb_transport_fw(gp, p, at);
    return tlm::TLM_COMPLETED;
}

tlm::tlm_sync_enum link_tlm::fc_bw(tlm::tlm_generic_payload&, tlm::tlm_phase&, sc_core::sc_time&) {
    throw std::logic_error("link_tlm: FC packets complete on the forward call");
}

}  // namespace ndr::tlmm
