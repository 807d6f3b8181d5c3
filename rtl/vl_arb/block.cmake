# vl_arb (rtl/README.md): ibs_vl_arb with its two tables, its check `ndrsim verify vl_arb`
# against the golden vl_arbiter (vl_arb_check.cpp) and its tests.
set(NDR_RTL_VL_ARB_SV ${CMAKE_CURRENT_LIST_DIR}/ibs_vl_arb_table.sv
  ${CMAKE_CURRENT_LIST_DIR}/ibs_vl_arb.sv)
ndr_verilate_block(vl_arb TOP ibs_vl_arb SOURCES ${NDR_RTL_VL_ARB_SV}
  PARAMS NumVls=4 NumEntries=8
  COVERAGE_BUILD
  FAULTS "fault -DNDR_FAULT_ARB")   # mis_rotate: a new turn leaves the pointer in place
target_sources(ndr_verify PRIVATE ${CMAKE_CURRENT_LIST_DIR}/vl_arb_check.cpp)
ndr_rtl_lint(SOURCES ${NDR_RTL_VL_ARB_SV})
ndr_rtl_synth(TOP ibs_vl_arb SOURCES ${NDR_RTL_VL_ARB_SV} PARAMS NumVls=2 NumEntries=4)
# verify_wave_test: the --wave FST output of `ndrsim verify`, on this block.
ndr_rtl_tests(rtl_tests vl_arb_rtl_test.cpp verify_wave_test.cpp)
