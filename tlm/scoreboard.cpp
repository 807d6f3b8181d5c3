#include "scoreboard.h"

#include <fmt/format.h>

namespace ndr::tlmm {

sb_packet sb_packet::of(const ib_extension& e) {
    return sb_packet{
        e.id,  e.created, e.flow_seq, e.wire_bytes, e.blocks, static_cast<uint16_t>(e.beats),
        e.src, e.dst,     e.sl,       e.vl};
}

bool sb_packet::operator==(const sb_packet& o) const {
    return id == o.id && created == o.created && flow_seq == o.flow_seq &&
           wire_bytes == o.wire_bytes && blocks == o.blocks && beats == o.beats && src == o.src &&
           dst == o.dst && sl == o.sl && vl == o.vl;
}

std::string sb_packet::str() const {
    return fmt::format("packet {} ({}->{} SL {} VL {} seq {} {} B {} blocks {} beats created {})",
                       id, src, dst, sl, vl, flow_seq, wire_bytes, blocks, beats, created);
}

std::string sb_mismatch::str() const {
    return fmt::format("cycle {}: output port {} VL {}: expected {}, got {}", time, port, vl,
                       expected ? expected->str() : "nothing", got ? got->str() : "nothing");
}

scoreboard::scoreboard(golden::lft routes, golden::sl2vl_table sl2vl, uint32_t ports)
    : routes_(std::move(routes)),
      sl2vl_(sl2vl),
      ports_(ports),
      expect_(std::size_t{ports} * ports * 16) {}

void scoreboard::on_input(uint64_t, uint16_t port, const ib_extension& e) {
    sb_packet p = sb_packet::of(e);
    const uint8_t out = routes_.port(static_cast<uint16_t>(e.dst + 1U));
    p.vl = sl2vl_.vl(e.sl);  // the VL it must leave on
    input_of_[e.id] = port;
    if (out == golden::LFT_NO_ROUTE || out >= ports_) return;  // must never come out
    expect_[key(port, out, p.vl)].push_back(p);
}

bool scoreboard::on_output(uint64_t t, uint16_t port, const ib_extension& e) {
    const sb_packet got = sb_packet::of(e);
    const auto it = input_of_.find(e.id);
    if (it == input_of_.end()) {
        record(sb_mismatch{t, port, e.vl, std::nullopt, got});
        return false;
    }
    std::deque<sb_packet>& q = expect_[key(it->second, port, e.vl & 0xFU)];
    if (q.empty()) {
        record(sb_mismatch{t, port, e.vl, std::nullopt, got});
        return false;
    }
    if (!(q.front() == got)) {
        record(sb_mismatch{t, port, e.vl, q.front(), got});
        return false;
    }
    q.pop_front();
    input_of_.erase(it);
    ++matched_;
    return true;
}

bool scoreboard::finish(uint64_t t) {
    bool clean = true;
    for (std::size_t k = 0; k < expect_.size(); ++k) {
        if (expect_[k].empty()) continue;
        const auto out = static_cast<uint16_t>((k / 16) % ports_);
        const auto vl = static_cast<uint8_t>(k % 16);
        record(sb_mismatch{t, out, vl, expect_[k].front(), std::nullopt});
        clean = false;
    }
    return clean;
}

uint64_t scoreboard::pending() const {
    uint64_t n = 0;
    for (const auto& q : expect_) n += q.size();
    return n;
}

void scoreboard::record(sb_mismatch m) {
    ++mismatches_;
    if (!first_) first_ = std::move(m);
}

}  // namespace ndr::tlmm
