// What a packet is, for the models that treat kinds differently: cycle::packet::kind and
// tlmm::ib_extension::kind hold one of these at both levels. SystemC-free.
#pragma once
#include <cstdint>

namespace ndr::common {

enum packet_kind : uint8_t {
    PK_DATA = 0,    ///< RC data (RDMA WRITE / SEND) or synthetic traffic
    PK_READ_REQ,    ///< RC RDMA READ request
    PK_READ_RESP,   ///< RC RDMA READ response
    PK_ACK,         ///< RC ACK
    PK_NAK,         ///< RC NAK (PSN sequence error)
    PK_SHARP_UP,    ///< SHARP aggregation packet towards the tree root (msg = tree, index = chunk)
    PK_SHARP_DOWN,  ///< SHARP result packet towards the hosts
    PK_CNP,         ///< RoCE congestion notification packet (DCQCN), qp = the flow's QP
};

}  // namespace ndr::common
