// The framing of Chakra execution-trace (.et) files: a sequence of protobuf messages, each
// preceded by its length as a base-128 varint (at most 32 bits), the whole file optionally
// gzipped (recognised by its magic bytes 1f 8b). docs/trace_format.md, "Chakra execution traces".
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace ndr::trace {

/// Reads the framed messages of one .et file held in memory; every error is a trace_error
/// `PATH: message K (byte B): REASON`, one line.
class et_stream {
public:
    /// `bytes` is the file's content, gzipped or not; `path` names it in messages.
    et_stream(std::string bytes, std::string path);
    /// Reads the whole file; throws trace_error(`PATH: cannot open the file`) when it cannot.
    static et_stream from_file(const std::string& path);

    /// The next message's bytes (valid until the next call); false at the end of the file.
    /// Throws for a truncated or over-long length varint and a message running past the end.
    bool next(std::string_view& message);
    /// Index (0 = the metadata) and byte offset (in the uncompressed stream) of the message
    /// last returned by next().
    uint64_t index() const { return index_ - 1; }
    uint64_t offset() const { return start_; }
    const std::string& path() const { return path_; }

    /// Appends `message` with its varint length to `out`: the writer's side of the framing.
    static void append_framed(std::string& out, std::string_view message);

    /// Largest accepted message (64 MiB) and uncompressed file (1 GiB).
    static constexpr uint64_t max_message = uint64_t{64} << 20;
    static constexpr uint64_t max_file = uint64_t{1} << 30;

private:
    std::string bytes_;
    std::string path_;
    uint64_t pos_ = 0;
    uint64_t start_ = 0;
    uint64_t index_ = 0;
};

}  // namespace ndr::trace
