# credit_fc (rtl/README.md): ib_credit_fc, its check `ndrsim verify credit_fc` against the golden
# credit_sender / credit_receiver (credit_fc_check.cpp) and its tests.
set(NDR_RTL_CREDIT_FC_SV ${CMAKE_CURRENT_LIST_DIR}/ib_credit_fc.sv)
ndr_verilate_block(credit_fc TOP ib_credit_fc SOURCES ${NDR_RTL_CREDIT_FC_SV}
  PARAMS NumVls=4 BufBlocks=2100   # > 2048 blocks: the FCCL clamp is exercised
  COVERAGE_BUILD
  FAULTS "fault -DNDR_FAULT_CREDIT")   # drop_credit: every FC update is dropped
target_sources(ndr_verify PRIVATE ${CMAKE_CURRENT_LIST_DIR}/credit_fc_check.cpp)
ndr_rtl_lint(SOURCES ${NDR_RTL_CREDIT_FC_SV})
ndr_rtl_synth(TOP ib_credit_fc SOURCES ${NDR_RTL_CREDIT_FC_SV} PARAMS NumVls=2 BufBlocks=128)
ndr_rtl_tests(rtl_tests credit_fc_rtl_test.cpp)
