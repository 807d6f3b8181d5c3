// Credit-based link-level flow control for NumVls data VLs (IB Vol.1 ch.7.9; docs/domain.md §2.1-2.2).
// Golden reference: models/golden/credit_fc.{h,cpp} (credit_sender, credit_receiver), checked cycle
// by cycle by `ndrsim verify credit_fc` (rtl/credit_fc/credit_fc_check.cpp).
//
// One credit = one 64-byte block. FCTBS, FCCL and ABR are 12-bit counters, modulo 4096; at most
// 2048 blocks may be outstanding per VL.
//
// Sender side, per VL: FCTBS (total blocks sent) and FCCL (last credit limit received). A packet
// of n blocks may go iff (FCCL - (FCTBS + n)) mod 4096 <= 2048. Since (FCCL - FCTBS) mod 4096 <=
// 2048 always holds (TxOutstanding_A) and n < 2048, this equals the golden n <= available().
//
// Receiver side, per VL: ABR (adjusted blocks received), buffer occupancy, and the credit limit to
// advertise, FCCL = (ABR + min(free, 2048)) mod 4096 with free = BufBlocks - occupancy.
//
// Timing: every state register updates on the rising clk_i edge after the cycle its input was
// valid; all per-VL outputs are register outputs except snd_ready_o and sy_in_sync_o (see ports).
// Within one cycle the updates apply in the golden model's order: sender send, then FC update;
// receiver FCTBS sync (compare, then ABR := FCTBS), then receive, with the free independent.
module ib_credit_fc #(
  /// Data VLs, 1..15.
  parameter int unsigned NumVls    = 2,
  /// Receive buffer per VL in 64-byte blocks, 1..4095 (docs/domain.md §13: 512 = 32 KiB).
  parameter int unsigned BufBlocks = 512,
  /// Sender FCCL after reset (credit limit before the first FC packet), 0..2048 blocks.
  parameter int unsigned InitFccl  = 0,
  /// Width of a packet's block count; 7 bits = up to 127 blocks (an IB MTU packet is <= 67).
  parameter int unsigned BlocksW   = 7
) (
  input  logic                        clk_i,
  // Async reset for the registers; the assertions' `disable iff` samples it too, which the
  // linter reports as a sync use (SYNCASYNCNET, a false alarm for assertion-only logic).
  /* verilator lint_off SYNCASYNCNET */
  input  logic                        rst_ni,
  /* verilator lint_on SYNCASYNCNET */

  /// Send request (sender side). valid/ready; snd_vl_i and snd_blocks_i stable while
  /// snd_valid_i && !snd_ready_o. A packet of snd_blocks_i 64-byte blocks is sent on VL snd_vl_i
  /// on snd_valid_i && snd_ready_o (FCTBS += blocks at the next edge). snd_ready_o is
  /// combinational from snd_vl_i and snd_blocks_i (not from snd_valid_i): the credit check.
  input  logic                        snd_valid_i,
  output logic                        snd_ready_o,
  input  logic [3:0]                  snd_vl_i,
  input  logic [BlocksW-1:0]          snd_blocks_i,

  /// Credit update in (sender side), from a received FC packet. No back-pressure; at most one per
  /// cycle. cr_fccl_i is an absolute limit in 64-byte blocks, modulo 4096, and must be at most
  /// 2048 blocks ahead of FCTBS (after this cycle's send). Takes effect at the next edge.
  input  logic                        cr_valid_i,
  input  logic [3:0]                  cr_vl_i,
  input  logic [11:0]                 cr_fccl_i,

  /// Data packet received into the buffer (receiver side). No back-pressure; at most one per
  /// cycle. rcv_blocks_i must not exceed the VL's free blocks (the sender kept the credit rule).
  input  logic                        rcv_valid_i,
  input  logic [3:0]                  rcv_vl_i,
  input  logic [BlocksW-1:0]          rcv_blocks_i,

  /// Blocks leaving the buffer (receiver side). No back-pressure; at most one per cycle;
  /// fr_blocks_i must not exceed the VL's occupancy.
  input  logic                        fr_valid_i,
  input  logic [3:0]                  fr_vl_i,
  input  logic [11:0]                 fr_blocks_i,

  /// FCTBS carried by a received FC packet (receiver side). No back-pressure; at most one per
  /// cycle. ABR := sy_fctbs_i at the next edge. sy_in_sync_o is combinational from sy_vl_i and
  /// sy_fctbs_i: 1 iff the VL's ABR already equalled sy_fctbs_i (no blocks lost on the link).
  input  logic                        sy_valid_i,
  input  logic [3:0]                  sy_vl_i,
  input  logic [11:0]                 sy_fctbs_i,
  output logic                        sy_in_sync_o,

  /// Per-VL state, register outputs, 12 bits per VL with VL v in bits [12*v +: 12] (flat
  /// vectors: Yosys 0.23 reads no multi-dimensional packed ports). Sender: FCTBS and FCCL.
  /// Receiver: ABR, buffer occupancy (blocks, 0..BufBlocks) and the FCCL to advertise in the
  /// next FC packet (combinational from the receiver's registers only).
  output logic [12*NumVls-1:0]        tx_fctbs_o,
  output logic [12*NumVls-1:0]        tx_fccl_o,
  output logic [12*NumVls-1:0]        rx_abr_o,
  output logic [12*NumVls-1:0]        rx_occupied_o,
  output logic [12*NumVls-1:0]        rx_fccl_o
);

  localparam logic [11:0] MAX_OUTSTANDING = 12'd2048;
  localparam logic [11:0] BUF_BLOCKS = 12'(BufBlocks);

  logic [12*NumVls-1:0] fctbs_q, fctbs_d;
  logic [12*NumVls-1:0] fccl_q, fccl_d;
  logic [12*NumVls-1:0] abr_q, abr_d;
  logic [12*NumVls-1:0] occ_q, occ_d;
  logic [12*NumVls-1:0] adv_fccl;      // receiver FCCL to advertise
  logic [NumVls-1:0]       snd_ok;        // credit check per VL for snd_blocks_i
  logic [12*NumVls-1:0] fctbs_sent;    // FCTBS after this cycle's send

  // ------------------------------------------------------------------------------------------
  // Per-VL next state
  for (genvar v = 0; v < NumVls; v++) begin : gen_vl
    logic        snd_hit, cr_hit, rcv_hit, fr_hit, sy_hit;
    logic [11:0] fctbs, fccl, abr, occ;   // this VL's registers
    logic [11:0] free_blocks, abr_synced, fctbs_new;

    assign fctbs = fctbs_q[12*v +: 12];
    assign fccl  = fccl_q[12*v +: 12];
    assign abr   = abr_q[12*v +: 12];
    assign occ   = occ_q[12*v +: 12];

    assign snd_hit = snd_valid_i && snd_ready_o && (snd_vl_i == 4'(v));
`ifdef NDR_FAULT_CREDIT
    // Fault-injected build (checker self-test, `ndrsim verify credit_fc --fault drop_credit`):
    // every FC update is dropped. Never defined for the real block.
    assign cr_hit  = 1'b0;
`else
    assign cr_hit  = cr_valid_i && (cr_vl_i == 4'(v));
`endif
    assign rcv_hit = rcv_valid_i && (rcv_vl_i == 4'(v));
    assign fr_hit  = fr_valid_i && (fr_vl_i == 4'(v));
    assign sy_hit  = sy_valid_i && (sy_vl_i == 4'(v));

    // Sender: the IB rule, (FCCL - (FCTBS + n)) mod 4096 <= 2048; then send, then FC update.
    assign snd_ok[v] = 12'(fccl - 12'(fctbs + 12'(snd_blocks_i))) <= MAX_OUTSTANDING;
    assign fctbs_new = snd_hit ? 12'(fctbs + 12'(snd_blocks_i)) : fctbs;
    assign fctbs_sent[12*v +: 12] = fctbs_new;
    assign fctbs_d[12*v +: 12]    = fctbs_new;
    assign fccl_d[12*v +: 12]     = cr_hit ? cr_fccl_i : fccl;

    // Receiver: sync, then receive; occupancy counts receives in and frees out.
    assign abr_synced = sy_hit ? sy_fctbs_i : abr;
    assign abr_d[12*v +: 12] = rcv_hit ? 12'(abr_synced + 12'(rcv_blocks_i)) : abr_synced;
    assign occ_d[12*v +: 12] = 12'(occ + (rcv_hit ? 12'(rcv_blocks_i) : 12'd0)
                                       - (fr_hit ? fr_blocks_i : 12'd0));
    assign free_blocks = 12'(BUF_BLOCKS - occ);
    assign adv_fccl[12*v +: 12] =
        12'(abr + ((free_blocks > MAX_OUTSTANDING) ? MAX_OUTSTANDING : free_blocks));
  end : gen_vl

  // Combinational outputs: mux by the request's VL.
  always_comb begin
    snd_ready_o  = 1'b0;
    sy_in_sync_o = 1'b0;
    for (int unsigned v = 0; v < NumVls; v++) begin
      if (snd_vl_i == 4'(v)) snd_ready_o = snd_ok[v];
      if (sy_vl_i == 4'(v))  sy_in_sync_o = (abr_q[12*v +: 12] == sy_fctbs_i);
    end
  end

  // ------------------------------------------------------------------------------------------
  // Registers
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fctbs_q <= '0;
      fccl_q  <= {NumVls{12'(InitFccl)}};
      abr_q   <= '0;
      occ_q   <= '0;
    end else begin
      fctbs_q <= fctbs_d;
      fccl_q  <= fccl_d;
      abr_q   <= abr_d;
      occ_q   <= occ_d;
    end
  end

  assign tx_fctbs_o    = fctbs_q;
  assign tx_fccl_o     = fccl_q;
  assign rx_abr_o      = abr_q;
  assign rx_occupied_o = occ_q;
  assign rx_fccl_o     = adv_fccl;

  // ------------------------------------------------------------------------------------------
  // Assertions (docs/style.md §9): fire under Verilator --assert; skipped by synthesis.
`ifndef SYNTHESIS
  // Elaboration-time parameter checks.
  if (NumVls < 1 || NumVls > 15) begin : gen_num_vls_check
    $error("ib_credit_fc: NumVls must be 1..15");
  end
  if (BufBlocks < 1 || BufBlocks > 4095) begin : gen_buf_blocks_check
    $error("ib_credit_fc: BufBlocks must be 1..4095");
  end
  if (InitFccl > 2048) begin : gen_init_fccl_check
    $error("ib_credit_fc: InitFccl must be 0..2048");
  end
  if (BlocksW < 1 || BlocksW > 11) begin : gen_blocks_w_check
    $error("ib_credit_fc: BlocksW must be 1..11 (a packet is < 2048 blocks)");
  end

  for (genvar v = 0; v < NumVls; v++) begin : gen_vl_assert
    // Sender invariant: FCCL at most 2048 blocks ahead of FCTBS (12-bit counters wrap).
    TxOutstanding_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
        12'(fccl_q[12*v +: 12] - fctbs_q[12*v +: 12]) <= MAX_OUTSTANDING);
    // Receiver: occupancy within 0..BufBlocks (an overflowing receive or free breaks it).
    RxOccupancy_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
        occ_q[12*v +: 12] <= BUF_BLOCKS);
  end : gen_vl_assert

  // Per-VL input and handshake checks, sampled at the clock edge (clocked rather than in
  // always_comb, which would re-check a held input against the updated registers).
  for (genvar v = 0; v < NumVls; v++) begin : gen_vl_check
    logic [11:0] fctbs, fccl, occ;
    assign fctbs = fctbs_q[12*v +: 12];
    assign fccl  = fccl_q[12*v +: 12];
    assign occ   = occ_q[12*v +: 12];
    // No send without credit, in the non-aliasing form n <= (FCCL - FCTBS) mod 4096.
    SndCredit_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
        snd_valid_i && snd_ready_o && snd_vl_i == 4'(v)
        |-> 12'(snd_blocks_i) <= 12'(fccl - fctbs))
      else $error("ib_credit_fc: send of %0d blocks on VL%0d without credit", snd_blocks_i, v);
    // A credit update more than 2048 blocks ahead of (or behind) FCTBS is corrupt.
    CrFcclRange_M: assume property (@(posedge clk_i) disable iff (!rst_ni)
        cr_valid_i && cr_vl_i == 4'(v)
        |-> 12'(cr_fccl_i - fctbs_sent[12*v +: 12]) <= MAX_OUTSTANDING)
      else $error("ib_credit_fc: FCCL %0d out of range on VL%0d", cr_fccl_i, v);
    // The sender kept the credit rule: a received packet fits the free blocks.
    RcvFits_M: assume property (@(posedge clk_i) disable iff (!rst_ni)
        rcv_valid_i && rcv_vl_i == 4'(v) |-> 12'(rcv_blocks_i) <= 12'(BUF_BLOCKS - occ))
      else $error("ib_credit_fc: receive of %0d blocks on VL%0d overflows the buffer",
                  rcv_blocks_i, v);
    FrFits_M: assume property (@(posedge clk_i) disable iff (!rst_ni)
        fr_valid_i && fr_vl_i == 4'(v) |-> fr_blocks_i <= occ)
      else $error("ib_credit_fc: free of %0d blocks on VL%0d exceeds occupancy", fr_blocks_i, v);
  end : gen_vl_check

  // Request VLs name data VLs of this instance.
  SndVl_M: assume property (@(posedge clk_i) disable iff (!rst_ni)
      snd_valid_i |-> snd_vl_i < 4'(NumVls));
  CrVl_M: assume property (@(posedge clk_i) disable iff (!rst_ni)
      cr_valid_i |-> cr_vl_i < 4'(NumVls));
  RcvVl_M: assume property (@(posedge clk_i) disable iff (!rst_ni)
      rcv_valid_i |-> rcv_vl_i < 4'(NumVls));
  FrVl_M: assume property (@(posedge clk_i) disable iff (!rst_ni)
      fr_valid_i |-> fr_vl_i < 4'(NumVls));
  SyVl_M: assume property (@(posedge clk_i) disable iff (!rst_ni)
      sy_valid_i |-> sy_vl_i < 4'(NumVls));
  // valid/ready: a stalled send keeps its payload.
  SndStable_M: assume property (@(posedge clk_i) disable iff (!rst_ni)
      snd_valid_i && !snd_ready_o |=> snd_valid_i && $stable(snd_vl_i) && $stable(snd_blocks_i));

  // Outputs known after reset.
  OutKnown_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      !$isunknown({snd_ready_o, sy_in_sync_o, tx_fctbs_o, tx_fccl_o, rx_abr_o, rx_occupied_o,
                   rx_fccl_o}));
`endif

endmodule
