// Separable switch allocator of the crossbar (iSLIP, N. McKeown, "The iSLIP scheduling algorithm
// for input-queued switches", IEEE/ACM ToN 7(2), 1999), without VLs and without the per-packet
// eligibility filters of the cycle model. Reference: the golden rule that the cycle model runs,
// models/golden/switch_alloc.h (golden::switch_alloc), with a plain round-robin grant oracle;
// checked cycle by cycle against it by `ndrsim verify switch_alloc`
// (rtl/switch_alloc/switch_alloc_check.cpp).
//
// Semantics (islip_i = 1, switch_alloc::islip):
//  * Per output o a grant pointer gptr[o], per input i an accept pointer aptr[i], 0..NumPorts-1,
//    reset to 0. rr_pick(m, p) = the first set bit of m at or after p, wrapping.
//  * Iteration k = 0 .. Iterations-1, among inputs and outputs not matched yet:
//    grant: every unmatched output grants rr_pick(unmatched inputs requesting it, gptr[o]);
//    accept: every input with grants accepts rr_pick(granting outputs, aptr[i]); the pair is
//    matched. On iteration 0 only: gptr[o] := (i + 1) mod N and aptr[i] := (o + 1) mod N.
//    (The golden rule stops early once no grant is lost; no further match is possible then, so
//    running all iterations gives the same matching.)
// Semantics (islip_i = 0, switch_alloc::input_first, separable input-first round-robin, one
// iteration):
//  * every input with requests picks rr_pick(its requests, aptr[i]); every output picked by some
//    inputs grants rr_pick(those inputs, gptr[o]); for each matched pair gptr[o] := (i + 1) mod N
//    and aptr[i] := (o + 1) mod N.
// The caller masks req_i with its free inputs and outputs (the cycle model's free_in/free_out).
module ibs_switch_alloc #(
  /// Crossbar ports (inputs = outputs), 2..16.
  parameter int unsigned NumPorts   = 4,
  /// iSLIP iterations per allocation, 1..NumPorts.
  parameter int unsigned Iterations = 2,
  localparam int unsigned PtrW      = $clog2(NumPorts)
) (
  input  logic                         clk_i,
  // Async reset for the pointers; the assertions' `disable iff` samples it too (SYNCASYNCNET,
  // a false alarm for assertion-only logic).
  /* verilator lint_off SYNCASYNCNET */
  input  logic                         rst_ni,
  /* verilator lint_on SYNCASYNCNET */

  /// Mode, static or changed between allocations: 1 = iSLIP (Iterations iterations),
  /// 0 = separable input-first round-robin (one iteration).
  input  logic                         islip_i,
  /// Request matrix. No handshake: sampled every cycle; req_i[i*NumPorts + o] = input i has a
  /// packet for output o (and both are free).
  input  logic [NumPorts*NumPorts-1:0] req_i,
  /// Matching. gnt_o[i*NumPorts + o] = input i is connected to output o this cycle; at most one
  /// bit per input and per output, only where requested. Combinational from req_i, islip_i
  /// and the pointers; the pointers take their new values at the next edge.
  output logic [NumPorts*NumPorts-1:0] gnt_o,
  /// Pointers for the checker: gptr of output o in [PtrW*o +: PtrW], aptr of input i likewise.
  output logic [NumPorts*PtrW-1:0]     grant_ptr_o,
  output logic [NumPorts*PtrW-1:0]     accept_ptr_o
);

  // Pointers, flat (Yosys 0.23 reads no multi-dimensional packed ports or arrays in
  // always_comb): gptr of output o in [PtrW*o +: PtrW], aptr of input i likewise.
  logic [NumPorts*PtrW-1:0] gptr_q, gptr_d, aptr_q, aptr_d;

  /// First set bit of m at or after position `from`, wrapping; valid only if m != 0.
  function automatic logic [PtrW-1:0] rr_pick(logic [NumPorts-1:0] m, logic [PtrW-1:0] from);
    logic [PtrW-1:0] pick_v;
    logic            found;
    int unsigned     idx;
    pick_v = '0;
    found  = 1'b0;
    for (int unsigned k = 0; k < NumPorts; k++) begin
      idx = 32'(from) + k;
      if (idx >= NumPorts) idx = idx - NumPorts;
      if (!found && m[idx]) begin
        pick_v = PtrW'(idx);
        found  = 1'b1;
      end
    end
    rr_pick = pick_v;
  endfunction

  /// (p + 1) mod NumPorts.
  function automatic logic [PtrW-1:0] next_ptr(int unsigned p);
    next_ptr = (p + 1 == NumPorts) ? '0 : PtrW'(p + 1);
  endfunction

  // Allocation: a combinational unrolling of the iterations.
  logic [NumPorts-1:0] matched_in, matched_out;
  // iSLIP: per input i, the outputs granting it in [NumPorts*i +: NumPorts]; input-first: per
  // output o, the inputs that picked it.
  logic [NumPorts*NumPorts-1:0] in_grants;
  logic [NumPorts-1:0] col;
  logic [PtrW-1:0]     pick;

  always_comb begin
    gnt_o       = '0;
    matched_in  = '0;
    matched_out = '0;
    col         = '0;
    pick        = '0;
    gptr_d      = gptr_q;
    aptr_d      = aptr_q;
    in_grants   = '0;
    if (islip_i) begin
      for (int unsigned it = 0; it < Iterations; it++) begin
        in_grants = '0;
        // Grant phase.
        for (int unsigned o = 0; o < NumPorts; o++) begin
          for (int unsigned i = 0; i < NumPorts; i++)
            col[i] = req_i[i*NumPorts + o] && !matched_in[i];
          if (!matched_out[o] && col != '0) begin
            pick = rr_pick(col, gptr_q[PtrW*o +: PtrW]);
            in_grants[32'(pick)*NumPorts + o] = 1'b1;
          end
        end
        // Accept phase.
        for (int unsigned i = 0; i < NumPorts; i++) begin
          if (in_grants[NumPorts*i +: NumPorts] != '0) begin
            pick = rr_pick(in_grants[NumPorts*i +: NumPorts], aptr_q[PtrW*i +: PtrW]);
            gnt_o[i*NumPorts + 32'(pick)] = 1'b1;
            matched_in[i]     = 1'b1;
            matched_out[pick] = 1'b1;
            if (it == 0) begin
              gptr_d[PtrW*32'(pick) +: PtrW] = next_ptr(i);
              aptr_d[PtrW*i +: PtrW]         = next_ptr(32'(pick));
            end
          end
        end
      end
    end else begin
      // Input-first: in_grants[o] collects the inputs that picked output o.
      for (int unsigned i = 0; i < NumPorts; i++) begin
        if (req_i[i*NumPorts +: NumPorts] != '0) begin
          pick = rr_pick(req_i[i*NumPorts +: NumPorts], aptr_q[PtrW*i +: PtrW]);
          in_grants[32'(pick)*NumPorts + i] = 1'b1;
        end
      end
      for (int unsigned o = 0; o < NumPorts; o++) begin
        if (in_grants[NumPorts*o +: NumPorts] != '0) begin
          pick = rr_pick(in_grants[NumPorts*o +: NumPorts], gptr_q[PtrW*o +: PtrW]);
          gnt_o[32'(pick)*NumPorts + o]  = 1'b1;
          gptr_d[PtrW*o +: PtrW]         = next_ptr(32'(pick));
          aptr_d[PtrW*32'(pick) +: PtrW] = next_ptr(o);
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      gptr_q <= '0;
      aptr_q <= '0;
    end else begin
`ifndef NDR_FAULT_ARB
      gptr_q <= gptr_d;
      aptr_q <= aptr_d;
`endif
      // NDR_FAULT_ARB: fault-injected build (checker self-test, `ndrsim verify switch_alloc
      // --fault freeze_ptr`): the pointers never move. Never defined for the real block.
    end
  end

  assign grant_ptr_o  = gptr_q;
  assign accept_ptr_o = aptr_q;

`ifndef SYNTHESIS
  if (NumPorts < 2 || NumPorts > 16) begin : gen_num_ports_check
    $error("ibs_switch_alloc: NumPorts must be 2..16");
  end
  if (Iterations < 1 || Iterations > NumPorts) begin : gen_iterations_check
    $error("ibs_switch_alloc: Iterations must be 1..NumPorts");
  end

  for (genvar p = 0; p < NumPorts; p++) begin : gen_props
    logic [NumPorts-1:0] out_col;
    for (genvar q = 0; q < NumPorts; q++) begin : gen_col
      assign out_col[q] = gnt_o[q*NumPorts + p];
    end
    // A grant is one-hot (or absent) per input and per output.
    GntInOneHot_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
        $onehot0(gnt_o[p*NumPorts +: NumPorts]));
    GntOutOneHot_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
        $onehot0(out_col));
    // Pointers stay in range.
    PtrRange_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
        32'(gptr_q[PtrW*p +: PtrW]) < NumPorts && 32'(aptr_q[PtrW*p +: PtrW]) < NumPorts);
  end
  // Grant implies request.
  GntReq_A: assert property (@(posedge clk_i) disable iff (!rst_ni) (gnt_o & ~req_i) == '0);
  // Outputs known after reset.
  OutKnown_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      !$isunknown({gnt_o, grant_ptr_o, accept_ptr_o}));
`endif

endmodule
