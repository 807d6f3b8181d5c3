// IB output-port VL arbiter, low-priority table only (IB Vol.1 §7.6.9; DOMAIN.md §3, §13:
// Quantum-2 uses only the low-priority table). Golden reference: models/golden/vl_arb.{h,cpp}
// (vl_arbiter with an empty high table), checked cycle by cycle in tests/rtl/vl_arb_rtl_test.cpp.
//
// Semantics (exactly those of the golden header comment, restricted to the low table):
//  * A table of NumEntries (VL, weight) entries, weight in 64-byte units, 0 = entry skipped. A
//    shorter table is loaded by writing weight 0 to the unused entries (behaviour and pointer are
//    those of the shorter table: weight-0 entries are never chosen).
//  * State: current-entry pointer idx_q and the bytes left_q of its turn (two's complement; after
//    reset or any config write idx = 0, left = weight[0] * 64).
//  * Entry e is eligible iff weight[e] != 0 and req_i[vl[e]]. If the current entry is eligible
//    and left > 0 its VL is picked (the turn continues). Otherwise entries idx+1, idx+2, ...
//    (wrapping, ending with idx itself) are scanned and the first eligible one is picked; that
//    starts a new turn with its full weight.
//  * Commit on the grant handshake: a continuing turn subtracts the packet's wire bytes (the last
//    packet may overshoot, left <= 0); a new turn sets idx := e, left := weight[e]*64 - bytes.
//    The overshoot is not carried. The previous entry's remaining weight is lost when another
//    entry sends (an idle VL's turn is skipped), and only then: without a commit nothing changes.
//  * VL15 is not arbitrated here (the caller sends it first).
// The grant is held while the sink stalls: the pick of the first cycle of gnt_valid_o is
// registered and presented until gnt_ready_i, and committed as picked.
module ibs_vl_arb #(
  /// Data VLs, 1..15.
  parameter int unsigned NumVls     = 2,
  /// Entries of the low-priority table, 2..64 (IB: up to 64).
  parameter int unsigned NumEntries = 8,
  /// Width of a packet's wire-byte count; 13 bits = up to 8191 bytes (IB MTU packet <= 4222 B).
  parameter int unsigned BytesW     = 13,
  localparam int unsigned IdxW      = $clog2(NumEntries),
  /// Width of left_bytes_o: weight*64 <= 16320 and overshoot >= 1 - 2^BytesW, two's complement.
  localparam int unsigned LeftW     = (BytesW > 14 ? BytesW : 14) + 2
) (
  input  logic                       clk_i,
  // Async reset for the registers; the assertions' `disable iff` samples it too, which the
  // linter reports as a sync use (SYNCASYNCNET, a false alarm for assertion-only logic).
  /* verilator lint_off SYNCASYNCNET */
  input  logic                       rst_ni,
  /* verilator lint_on SYNCASYNCNET */

  /// Table write. No back-pressure; one entry per cycle, effective at the next edge. Every write
  /// restarts the arbitration (idx := 0, left := weight[0]*64 with the written value), drops a
  /// held grant and masks gnt_valid_o in its cycle: load the table while no grant is pending.
  /// After reset the table holds entry v = (VL v, weight 64) for v < NumVls, weight 0 beyond
  /// (golden vl_arb_table::equal_weights).
  input  logic                       cfg_we_i,
  input  logic [IdxW-1:0]            cfg_idx_i,
  /// VL of the entry, 0..NumVls-1.
  input  logic [3:0]                 cfg_vl_i,
  /// Weight in 64-byte units, 0..255 (0 = skip the entry).
  input  logic [7:0]                 cfg_weight_i,

  /// Requests. req_i[v] = VL v has a packet at its head whose credits the caller has checked;
  /// req_bytes_i[BytesW*v +: BytesW] = that packet's wire bytes (>= 1). A granted request and its
  /// bytes stay stable until the grant is taken.
  input  logic [NumVls-1:0]          req_i,
  input  logic [BytesW*NumVls-1:0]   req_bytes_i,

  /// Grant. valid/ready towards the sink; gnt_o is one-hot (VL v = bit v) and equals
  /// 1 << gnt_vl_o while gnt_valid_o. Held, with its VL, while gnt_valid_o && !gnt_ready_i.
  /// The packet is committed on gnt_valid_o && gnt_ready_i. gnt_* are combinational from req_i
  /// and cfg_we_i in the first cycle of a grant, registered while it is held.
  output logic                       gnt_valid_o,
  input  logic                       gnt_ready_i,
  output logic [NumVls-1:0]          gnt_o,
  output logic [3:0]                 gnt_vl_o,

  /// State, register outputs: current entry and bytes left in its turn (two's complement;
  /// <= 0 means exhausted by overshoot).
  output logic [IdxW-1:0]            cur_entry_o,
  output logic [LeftW-1:0]           left_bytes_o,

  /// Fault injection for the checker's self-test: while 1, a commit that starts a new turn
  /// leaves the pointer where it was (a mis-rotation). Tie to 0.
  input  logic                       fault_mis_rotate_i
);

  localparam logic [LeftW-1:0] WEIGHT_UNIT = LeftW'(64);

  // Table
  logic [4*NumEntries-1:0] ent_vl_q;
  logic [8*NumEntries-1:0] ent_wt_q;
  // Turn state
  logic [IdxW-1:0]  idx_q, idx_d;
  logic [LeftW-1:0] left_q, left_d;
  // Held grant: VL, whether it continues the current turn, and the entry of a new turn.
  logic             hold_q, hold_d;
  logic [3:0]       hold_vl_q;
  logic             hold_cont_q;
  logic [IdxW-1:0]  hold_entry_q;

  // ------------------------------------------------------------------------------------------
  // Pick (evaluate): from state and req_i only.
  logic [15:0]            req_ext;
  logic [NumEntries-1:0]  elig;       // weight != 0 and VL requesting
  logic [NumEntries-1:0]  after_idx;  // entries with index > idx_q
  logic [NumEntries-1:0]  elig_after;
  logic                   cur_cont;   // current entry eligible and left > 0
  logic                   scan_found;
  logic [IdxW-1:0]        scan_entry;
  logic                   left_pos;
  logic [3:0]             cur_vl;

  assign req_ext  = 16'(req_i);
  assign left_pos = !left_q[LeftW-1] && (left_q != '0);
  assign cur_vl   = ent_vl_q[4*idx_q +: 4];

  always_comb begin
    for (int unsigned e = 0; e < NumEntries; e++) begin
      elig[e]      = (ent_wt_q[8*e +: 8] != 8'd0) && req_ext[ent_vl_q[4*e +: 4]];
      after_idx[e] = IdxW'(e) > idx_q;
    end
  end
  assign elig_after = elig & after_idx;
  assign cur_cont   = elig[idx_q] && left_pos;

  // First eligible entry after idx, else the first eligible entry from 0 (wrap, up to idx).
  always_comb begin
    scan_found = |elig;
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

  // Selected (held or fresh) decision.
  logic            sel_valid, sel_cont;
  logic [3:0]      sel_vl;
  logic [IdxW-1:0] sel_entry;
  always_comb begin
    if (hold_q) begin
      sel_valid = 1'b1;
      sel_cont  = hold_cont_q;
      sel_vl    = hold_vl_q;
      sel_entry = hold_entry_q;
    end else begin
      sel_valid = cur_cont || scan_found;
      sel_cont  = cur_cont;
      sel_vl    = cur_cont ? cur_vl : ent_vl_q[4*scan_entry +: 4];
      sel_entry = cur_cont ? idx_q : scan_entry;
    end
  end

  assign gnt_valid_o = sel_valid && !cfg_we_i;
  assign gnt_vl_o    = sel_vl;
  always_comb begin
    for (int unsigned v = 0; v < NumVls; v++) gnt_o[v] = gnt_valid_o && (sel_vl == 4'(v));
  end

  // ------------------------------------------------------------------------------------------
  // Commit (update)
  logic [BytesW-1:0] pkt_bytes;
  logic              fire;
  always_comb begin
    pkt_bytes = '0;
    for (int unsigned v = 0; v < NumVls; v++) begin
      if (sel_vl == 4'(v)) pkt_bytes = req_bytes_i[BytesW*v +: BytesW];
    end
  end
  assign fire = gnt_valid_o && gnt_ready_i;

  logic [7:0] wt0_new;  // entry 0's weight after this cycle's config write
  assign wt0_new = (cfg_idx_i == '0) ? cfg_weight_i : ent_wt_q[7:0];

  always_comb begin
    idx_d  = idx_q;
    left_d = left_q;
    if (cfg_we_i) begin
      idx_d  = '0;
      left_d = LeftW'(wt0_new) * WEIGHT_UNIT;
    end else if (fire) begin
      if (sel_cont) begin
        left_d = left_q - LeftW'(pkt_bytes);
      end else begin
        idx_d  = fault_mis_rotate_i ? idx_q : sel_entry;
        left_d = LeftW'(ent_wt_q[8*sel_entry +: 8]) * WEIGHT_UNIT - LeftW'(pkt_bytes);
      end
    end
  end
  assign hold_d = gnt_valid_o && !gnt_ready_i;

  // ------------------------------------------------------------------------------------------
  // Registers
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned e = 0; e < NumEntries; e++) begin
        ent_vl_q[4*e +: 4] <= (e < NumVls) ? 4'(e) : 4'd0;
        ent_wt_q[8*e +: 8] <= (e < NumVls) ? 8'd64 : 8'd0;
      end
      idx_q        <= '0;
      left_q       <= LeftW'(64) * WEIGHT_UNIT;
      hold_q       <= 1'b0;
      hold_vl_q    <= '0;
      hold_cont_q  <= 1'b0;
      hold_entry_q <= '0;
    end else begin
      if (cfg_we_i) begin
        ent_vl_q[4*cfg_idx_i +: 4] <= cfg_vl_i;
        ent_wt_q[8*cfg_idx_i +: 8] <= cfg_weight_i;
      end
      idx_q        <= idx_d;
      left_q       <= left_d;
      hold_q       <= hold_d;
      hold_vl_q    <= sel_vl;
      hold_cont_q  <= sel_cont;
      hold_entry_q <= sel_entry;
    end
  end

  assign cur_entry_o  = idx_q;
  assign left_bytes_o = left_q;

  // ------------------------------------------------------------------------------------------
  // Assertions (STYLE.md §9): fire under Verilator --assert; skipped by synthesis.
`ifndef SYNTHESIS
  if (NumVls < 1 || NumVls > 15) begin : gen_num_vls_check
    $error("ibs_vl_arb: NumVls must be 1..15");
  end
  if (NumEntries < 2 || NumEntries > 64) begin : gen_num_entries_check
    $error("ibs_vl_arb: NumEntries must be 2..64");
  end
  if (BytesW < 1 || BytesW > 16) begin : gen_bytes_w_check
    $error("ibs_vl_arb: BytesW must be 1..16");
  end

  // Grant one-hot and consistent with gnt_vl_o; nothing granted without valid.
  GntOneHot_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      gnt_valid_o ? $onehot(gnt_o) : (gnt_o == '0));
  // Grant implies request.
  GntReq_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (gnt_o & ~req_i) == '0);
  // Grant stable while the sink stalls (unless the table is rewritten).
  GntStable_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      gnt_valid_o && !gnt_ready_i |=> cfg_we_i || (gnt_valid_o && $stable(gnt_o)));
  // A granted VL has a nonzero-weight entry for it.
  GntEntry_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      gnt_valid_o |-> ent_wt_q[8*sel_entry +: 8] != 8'd0 && ent_vl_q[4*sel_entry +: 4] == sel_vl);
  // Bytes left never exceed a full turn.
  LeftMax_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      left_q[LeftW-1] || left_q <= LeftW'(255) * WEIGHT_UNIT);
  // Inputs: a held request stays, with its bytes; packets are not empty; table VLs in range.
  ReqHeld_M: assume property (@(posedge clk_i) disable iff (!rst_ni)
      hold_q && !cfg_we_i |-> req_ext[hold_vl_q]);
  PktBytes_M: assume property (@(posedge clk_i) disable iff (!rst_ni)
      gnt_valid_o |-> pkt_bytes != '0);
  CfgVl_M: assume property (@(posedge clk_i) disable iff (!rst_ni)
      cfg_we_i |-> cfg_vl_i < 4'(NumVls) && 32'(cfg_idx_i) < NumEntries);
  // Outputs known after reset.
  OutKnown_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      !$isunknown({gnt_valid_o, gnt_o, gnt_vl_o, cur_entry_o, left_bytes_o}));
`endif

endmodule
