// Point-to-point pairing of imported records (p2p_match.h).
#include "trace/p2p_match.h"

#include <map>
#include <tuple>

namespace ndr::trace {

void pair_point_to_point(std::vector<op_record>& records, const std::vector<uint64_t>& tags,
                         uint64_t first_seq) {
    using key = std::tuple<uint32_t, uint32_t, uint64_t>;  // src, dst, tag
    std::map<std::tuple<uint32_t, uint32_t, uint64_t, uint64_t>, uint64_t> pair_seq;
    std::map<std::pair<key, bool>, uint64_t> occurrence;
    for (const bool sends : {true, false}) {
        for (std::size_t i = 0; i < records.size(); ++i) {
            op_record& r = records[i];
            if (r.compute || !is_point_to_point(r.op)) continue;
            if ((r.op == coll::op_kind::send) != sends) continue;
            const uint32_t src = sends ? r.rank : r.root;
            const uint32_t dst = sends ? r.root : r.rank;
            const uint64_t k = occurrence[{key{src, dst, tags[i]}, sends}]++;
            const auto [it, fresh] = pair_seq.try_emplace({src, dst, tags[i], k}, 0);
            if (fresh) it->second = first_seq + pair_seq.size() - 1;
            r.comm = 0;
            r.seq = it->second;
        }
    }
}

}  // namespace ndr::trace
