// The IB packet as a TLM-2.0 transaction: a tlm_generic_payload (command WRITE, address = DLID,
// data_length = wire bytes, no data pointer: the bytes are the golden library's business, as in
// the cycle models) with this extension carrying the fields every model and the scoreboard use.
// One extension per pooled payload (ib_payload: embedded), attached once and never removed.
#pragma once
#include <cstdint>
#include <typeinfo>

#include <tlm>

namespace ndr::tlmm {

/// Identity and accounting of one IB data packet. Fields in `hop` are scratch written by the
/// device currently holding the packet; the scoreboard compares only the identity fields.
struct ib_extension : tlm::tlm_extension<ib_extension> {
    uint64_t id = 0;          ///< unique per run, in creation order
    uint64_t created = 0;     ///< creation time, in cycles (beats) of the shared timing
    uint32_t flow_seq = 0;    ///< sequence number within (src, dst, SL)
    uint32_t wire_bytes = 0;  ///< LRH..VCRC
    uint32_t payload_bytes = 0;
    uint16_t blocks = 0;  ///< 64-byte credit blocks (a burst: its credit charge)
    uint32_t beats = 0;   ///< datapath beats = cycles on the wire (a burst: first beat of
                          ///< its first packet to last beat of its last packet)
    uint16_t src = 0;     ///< source endpoint (SLID = src + 1)
    uint16_t dst = 0;     ///< destination endpoint (DLID = dst + 1)
    uint8_t sl = 0;       ///< service level, end to end
    uint8_t vl = 0;       ///< VL on the link the packet is currently on
    bool tagged = false;  ///< created inside the measurement window
    /// Transport fields of `ndrsim run` (HCA and SHARP packets; 0 for synthetic traffic).
    /// kind: common::packet_kind (PK_DATA, PK_ACK, PK_SHARP_UP, ...). For SHARP packets, as in
    /// the cycle model: msg = tree, index = chunk, psn = root host, qp = payload slot.
    uint8_t kind = 0;
    uint8_t opcode = 0;  ///< BTH opcode (golden/opcode.h)
    uint32_t qp = 0;     ///< sending QP (data) or acknowledged QP (ACK/NAK)
    uint32_t psn = 0;
    uint32_t msg = 0;    ///< message index at the sending HCA
    uint32_t index = 0;  ///< packet index within its message
    /// RC data: the requester asks for an ACK (golden::rc_ack_req); on a burst, its last packet.
    bool ack_req = false;
    /// InfiniBand BTH FECN, set by a switch (cc.enabled); on a burst, marks the whole burst.
    bool fecn = false;
    /// Burst (`ndrsim run`, sim.tlm_burst): this transaction stands for `count` consecutive
    /// packets of one message (ids id.., PSNs psn.., indices index..; wire_bytes and
    /// payload_bytes are sums); pkt_beats = beats of its largest packet (egress staging).
    uint32_t count = 1;
    uint16_t pkt_beats = 0;
    uint16_t pkt_blocks = 0;  ///< blocks of its largest packet (`blocks` is the credit charge)
    /// A SHARP burst (sim.tlm_sharp_burst): payload bytes of each of its packets but the last.
    uint32_t pkt_payload = 0;
    /// Express control packet (ACKs while bursts are on): crosses busy links and crossbar
    /// ports between the packets of a burst, as an ACK slips in between packets at the cycle
    /// level; takes no wire time. `count` ACKs coalesced into one transaction.
    bool express = false;
    struct hop_state {
        uint64_t hdr_in = 0;  ///< cycle the header arrived at this device
        uint8_t in_port = 0;
        uint8_t out_port = 0;
        uint8_t out_vl = 0;
        bool part = false;  ///< a part this switch split off a burst (split_burst)
    } hop;

    tlm::tlm_extension_base* clone() const override;
    void copy_from(const tlm::tlm_extension_base& other) override;
};

/// FC packet (credit update) on the reverse path of a link: absolute FCCL for one VL.
struct fc_extension : tlm::tlm_extension<fc_extension> {
    uint8_t vl = 0;
    uint32_t fccl = 0;  ///< 12-bit absolute credit limit (golden credit_receiver::fccl)

    tlm::tlm_extension_base* clone() const override;
    void copy_from(const tlm::tlm_extension_base& other) override;
};

/// The payload payload_pool hands out: a tlm_generic_payload with its ib_extension and
/// fc_extension embedded (and attached as ordinary extensions, so any TLM-2.0 code finds them
/// with get_extension). ib_of/fc_of read the embedded ones directly: get_extension goes
/// through the payload's separately allocated extension array, two dependent cache misses
/// per packet per device on a large fabric.
struct ib_payload final : tlm::tlm_generic_payload {
    explicit ib_payload(tlm::tlm_mm_interface* mm);
    ib_payload(const ib_payload&) = delete;
    ib_payload& operator=(const ib_payload&) = delete;
    ~ib_payload() override;  // detaches the embedded extensions before the base frees the rest
    ib_extension ib;
    fc_extension fc;
};

/// The IB extension of a payload (throws std::logic_error if it has none).
ib_extension& ib_of_slow(tlm::tlm_generic_payload& gp);
fc_extension& fc_of_slow(tlm::tlm_generic_payload& gp);
inline ib_extension& ib_of(tlm::tlm_generic_payload& gp) {
    if (typeid(gp) == typeid(ib_payload)) return static_cast<ib_payload&>(gp).ib;
    return ib_of_slow(gp);
}
inline const ib_extension& ib_of(const tlm::tlm_generic_payload& gp) {
    return ib_of(const_cast<tlm::tlm_generic_payload&>(gp));
}
inline fc_extension& fc_of(tlm::tlm_generic_payload& gp) {
    if (typeid(gp) == typeid(ib_payload)) return static_cast<ib_payload&>(gp).fc;
    return fc_of_slow(gp);
}

}  // namespace ndr::tlmm
