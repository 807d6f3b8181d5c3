# End-to-end tests of `ndrsim traffic --level rtl` (the Verilated rtl/ib_switch_core; label
# e2e). Only when the core was Verilated. Included after traffic_cli.cmake (ndr_e2e_py).
# Payload 256 B = 282 B on the wire = 5 blocks (beats).
if(TARGET ndr_verify_switch)
  set(NDR_E2E_RTL_CHECK ${CMAKE_CURRENT_SOURCE_DIR}/traffic_rtl_check.py)
  function(ndr_e2e_rtl name)
    add_test(NAME e2e.${name} COMMAND ${Python3_EXECUTABLE} ${NDR_E2E_RTL_CHECK} ${ARGN}
      WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
    set_tests_properties(e2e.${name} PROPERTIES LABELS e2e TIMEOUT 240)
  endfunction()
  ndr_e2e_rtl(traffic_rtl_low_load low ${CMAKE_BINARY_DIR}/ndrsim ${NDR_E2E_OUT}/rtl_low 5 --
    traffic --level rtl --ports 4 --pattern uniform --load 0.2 --size 256 --warmup 2000
    --cycles 20000 -j 1)
  ndr_e2e_rtl(traffic_rtl_saturation saturation ${CMAKE_BINARY_DIR}/ndrsim
    ${NDR_E2E_OUT}/rtl_sat 5 -- traffic --level rtl --ports 4 --pattern permutation --size 256
    --set traffic.arrivals=backlogged --warmup 2000 --cycles 20000 -j 1)
  # Same seed, same report (except wall-clock fields); another seed differs.
  ndr_e2e_py(traffic_rtl_determinism determinism ${CMAKE_BINARY_DIR}/ndrsim ${NDR_E2E_OUT}/rtl_det --
    traffic --level rtl --ports 4 --load 0.4 --size 256 --warmup 500 --cycles 5000 -q -j 1)
  # More ports than the core was built with: one line naming switch.ports.
  ndr_e2e_py(err_rtl_ports error ${CMAKE_BINARY_DIR}/ndrsim "switch\\.ports" "4 ports" --
    traffic --level rtl --ports 8 -q)
endif()
