# End-to-end tests of `ndrsim sweep`, `ndrsim results` and `ndrsim plot` (label e2e; included by
# tests/e2e/CMakeLists.txt). The sweeps live in tests/sweep/; checks in sweep_check.py, each test
# in its own work directory. `slurm` starts and stops a single-node Slurm cluster on localhost.
find_package(Python3 COMPONENTS Interpreter REQUIRED)
foreach(mode grid zip failing interrupt results repeats plot slurm)
  add_test(NAME e2e.sweep_${mode}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/sweep_check.py ${mode}
      ${CMAKE_BINARY_DIR}/ndrsim ${PROJECT_SOURCE_DIR}/tests/sweep
      ${CMAKE_CURRENT_BINARY_DIR}/sweep_${mode}
    WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(e2e.sweep_${mode} PROPERTIES LABELS "e2e;sweep" TIMEOUT 180
    ENVIRONMENT SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1)
endforeach()
set_tests_properties(e2e.sweep_slurm PROPERTIES RESOURCE_LOCK slurm)
