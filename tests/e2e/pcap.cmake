# End-to-end tests of `ndrsim run --pcap` (label e2e). Included by tests/e2e/CMakeLists.txt.
# The capture's contents (ERF records, CRCs, tshark decode) are checked by
# tests/cycle/pcap_test.cpp; here the CLI path: the run succeeds and reports the capture.
set(NDR_PCAP_TRACE ${CMAKE_CURRENT_SOURCE_DIR}/../data/pcap_small.jsonl)

# Own helper: the *.cmake files are included in name order, so traffic_cli.cmake's ndr_e2e_py
# is not defined yet here. Same contract (ndrsim_check.py MODE ARGS...).
find_package(Python3 COMPONENTS Interpreter REQUIRED)
function(ndr_pcap_py name)
  add_test(NAME e2e.${name}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/ndrsim_check.py ${ARGN}
    WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(e2e.${name} PROPERTIES LABELS e2e TIMEOUT 120
    ENVIRONMENT SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1)
endfunction()

# Exit status only (no REGEX, so the exit code counts).
ndr_e2e(run_pcap ARGS run ${NDR_PCAP_TRACE} -q --pcap ${CMAKE_CURRENT_BINARY_DIR}/run_pcap.pcap)
# Default link: host 0's uplink and back, 6 packets (see the trace's header comment).
ndr_pcap_py(run_pcap_summary ok ${CMAKE_BINARY_DIR}/ndrsim
  "^capture: .*run_pcap_summary\\.pcap \\(6 packets on host0->sw0\\.p0 and back\\)$" --
  run ${NDR_PCAP_TRACE} --pcap ${CMAKE_CURRENT_BINARY_DIR}/run_pcap_summary.pcap)
# A named link (the reverse direction is captured too).
ndr_pcap_py(run_pcap_named_link ok ${CMAKE_BINARY_DIR}/ndrsim
  "^capture: .* \\(6 packets on sw0\\.p1->host1 and back\\)$" --
  run ${NDR_PCAP_TRACE} --pcap ${CMAKE_CURRENT_BINARY_DIR}/run_pcap_named.pcap
  --pcap-link sw0.p1->host1)
# Unknown link: one error line naming the option, the bad name and valid names.
ndr_pcap_py(err_pcap_unknown_link error ${CMAKE_BINARY_DIR}/ndrsim "--pcap-link" "host7->sw0\\.p7"
  "host0->sw0\\.p0" -- run ${NDR_PCAP_TRACE} -q --pcap ${CMAKE_CURRENT_BINARY_DIR}/bad.pcap
  --pcap-link host7->sw0.p7)
# Unwritable file: one error line naming the path.
ndr_pcap_py(err_pcap_unwritable error ${CMAKE_BINARY_DIR}/ndrsim "/nonexistent_dir/x\\.pcap" --
  run ${NDR_PCAP_TRACE} -q --pcap /nonexistent_dir/x.pcap)
