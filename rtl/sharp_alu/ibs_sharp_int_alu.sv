// Integer operations of the SHARP ALU (rtl/README.md, ibs_sharp_alu), combinational, with the
// semantics of models/golden/reduce_op.h on the integer dtypes int8 .. uint64:
//   sum             wraps modulo 2^bits (signed and unsigned alike);
//   band, bor, bxor bitwise;
//   land, lor, lxor each operand is true iff nonzero, the result is 1 or 0.
// Operands and result sit in the low bits of the 64-bit words; the bits above the dtype are
// ignored on input and 0 on output. min/max and the float dtypes are elsewhere (ibs_sharp_cmp,
// ibs_sharp_fp_add); for them res_o is don't-care.
module ibs_sharp_int_alu (
  /// Operation, golden red_op numbering: 0 sum, 3 band, 4 bor, 5 bxor, 6 land, 7 lor, 8 lxor.
  input  logic [3:0]  op_i,
  /// Element type, golden red_type numbering: 0 int8, 1 uint8, 2 int16, 3 uint16, 4 int32,
  /// 5 uint32, 6 int64, 7 uint64 (type_i[2:1] is log2 of the byte width).
  input  logic [3:0]  type_i,
  input  logic [63:0] a_i,
  input  logic [63:0] b_i,
  output logic [63:0] res_o
);

  localparam logic [3:0] OP_SUM = 4'd0, OP_BAND = 4'd3, OP_BOR = 4'd4, OP_BXOR = 4'd5,
                         OP_LAND = 4'd6, OP_LOR = 4'd7, OP_LXOR = 4'd8;

  logic [63:0] mask, a_m, b_m;
  logic        a_true, b_true;
  logic        unused_type;

  assign unused_type = type_i[3] ^ type_i[0];

  always_comb begin
    unique case (type_i[2:1])
      2'd0:    mask = 64'h0000_0000_0000_00FF;
      2'd1:    mask = 64'h0000_0000_0000_FFFF;
      2'd2:    mask = 64'h0000_0000_FFFF_FFFF;
      default: mask = 64'hFFFF_FFFF_FFFF_FFFF;
    endcase
    a_m    = a_i & mask;
    b_m    = b_i & mask;
    a_true = a_m != '0;
    b_true = b_m != '0;
    case (op_i)
      OP_SUM:  res_o = (a_i + b_i) & mask;
      OP_BAND: res_o = a_m & b_m;
      OP_BOR:  res_o = a_m | b_m;
      OP_BXOR: res_o = a_m ^ b_m;
      OP_LAND: res_o = {63'd0, a_true & b_true};
      OP_LOR:  res_o = {63'd0, a_true | b_true};
      OP_LXOR: res_o = {63'd0, a_true ^ b_true};
      default: res_o = '0;
    endcase
  end

endmodule
