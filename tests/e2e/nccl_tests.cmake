# `ndrsim nccl-tests` (label e2e): nccl-tests' table, busbw factors, an NVLink ring expectation
# and the refusals. Checks live in nccl_tests_check.py (see its docstring).
find_package(Python3 COMPONENTS Interpreter REQUIRED)
set(NDR_NT_CHECK ${CMAKE_CURRENT_SOURCE_DIR}/nccl_tests_check.py)
function(ndr_nccl_tests_py name)
  add_test(NAME e2e.${name} COMMAND ${Python3_EXECUTABLE} ${NDR_NT_CHECK} ${ARGN}
    WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(e2e.${name} PROPERTIES LABELS e2e TIMEOUT 300
    ENVIRONMENT SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1)
endfunction()
set(NDR_NT_BIN ${CMAKE_BINARY_DIR}/ndrsim)

ndr_nccl_tests_py(nccl_tests_table table ${NDR_NT_BIN})
ndr_nccl_tests_py(nccl_tests_factors factors ${NDR_NT_BIN})
ndr_nccl_tests_py(nccl_tests_nvlink_ring ring ${NDR_NT_BIN})
ndr_nccl_tests_py(nccl_tests_rails rails ${NDR_NT_BIN})
# Refusals: exit 2 (docs/cli.md "Exit codes") and one line naming the flag.
ndr_nccl_tests_py(nccl_tests_err_binary error ${NDR_NT_BIN} 2
  "BINARY: unknown nccl-tests binary 'gather_perf' \\(allowed: all_reduce_perf" --
  nccl-tests gather_perf -b 8 -e 8)
ndr_nccl_tests_py(nccl_tests_err_dtype error ${NDR_NT_BIN} 2 "-d: unsupported datatype 'int16'" --
  nccl-tests all_reduce_perf -g 2 -d int16)
ndr_nccl_tests_py(nccl_tests_err_op error ${NDR_NT_BIN} 2 "-o: unsupported reduction 'all'" --
  nccl-tests all_reduce_perf -g 2 -o all)
ndr_nccl_tests_py(nccl_tests_err_size error ${NDR_NT_BIN} 2 "-e: '8X' is not a size" --
  nccl-tests all_reduce_perf -g 2 -b 8 -e 8X)
ndr_nccl_tests_py(nccl_tests_err_order error ${NDR_NT_BIN} 2 "-e: 8 B is below -b 16 B" --
  nccl-tests all_reduce_perf -g 2 -b 16 -e 8 -f 2)
ndr_nccl_tests_py(nccl_tests_err_root error ${NDR_NT_BIN} 2 "-r: 4 out of range \\(0\\.\\.3" --
  nccl-tests broadcast_perf -g 4 -r 4)
ndr_nccl_tests_py(nccl_tests_err_one_rank error ${NDR_NT_BIN} 2 "--nodes: 1 nodes x 1 GPUs = 1 ranks" --
  nccl-tests all_reduce_perf)
ndr_nccl_tests_py(nccl_tests_err_gpus error ${NDR_NT_BIN} 2 "node\\.gpus" --
  nccl-tests all_reduce_perf -g 65)
ndr_nccl_tests_py(nccl_tests_err_iters error ${NDR_NT_BIN} 2 "-n: 4000000000 iterations out of range \\(1\\.\\.1000000\\)" --
  nccl-tests all_reduce_perf -g 2 -b 8 -e 8 -n 4000000000)
# 28 sizes x 2 passes x 201 + 2 x 5 = 11,266 collectives x 16,384 ranks > 50,000,000 records.
ndr_nccl_tests_py(nccl_tests_err_records error ${NDR_NT_BIN} 2 "-n: 11266 collectives \\(28 sizes, -n 200, -w 5\\) on 16384 ranks" --
  nccl-tests all_reduce_perf -g 8 --nodes 2048 -b 8 -e 1G -f 2 -n 200)
# A linear sweep of 2^30 sizes is refused on its count, before any size is made (it used to
# build the 8 GiB list first): 2^30 > 50,000,000 / 2 / 2.
ndr_nccl_tests_py(nccl_tests_err_linear error ${NDR_NT_BIN} 2 "-i: 1073741824 sizes from 1 B to 1073741824 B on 2 ranks" --
  nccl-tests all_reduce_perf -g 2 -b 1 -e 1G -f 1 -i 1)
ndr_nccl_tests_py(nccl_tests_err_unknown_flag error ${NDR_NT_BIN} 2 "-z" --
  nccl-tests all_reduce_perf -g 2 -z 1)

# NCCL's protocols and tuner in `ndrsim run` (nccl_tuner_check.py).
set(NDR_TUNER_CHECK ${CMAKE_CURRENT_SOURCE_DIR}/nccl_tuner_check.py)
foreach(mode pick proto stack)
  add_test(NAME e2e.nccl_tuner_${mode}
    COMMAND ${Python3_EXECUTABLE} ${NDR_TUNER_CHECK} ${mode} ${NDR_NT_BIN}
      ${CMAKE_CURRENT_BINARY_DIR}/nccl_tuner_${mode})
  set_tests_properties(e2e.nccl_tuner_${mode} PROPERTIES LABELS e2e TIMEOUT 300)
endforeach()
