#include "trace/trace_writer.h"

#include <fmt/format.h>

#include <fstream>
#include <nlohmann/json.hpp>

namespace ndr::trace {

namespace {

using ojson = nlohmann::ordered_json;

ojson record_json(const op_record& r, uint32_t index) {
    ojson j;
    if (r.compute) {
        j["type"] = "compute";
        j["rank"] = r.rank;
        j["duration_ns"] = r.duration_ns;
    } else {
        j["type"] = "op";
        j["rank"] = r.rank;
        j["comm"] = r.comm;
        j["seq"] = r.seq;
        j["op"] = std::string(coll::name(r.op));
        if (r.op != coll::op_kind::barrier) {
            j["count"] = r.count;
            j["dtype"] = std::string(coll::name(r.dt));
        }
        if (has_redop(r.op)) j["redop"] = std::string(coll::name(r.rop));
        if (has_root(r.op)) j["root"] = r.root;
        if (is_point_to_point(r.op)) j["peer"] = r.root;
        if (r.algo != coll::algo_kind::auto_) j["algo"] = std::string(coll::name(r.algo));
        if (r.proto != coll::proto_kind::auto_) j["proto"] = std::string(coll::name(r.proto));
    }
    if (r.id != index) j["id"] = r.id;
    if (!r.deps.empty()) j["deps"] = r.deps;
    if (r.gap_ns != 0) j["gap_ns"] = r.gap_ns;
    if (r.issue_ns) j["issue_ns"] = *r.issue_ns;
    return j;
}

}  // namespace

std::vector<std::string> to_json_records(const trace& t) {
    std::vector<std::string> out;
    ojson h;
    h["type"] = "header";
    h["version"] = t.version;
    h["nranks"] = t.nranks;
    if (!t.name.empty()) h["name"] = t.name;
    if (!t.placement.empty()) h["placement"] = t.placement;
    // The name may hold a file path that is not UTF-8 (an import's): replaced, not thrown.
    out.push_back(h.dump(-1, ' ', false, ojson::error_handler_t::replace));
    for (const communicator& c : t.comms) {
        ojson j;
        j["type"] = "comm";
        j["id"] = c.id;
        j["ranks"] = c.ranks;
        out.push_back(j.dump());
    }
    std::vector<uint32_t> index(t.nranks, 0);
    for (const op_record& r : t.records) {
        const uint32_t i = r.rank < index.size() ? index[r.rank]++ : 0;
        out.push_back(record_json(r, i).dump());
    }
    return out;
}

std::string to_jsonl(const trace& t, const std::vector<std::string>& comments) {
    std::string out;
    for (const std::string& c : comments) out += c.empty() ? "#\n" : "# " + c + "\n";
    for (const std::string& r : to_json_records(t)) out += r + "\n";
    return out;
}

void write_trace(const trace& t, const std::string& path,
                 const std::vector<std::string>& comments) {
    std::ofstream out(path);
    out << to_jsonl(t, comments);
    out.close();
    if (!out) throw trace_error(fmt::format("{}: cannot write the file", path));
}

}  // namespace ndr::trace
