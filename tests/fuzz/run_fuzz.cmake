# One fuzz target's CTest entry (CMakeLists.txt): cmake -DFUZZER=BIN -DSEEDS=LIST -DCORPUS=DIR
#   -DWORK=DIR -DMODE=corpus|fuzz -P run_fuzz.cmake
# corpus: runs every seed (LIST: comma-separated files) and every file of CORPUS once.
# fuzz:   fuzzes for $ENV{NDR_FUZZ_SECONDS} seconds (default 60) from the seeds, CORPUS and the
#         inputs earlier runs kept in WORK/corpus; new inputs go to WORK/corpus, a crashing
#         input to WORK/crash-* (or leak-*, timeout-*, oom-*).
# Either fails on any finding: a crash, an uncaught exception, a sanitizer report, a leak, an
# input running longer than 30 s or allocating more than 2 GiB.
foreach(v FUZZER SEEDS CORPUS WORK MODE)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "run_fuzz.cmake: -D${v}=... missing")
  endif()
endforeach()
get_filename_component(name ${FUZZER} NAME)
file(MAKE_DIRECTORY ${WORK}/corpus)
if(NOT DEFINED ENV{UBSAN_OPTIONS})
  set(ENV{UBSAN_OPTIONS} "print_stacktrace=1")
endif()
set(limits -timeout=30 -rss_limit_mb=2048 -artifact_prefix=${WORK}/)

if(MODE STREQUAL "corpus")
  file(READ ${SEEDS} seed_text)
  string(STRIP "${seed_text}" seed_text)
  string(REPLACE "," ";" inputs "${seed_text}")
  file(GLOB regression ${CORPUS}/*)
  list(APPEND inputs ${regression})
  list(LENGTH inputs n)
  message(STATUS "${name}: ${n} seed and regression inputs")
  execute_process(COMMAND ${FUZZER} ${limits} ${inputs} RESULT_VARIABLE rc)
elseif(MODE STREQUAL "fuzz")
  set(seconds 60)
  if(DEFINED ENV{NDR_FUZZ_SECONDS})
    set(seconds $ENV{NDR_FUZZ_SECONDS})
  endif()
  if(NOT seconds MATCHES "^[1-9][0-9]*$")
    message(FATAL_ERROR "NDR_FUZZ_SECONDS: expected a whole number of seconds, got '${seconds}'")
  endif()
  math(EXPR hard_limit "${seconds} + 300")
  message(STATUS "${name}: fuzzing for ${seconds} s")
  execute_process(COMMAND ${FUZZER} ${limits} -max_total_time=${seconds} -print_final_stats=1
    -seed_inputs=@${SEEDS} ${WORK}/corpus ${CORPUS}
    RESULT_VARIABLE rc TIMEOUT ${hard_limit})
else()
  message(FATAL_ERROR "run_fuzz.cmake: MODE must be corpus or fuzz, got '${MODE}'")
endif()

if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${name}: finding (exit ${rc}); the input is in ${WORK}/ (crash-*, "
    "leak-*, timeout-*, oom-*). Reproduce: ${FUZZER} FILE. After the fix, keep it as a "
    "regression input in ${CORPUS}/ (docs/fuzzing.md).")
endif()
