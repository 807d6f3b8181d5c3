# sharp_alu (rtl/README.md): ibs_sharp_alu and its units, its check `ndrsim verify sharp_alu`
# against the golden reduce_elementwise (sharp_alu_check.cpp, operands sharp_alu_operands.cpp)
# and its tests.
set(NDR_RTL_SHARP_ALU_SV ${CMAKE_CURRENT_LIST_DIR}/ibs_sharp_stage_reg.sv
  ${CMAKE_CURRENT_LIST_DIR}/ibs_sharp_fp_add.sv
  ${CMAKE_CURRENT_LIST_DIR}/ibs_sharp_int_alu.sv
  ${CMAKE_CURRENT_LIST_DIR}/ibs_sharp_cmp.sv
  ${CMAKE_CURRENT_LIST_DIR}/ibs_sharp_alu.sv)
# The real model with FST tracing (--wave) and line coverage for the verify report (toggle
# coverage costs x30 in speed, rtl/README.md), no _cov build; one fault build per fault of
# sharp_alu_check.cpp, without coverage: `rounding` (truncating float sums), `latency` (one
# pipeline register too many).
set(stages 4)   # one register after each datapath step (ibs_sharp_alu.sv)
math(EXPR stages_plus1 "${stages} + 1")
ndr_verilate_block(sharp_alu TOP ibs_sharp_alu SOURCES ${NDR_RTL_SHARP_ALU_SV}
  PARAMS Stages=${stages}
  TRACE_FST PLAIN_ARGS --coverage-line
  FAULTS "fault_rounding -DNDR_FAULT_ROUNDING" "fault_latency -GStages=${stages_plus1}")
target_sources(ndr_verify PRIVATE ${CMAKE_CURRENT_LIST_DIR}/sharp_alu_check.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sharp_alu_operands.cpp)
ndr_rtl_lint(SOURCES ${NDR_RTL_SHARP_ALU_SV})
ndr_rtl_synth(TOP ibs_sharp_alu SOURCES ${NDR_RTL_SHARP_ALU_SV} PARAMS Stages=4)
ndr_rtl_tests(rtl_tests sharp_alu_rtl_test.cpp sharp_alu_directed_test.cpp)
