// IEEE 754 binary addition r = a + b, round to nearest even, for one format of ExpW exponent and
// ManW fraction bits (fp32 8/23, fp16 5/10, bf16 8/7). Combinational. Semantics of
// models/golden/reduce_op.h (sum): subnormals kept (gradual underflow, no FTZ/DAZ), finite
// overflow -> +-inf, inf + -inf and any NaN operand -> the canonical quiet NaN (positive, quiet
// bit only), exact cancellation x + (-x) -> +0, (-0) + (-0) -> -0.
//
// Datapath: unpack (hidden bit, subnormal exponent 1); order so that |a| >= |b|; align b with
// guard, round and sticky bits (GRS: enough for an exact RNE of a sum or difference); add or
// subtract; normalise (right by one on a carry, else left by the leading zeros but not below
// exponent 1, which yields subnormals); round to nearest even on GRS; a rounding carry
// renormalises.
module ibs_sharp_fp_add #(
  /// Exponent bits, 2..11.
  parameter int unsigned ExpW = 8,
  /// Fraction bits (without the hidden bit), 2..52.
  parameter int unsigned ManW = 23,
  localparam int unsigned W   = 1 + ExpW + ManW
) (
  input  logic [W-1:0] a_i,
  input  logic [W-1:0] b_i,
  /// Fault injection for the checker's self-test, tie to 0: 1 = truncate instead of RNE.
  input  logic         fault_trunc_i,
  output logic [W-1:0] sum_o
);

  localparam int unsigned SW = ManW + 1;     // significand with the hidden bit
  localparam int unsigned XW = SW + 3;       // plus guard, round, sticky
  localparam int unsigned EW = ExpW + 2;     // exponent arithmetic, room for carry and borrow
  localparam logic [ExpW-1:0] EXP_MAX = '1;
  localparam logic [W-1:0] CANONICAL_NAN = {1'b0, EXP_MAX, 1'b1, {(ManW-1){1'b0}}};

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

  logic            sa, sb, s_big, s_small;
  logic [ExpW-1:0] ea, eb;
  logic [ManW-1:0] fa, fb;
  logic            nan_a, nan_b, inf_a, inf_b;
  logic            a_big;
  logic [EW-1:0]   ea_eff, eb_eff, e_big, e_small, diff, e_norm, lz, shift, e_fin;
  logic [XW-1:0]   m_big, m_small, m_shifted, m_aligned;
  logic            sticky;
  logic [XW:0]     m_sum;
  logic [XW-1:0]   m_norm;
  logic            guard, rest, round_up;
  logic [SW:0]     m_round;
  logic [SW-1:0]   m_fin;

  always_comb begin
    {sa, ea, fa} = a_i;
    {sb, eb, fb} = b_i;
    nan_a = (ea == EXP_MAX) && (fa != '0);
    nan_b = (eb == EXP_MAX) && (fb != '0);
    inf_a = (ea == EXP_MAX) && (fa == '0);
    inf_b = (eb == EXP_MAX) && (fb == '0);
    ea_eff = (ea == '0) ? EW'(1) : EW'(ea);   // subnormals have exponent 1
    eb_eff = (eb == '0) ? EW'(1) : EW'(eb);

    // Order by magnitude (exponent, then fraction: the bit patterns compare as magnitudes).
    a_big   = a_i[W-2:0] >= b_i[W-2:0];
    s_big   = a_big ? sa : sb;
    s_small = a_big ? sb : sa;
    e_big   = a_big ? ea_eff : eb_eff;
    e_small = a_big ? eb_eff : ea_eff;
    m_big   = a_big ? {ea != '0, fa, 3'b000} : {eb != '0, fb, 3'b000};
    m_small = a_big ? {eb != '0, fb, 3'b000} : {ea != '0, fa, 3'b000};

    // Align the smaller operand; the bits shifted out collapse into the sticky bit.
    diff      = e_big - e_small;
    m_shifted = m_small >> diff;
    sticky    = (m_shifted << diff) != m_small;
    m_aligned = m_shifted | XW'(sticky);

    m_sum = (s_big == s_small) ? ({1'b0, m_big} + {1'b0, m_aligned})
                               : ({1'b0, m_big} - {1'b0, m_aligned});

    // Normalise.
    lz     = '0;
    shift  = '0;
    e_norm = e_big;
    m_norm = m_sum[XW-1:0];
    if (m_sum[XW]) begin
      m_norm = {m_sum[XW:2], m_sum[1] | m_sum[0]};
      e_norm = e_big + 1'b1;
    end else begin
      lz     = lzc(m_sum[XW-1:0]);
      shift  = (lz < e_big - 1'b1) ? lz : e_big - 1'b1;   // stop at exponent 1 (subnormal)
      m_norm = m_sum[XW-1:0] << shift;
      e_norm = e_big - shift;
    end

    // Round to nearest, ties to even.
    guard    = m_norm[2];
    rest     = m_norm[1] | m_norm[0];
    round_up = guard && (rest || m_norm[3]) && !fault_trunc_i;
    m_round  = {1'b0, m_norm[XW-1:3]} + (SW+1)'(round_up);
    e_fin    = e_norm;
    m_fin    = m_round[SW-1:0];
    if (m_round[SW]) begin          // 1.11..1 rounded up to 10.00..0
      m_fin = m_round[SW:1];
      e_fin = e_norm + 1'b1;
    end

    // Pack, with the special cases first.
    if (nan_a || nan_b || (inf_a && inf_b && sa != sb)) begin
      sum_o = CANONICAL_NAN;
    end else if (inf_a || inf_b) begin
      sum_o = {inf_a ? sa : sb, EXP_MAX, {ManW{1'b0}}};
    end else if (m_sum == '0) begin
      sum_o = {sa & sb, {(W-1){1'b0}}};   // exact zero: +0 unless both operands are -0
    end else if (e_fin >= EW'(EXP_MAX)) begin
      sum_o = {s_big, EXP_MAX, {ManW{1'b0}}};   // overflow -> inf
    end else begin
      // A result without the hidden bit is subnormal (then e_fin = 1): exponent field 0.
      sum_o = {s_big, m_fin[SW-1] ? e_fin[ExpW-1:0] : {ExpW{1'b0}}, m_fin[ManW-1:0]};
    end
  end

`ifndef SYNTHESIS
  if (ExpW < 2 || ExpW > 11 || ManW < 2 || ManW > 52) begin : gen_format_check
    $error("ibs_sharp_fp_add: ExpW must be 2..11 and ManW 2..52");
  end
`endif

endmodule
