#include "trace/trace_merge.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <stdexcept>

namespace ndr::trace {

uint32_t nodes_of(const trace& t, uint32_t gpus) {
    if (t.placement.empty()) return (t.nranks + gpus - 1) / gpus;
    uint32_t n = 0;
    for (const auto& p : t.placement) n = std::max(n, p[0] + 1);
    return n;
}

merged_trace merge_traces(const std::vector<const trace*>& jobs,
                          const std::vector<std::vector<uint32_t>>& nodes, uint32_t gpus) {
    if (jobs.empty() || jobs.size() != nodes.size())
        throw std::invalid_argument("merge_traces: one node list per job");
    merged_trace m;
    trace& out = m.t;
    out.name = "jobs";
    for (std::size_t j = 0; j < jobs.size(); ++j) {
        const trace& in = *jobs[j];
        const std::vector<uint32_t>& mine = nodes[j];
        if (mine.size() != nodes_of(in, gpus)) {
            throw std::invalid_argument(fmt::format("merge_traces: job {} needs {} nodes, got {}",
                                                    j, nodes_of(in, gpus), mine.size()));
        }
        out.path += (j == 0 ? "" : "+") + in.path;
        const uint32_t rank0 = out.nranks;
        const auto comm0 = static_cast<uint32_t>(out.comms.size());
        const auto rec0 = static_cast<uint32_t>(out.records.size());
        merged_job mj{rank0, comm0, static_cast<uint32_t>(in.comms.size()), {}};
        for (const communicator& c : in.comms) mj.comm_ids.push_back(c.id);
        m.jobs.push_back(std::move(mj));
        for (uint32_t r = 0; r < in.nranks; ++r) {
            const std::array<uint32_t, 2> p = in.placement.empty()
                                                  ? std::array<uint32_t, 2>{r / gpus, r % gpus}
                                                  : in.placement[r];
            out.placement.push_back({mine[p[0]], p[1]});
        }
        out.nranks += in.nranks;
        std::map<uint32_t, uint32_t> new_id;  // the job's comm id -> merged id
        for (const communicator& c : in.comms) {
            communicator n{static_cast<uint32_t>(out.comms.size()), c.ranks};
            for (uint32_t& r : n.ranks) r += rank0;
            new_id[c.id] = n.id;
            out.comms.push_back(std::move(n));
        }
        for (op_record r : in.records) {
            r.rank += rank0;
            if (!r.compute) r.comm = new_id.at(r.comm);
            out.records.push_back(std::move(r));
        }
        for (collective_instance ci : in.collectives) {
            ci.comm = new_id.at(ci.comm);
            for (uint32_t& r : ci.ranks) r += rank0;
            for (uint32_t& x : ci.records) {
                if (x != UINT32_MAX) x += rec0;
            }
            out.collectives.push_back(std::move(ci));
            m.job_of_instance.push_back(static_cast<uint32_t>(j));
        }
    }
    return m;
}

}  // namespace ndr::trace
