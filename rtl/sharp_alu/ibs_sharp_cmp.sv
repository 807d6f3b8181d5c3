// Compare operations of the SHARP ALU (rtl/README.md, ibs_sharp_alu): min, max, minloc, maxloc
// on every dtype, combinational, with the semantics of models/golden/reduce_op.h:
//   * integers signed or unsigned by dtype; floats IEEE 754-2019 minimum/maximum: a NaN operand
//     gives the canonical NaN of the format, -0 < +0, otherwise the selected operand bit for bit;
//     equal values -> a;
//   * minloc/maxloc: the index travels with the selected value; equal values (identical bits) ->
//     the lower index; a NaN -> the NaN operand's index (both NaN: the lower one). min/max give
//     index 0.
// Every dtype is mapped to a 64-bit key whose unsigned order is the value order: the value is
// moved to the top bits; signed integers flip the sign bit; floats flip the sign bit of
// positives and all bits of negatives (so -0 < +0 and infinities sort at the ends). Distinct
// non-NaN bit patterns give distinct keys, so equal keys mean identical bits.
module ibs_sharp_cmp (
  /// Operation, golden red_op numbering: 1 min, 2 max, 9 minloc, 10 maxloc.
  input  logic [3:0]  op_i,
  /// Element type, golden red_type numbering 0 int8 .. 11 fp64.
  input  logic [3:0]  type_i,
  /// Values in the low bits (bits above the dtype ignored) and their indices (loc ops).
  input  logic [63:0] a_i,
  input  logic [63:0] b_i,
  input  logic [31:0] a_idx_i,
  input  logic [31:0] b_idx_i,
  /// Selected value (bits above the dtype 0) and index.
  output logic [63:0] res_o,
  output logic [31:0] res_idx_o
);

  localparam logic [3:0] OP_MAX = 4'd2, OP_MINLOC = 4'd9, OP_MAXLOC = 4'd10;
  localparam logic [3:0] T_FP16 = 4'd8, T_BF16 = 4'd9, T_FP32 = 4'd10, T_FP64 = 4'd11;
  localparam logic [63:0] MSB = 64'h8000_0000_0000_0000;

  logic [6:0]  width;          // dtype bits: 8, 16, 32, 64
  logic [63:0] mask, va, vb, key_a, key_b, nan_word;
  logic        is_float, is_signed, nan_a, nan_b, want_max, is_loc, b_wins, equal;
  logic [31:0] idx_min;

  always_comb begin
    unique case (type_i)
      4'd0, 4'd1:       width = 7'd8;
      4'd2, 4'd3:       width = 7'd16;
      4'd4, 4'd5:       width = 7'd32;
      T_FP16, T_BF16:   width = 7'd16;
      T_FP32:           width = 7'd32;
      default:          width = 7'd64;   // int64, uint64, fp64
    endcase
    mask      = (width == 7'd64) ? '1 : ((64'd1 << width) - 64'd1);
    is_float  = type_i >= T_FP16;
    is_signed = is_float || !type_i[0];
    // Values left-aligned in 64 bits.
    va = (a_i & mask) << (7'd64 - width);
    vb = (b_i & mask) << (7'd64 - width);
    if (is_float) begin
      key_a = va[63] ? ~va : (va | MSB);
      key_b = vb[63] ? ~vb : (vb | MSB);
    end else if (is_signed) begin
      key_a = va ^ MSB;
      key_b = vb ^ MSB;
    end else begin
      key_a = va;
      key_b = vb;
    end

    // NaN: exponent all ones, fraction nonzero (magnitude above the infinity pattern).
    nan_a    = 1'b0;
    nan_b    = 1'b0;
    nan_word = '0;
    unique case (type_i)
      T_FP16: begin
        nan_a    = a_i[14:0] > 15'h7C00;
        nan_b    = b_i[14:0] > 15'h7C00;
        nan_word = 64'h7E00;
      end
      T_BF16: begin
        nan_a    = a_i[14:0] > 15'h7F80;
        nan_b    = b_i[14:0] > 15'h7F80;
        nan_word = 64'h7FC0;
      end
      T_FP32: begin
        nan_a    = a_i[30:0] > 31'h7F80_0000;
        nan_b    = b_i[30:0] > 31'h7F80_0000;
        nan_word = 64'h7FC0_0000;
      end
      T_FP64: begin
        nan_a    = a_i[62:0] > 63'h7FF0_0000_0000_0000;
        nan_b    = b_i[62:0] > 63'h7FF0_0000_0000_0000;
        nan_word = 64'h7FF8_0000_0000_0000;
      end
      default: ;
    endcase

    want_max = (op_i == OP_MAX) || (op_i == OP_MAXLOC);
    is_loc   = (op_i == OP_MINLOC) || (op_i == OP_MAXLOC);
    b_wins   = want_max ? (key_b > key_a) : (key_b < key_a);
    equal    = key_a == key_b;
    idx_min  = (b_idx_i < a_idx_i) ? b_idx_i : a_idx_i;

    if (nan_a || nan_b) begin
      res_o     = nan_word;
      res_idx_o = (nan_a && nan_b) ? idx_min : (nan_a ? a_idx_i : b_idx_i);
    end else if (b_wins) begin
      res_o     = b_i & mask;
      res_idx_o = b_idx_i;
    end else begin
      res_o     = a_i & mask;
      res_idx_o = equal ? idx_min : a_idx_i;
    end
    if (!is_loc) res_idx_o = '0;
  end

endmodule
