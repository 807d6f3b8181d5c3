// The host-side collective engine of `ndrsim run`: replays a trace's per-rank programs on the
// HCAs. A record is issued when its dependencies finished (plus its gap) or at its absolute
// time; a collective starts once every member has issued it, is decomposed into transfers
// (collective/schedule.h) and each transfer becomes one RDMA WRITE (RDMA READ for rdma_read)
// posted when its dependencies are met. A member's part ends when all transfers it sends are
// acknowledged and all it receives have arrived.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "collective/hier.h"
#include "collective/nccl_proto.h"
#include "collective/nccl_tuner.h"
#include "collective/ring_stream.h"
#include "collective/schedule.h"
#include "common/endpoint_stack.h"
#include "common/first_inline_list.h"
#include "common/node_layout.h"
#include "common/nvlink_fabric.h"
#include "config/sim_config.h"
#include "cycle/hca.h"
#include "golden/reduce_op.h"
#include "pair_traffic.h"
#include "trace/trace.h"

namespace ndr::tb {
class sharp_manager;
}

namespace ndr::tb {

using common::cycle_t;

/// Result of one collective instance.
struct collective_result {
    uint32_t instance = 0;
    cycle_t start = 0;  ///< cycle the last member issued it (the collective can run)
    cycle_t end = 0;    ///< cycle the last member finished
    coll::algo_kind algo = coll::algo_kind::ring;
    coll::proto_kind proto = coll::proto_kind::simple;  ///< the protocol it ran (nccl_proto.h)
    /// host.stack nccl: NCCL's tuner estimate of the algorithm x protocol it ran (nccl_tuner.h)
    std::optional<coll::tuner_estimate> tuner;
    uint64_t transfers = 0;
    uint64_t relayed = 0;  ///< of those, PXN relay sends (nccl.pxn; their NVLink hops extra)
    /// A ring reduce_scatter, allgather or allreduce (unfolded step by step, ring_stream.h):
    /// the most of its transfers the replay held at once; 0 for a schedule built whole.
    uint64_t held_peak = 0;
    bool done = false;
    std::string fallback;     ///< why algo sharp fell back to a host algorithm, if it did
    int32_t sharp_tree = -1;  ///< SHARP tree used, or -1
    uint32_t sharp_levels = 0;
    bool data_checked = false;  ///< SHARP data-carrying mode: every result byte was checked
};

/// One slice of a rank's timeline (an op or compute record).
struct rank_slice {
    uint32_t rank = 0;
    uint32_t record = 0;
    cycle_t start = 0;
    cycle_t end = 0;
};

/// One RDMA transfer of a host algorithm (report.timeline = transfers or packets): posted by
/// rank `src` at `start`, its data at rank `dst` at `end`.
struct transfer_slice {
    uint32_t instance = 0;  ///< collective instance
    uint32_t src = 0;       ///< global rank
    uint32_t dst = 0;
    uint64_t bytes = 0;
    cycle_t start = 0;
    cycle_t end = 0;
};

/// Where the ranks of `tr` run under `c` (node.gpus, node.hcas, the header's placement); throws
/// cfg::config_error naming the trace and `placement` (or node.gpus) if they do not fit.
common::node_layout layout_of(const cfg::config& c, const trace::trace& tr);
/// Hosts (HCAs) of the fabric that runs `tr`: fabric.hosts if set, else those of the nodes the
/// ranks occupy; throws cfg::config_error (fabric.hosts) if fabric.hosts is too small or, with
/// node.gpus > 1, not whole nodes.
uint32_t hosts_of(const cfg::config& c, const trace::trace& tr, const common::node_layout& l);

class replay : public common::hca_host {
public:
    /// Rank r runs on GPU layout_of(c, tr).of_rank(r); with node.gpus = 1 and no placement,
    /// that is host r. Transfers between GPUs of one node go over the NVLink model
    /// (common::nvlink_fabric), the others over the HCAs of their GPUs.
    replay(const cfg::config& c, const trace::trace& tr, common::hca_iface& hcas,
           sharp_manager* sharp = nullptr);
    /// Issues every record that is ready at cycle 0.
    void start();
    bool done() const { return records_done_ == tr_.records.size(); }
    const std::vector<collective_result>& results() const { return results_; }
    const std::vector<rank_slice>& slices() const { return slices_; }
    /// Every host-algorithm transfer, in arrival order; empty unless report.timeline is
    /// transfers or packets (memory grows with the transfers only when they are asked for).
    const std::vector<transfer_slice>& transfers() const { return transfers_; }
    uint64_t bytes_posted() const { return bytes_posted_; }
    const common::node_layout& layout() const { return layout_; }
    /// The NVLink fabric of the nodes, or nullptr with node.gpus = 1.
    const common::nvlink_fabric* nvlink() const { return nvl_.get(); }
    /// Payload bytes received per (source host, destination host) pair, for exactly-once
    /// checks (sparse: only pairs that carried a transfer).
    const pair_traffic& pair_bytes() const { return pair_bytes_; }
    /// Human-readable state of what is still running (for hang reports).
    std::string pending_summary() const;

    void on_delivered(cycle_t t, uint32_t dst, uint64_t tag) override;
    void on_send_complete(cycle_t t, uint32_t src, uint64_t tag) override;
    void on_timer(cycle_t t, uint64_t token) override;
    void on_sharp_first(cycle_t t, uint32_t h, uint32_t tree, uint32_t chunk) override;
    void on_sharp_result(cycle_t t, uint32_t h, uint32_t tree, uint32_t chunk,
                         uint32_t data) override;

private:
    struct xfer_state {
        uint32_t waiting = 0;  ///< unmet dependencies
        bool arrived = false;
        bool acked = false;
        bool posted = false;
        bool handshaken = false;  ///< host.stack mpi: the rendezvous reply has arrived
    };
    struct dependent {
        uint32_t xfer = 0;
        bool on_ack = false;  ///< satisfied by the dependency's ACK, not its arrival
    };
    /// A transfer's state and the transfers waiting for it, side by side.
    struct xfer_slot {
        xfer_state st;
        common::first_inline_list<dependent> deps;
    };
    /// One unfolded level of a streamed run (coll::ring_stream): its transfers and their state.
    struct level_window {
        uint64_t first = 0;  ///< index of its first transfer
        uint64_t left = 0;   ///< transfers not yet both arrived and acknowledged
        std::vector<coll::xfer> xfers;
        std::vector<xfer_slot> slots;
        std::vector<cycle_t> posted_at;  ///< when transfers are logged (else empty)
    };
    struct running {
        uint32_t instance = 0;
        coll::proto_kind proto = coll::proto_kind::simple;
        /// The whole schedule; for a streamed run (`stream` set) only its params and algo.
        coll::schedule sched;
        /// A ring reduce_scatter, allgather or allreduce unfolds level by level (issue #19 item
        /// 2): level k+1 of a chain is made before the first completion of level k is handled,
        /// a level is dropped once it and every level before it completed, so the run holds
        /// the levels in flight (slots and posted_at below stay empty).
        std::unique_ptr<coll::ring_stream> stream;
        std::vector<std::deque<level_window>> win;  ///< per chain: its levels held
        std::vector<uint32_t> win_lo;               ///< per chain: level of win[c].front()
        uint64_t held = 0;                          ///< transfers in win (streamed)
        uint64_t held_peak = 0;                     ///< ... the most at once
        uint64_t total = 0;                         ///< transfers of the whole schedule
        uint64_t complete = 0;                      ///< ... both arrived and acknowledged
        /// Schedule rank -> global rank: the instance's ranks, then its PXN relays outside the
        /// communicator (schedule::relay_ranks).
        std::vector<uint32_t> ranks;
        uint64_t relayed = 0;          ///< transfers PXN sends through a relay (collective/pxn.h)
        std::vector<xfer_slot> slots;  ///< per xfer
        std::vector<uint32_t> pending_per_rank;  ///< comm rank -> unfinished xfers
        std::vector<cycle_t> posted_at;  ///< per xfer, when transfers are logged (else empty)
        uint32_t members_left = 0;
        bool hier = false;   ///< a phase of a hierarchical collective (replay_hier.cpp)
        uint32_t slice = 0;  ///< ... of this slice
    };
    struct record_state {
        uint32_t deps_left = 0;
        cycle_t ready_at = 0;  ///< max finish of deps
        bool issued = false;
        bool done = false;
        cycle_t issued_at = 0;
        std::vector<uint32_t> dependents;  ///< records (same rank) waiting for this one
    };

    void ready(cycle_t t, uint32_t rec);
    void issue(cycle_t t, uint32_t rec);
    void finish_record(cycle_t t, uint32_t rec);
    void start_collective(cycle_t t, uint32_t inst);
    /// What instance `inst` runs: its algorithm and protocol (auto resolved; under host.stack
    /// nccl by NCCL's tuner, which may pick nvls, nvls_tree or CollNet unless `allow_nvls` is
    /// false) and the tuner's estimate of that choice.
    struct nccl_choice {
        coll::algo_kind algo = coll::algo_kind::auto_;
        coll::proto_kind proto = coll::proto_kind::simple;
        std::optional<coll::tuner_estimate> estimate;
    };
    nccl_choice choose(uint32_t inst, coll::algo_kind algo, bool allow_nvls) const;
    /// The algorithm instance `ci` asks for: its trace record's, or nccl.algo (NCCL_ALGO) where
    /// that says auto and nccl.algo names one that runs the op.
    coll::algo_kind requested_algo(const trace::collective_instance& ci) const;
    /// CollNet can run: nccl.collnet, multi-GPU nodes and a fabric whose switches run SHARP.
    bool collnet_ready() const;
    /// The hierarchical algorithms' rules (NCCL's): throws cfg::config_error naming the trace's
    /// line if instance `ci` cannot run `algo` (collnet_* without nccl.collnet or SHARP,
    /// nvls_tree without node.nvls, not 2+ nodes of equal GPU counts >= 2, not an allreduce,
    /// a dtype or redop SHARP does not take). No-op for other algorithms.
    void check_hier(const trace::collective_instance& ci, coll::algo_kind algo) const;
    /// Why SHARP cannot reduce op `rec` (dtype, redop), or empty.
    std::string sharp_unsupported(const trace::op_record& rec, coll::op_kind op) const;
    /// The topology NCCL's tuner sees for the ranks of `ci` (nccl_tuner.h).
    coll::tuner_topology tuner_topology_of(const trace::collective_instance& ci) const;
    /// PXN (nccl.pxn, collective/pxn.h) applies to `ci`: host.stack nccl, node.gpus > 1, a
    /// rail_fat_tree, and an alltoall, send or recv.
    bool pxn_applies(const trace::collective_instance& ci) const;
    /// Sets run.ranks to the ranks of `ci` and, where PXN applies, relays run.sched's transfers
    /// between rails (appending the relays outside the communicator to run.ranks).
    void relay_pxn(running& run, const trace::collective_instance& ci) const;
    /// NCCL runs PAT only with one rank per node: throws cfg::config_error naming the trace's
    /// line if instance `ci`, running `algo`, breaks that.
    void check_pat(const trace::collective_instance& ci, coll::algo_kind algo) const;
    /// The host schedule's parameters of instance `inst` run with `algo` and `proto` (whose
    /// step size is the pipelining unit).
    coll::coll_params host_params(uint32_t inst, coll::algo_kind algo,
                                  coll::proto_kind proto) const;
    bool start_sharp(cycle_t t, uint32_t inst, std::string& why);
    /// One SHARP job of instance `inst` over `hosts` (member m = hosts[m]) of `bytes`, on the
    /// tree of communicator key `comm`; `hier`: a rail of a hierarchical collective (its end is
    /// a phase piece, not the members' records).
    bool start_sharp_job(cycle_t t, uint32_t inst, uint32_t comm,
                         const std::vector<uint32_t>& hosts, uint64_t bytes, bool hier,
                         std::string& why, uint32_t slice = 0);
    /// Hierarchical collectives (replay_hier.cpp, collective/hier.h): start one (false with
    /// `why` if SHARP has no tree for a rail), run its next phase, and count a finished piece
    /// of the phase (a host run, an NVLS flow, a rail's SHARP job).
    bool start_hier(cycle_t t, uint32_t inst, const nccl_choice& ch, std::string& why);
    void hier_phase(cycle_t t, uint32_t inst);
    void hier_start_phase(cycle_t t, uint32_t inst, uint32_t slice);
    void hier_piece_done(cycle_t t, uint32_t inst, uint32_t slice);
    /// The SHARP communicator key of rail r of communicator `comm` (one tree per rail).
    uint32_t rail_comm(uint32_t comm, uint32_t r);
    /// Starts host run `run` of instance `inst` (its transfers posted after `launch` cycles).
    void start_run(cycle_t t, running run, cycle_t launch);
    /// A SAT collective ended: start the waiting ones whose slots are now free.
    void retry_sat_waiting(cycle_t t);
    void sharp_send_next(cycle_t t, uint32_t job, uint32_t member);
    /// Hands member's next OST request (chunk posted[member]) to its HCA.
    void sharp_post_chunk(cycle_t t, uint32_t job, uint32_t member);
    /// Member's host has seen one more result: window, next requests, and its end.
    void sharp_polled(cycle_t t, uint32_t job, uint32_t member);
    /// (job, member) a SHARP result of `tree`'s chunk `chunk` at host h belongs to; throws on a
    /// result of no collective or of a non-member.
    std::pair<uint32_t, uint32_t> sharp_member(uint32_t h, uint32_t tree, uint32_t chunk) const;
    /// Member's call has returned: its record finishes, and the collective when it is the last.
    void sharp_member_done(cycle_t t, uint32_t job, uint32_t member);
    /// Transfer x is ready: local steps run, others pass the endpoint software (host.stack).
    void post_xfer(cycle_t t, uint32_t run, uint32_t x);
    /// Transfer x (whose record is xf) leaves the host: over NVLink or to its HCA.
    void post_now(cycle_t t, uint32_t run, uint32_t x, const coll::xfer& xf);
    void post_now(cycle_t t, uint32_t run, uint32_t x) {
        post_now(t, run, x, xfer_of(runs_[run], x));
    }
    /// Transfer x's data is in the receiver's memory: the receiver's software, then arrival.
    void host_arrive(cycle_t t, uint32_t run, uint32_t x);
    void xfer_event(cycle_t t, uint32_t run, uint32_t x, bool ack);
    void member_done(cycle_t t, uint32_t run, uint32_t comm_rank);
    /// Adds run `run` to runs_ (members_left, running_of_inst_) and finishes the members with
    /// nothing to do; returns its index.
    uint32_t enlist(cycle_t t, running run);
    /// Streamed run: starts it (start_run's part for a coll::ring_stream).
    void start_streamed(cycle_t t, running run, cycle_t launch);
    /// Streamed run: where transfer x is held, win[chain][index] at offset.
    struct held_at {
        uint32_t chain = 0;
        std::size_t index = 0;
        uint64_t offset = 0;
    };
    /// False if x's level was dropped (x is complete); throws std::logic_error if it has not
    /// unfolded yet.
    bool held(const running& rr, uint32_t x, held_at& h) const;
    held_at held_or_throw(const running& rr, uint32_t x) const;
    /// Transfer x of run `rr` (held: unfolded and not yet dropped).
    const coll::xfer& xfer_of(const running& rr, uint32_t x) const;
    /// Transfer x of run `rr` and its state, found once (held: unfolded and not yet dropped).
    /// `posted` is null unless transfers are logged; `level` is x's level in a streamed run
    /// (null for a schedule built whole), which stays held until x completes.
    struct xref {
        const coll::xfer* xf = nullptr;
        xfer_state* st = nullptr;
        common::first_inline_list<dependent>* deps = nullptr;
        cycle_t* posted = nullptr;
        level_window* level = nullptr;
        uint32_t chain = 0;  ///< streamed: x's chain and level number
        uint32_t k = 0;
    };
    xref ref_of(running& rr, uint32_t x);
    /// post_xfer with x's state already looked up (ref_of).
    void post_xfer(cycle_t t, uint32_t run, uint32_t x, const xref& r);
    /// Streamed run: unfolds the levels of chain c up to `level` (registering each new transfer
    /// with the dependencies it still waits for).
    void unfold(running& rr, uint32_t c, uint32_t level);
    /// Streamed run: drops the completed levels at the bottom of chain c.
    void drop_complete(running& rr, uint32_t c);
    /// Node path (node.gpus > 1): a deferred step of transfer x of run `run`.
    enum class step : uint8_t {
        nvlink_start,
        ib_post,
        ib_arrive,
        nvls_start,
        arrived,       ///< the receiver's software is done: the transfer has arrived
        launch,        ///< host.stack nccl: the kernel launch is over
        host_post,     ///< the sender's software is done: post the transfer
        local_done,    ///< a local step (src == dst) is done
        rndv_reply,    ///< host.stack mpi: the receiver answers a rendezvous request
        hier_phase,    ///< a hierarchical collective's next phase (run = instance)
        hier_nvls,     ///< an NVLS flow of one (run = instance, x = (slice n + member) 2 + in)
        sharp_post,    ///< SHARP (run = job, x = member): the library posts its next OST request
        sharp_polled,  ///< SHARP: the library has polled a result
        sharp_return,  ///< SHARP: the member's call returns (its exit cost is over)
    };
    void defer(cycle_t t, cycle_t at, step what, uint32_t run, uint32_t x);
    uint32_t host_of(uint32_t rank) const { return layout_.host_of_rank(rank); }
    void on_deferred(cycle_t t, uint32_t slot);
    /// Re-arms the finish timer of node `node` after its flows changed.
    void arm_node(cycle_t t, uint32_t node);
    void on_node_timer(cycle_t t, uint32_t node, uint64_t gen);
    void post_ib(cycle_t t, uint32_t run, uint32_t x);
    bool start_nvls(cycle_t t, uint32_t inst, std::string& why);
    cycle_t ns_to_cycles(uint64_t ns) const;

    /// A collective running on a SHARP tree.
    struct sharp_job {
        uint32_t instance = 0;
        uint32_t tree = 0;
        uint32_t chunk_base = 0;
        uint32_t chunks = 0;       ///< transactions per member (TLM bursts: of `packets`)
        uint32_t chunk_bytes = 0;  ///< payload of one (packets x packet_bytes)
        uint32_t packets = 1;      ///< SHARP chunks (packets) per transaction: a TLM burst
        uint32_t packet_bytes = 0;
        uint64_t bytes = 0;
        /// Transactions in flight per member: counted to their results (one chunk each), or
        /// to their results' first chunks (TLM bursts, whose later chunks stream in behind).
        uint32_t window = 1;
        /// Packets of transaction k: `packets`, the last one those left.
        uint32_t packets_in(uint32_t k) const {
            const uint64_t off = uint64_t{k} * chunk_bytes;
            const uint64_t left = bytes > off ? bytes - off : 0;
            return packets == 1 ? 1U
                                : static_cast<uint32_t>(std::clamp<uint64_t>(
                                      (left + packet_bytes - 1) / packet_bytes, 1, packets));
        }
        uint32_t root = 0xFFFFFFFFU;      ///< broadcast: the only member with data
        std::vector<uint32_t> next;       ///< per member: next chunk to send
        std::vector<uint32_t> posted;     ///< per member: chunks handed to the HCA (<= next)
        std::vector<cycle_t> host_free;   ///< per member: when its host can post again
        std::vector<uint32_t> received;   ///< per member: results received
        std::vector<uint32_t> started;    ///< per member: TLM result bursts begun (first chunk)
        std::vector<uint32_t> member_of;  ///< per host: member index (n: not a member)
        std::vector<uint32_t> hosts;      ///< per member: its host
        uint32_t members_left = 0;
        bool data = false;
        bool sat = false;    ///< holds streaming-aggregation slots (sharp_manager::sat_acquire)
        bool hier = false;   ///< a rail of a hierarchical collective
        uint32_t slice = 0;  ///< ... of this slice
        golden::red_op op = golden::red_op::sum;
        golden::red_type type = golden::red_type::fp32;
        std::vector<std::vector<uint8_t>> inputs;  ///< data mode: per member
        std::vector<uint8_t> expected;             ///< data mode: golden tree reduction
    };

    const cfg::config& cfg_;
    common::node_layout layout_;
    std::unique_ptr<common::nvlink_fabric> nvl_;
    cycle_t nvlink_cycles_ = 0;  ///< node.nvlink_latency
    cycle_t pcie_cycles_ = 0;    ///< node.pcie_latency
    struct deferred {
        step what = step::ib_post;
        uint32_t run = 0;
        uint32_t x = 0;
    };
    std::vector<deferred> deferred_;
    std::vector<uint32_t> free_deferred_;
    /// Streamed runs: the storage of dropped levels, for unfold() to reuse (at most
    /// MAX_SPARE_LEVELS kept).
    std::vector<level_window> spare_levels_;
    static constexpr std::size_t MAX_SPARE_LEVELS = 8;
    std::vector<uint64_t> node_gen_;   ///< per node: generation of its armed finish timer
    std::vector<cycle_t> node_armed_;  ///< per node: cycle of its armed finish timer
    /// NVLS collectives: instance -> members still running.
    std::map<uint32_t, uint32_t> nvls_left_;
    /// A running hierarchical collective, cut into slices of G x collective.chunk (one chunk
    /// per head, NCCL's loop). Slices start each phase in order; slice k starts phase p once it
    /// has run phase p - 1 and no other slice runs phase p (NVLSTree's trees: fewer than
    /// HIER_WINDOW, replay_hier.cpp), so the phases of consecutive slices overlap as NCCL
    /// pipelines them.
    struct hier_state {
        coll::algo_kind algo = coll::algo_kind::collnet_direct;
        coll::hier_layout layout;
        coll::coll_params params;        ///< dtype and chunk of the phases
        std::vector<uint32_t> local_of;  ///< comm rank -> its index in its node's group
        uint64_t slice_bytes = 0;
        uint32_t slices = 1;
        std::vector<uint8_t> phase;         ///< per slice: phases it has run (0..3)
        std::vector<uint8_t> running;       ///< per slice: a phase of it is running
        std::vector<uint64_t> left;         ///< per slice: pieces of its running phase left
        std::array<uint32_t, 4> started{};  ///< per phase 1..3: slices that have started it
        std::array<uint32_t, 4> active{};   ///< per phase 1..3: slices running it
        uint32_t finished = 0;              ///< slices that have run phase 3
        uint64_t slice_len(uint32_t k, uint64_t total) const;
    };
    std::map<uint32_t, hier_state> hier_;                          ///< instance -> state
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> rail_comm_;  ///< (comm, rail) -> key
    sharp_manager* sharp_ = nullptr;
    std::deque<sharp_job> sharp_jobs_;           ///< a deque: references stay valid as jobs start
    std::map<uint64_t, uint32_t> sharp_job_of_;  ///< (tree << 32 | chunk_base) -> job
    std::map<uint32_t, uint32_t> sharp_chunks_used_;  ///< tree -> next chunk id
    /// SAT collectives waiting for streaming-aggregation slots, in arrival order, and the
    /// cycle each first tried (its start in the report: the wait is part of its time).
    std::vector<uint32_t> sat_waiting_;
    std::map<uint32_t, cycle_t> sat_first_try_;
    const trace::trace& tr_;
    common::hca_iface& hcas_;
    uint64_t cycle_ps_;
    common::endpoint_stack stack_;  ///< host.stack: costs of posting and completing
    double nic_GBps_ = 0;           ///< one HCA port's data rate (NCCL's NET bandwidth)
    double nvlink_GBps_ = 0;        ///< one GPU's NVLink bandwidth per direction
    std::vector<record_state> recs_;
    std::vector<uint32_t> inst_of_record_;   ///< record -> collective instance (or none)
    std::vector<uint32_t> issued_members_;   ///< per instance
    std::vector<uint32_t> running_of_inst_;  ///< per instance: index into runs_, or none
    /// A deque: starting a collective inside a transfer's event must not move the others.
    std::deque<running> runs_;
    std::vector<collective_result> results_;
    std::vector<rank_slice> slices_;
    bool log_transfers_ = false;  ///< report.timeline is transfers or packets
    std::vector<transfer_slice> transfers_;
    pair_traffic pair_bytes_;
    uint64_t records_done_ = 0;
    uint64_t bytes_posted_ = 0;
};

}  // namespace ndr::tb
