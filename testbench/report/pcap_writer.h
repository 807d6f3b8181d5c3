// Writes a classic pcap file (https://www.tcpdump.org/manpages/pcap-savefile.5.txt) with link
// type LINKTYPE_ERF (197): every record's data is an Endace ERF header followed by the packet.
// With ERF type 21 (TYPE_INFINIBAND) Wireshark/tshark decode raw InfiniBand packets (LRH
// onwards). Layout as read by Wireshark (wiretap/erf_record.h erf_header_t,
// wiretap/pcap-common.c pcap_read_erf_pseudoheader) and libpcap (pcap-dag.c):
//
//   pcap global header, 24 bytes, little-endian:
//     magic 0xa1b23c4d (nanosecond timestamps), version 2.4, thiszone 0, sigfigs 0,
//     snaplen 65535, network 197 (LINKTYPE_ERF)
//   per packet: pcap record header, 16 bytes, little-endian:
//     ts_sec, ts_nsec (the same instant as the ERF timestamp, truncated to ns),
//     incl_len = orig_len = 16 + packet bytes
//   ERF header, 16 bytes:
//     0..7   timestamp, little-endian 64-bit fixed point: seconds in the high 32 bits, binary
//            fraction of a second in the low 32 (2^-32 s = 233 ps resolution, rounded)
//     8      type = 21 (ERF_TYPE_INFINIBAND; bit 7 = extension headers: 0)
//     9      flags: bits 1..0 capture interface (0..3; Wireshark: interface 0 = sent,
//            1 = received), bit 2 varying-length record (set: records are not padded)
//     10..11 rlen, big-endian: record length incl. this header = 16 + packet bytes
//     12..13 lctr, big-endian: loss counter = 0
//     14..15 wlen, big-endian: wire length = packet bytes (LRH through VCRC)
//   packet bytes, as on the wire.
#pragma once
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

namespace ndr::tb {

class pcap_writer {
public:
    static constexpr uint32_t PCAP_MAGIC_NS = 0xa1b23c4d;  ///< nanosecond-resolution pcap
    static constexpr uint32_t LINKTYPE_ERF = 197;
    static constexpr uint32_t SNAPLEN = 65535;  ///< bytes
    static constexpr uint8_t ERF_TYPE_INFINIBAND = 21;
    static constexpr uint8_t ERF_FLAG_VLEN = 0x04;  ///< varying-length record
    static constexpr uint32_t ERF_HEADER_BYTES = 16;

    pcap_writer() = default;
    /// Creates (truncates) `path` and writes the pcap global header. Throws std::runtime_error
    /// naming the path when it cannot be opened or written.
    explicit pcap_writer(const std::string& path) { open(path); }
    pcap_writer(const pcap_writer&) = delete;
    pcap_writer& operator=(const pcap_writer&) = delete;

    void open(const std::string& path);
    /// One record: an ERF InfiniBand record of `packet` (LRH through VCRC) that started on the
    /// wire at `time_ps` picoseconds after time 0, seen on capture interface `interface_id`
    /// (0..3). Throws std::invalid_argument for a bad interface or a packet longer than the
    /// snap length, std::runtime_error (naming the path) when the write fails or no file is open.
    void write(uint64_t time_ps, const std::vector<uint8_t>& packet, uint8_t interface_id = 0);
    /// Flushes and closes; throws std::runtime_error naming the path if that fails.
    void close();
    bool is_open() const { return out_.is_open(); }
    uint64_t records() const { return records_; }
    const std::string& path() const { return path_; }

    /// ERF timestamp of `time_ps`: seconds << 32 | round(fraction * 2^32).
    static uint64_t erf_timestamp(uint64_t time_ps);

private:
    void check(const char* what);

    std::ofstream out_;
    std::string path_;
    uint64_t records_ = 0;
};

}  // namespace ndr::tb
