// Input buffer of one switch input port: per data VL a shared pool of BufBlocks entries (one
// entry = one beat = one 64-byte credit block), organised as virtual output queues (one linked
// list per output port per VL). Store-and-forward: a VOQ offers a packet once its last beat is
// in (pkt_avail_o). Reference: models/cycle/ib_switch (VOQ input buffers); checked as part of
// rtl/ib_switch_core against the TLM scoreboard (rtl/ib_switch_core/switch_core_check.cpp).
//
// Write side: beats of one packet at a time (valid/ready). The header beat (wr_sop_i) carries the
// packet's VL, output port and length in blocks; later beats use the registered header. A beat is
// stored in the lowest free entry of its VL's pool and linked at the tail of VOQ (dst, VL).
// Read side: the caller selects a VOQ (rd_out_i, rd_vl_i) and pops its head beat on
// rd_valid_o && rd_ready_i. Every popped beat frees one block (fr_valid_o, to the credit unit).
module ibs_input_buffer #(
  /// Output ports (VOQs per VL), 2..16.
  parameter int unsigned NumPorts  = 4,
  /// Data VLs, 1..15.
  parameter int unsigned NumVls    = 2,
  /// Pool per VL in 64-byte blocks (= beats), 2..4095.
  parameter int unsigned BufBlocks = 16,
  /// Beat payload width in bits.
  parameter int unsigned DataW     = 64,
  /// Width of a packet's block count.
  parameter int unsigned BlocksW   = 7,
  localparam int unsigned PortW    = $clog2(NumPorts),
  localparam int unsigned IdxW     = $clog2(BufBlocks),
  localparam int unsigned CntW     = $clog2(BufBlocks + 1),
  localparam int unsigned NumQ     = NumPorts * NumVls
) (
  input  logic                       clk_i,
  /* verilator lint_off SYNCASYNCNET */
  input  logic                       rst_ni,
  /* verilator lint_on SYNCASYNCNET */

  /// Beats in (valid/ready). wr_vl_i, wr_dst_i and wr_len_i are read with wr_sop_i only.
  /// wr_ready_o is combinational from the header (sop) or the registered VL: 1 iff the VL's
  /// pool has a free entry (always, when the sender kept the credit rule).
  input  logic                       wr_valid_i,
  output logic                       wr_ready_o,
  input  logic                       wr_sop_i,
  input  logic                       wr_eop_i,
  input  logic [3:0]                 wr_vl_i,
  input  logic [PortW-1:0]           wr_dst_i,
  input  logic [BlocksW-1:0]         wr_len_i,
  input  logic [DataW-1:0]           wr_data_i,

  /// VOQ status: bit (o*NumVls + v) = VOQ (o, v) holds at least one complete packet; the head
  /// packet's length in [BlocksW*(o*NumVls + v) +: BlocksW] (0 if the VOQ is empty).
  output logic [NumQ-1:0]            pkt_avail_o,
  output logic [NumQ*BlocksW-1:0]    head_len_o,

  /// Beats out (valid/ready) from the VOQ selected by rd_out_i/rd_vl_i (stable while popping a
  /// packet). rd_valid_o: the VOQ is not empty. rd_eop_o/rd_len_o/rd_data_o: its head beat.
  input  logic [PortW-1:0]           rd_out_i,
  input  logic [3:0]                 rd_vl_i,
  output logic                       rd_valid_o,
  input  logic                       rd_ready_i,
  output logic                       rd_eop_o,
  output logic [BlocksW-1:0]         rd_len_o,
  output logic [DataW-1:0]           rd_data_o,

  /// Block freed (one per popped beat), to the credit unit's receiver side. No back-pressure.
  output logic                       fr_valid_o,
  output logic [3:0]                 fr_vl_o
);

  localparam int unsigned EntW = 1 + BlocksW + DataW;  // {eop, len, data}

  // Header of the packet being written.
  logic [3:0]         cur_vl_q, wvl;
  logic [PortW-1:0]   cur_dst_q, wdst;
  logic [BlocksW-1:0] cur_len_q, wlen;
  assign wvl  = wr_sop_i ? wr_vl_i  : cur_vl_q;
  assign wdst = wr_sop_i ? wr_dst_i : cur_dst_q;
  assign wlen = wr_sop_i ? wr_len_i : cur_len_q;

  logic [NumVls-1:0] vl_has_free;
  logic [NumVls-1:0] rd_vl_valid;
  logic [NumVls*EntW-1:0] rd_ent;   // head entry of VOQ (rd_out_i, v) per VL
  logic wr_fire, rd_fire;

  always_comb begin
    wr_ready_o = 1'b0;
    rd_valid_o = 1'b0;
    {rd_eop_o, rd_len_o, rd_data_o} = '0;
    for (int unsigned v = 0; v < NumVls; v++) begin
      if (wvl == 4'(v)) wr_ready_o = vl_has_free[v];
      if (rd_vl_i == 4'(v)) begin
        rd_valid_o = rd_vl_valid[v];
        {rd_eop_o, rd_len_o, rd_data_o} = rd_ent[EntW*v +: EntW];
      end
    end
  end
  assign wr_fire = wr_valid_i && wr_ready_o;
  assign rd_fire = rd_valid_o && rd_ready_i;

  // Freed block, one per popped beat. The fault build (NDR_FAULT_DROP_CREDIT) loses every 8th
  // free: the buffer empties but the credit unit keeps the blocks occupied (a credit leak).
`ifdef NDR_FAULT_DROP_CREDIT
  logic [2:0] fault_cnt_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) fault_cnt_q <= '0;
    else if (rd_fire) fault_cnt_q <= fault_cnt_q + 3'd1;
  end
  assign fr_valid_o = rd_fire && (fault_cnt_q != 3'd7);
`else
  assign fr_valid_o = rd_fire;
`endif
  assign fr_vl_o = rd_vl_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cur_vl_q  <= '0;
      cur_dst_q <= '0;
      cur_len_q <= '0;
    end else if (wr_fire && wr_sop_i) begin
      cur_vl_q  <= wr_vl_i;
      cur_dst_q <= wr_dst_i;
      cur_len_q <= wr_len_i;
    end
  end

  // ------------------------------------------------------------------------------------------
  // One pool per VL.
  for (genvar v = 0; v < NumVls; v++) begin : gen_vl
    logic [EntW-1:0]       mem_q [BufBlocks];   // beats
    logic [IdxW-1:0]       nxt_q [BufBlocks];   // next entry in the same VOQ
    logic [BufBlocks-1:0]  free_q, free_d;      // 1 = entry free
    logic [NumPorts*IdxW-1:0] head_q, head_d, tail_q, tail_d;
    logic [NumPorts*CntW-1:0] beats_q, beats_d, pkts_q, pkts_d;
    logic [IdxW-1:0] alloc_idx, pop_idx;
    logic wr_hit, rd_hit;

    assign wr_hit = wr_fire && (wvl == 4'(v));
    assign rd_hit = rd_fire && (rd_vl_i == 4'(v));

    // Lowest free entry.
    always_comb begin
      alloc_idx = '0;
      for (int e = BufBlocks - 1; e >= 0; e--) begin
        if (free_q[e]) alloc_idx = IdxW'(e);
      end
    end
    assign vl_has_free[v] = free_q != '0;

    assign pop_idx = head_q[IdxW*rd_out_i +: IdxW];
    assign rd_vl_valid[v] = beats_q[CntW*rd_out_i +: CntW] != '0;
    assign rd_ent[EntW*v +: EntW] = mem_q[pop_idx];

    for (genvar o = 0; o < NumPorts; o++) begin : gen_q
      assign pkt_avail_o[o*NumVls + v] = pkts_q[CntW*o +: CntW] != '0;
      assign head_len_o[BlocksW*(o*NumVls + v) +: BlocksW] =
          (beats_q[CntW*o +: CntW] != '0) ? mem_q[head_q[IdxW*o +: IdxW]][DataW +: BlocksW] : '0;
    end

    // VOQ state: head/tail/beat and complete-packet counts.
    always_comb begin
      free_d  = free_q;
      head_d  = head_q;
      tail_d  = tail_q;
      beats_d = beats_q;
      pkts_d  = pkts_q;
      if (rd_hit) begin
        free_d[pop_idx] = 1'b1;
        head_d[IdxW*rd_out_i +: IdxW] = nxt_q[pop_idx];
        beats_d[CntW*rd_out_i +: CntW] = beats_d[CntW*rd_out_i +: CntW] - CntW'(1);
        if (rd_eop_o) pkts_d[CntW*rd_out_i +: CntW] = pkts_d[CntW*rd_out_i +: CntW] - CntW'(1);
      end
      if (wr_hit) begin
        free_d[alloc_idx] = 1'b0;
        // An empty VOQ (after this cycle's pop) starts at the new entry.
        if (beats_d[CntW*wdst +: CntW] == '0) head_d[IdxW*wdst +: IdxW] = alloc_idx;
        tail_d[IdxW*wdst +: IdxW] = alloc_idx;
        beats_d[CntW*wdst +: CntW] = beats_d[CntW*wdst +: CntW] + CntW'(1);
        if (wr_eop_i) pkts_d[CntW*wdst +: CntW] = pkts_d[CntW*wdst +: CntW] + CntW'(1);
      end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        free_q  <= '1;
        head_q  <= '0;
        tail_q  <= '0;
        beats_q <= '0;
        pkts_q  <= '0;
      end else begin
        free_q  <= free_d;
        head_q  <= head_d;
        tail_q  <= tail_d;
        beats_q <= beats_d;
        pkts_q  <= pkts_d;
      end
    end

    // Storage (no reset): the beat, and the link from the old tail to the new entry.
    always_ff @(posedge clk_i) begin
      if (wr_hit) begin
        mem_q[alloc_idx] <= {wr_eop_i, wlen, wr_data_i};
        if (beats_q[CntW*wdst +: CntW] != '0) nxt_q[tail_q[IdxW*wdst +: IdxW]] <= alloc_idx;
      end
    end

`ifndef SYNTHESIS
    logic [CntW:0] used;
    always_comb begin
      used = '0;
      for (int unsigned o = 0; o < NumPorts; o++) used = used + (CntW+1)'(beats_q[CntW*o +: CntW]);
    end
    // Never over capacity: the beats queued equal the entries taken from the pool.
    Capacity_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
        32'(used) == BufBlocks - 32'($countones(free_q)));
    // No write into a full pool (the sender broke the credit rule, or the credits leaked).
    WrFull_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
        wr_valid_i && wvl == 4'(v) |-> free_q != '0)
      else $error("ibs_input_buffer: beat on VL%0d with the pool full", v);
    // No pop from an empty VOQ, and the popped entry is in use.
    RdEmpty_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
        rd_hit |-> beats_q[CntW*rd_out_i +: CntW] != '0 && !free_q[pop_idx]);
    // A VOQ never holds more complete packets than beats.
    for (genvar o = 0; o < NumPorts; o++) begin : gen_q_assert
      PktsBeats_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
          pkts_q[CntW*o +: CntW] <= beats_q[CntW*o +: CntW]);
    end
`endif
  end : gen_vl

`ifndef SYNTHESIS
  if (NumPorts < 2 || NumPorts > 16) begin : gen_num_ports_check
    $error("ibs_input_buffer: NumPorts must be 2..16");
  end
  if (NumVls < 1 || NumVls > 15) begin : gen_num_vls_check
    $error("ibs_input_buffer: NumVls must be 1..15");
  end
  if (BufBlocks < 2 || BufBlocks > 4095) begin : gen_buf_check
    $error("ibs_input_buffer: BufBlocks must be 2..4095");
  end

  // Packet framing: beats since the header, checked against the header's length at eop.
  logic [BlocksW-1:0] wr_beats_q;
  logic               in_pkt_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wr_beats_q <= '0;
      in_pkt_q   <= 1'b0;
    end else if (wr_fire) begin
      wr_beats_q <= wr_eop_i ? '0 : BlocksW'((wr_sop_i ? '0 : wr_beats_q) + 1'b1);
      in_pkt_q   <= !wr_eop_i;
    end
  end
  // A header starts every packet and only a packet; the length is at least 1 and exact.
  SopFrame_M: assume property (@(posedge clk_i) disable iff (!rst_ni)
      wr_valid_i |-> wr_sop_i == !in_pkt_q);
  LenNonZero_M: assume property (@(posedge clk_i) disable iff (!rst_ni)
      wr_valid_i && wr_sop_i |-> wr_len_i != '0);
  LenExact_M: assume property (@(posedge clk_i) disable iff (!rst_ni)
      wr_valid_i |-> wr_eop_i == (BlocksW'((wr_sop_i ? '0 : wr_beats_q) + 1'b1) == wlen))
    else $error("ibs_input_buffer: eop does not match the header length %0d", wlen);
  HdrRange_M: assume property (@(posedge clk_i) disable iff (!rst_ni)
      wr_valid_i && wr_sop_i |-> wr_vl_i < 4'(NumVls) && 32'(wr_dst_i) < NumPorts);
  // Stable payload while stalled.
  WrStable_M: assume property (@(posedge clk_i) disable iff (!rst_ni)
      wr_valid_i && !wr_ready_o |=> wr_valid_i && $stable(wr_data_i) && $stable(wr_sop_i));
  RdVl_M: assume property (@(posedge clk_i) disable iff (!rst_ni)
      rd_ready_i |-> rd_vl_i < 4'(NumVls) && 32'(rd_out_i) < NumPorts);
  OutKnown_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      !$isunknown({wr_ready_o, pkt_avail_o, rd_valid_o, fr_valid_o}));
`endif

endmodule
