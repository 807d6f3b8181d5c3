# CLI tests of fault.link_down (label e2e). Included by tests/e2e/CMakeLists.txt. The fault's
# mechanism and report fields are checked by tests/cycle/link_fault_test.cpp; here bad input:
# one error line naming fault.link_down and a non-zero exit.
set(NDR_FAULT_TRACE ${CMAKE_CURRENT_SOURCE_DIR}/../data/link_fault_ring16.jsonl)
set(NDR_FAULT_FABRIC --set fabric.topology=fat_tree --set switch.ports=8)

# Own helper: the *.cmake files are included in name order (traffic_cli.cmake's comes later).
find_package(Python3 COMPONENTS Interpreter REQUIRED)
function(ndr_fault_py name)
  add_test(NAME e2e.${name}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/ndrsim_check.py ${ARGN}
    WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(e2e.${name} PROPERTIES LABELS e2e TIMEOUT 120
    ENVIRONMENT SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1)
endfunction()

ndr_fault_py(err_link_down_unknown_link error ${CMAKE_BINARY_DIR}/ndrsim "fault\\.link_down"
  "no link named 'sw0\\.p4->sw9\\.p0'" "sw0\\.p4->sw4\\.p0" --
  run ${NDR_FAULT_TRACE} -q ${NDR_FAULT_FABRIC} --set "fault.link_down=sw0.p4->sw9.p0@100us")
ndr_fault_py(err_link_down_no_time error ${CMAKE_BINARY_DIR}/ndrsim "fault\\.link_down"
  "expected LINK@TIME" --
  run ${NDR_FAULT_TRACE} -q ${NDR_FAULT_FABRIC} --set "fault.link_down=sw0.p4->sw4.p0")
ndr_fault_py(err_link_down_bad_time error ${CMAKE_BINARY_DIR}/ndrsim "fault\\.link_down"
  "'10xs'" --
  run ${NDR_FAULT_TRACE} -q ${NDR_FAULT_FABRIC} --set "fault.link_down=sw0.p4->sw4.p0@10xs")
ndr_fault_py(err_link_down_host_cable error ${CMAKE_BINARY_DIR}/ndrsim "fault\\.link_down"
  "host cable" --
  run ${NDR_FAULT_TRACE} -q ${NDR_FAULT_FABRIC} --set "fault.link_down=host0->sw0.p0@1us")
ndr_fault_py(err_link_down_tlm error ${CMAKE_BINARY_DIR}/ndrsim "fault\\.link_down"
  "cycle level only" --
  run ${NDR_FAULT_TRACE} -q ${NDR_FAULT_FABRIC} --level tlm
  --set "fault.link_down=sw0.p4->sw4.p0@1us")
ndr_fault_py(err_link_down_yaml error-yaml ${CMAKE_BINARY_DIR}/ndrsim
  ${CMAKE_CURRENT_BINARY_DIR}/link_down_bad.yaml 2 "fault:\\n  link_down: sw0.p4@1us"
  "fault\\.link_down" --
  run ${NDR_FAULT_TRACE} -q ${NDR_FAULT_FABRIC})
# Repeatable: two --set append; both cables are reported (stdout table).
ndr_fault_py(run_link_down_twice ok ${CMAKE_BINARY_DIR}/ndrsim
  "link fault sw0\\.p4->sw4\\.p0: down at 100\\.000 us, rerouted at 2100\\.000 us, [0-9]+ packets lost\\nlink fault sw5\\.p4->sw2\\.p5: down at 150\\.000 us" --
  run ${NDR_FAULT_TRACE} ${NDR_FAULT_FABRIC} --out ${CMAKE_CURRENT_BINARY_DIR}/link_down_twice
  --set hca.ack_timeout=1ms --set "fault.link_down=sw0.p4->sw4.p0@100us"
  --set "fault.link_down=sw5.p4->sw2.p5@150us")
