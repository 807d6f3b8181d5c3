// Recursive doubling allreduce (Thakur, Rabenseifner, Gropp 2005; MPICH
// MPIR_Allreduce_intra_recursive_doubling), the algorithm MPI libraries use for short messages.
//
// pof2 = the largest power of two <= n, rem = n - pof2. Fold (only when rem > 0): for i < rem,
// rank 2i sends its whole buffer to rank 2i+1 (reduced there) and sits out; the pof2 remaining
// ranks get virtual ranks j (rank 2j+1 for j < rem, j + rem otherwise), as in rhd.cpp.
// Exchange, distance m = 1, 2, ..., pof2/2 (log2 pof2 steps): virtual ranks j and j^m swap
// their whole buffers. As MPI does for short (eager) messages, the sender first copies its
// working buffer [0, S) into a send buffer and the incoming data lands in a receive buffer; a
// local step then reduces the receive buffer into [0, S). Each step k has its own send buffer
// [S(2k+1), S(2k+2)) and receive buffer [S(2k+2), S(2k+3)), so no step's data can overwrite a
// region still being read. Local steps are transfers with src == dst (no network traffic):
// the copy waits for the working buffer to be current, the reduction for the data to arrive
// and for the copy (so the send never waits for its ACK, as an eager send does not).
// Unfold (only when rem > 0): rank 2i+1 sends rank 2i the result.
// Steps: log2 pof2, + 2 when n is not a power of two; every rank in the exchange sends S per
// step. Each exchange, fold and unfold is cut into chunks; chunk c of a step depends only on
// chunk c of the step before (the same byte range).
#include <vector>

#include "collective/schedule_detail.h"

namespace ndr::coll::detail {

namespace {

uint32_t pof2_of(uint32_t n) {
    uint32_t pof2 = 1;
    while (uint64_t{pof2} * 2 <= n) pof2 *= 2;
    return pof2;
}

uint32_t log2_of(uint32_t pof2) {
    uint32_t steps = 0;
    while ((uint32_t{1} << steps) < pof2) ++steps;
    return steps;
}

}  // namespace

void build_rd(const coll_params& p, schedule& s) {
    const uint32_t n = p.nranks;
    const uint32_t pof2 = pof2_of(n);
    const uint32_t rem = n - pof2;
    const uint32_t steps = log2_of(pof2);
    const uint64_t chunk = effective_chunk(p);
    const uint64_t nc = chunk_count(p.bytes, chunk);
    const byte_range all{0, p.bytes};
    s.buffer_bytes = p.bytes * (2 * uint64_t{steps} + 1);
    auto real = [&](uint32_t j) { return j < rem ? 2 * j + 1 : j + rem; };

    // last[r][c]: the transfer after which chunk c of rank r's working buffer is current.
    std::vector<std::vector<std::vector<uint32_t>>> last(n, std::vector<std::vector<uint32_t>>(nc));
    for (uint32_t i = 0; i < rem; ++i) {
        for (uint64_t c = 0; c < nc; ++c) {
            const byte_range ch = chunk_of(all, chunk, c);
            last[2 * i + 1][c] = {add_xfer(s, 2 * i, 2 * i + 1, ch, ch.offset, true, {})};
        }
    }
    std::vector<uint32_t> copied(uint64_t{pof2} * nc);  // this step: j's chunk c send copy
    std::vector<uint32_t> sent(uint64_t{pof2} * nc);    // this step: j's chunk c
    for (uint32_t k = 0; k < steps; ++k) {
        const uint32_t m = uint32_t{1} << k;
        const uint64_t send_buf = p.bytes * (2 * uint64_t{k} + 1);
        const uint64_t recv_buf = send_buf + p.bytes;
        for (uint32_t j = 0; j < pof2; ++j) {
            const uint32_t r = real(j);
            for (uint64_t c = 0; c < nc; ++c) {
                const byte_range ch = chunk_of(all, chunk, c);
                const uint64_t at = uint64_t{j} * nc + c;
                copied[at] = add_xfer(s, r, r, ch, send_buf + ch.offset, false, last[r][c]);
                sent[at] = add_xfer(s, r, real(j ^ m), byte_range{send_buf + ch.offset, ch.bytes},
                                    recv_buf + ch.offset, false, {copied[at]});
            }
        }
        for (uint32_t j = 0; j < pof2; ++j) {
            const uint32_t r = real(j);
            for (uint64_t c = 0; c < nc; ++c) {
                const byte_range ch = chunk_of(all, chunk, c);
                const byte_range in{recv_buf + ch.offset, ch.bytes};
                last[r][c] = {
                    add_xfer(s, r, r, in, ch.offset, true,
                             {sent[uint64_t{j ^ m} * nc + c], copied[uint64_t{j} * nc + c]})};
            }
        }
    }
    for (uint32_t i = 0; i < rem; ++i) {
        for (uint64_t c = 0; c < nc; ++c) {
            const byte_range ch = chunk_of(all, chunk, c);
            add_xfer(s, 2 * i + 1, 2 * i, ch, ch.offset, false, last[2 * i + 1][c]);
        }
    }
}

uint64_t rd_xfer_count(const coll_params& p) {
    const uint32_t pof2 = pof2_of(p.nranks);
    const uint64_t rem = p.nranks - pof2;
    const uint64_t per_range = 2 * rem + 3 * uint64_t{log2_of(pof2)} * pof2;
    return sat_mul(per_range, chunk_count(p.bytes, effective_chunk(p)));
}

}  // namespace ndr::coll::detail
