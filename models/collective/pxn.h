// PXN (PCI x NVLink, NCCL 2.12+, NCCL_PXN_DISABLE=0 by default; docs/domain.md §13 "PXN"): a
// GPU whose NIC is not on the rail of the destination's NIC hands the data over NVLink to the
// GPU of its node whose NIC is on that rail, and that GPU's NIC sends it, so the traffic stays
// in one rail of a rail-optimized fabric. A transform of a built schedule (alltoall, send,
// recv), the same at every level. SystemC-free.
#pragma once
#include <cstdint>
#include <vector>

#include "collective/schedule.h"

namespace ndr::coll {

/// Where one rank of a schedule sits: its node and the rail (local NIC index) of its NIC.
struct pxn_rank {
    uint32_t node = 0;
    uint32_t rail = 0;
};

/// Rewrites every transfer of `s` that crosses nodes from a rank whose rail differs from the
/// destination's into pieces of at most one chunk (s.params.chunk_bytes, as the builders cut
/// theirs; a send's one transfer too), each two transfers: the NVLink hop from the sender into
/// a staging area of the relay (the pieces' hops in order, each after the previous one's
/// arrival), the relay being the first rank of `ranks` on the sender's node whose rail is the
/// destination's; then the relay's send from there to the destination (it waits for its
/// hop's arrival; what waited for the original transfer waits for every piece's send).
/// `ranks` holds the schedule's ranks (s.params.nranks entries) and may go on with relay
/// candidates outside the communicator (send and recv: the other GPUs of the communicator); a
/// candidate used makes s.relay_ranks ranks.size() - nranks. A transfer with no relay on its
/// node is left as it is. Every piece gets its own staging range at its relay, after the
/// schedule's buffer (buffer_bytes grows by the most one rank stages). Returns the number of
/// relay sends (pieces). Throws std::invalid_argument if `ranks` has fewer entries than the
/// schedule's ranks.
uint64_t apply_pxn(schedule& s, const std::vector<pxn_rank>& ranks);

}  // namespace ndr::coll
