// Teardown order of many SystemC sockets. SystemC's port and export registries find the object
// to remove by searching from the newest entry backwards (sc_port_registry::remove,
// sc_export_registry::remove in SystemC 2.3), so destroying N sockets oldest-first costs O(N^2):
// 2.5 s of a 2,048-host fat tree's 3.4 s at the TLM level. Destroying them newest-first makes
// every removal find its entry at the end at once.
// Modules are the other way round: SystemC's list of top-level objects
// (sc_simcontext::remove_child_object) and its module registry (sc_module_registry::remove)
// are searched from the oldest entry and the hole filled with the newest, so newest-first
// teardown costs O(N) per module there. Two teardown_anchors built before a fabric's modules
// and destroyed before them, first then second, fix both lists:
// - The module registry ends with a module of SystemC's own, made at sc_start after every
//   fabric module and destroyed at exit (the hidden method invoker): the first anchor's slot
//   takes that one, the second's the newest fabric module, and from then on every removal
//   finds its module in slot 1, the newest left having moved there.
// - The list of top-level objects (the hidden module is not in it) ends with the newest fabric
//   module: the first anchor's slot takes it, the second's the next newest, and the removals
//   alternate between slots 0 and 1.
// With one anchor the registry's removals each scanned the whole registry (O(N^2): 1.8 s of
// the 16,384-GPU fabric's teardown, docs/performance.md session 22).
#pragma once
#include <algorithm>
#include <cstddef>
#include <memory>
#include <vector>

#include <systemc>

namespace ndr::tlmm {

/// An empty module that holds one of the registries' first two slots for a fabric's teardown
/// (above).
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
