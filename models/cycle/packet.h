// A packet as the cycle models see it: routing and accounting fields only (the bytes are the
// golden library's business and are built on demand, e.g. for captures). Packets live in a
// pool and are referred to by 32-bit index; queues are lists through the pool's compact
// `queue_link` array (next index and size), beside the packet records.
#pragma once
#include <cstdint>
#include <vector>

#include "common/packet_kind.h"
#include "cycle/event.h"

namespace ndr::cycle {

inline constexpr uint32_t NO_PACKET = 0xFFFFFFFFU;

[[noreturn]] void throw_packet_too_big(uint64_t bytes);

/// One cache line (64 bytes, aligned): a packet record is visited several times on its way
/// (source, switch input, allocation, crossbar, sink), each time after long enough to have
/// left the caches, so one line per visit instead of two matters.
struct alignas(64) packet {
    cycle_t created = 0;      ///< cycle the source created it
    cycle_t hdr_in = 0;       ///< cycle the header arrived at the current switch input
    uint32_t id = 0;          ///< per run, for messages (counts packets; wraps after 2^32)
    uint32_t flow_seq = 0;    ///< sequence number within (src, dst, vl)
    uint32_t psn = 0;         ///< BTH PSN (24 bits)
    uint32_t msg = 0;         ///< HCA message it belongs to
    uint32_t index = 0;       ///< packet index within the message
    uint32_t qp = 0;          ///< HCA queue pair (the sender's; for ACK/NAK the acked QP)
    uint16_t wire_bytes = 0;  ///< LRH..VCRC (set through packet_bytes(): at most 65535)
    uint16_t payload_bytes = 0;
    uint16_t blocks = 0;   ///< 64-byte credit blocks
    uint16_t beats = 0;    ///< datapath beats = cycles on the wire
    uint16_t src = 0;      ///< source endpoint
    uint16_t dst = 0;      ///< destination endpoint (DLID = dst + 1)
    uint8_t sl = 0;        ///< service level (end to end)
    uint8_t vl = 0;        ///< VL on the link it is currently on / buffered from
    uint8_t out_vl = 0;    ///< VL on the switch's output link (set by routing)
    uint8_t out_port = 0;  ///< switch output port (set by routing)
    uint8_t tagged = 0;    ///< created inside the measurement window
    uint8_t live = 0;      ///< allocated (not freed)
    uint8_t in_port = 0;   ///< switch input port it arrived on
    uint8_t kind = 0;      ///< common::packet_kind: data, read request/response, ACK, NAK, ...
    uint8_t opcode = 0;    ///< BTH opcode (golden/opcode.h)
    uint8_t ecn_ce = 0;    ///< RoCE: IPv4 ECN Congestion Experienced (set by a switch)
    uint8_t ack_req = 0;   ///< RC data: the requester asks for an ACK (golden::rc_ack_req)
    uint8_t fecn = 0;      ///< InfiniBand BTH FECN (set by a switch, cc.enabled)
};
static_assert(sizeof(packet) == 64, "a packet record is one cache line");

/// A packet size in bytes as packet::wire_bytes / payload_bytes hold it; larger is a
/// std::length_error (no link MTU comes near it).
inline uint16_t packet_bytes(uint64_t bytes) {
    if (bytes > 0xFFFF) throw_packet_too_big(bytes);
    return static_cast<uint16_t>(bytes);
}

/// What a queue needs of a queued packet, kept apart from the packet records: a switch's VOQs
/// hold tens of thousands of packets, and linking or looking at a queue head then touches this
/// 8-byte entry (the array stays in cache) instead of a long-cold packet record.
struct queue_link {
    uint32_t next = NO_PACKET;  ///< next packet in the queue it is in
    uint16_t blocks = 0;        ///< packet::blocks when it was queued
    uint16_t beats = 0;         ///< packet::beats when it was queued
};

/// Owns every packet of a simulation. alloc/free are O(1); freeing twice is an invariant error.
class packet_pool {
public:
    /// Inline: one call per packet on the hot path; errors and growth are out of line.
    uint32_t alloc() {
        if (live_ >= limit_ || free_.empty()) return alloc_slow();
        const uint32_t idx = free_.back();
        free_.pop_back();
        packet& p = pkts_[idx];
        p = packet{};
        p.live = 1;
        ++live_;
        return idx;
    }
    void free(uint32_t idx) {
        packet& p = pkts_[idx];
        if (p.live == 0) throw_double_free(idx);
        p.live = 0;
        free_.push_back(idx);
        --live_;
    }
    packet& operator[](uint32_t idx) { return pkts_[idx]; }
    queue_link& link(uint32_t idx) { return links_[idx]; }
    const queue_link& link(uint32_t idx) const { return links_[idx]; }
    /// Hint: packet idx will be used soon (its cache line). No effect on results.
    void prefetch(uint32_t idx) const { __builtin_prefetch(pkts_.data() + idx); }
    const packet& operator[](uint32_t idx) const { return pkts_[idx]; }
    std::size_t live() const { return live_; }
    std::size_t capacity() const { return pkts_.size(); }
    /// Upper bound on live packets (source queues of an overloaded run grow without bound).
    void set_limit(std::size_t limit) { limit_ = limit; }

private:
    uint32_t alloc_slow();
    [[noreturn]] void throw_double_free(uint32_t idx) const;
    std::vector<packet> pkts_;
    std::vector<queue_link> links_;  ///< [idx], as pkts_
    std::vector<uint32_t> free_;
    std::size_t live_ = 0;
    std::size_t limit_ = 64'000'000;
};

/// FIFO of packets threaded through the pool's queue links. Two words.
struct packet_queue {
    uint32_t head = NO_PACKET;
    uint32_t tail = NO_PACKET;
    bool empty() const { return head == NO_PACKET; }
    /// Appends packet idx; its link records its size (packet::blocks and beats) as of now.
    void push(packet_pool& pool, uint32_t idx) {
        const packet& p = pool[idx];
        pool.link(idx) = queue_link{NO_PACKET, p.blocks, p.beats};
        if (tail == NO_PACKET) {
            head = idx;
        } else {
            pool.link(tail).next = idx;
        }
        tail = idx;
    }
    uint32_t pop(packet_pool& pool) {
        const uint32_t idx = head;
        queue_link& l = pool.link(idx);
        head = l.next;
        if (head == NO_PACKET) tail = NO_PACKET;
        l.next = NO_PACKET;
        return idx;
    }
};

}  // namespace ndr::cycle
