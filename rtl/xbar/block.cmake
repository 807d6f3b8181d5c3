# xbar (rtl/README.md): ibs_xbar, its check `ndrsim verify xbar` (allocator-driven, every beat
# against its (input, output) sequence number, xbar_check.cpp) and its tests.
set(NDR_RTL_XBAR_SV ${CMAKE_CURRENT_LIST_DIR}/ibs_xbar.sv)
ndr_verilate_block(xbar TOP ibs_xbar SOURCES ${NDR_RTL_XBAR_SV}
  PARAMS NumPorts=5 DataW=32
  COVERAGE_BUILD
  FAULTS "fault -DNDR_FAULT_XBAR")   # stuck_bit: bit 0 of output 0's data stuck at 0
target_sources(ndr_verify PRIVATE ${CMAKE_CURRENT_LIST_DIR}/xbar_check.cpp)
ndr_rtl_lint(SOURCES ${NDR_RTL_XBAR_SV})
ndr_rtl_synth(TOP ibs_xbar SOURCES ${NDR_RTL_XBAR_SV} PARAMS NumPorts=4 DataW=64)
ndr_rtl_tests(rtl_tests xbar_rtl_test.cpp)
