#include "nccl_tests_table.h"

#include <fmt/format.h>

namespace ndr::tb {

namespace {

/// nccl-tests' time column: %7.0f from 10 ms, %7.1f from 100 us, else %7.2f.
std::string time_text(double us) {
    if (us >= 10000.0) return fmt::format("{:7.0f}", us);
    if (us >= 100.0) return fmt::format("{:7.1f}", us);
    return fmt::format("{:7.2f}", us);
}

/// printf's %g of a whole count (what nccl-tests prints for #wrong, a double).
std::string wrong_text(uint64_t n) {
    return fmt::format("{:g}", static_cast<double>(n));
}

std::string pass_text(const nccl_tests_pass& p, uint64_t bytes, double factor) {
    const double algbw = nccl_tests_algbw(bytes, p.time_us);
    return fmt::format("  {}  {:6.2f}  {:6.2f}  {:>5}", time_text(p.time_us), algbw, algbw * factor,
                       p.wrong ? wrong_text(*p.wrong) : std::string("N/A"));
}

}  // namespace

double nccl_tests_algbw(uint64_t bytes, double time_us) {
    return time_us > 0.0 ? static_cast<double>(bytes) / 1.0e9 / (time_us * 1.0e-6) : 0.0;
}

std::string nccl_tests_header_text(const nccl_tests_header& h) {
    std::string s = fmt::format(
        "# nThread 1 nGpus {} minBytes {} maxBytes {} step: {}({}) warmup iters: {} iters: {} "
        "agg iters: 1 validation: {} graph: 0\n#\n# Using devices\n",
        h.gpus_per_node, h.min_bytes, h.max_bytes, h.step, h.step_is_factor ? "factor" : "bytes",
        h.warmup_iters, h.iters, h.check);
    // One process per node (Pid = its index), its GPUs on devices 0..g-1; the bus id is the
    // GPU's index on the node.
    for (uint32_t n = 0; n < h.nodes; ++n) {
        for (uint32_t g = 0; g < h.gpus_per_node; ++g) {
            s += fmt::format(
                "#  Rank {:2} Group {:2} Pid {:6} on {:>10} device {:2} [0x{:02x}] {}\n",
                n * h.gpus_per_node + g, 0, n, fmt::format("node{}", n), g, g, h.device);
        }
    }
    s += "#\n";
    s += fmt::format(
        "# {:>10}  {:>12}  {:>8}  {:>6}  {:>6}           out-of-place                  "
        "     in-place          \n",
        "", "", "", "", "");
    s += fmt::format(
        "# {:>10}  {:>12}  {:>8}  {:>6}  {:>6}  {:>7}  {:>6}  {:>6} {:>6}  {:>7}  "
        "{:>6}  {:>6} {:>6}\n",
        "size", "count", "type", "redop", "root", "time", "algbw", "busbw", "#wrong", "time",
        "algbw", "busbw", "#wrong");
    s += fmt::format(
        "# {:>10}  {:>12}  {:>8}  {:>6}  {:>6}  {:>7}  {:>6}  {:>6}  {:>5}  {:>7}  "
        "{:>6}  {:>6}  {:>5}\n",
        "(B)", "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)",
        "");
    return s;
}

std::string nccl_tests_row_text(const nccl_tests_row& r) {
    return fmt::format("{:12}  {:12}  {:>8}  {:>6}  {:6}", r.bytes, r.count, r.type, r.redop,
                       r.root) +
           pass_text(r.out_of_place, r.bytes, r.busbw_factor) +
           pass_text(r.in_place, r.bytes, r.busbw_factor) + "\n";
}

std::string nccl_tests_footer_text(const std::vector<nccl_tests_row>& rows) {
    uint64_t wrong = 0;
    double bw = 0.0;
    for (const nccl_tests_row& r : rows) {
        for (const nccl_tests_pass* p : {&r.out_of_place, &r.in_place}) {
            wrong += p->wrong.value_or(0);
            bw += nccl_tests_algbw(r.bytes, p->time_us) * r.busbw_factor;
        }
    }
    const double avg = rows.empty() ? 0.0 : bw / static_cast<double>(2 * rows.size());
    return fmt::format("# Out of bounds values : {} {}\n# Avg bus bandwidth    : {:g} \n#\n", wrong,
                       wrong != 0 ? "FAILED" : "OK", avg);
}

}  // namespace ndr::tb
