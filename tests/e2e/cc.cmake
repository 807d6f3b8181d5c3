# IB congestion control (docs/congestion.md): incast + victim, CC off vs on.
add_test(NAME e2e.cc_victim COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/cc_victim_check.py
  ${CMAKE_BINARY_DIR}/ndrsim ${CMAKE_SOURCE_DIR}/traces)
set_tests_properties(e2e.cc_victim PROPERTIES LABELS e2e TIMEOUT 300
  ENVIRONMENT SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1)
ndr_e2e(cc_bad_cct ARGS run ${CMAKE_SOURCE_DIR}/traces/cc_victim_alone.jsonl --set cc.cct=4:1
  WILL_FAIL)
# Issue 20's bar: a ring allreduce beside an incast on shared leaves, static and adaptive.
add_test(NAME e2e.cc_ring_victim COMMAND python3
  ${CMAKE_CURRENT_SOURCE_DIR}/cc_ring_victim_check.py ${CMAKE_BINARY_DIR}/ndrsim)
set_tests_properties(e2e.cc_ring_victim PROPERTIES LABELS e2e TIMEOUT 300
  ENVIRONMENT SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1)
