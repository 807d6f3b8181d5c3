// IEEE 754 binary addition r = a + b, round to nearest even, for one format of ExpW exponent and
// ManW fraction bits (fp64 11/52, fp32 8/23, fp16 5/10, bf16 8/7), in four datapath steps with an
// optional register after each of the first three (RegMask, driven by ibs_sharp_alu). Semantics
// of models/golden/reduce_op.h (sum): subnormals kept (gradual underflow, no FTZ/DAZ), finite
// overflow -> +-inf, inf + -inf and any NaN operand -> the canonical quiet NaN (positive, quiet
// bit only), exact cancellation x + (-x) -> +0, (-0) + (-0) -> -0.
//
// Steps:
//   1 unpack: specials, hidden bit (subnormal exponent 1), order so that |a| >= |b|, exponent
//     difference;
//   2 align the smaller significand with guard, round and sticky bits (GRS: enough for an exact
//     RNE of a sum or difference), then add or subtract;
//   3 normalise: right by one on a carry, else left by the leading zeros but not below exponent
//     1 (which yields subnormals);
//   4 round to nearest even on GRS (a rounding carry renormalises), overflow, pack.
// Fault injection (checker self-test, never in a real build): with `NDR_FAULT_ROUNDING defined,
// step 4 truncates instead of rounding to nearest even.
module ibs_sharp_fp_add #(
  /// Exponent bits, 2..11.
  parameter int unsigned ExpW    = 8,
  /// Fraction bits (without the hidden bit), 2..52.
  parameter int unsigned ManW    = 23,
  /// Bit k = 1: a register after step k+1 (loaded by en_i[k]); 0: a wire.
  parameter logic [2:0]  RegMask = 3'b000,
  localparam int unsigned W      = 1 + ExpW + ManW
) (
  input  logic         clk_i,
  /// Load enables of the registers after steps 1, 2, 3 (ignored where RegMask is 0).
  input  logic [2:0]   en_i,
  /// Operands, in step 1.
  input  logic [W-1:0] a_i,
  input  logic [W-1:0] b_i,
  /// Sum, out of step 4 (combinational after the last enabled register).
  output logic [W-1:0] sum_o
);

  localparam int unsigned SW = ManW + 1;     // significand with the hidden bit
  localparam int unsigned XW = SW + 3;       // plus guard, round, sticky
  localparam int unsigned EW = ExpW + 2;     // exponent arithmetic, room for carry and borrow
  localparam logic [ExpW-1:0] EXP_MAX = '1;
  localparam logic [W-1:0] CANONICAL_NAN = {1'b0, EXP_MAX, 1'b1, {(ManW-1){1'b0}}};
  // Special-result code carried down the pipeline: none, canonical NaN, infinity (signed).
  localparam logic [1:0] SP_NONE = 2'd0, SP_NAN = 2'd1, SP_INF = 2'd2;

  // Register widths: {special, special sign, zero sign, result sign, ...}.
  localparam int unsigned S1W = 2 + 1 + 1 + 1 + 1 + EW + EW + SW + SW;
  localparam int unsigned S2W = 2 + 1 + 1 + 1 + EW + XW + 1;
  localparam int unsigned S3W = 2 + 1 + 1 + 1 + 1 + EW + XW;

  // Line coverage is off in this helper: its loop would count every bit of every call (cost
  // about x2 in simulation speed, rtl/README.md) and says nothing the callers' lines do not.
  /* verilator coverage_off */
  /// Leading zeros of x (XW bits; XW if x == 0).
  function automatic logic [EW-1:0] lzc(logic [XW-1:0] x);
    logic [EW-1:0] n;
    logic          seen;
    n    = '0;
    seen = 1'b0;
    for (int k = XW - 1; k >= 0; k--) begin
      if (x[k]) seen = 1'b1;
      if (!seen) n = n + 1'b1;
    end
    lzc = n;
  endfunction
  /* verilator coverage_on */

  // ---- step 1: unpack and order ----------------------------------------------------------------
  logic [S1W-1:0]  s1_d, s1_q;
  logic            sa, sb, nan_a, nan_b, inf_a, inf_b, a_big;
  logic [ExpW-1:0] ea, eb;
  logic [ManW-1:0] fa, fb;
  logic [EW-1:0]   ea_eff, eb_eff;
  logic [1:0]      sp1;
  logic            sp_sign1;

  always_comb begin
    {sa, ea, fa} = a_i;
    {sb, eb, fb} = b_i;
    nan_a  = (ea == EXP_MAX) && (fa != '0);
    nan_b  = (eb == EXP_MAX) && (fb != '0);
    inf_a  = (ea == EXP_MAX) && (fa == '0);
    inf_b  = (eb == EXP_MAX) && (fb == '0);
    ea_eff = (ea == '0) ? EW'(1) : EW'(ea);   // subnormals have exponent 1
    eb_eff = (eb == '0) ? EW'(1) : EW'(eb);
    if (nan_a || nan_b || (inf_a && inf_b && sa != sb)) begin
      sp1 = SP_NAN;
    end else if (inf_a || inf_b) begin
      sp1 = SP_INF;
    end else begin
      sp1 = SP_NONE;
    end
    sp_sign1 = inf_a ? sa : sb;
    // Order by magnitude (exponent, then fraction: the bit patterns compare as magnitudes).
    a_big = a_i[W-2:0] >= b_i[W-2:0];
    s1_d  = {sp1, sp_sign1,
             sa & sb,                                      // sign of an exact zero result
             a_big ? sa : sb,                              // sign of the result
             sa != sb,                                     // effective subtraction
             a_big ? ea_eff : eb_eff,                      // exponent of the larger
             a_big ? ea_eff - eb_eff : eb_eff - ea_eff,    // alignment shift
             a_big ? {ea != '0, fa} : {eb != '0, fb},      // larger significand
             a_big ? {eb != '0, fb} : {ea != '0, fa}};     // smaller significand
  end

  ibs_sharp_stage_reg #(.W(S1W), .Enable(RegMask[0])) u_reg1 (
    .clk_i, .en_i(en_i[0]), .d_i(s1_d), .q_o(s1_q));

  // ---- step 2: align and add -------------------------------------------------------------------
  logic [S2W-1:0] s2_d, s2_q;
  logic [1:0]     sp2;
  logic           sp_sign2, zero_sign2, s_res2, eff_sub2;
  logic [EW-1:0]  e_big2, diff2;
  logic [SW-1:0]  m_big2, m_small2;
  logic [XW-1:0]  m_small_x, m_shifted, m_aligned;
  logic           sticky;
  logic [XW:0]    m_sum;

  always_comb begin
    {sp2, sp_sign2, zero_sign2, s_res2, eff_sub2, e_big2, diff2, m_big2, m_small2} = s1_q;
    // The bits shifted out collapse into the sticky bit.
    m_small_x = {m_small2, 3'b000};
    m_shifted = m_small_x >> diff2;
    sticky    = (m_shifted << diff2) != m_small_x;
    m_aligned = m_shifted | XW'(sticky);
    m_sum     = eff_sub2 ? ({1'b0, m_big2, 3'b000} - {1'b0, m_aligned})
                         : ({1'b0, m_big2, 3'b000} + {1'b0, m_aligned});
    s2_d      = {sp2, sp_sign2, zero_sign2, s_res2, e_big2, m_sum};
  end

  ibs_sharp_stage_reg #(.W(S2W), .Enable(RegMask[1])) u_reg2 (
    .clk_i, .en_i(en_i[1]), .d_i(s2_d), .q_o(s2_q));

  // ---- step 3: normalise -----------------------------------------------------------------------
  logic [S3W-1:0] s3_d, s3_q;
  logic [1:0]     sp3;
  logic           sp_sign3, zero_sign3, s_res3;
  logic [EW-1:0]  e_big3, lz, shift, e_norm;
  logic [XW:0]    m_sum3;
  logic [XW-1:0]  m_norm;

  always_comb begin
    {sp3, sp_sign3, zero_sign3, s_res3, e_big3, m_sum3} = s2_q;
    lz    = '0;
    shift = '0;
    if (m_sum3[XW]) begin
      m_norm = {m_sum3[XW:2], m_sum3[1] | m_sum3[0]};
      e_norm = e_big3 + 1'b1;
    end else begin
      lz     = lzc(m_sum3[XW-1:0]);
      shift  = (lz < e_big3 - 1'b1) ? lz : e_big3 - 1'b1;   // stop at exponent 1 (subnormal)
      m_norm = m_sum3[XW-1:0] << shift;
      e_norm = e_big3 - shift;
    end
    s3_d = {sp3, sp_sign3, zero_sign3, s_res3, m_sum3 == '0, e_norm, m_norm};
  end

  ibs_sharp_stage_reg #(.W(S3W), .Enable(RegMask[2])) u_reg3 (
    .clk_i, .en_i(en_i[2]), .d_i(s3_d), .q_o(s3_q));

  // ---- step 4: round and pack ------------------------------------------------------------------
  logic [1:0]    sp4;
  logic          sp_sign4, zero_sign4, s_res4, is_zero4;
  logic [EW-1:0] e_norm4, e_fin;
  logic [XW-1:0] m_norm4;
  logic          round_up;
  logic [SW:0]   m_round;
  logic [SW-1:0] m_fin;

  always_comb begin
    {sp4, sp_sign4, zero_sign4, s_res4, is_zero4, e_norm4, m_norm4} = s3_q;
    // Round to nearest, ties to even: guard && (round || sticky || lsb).
    round_up = m_norm4[2] && (m_norm4[1] || m_norm4[0] || m_norm4[3]);
`ifdef NDR_FAULT_ROUNDING
    round_up = 1'b0;   // fault: truncation
`endif
    m_round  = {1'b0, m_norm4[XW-1:3]} + (SW+1)'(round_up);
    e_fin    = e_norm4;
    m_fin    = m_round[SW-1:0];
    if (m_round[SW]) begin          // 1.11..1 rounded up to 10.00..0
      m_fin = m_round[SW:1];
      e_fin = e_norm4 + 1'b1;
    end

    if (sp4 == SP_NAN) begin
      sum_o = CANONICAL_NAN;
    end else if (sp4 == SP_INF) begin
      sum_o = {sp_sign4, EXP_MAX, {ManW{1'b0}}};
    end else if (is_zero4) begin
      sum_o = {zero_sign4, {(W-1){1'b0}}};   // exact zero: +0 unless both operands are -0
    end else if (e_fin >= EW'(EXP_MAX)) begin
      sum_o = {s_res4, EXP_MAX, {ManW{1'b0}}};   // overflow -> inf
    end else begin
      // A result without the hidden bit is subnormal (then e_fin = 1): exponent field 0.
      sum_o = {s_res4, m_fin[SW-1] ? e_fin[ExpW-1:0] : {ExpW{1'b0}}, m_fin[ManW-1:0]};
    end
  end

`ifndef SYNTHESIS
  if (ExpW < 2 || ExpW > 11 || ManW < 2 || ManW > 52) begin : gen_format_check
    $error("ibs_sharp_fp_add: ExpW must be 2..11 and ManW 2..52");
  end
`endif

endmodule
