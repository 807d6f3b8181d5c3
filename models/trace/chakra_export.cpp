// A trace as Chakra execution traces (chakra_export.h).
#include "trace/chakra_export.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>

#include "chakra_et.pb.h"
#include "trace/et_stream.h"

namespace ndr::trace {

namespace pb = ndr::chakra_et;

namespace {

pb::CollectiveCommType comm_type(coll::op_kind op) {
    switch (op) {
        case coll::op_kind::allreduce:
            return pb::ALL_REDUCE;
        case coll::op_kind::reduce:
            return pb::REDUCE;
        case coll::op_kind::allgather:
            return pb::ALL_GATHER;
        case coll::op_kind::broadcast:
            return pb::BROADCAST;
        case coll::op_kind::alltoall:
            return pb::ALL_TO_ALL;
        case coll::op_kind::reduce_scatter:
            return pb::REDUCE_SCATTER;
        default:
            return pb::BARRIER;
    }
}

void add_int(pb::Node& n, const std::string& name, int64_t v) {
    pb::AttributeProto* a = n.add_attr();
    a->set_name(name);
    a->set_int64_val(v);
}

void add_int32(pb::Node& n, const std::string& name, int32_t v) {
    pb::AttributeProto* a = n.add_attr();
    a->set_name(name);
    a->set_int32_val(v);
}

}  // namespace

chakra_export to_chakra(const trace& t) {
    chakra_export res;
    res.files.resize(t.nranks);
    pb::GlobalMetadata meta;
    meta.set_version("1.0.0");
    for (std::string& f : res.files) et_stream::append_framed(f, meta.SerializeAsString());

    std::vector<const op_record*> prev(t.nranks, nullptr);
    for (const op_record& r : t.records) {
        pb::Node n;
        n.set_id(r.id);
        if (!r.deps.empty()) {
            for (uint32_t d : r.deps) n.add_data_deps(d);
        } else if (!r.issue_ns && prev[r.rank] != nullptr) {
            n.add_data_deps(prev[r.rank]->id);  // the implicit previous-record dependency
        }
        if (r.gap_ns != 0 || r.issue_ns.value_or(0) != 0) ++res.dropped_gaps;
        prev[r.rank] = &r;
        pb::AttributeProto* cpu = n.add_attr();
        cpu->set_name("is_cpu_op");
        cpu->set_bool_val(false);
        if (r.compute) {
            n.set_name("compute");
            n.set_type(pb::COMP_NODE);
            n.set_duration_micros((r.duration_ns + 500) / 1000);
            if (r.duration_ns % 1000 != 0) ++res.rounded_durations;
        } else {
            const communicator& c =
                *std::find_if(t.comms.begin(), t.comms.end(),
                              [&](const communicator& x) { return x.id == r.comm; });
            const auto n_members = static_cast<uint32_t>(c.ranks.size());
            const uint64_t bytes = collective_bytes(r.op, r.count, r.dt, n_members);
            n.set_name(fmt::format("{} comm {} seq {}", coll::name(r.op), r.comm, r.seq));
            if (r.op == coll::op_kind::rdma_write || r.op == coll::op_kind::rdma_read) {
                throw trace_error(
                    fmt::format("{}:{}: op: {} has no Chakra node type (export "
                                "maps collectives, send/recv and compute)",
                                t.path, r.line, coll::name(r.op)));
            }
            if (is_point_to_point(r.op)) {
                const bool send = r.op == coll::op_kind::send;
                const auto self = static_cast<int32_t>(r.rank);
                const auto peer = static_cast<int32_t>(c.ranks[r.root]);
                n.set_type(send ? pb::COMM_SEND_NODE : pb::COMM_RECV_NODE);
                add_int32(n, "comm_src", send ? self : peer);
                add_int32(n, "comm_dst", send ? peer : self);
                add_int32(n, "comm_tag", static_cast<int32_t>(r.seq & 0x7fffffff));
                add_int(n, "comm_size", static_cast<int64_t>(bytes));
            } else {
                n.set_type(pb::COMM_COLL_NODE);
                add_int(n, "comm_type", comm_type(r.op));
                // comm_size: each rank's input buffer, S except allgather's S / n
                const uint64_t input = r.op == coll::op_kind::allgather ? bytes / n_members : bytes;
                add_int(n, "comm_size", static_cast<int64_t>(input));
                bool world = c.ranks.size() == t.nranks;
                for (std::size_t i = 0; world && i < c.ranks.size(); ++i) world = c.ranks[i] == i;
                if (!world) {
                    pb::AttributeProto* pg = n.add_attr();
                    pg->set_name("pg_name");
                    pg->set_string_val(fmt::format("ndrsim_comm_{}", r.comm));
                }
                if (has_root(r.op)) add_int(n, "comm_root", r.root);
            }
        }
        et_stream::append_framed(res.files[r.rank], n.SerializeAsString());
        ++res.nodes;
    }
    return res;
}

chakra_export write_chakra(const trace& t, const std::string& prefix) {
    chakra_export res = to_chakra(t);
    for (std::size_t r = 0; r < res.files.size(); ++r) {
        const std::string path = fmt::format("{}.{}.et", prefix, r);
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out << res.files[r];
        out.close();
        if (!out) throw trace_error(fmt::format("{}: cannot write the file", path));
        res.files[r] = path;
    }
    return res;
}

}  // namespace ndr::trace
