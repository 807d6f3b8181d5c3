// IB output-port VL arbiter: high- and low-priority tables and LimitOfHighPriority (IB Vol.1
// §7.6.9; docs/domain.md §3, §13). Golden reference: models/golden/vl_arb.{h,cpp} (vl_arbiter),
// checked cycle by cycle by `ndrsim verify vl_arb` (rtl/vl_arb/vl_arb_check.cpp).
//
// Semantics (exactly those of the golden header comment):
//  * Two tables (ibs_vl_arb_table) of NumEntries (VL, weight) entries each, weight in 64-byte
//    units, 0 = entry skipped. A shorter table is loaded by writing weight 0 to the unused
//    entries; an empty high table (all weights 0, the reset state) disables high priority.
//  * Per table: current-entry pointer idx and the bytes left of its turn (two's complement;
//    after reset or any config write idx = 0, left = weight[0] * 64).
//  * Entry e is eligible iff weight[e] != 0 and req_i[vl[e]]. If the current entry is eligible
//    and left > 0 its VL is picked (the turn continues). Otherwise entries idx+1, idx+2, ...
//    (wrapping, ending with idx itself) are scanned and the first eligible one is picked; that
//    starts a new turn with its full weight.
//  * Commit on the grant handshake: a continuing turn subtracts the packet's wire bytes (the last
//    packet may overshoot, left <= 0); a new turn sets idx := e, left := weight[e]*64 - bytes.
//    The overshoot is not carried. The previous entry's remaining weight is lost when another
//    entry of the same table sends, and only then.
//  * High versus low: hs = high-priority bytes sent since the last low-priority packet (0 after
//    reset and config writes; saturating, HsW bits). The limit is reached iff limit_i != 255 and
//    hs >= max(limit_i * 4096, 1). The high table is served if it has an eligible entry and not
//    (limit reached and the low table has one); else the low table if it has one (hs := 0 on
//    its commit); else no grant. A table that is not served keeps its pointer and bytes left.
//  * VL15 is not arbitrated here (the caller sends it first).
// The grant is held while the sink stalls: the pick of the first cycle of gnt_valid_o (VL,
// table, entry) is registered and presented until gnt_ready_i, and committed as picked.
module ibs_vl_arb #(
  /// Data VLs, 1..15.
  parameter int unsigned NumVls     = 2,
  /// Entries of each table (high and low), 2..64 (IB: up to 64).
  parameter int unsigned NumEntries = 8,
  /// Width of a packet's wire-byte count; 13 bits = up to 8191 bytes (IB MTU packet <= 4222 B).
  parameter int unsigned BytesW     = 13,
  localparam int unsigned IdxW      = $clog2(NumEntries),
  /// Width of left_bytes_o: weight*64 <= 16320 and overshoot >= 1 - 2^BytesW, two's complement.
  localparam int unsigned LeftW     = (BytesW > 14 ? BytesW : 14) + 2,
  /// Width of hi_sent_o, saturating: holds 254 * 4096 (the largest finite limit) and more.
  localparam int unsigned HsW       = 21
) (
  input  logic                       clk_i,
  // Async reset for the registers; the assertions' `disable iff` samples it too, which the
  // linter reports as a sync use (SYNCASYNCNET, a false alarm for assertion-only logic).
  /* verilator lint_off SYNCASYNCNET */
  input  logic                       rst_ni,
  /* verilator lint_on SYNCASYNCNET */

  /// Table write. No back-pressure; one entry per cycle, effective at the next edge; cfg_hi_i
  /// selects the high-priority table. Every write restarts the arbitration (both tables:
  /// idx := 0, left := weight[0]*64 with the written value; hs := 0), drops a held grant and
  /// masks gnt_valid_o in its cycle: load the tables while no grant is pending. After reset the
  /// low table holds entry v = (VL v, weight 64) for v < NumVls, weight 0 beyond, and the high
  /// table is empty (golden vl_arb_table::equal_weights).
  input  logic                       cfg_we_i,
  input  logic                       cfg_hi_i,
  input  logic [IdxW-1:0]            cfg_idx_i,
  /// VL of the entry, 0..NumVls-1.
  input  logic [3:0]                 cfg_vl_i,
  /// Weight in 64-byte units, 0..255 (0 = skip the entry).
  input  logic [7:0]                 cfg_weight_i,
  /// LimitOfHighPriority in 4096-byte units (255 = unbounded, 0 = one high packet).
  /// Quasi-static: change it only together with a table write.
  input  logic [7:0]                 limit_i,

  /// Requests. req_i[v] = VL v has a packet at its head whose credits the caller has checked;
  /// req_bytes_i[BytesW*v +: BytesW] = that packet's wire bytes (>= 1). A granted request and its
  /// bytes stay stable until the grant is taken.
  input  logic [NumVls-1:0]          req_i,
  input  logic [BytesW*NumVls-1:0]   req_bytes_i,

  /// Grant. valid/ready towards the sink; gnt_o is one-hot (VL v = bit v) and equals
  /// 1 << gnt_vl_o while gnt_valid_o; gnt_hi_o = granted from the high-priority table. Held,
  /// with its VL and table, while gnt_valid_o && !gnt_ready_i. The packet is committed on
  /// gnt_valid_o && gnt_ready_i. gnt_* are combinational from req_i and cfg_we_i in the first
  /// cycle of a grant, registered while it is held.
  output logic                       gnt_valid_o,
  input  logic                       gnt_ready_i,
  output logic [NumVls-1:0]          gnt_o,
  output logic [3:0]                 gnt_vl_o,
  output logic                       gnt_hi_o,

  /// State, register outputs: per table the current entry and bytes left in its turn (two's
  /// complement; <= 0 means exhausted by overshoot); hs, the high-priority bytes sent since the
  /// last low-priority packet, saturating at 2^HsW - 1.
  output logic [IdxW-1:0]            cur_entry_o,
  output logic [LeftW-1:0]           left_bytes_o,
  output logic [IdxW-1:0]            hi_cur_entry_o,
  output logic [LeftW-1:0]           hi_left_bytes_o,
  output logic [HsW-1:0]             hi_sent_o
);

  localparam logic [HsW-1:0] HS_MAX = '1;

  // ------------------------------------------------------------------------------------------
  // Tables
  logic                  lo_valid, lo_cont, hi_valid, hi_cont;
  logic [IdxW-1:0]       lo_entry, hi_entry;
  logic [3:0]            lo_vl, hi_vl;
  logic [4*NumEntries-1:0] lo_ent_vl, hi_ent_vl;
  logic [8*NumEntries-1:0] lo_ent_wt, hi_ent_wt;
  logic                  fire;
  logic                  sel_valid, sel_hi, sel_cont;
  logic [3:0]            sel_vl;
  logic [IdxW-1:0]       sel_entry;
  logic [BytesW-1:0]     pkt_bytes;

  ibs_vl_arb_table #(
    .NumVls(NumVls), .NumEntries(NumEntries), .BytesW(BytesW), .ResetEqual(1'b1)
  ) u_lo (
    .clk_i, .rst_ni,
    .cfg_we_i(cfg_we_i && !cfg_hi_i), .cfg_idx_i, .cfg_vl_i, .cfg_weight_i,
    .restart_i(cfg_we_i),
    .req_i, .pick_valid_o(lo_valid), .pick_cont_o(lo_cont), .pick_entry_o(lo_entry),
    .pick_vl_o(lo_vl),
    .commit_i(fire && !sel_hi), .commit_cont_i(sel_cont), .commit_entry_i(sel_entry),
    .commit_bytes_i(pkt_bytes),
    .ent_vl_o(lo_ent_vl), .ent_wt_o(lo_ent_wt),
    .cur_entry_o(cur_entry_o), .left_bytes_o(left_bytes_o)
  );
  ibs_vl_arb_table #(
    .NumVls(NumVls), .NumEntries(NumEntries), .BytesW(BytesW), .ResetEqual(1'b0)
  ) u_hi (
    .clk_i, .rst_ni,
    .cfg_we_i(cfg_we_i && cfg_hi_i), .cfg_idx_i, .cfg_vl_i, .cfg_weight_i,
    .restart_i(cfg_we_i),
    .req_i, .pick_valid_o(hi_valid), .pick_cont_o(hi_cont), .pick_entry_o(hi_entry),
    .pick_vl_o(hi_vl),
    .commit_i(fire && sel_hi), .commit_cont_i(sel_cont), .commit_entry_i(sel_entry),
    .commit_bytes_i(pkt_bytes),
    .ent_vl_o(hi_ent_vl), .ent_wt_o(hi_ent_wt),
    .cur_entry_o(hi_cur_entry_o), .left_bytes_o(hi_left_bytes_o)
  );

  // ------------------------------------------------------------------------------------------
  // High versus low (evaluate): from state, limit_i and req_i only.
  logic [HsW-1:0]  hs_q, hs_d;
  logic [HsW-1:0]  limit_bytes;  // max(limit_i * 4096, 1)
  logic            limit_reached;
  logic            fresh_hi;
  // Held grant: VL, table, whether it continues the current turn, and the entry of a new turn.
  logic            hold_q, hold_d;
  logic [3:0]      hold_vl_q;
  logic            hold_hi_q;
  logic            hold_cont_q;
  logic [IdxW-1:0] hold_entry_q;

  assign limit_bytes   = (limit_i == 8'd0) ? HsW'(1) : HsW'({limit_i, 12'd0});
  assign limit_reached = (limit_i != 8'd255) && (hs_q >= limit_bytes);
  assign fresh_hi      = hi_valid && !(lo_valid && limit_reached);

  always_comb begin
    if (hold_q) begin
      sel_valid = 1'b1;
      sel_hi    = hold_hi_q;
      sel_cont  = hold_cont_q;
      sel_vl    = hold_vl_q;
      sel_entry = hold_entry_q;
    end else begin
      sel_valid = hi_valid || lo_valid;
      sel_hi    = fresh_hi;
      sel_cont  = fresh_hi ? hi_cont : lo_cont;
      sel_vl    = fresh_hi ? hi_vl : lo_vl;
      sel_entry = fresh_hi ? hi_entry : lo_entry;
    end
  end

  assign gnt_valid_o = sel_valid && !cfg_we_i;
  assign gnt_vl_o    = sel_vl;
  assign gnt_hi_o    = sel_hi;
  always_comb begin
    for (int unsigned v = 0; v < NumVls; v++) gnt_o[v] = gnt_valid_o && (sel_vl == 4'(v));
  end

  // ------------------------------------------------------------------------------------------
  // Commit (update)
  always_comb begin
    pkt_bytes = '0;
    for (int unsigned v = 0; v < NumVls; v++) begin
      if (sel_vl == 4'(v)) pkt_bytes = req_bytes_i[BytesW*v +: BytesW];
    end
  end
  assign fire = gnt_valid_o && gnt_ready_i;

  always_comb begin
    hs_d = hs_q;
    if (cfg_we_i) begin
      hs_d = '0;
    end else if (fire && sel_hi) begin
      hs_d = (hs_q > HS_MAX - HsW'(pkt_bytes)) ? HS_MAX : hs_q + HsW'(pkt_bytes);
    end else if (fire) begin
      hs_d = '0;
    end
  end
  assign hold_d = gnt_valid_o && !gnt_ready_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      hs_q         <= '0;
      hold_q       <= 1'b0;
      hold_vl_q    <= '0;
      hold_hi_q    <= 1'b0;
      hold_cont_q  <= 1'b0;
      hold_entry_q <= '0;
    end else begin
      hs_q         <= hs_d;
      hold_q       <= hold_d;
      hold_vl_q    <= sel_vl;
      hold_hi_q    <= sel_hi;
      hold_cont_q  <= sel_cont;
      hold_entry_q <= sel_entry;
    end
  end

  assign hi_sent_o = hs_q;

  // ------------------------------------------------------------------------------------------
  // Assertions (docs/style.md §9): fire under Verilator --assert; skipped by synthesis.
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

  logic [15:0] req_ext;
  logic [7:0]  sel_wt;
  logic [3:0]  sel_ent_vl;
  assign req_ext    = 16'(req_i);
  assign sel_wt     = sel_hi ? hi_ent_wt[8*sel_entry +: 8] : lo_ent_wt[8*sel_entry +: 8];
  assign sel_ent_vl = sel_hi ? hi_ent_vl[4*sel_entry +: 4] : lo_ent_vl[4*sel_entry +: 4];

  // Grant one-hot and consistent with gnt_vl_o; nothing granted without valid.
  GntOneHot_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      gnt_valid_o ? $onehot(gnt_o) : (gnt_o == '0));
  // Grant implies request.
  GntReq_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (gnt_o & ~req_i) == '0);
  // Grant stable while the sink stalls (unless the table is rewritten).
  GntStable_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      gnt_valid_o && !gnt_ready_i |=> cfg_we_i || (gnt_valid_o && $stable(gnt_o)
                                                   && $stable(gnt_hi_o)));
  // A granted VL has a nonzero-weight entry for it in the granting table.
  GntEntry_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      gnt_valid_o |-> sel_wt != 8'd0 && sel_ent_vl == sel_vl);
  // Low is granted only if high has nothing eligible or the limit is reached (fresh grants).
  GntPrio_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      gnt_valid_o && !hold_q && !gnt_hi_o |-> !hi_valid || limit_reached);
  // Inputs: a held request stays, with its bytes; packets are not empty; table VLs in range.
  ReqHeld_M: assume property (@(posedge clk_i) disable iff (!rst_ni)
      hold_q && !cfg_we_i |-> req_ext[hold_vl_q]);
  PktBytes_M: assume property (@(posedge clk_i) disable iff (!rst_ni)
      gnt_valid_o |-> pkt_bytes != '0);
  CfgVl_M: assume property (@(posedge clk_i) disable iff (!rst_ni)
      cfg_we_i |-> cfg_vl_i < 4'(NumVls) && 32'(cfg_idx_i) < NumEntries);
  // Outputs known after reset.
  OutKnown_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      !$isunknown({gnt_valid_o, gnt_o, gnt_vl_o, gnt_hi_o, cur_entry_o, left_bytes_o,
                   hi_cur_entry_o, hi_left_bytes_o, hi_sent_o}));
`endif

endmodule
