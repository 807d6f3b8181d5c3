# NCCL's PAT and PXN (issue 18 item 1, label e2e): PAT picked as NCCL's cost model picks it on
# one-GPU nodes, the refusal of `algo: pat` on multi-GPU nodes, PXN's rail-local alltoall on
# dgx-h100 nodes against an HCA bound. Checks live in nccl_pat_pxn_check.py (its docstring).
find_package(Python3 COMPONENTS Interpreter REQUIRED)
set(NDR_PP_CHECK ${CMAKE_CURRENT_SOURCE_DIR}/nccl_pat_pxn_check.py)
set(NDR_PP_OUT ${CMAKE_CURRENT_BINARY_DIR}/pat_pxn_out)
function(ndr_pat_pxn_py name)
  add_test(NAME e2e.${name} COMMAND ${Python3_EXECUTABLE} ${NDR_PP_CHECK} ${ARGN}
    WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(e2e.${name} PROPERTIES LABELS e2e TIMEOUT 600
    ENVIRONMENT SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1)
endfunction()
ndr_pat_pxn_py(nccl_pat pat ${CMAKE_BINARY_DIR}/ndrsim ${NDR_PP_OUT}/pat)
ndr_pat_pxn_py(nccl_pat_error error ${CMAKE_BINARY_DIR}/ndrsim ${NDR_PP_OUT}/error)
ndr_pat_pxn_py(nccl_pxn pxn ${CMAKE_BINARY_DIR}/ndrsim ${NDR_PP_OUT}/pxn)
ndr_pat_pxn_py(nccl_pxn_send p2p ${CMAKE_BINARY_DIR}/ndrsim ${NDR_PP_OUT}/p2p)
ndr_pat_pxn_py(nccl_pxn_alltoall_perf a2a ${CMAKE_BINARY_DIR}/ndrsim)
