#include "job_setup.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "common/job_placement.h"
#include "config/config_error.h"
#include "fabric_plan.h"
#include "jobs_file.h"
#include "point_runner.h"

namespace ndr::tb {

namespace {

uint32_t hcas_per_node(const cfg::config& c) {
    return c.node.hcas != 0 ? c.node.hcas : c.node.gpus;
}

/// The leaf switch of every node of a fabric of `hosts` hosts (its first HCA's switch).
std::vector<uint32_t> leaves_of_nodes(const cfg::config& c, uint32_t hosts) {
    const fabric_plan p = plan_fabric(c, hosts);
    const uint32_t hcas = hcas_per_node(c);
    std::vector<uint32_t> leaf(hosts / hcas);
    for (uint32_t n = 0; n < leaf.size(); ++n) leaf[n] = p.topo.host_attach[n * hcas].node;
    return leaf;
}

}  // namespace

job_setup prepare_jobs(const cfg::config& c, const std::vector<std::string>& traces,
                       const std::string& jobs_file) {
    std::vector<job_entry> entries;
    if (!jobs_file.empty()) {
        if (!traces.empty()) {
            throw cfg::config_error(cfg::config_source::flag("--jobs"), "",
                                    "give the traces in the jobs file or on the command line, "
                                    "not both");
        }
        entries = load_jobs_file(jobs_file);
    } else {
        for (const std::string& t : traces) entries.push_back({t, std::nullopt, 0});
    }
    job_setup s;
    s.config = c;
    const uint32_t gpus = c.node.gpus;
    const uint32_t hcas = hcas_per_node(c);
    std::vector<common::job_request> req;
    uint32_t need = 0;
    for (std::size_t j = 0; j < entries.size(); ++j) {
        const job_entry& e = entries[j];
        try {
            s.traces.push_back(trace::load_trace(e.trace));
        } catch (const trace::trace_error& err) {
            throw cfg::config_error(err.what());  // bad input: exit 2 like a bad config
        }
        const trace::trace& t = s.traces.back();
        common::job_request r;
        r.nodes = trace::nodes_of(t, gpus);
        if (e.hosts && e.hosts->size() != r.nodes) {
            throw cfg::config_error(
                cfg::config_source::file(jobs_file, e.line), fmt::format("jobs[{}].hosts", j),
                fmt::format("{} lists {} hosts but the trace {} needs {} ({} ranks)",
                            fmt::format("jobs[{}]", j), e.hosts->size(), t.path, r.nodes,
                            t.nranks));
        }
        r.fixed = e.hosts;
        need += r.nodes;
        if (e.hosts) need = std::max(need, *std::max_element(e.hosts->begin(), e.hosts->end()) + 1);
        req.push_back(std::move(r));
    }
    const uint32_t hosts = c.fabric.hosts != 0 ? c.fabric.hosts : need * hcas;
    if (hosts % hcas != 0) {
        throw cfg::config_error(
            cfg::config_source::merged(), "fabric.hosts",
            fmt::format("{} hosts are not whole nodes of {} HCAs (node.hcas)", hosts, hcas));
    }
    s.config.fabric.hosts = hosts;
    try {
        s.nodes =
            common::place_jobs(c.jobs.placement, leaves_of_nodes(s.config, hosts), req, c.sim.seed);
    } catch (const common::placement_error& e) {
        if (e.job >= 0 && !jobs_file.empty()) {
            throw cfg::config_error(
                cfg::config_source::file(jobs_file, entries[static_cast<std::size_t>(e.job)].line),
                fmt::format("jobs[{}].hosts", e.job), e.what());
        }
        throw cfg::config_error(cfg::config_source::merged(), "fabric.hosts",
                                fmt::format("{} (jobs.placement {})", e.what(), c.jobs.placement));
    }
    std::vector<const trace::trace*> ptrs;
    for (const trace::trace& t : s.traces) ptrs.push_back(&t);
    s.merged = trace::merge_traces(ptrs, s.nodes, gpus);
    for (std::size_t j = 0; j < s.traces.size(); ++j) {
        s.info.push_back({s.traces[j].path, s.traces[j].name, s.traces[j].nranks, s.nodes[j], {}});
    }
    return s;
}

void run_baselines(job_setup& s, sim_level level) {
    for (std::size_t j = 0; j < s.traces.size(); ++j) {
        const std::vector<nlohmann::json> res = run_points(
            {s.config}, 1,
            [&s, j, level](const cfg::config& c) {
                const trace::merged_trace m =
                    trace::merge_traces({&s.traces[j]}, {s.nodes[j]}, c.node.gpus);
                const run_outcome o = run_trace_at(level, c, m.t);
                const double ns = static_cast<double>(o.tm.cycle_ps) / 1000.0;
                nlohmann::json times = nlohmann::json::array();
                for (const collective_result* r : job_collectives(m, o, 0))
                    times.push_back(static_cast<double>(r->end - r->start) * ns);
                return nlohmann::json{{"span_ns", job_span_ns(m, o, 0)}, {"time_ns", times}};
            },
            true);
        rethrow_point_error(res[0], fmt::format("{} alone: ", s.traces[j].path));
        job_alone a;
        a.span_ns = res[0]["span_ns"].get<double>();
        a.time_ns = res[0]["time_ns"].get<std::vector<double>>();
        s.info[j].alone = std::move(a);
    }
}

}  // namespace ndr::tb
