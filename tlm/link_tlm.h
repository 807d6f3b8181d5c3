// One direction of a point-to-point IB link at TLM-2.0 level (AT, base protocol), with the FC
// packets of the opposite direction on its reverse path.
//
/// Data path: `tx` (target, from the sender) -> `rx` (initiator, to the receiver).
///   BEGIN_REQ on tx at time t = the packet's first beat leaves the sender. The link answers
///   TLM_UPDATED/END_REQ annotated with beats x cycle: the wire is busy for the packet's beats
///   (serialisation), and a BEGIN_REQ before that END_REQ time is an overrun (invariant error).
///   The link forwards BEGIN_REQ on rx at once, annotated with d + link_cycles (FEC + cable):
///   the header arrives then. The receiver must accept (TLM_UPDATED/END_REQ; IB credits
///   guarantee buffer space) and files the arrival in its calendar (timed_device::deliver).
///   BEGIN_RESP from the receiver (it is done with the packet: delivered, or read out of its
///   input buffer) is passed back to the sender unchanged and completes there (TLM_COMPLETED).
/// FC path: `fc_in` (target, from the receiver) -> `fc_out` (initiator, to the sender).
///   An FC packet (fc_extension: VL, absolute FCCL) sent at t with annotated delay d (the
///   receiver's FC processing) is forwarded at once annotated with d + link_cycles, the time it
///   reaches the sender (which files it in its calendar). Early completion:
///   fc_in returns TLM_COMPLETED; fc_out expects TLM_COMPLETED. FC packets take no wire time
///   (as in the cycle model).
// Bursts (ib_extension::count > 1) occupy the wire for their `beats`; express packets
// (ib_extension::express) ride between the packets of a burst and leave the wire state alone.
#pragma once
#include <cstdint>

#include <systemc>
#include <tlm>

#include "nb_sockets.h"

#include "timed_device.h"

namespace ndr::tlmm {

class link_tlm : public sc_core::sc_module {
public:
    nb_target_socket<link_tlm> tx;
    nb_initiator_socket<link_tlm> rx;
    nb_target_socket<link_tlm> fc_in;
    nb_initiator_socket<link_tlm> fc_out;

    /// link_cycles: first beat sent -> first beat received, >= 1 (common::timing::link_cycles).
    link_tlm(sc_core::sc_module_name name, uint32_t link_cycles, uint64_t cycle_ps,
             run_status& status);

    uint64_t packets() const { return packets_; }

private:
    tlm::tlm_sync_enum tx_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time& d);
    tlm::tlm_sync_enum rx_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time& d);
    tlm::tlm_sync_enum fc_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time& d);
    tlm::tlm_sync_enum fc_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time& d);
    void fail(std::exception_ptr e);

    sc_core::sc_time latency_;
    sc_core::sc_time beat_;
    run_status& status_;
    sc_core::sc_time busy_until_ = sc_core::SC_ZERO_TIME;
    uint64_t packets_ = 0;
};

}  // namespace ndr::tlmm
