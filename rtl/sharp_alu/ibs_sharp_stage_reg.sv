// One optional pipeline register of the SHARP ALU datapath (rtl/README.md, ibs_sharp_alu): with
// Enable = 1 a W-bit data register loaded when en_i is high (the load enable of its pipeline
// stage, driven by ibs_sharp_alu's valid/ready control), with Enable = 0 a wire. This is how the
// Stages parameter places registers between the datapath steps without changing the logic.
// Data registers have no reset: the valid bits that qualify them are in ibs_sharp_alu.
module ibs_sharp_stage_reg #(
  /// Data width.
  parameter int unsigned W      = 1,
  /// 1 = register, 0 = wire (clk_i and en_i unused).
  parameter bit          Enable = 1'b1
) (
  input  logic         clk_i,
  /// Load enable of the stage (no handshake: the owner of the valid bit decides).
  input  logic         en_i,
  input  logic [W-1:0] d_i,
  output logic [W-1:0] q_o
);

  if (Enable) begin : gen_reg
    logic [W-1:0] data_q;
    always_ff @(posedge clk_i) begin
      if (en_i) data_q <= d_i;
    end
    assign q_o = data_q;
  end else begin : gen_wire
    logic unused_ctrl;
    assign unused_ctrl = clk_i ^ en_i;
    assign q_o         = d_i;
  end

endmodule
