// Lean TLM-2.0 sockets for the models' non-blocking base protocol: a tlm_target_socket /
// tlm_initiator_socket (32-bit bus width, tlm_base_protocol_types) that is its own transport
// interface and forwards nb_transport to one member function of its owner, optionally with an
// id (the tagged form). They replace tlm_utils::simple_target_socket(_tagged) and
// simple_initiator_socket(_tagged), whose b_transport-to-nb_transport adapter gives every
// target socket a payload event queue and unnamed sc_events: SystemC named each of them with a
// stringstream, about a third of building a 1,024-GPU TLM fabric (docs/performance.md, session
// 19). The models speak nb_transport only: b_transport is an error, DMI and debug transport
// are not offered. Any other TLM-2.0 socket of the base protocol binds to these as usual.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

#include <systemc>
#include <tlm>

namespace ndr::tlmm {

/// The member function of M one socket forwards nb_transport to, with its id in the tagged
/// form; both socket kinds hold one.
template <typename M>
class nb_callback {
public:
    using tagged_fn = tlm::tlm_sync_enum (M::*)(int, tlm::tlm_generic_payload&, tlm::tlm_phase&,
                                                sc_core::sc_time&);
    using plain_fn = tlm::tlm_sync_enum (M::*)(tlm::tlm_generic_payload&, tlm::tlm_phase&,
                                               sc_core::sc_time&);
    void set(M* owner, tagged_fn fn, int id) {
        owner_ = owner;
        tagged_ = fn;
        id_ = id;
    }
    void set(M* owner, plain_fn fn) {
        owner_ = owner;
        plain_ = fn;
    }
    /// Calls the registered function; `socket` and `what` name the socket and the call in the
    /// error when none was registered.
    tlm::tlm_sync_enum operator()(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                  sc_core::sc_time& d, const char* socket, const char* what) {
        if (tagged_ != nullptr) return (owner_->*tagged_)(id_, gp, ph, d);
        if (plain_ != nullptr) return (owner_->*plain_)(gp, ph, d);
        throw std::logic_error(std::string(socket) + ": no " + what + " registered");
    }

private:
    M* owner_ = nullptr;
    tagged_fn tagged_ = nullptr;
    plain_fn plain_ = nullptr;
    int id_ = 0;
};

template <typename M>
class nb_target_socket final : public tlm::tlm_target_socket<32>,
                               private tlm::tlm_fw_transport_if<> {
public:
    explicit nb_target_socket(const char* name) : tlm::tlm_target_socket<32>(name) {
        tlm::tlm_target_socket<32>::bind(static_cast<tlm::tlm_fw_transport_if<>&>(*this));
    }
    void register_nb_transport_fw(M* owner, typename nb_callback<M>::tagged_fn fn, int id) {
        fw_.set(owner, fn, id);
    }
    void register_nb_transport_fw(M* owner, typename nb_callback<M>::plain_fn fn) {
        fw_.set(owner, fn);
    }

private:
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                       sc_core::sc_time& d) override {
        return fw_(gp, ph, d, name(), "nb_transport_fw");
    }
    void b_transport(tlm::tlm_generic_payload&, sc_core::sc_time&) override {
        throw std::logic_error(std::string(name()) +
                               ": b_transport is not supported (nb_transport only)");
    }
    bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
    unsigned int transport_dbg(tlm::tlm_generic_payload&) override { return 0; }

    nb_callback<M> fw_;
};

template <typename M>
class nb_initiator_socket final : public tlm::tlm_initiator_socket<32>,
                                  private tlm::tlm_bw_transport_if<> {
public:
    explicit nb_initiator_socket(const char* name) : tlm::tlm_initiator_socket<32>(name) {
        tlm::tlm_initiator_socket<32>::bind(static_cast<tlm::tlm_bw_transport_if<>&>(*this));
    }
    void register_nb_transport_bw(M* owner, typename nb_callback<M>::tagged_fn fn, int id) {
        bw_.set(owner, fn, id);
    }
    void register_nb_transport_bw(M* owner, typename nb_callback<M>::plain_fn fn) {
        bw_.set(owner, fn);
    }

private:
    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                       sc_core::sc_time& d) override {
        return bw_(gp, ph, d, name(), "nb_transport_bw");
    }
    void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}

    nb_callback<M> bw_;
};

}  // namespace ndr::tlmm
