// Teardown order of many SystemC sockets. SystemC's port and export registries find the object
// to remove by searching from the newest entry backwards (sc_port_registry::remove,
// sc_export_registry::remove in SystemC 2.3), so destroying N sockets oldest-first costs O(N^2):
// 2.5 s of a 2,048-host fat tree's 3.4 s at the TLM level. Destroying them newest-first makes
// every removal find its entry at the end at once.
// Top-level objects are the other way round: SystemC's list of them is searched from the oldest
// entry and the hole filled with the newest (sc_simcontext::remove_child_object), so
// newest-first teardown costs O(N) per module there. A teardown_anchor built before a fabric's
// modules and destroyed before them holds the first slot; once it is gone, the newest module
// moves into that slot, then the next newest, and so on: each removal finds its entry at once
// (44 M instructions less on a 1,024-GPU TLM fabric, docs/performance.md session 19). The
// module registry's removal still scans (about 51 M instructions there): measured, not
// explained by the same rule.
#pragma once
#include <algorithm>
#include <cstddef>
#include <memory>
#include <vector>

#include <systemc>

namespace ndr::tlmm {

/// An empty module that holds the registries' first slot for a fabric's teardown (above).
class teardown_anchor : public sc_core::sc_module {
public:
    explicit teardown_anchor(const sc_core::sc_module_name& name) : sc_core::sc_module(name) {}
};

/// Destroys the elements of parallel vectors of sockets (or modules) built together, element i
/// of each before element i+1 of any, newest first: element i from the last to the first, and
/// within one i the vectors from left to right, so pass them in the reverse of the order in
/// which one i's objects were created. The vectors stay sized, holding empty pointers.
template <typename... T>
void destroy_newest_first(std::vector<std::unique_ptr<T>>&... v) {
    std::size_t n = 0;
    ((n = std::max(n, v.size())), ...);
    for (std::size_t i = n; i-- > 0;) {
        ((i < v.size() ? v[i].reset() : void()), ...);
    }
}

}  // namespace ndr::tlmm
