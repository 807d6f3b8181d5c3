#include "link_capture.h"

#include <fmt/format.h>

#include <algorithm>

#include "config/config_error.h"
#include "packet_bytes.h"

namespace ndr::tb {

namespace {

const link_ref* find_link(const std::vector<link_ref>& links, const std::string& name) {
    for (const link_ref& l : links) {
        if (l.name == name) return &l;
    }
    return nullptr;
}

/// "A->B" -> "B->A"; empty if `name` has no "->".
std::string reverse_name(const std::string& name) {
    const std::size_t arrow = name.find("->");
    if (arrow == std::string::npos) return {};
    return name.substr(arrow + 2) + "->" + name.substr(0, arrow);
}

}  // namespace

link_capture::link_capture(fabric& f, const std::string& path, const std::string& link_name)
    : fabric_(f), cycle_ps_(f.timing().cycle_ps) {
    const std::vector<link_ref>& links = f.links();
    std::string name = link_name;
    if (name.empty()) {  // host 0's uplink
        for (const link_ref& l : links) {
            if (l.from_host && l.node == 0) {
                name = l.name;
                break;
            }
        }
    }
    links_[0] = find_link(links, name);
    links_[1] = links_[0] != nullptr ? find_link(links, reverse_name(name)) : nullptr;
    if (links_[0] == nullptr || links_[1] == nullptr) {
        std::string examples;
        const std::size_t shown = std::min<std::size_t>(links.size(), 6);
        for (std::size_t i = 0; i < shown; ++i) {
            examples += (i == 0 ? "" : ", ") + links[i].name;
        }
        throw cfg::config_error(fmt::format(
            "--pcap-link: no link named '{}' in this fabric; valid names look like {}{} ({} links)",
            link_name, examples, links.size() > shown ? ", ..." : "", links.size()));
    }
    names_ = {links_[0]->name, links_[1]->name};
    writer_.open(path);
    for (uint8_t d = 0; d < 2; ++d) {
        taps_[d].owner = this;
        taps_[d].interface_id = d;
        attach(*links_[d], &taps_[d]);
    }
    attached_ = true;
}

link_capture::~link_capture() {
    if (attached_) {  // an exception ended the run: detach, leave the file as written so far
        for (uint8_t d = 0; d < 2; ++d) attach(*links_[d], nullptr);
    }
}

void link_capture::attach(const link_ref& l, cycle::link_tap* tap) {
    if (l.from_host) {
        fabric_.hcas().set_tap(l.node, tap);
    } else {
        fabric_.switches()[l.node]->set_tap(l.port, tap);
    }
}

void link_capture::direction_tap::on_packet(common::cycle_t start, const cycle::packet& p) {
    owner->pending_.push_back(pending{start, interface_id, wire_bytes_of(p)});
}

void link_capture::flush_before(common::cycle_t t) {
    // Stable: packets starting in the same cycle keep the order they were reported in.
    std::stable_sort(pending_.begin(), pending_.end(),
                     [](const pending& a, const pending& b) { return a.start < b.start; });
    auto it = pending_.begin();
    for (; it != pending_.end() && it->start < t; ++it) {
        writer_.write(it->start * cycle_ps_, it->bytes, it->interface_id);
    }
    pending_.erase(pending_.begin(), it);
}

void link_capture::finish() {
    flush_before(cycle::NEVER);
    writer_.close();
    for (uint8_t d = 0; d < 2; ++d) attach(*links_[d], nullptr);
    attached_ = false;
}

}  // namespace ndr::tb
