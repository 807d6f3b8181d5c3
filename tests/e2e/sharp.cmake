# End-to-end tests of SHARP collectives through the CLI (label e2e). Included by
# tests/e2e/CMakeLists.txt. Checks live in sharp_check.py (see its docstring).
find_package(Python3 COMPONENTS Interpreter REQUIRED)
function(ndr_sharp_py name)
  add_test(NAME e2e.${name}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/sharp_check.py ${ARGN}
    WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(e2e.${name} PROPERTIES LABELS e2e TIMEOUT 300
    ENVIRONMENT SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1)
endfunction()
set(NDR_SHARP_OUT ${CMAKE_CURRENT_BINARY_DIR}/sharp_out)
set(NDR_SHARP_TRACES ${CMAKE_CURRENT_SOURCE_DIR}/../../traces)

# The SHARP library's host path under host.stack mpi and nccl: exact added time of an 8 B call.
ndr_sharp_py(sharp_host_path host-path ${CMAKE_BINARY_DIR}/ndrsim ${NDR_SHARP_OUT}/host_path)
# `ndrsim gen` with ring, tree and sharp, then `ndrsim run`: the sharp rows ran on SHARP.
ndr_sharp_py(sharp_gen_run gen-run ${CMAKE_BINARY_DIR}/ndrsim ${NDR_SHARP_OUT}/gen_run --
  collective --op allreduce --ranks 8 --bytes 8B:1MiB:8 --algo ring --algo tree --algo sharp)
# The same on a two-level fat tree (2 leaves of 8 hosts): a 2-level SHARP tree.
ndr_sharp_py(sharp_gen_run_fat_tree gen-run ${CMAKE_BINARY_DIR}/ndrsim ${NDR_SHARP_OUT}/gen_run_ft
  -- collective --op allreduce --ranks 16 --bytes 8B:1MiB:8 --algo ring --algo sharp
  --- --topology fat_tree --set switch.ports=16)
# The shipped comparison traces (traces/README.md) still run: ~19 s and ~17 s.
ndr_sharp_py(sharp_shipped_single shipped ${CMAKE_BINARY_DIR}/ndrsim ${NDR_SHARP_OUT}/single
  ${NDR_SHARP_TRACES}/sharp_compare_single.jsonl)
ndr_sharp_py(sharp_shipped_fat_tree shipped ${CMAKE_BINARY_DIR}/ndrsim ${NDR_SHARP_OUT}/fat_tree
  ${NDR_SHARP_TRACES}/sharp_compare_fat_tree.jsonl -- --topology fat_tree --set switch.ports=16)
