// SL-to-VL mapping of one switch per (input port, output port) pair (docs/domain.md §3: IBTA
// gives a switch one 16-entry SL2VL table for each such pair), SystemC-free. The switch-wide
// table (switch.sl2vl) applies to every pair; switch.sl2vl_ports overrides chosen pairs. An
// entry of 15 (VL15) means the packet is dropped at that switch.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "golden/sl2vl.h"

namespace ndr::golden {

class sl2vl_ports {
public:
    /// `base`: the table of every pair. `spec`: overrides, ';'-separated entries
    /// `IN:OUT=v0,v1,...,v15` where IN and OUT are port numbers < ports or `*` (every port),
    /// later entries overriding earlier ones, e.g. "0:1=15,15,...;*:3=0,0,...". Empty or blank
    /// = base everywhere. Throws std::invalid_argument naming the offending entry.
    static sl2vl_ports parse(const sl2vl_table& base, const std::string& spec, unsigned ports,
                             unsigned num_data_vls);
    /// The VL of SL `sl` from input `in` to output `out` (SL2VL_DROP: drop the packet).
    uint8_t vl(uint32_t in, uint32_t out, uint8_t sl) const {
        return per_pair_.empty() ? base_.vl(sl)
                                 : per_pair_[(std::size_t{in} * ports_ + out) * 16 + (sl & 0xFU)];
    }
    const sl2vl_table& base() const { return base_; }
    /// True when some pair differs from the base table.
    bool per_port() const { return !per_pair_.empty(); }

private:
    explicit sl2vl_ports(const sl2vl_table& base) : base_(base) {}
    sl2vl_table base_;
    unsigned ports_ = 0;
    std::vector<uint8_t> per_pair_;  ///< [(in * ports + out) * 16 + sl]; empty: base only
};

}  // namespace ndr::golden
