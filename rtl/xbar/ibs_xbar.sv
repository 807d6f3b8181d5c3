// N x N crossbar of DataW-bit beats, switched by the allocator's matching
// (rtl/switch_alloc/ibs_switch_alloc.sv, gnt_o). Reference: "every beat arrives at the matched
// output unchanged, nothing else moves", checked by `ndrsim verify xbar`.
//
// Purely combinational (no registers): out_*[o] is input i's beat when sel_i[i*NumPorts + o],
// in_ready_o[i] is the ready of input i's matched output; an unmatched input sees ready = 0 and
// an unmatched output valid = 0 and data = 0. clk_i/rst_ni only clock the assertions.
module ibs_xbar #(
  /// Crossbar ports (inputs = outputs), 2..16.
  parameter int unsigned NumPorts = 4,
  /// Beat width in bits.
  parameter int unsigned DataW    = 64
) (
  /* verilator lint_off UNUSEDSIGNAL */
  input  logic                         clk_i,    // assertions only
  /* verilator lint_off SYNCASYNCNET */
  input  logic                         rst_ni,   // assertions only
  /* verilator lint_on SYNCASYNCNET */
  /* verilator lint_on UNUSEDSIGNAL */

  /// Connection matrix: sel_i[i*NumPorts + o] = input i drives output o. At most one bit per
  /// input and per output (an allocator matching); held for as long as the packet moves.
  input  logic [NumPorts*NumPorts-1:0] sel_i,
  /// Beats in, per input i (data in [DataW*i +: DataW]). valid/ready; data stable while
  /// valid && !ready. in_ready_o depends combinationally on sel_i and out_ready_i.
  input  logic [NumPorts-1:0]          in_valid_i,
  output logic [NumPorts-1:0]          in_ready_o,
  input  logic [NumPorts*DataW-1:0]    in_data_i,
  /// Beats out, per output o. valid/ready; combinational from sel_i, in_valid_i, in_data_i.
  output logic [NumPorts-1:0]          out_valid_o,
  input  logic [NumPorts-1:0]          out_ready_i,
  output logic [NumPorts*DataW-1:0]    out_data_o
);

  // AND-OR multiplexers: one-hot select per output, per input.
  always_comb begin
    out_valid_o = '0;
    out_data_o  = '0;
    in_ready_o  = '0;
    for (int unsigned i = 0; i < NumPorts; i++) begin
      for (int unsigned o = 0; o < NumPorts; o++) begin
        if (sel_i[i*NumPorts + o]) begin
          out_valid_o[o]               = out_valid_o[o] | in_valid_i[i];
          out_data_o[DataW*o +: DataW] = out_data_o[DataW*o +: DataW] | in_data_i[DataW*i +: DataW];
          in_ready_o[i]                = in_ready_o[i] | out_ready_i[o];
        end
      end
    end
`ifdef NDR_FAULT_XBAR
    // Fault-injected build (checker self-test, `ndrsim verify xbar --fault stuck_bit`): bit 0 of
    // output 0's data is stuck at 0. Never defined for the real block.
    out_data_o[0] = 1'b0;
`endif
  end

`ifndef SYNTHESIS
  if (NumPorts < 2 || NumPorts > 16) begin : gen_num_ports_check
    $error("ibs_xbar: NumPorts must be 2..16");
  end
  if (DataW < 1) begin : gen_data_w_check
    $error("ibs_xbar: DataW must be >= 1");
  end

  for (genvar p = 0; p < NumPorts; p++) begin : gen_props
    logic [NumPorts-1:0] out_col;
    for (genvar q = 0; q < NumPorts; q++) begin : gen_col
      assign out_col[q] = sel_i[q*NumPorts + p];
    end
    // The select is a matching: one-hot (or none) per input and per output.
    SelInOneHot_M: assume property (@(posedge clk_i) disable iff (!rst_ni)
        $onehot0(sel_i[p*NumPorts +: NumPorts]));
    SelOutOneHot_M: assume property (@(posedge clk_i) disable iff (!rst_ni) $onehot0(out_col));
    // Nothing moves through an unmatched port.
    OutIdle_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
        out_col == '0 |-> !out_valid_o[p] && out_data_o[DataW*p +: DataW] == '0);
    InIdle_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
        sel_i[p*NumPorts +: NumPorts] == '0 |-> !in_ready_o[p]);
  end
  // Beats in equal beats out (each handshake on an input is one on its output).
  BeatCount_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      $countones(in_valid_i & in_ready_o) == $countones(out_valid_o & out_ready_i));
  OutKnown_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      !$isunknown({out_valid_o, in_ready_o}));
`endif

endmodule
