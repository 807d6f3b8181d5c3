#include "jobs_report.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "run_report.h"

namespace ndr::tb {

namespace {

double cycle_ns(const run_outcome& o) {
    return static_cast<double>(o.tm.cycle_ps) / 1000.0;
}

}  // namespace

std::vector<const collective_result*> job_collectives(const trace::merged_trace& m,
                                                      const run_outcome& o, uint32_t j) {
    std::vector<const collective_result*> out;
    for (const collective_result& r : o.collectives) {
        if (m.job_of_instance[r.instance] == j) out.push_back(&r);
    }
    return out;
}

double job_span_ns(const trace::merged_trace& m, const run_outcome& o, uint32_t j) {
    const std::vector<const collective_result*> rs = job_collectives(m, o, j);
    if (rs.empty()) return 0.0;
    common::cycle_t first = rs.front()->start;
    common::cycle_t last = 0;
    for (const collective_result* r : rs) {
        first = std::min(first, r->start);
        last = std::max(last, r->end);
    }
    return static_cast<double>(last - first) * cycle_ns(o);
}

void write_jobs_section(json_out& w, const trace::merged_trace& m, const run_outcome& o,
                        const std::vector<job_info>& jobs) {
    const double ns = cycle_ns(o);
    w.key("jobs");
    w.begin_array();
    for (uint32_t j = 0; j < jobs.size(); ++j) {
        const job_info& info = jobs[j];
        const trace::merged_job& mj = m.jobs[j];
        w.begin_object();
        w.field("job", j);
        w.field("trace", info.trace);
        w.field("name", info.name);
        w.field("nranks", info.nranks);
        w.key("hosts");
        w.begin_array();
        for (uint32_t h : info.hosts) w.value(h);
        w.end_array();
        w.key("collectives");
        w.begin_array();
        for (const collective_result* r : job_collectives(m, o, j)) {
            const uint32_t comm = mj.comm_ids[m.t.collectives[r->instance].comm - mj.first_comm];
            write_collective(w, m.t, *r, ns, comm);
        }
        w.end_array();
        const double span = job_span_ns(m, o, j);
        w.field("span_ns", span);
        if (info.alone) {
            w.key("alone");
            w.begin_object();
            w.field("span_ns", info.alone->span_ns);
            w.key("time_ns");
            w.begin_array();
            for (double t : info.alone->time_ns) w.value(t);
            w.end_array();
            w.end_object();
            w.field("slowdown", info.alone->span_ns > 0 ? span / info.alone->span_ns : 0.0);
        }
        w.end_object();
    }
    w.end_array();
}

std::string jobs_table(const trace::merged_trace& m, const run_outcome& o,
                       const std::vector<job_info>& jobs) {
    std::string out;
    for (uint32_t j = 0; j < jobs.size(); ++j) {
        const job_info& info = jobs[j];
        const double span = job_span_ns(m, o, j);
        out += fmt::format("job {}: {} ({} ranks) on hosts {}: {} collectives, span {:.3f} us", j,
                           info.trace, info.nranks, fmt::join(info.hosts, ","),
                           job_collectives(m, o, j).size(), span / 1000.0);
        if (info.alone && info.alone->span_ns > 0) {
            out += fmt::format(", alone {:.3f} us, slowdown {:.4f}", info.alone->span_ns / 1000.0,
                               span / info.alone->span_ns);
        }
        out += '\n';
    }
    return out;
}

}  // namespace ndr::tb
