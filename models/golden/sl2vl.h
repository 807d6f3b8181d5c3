// SL-to-VL mapping table: 16 four-bit entries (docs/domain.md §3), SystemC-free.
#pragma once
#include <array>
#include <cstdint>
#include <string>

namespace ndr::golden {

inline constexpr uint8_t SL2VL_DROP = 15;  ///< SL2VL entry value meaning "drop the packet"

class sl2vl_table {
public:
    /// Default for n data VLs: SL s -> VL (s mod n). Throws std::invalid_argument unless
    /// 1 <= num_data_vls <= 15.
    static sl2vl_table modulo(unsigned num_data_vls);
    /// Parses 16 comma-separated VLs, entry i = VL for SL i, e.g.
    /// "0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,15". Whitespace around entries is ignored; an empty (or
    /// all-blank) string = modulo(n). The result is validate()d against num_data_vls. Throws
    /// std::invalid_argument naming the offending token / SL, or the entry count if it is not
    /// exactly 16.
    static sl2vl_table parse(const std::string& csv, unsigned num_data_vls);
    explicit sl2vl_table(std::array<uint8_t, 16> map) : map_(map) {}
    uint8_t vl(uint8_t sl) const { return map_[sl & 0xF]; }
    /// Throws std::invalid_argument if an entry maps to a VL >= num_data_vls (other than 15,
    /// which IB uses to mean "drop"), or unless 1 <= num_data_vls <= 15.
    void validate(unsigned num_data_vls) const;
    const std::array<uint8_t, 16>& entries() const { return map_; }

private:
    std::array<uint8_t, 16> map_;
};

}  // namespace ndr::golden
