# Several jobs on one fabric (`ndrsim run A B ...`, --jobs, --placement, --baseline,
# docs/multijob.md) and `ndrsim gen background` (label e2e). Checks in jobs_check.py.
find_package(Python3 COMPONENTS Interpreter REQUIRED)
foreach(mode disjoint shared jobsfile background errors)
  add_test(NAME e2e.jobs_${mode}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/jobs_check.py ${mode}
      ${CMAKE_BINARY_DIR}/ndrsim ${CMAKE_CURRENT_BINARY_DIR}/jobs_${mode}
    WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(e2e.jobs_${mode} PROPERTIES LABELS e2e TIMEOUT 300
    ENVIRONMENT SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1)
endforeach()
