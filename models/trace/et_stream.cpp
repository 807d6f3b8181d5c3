// The .et framing (et_stream.h): gunzip by magic bytes, then varint-length-prefixed messages.
#include "trace/et_stream.h"

#include <fmt/format.h>
#include <zlib.h>

#include <fstream>
#include <iterator>
#include <utility>

#include "trace/trace.h"

namespace ndr::trace {

namespace {

bool is_gzip(const std::string& b) {
    return b.size() >= 2 && static_cast<unsigned char>(b[0]) == 0x1f &&
           static_cast<unsigned char>(b[1]) == 0x8b;
}

/// The uncompressed content of a gzip file (concatenated members included).
std::string gunzip(const std::string& in, const std::string& path) {
    z_stream z{};
    if (inflateInit2(&z, 15 + 32) != Z_OK)
        throw trace_error(fmt::format("{}: gzip: cannot start zlib", path));
    std::string out;
    char buf[65536];
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    z.avail_in = static_cast<uInt>(in.size());
    int rc = Z_OK;
    for (;;) {
        z.next_out = reinterpret_cast<Bytef*>(buf);
        z.avail_out = sizeof buf;
        rc = inflate(&z, Z_NO_FLUSH);
        out.append(buf, sizeof buf - z.avail_out);
        if (out.size() > et_stream::max_file) {
            inflateEnd(&z);
            throw trace_error(fmt::format("{}: gzip: more than {} bytes uncompressed", path,
                                          et_stream::max_file));
        }
        if (rc == Z_STREAM_END) {
            if (z.avail_in == 0) break;
            if (inflateReset(&z) != Z_OK) break;  // next gzip member
            continue;
        }
        if (rc != Z_OK) break;
    }
    const std::string why = z.msg != nullptr ? z.msg : "truncated or corrupt gzip data";
    inflateEnd(&z);
    if (rc != Z_STREAM_END) throw trace_error(fmt::format("{}: gzip: {}", path, why));
    return out;
}

}  // namespace

et_stream::et_stream(std::string bytes, std::string path) : path_(std::move(path)) {
    if (bytes.size() > max_file) {
        throw trace_error(fmt::format("{}: more than {} bytes", path_, max_file));
    }
    bytes_ = is_gzip(bytes) ? gunzip(bytes, path_) : std::move(bytes);
}

et_stream et_stream::from_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw trace_error(fmt::format("{}: cannot open the file", path));
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return et_stream(std::move(bytes), path);
}

bool et_stream::next(std::string_view& message) {
    if (pos_ >= bytes_.size()) return false;
    start_ = pos_;
    ++index_;
    uint64_t len = 0;
    for (unsigned shift = 0;; shift += 7) {
        if (pos_ >= bytes_.size()) {
            throw trace_error(
                fmt::format("{}: message {} (byte {}): length: truncated varint "
                            "(the file ends inside it)",
                            path_, index(), start_));
        }
        if (shift > 28) {
            throw trace_error(
                fmt::format("{}: message {} (byte {}): length: varint longer "
                            "than 5 bytes (lengths are 32-bit)",
                            path_, index(), start_));
        }
        const auto b = static_cast<unsigned char>(bytes_[pos_++]);
        len |= static_cast<uint64_t>(b & 0x7f) << shift;
        if ((b & 0x80) == 0) break;
    }
    if (len > max_message) {
        throw trace_error(
            fmt::format("{}: message {} (byte {}): length: {} bytes, more than "
                        "the {} accepted",
                        path_, index(), start_, len, max_message));
    }
    if (len > bytes_.size() - pos_) {
        throw trace_error(
            fmt::format("{}: message {} (byte {}): length: {} bytes, but only {} "
                        "remain (truncated file)",
                        path_, index(), start_, len, bytes_.size() - pos_));
    }
    message = std::string_view(bytes_).substr(pos_, len);
    pos_ += len;
    return true;
}

void et_stream::append_framed(std::string& out, std::string_view message) {
    uint64_t v = message.size();
    while (v >= 0x80) {
        out.push_back(static_cast<char>((v & 0x7f) | 0x80));
        v >>= 7;
    }
    out.push_back(static_cast<char>(v));
    out.append(message);
}

}  // namespace ndr::trace
