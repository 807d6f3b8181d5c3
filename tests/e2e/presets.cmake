# End-to-end tests of presets, `ndrsim compare` and `ndrsim validate` (label e2e). Included by
# tests/e2e/CMakeLists.txt. Checks live in presets_check.py (see its docstring).
find_package(Python3 COMPONENTS Interpreter REQUIRED)
function(ndr_presets_py name)
  add_test(NAME e2e.${name}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/presets_check.py ${ARGN}
    WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(e2e.${name} PROPERTIES LABELS e2e TIMEOUT 300
    ENVIRONMENT SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1)
endfunction()
set(NDR_PRESETS_OUT ${CMAKE_CURRENT_BINARY_DIR}/presets_out)

# `config presets`, `config show --preset` (soft lines, precedence, any working directory),
# and `--preset` on run and traffic.
ndr_presets_py(presets_cli presets ${CMAKE_BINARY_DIR}/ndrsim ${NDR_PRESETS_OUT}/cli
  ${CMAKE_CURRENT_SOURCE_DIR}/../../testbench/presets)
# `ndrsim compare` on three presets: table, report.json, compare.csv.
ndr_presets_py(presets_compare compare ${CMAKE_BINARY_DIR}/ndrsim ${NDR_PRESETS_OUT}/compare)
# `ndrsim validate --quick --out d`: exit 0, both files, a result for every scenario, <= 60 s.
ndr_presets_py(presets_validate_quick validate ${CMAKE_BINARY_DIR}/ndrsim ${NDR_PRESETS_OUT}/validate)
# `--preset roce-400g` on compare, run and traffic (docs/roce.md).
ndr_presets_py(presets_roce roce ${CMAKE_BINARY_DIR}/ndrsim ${NDR_PRESETS_OUT}/roce)
