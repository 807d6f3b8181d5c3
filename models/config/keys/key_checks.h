// Internal to models/config: the value checks and range texts that the section rows
// (keys/SECTION_keys.h) name. Light on purpose: every section header includes it, and through
// sim_config.h most of the project does; the builders that turn rows into keys are in
// key_builders.h, included only where the registry is built (config_schema.cpp).
#pragma once
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace ndr::cfg::detail {

/// A single-field check on the raw value: "" = valid, else the reason.
template <class V>
using checker = std::function<std::string(V)>;

/// Bounds of a real key; `text` is how the range prints, e.g. `0 < x <= 1`.
struct real_bounds {
    double lo;
    bool lo_inclusive;
    double hi;
    bool hi_inclusive;
    std::string text;
};

inline constexpr uint64_t U32_MAX = std::numeric_limits<uint32_t>::max();
inline constexpr uint64_t U64_MAX = std::numeric_limits<uint64_t>::max();

// Value checks shared by several sections.

/// "must be > 0" for 0.
std::string positive(uint64_t v);
/// A cable: at most 100 km (longer than any InfiniBand link; keeps mm x ps/m products in range).
std::string cable(uint64_t mm);
inline constexpr const char* CABLE_RANGE = "0..100km";
/// A latency or interval of the model: at most 1 s (whole-cycle conversions stay in range).
std::string latency(uint64_t ps);
inline constexpr const char* LATENCY_RANGE = "0..1s";
/// A cycle count of the run: at most 10^15 (about 15 days simulated at 1.28 ns; the warm-up,
/// window and drain then add up without overflow).
inline constexpr uint64_t MAX_RUN_CYCLES = 1'000'000'000'000'000ULL;
/// One of the listed values (e.g. MTUs), printed with `unit`.
checker<uint64_t> one_of(std::vector<uint64_t> allowed, std::string unit);
/// A credit-managed buffer: whole 64-byte blocks, at most 2048 blocks outstanding per VL
/// (docs/domain.md §2.2). The lower bound (one MTU packet) is a cross-field check in validate().
std::string credit_buffer(uint64_t v);
/// The range text of a credit-managed buffer (switch.buffer_per_vl, endpoint.rx_buffer_per_vl).
inline constexpr const char* CREDIT_RANGE = ">= 1 MTU packet, <= 128KiB, multiple of 64B";
/// A weighted list `N` or `N@w,...` with every value in lo..hi (weighted_list.h).
checker<const std::string&> weighted(uint64_t lo, uint64_t hi);

}  // namespace ndr::cfg::detail
