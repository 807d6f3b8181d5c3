#include "pcap_writer.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace ndr::tb {

namespace {

constexpr uint64_t PS_PER_S = 1'000'000'000'000ULL;
/// 10^12 / 2^12: fraction * 2^32 = rem_ps * 2^32 / 10^12 = rem_ps * 2^20 / this (no overflow:
/// rem_ps < 2^40).
constexpr uint64_t PS_PER_S_OVER_4096 = 244'140'625ULL;

void put_le(std::vector<char>& b, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) b.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}
void put_be(std::vector<char>& b, uint64_t v, int bytes) {
    for (int i = bytes - 1; i >= 0; --i) b.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

}  // namespace

uint64_t pcap_writer::erf_timestamp(uint64_t time_ps) {
    uint64_t secs = time_ps / PS_PER_S;
    const uint64_t rem = time_ps % PS_PER_S;
    uint64_t frac = ((rem << 20) + PS_PER_S_OVER_4096 / 2) / PS_PER_S_OVER_4096;
    if (frac >> 32 != 0) {  // rounded up to a whole second
        frac = 0;
        ++secs;
    }
    return (secs << 32) | frac;
}

void pcap_writer::open(const std::string& path) {
    if (out_.is_open()) close();
    path_ = path;
    records_ = 0;
    out_.open(path, std::ios::binary | std::ios::trunc);
    if (!out_.is_open()) {
        throw std::runtime_error(
            fmt::format("cannot open pcap file '{}' for writing: {}", path, std::strerror(errno)));
    }
    std::vector<char> h;
    put_le(h, PCAP_MAGIC_NS, 4);
    put_le(h, 2, 2);  // version major
    put_le(h, 4, 2);  // version minor
    put_le(h, 0, 4);  // thiszone: UTC
    put_le(h, 0, 4);  // sigfigs
    put_le(h, SNAPLEN, 4);
    put_le(h, LINKTYPE_ERF, 4);
    out_.write(h.data(), static_cast<std::streamsize>(h.size()));
    check("write the header");
}

void pcap_writer::write(uint64_t time_ps, const std::vector<uint8_t>& packet,
                        uint8_t interface_id) {
    if (!out_.is_open()) {
        throw std::runtime_error(
            fmt::format("pcap file '{}': write() without an open file", path_));
    }
    if (interface_id > 3) {
        throw std::invalid_argument(fmt::format(
            "pcap file '{}': ERF capture interface {} is not 0..3", path_, interface_id));
    }
    const uint64_t rlen = ERF_HEADER_BYTES + packet.size();
    if (rlen > SNAPLEN) {
        throw std::invalid_argument(fmt::format(
            "pcap file '{}': a {}-byte packet does not fit an ERF record of at most {} bytes",
            path_, packet.size(), SNAPLEN));
    }
    std::vector<char> b;
    b.reserve(32 + packet.size());
    // pcap record header.
    put_le(b, time_ps / PS_PER_S, 4);
    put_le(b, (time_ps % PS_PER_S) / 1000, 4);
    put_le(b, rlen, 4);  // incl_len
    put_le(b, rlen, 4);  // orig_len
    // ERF header.
    put_le(b, erf_timestamp(time_ps), 8);
    b.push_back(static_cast<char>(ERF_TYPE_INFINIBAND));
    b.push_back(static_cast<char>(ERF_FLAG_VLEN | interface_id));
    put_be(b, rlen, 2);
    put_be(b, 0, 2);              // lctr
    put_be(b, packet.size(), 2);  // wlen
    b.insert(b.end(), packet.begin(), packet.end());
    out_.write(b.data(), static_cast<std::streamsize>(b.size()));
    check("write a record");
    ++records_;
}

void pcap_writer::close() {
    if (!out_.is_open()) return;
    out_.flush();
    const bool ok = static_cast<bool>(out_);
    out_.close();
    if (!ok || out_.fail()) {
        throw std::runtime_error(fmt::format("cannot finish writing pcap file '{}'", path_));
    }
}

void pcap_writer::check(const char* what) {
    if (!out_) {
        throw std::runtime_error(fmt::format("pcap file '{}': cannot {}", path_, what));
    }
}

}  // namespace ndr::tb
