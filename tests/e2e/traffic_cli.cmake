# End-to-end tests of `ndrsim traffic` and `ndrsim config` (label e2e). Included by
# tests/e2e/CMakeLists.txt. Checks live in ndrsim_check.py (run with python3); every run is a
# 64-port switch for <= 20k+20k cycles (well under 2 s each).
#
# Note on ndr_e2e(... WILL_FAIL REGEX r): CTest ignores the exit code when
# PASS_REGULAR_EXPRESSION is set, and WILL_FAIL then inverts the regex result, so that
# combination passes when the message does NOT match. Error cases therefore go through
# ndrsim_check.py `error`, which checks the exit status, the single line and the message.
find_package(Python3 COMPONENTS Interpreter REQUIRED)
set(NDR_E2E_CHECK ${CMAKE_CURRENT_SOURCE_DIR}/ndrsim_check.py)
set(NDR_E2E_BIN ${CMAKE_BINARY_DIR}/ndrsim)
set(NDR_E2E_OUT ${CMAKE_CURRENT_BINARY_DIR}/out)

function(ndr_e2e_py name)
  add_test(NAME e2e.${name} COMMAND ${Python3_EXECUTABLE} ${NDR_E2E_CHECK} ${ARGN}
    WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(e2e.${name} PROPERTIES LABELS e2e TIMEOUT 120
    ENVIRONMENT SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1)
endfunction()

# Short windows: 64 ports, default warm-up (20k cycles) + 20k measured.
set(NDR_E2E_RUN traffic --pattern uniform --load 0.5 --cycles 20000 -q -j 1)

# A run succeeds and writes report.json with every required field.
ndr_e2e_py(traffic_report_fields report ${NDR_E2E_BIN} ${NDR_E2E_OUT}/report -- ${NDR_E2E_RUN})
# Load curve FIRST:LAST:STEP: 0.2, 0.4, 0.6 -> 3 points.
ndr_e2e_py(traffic_load_curve points ${NDR_E2E_BIN} ${NDR_E2E_OUT}/curve 3 --
  traffic --pattern uniform --load 0.2:0.6:0.2 --cycles 20000 -q -j 1)
# Both queueing disciplines run.
ndr_e2e_py(traffic_set_fifo report ${NDR_E2E_BIN} ${NDR_E2E_OUT}/fifo -- ${NDR_E2E_RUN}
  --set switch.queueing=fifo)
ndr_e2e_py(traffic_set_voq report ${NDR_E2E_BIN} ${NDR_E2E_OUT}/voq -- ${NDR_E2E_RUN}
  --set switch.queueing=voq)
# Plain ndr_e2e: exit status only (no REGEX, so the exit code counts).
ndr_e2e(traffic_runs ARGS ${NDR_E2E_RUN} --out ${NDR_E2E_OUT}/plain)
# config show prints YAML with the 64-port default.
ndr_e2e_py(config_show_yaml ok ${NDR_E2E_BIN} "^  ports: 64( |$)" -- config show)
# Determinism: same seed -> identical report.json except wall-clock fields; other seed differs.
ndr_e2e_py(traffic_determinism determinism ${NDR_E2E_BIN} ${NDR_E2E_OUT}/det -- ${NDR_E2E_RUN})

# Batch-means intervals and the MSER-5 warm-up verdict (docs/report.md).
ndr_e2e_py(traffic_ci ci ${NDR_E2E_BIN} ${NDR_E2E_OUT}/ci --
  traffic --pattern uniform --load 0.5 -q -j 1)
# --precision: reached (1 %) and capped (1e-5 from a 5000-cycle window: 64x = 320000 cycles).
ndr_e2e_py(traffic_precision_reached precision ${NDR_E2E_BIN} ${NDR_E2E_OUT}/prec 0.01 --
  traffic --pattern uniform --load 0.5 --cycles 5000 -j 1)
ndr_e2e_py(traffic_precision_cap precision ${NDR_E2E_BIN} ${NDR_E2E_OUT}/prec_cap 0.00001 --
  traffic --pattern uniform --load 0.5 --cycles 5000 -j 1)

# Bad input: one line, non-zero exit, a message naming the problem.
ndr_e2e_py(err_precision_nan error ${NDR_E2E_BIN} "--precision" "abc" --
  traffic --precision abc -q)
ndr_e2e_py(err_precision_zero error ${NDR_E2E_BIN} "--precision" "> 0" --
  traffic --precision 0 -q)
ndr_e2e_py(err_precision_negative error ${NDR_E2E_BIN} "--precision" "-0\\.5" --
  traffic --precision=-0.5 -q)
ndr_e2e_py(err_unknown_flag error ${NDR_E2E_BIN} "^ndrsim: error:" "--bogus" --
  traffic --bogus)
ndr_e2e_py(err_load_range error ${NDR_E2E_BIN} "traffic\\.load" "1\\.5" --
  traffic --load 1.5 -q)
ndr_e2e_py(err_load_nan error ${NDR_E2E_BIN} "traffic\\.load" "abc" --
  traffic --load abc -q)
ndr_e2e_py(err_unknown_key error ${NDR_E2E_BIN} "switch\\.bogus" "unknown key" "did you mean" --
  traffic --set switch.bogus=1 -q)
ndr_e2e_py(err_bad_size_unit error ${NDR_E2E_BIN} "switch\\.buffer_per_vl" "12XB" --
  traffic --set switch.buffer_per_vl=12XB -q)
ndr_e2e_py(err_missing_config error ${NDR_E2E_BIN} "/nonexistent\\.yaml" --
  traffic --config /nonexistent.yaml -q)
ndr_e2e_py(err_yaml_bad_value error-yaml ${NDR_E2E_BIN} ${CMAKE_CURRENT_BINARY_DIR}/bad_value.yaml 3
  "switch:\\n  ports: 8\\n  latency: 300\\n" "switch\\.latency" "unit" --
  traffic -q)
ndr_e2e_py(err_bitcomp_ports error ${NDR_E2E_BIN} "traffic\\.pattern" "power-of-two" --
  traffic --pattern bitcomp --ports 6 -q)

# `ndrsim bench`: every scenario runs --repeat times with identical simulated results; the
# table shows the median run. Tiny runs (a few hundred ms in all).
ndr_e2e_py(bench_repeat bench ${NDR_E2E_BIN} ${NDR_E2E_OUT}/bench 2000 3 --
  bench --cycles 2000 --repeat 3)
ndr_e2e_py(err_bench_repeat error ${NDR_E2E_BIN} "--repeat" "not in range" -- bench --repeat 0)
