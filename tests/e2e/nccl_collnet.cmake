# NCCL's hierarchical allreduces (issue 18 item 1, label e2e): CollNet Direct and Chain, NVLS
# across nodes and NVLSTree on dgx-h100 nodes: NVLink and SHARP bytes by hand, a time bound, the
# tuner's picks against NCCL's formula, the refusals. Checks in nccl_collnet_check.py.
find_package(Python3 COMPONENTS Interpreter REQUIRED)
set(NDR_CN_CHECK ${CMAKE_CURRENT_SOURCE_DIR}/nccl_collnet_check.py)
foreach(mode bytes time pick error)
  add_test(NAME e2e.nccl_collnet_${mode}
    COMMAND ${Python3_EXECUTABLE} ${NDR_CN_CHECK} ${mode} ${CMAKE_BINARY_DIR}/ndrsim
      ${CMAKE_CURRENT_BINARY_DIR}/collnet_${mode}
    WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(e2e.nccl_collnet_${mode} PROPERTIES LABELS e2e TIMEOUT 600
    ENVIRONMENT SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1)
endforeach()
