// One VL arbitration table of ibs_vl_arb (the high- or the low-priority table): NumEntries
// (VL, weight) entries, the current-entry pointer and the bytes left of its turn, the pick of
// the next entry and the commit of a sent packet. Semantics: models/golden/vl_arb.h
// (vl_arbiter::pick_in / commit_in), summarised in ibs_vl_arb.sv.
module ibs_vl_arb_table #(
  /// Data VLs, 1..15.
  parameter int unsigned NumVls     = 2,
  /// Entries, 2..64 (IB: up to 64).
  parameter int unsigned NumEntries = 8,
  /// Width of a packet's wire-byte count.
  parameter int unsigned BytesW     = 13,
  /// Reset contents: 1 = entry v is (VL v, weight 64) for v < NumVls, weight 0 beyond (golden
  /// vl_arb_table::equal_weights); 0 = every weight 0 (an empty table).
  parameter bit          ResetEqual = 1'b1,
  localparam int unsigned IdxW      = $clog2(NumEntries),
  /// Width of left_bytes_o: weight*64 <= 16320 and overshoot >= 1 - 2^BytesW, two's complement.
  localparam int unsigned LeftW     = (BytesW > 14 ? BytesW : 14) + 2
) (
  input  logic                  clk_i,
  // Async reset; the assertions' `disable iff` samples it too (SYNCASYNCNET false alarm).
  /* verilator lint_off SYNCASYNCNET */
  input  logic                  rst_ni,
  /* verilator lint_on SYNCASYNCNET */

  /// Entry write (this table), effective at the next edge; no back-pressure.
  input  logic                  cfg_we_i,
  input  logic [IdxW-1:0]       cfg_idx_i,
  input  logic [3:0]            cfg_vl_i,
  input  logic [7:0]            cfg_weight_i,
  /// Restart (a write to either table): idx := 0, left := weight[0]*64 with this cycle's write.
  input  logic                  restart_i,

  /// Requests, req_i[v] = VL v is ready. Pick outputs are combinational from req_i and state:
  /// pick_valid_o = some entry is eligible; pick_cont_o = the current turn continues;
  /// pick_entry_o/pick_vl_o = the chosen entry and its VL.
  input  logic [NumVls-1:0]     req_i,
  output logic                  pick_valid_o,
  output logic                  pick_cont_o,
  output logic [IdxW-1:0]       pick_entry_o,
  output logic [3:0]            pick_vl_o,

  /// Commit of a sent packet (no back-pressure): continue the turn (cont) or start one at entry.
  input  logic                  commit_i,
  input  logic                  commit_cont_i,
  input  logic [IdxW-1:0]       commit_entry_i,
  input  logic [BytesW-1:0]     commit_bytes_i,

  /// Entry e's VL and weight (for the parent's assertions), register outputs.
  output logic [4*NumEntries-1:0] ent_vl_o,
  output logic [8*NumEntries-1:0] ent_wt_o,
  /// State, register outputs: current entry and bytes left in its turn (two's complement).
  output logic [IdxW-1:0]       cur_entry_o,
  output logic [LeftW-1:0]      left_bytes_o
);

  localparam logic [LeftW-1:0] WEIGHT_UNIT = LeftW'(64);
  localparam logic [7:0]       RESET_WEIGHT = ResetEqual ? 8'd64 : 8'd0;

  logic [4*NumEntries-1:0] ent_vl_q;
  logic [8*NumEntries-1:0] ent_wt_q;
  logic [IdxW-1:0]         idx_q, idx_d;
  logic [LeftW-1:0]        left_q, left_d;

  // ------------------------------------------------------------------------------------------
  // Pick (evaluate)
  logic [15:0]           req_ext;
  logic [NumEntries-1:0] elig;       // weight != 0 and VL requesting
  logic [NumEntries-1:0] after_idx;  // entries with index > idx_q
  logic [NumEntries-1:0] elig_after;
  logic                  left_pos;
  logic [IdxW-1:0]       scan_entry;

  assign req_ext  = 16'(req_i);
  assign left_pos = !left_q[LeftW-1] && (left_q != '0);

  always_comb begin
    for (int unsigned e = 0; e < NumEntries; e++) begin
      elig[e]      = (ent_wt_q[8*e +: 8] != 8'd0) && req_ext[ent_vl_q[4*e +: 4]];
      after_idx[e] = IdxW'(e) > idx_q;
    end
  end
  assign elig_after = elig & after_idx;

  // First eligible entry after idx, else the first eligible entry from 0 (wrap, up to idx).
  always_comb begin
    scan_entry = '0;
    for (int e = NumEntries - 1; e >= 0; e--) begin
      if (elig[e]) scan_entry = IdxW'(e);
    end
    if (|elig_after) begin
      for (int e = NumEntries - 1; e >= 0; e--) begin
        if (elig_after[e]) scan_entry = IdxW'(e);
      end
    end
  end

  assign pick_valid_o = |elig;
  assign pick_cont_o  = elig[idx_q] && left_pos;
  assign pick_entry_o = pick_cont_o ? idx_q : scan_entry;
  assign pick_vl_o    = ent_vl_q[4*pick_entry_o +: 4];

  // ------------------------------------------------------------------------------------------
  // Commit (update)
  logic [7:0] wt0_new;  // entry 0's weight after this cycle's write
  assign wt0_new = (cfg_we_i && cfg_idx_i == '0) ? cfg_weight_i : ent_wt_q[7:0];

  always_comb begin
    idx_d  = idx_q;
    left_d = left_q;
    if (restart_i) begin
      idx_d  = '0;
      left_d = LeftW'(wt0_new) * WEIGHT_UNIT;
    end else if (commit_i) begin
      if (commit_cont_i) begin
        left_d = left_q - LeftW'(commit_bytes_i);
      end else begin
`ifdef NDR_FAULT_ARB
        // Fault-injected build (checker self-test, `ndrsim verify vl_arb --fault mis_rotate`):
        // a new turn leaves the pointer in place. Never defined for the real block.
        idx_d  = idx_q;
`else
        idx_d  = commit_entry_i;
`endif
        left_d = LeftW'(ent_wt_q[8*commit_entry_i +: 8]) * WEIGHT_UNIT - LeftW'(commit_bytes_i);
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned e = 0; e < NumEntries; e++) begin
        ent_vl_q[4*e +: 4] <= (e < NumVls) ? 4'(e) : 4'd0;
        ent_wt_q[8*e +: 8] <= (e < NumVls) ? RESET_WEIGHT : 8'd0;
      end
      idx_q  <= '0;
      left_q <= LeftW'(RESET_WEIGHT) * WEIGHT_UNIT;
    end else begin
      if (cfg_we_i) begin
        ent_vl_q[4*cfg_idx_i +: 4] <= cfg_vl_i;
        ent_wt_q[8*cfg_idx_i +: 8] <= cfg_weight_i;
      end
      idx_q  <= idx_d;
      left_q <= left_d;
    end
  end

  assign ent_vl_o     = ent_vl_q;
  assign ent_wt_o     = ent_wt_q;
  assign cur_entry_o  = idx_q;
  assign left_bytes_o = left_q;

`ifndef SYNTHESIS
  // Bytes left never exceed a full turn.
  LeftMax_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      left_q[LeftW-1] || left_q <= LeftW'(255) * WEIGHT_UNIT);
  // A commit is of an eligible pick's entry (weight != 0).
  CommitEntry_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      commit_i && !restart_i |-> ent_wt_q[8*commit_entry_i +: 8] != 8'd0);
`endif

endmodule
