# switch_alloc (rtl/README.md): ibs_switch_alloc (iSLIP / input-first), its check `ndrsim verify
# switch_alloc` against the golden switch_alloc (switch_alloc_check.cpp) and its tests.
set(NDR_RTL_SWITCH_ALLOC_SV ${CMAKE_CURRENT_LIST_DIR}/ibs_switch_alloc.sv)
ndr_verilate_block(switch_alloc TOP ibs_switch_alloc SOURCES ${NDR_RTL_SWITCH_ALLOC_SV}
  PARAMS NumPorts=5 Iterations=3   # not a power of two: pointer wrap exercised
  COVERAGE_BUILD
  # freeze_ptr: the pointers never move, so the next pointers are unread (-Wno-UNUSEDSIGNAL).
  FAULTS "fault -DNDR_FAULT_ARB -Wno-UNUSEDSIGNAL")
target_sources(ndr_verify PRIVATE ${CMAKE_CURRENT_LIST_DIR}/switch_alloc_check.cpp)
ndr_rtl_lint(SOURCES ${NDR_RTL_SWITCH_ALLOC_SV})
ndr_rtl_synth(TOP ibs_switch_alloc SOURCES ${NDR_RTL_SWITCH_ALLOC_SV}
  PARAMS NumPorts=4 Iterations=2)
ndr_rtl_tests(rtl_tests switch_alloc_rtl_test.cpp)
