# NCCL's PAT and PXN (issue 18 item 1, label e2e): PAT picked as NCCL's cost model picks it on
# one-GPU nodes, PXN's rail-local alltoall on dgx-h100 nodes against an HCA bound, and the
# refusal of `algo: pat` on multi-GPU nodes. Checks live in nccl_pat_pxn_check.py.
find_package(Python3 COMPONENTS Interpreter REQUIRED)
set(NDR_PP_CHECK ${CMAKE_CURRENT_SOURCE_DIR}/nccl_pat_pxn_check.py)
set(NDR_PP_OUT ${CMAKE_CURRENT_BINARY_DIR}/pat_pxn_out)
foreach(mode pat pxn error)
  add_test(NAME e2e.nccl_${mode}
    COMMAND ${Python3_EXECUTABLE} ${NDR_PP_CHECK} ${mode} ${CMAKE_BINARY_DIR}/ndrsim
      ${NDR_PP_OUT}/${mode})
  set_tests_properties(e2e.nccl_${mode} PROPERTIES LABELS e2e TIMEOUT 300
    ENVIRONMENT SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1)
endforeach()
add_test(NAME e2e.nccl_pxn_alltoall_perf
  COMMAND ${Python3_EXECUTABLE} ${NDR_PP_CHECK} a2a ${CMAKE_BINARY_DIR}/ndrsim)
set_tests_properties(e2e.nccl_pxn_alltoall_perf PROPERTIES LABELS e2e TIMEOUT 600
  ENVIRONMENT SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1)
