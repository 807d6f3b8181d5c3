// FC packet generator of one switch input port (IB Vol.1 §7.9.4; docs/domain.md §2.2): emits a
// credit update (VL, FCCL) whenever the FCCL to advertise for a VL differs from the last one sent
// (and once per VL after reset), round-robin over the VLs with an update pending, at most one per
// cycle. Part of rtl/ib_switch_core; checked there (switch_core_check.cpp).
module ibs_fc_gen #(
  /// Data VLs, 1..15.
  parameter int unsigned NumVls = 2,
  localparam int unsigned VlW   = (NumVls > 1) ? $clog2(NumVls) : 1
) (
  input  logic                   clk_i,
  /* verilator lint_off SYNCASYNCNET */
  input  logic                   rst_ni,
  /* verilator lint_on SYNCASYNCNET */
  /// FCCL to advertise per VL (VL v in [12*v +: 12]), from the credit unit's receiver side.
  input  logic [12*NumVls-1:0]   adv_fccl_i,
  /// Credit update out. No back-pressure (the reverse link takes one per cycle).
  output logic                   fc_valid_o,
  output logic [3:0]             fc_vl_o,
  output logic [11:0]            fc_fccl_o
);

  logic [12*NumVls-1:0] last_q;
  logic [NumVls-1:0]    sent_q, pending;
  logic [VlW-1:0]       ptr_q, pick;
  logic                 found;

  always_comb begin
    for (int unsigned v = 0; v < NumVls; v++) begin
      pending[v] = !sent_q[v] || (last_q[12*v +: 12] != adv_fccl_i[12*v +: 12]);
    end
  end

  // First pending VL at or after ptr_q, wrapping.
  always_comb begin
    int unsigned idx;
    pick  = '0;
    found = 1'b0;
    for (int unsigned k = 0; k < NumVls; k++) begin
      idx = 32'(ptr_q) + k;
      if (idx >= NumVls) idx = idx - NumVls;
      if (!found && pending[idx]) begin
        pick  = VlW'(idx);
        found = 1'b1;
      end
    end
  end

  assign fc_valid_o = found;
  assign fc_vl_o    = 4'(pick);
  assign fc_fccl_o  = adv_fccl_i[12*32'(pick) +: 12];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      last_q <= '0;
      sent_q <= '0;
      ptr_q  <= '0;
    end else if (found) begin
      last_q[12*32'(pick) +: 12] <= adv_fccl_i[12*32'(pick) +: 12];
      sent_q[pick] <= 1'b1;
      ptr_q <= (32'(pick) + 1 == NumVls) ? '0 : VlW'(32'(pick) + 1);
    end
  end

`ifndef SYNTHESIS
  if (NumVls < 1 || NumVls > 15) begin : gen_num_vls_check
    $error("ibs_fc_gen: NumVls must be 1..15");
  end
  // An update carries the current advertisement of a pending VL.
  FcPending_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      fc_valid_o |-> pending[pick] && 32'(fc_vl_o) < NumVls);
  OutKnown_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      !$isunknown({fc_valid_o, fc_vl_o, fc_fccl_o}));
`endif

endmodule
