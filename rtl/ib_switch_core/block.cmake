# ib_switch_core (rtl/README.md): the switch core composing the input buffer, credit unit, VL
# arbiter, allocator and crossbar; its harness (switch_core_bench), its check `ndrsim verify
# switch` against the TLM scoreboard (switch_core_check.cpp), the speed benchmark and the tests.
# Included after every block it composes.
set(NDR_RTL_CORE_SV ${CMAKE_CURRENT_LIST_DIR}/ib_switch_core.sv
  ${CMAKE_CURRENT_LIST_DIR}/ibs_fc_gen.sv
  ${NDR_RTL_INPUT_BUFFER_SV}
  ${NDR_RTL_CREDIT_FC_SV} ${NDR_RTL_VL_ARB_SV} ${NDR_RTL_SWITCH_ALLOC_SV} ${NDR_RTL_XBAR_SV})

# Its own model library, since it is Verilated with FST tracing and line/assertion coverage (the
# runtime is compiled with VM_TRACE/VM_COVERAGE), for `ndrsim verify switch` and `ndrsim traffic
# --level rtl`. The real core and the fault build (NDR_FAULT_DROP_CREDIT: the input buffer loses
# every 8th credit free), exported as NDR_RTL_CORE_* so the harness cannot disagree with the
# model. Coverage: line and assertion (user) points only; toggle coverage (plain --coverage) made
# the model about 8x slower for `ndrsim traffic --level rtl`. VERILATOR_COVERAGE compiles the
# runtime with VM_COVERAGE, as verilate(... COVERAGE) would.
# Opt-in (cmake -DNDR_RTL_BENCH=ON): the core at 4, 8 and 16 ports without tracing or coverage,
# for the speed benchmark (switch_core_speed.cpp, docs/performance.md). In the same library, so
# one Verilator runtime.
option(NDR_RTL_BENCH "Verilate ib_switch_core at 4/8/16 ports for the speed benchmark" OFF)
set(bench)
if(NDR_RTL_BENCH)
  set(bench VARIANTS "p4 -GNumPorts=4" "p8 -GNumPorts=8" "p16 -GNumPorts=16")
endif()
add_library(ndr_rtl_core STATIC)
set_property(TARGET ndr_rtl_core PROPERTY VERILATOR_COVERAGE ON)
ndr_verilate_block(ib_switch_core TOP ib_switch_core SOURCES ${NDR_RTL_CORE_SV}
  LIBRARY ndr_rtl_core DEFINE_PREFIX NDR_RTL_CORE
  # BufBlocks: 8 KiB per VL, two 4 KiB-MTU packets (65 blocks each) fit.
  PARAMS NumPorts=4 NumVls=2 BufBlocks=128 DataW=64 Iterations=2 BlocksW=7
  TRACE_FST ARGS --coverage-line --coverage-user
  FAULTS "fault -DNDR_FAULT_DROP_CREDIT"
  ${bench})
target_compile_options(ndr_rtl_core PRIVATE -w)   # generated code is noisy

# The harness and the check: their own library (SystemC for the TLM scoreboard, the core's own
# Verilated builds), linked into ndr_verify (the `switch` check) and ndr_sim (`ndrsim traffic
# --level rtl`, testbench/sim/traffic_rtl_sim.cpp).
add_library(ndr_verify_switch STATIC ${CMAKE_CURRENT_LIST_DIR}/switch_core_bench.cpp
  ${CMAKE_CURRENT_LIST_DIR}/switch_core_check.cpp)
target_include_directories(ndr_verify_switch PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
# PRIVATE: the harness's headers need no Verilator headers, so the model include directories do
# not reach ndr_tb (whose objects would otherwise rebuild whenever a model is added).
target_link_libraries(ndr_verify_switch PRIVATE ndr_rtl_core ndr_tlm ndr_golden fmt::fmt
  ndr_warnings)
# The core's builds carry coverage (above): the harness reads the counters.
target_compile_definitions(ndr_verify_switch PRIVATE NDR_RTL_CORE_COVERAGE=1)
# Verilator's runtime and the generated headers are third-party code: system includes, so the
# project warnings apply to the harness only.
get_target_property(NDR_RTL_CORE_INCLUDES ndr_rtl_core INTERFACE_INCLUDE_DIRECTORIES)
target_include_directories(ndr_verify_switch SYSTEM PRIVATE ${NDR_RTL_CORE_INCLUDES})
target_link_libraries(ndr_sim PUBLIC ndr_verify_switch)
target_compile_definitions(ndr_sim PUBLIC NDR_HAVE_RTL_CORE=1)

# Speed benchmark (opt-in, above): one executable per Verilated port count
# (switch_core_speed.sh runs them).
if(NDR_RTL_BENCH)
  foreach(n 4 8 16)
    add_executable(switch_core_speed_p${n} ${CMAKE_CURRENT_LIST_DIR}/switch_core_speed.cpp)
    target_link_libraries(switch_core_speed_p${n} PRIVATE ndr_verify_switch ndr_rtl_core ndr_golden
      fmt::fmt ndr_warnings)
    target_include_directories(switch_core_speed_p${n} PRIVATE ${CMAKE_SOURCE_DIR}/models)
    target_include_directories(switch_core_speed_p${n} SYSTEM PRIVATE ${NDR_RTL_CORE_INCLUDES})
    target_compile_definitions(switch_core_speed_p${n} PRIVATE
      NDR_SPEED_HEADER=<Vib_switch_core_p${n}.h> NDR_SPEED_MODEL=Vib_switch_core_p${n}
      NDR_SPEED_PORTS=${n})
    set_target_properties(switch_core_speed_p${n} PROPERTIES
      RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR})
  endforeach()
endif()

ndr_rtl_lint(SOURCES ${CMAKE_CURRENT_LIST_DIR}/ibs_fc_gen.sv)
ndr_rtl_lint(ARGS --top-module ib_switch_core SOURCES ${NDR_RTL_CORE_SV})
ndr_rtl_lint(ARGS --top-module ib_switch_core -DNDR_FAULT_DROP_CREDIT SOURCES ${NDR_RTL_CORE_SV})
ndr_rtl_synth(TOP ib_switch_core SOURCES ${NDR_RTL_CORE_SV}
  PARAMS NumPorts=4 NumVls=2 BufBlocks=8 DataW=16)
ndr_rtl_tests(switch_core_tests switch_core_rtl_test.cpp)
