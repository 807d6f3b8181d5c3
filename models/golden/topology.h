// Fabric topology: hosts (HCAs, one port each) and switches, as plain data (docs/domain.md §4, §6).
// SystemC-free. Builders for a single switch and for pruned folded-Clos fat trees.
//
// Numbering conventions (shared with the cycle model and golden::lft):
//  * Ports are 0-based indices 0..radix-1, the value an LFT entry holds (ndrsim's single-switch
//    model routes endpoint p to port p). IB's physical port number is index + 1; management
//    port 0 of a real switch is not modelled. radix <= 255 keeps every index below LFT_NO_ROUTE.
//  * Host h has DLID h + 1 (docs/domain.md §4: unicast LIDs start at 1), so hosts <= 0xBFFF.
//  * Switch levels count from the hosts: 0 = leaf, 1 = spine (2-level) or aggregation
//    (3-level), 2 = core. Link tiers: 0 = host-leaf, 1 = leaf-spine/aggregation, 2 = aggr.-core.
//
// Fat-tree construction (folded Clos, radix k, h = k/2, full bisection: every leaf and every
// aggregation switch has as many up ports as down ports), pruned to the host count N:
//  * Hosts attach in order: host n on leaf n / h, leaf port n % h. Leaves L = ceil(N / h);
//    leaf ports 0..h-1 face hosts, ports h..k-1 are uplinks u = 0..h-1.
//  * A level is built only if the level below has more than one switch (a single leaf needs
//    no spines, a single pod needs no cores); its up ports are then left unconnected.
//  * 2 levels (N <= k^2/2; 2,048 for k = 64): spines S = smallest divisor of h that is
//    >= ceil(L / 2). Every leaf connects to every spine by p = h / S parallel links: leaf
//    uplink u goes to spine u % S (link u / S of that pair), arriving at spine port
//    leaf * p + u / S. Spine ports 0..L*p-1 are used (L*p <= k). Full tree: k leaves,
//    h spines, p = 1.
//  * 3 levels (N <= k^3/4): pods of up to h leaves + A aggregation switches; pods
//    P = ceil(N / h^2), pod of leaf l = l / h. A = smallest divisor of h >= leaves in the
//    first (fullest) pod, the same in every pod. Leaf uplink u goes to aggregation u % A of
//    its pod, arriving at its down port (leaf in pod) * (h / A) + u / A. Aggregation ports
//    0..h-1 face leaves, h..k-1 are uplinks v = 0..h-1. Cores form A groups of C switches,
//    C = smallest divisor of h >= ceil(P / 2); aggregation a's uplink v goes to core
//    a * C + v % C, arriving at core port pod * r + v / C, r = h / C (parallel links per
//    core-pod pair, P * r <= k). Full tree: k pods, h aggregations per pod, h^2 cores.
// Switches are stored level by level (leaves, then spines/aggregations pod by pod, then cores
// group by group), so switch ids are stable for a given (hosts, radix, levels).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ndr::golden {

inline constexpr uint32_t TOPO_MAX_RADIX = 255;  ///< ports 0..254; 0xFF is LFT_NO_ROUTE

/// What is at the far end of a switch port.
enum class topo_peer_kind : uint8_t { none, host, sw };

/// Far end of one switch port. node = host index or switch index; port = the peer switch's
/// port index (0 for a host: HCAs have one port).
struct topo_peer {
    topo_peer_kind kind = topo_peer_kind::none;
    uint32_t node = 0;
    uint16_t port = 0;
};

/// A port of a switch: switch index and 0-based port index.
struct topo_port_ref {
    uint32_t node = 0;
    uint16_t port = 0;
};

/// One bidirectional cable. b is always a switch; for a switch-switch link a is the lower
/// level. tier = 0 for host-leaf, else 1 + level of a.
struct topo_link {
    bool a_is_host = false;
    uint32_t a = 0;
    uint16_t a_port = 0;  ///< 0 for a host
    uint32_t b = 0;
    uint16_t b_port = 0;
    uint32_t tier = 0;
};

struct topo_switch {
    uint32_t level = 0;            ///< 0 = leaf (hosts attach here), 1, 2 upwards
    uint32_t index_in_level = 0;   ///< 0.. within its level
    uint32_t radix = 0;            ///< ports 0..radix-1
    std::vector<topo_peer> peers;  ///< one entry per port (size radix)
};

struct topology {
    std::string name;     ///< e.g. "fat_tree(128 hosts, radix 64, 2 levels)"
    uint32_t hosts = 0;   ///< host h has DLID h + 1
    uint32_t radix = 0;   ///< ports per switch
    uint32_t levels = 0;  ///< switch levels actually built (pruned levels do not count)
    uint32_t rails = 1;   ///< rail_fat_tree: HCAs per node (host h is rail h % rails); else 1
    std::vector<topo_switch> switches;
    std::vector<topo_port_ref> host_attach;  ///< host h -> (switch, port); size hosts
    std::vector<topo_link> links;

    /// Appends a switch with radix unconnected ports; returns its index.
    uint32_t add_switch(uint32_t level, uint32_t index_in_level);
    /// Cables host h (< hosts) to port sw_port of switch sw. Throws std::invalid_argument if
    /// an index is out of range or either end is already connected.
    void attach_host(uint32_t host, uint32_t sw, uint16_t sw_port);
    /// Cables port a_port of switch a to port b_port of switch b (tier from the lower level).
    /// Throws std::invalid_argument as attach_host.
    void connect(uint32_t a, uint16_t a_port, uint32_t b, uint16_t b_port);

    /// Number of switches at a level.
    uint32_t switches_at_level(uint32_t level) const;
    /// Index into switches of (level, index_in_level); throws std::out_of_range if absent.
    uint32_t switch_id(uint32_t level, uint32_t index_in_level) const;
    /// Checks internal consistency: peers symmetric, every host attached once, links agree
    /// with peers, radix equal on all switches. Throws std::invalid_argument on a mismatch.
    void validate() const;
    /// Multi-line summary: name, switches and used ports per level, links per tier.
    std::string describe() const;
};

/// One switch with hosts on ports 0..hosts-1. Throws std::invalid_argument unless
/// 1 <= hosts <= radix <= 255.
topology build_single_switch(uint32_t hosts, uint32_t radix);

/// Pruned fat tree (rules in the file comment). levels = 1 is build_single_switch. Throws
/// std::invalid_argument if hosts is 0, above the capacity (radix for 1 level, radix^2/2 for
/// 2, radix^3/4 for 3) or above 0xBFFF (DLIDs), if levels is not 1..3, or for levels >= 2 if
/// radix is odd, < 2 or > 255.
topology build_fat_tree(uint32_t hosts, uint32_t radix, uint32_t levels);

/// Rail-optimized fat tree (docs/domain.md §14): `nodes` nodes with `rails` HCAs each; host
/// n * rails + r is HCA r of node n. Nodes form groups of h = radix/2 (group j = n / h); rail r
/// of group j is leaf j * rails + r, port n % h, so HCA r of every node sits on a leaf of rail
/// r and traffic between HCAs of one rail in one group never leaves its leaf. The leaves are
/// then joined by the same spine (2 levels) or aggregation + core (3 levels; a pod = h
/// consecutive leaves, i.e. h / rails groups with all their rails) levels as build_fat_tree.
/// Throws std::invalid_argument if nodes or rails is 0, levels is not 2..3, the radix is odd,
/// < 2 or > 255, or the leaves exceed radix (2 levels) or radix^2/2 (3 levels).
topology build_rail_fat_tree(uint32_t nodes, uint32_t rails, uint32_t radix, uint32_t levels);

}  // namespace ndr::golden
