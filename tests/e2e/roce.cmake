# RoCE parity with InfiniBand (label e2e): several jobs, link faults, routing.ecmp_mode and
# `ndrsim compare` of several jobs (docs/roce.md). Checks in roce_check.py.
find_package(Python3 COMPONENTS Interpreter REQUIRED)
foreach(mode jobs fault ecmp compare errors)
  add_test(NAME e2e.roce_${mode}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/roce_check.py ${mode}
      ${CMAKE_BINARY_DIR}/ndrsim ${CMAKE_CURRENT_BINARY_DIR}/roce_${mode}
    WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(e2e.roce_${mode} PROPERTIES LABELS e2e TIMEOUT 300
    ENVIRONMENT SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1)
endforeach()
