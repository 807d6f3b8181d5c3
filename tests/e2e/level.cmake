# End-to-end tests of the level dispatcher (sim.level / --level) on run, traffic, compare,
# validate and sweep (label e2e). Checks in level_check.py (see its docstring).
find_package(Python3 COMPONENTS Interpreter REQUIRED)
foreach(mode compare validate sweep order refuse)
  add_test(NAME e2e.level_${mode}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/level_check.py ${mode}
      ${CMAKE_BINARY_DIR}/ndrsim ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/level_${mode}
    WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(e2e.level_${mode} PROPERTIES LABELS e2e TIMEOUT 240
    ENVIRONMENT SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1)
endforeach()
