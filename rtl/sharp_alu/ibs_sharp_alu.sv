// SHARP aggregation ALU, one element per beat: res = a op b (acc = acc op in) with the semantics of
// models/golden/reduce_op.h (reduce_elementwise with count 1), checked bit for bit in
// tests/rtl/sharp_alu_rtl_test.cpp. Supported: op sum, min, max on int32, uint32, int64, uint64,
// fp32, fp16, bf16 (not fp64, the 8/16-bit integers, bitwise/logical ops or minloc/maxloc).
//  * sum: integers wrap; floats one IEEE addition, round to nearest even, subnormals kept,
//    overflow -> +-inf (ibs_sharp_fp_add; fp16/bf16 rounded once in their own format, which
//    equals the golden float-then-narrow double rounding, reduce_op.h: Figueroa).
//  * min/max: integers signed/unsigned by type; floats IEEE 754-2019 minimum/maximum (NaN
//    operand -> canonical NaN, -0 < +0), equal values -> a.
//  * Every NaN result is the canonical quiet NaN of the format (float_formats.h).
// Operands and result sit in the low bits of the 64-bit words; the unused upper bits of res_o
// are 0 and those of a_i/b_i are ignored.
//
// Pipeline: the result is computed combinationally from the input beat and then carried through
// Stages registers (latency Stages cycles at full throughput). The registers after the first
// are there for retiming (all logic sits before stage 0; a retiming synthesis can spread it).
module ibs_sharp_alu #(
  /// Pipeline registers between in and out, 1..8 (latency in cycles).
  parameter int unsigned Stages = 2
) (
  input  logic        clk_i,
  // Async reset of the valid bits; the assertions' `disable iff` samples it too (SYNCASYNCNET,
  // a false alarm for assertion-only logic).
  /* verilator lint_off SYNCASYNCNET */
  input  logic        rst_ni,
  /* verilator lint_on SYNCASYNCNET */

  /// Operand beat in. valid/ready; op_i/type_i/a_i/b_i stable while in_valid_i && !in_ready_o.
  /// in_ready_o depends combinationally on out_ready_i (no skid buffer).
  input  logic        in_valid_i,
  output logic        in_ready_o,
  /// Operation, golden red_op numbering: 0 sum, 1 min, 2 max.
  input  logic [3:0]  op_i,
  /// Element type, golden red_type numbering: 4 int32, 5 uint32, 6 int64, 7 uint64, 8 fp16,
  /// 9 bf16, 10 fp32.
  input  logic [3:0]  type_i,
  /// Accumulator operand a (left) and input operand b, in the low bits.
  input  logic [63:0] a_i,
  input  logic [63:0] b_i,

  /// Result beat out. valid/ready; res_o stable while out_valid_o && !out_ready_i.
  output logic        out_valid_o,
  input  logic        out_ready_i,
  output logic [63:0] res_o,

  /// Fault injection for the checker's self-test, tie to 0: 1 = float sums truncate instead of
  /// rounding to nearest even.
  input  logic        fault_round_i
);

  localparam logic [3:0] OP_SUM = 4'd0, OP_MIN = 4'd1, OP_MAX = 4'd2;
  localparam logic [3:0] T_INT32 = 4'd4, T_UINT32 = 4'd5, T_INT64 = 4'd6, T_UINT64 = 4'd7,
                         T_FP16 = 4'd8, T_BF16 = 4'd9, T_FP32 = 4'd10;

  // ---- float sums ------------------------------------------------------------------------------
  logic [31:0] fp32_sum;
  logic [15:0] fp16_sum, bf16_sum;

  ibs_sharp_fp_add #(.ExpW(8), .ManW(23)) u_fp32_add (
    .a_i(a_i[31:0]), .b_i(b_i[31:0]), .fault_trunc_i(fault_round_i), .sum_o(fp32_sum));
  ibs_sharp_fp_add #(.ExpW(5), .ManW(10)) u_fp16_add (
    .a_i(a_i[15:0]), .b_i(b_i[15:0]), .fault_trunc_i(fault_round_i), .sum_o(fp16_sum));
  ibs_sharp_fp_add #(.ExpW(8), .ManW(7)) u_bf16_add (
    .a_i(a_i[15:0]), .b_i(b_i[15:0]), .fault_trunc_i(fault_round_i), .sum_o(bf16_sum));

  // ---- min/max ---------------------------------------------------------------------------------
  // Every type is mapped to a 64-bit key whose unsigned order is the value order: signed
  // integers flip the sign bit; floats flip the sign bit of positives and all bits of negatives
  // (so -0 < +0 and infinities sort at the ends). NaNs are handled before the compare.
  logic [63:0] key_a, key_b, nan_word;
  logic        is_float, nan_in, b_less, b_greater;
  logic [63:0] result;

  /// Order-preserving key of a float of width w (sign at bit w-1), in the top bits.
  function automatic logic [63:0] float_key(logic [63:0] x, int unsigned w);
    logic [63:0] v;
    v = x << (64 - w);
    float_key = v[63] ? ~v : (v | 64'h8000_0000_0000_0000);
  endfunction

  always_comb begin
    is_float = 1'b1;
    nan_in   = 1'b0;
    nan_word = '0;
    unique case (type_i)
      T_INT32: begin
        key_a = {~a_i[31], a_i[30:0], 32'd0};
        key_b = {~b_i[31], b_i[30:0], 32'd0};
        is_float = 1'b0;
      end
      T_UINT32: begin
        key_a = {a_i[31:0], 32'd0};
        key_b = {b_i[31:0], 32'd0};
        is_float = 1'b0;
      end
      T_INT64: begin
        key_a = {~a_i[63], a_i[62:0]};
        key_b = {~b_i[63], b_i[62:0]};
        is_float = 1'b0;
      end
      T_FP16: begin
        key_a    = float_key(a_i, 16);
        key_b    = float_key(b_i, 16);
        nan_in   = (a_i[14:0] > 15'h7C00) || (b_i[14:0] > 15'h7C00);
        nan_word = 64'h7E00;
      end
      T_BF16: begin
        key_a    = float_key(a_i, 16);
        key_b    = float_key(b_i, 16);
        nan_in   = (a_i[14:0] > 15'h7F80) || (b_i[14:0] > 15'h7F80);
        nan_word = 64'h7FC0;
      end
      T_FP32: begin
        key_a    = float_key(a_i, 32);
        key_b    = float_key(b_i, 32);
        nan_in   = (a_i[30:0] > 31'h7F80_0000) || (b_i[30:0] > 31'h7F80_0000);
        nan_word = 64'h7FC0_0000;
      end
      default: begin   // T_UINT64 (other types are excluded by TypeOp_M)
        key_a = a_i;
        key_b = b_i;
        is_float = 1'b0;
      end
    endcase
    b_less    = key_b < key_a;
    b_greater = key_b > key_a;

    result = '0;
    unique case (op_i)
      OP_SUM: begin
        unique case (type_i)
          T_INT32, T_UINT32: result = {32'd0, a_i[31:0] + b_i[31:0]};
          T_FP16:            result = {48'd0, fp16_sum};
          T_BF16:            result = {48'd0, bf16_sum};
          T_FP32:            result = {32'd0, fp32_sum};
          T_INT64, T_UINT64: result = a_i + b_i;
          default:           result = '0;
        endcase
      end
      default: begin   // OP_MIN, OP_MAX
        if (is_float && nan_in) begin
          result = nan_word;
        end else begin
          result = ((op_i == OP_MIN) ? b_less : b_greater) ? b_i : a_i;
          unique case (type_i)
            T_INT32, T_UINT32, T_FP32: result[63:32] = '0;
            T_FP16, T_BF16:            result[63:16] = '0;
            default: ;
          endcase
        end
      end
    endcase
  end

  // ---- pipeline --------------------------------------------------------------------------------
  // Stage k loads when it is empty or some stage after it is, or the sink takes the last beat
  // (written without a chain through ready[k+1], which Verilator flags as circular).
  logic [Stages-1:0]    valid_q;
  logic [Stages-1:0]    ready;
  logic [64*Stages-1:0] data_q;    // stage k in [64*k +: 64]

  for (genvar k = 0; k < Stages; k++) begin : gen_stage
    logic        valid_in;
    logic [63:0] data_in;
    if (k == 0) begin : gen_first
      assign valid_in = in_valid_i;
      assign data_in  = result;
    end else begin : gen_next
      assign valid_in = valid_q[k-1];
      assign data_in  = data_q[64*(k-1) +: 64];
    end
    assign ready[k] = out_ready_i || (~valid_q[Stages-1:k] != '0);
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        valid_q[k] <= 1'b0;
      end else if (ready[k]) begin
        valid_q[k] <= valid_in;
      end
    end
    always_ff @(posedge clk_i) begin
      if (ready[k]) data_q[64*k +: 64] <= data_in;
    end
  end

  assign in_ready_o  = ready[0];
  assign out_valid_o = valid_q[Stages-1];
  assign res_o       = data_q[64*(Stages-1) +: 64];

`ifndef SYNTHESIS
  if (Stages < 1 || Stages > 8) begin : gen_stages_check
    $error("ibs_sharp_alu: Stages must be 1..8");
  end

  // Inputs: a supported (op, type) pair, and a stable beat while stalled.
  TypeOp_M: assume property (@(posedge clk_i) disable iff (!rst_ni)
      in_valid_i |-> op_i <= OP_MAX && type_i >= T_INT32 && type_i <= T_FP32);
  InStable_M: assume property (@(posedge clk_i) disable iff (!rst_ni)
      in_valid_i && !in_ready_o |=> in_valid_i && $stable({op_i, type_i, a_i, b_i}));
  // Output held while the sink stalls.
  OutStable_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      out_valid_o && !out_ready_i |=> out_valid_o && $stable(res_o));
  // A float NaN result is canonical (checked at the input of the pipeline).
  NanCanonical_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      in_valid_i && type_i == T_FP32 |-> result[30:0] <= 31'h7F80_0000 || result == 64'h7FC0_0000);
  OutKnown_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      !$isunknown({in_ready_o, out_valid_o}) && (!out_valid_o || !$isunknown(res_o)));
`endif

endmodule
