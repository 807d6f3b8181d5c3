# End-to-end tests of `ndrsim verify` (label e2e; rtl too: they need the Verilated models).
# Included by tests/e2e/CMakeLists.txt. Checks live in verify_check.py (see its docstring).
if(TARGET ndr_verify)
  find_package(Python3 COMPONENTS Interpreter REQUIRED)
  function(ndr_verify_py name)
    add_test(NAME e2e.${name}
      COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/verify_check.py ${ARGN}
      WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
    set_tests_properties(e2e.${name} PROPERTIES LABELS "e2e;rtl" TIMEOUT 120
      ENVIRONMENT SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1)
  endfunction()
  set(NDR_VERIFY_OUT ${CMAKE_CURRENT_BINARY_DIR}/verify_out)
  set(NDRSIM ${CMAKE_BINARY_DIR}/ndrsim)

  # Every registered block passes at the default 20000 cycles; report.json with coverage.
  ndr_verify_py(verify_all pass ${NDRSIM} ${NDR_VERIFY_OUT}/all credit_fc,vl_arb,switch_alloc,xbar
  -- all --seed 3)
  ndr_verify_py(verify_vl_arb pass ${NDRSIM} ${NDR_VERIFY_OUT}/vl_arb vl_arb -- vl_arb --seed 7
    --cycles 50000)
  ndr_verify_py(verify_determinism determinism ${NDRSIM} ${NDR_VERIFY_OUT}/det --
    credit_fc --seed 5 --cycles 5000)
  # The checker can fail: every fault-injected build is reported with its first mismatch.
  ndr_verify_py(verify_fault_credit_fc fault ${NDRSIM} credit_fc drop_credit)
  ndr_verify_py(verify_fault_vl_arb fault ${NDRSIM} vl_arb mis_rotate)
  ndr_verify_py(verify_fault_switch_alloc fault ${NDRSIM} switch_alloc freeze_ptr)
  ndr_verify_py(verify_fault_xbar fault ${NDRSIM} xbar stuck_bit)
  ndr_verify_py(verify_fault_switch fault ${NDRSIM} switch drop_credit)
  ndr_verify_py(verify_fault_sharp_alu_rounding fault ${NDRSIM} sharp_alu rounding)
  ndr_verify_py(verify_fault_sharp_alu_latency fault ${NDRSIM} sharp_alu latency)
  # --wave writes an FST file.
  ndr_verify_py(verify_wave wave ${NDRSIM} ${NDR_VERIFY_OUT}/vl_arb.fst -- vl_arb --cycles 2000)
  # Bad input: one line, non-zero exit.
  ndr_verify_py(verify_unknown_block error ${NDRSIM} 2
    "unknown block 'nosuch' \\(valid: credit_fc, vl_arb, switch_alloc, xbar.*, all\\)" -- nosuch)
  ndr_verify_py(verify_unknown_fault error ${NDRSIM} 2 "unknown fault \"nosuch\" \\(valid: "
    -- xbar --fault nosuch)
  ndr_verify_py(verify_wave_all error ${NDRSIM} 2 "--wave needs a single block" --
    all --wave ${NDR_VERIFY_OUT}/x.fst)
endif()
