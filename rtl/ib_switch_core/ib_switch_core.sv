// A small complete InfiniBand switch core (issue #6): per port one credit unit (ib_credit_fc:
// receiver side = the input buffer's ABR/FCCL advertisement, sender side = the output's
// downstream credits), an FC generator (ibs_fc_gen), an input buffer with VOQs per output per VL
// (ibs_input_buffer, store-and-forward), one VL arbiter per output (ibs_vl_arb, low table), the
// iSLIP / round-robin allocator (ibs_switch_alloc) and the crossbar (ibs_xbar).
// Reference: the TLM scoreboard (tlm/scoreboard.h) checks what it delivers, payload-exact and in
// order per (input, output, VL): rtl/ib_switch_core/switch_core_check.cpp. Documented in
// rtl/README.md (ports, beat format, latency).
//
// Beat format (every port, both directions): one beat = one 64-byte credit block of a packet,
// carrying DataW bits of payload. Side-band: sop/eop frame the packet; with sop the header gives
// the VL (4 bits), the output port (inputs only; routing is done by the sender) and the length in
// blocks (= beats). Outputs repeat VL and length on every beat. The VL is kept through the switch.
//
// Pipeline: the eop beat written in cycle t makes the packet requestable in t + 1; VL arbitration
// and allocation are combinational in that cycle; the matched packet's first beat leaves in
// t + 2, then one beat per cycle (out_ready_i permitting). An output is busy from its match to
// its packet's eop, then idle for one cycle (the next allocation). Zero-load latency, header in
// to header out: len + 1 cycles.
module ib_switch_core #(
  /// Ports (inputs = outputs), 2..16.
  parameter int unsigned NumPorts   = 4,
  /// Data VLs, 1..15.
  parameter int unsigned NumVls     = 2,
  /// Input buffer per port per VL, in 64-byte blocks (= beats), 2..4095.
  parameter int unsigned BufBlocks  = 16,
  /// Beat payload width in bits.
  parameter int unsigned DataW      = 64,
  /// iSLIP iterations (islip_i = 1), 1..NumPorts.
  parameter int unsigned Iterations = 2,
  /// Width of a packet's block count (a packet is at most 2^BlocksW - 1 blocks).
  parameter int unsigned BlocksW    = 7,
  localparam int unsigned PortW     = $clog2(NumPorts),
  localparam int unsigned NumQ      = NumPorts * NumVls,
  localparam int unsigned XW        = 2 + 4 + BlocksW + DataW,  // {sop, eop, vl, len, data}
  localparam int unsigned ArbE      = (NumVls < 2) ? 2 : NumVls
) (
  input  logic                        clk_i,
  /* verilator lint_off SYNCASYNCNET */
  input  logic                        rst_ni,
  /* verilator lint_on SYNCASYNCNET */
  /// Allocator mode, static: 1 = iSLIP with Iterations iterations, 0 = round-robin.
  input  logic                        islip_i,

  /// Packets in, per input p (valid/ready; field of p at [W*p +: W]). in_vl_i, in_dst_i and
  /// in_len_i are read with in_sop_i. The sender must keep the IB credit rule against fc_*_o.
  input  logic [NumPorts-1:0]         in_valid_i,
  output logic [NumPorts-1:0]         in_ready_o,
  input  logic [NumPorts-1:0]         in_sop_i,
  input  logic [NumPorts-1:0]         in_eop_i,
  input  logic [4*NumPorts-1:0]       in_vl_i,
  input  logic [PortW*NumPorts-1:0]   in_dst_i,
  input  logic [BlocksW*NumPorts-1:0] in_len_i,
  input  logic [DataW*NumPorts-1:0]   in_data_i,

  /// Packets out, per output p (valid/ready). out_vl_o/out_len_o valid on every beat.
  output logic [NumPorts-1:0]         out_valid_o,
  input  logic [NumPorts-1:0]         out_ready_i,
  output logic [NumPorts-1:0]         out_sop_o,
  output logic [NumPorts-1:0]         out_eop_o,
  output logic [4*NumPorts-1:0]       out_vl_o,
  output logic [BlocksW*NumPorts-1:0] out_len_o,
  output logic [DataW*NumPorts-1:0]   out_data_o,

  /// Credit update in, per output p: FC packet (VL, absolute FCCL) from the downstream receiver.
  /// No back-pressure, one per cycle per port; FCCL at most 2048 blocks ahead of the sender.
  input  logic [NumPorts-1:0]         cr_valid_i,
  input  logic [4*NumPorts-1:0]       cr_vl_i,
  input  logic [12*NumPorts-1:0]      cr_fccl_i,

  /// Credit update out, per input p: FC packet for the upstream sender. No back-pressure.
  output logic [NumPorts-1:0]         fc_valid_o,
  output logic [4*NumPorts-1:0]       fc_vl_o,
  output logic [12*NumPorts-1:0]      fc_fccl_o,

  /// Credit state (register outputs of the credit units, port p VL v at [12*(p*NumVls + v)]):
  /// receiver side (input buffer) advertised FCCL and occupancy in blocks; sender side (output)
  /// FCTBS and FCCL.
  output logic [12*NumQ-1:0]          rx_fccl_o,
  output logic [12*NumQ-1:0]          rx_occupied_o,
  output logic [12*NumQ-1:0]          tx_fctbs_o,
  output logic [12*NumQ-1:0]          tx_fccl_o
);

  // ------------------------------------------------------------------------------------------
  // Per-input state of the packet crossing the crossbar.
  logic [NumPorts-1:0]       busy_q, first_q;   // input transferring; next beat is its first
  logic [PortW*NumPorts-1:0] tout_q;            // its output
  logic [4*NumPorts-1:0]     tvl_q;             // its VL
  logic [NumPorts-1:0]       obusy_q;           // output transferring
  logic [NumPorts*NumPorts-1:0] sel_q;          // crossbar connections

  // Input buffers.
  logic [NumPorts*NumQ-1:0]         pkt_avail;   // input i: [NumQ*i +: NumQ]
  logic [NumPorts*NumQ*BlocksW-1:0] head_len;
  logic [NumPorts-1:0]              rd_valid, rd_ready, rd_eop, fr_valid, in_fire;
  logic [BlocksW*NumPorts-1:0]      rd_len;
  logic [DataW*NumPorts-1:0]        rd_data;
  logic [4*NumPorts-1:0]            fr_vl;

  // Output side: VL arbitration, allocation.
  logic [NumPorts*NumVls-1:0]       vreq;        // output o: [NumVls*o +: NumVls]
  logic [NumPorts-1:0]              gnt_valid, gnt_take;
  logic [4*NumPorts-1:0]            gnt_vl;
  logic [NumPorts*NumPorts-1:0]     areq, match;
  logic [BlocksW*NumPorts-1:0]      mlen;        // per output: length of the matched packet
  logic [NumPorts*13*NumVls-1:0]    arb_bytes;

  /// Credits of output o on VL v: (FCCL - FCTBS) mod 4096.
  function automatic logic [11:0] avail(logic [12*NumQ-1:0] fccl, logic [12*NumQ-1:0] fctbs,
                                        int unsigned q);
    avail = 12'(fccl[12*q +: 12] - fctbs[12*q +: 12]);
  endfunction

  // A packet at the head of VOQ (o, v) of input i that the output's credits cover.
  logic [NumPorts*NumQ-1:0] fits;   // input i: [NumQ*i + o*NumVls + v]
  always_comb begin
    for (int unsigned i = 0; i < NumPorts; i++) begin
      for (int unsigned q = 0; q < NumQ; q++) begin
        fits[NumQ*i + q] = pkt_avail[NumQ*i + q] &&
            12'(head_len[BlocksW*(NumQ*i + q) +: BlocksW]) <= avail(tx_fccl_o, tx_fctbs_o, q);
      end
    end
  end

  always_comb begin
    vreq = '0;
    for (int unsigned o = 0; o < NumPorts; o++) begin
      for (int unsigned v = 0; v < NumVls; v++) begin
        for (int unsigned i = 0; i < NumPorts; i++) begin
          if (fits[NumQ*i + o*NumVls + v] && !obusy_q[o]) vreq[NumVls*o + v] = 1'b1;
        end
      end
    end
  end

  // Allocator requests: free input, free output, the output's granted VL fits.
  always_comb begin
    areq = '0;
    for (int unsigned i = 0; i < NumPorts; i++) begin
      for (int unsigned o = 0; o < NumPorts; o++) begin
        for (int unsigned v = 0; v < NumVls; v++) begin
          if (!busy_q[i] && !obusy_q[o] && gnt_valid[o] && gnt_vl[4*o +: 4] == 4'(v) &&
              fits[NumQ*i + o*NumVls + v]) begin
            areq[i*NumPorts + o] = 1'b1;
          end
        end
      end
    end
  end

  ibs_switch_alloc #(.NumPorts(NumPorts), .Iterations(Iterations)) u_alloc (
    .clk_i, .rst_ni, .islip_i,
    .req_i              (areq),
    .gnt_o              (match),
    /* verilator lint_off PINCONNECTEMPTY */   // state outputs for the block's own checker
    .grant_ptr_o        (),
    .accept_ptr_o       ()
    /* verilator lint_on PINCONNECTEMPTY */
  );

  always_comb begin
    gnt_take = '0;
    mlen     = '0;
    for (int unsigned i = 0; i < NumPorts; i++) begin
      for (int unsigned o = 0; o < NumPorts; o++) begin
        for (int unsigned v = 0; v < NumVls; v++) begin
          if (match[i*NumPorts + o] && gnt_vl[4*o +: 4] == 4'(v)) begin
            gnt_take[o] = 1'b1;
            mlen[BlocksW*o +: BlocksW] = head_len[BlocksW*(NumQ*i + o*NumVls + v) +: BlocksW];
          end
        end
      end
    end
  end

  // ------------------------------------------------------------------------------------------
  // Per port: input buffer, credit unit, FC generator, output VL arbiter.
  for (genvar p = 0; p < NumPorts; p++) begin : gen_port
    assign in_fire[p] = in_valid_i[p] && in_ready_o[p];

    ibs_input_buffer #(
      .NumPorts(NumPorts), .NumVls(NumVls), .BufBlocks(BufBlocks), .DataW(DataW),
      .BlocksW(BlocksW)
    ) u_ibuf (
      .clk_i, .rst_ni,
      .wr_valid_i  (in_valid_i[p]),
      .wr_ready_o  (in_ready_o[p]),
      .wr_sop_i    (in_sop_i[p]),
      .wr_eop_i    (in_eop_i[p]),
      .wr_vl_i     (in_vl_i[4*p +: 4]),
      .wr_dst_i    (in_dst_i[PortW*p +: PortW]),
      .wr_len_i    (in_len_i[BlocksW*p +: BlocksW]),
      .wr_data_i   (in_data_i[DataW*p +: DataW]),
      .pkt_avail_o (pkt_avail[NumQ*p +: NumQ]),
      .head_len_o  (head_len[NumQ*BlocksW*p +: NumQ*BlocksW]),
      .rd_out_i    (tout_q[PortW*p +: PortW]),
      .rd_vl_i     (tvl_q[4*p +: 4]),
      .rd_valid_o  (rd_valid[p]),
      .rd_ready_i  (rd_ready[p]),
      .rd_eop_o    (rd_eop[p]),
      .rd_len_o    (rd_len[BlocksW*p +: BlocksW]),
      .rd_data_o   (rd_data[DataW*p +: DataW]),
      .fr_valid_o  (fr_valid[p]),
      .fr_vl_o     (fr_vl[4*p +: 4])
    );

    /* verilator lint_off UNUSEDSIGNAL */
    logic snd_ready, in_sync;   // snd_ready: checked by SndOk_A only
    /* verilator lint_on UNUSEDSIGNAL */
    logic [12*NumVls-1:0] adv;
    ib_credit_fc #(
      .NumVls(NumVls), .BufBlocks(BufBlocks), .InitFccl(0), .BlocksW(BlocksW)
    ) u_credit (
      .clk_i, .rst_ni,
      .snd_valid_i     (gnt_take[p]),
      .snd_ready_o     (snd_ready),
      .snd_vl_i        (gnt_vl[4*p +: 4]),
      .snd_blocks_i    (mlen[BlocksW*p +: BlocksW]),
      .cr_valid_i      (cr_valid_i[p]),
      .cr_vl_i         (cr_vl_i[4*p +: 4]),
      .cr_fccl_i       (cr_fccl_i[12*p +: 12]),
      .rcv_valid_i     (in_fire[p] && in_sop_i[p]),
      .rcv_vl_i        (in_vl_i[4*p +: 4]),
      .rcv_blocks_i    (in_len_i[BlocksW*p +: BlocksW]),
      .fr_valid_i      (fr_valid[p]),
      .fr_vl_i         (fr_vl[4*p +: 4]),
      .fr_blocks_i     (12'd1),
      .sy_valid_i      (1'b0),
      .sy_vl_i         (4'd0),
      .sy_fctbs_i      (12'd0),
      .sy_in_sync_o    (in_sync),
      .tx_fctbs_o      (tx_fctbs_o[12*NumVls*p +: 12*NumVls]),
      .tx_fccl_o       (tx_fccl_o[12*NumVls*p +: 12*NumVls]),
      /* verilator lint_off PINCONNECTEMPTY */
      .rx_abr_o        (),
      /* verilator lint_on PINCONNECTEMPTY */
      .rx_occupied_o   (rx_occupied_o[12*NumVls*p +: 12*NumVls]),
      .rx_fccl_o       (adv)
    );
    assign rx_fccl_o[12*NumVls*p +: 12*NumVls] = adv;

    ibs_fc_gen #(.NumVls(NumVls)) u_fc (
      .clk_i, .rst_ni,
      .adv_fccl_i (adv),
      .fc_valid_o (fc_valid_o[p]),
      .fc_vl_o    (fc_vl_o[4*p +: 4]),
      .fc_fccl_o  (fc_fccl_o[12*p +: 12])
    );

    // VL arbiter of output p; the committed bytes are the matched packet's blocks x 64.
    for (genvar v = 0; v < NumVls; v++) begin : gen_bytes
      assign arb_bytes[13*(NumVls*p + v) +: 13] =
          gnt_take[p] ? {mlen[BlocksW*p +: BlocksW], 6'b0} : 13'd64;
    end
    /* verilator lint_off UNUSEDSIGNAL */
    logic [NumVls-1:0] gnt_onehot;
    /* verilator lint_on UNUSEDSIGNAL */
    ibs_vl_arb #(.NumVls(NumVls), .NumEntries(ArbE), .BytesW(13)) u_vlarb (
      .clk_i, .rst_ni,
      .cfg_we_i           (1'b0),
      .cfg_hi_i           (1'b0),
      .cfg_idx_i          ('0),
      .cfg_vl_i           (4'd0),
      .cfg_weight_i       (8'd0),
      .limit_i            (8'd0),
      .req_i              (vreq[NumVls*p +: NumVls]),
      .req_bytes_i        (arb_bytes[13*NumVls*p +: 13*NumVls]),
      .gnt_valid_o        (gnt_valid[p]),
      .gnt_ready_i        (gnt_take[p]),
      .gnt_o              (gnt_onehot),
      .gnt_vl_o           (gnt_vl[4*p +: 4]),
      /* verilator lint_off PINCONNECTEMPTY */
      .gnt_hi_o           (),
      .cur_entry_o        (),
      .left_bytes_o       (),
      .hi_cur_entry_o     (),
      .hi_left_bytes_o    (),
      .hi_sent_o          ()
      /* verilator lint_on PINCONNECTEMPTY */
    );

`ifndef SYNTHESIS
    // The match only starts packets the output's credits cover (the credit unit agrees).
    SndOk_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
        gnt_take[p] |-> snd_ready)
      else $error("ib_switch_core: output %0d started a packet without credit", p);
`endif
  end : gen_port

  // ------------------------------------------------------------------------------------------
  // Crossbar: input i's head beat of the selected VOQ while it transfers.
  logic [NumPorts-1:0]    x_in_valid, x_in_ready;
  logic [XW*NumPorts-1:0] x_in_data, x_out_data;
  always_comb begin
    for (int unsigned i = 0; i < NumPorts; i++) begin
      x_in_valid[i] = busy_q[i] && rd_valid[i];
      x_in_data[XW*i +: XW] = {first_q[i], rd_eop[i], tvl_q[4*i +: 4],
                               rd_len[BlocksW*i +: BlocksW], rd_data[DataW*i +: DataW]};
      rd_ready[i] = busy_q[i] && x_in_ready[i];
    end
  end

  ibs_xbar #(.NumPorts(NumPorts), .DataW(XW)) u_xbar (
    .clk_i, .rst_ni,
    .sel_i       (sel_q),
    .in_valid_i  (x_in_valid),
    .in_ready_o  (x_in_ready),
    .in_data_i   (x_in_data),
    .out_valid_o (out_valid_o),
    .out_ready_i (out_ready_i),
    .out_data_o  (x_out_data)
  );

  always_comb begin
    for (int unsigned o = 0; o < NumPorts; o++) begin
      {out_sop_o[o], out_eop_o[o], out_vl_o[4*o +: 4], out_len_o[BlocksW*o +: BlocksW],
       out_data_o[DataW*o +: DataW]} = x_out_data[XW*o +: XW];
    end
  end

  // ------------------------------------------------------------------------------------------
  // Transfer state: a match starts a packet, its eop beat ends it.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q  <= '0;
      first_q <= '0;
      tout_q  <= '0;
      tvl_q   <= '0;
      obusy_q <= '0;
      sel_q   <= '0;
    end else begin
      for (int unsigned i = 0; i < NumPorts; i++) begin
        if (rd_valid[i] && rd_ready[i]) begin
          first_q[i] <= 1'b0;
          if (rd_eop[i]) begin
            busy_q[i] <= 1'b0;
            obusy_q[tout_q[PortW*i +: PortW]] <= 1'b0;
            sel_q[i*NumPorts +: NumPorts] <= '0;
          end
        end
        for (int unsigned o = 0; o < NumPorts; o++) begin
          if (match[i*NumPorts + o]) begin
            busy_q[i]  <= 1'b1;
            first_q[i] <= 1'b1;
            tout_q[PortW*i +: PortW] <= PortW'(o);
            tvl_q[4*i +: 4] <= gnt_vl[4*o +: 4];
            obusy_q[o] <= 1'b1;
            sel_q[i*NumPorts + o] <= 1'b1;
          end
        end
      end
    end
  end

`ifndef SYNTHESIS
  if (NumPorts < 2 || NumPorts > 16) begin : gen_num_ports_check
    $error("ib_switch_core: NumPorts must be 2..16");
  end
  // A transfer has its whole packet in the buffer: no bubble once started.
  for (genvar i = 0; i < NumPorts; i++) begin : gen_in_assert
    NoBubble_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
        busy_q[i] |-> rd_valid[i]);
    // The crossbar connection of a busy input is its output, and only that.
    SelRow_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
        busy_q[i] ? (sel_q[i*NumPorts +: NumPorts] ==
                     (NumPorts'(1) << tout_q[PortW*i +: PortW]))
                  : (sel_q[i*NumPorts +: NumPorts] == '0));
  end
  // Credit invariants per port and VL: occupancy within the buffer, no more credit advertised
  // than free space, and the sender within its limit (the credit units assert the rest).
  for (genvar q = 0; q < NumQ; q++) begin : gen_q_assert
    RxAdv_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
        rx_occupied_o[12*q +: 12] <= 12'(BufBlocks));
  end
  // Every started packet belongs to a busy output.
  ObusyMatch_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (match & ~areq) == '0);
`endif

endmodule
