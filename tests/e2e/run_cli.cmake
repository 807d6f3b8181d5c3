# End-to-end tests of `ndrsim run` and `ndrsim gen` (label e2e). Included by
# tests/e2e/CMakeLists.txt. Checks live in run_check.py (run with python3). Every simulation
# here is small (the shipped 8-rank 1..16 MiB sweep takes < 1 s; the generated 16-rank 1 MiB
# allreduce < 0.2 s); traces/default.jsonl is too slow for e2e.
#
# Names are prefixed ndr_run_ / NDR_RUN_ so nothing collides with the other *.cmake files here
# (all are included into one scope, in alphabetical order).
find_package(Python3 COMPONENTS Interpreter REQUIRED)
set(NDR_RUN_CHECK ${CMAKE_CURRENT_SOURCE_DIR}/run_check.py)
set(NDR_RUN_BIN ${CMAKE_BINARY_DIR}/ndrsim)
set(NDR_RUN_OUT ${CMAKE_CURRENT_BINARY_DIR}/run_out)
set(NDR_RUN_TRACES ${CMAKE_CURRENT_SOURCE_DIR}/../../traces)
set(NDR_RUN_BAD ${CMAKE_CURRENT_SOURCE_DIR}/../data/bad_traces)

function(ndr_run_e2e_py name)
  add_test(NAME e2e.${name} COMMAND ${Python3_EXECUTABLE} ${NDR_RUN_CHECK} ${ARGN}
    WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(e2e.${name} PROPERTIES LABELS e2e TIMEOUT 120
    ENVIRONMENT SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1)
endfunction()

# A shipped trace (8 ranks, ring + tree allreduce, 1..16 MiB: 10 collectives) with --out:
# report.json has collectives[] with every key, hca counters, links[], switches[];
# timeline.json (report.timeline=packets) is Chrome trace-event JSON with X slices on every rank
# and C counters.
ndr_run_e2e_py(run_report_timeline report ${NDR_RUN_BIN} ${NDR_RUN_OUT}/shipped 10 --
  run ${NDR_RUN_TRACES}/allreduce_ring_tree_8.jsonl)

# Malformed traces: exit 2 and one line `ndrsim: error: FILE:LINE: FIELD: REASON`.
ndr_run_e2e_py(run_err_bad_json error ${NDR_RUN_BIN} 2
  "^ndrsim: error: .*bad_json\\.jsonl:4: json: malformed JSON" --
  run ${NDR_RUN_BAD}/bad_json.jsonl -q)
ndr_run_e2e_py(run_err_unknown_op error ${NDR_RUN_BIN} 2
  "^ndrsim: error: .*unknown_op\\.jsonl:5: op: unknown op 'allreduc'" --
  run ${NDR_RUN_BAD}/unknown_op.jsonl -q)
ndr_run_e2e_py(run_err_member_disagree error ${NDR_RUN_BIN} 2
  "^ndrsim: error: .*member_disagree\\.jsonl:7: count: " "disagree" "2048" "1024" "line 6" --
  run ${NDR_RUN_BAD}/member_disagree.jsonl -q)
ndr_run_e2e_py(run_err_missing_member error ${NDR_RUN_BIN} 2
  "^ndrsim: error: .*missing_member\\.jsonl:5: seq: " "no record for global ranks 2, 3" --
  run ${NDR_RUN_BAD}/missing_member.jsonl -q)
ndr_run_e2e_py(run_err_missing_file error ${NDR_RUN_BIN} 2 "nonexistent\\.jsonl" --
  run ${NDR_RUN_OUT}/nonexistent.jsonl -q)

# gen -> run end to end: a fixture writes a 16-rank 1 MiB ring allreduce trace.
add_test(NAME e2e.run_gen16_setup
  COMMAND ${NDR_RUN_BIN} gen collective --op allreduce --ranks 16 --bytes 1MiB --algo ring
    -o ${CMAKE_CURRENT_BINARY_DIR}/run_gen16.jsonl
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
set_tests_properties(e2e.run_gen16_setup PROPERTIES LABELS e2e TIMEOUT 60
  ENVIRONMENT SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 FIXTURES_SETUP ndr_run_gen16
  PASS_REGULAR_EXPRESSION "wrote .*run_gen16\\.jsonl: 16 ranks, 1 collectives, 16 records")
# The generated trace runs on the default single switch.
ndr_run_e2e_py(run_gen16_single report ${NDR_RUN_BIN} ${NDR_RUN_OUT}/gen16_single 1 --
  run ${CMAKE_CURRENT_BINARY_DIR}/run_gen16.jsonl)
set_tests_properties(e2e.run_gen16_single PROPERTIES FIXTURES_REQUIRED ndr_run_gen16)
# ... and on a fat tree of 8-port switches: 16 hosts -> 4 leaves + 2 spines; the ring crosses
# leaves at ranks 3->4, 7->8, 11->12, 15->0, so tier-1 links must carry bytes.
ndr_run_e2e_py(run_gen16_fat_tree report ${NDR_RUN_BIN} ${NDR_RUN_OUT}/gen16_ft 1 --
  run ${CMAKE_CURRENT_BINARY_DIR}/run_gen16.jsonl --topology fat_tree --set switch.ports=8)
set_tests_properties(e2e.run_gen16_fat_tree PROPERTIES FIXTURES_REQUIRED ndr_run_gen16
  FIXTURES_SETUP ndr_run_gen16_ft)
ndr_run_e2e_py(run_gen16_fat_tree_fabric fabric ${NDR_RUN_OUT}/gen16_ft fat_tree 6 4)
set_tests_properties(e2e.run_gen16_fat_tree_fabric PROPERTIES
  FIXTURES_REQUIRED ndr_run_gen16_ft)

# Issue 16 item 1 (use-after-free): a 4-rank 4 KiB alltoall under 10 % ICRC loss. The host
# posts to a new peer from inside an ACK callback, so the HCA's queue-pair table grows while
# receive_ack still holds one of its entries; seeds 1, 3 and 6 crashed (exit 139) before the
# fix. Every one of the 4 x 3 messages (1 KiB each) must arrive, after at least one loss.
set(NDR_RUN_REGRESS ${CMAKE_CURRENT_SOURCE_DIR}/../data/regress)
foreach(seed 1 3 6)
  ndr_run_e2e_py(run_alltoall_faults_seed${seed} delivered ${NDR_RUN_BIN}
    ${NDR_RUN_OUT}/a2a_faults_${seed} 12 12288 1 --
    run ${NDR_RUN_REGRESS}/alltoall4_4k.jsonl --set sim.seed=${seed}
    --set fault.icrc_error_rate=0.1 --set hca.ack_timeout=20us)
endforeach()

# Issue 16 item 6: an RC window below the ACK coalescing count stalled until the ACK timeout
# (cycle: 67 ms per window; TLM: forever). Now each window's last packet asks for its ACK: the
# run succeeds at both levels and warns once about the window's throughput.
foreach(window 1 2)
  ndr_run_e2e_py(run_rc_window_${window} error ${NDR_RUN_BIN} 0
    "^ndrsim run: warning: hca\\.max_outstanding: a window of ${window} packets? \\(<= hca\\.ack_coalesce 16\\) waits for the ACK its last packet requests" --
    run ${NDR_RUN_REGRESS}/rdma_write_10k.jsonl -q --set hca.max_outstanding=${window})
endforeach()
# ... and a 20 us ACK timeout without faults fired timeouts on the shipped 8-rank trace (81
# retransmitted packets): the timer now restarts on every ACK that makes progress, and an ACK no
# longer waits for its input and output to be free at once behind the per-packet crossbar
# allocation (up to ~21 us on this trace): it crosses as a priority packet
# (switch.xbar_priority_blocks, docs/architecture.md "The switch pipeline" step 5). At the
# default HCA timing, both levels.
foreach(level cycle tlm)
  ndr_run_e2e_py(run_lossless_ack_timeout_20us_${level} lossless ${NDR_RUN_BIN}
    ${NDR_RUN_OUT}/lossless_20us_${level} --
    run ${NDR_RUN_TRACES}/allreduce_ring_tree_8.jsonl --level ${level} --set hca.ack_timeout=20us)
endforeach()
# The ACK's wait itself (tests/e2e/ack_wait_check.py, pcap of every host cable): beyond the
# zero-load path (LINK 90 + SW 235 cycles) and its own flow's earlier packets (a VOQ is FIFO),
# an ACK waits at most for the egress staging budget, 8 KiB / 64 B = 128 beats -> granted once
# the backlog is <= 127, plus, when the output's VL has no credit left, one FC return: the
# host's FC packet waits for at most one 65-beat data packet on the reverse wire, then
# link.fc_min_interval 8 cycles, FC processing 2 x 4 cycles and the cable, 90:
# 127 + 65 + 8 + 8 + 90 = 298 cycles. With per-packet crossbar allocation
# (switch.xbar_priority_blocks=0) an ACK alone in its VOQ waited 1809 cycles on this 16 MiB
# tree allreduce (3816 on allreduce_ring_tree_8).
add_test(NAME e2e.run_ack_switch_wait COMMAND ${Python3_EXECUTABLE}
  ${CMAKE_CURRENT_SOURCE_DIR}/ack_wait_check.py ${NDR_RUN_BIN} ${NDR_RUN_OUT}/ack_wait 8 298 --
  run ${NDR_RUN_REGRESS}/allreduce_tree_8_16m.jsonl --set link.cable_length=3m
  --set link.fec_latency=100ns --set switch.latency=300ns --set switch.output_buffer=8KiB
  --set link.fc_min_interval=10ns --set link.fc_processing=5ns)
set_tests_properties(e2e.run_ack_switch_wait PROPERTIES LABELS e2e TIMEOUT 300
  ENVIRONMENT SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1)
# Cross-check (docs/configuration.md "Cross-checks"): a timeout that queueing can exceed.
ndr_run_e2e_py(run_warn_ack_timeout error ${NDR_RUN_BIN} 0
  "^ndrsim run: warning: hca\\.ack_timeout: 20 us is under 64 x the zero-load ACK round trip of 2\\.39 us .*use >= 153 us$" --
  run ${NDR_RUN_REGRESS}/rdma_write_10k.jsonl -q --set hca.ack_timeout=20us)

# Issue 16 item 2: inputs that crashed the trace loader or leaked raw library text.
ndr_run_e2e_py(run_err_number_overflow error ${NDR_RUN_BIN} 2
  "^ndrsim: error: .*number_overflow\\.jsonl:4: json: number out of range: number overflow parsing '1e400'" --
  run ${NDR_RUN_BAD}/number_overflow.jsonl -q)
# Nesting 100,000 deep inside a typed field segfaulted (exit 139); generated here (200 KB).
string(REPEAT "[" 100000 NDR_RUN_OPEN)
string(REPEAT "]" 100000 NDR_RUN_CLOSE)
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/deep_nesting.jsonl
  "{\"type\":\"header\",\"version\":1,\"nranks\":4,\"name\":\"x\"}\n"
  "{\"type\":\"comm\",\"id\":0,\"ranks\":${NDR_RUN_OPEN}${NDR_RUN_CLOSE}}\n")
ndr_run_e2e_py(run_err_deep_nesting error ${NDR_RUN_BIN} 2
  "^ndrsim: error: .*deep_nesting\\.jsonl:2: json: malformed JSON: nested deeper than 32 levels" --
  run ${CMAKE_CURRENT_BINARY_DIR}/deep_nesting.jsonl -q)
# A file without newlines (/dev/zero) grew to 4.2 GB before "read error": lines stop at 16 MiB.
ndr_run_e2e_py(run_err_endless_line error ${NDR_RUN_BIN} 2
  "^ndrsim: error: /dev/zero:1: json: line longer than 16 MiB" -- run /dev/zero -q)
# A 5 MB op name gave a 5 MB error line: error lines stop at 500 characters.
string(REPEAT "a" 100000 NDR_RUN_LONG)
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/long_op.jsonl
  "{\"type\":\"header\",\"version\":1,\"nranks\":4,\"name\":\"x\"}\n"
  "{\"type\":\"op\",\"rank\":0,\"comm\":0,\"seq\":0,\"op\":\"${NDR_RUN_LONG}\"}\n")
ndr_run_e2e_py(run_err_long_line error ${NDR_RUN_BIN} 2
  "^ndrsim: error: .*long_op\\.jsonl:2: op: unknown op 'aaaa.{400,500}\\.\\.\\. \\([0-9]+ characters\\)$" --
  run ${CMAKE_CURRENT_BINARY_DIR}/long_op.jsonl -q)
# Issue 16 item 3: values that wrapped silently (exit 0 with a wrong answer) are refused.
ndr_run_e2e_py(run_err_cable_wrap error ${NDR_RUN_BIN} 2
  "^ndrsim: error: --set link.cable_length: must be at most 100km" --
  run ${NDR_RUN_TRACES}/allreduce_ring_tree_8.jsonl -q --set link.cable_length=3689348814741910324mm)
ndr_run_e2e_py(traffic_err_window_wrap error ${NDR_RUN_BIN} 2
  "^ndrsim: error: --set sim.measure_cycles: must be in 1\\.\\.1000000000000000" --
  traffic -q --set sim.measure_cycles=18446744073709551615)
# Issue 16 items 3 and 4: sweep files whose numbers were silently changed, or whose name wrote
# the database outside the folder, are refused with FILE:LINE: field: reason (exit 2).
set(NDR_RUN_BAD_SWEEPS ${CMAKE_CURRENT_SOURCE_DIR}/../data/bad_sweeps)
foreach(case "repeats_1_5|4: repeats: expected 1\\.\\.10000, got '1\\.5'"
             "repeats_2abc|4: repeats: expected 1\\.\\.10000, got '2abc'"
             "repeats_4294967297|4: repeats: expected 1\\.\\.10000, got '4294967297'"
             "seed_negative|4: seeds: expected an unsigned integer .*got '-1'"
             "name_path|2: name: '\\.\\./\\.\\./x' must be a file name"
             "grid_overflow|.*axes: more than 1000000 points")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 file)
  list(GET parts 1 rx)
  ndr_run_e2e_py(sweep_err_${file} error ${NDR_RUN_BIN} 2
    "^ndrsim: error: .*${file}\\.yaml:${rx}" --
    sweep ${NDR_RUN_BAD_SWEEPS}/${file}.yaml --dry-run)
endforeach()
# Issue 16 item 4: a second YAML document in a config or sweep file is refused, not ignored.
ndr_run_e2e_py(config_err_two_documents error ${NDR_RUN_BIN} 2
  "^ndrsim: error: .*two_documents\\.yaml:5: YAML syntax error: a second YAML document" --
  config show --config ${CMAKE_CURRENT_SOURCE_DIR}/../data/config/two_documents.yaml)
ndr_run_e2e_py(sweep_err_two_documents error ${NDR_RUN_BIN} 2
  "^ndrsim: error: .*two_documents\\.yaml:7: YAML syntax error: a second YAML document" --
  sweep ${NDR_RUN_BAD_SWEEPS}/two_documents.yaml --dry-run)
# Found by fuzzing (tests/fuzz): a ',' outside a flow collection made reading a config or sweep
# file loop forever, filling memory; now a syntax error at the ','. One YAML reader for both
# (models/config/yaml_document): the same message for a config and a sweep file.
ndr_run_e2e_py(config_err_stray_comma error ${NDR_RUN_BIN} 2
  "^ndrsim: error: .*stray_comma\\.yaml:3: YAML syntax error: unexpected ','$" --
  config show --config ${CMAKE_CURRENT_SOURCE_DIR}/../data/config/stray_comma.yaml)
ndr_run_e2e_py(sweep_err_stray_comma error ${NDR_RUN_BIN} 2
  "^ndrsim: error: .*stray_comma\\.yaml:3: YAML syntax error: unexpected ','$" --
  sweep ${NDR_RUN_BAD_SWEEPS}/stray_comma.yaml --dry-run)
# A valid but huge count (2^40 fp64) ended in a leaked std::bad_alloc: now one line naming the
# record, counted before anything is built (it took about 3 GB and 5 s to reach the limit).
ndr_run_e2e_py(run_err_huge_count error ${NDR_RUN_BIN} 2
  "^ndrsim: error: .*huge_count\\.jsonl:4: count: allreduce collective of 8796093022208 bytes decomposes into 50331648 transfers, more than the 33554432" --
  run ${NDR_RUN_BAD}/huge_count.jsonl -q)
# Issue 16 item 4: options that were silently ignored are refused in one line (exit 2).
set(NDR_RUN_T8 ${NDR_RUN_TRACES}/allreduce_ring_tree_8.jsonl)
ndr_run_e2e_py(run_err_empty_out error ${NDR_RUN_BIN} 2 "^ndrsim: error: --out: must not be empty" --
  run ${NDR_RUN_T8} -q --out @EMPTY@)
ndr_run_e2e_py(traffic_err_empty_load error ${NDR_RUN_BIN} 2
  "^ndrsim: error: --load: must not be empty" -- traffic -q --load @EMPTY@)
ndr_run_e2e_py(run_err_pcap_link_alone error ${NDR_RUN_BIN} 2
  "^ndrsim: error: --pcap-link requires --pcap" -- run ${NDR_RUN_T8} -q --pcap-link host0)
ndr_run_e2e_py(bench_err_zero_cycles error ${NDR_RUN_BIN} 2
  "^ndrsim: error: --cycles: Value 0 not in range" -- bench --cycles 0)
ndr_run_e2e_py(traffic_err_fault_key error ${NDR_RUN_BIN} 2
  "^ndrsim: error: --set fault\\.icrc_error_rate: synthetic traffic has no RC transport" --
  traffic -q --set fault.icrc_error_rate=0.5)
ndr_run_e2e_py(sweep_err_db_not_sqlite error ${NDR_RUN_BIN} 2
  "^ndrsim: error: --db: '.*not_a_database\\.txt' exists and is not an SQLite database" --
  sweep ${CMAKE_CURRENT_SOURCE_DIR}/../sweep/levels.yaml
  --db ${CMAKE_CURRENT_SOURCE_DIR}/../data/not_a_database.txt)
# Issue 16 item 5: an algorithm that cannot run the op names the file, line and field (exit 2).
ndr_run_e2e_py(run_err_algo_does_not_fit error ${NDR_RUN_BIN} 2
  "^ndrsim: error: .*algo_does_not_fit\\.jsonl:4: algo: collective allgather: algo tree does not fit \\(use ring, rhd, pat\\)" --
  run ${NDR_RUN_BAD}/algo_does_not_fit.jsonl -q)
# Issue 16 item 5: a link rate the datapath cannot clock names its key and where it was set
# (exit 2, was exit 1; then no origin).
ndr_run_e2e_py(traffic_err_rate_too_high error ${NDR_RUN_BIN} 2
  "^ndrsim: error: --set link\\.rate: too high for switch\\.datapath_width 16 B" --
  traffic -q --set link.rate=1000000Tbps --set switch.datapath_width=16B)
# Issue 16 "done when": valgrind's memcheck on a normal alltoall run reports no error (it found
# the HCA use-after-free: 9 invalid reads on this trace before the fix). Pinned to the cycle
# level, whose HCA it checks (sim.level auto picks TLM for this trace since issue 19; under
# valgrind the TLM level shows SystemC's own thread-switching as uninitialised reads in
# sc_process_b::delete_process, with or without ndrsim's changes).
find_program(NDR_VALGRIND valgrind)
if(NDR_VALGRIND AND NOT NDR_SANITIZE)  # valgrind cannot run an ASan binary
  add_test(NAME e2e.valgrind_alltoall_16
    COMMAND ${NDR_VALGRIND} -q --error-exitcode=9 ${NDR_RUN_BIN} run
      ${NDR_RUN_TRACES}/alltoall_16.jsonl -q --level cycle
    WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(e2e.valgrind_alltoall_16 PROPERTIES LABELS e2e TIMEOUT 300
    ENVIRONMENT SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1)
endif()

# Issue 16: sharp.ost_bytes above 4 GiB wrapped to 0 in the aggregation node and ended in a
# floating-point exception (exit 136); an OST holds a few KiB (docs/domain.md §7).
ndr_run_e2e_py(config_err_sharp_ost_bytes error ${NDR_RUN_BIN} 2
  "^ndrsim: error: --set sharp.ost_bytes: .*must be in 1B..1MiB" --
  config show --set sharp.ost_bytes=8GiB)

# Issue 22 item 4: a link never reads above 1. Devices count a packet's beats when they commit
# it (a switch up to switch.output_buffer ahead), so samples read up to 1.08 (cycle) and 1.66
# (TLM, default trace); a link sending back to back now reads 1 (less the FC bytes on its wire) at every resolution.
foreach(level cycle tlm)
  ndr_run_e2e_py(run_utilisation_saturated_${level} utilisation ${NDR_RUN_BIN}
    ${NDR_RUN_OUT}/util_${level} "host0->sw0.p0" --
    run ${CMAKE_CURRENT_SOURCE_DIR}/../data/util/write_256MiB.jsonl --level ${level})
endforeach()
# Issue 15 item 6: a bad switch.sl2vl_ports entry is one line naming the key and the entry.
ndr_run_e2e_py(config_err_sl2vl_ports error ${NDR_RUN_BIN} 2
  "^ndrsim: error: --set switch.sl2vl_ports: .*bad port \"9\"" --
  config show --set switch.ports=8 --set "switch.sl2vl_ports=9:1=0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0")
# Issue 15 item 6: a port pair may map an SL to VL15 (dropped at run time, not refused).
ndr_run_e2e_py(config_sl2vl_ports_vl15 ok ${NDR_RUN_BIN} "sl2vl_ports" --
  config show --set "switch.sl2vl_ports=0:1=15,15,15,15,15,15,15,15,15,15,15,15,15,15,15,15")

# report.utilisation_interval changes only the utilisation samples, never a simulated result
# (tests/e2e/utilisation_interval_check.py says what is checked).
add_test(NAME e2e.run_utilisation_interval
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/utilisation_interval_check.py
  ${NDR_RUN_BIN} ${NDR_RUN_OUT}/utilisation_interval ${NDR_RUN_TRACES}/allreduce_ring_tree_8.jsonl)
set_tests_properties(e2e.run_utilisation_interval PROPERTIES LABELS e2e TIMEOUT 120
  ENVIRONMENT SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1)

# report.timeline: each level holds the events it promises, off writes no timeline.json, and
# no level changes a simulated result (tests/e2e/timeline_levels_check.py), at both levels.
foreach(ndr_run_lvl cycle tlm)
  add_test(NAME e2e.run_timeline_levels_${ndr_run_lvl}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/timeline_levels_check.py
    ${NDR_RUN_BIN} ${NDR_RUN_OUT}/timeline_levels_${ndr_run_lvl}
    ${CMAKE_CURRENT_BINARY_DIR}/run_gen16.jsonl 16 1048576 --level ${ndr_run_lvl})
  set_tests_properties(e2e.run_timeline_levels_${ndr_run_lvl} PROPERTIES LABELS e2e TIMEOUT 120
    ENVIRONMENT SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 FIXTURES_REQUIRED ndr_run_gen16)
endforeach()

# Issue 19 item 2: a ring reduce_scatter, allgather or allreduce unfolds step by step; the
# report's transfers_held_peak is at least one step and at most half of the schedule
# (tests/e2e/ring_unfold_check.py), at both levels, flat and on dgx-h100 nodes (channels).
foreach(op reduce_scatter allgather)
  add_test(NAME e2e.ring_unfold_${op}_setup
    COMMAND ${NDR_RUN_BIN} gen collective --op ${op} --ranks 16 --bytes 64KiB:4MiB:8 --algo ring
      -o ${CMAKE_CURRENT_BINARY_DIR}/ring_unfold_${op}.jsonl)
  set_tests_properties(e2e.ring_unfold_${op}_setup PROPERTIES LABELS e2e TIMEOUT 60
    FIXTURES_SETUP ndr_ring_unfold_${op})
endforeach()
add_test(NAME e2e.ring_unfold_dgx_setup
  COMMAND ${NDR_RUN_BIN} gen collective --op allreduce --nodes 2 --gpus-per-node 8
    --bytes 1MiB:64MiB:8 --algo ring -o ${CMAKE_CURRENT_BINARY_DIR}/ring_unfold_dgx.jsonl)
set_tests_properties(e2e.ring_unfold_dgx_setup PROPERTIES LABELS e2e TIMEOUT 60
  FIXTURES_SETUP ndr_ring_unfold_dgx)
set(NDR_UNFOLD ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/ring_unfold_check.py ${NDR_RUN_BIN})
foreach(level cycle tlm)
  add_test(NAME e2e.ring_unfold_shipped_${level}
    COMMAND ${NDR_UNFOLD} ${NDR_RUN_OUT}/unfold_shipped_${level} --
      ${NDR_RUN_TRACES}/allreduce_ring_tree_8.jsonl --level ${level})
  set_tests_properties(e2e.ring_unfold_shipped_${level} PROPERTIES LABELS e2e TIMEOUT 120)
endforeach()
foreach(op reduce_scatter allgather)
  add_test(NAME e2e.ring_unfold_${op}
    COMMAND ${NDR_UNFOLD} ${NDR_RUN_OUT}/unfold_${op} --
      ${CMAKE_CURRENT_BINARY_DIR}/ring_unfold_${op}.jsonl --topology fat_tree --set switch.ports=8
      --set collective.chunk=64KiB)
  set_tests_properties(e2e.ring_unfold_${op} PROPERTIES LABELS e2e TIMEOUT 120
    FIXTURES_REQUIRED ndr_ring_unfold_${op})
endforeach()
add_test(NAME e2e.ring_unfold_dgx
  COMMAND ${NDR_UNFOLD} ${NDR_RUN_OUT}/unfold_dgx --
    ${CMAKE_CURRENT_BINARY_DIR}/ring_unfold_dgx.jsonl --preset dgx-h100 --set host.stack=nccl)
set_tests_properties(e2e.ring_unfold_dgx PROPERTIES LABELS e2e TIMEOUT 120
  FIXTURES_REQUIRED ndr_ring_unfold_dgx)
