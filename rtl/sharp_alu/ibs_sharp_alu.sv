// SHARP aggregation ALU, one element per beat: res = a op b (acc = acc op in) with the semantics of
// models/golden/reduce_op.h (reduce_elementwise with count 1), checked bit for bit by
// rtl/sharp_alu/sharp_alu_check.cpp (ndrsim verify sharp_alu) and tests/rtl. Supported: every
// (op, dtype) pair the golden model supports (reduce_op.h supported()):
//   * sum, min, max, minloc, maxloc on int8, uint8, int16, uint16, int32, uint32, int64, uint64,
//     fp16, bf16, fp32, fp64;
//   * band, bor, bxor, land, lor, lxor on the eight integer dtypes.
// Units: ibs_sharp_int_alu (integer sum, bitwise, logical), ibs_sharp_cmp (min/max/minloc/maxloc),
// one ibs_sharp_fp_add per float format (IEEE RNE addition; fp16/bf16 rounded once in their own
// format, which equals the golden float-then-narrow double rounding, reduce_op.h: Figueroa).
// Every NaN result is the canonical quiet NaN of the format (float_formats.h). Operands and
// result sit in the low bits of the 64-bit words; the bits of res_o above the dtype are 0 and
// those of a_i/b_i are ignored. Indices (minloc/maxloc) travel in a_idx_i/b_idx_i/res_idx_o;
// res_idx_o is 0 for the other ops.
//
// Pipeline: four datapath steps (1: decode, integer and compare units, float unpack/order;
// 2: float align and add; 3: float normalise; 4: float round/pack and the result select).
// Stages registers in total, latency exactly Stages cycles (a beat accepted at cycle t is
// offered at t + Stages when nothing stalls it; throughput one beat per cycle). Register placement:
//   Stages = 1: output only;  2: after step 2 + output;  3: after steps 2, 3 + output;
//   >= 4: after steps 1, 2, 3 + output, then Stages - 4 more output registers.
// Handshake: each stage moves forward when it is empty or the stage after it moves (bubbles
// collapse); in_ready_o = out_ready_i || some stage is empty (combinational from out_ready_i,
// no skid buffer).
module ibs_sharp_alu #(
  /// Pipeline registers between in and out, 1..8 (latency in cycles).
  parameter int unsigned Stages = 4
) (
  input  logic        clk_i,
  // Async reset of the valid bits; the assertions' `disable iff` samples it too (SYNCASYNCNET,
  // a false alarm for assertion-only logic).
  /* verilator lint_off SYNCASYNCNET */
  input  logic        rst_ni,
  /* verilator lint_on SYNCASYNCNET */

  /// Operand beat in. valid/ready; op_i/type_i/a_i/b_i/a_idx_i/b_idx_i stable while
  /// in_valid_i && !in_ready_o. in_ready_o depends combinationally on out_ready_i.
  input  logic        in_valid_i,
  output logic        in_ready_o,
  /// Operation, golden red_op numbering: 0 sum, 1 min, 2 max, 3 band, 4 bor, 5 bxor, 6 land,
  /// 7 lor, 8 lxor, 9 minloc, 10 maxloc.
  input  logic [3:0]  op_i,
  /// Element type, golden red_type numbering: 0 int8, 1 uint8, 2 int16, 3 uint16, 4 int32,
  /// 5 uint32, 6 int64, 7 uint64, 8 fp16, 9 bf16, 10 fp32, 11 fp64.
  input  logic [3:0]  type_i,
  /// Accumulator operand a (left) and input operand b, in the low bits; their minloc/maxloc
  /// indices.
  input  logic [63:0] a_i,
  input  logic [63:0] b_i,
  input  logic [31:0] a_idx_i,
  input  logic [31:0] b_idx_i,

  /// Result beat out. valid/ready; res_o/res_idx_o stable while out_valid_o && !out_ready_i.
  output logic        out_valid_o,
  input  logic        out_ready_i,
  output logic [63:0] res_o,
  output logic [31:0] res_idx_o
);

  localparam logic [3:0] OP_SUM = 4'd0, OP_MIN = 4'd1, OP_MAX = 4'd2, OP_LXOR = 4'd8,
                         OP_MINLOC = 4'd9, OP_MAXLOC = 4'd10;
  localparam logic [3:0] T_UINT64 = 4'd7, T_FP16 = 4'd8, T_BF16 = 4'd9, T_FP32 = 4'd10,
                         T_FP64 = 4'd11;

  // Register placement (see the header): boundaries after steps 1, 2, 3 and their physical stage
  // index; POut is the stage that takes the step-4 result.
  localparam bit          RegB1 = Stages >= 4;
  localparam bit          RegB2 = Stages >= 2;
  localparam bit          RegB3 = Stages >= 3;
  localparam int unsigned PB1   = 0;
  localparam int unsigned PB2   = RegB1 ? 1 : 0;
  localparam int unsigned PB3   = PB2 + (RegB2 ? 1 : 0);
  localparam int unsigned POut  = PB3 + (RegB3 ? 1 : 0);
  localparam logic [2:0]  RegMask = {RegB3, RegB2, RegB1};
  // Carried beside the float adders: {op, type, early value, early index}.
  localparam int unsigned CW = 4 + 4 + 64 + 32;

  // ---- valid/ready control ---------------------------------------------------------------------
  // Stage k loads when it is empty or some stage after it is, or the sink takes the last beat
  // (written without a chain through ready[k+1], which Verilator flags as circular).
  logic [Stages-1:0] valid_q;
  logic [Stages-1:0] ready;

  for (genvar k = 0; k < Stages; k++) begin : gen_ctrl
    assign ready[k] = out_ready_i || (~valid_q[Stages-1:k] != '0);
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        valid_q[k] <= 1'b0;
      end else if (ready[k]) begin
        valid_q[k] <= (k == 0) ? in_valid_i : valid_q[k == 0 ? 0 : k-1];
      end
    end
  end

  logic [2:0] en_b;   // load enables of the boundaries after steps 1, 2, 3
  assign en_b = {ready[PB3], ready[PB2], ready[PB1]};

  // ---- step 1: integer and compare units, early result -----------------------------------------
  logic [63:0] int_res, cmp_res, early_res;
  logic [31:0] cmp_idx;
  logic        use_cmp;

  ibs_sharp_int_alu u_int (.op_i, .type_i, .a_i, .b_i, .res_o(int_res));
  ibs_sharp_cmp u_cmp (.op_i, .type_i, .a_i, .b_i, .a_idx_i, .b_idx_i,
                       .res_o(cmp_res), .res_idx_o(cmp_idx));

  assign use_cmp   = op_i == OP_MIN || op_i == OP_MAX || op_i == OP_MINLOC || op_i == OP_MAXLOC;
  assign early_res = use_cmp ? cmp_res : int_res;

  // ---- float adders, steps 1..4 ----------------------------------------------------------------
  logic [63:0] fp64_sum;
  logic [31:0] fp32_sum;
  logic [15:0] fp16_sum, bf16_sum;

  ibs_sharp_fp_add #(.ExpW(11), .ManW(52), .RegMask(RegMask)) u_fp64_add (
    .clk_i, .en_i(en_b), .a_i(a_i), .b_i(b_i), .sum_o(fp64_sum));
  ibs_sharp_fp_add #(.ExpW(8), .ManW(23), .RegMask(RegMask)) u_fp32_add (
    .clk_i, .en_i(en_b), .a_i(a_i[31:0]), .b_i(b_i[31:0]), .sum_o(fp32_sum));
  ibs_sharp_fp_add #(.ExpW(5), .ManW(10), .RegMask(RegMask)) u_fp16_add (
    .clk_i, .en_i(en_b), .a_i(a_i[15:0]), .b_i(b_i[15:0]), .sum_o(fp16_sum));
  ibs_sharp_fp_add #(.ExpW(8), .ManW(7), .RegMask(RegMask)) u_bf16_add (
    .clk_i, .en_i(en_b), .a_i(a_i[15:0]), .b_i(b_i[15:0]), .sum_o(bf16_sum));

  // ---- carry op, type and the early result through steps 2..4 ----------------------------------
  logic [CW-1:0] c1_q, c2_q, c3_q;

  ibs_sharp_stage_reg #(.W(CW), .Enable(RegB1)) u_carry1 (
    .clk_i, .en_i(en_b[0]), .d_i({op_i, type_i, early_res, cmp_idx}), .q_o(c1_q));
  ibs_sharp_stage_reg #(.W(CW), .Enable(RegB2)) u_carry2 (
    .clk_i, .en_i(en_b[1]), .d_i(c1_q), .q_o(c2_q));
  ibs_sharp_stage_reg #(.W(CW), .Enable(RegB3)) u_carry3 (
    .clk_i, .en_i(en_b[2]), .d_i(c2_q), .q_o(c3_q));

  // ---- step 4: result select -------------------------------------------------------------------
  logic [3:0]  op4, type4;
  logic [63:0] early4, res4;
  logic [31:0] idx4;

  always_comb begin
    {op4, type4, early4, idx4} = c3_q;
    res4 = early4;
    if (op4 == OP_SUM) begin
      unique case (type4)
        T_FP16:  res4 = {48'd0, fp16_sum};
        T_BF16:  res4 = {48'd0, bf16_sum};
        T_FP32:  res4 = {32'd0, fp32_sum};
        T_FP64:  res4 = fp64_sum;
        default: ;
      endcase
    end
  end

  // ---- output registers (stage POut, then copies) ----------------------------------------------
  localparam int unsigned NOut = Stages - POut;
  logic [CW*NOut-1:0] out_q;   // stage POut + j in [CW*j +: CW]

  for (genvar j = 0; j < NOut; j++) begin : gen_out
    always_ff @(posedge clk_i) begin
      if (ready[POut+j]) begin
        out_q[CW*j +: CW] <= (j == 0) ? {op4, type4, res4, idx4}
                                      : out_q[CW*(j == 0 ? 0 : j-1) +: CW];
      end
    end
  end

  logic [3:0] out_op, out_type;
  assign {out_op, out_type, res_o, res_idx_o} = out_q[CW*(NOut-1) +: CW];
  assign in_ready_o  = ready[0];
  assign out_valid_o = valid_q[Stages-1];

`ifndef SYNTHESIS
  if (Stages < 1 || Stages > 8) begin : gen_stages_check
    $error("ibs_sharp_alu: Stages must be 1..8");
  end

  logic out_nan_ok, out_upper_zero;
  always_comb begin
    unique case (out_type)
      T_FP16:  out_nan_ok = res_o[14:0] <= 15'h7C00 || res_o == 64'h7E00;
      T_BF16:  out_nan_ok = res_o[14:0] <= 15'h7F80 || res_o == 64'h7FC0;
      T_FP32:  out_nan_ok = res_o[30:0] <= 31'h7F80_0000 || res_o == 64'h7FC0_0000;
      T_FP64:  out_nan_ok = res_o[62:0] <= 63'h7FF0_0000_0000_0000 ||
                            res_o == 64'h7FF8_0000_0000_0000;
      default: out_nan_ok = 1'b1;
    endcase
    unique case (out_type)
      4'd0, 4'd1:             out_upper_zero = res_o[63:8] == '0;
      4'd2, 4'd3, T_FP16, T_BF16: out_upper_zero = res_o[63:16] == '0;
      4'd4, 4'd5, T_FP32:     out_upper_zero = res_o[63:32] == '0;
      default:                out_upper_zero = 1'b1;
    endcase
  end

  // Inputs: a supported (op, type) pair (bitwise/logical ops on integer dtypes only), and a
  // stable beat while stalled.
  TypeOp_M: assume property (@(posedge clk_i) disable iff (!rst_ni)
      in_valid_i |-> op_i <= OP_MAXLOC && type_i <= T_FP64 &&
                     (op_i <= OP_MAX || op_i >= OP_MINLOC || type_i <= T_UINT64));
  InStable_M: assume property (@(posedge clk_i) disable iff (!rst_ni)
      in_valid_i && !in_ready_o |=> in_valid_i &&
                                    $stable({op_i, type_i, a_i, b_i, a_idx_i, b_idx_i}));
  // Output held while the sink stalls.
  OutStable_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      out_valid_o && !out_ready_i |=> out_valid_o && $stable({res_o, res_idx_o}));
  // A float NaN result is canonical; bits above the dtype are 0; only loc ops carry an index;
  // logical ops give 0 or 1.
  NanCanonical_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      out_valid_o |-> out_nan_ok);
  UpperZero_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      out_valid_o |-> out_upper_zero);
  IdxZero_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      out_valid_o && out_op != OP_MINLOC && out_op != OP_MAXLOC |-> res_idx_o == '0);
  LogicalBool_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      out_valid_o && out_op >= 4'd6 && out_op <= OP_LXOR |-> res_o <= 64'd1);
  // The pipeline never offers more than it took: ready to the source whenever a stage is free.
  ReadyFree_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (valid_q != '1) |-> in_ready_o);
  OutKnown_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      !$isunknown({in_ready_o, out_valid_o}) && (!out_valid_o || !$isunknown({res_o, res_idx_o})));
`else
  logic [7:0] unused_out_ctrl;
  assign unused_out_ctrl = {out_op, out_type};
`endif

endmodule
