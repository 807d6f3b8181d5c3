// Simulation speed of the Verilated rtl/ib_switch_core (docs/performance.md): uniform random
// traffic at a given load and packet size through switch_core_bench, for one Verilated
// parameterisation chosen at compile time (NDR_SPEED_HEADER / NDR_SPEED_MODEL / NDR_SPEED_PORTS,
// block.cmake, option NDR_RTL_BENCH). Prints one JSON line:
//   {"ports": N, "cycles": C, "packets": P, "wall_s": S, "cycles_per_wall_s": ...}
// Usage: switch_core_speed_pN [CYCLES [LOAD [BLOCKS [SEED]]]]
#include NDR_SPEED_HEADER

#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <string>

#include "switch_core_bench.h"
#include "switch_core_bench_model.h"

int main(int argc, char** argv) {
    namespace v = ndr::verify;
    const uint64_t cycles = argc > 1 ? std::stoull(argv[1]) : 200000;
    const double load = argc > 2 ? std::stod(argv[2]) : 0.5;
    const auto blocks = static_cast<uint16_t>(argc > 3 ? std::stoul(argv[3]) : 5);
    const uint64_t seed = argc > 4 ? std::stoull(argv[4]) : 1;
    const v::core_geometry g{NDR_SPEED_PORTS, NDR_RTL_CORE_NUM_VLS, NDR_RTL_CORE_BUF_BLOCKS,
                             (1U << NDR_RTL_CORE_BLOCKS_W) - 1, NDR_RTL_CORE_ITERATIONS};
    v::bench_params p;
    p.seed = seed;
    p.down_blocks = 512;
    v::switch_core_bench b(std::make_unique<v::switch_core_bench_model<NDR_SPEED_MODEL>>(p, g));
    uint64_t delivered = 0;
    b.on_delivery = [&](const v::core_delivery&) { ++delivered; };
    ndr::tb::rng r(seed, 1);
    const double rate = load / blocks;
    uint64_t id = 1;
    const auto t0 = std::chrono::steady_clock::now();
    for (uint64_t t = 0; t < cycles; ++t) {
        for (uint32_t s = 0; s < g.ports; ++s) {
            if (r.uniform() >= rate) continue;
            b.push(v::core_packet{id++, t, 0, static_cast<uint16_t>(blocks * 64), blocks,
                                  static_cast<uint8_t>(s), static_cast<uint8_t>(r.below(g.ports)),
                                  0, 0});
        }
        b.step();
    }
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (b.first_mismatch()) {
        fmt::print(stderr, "mismatch: {}\n", b.first_mismatch()->what);
        return 1;
    }
    fmt::print(
        "{{\"ports\": {}, \"cycles\": {}, \"packets\": {}, \"wall_s\": {:.3f}, "
        "\"cycles_per_wall_s\": {:.0f}, \"packets_per_wall_s\": {:.0f}}}\n",
        g.ports, cycles, delivered, wall, static_cast<double>(cycles) / wall,
        static_cast<double>(delivered) / wall);
    return 0;
}
