# Helpers for the block files rtl/<block>/block.cmake (rtl/README.md, "Layout"). Included by
# rtl/CMakeLists.txt, which includes every block file in its own directory scope: Verilator's
# verilate() attaches custom commands to the library, and those must be made in the directory
# that created the library.
include_guard(GLOBAL)

# Every Verilated build: lint warnings on, the SystemVerilog assertions compiled in
# (docs/style.md §9), -O2, explicit X assignments as Verilator's `unique` values.
set(NDR_RTL_VERILATOR_ARGS -Wall --assert -O2 -x-assign unique)

# ndr_verilate_block(<block> TOP <module> SOURCES <sv>... PARAMS <Param>=<value>...
#                    [PREFIX <name>] [LIBRARY <target>] [DEFINE_PREFIX <NDR_RTL_X>]
#                    [TRACE_FST] [ARGS <arg>...] [PLAIN_ARGS <arg>...] [COVERAGE_BUILD]
#                    [FAULTS "<suffix> <arg>..."...] [VARIANTS "<suffix> <arg>..."...])
#
# The Verilated --cc builds of one block, all with the same sources and parameters:
#  * <PREFIX> (default V<module>): the plain build, with ARGS and PLAIN_ARGS;
#  * <PREFIX>_cov (COVERAGE_BUILD): --coverage --trace-fst and ARGS, the build `ndrsim verify`
#    runs; coverage makes a model about 7x slower (docs/rtl_verification.md), hence the plain one;
#  * <PREFIX>_<suffix> per FAULTS entry: the plain build's tracing and ARGS plus the entry's own
#    arguments (a fault `define, rtl/README.md), for the checkers' self-test;
#  * <PREFIX>_<suffix> per VARIANTS entry: no tracing and no ARGS, only the entry's arguments
#    (the speed benchmark's port counts).
# A -G<Param>=<value> in an entry replaces the block's parameter of that name. TRACE_FST traces
# the plain build and the faults (--wave). LIBRARY (default ndr_rtl_models) gets the models and,
# on its interface, one compile definition per parameter, <DEFINE_PREFIX>_<PARAM> (default
# prefix NDR_RTL_<BLOCK>; NumVls -> NUM_VLS), so a check and the model it drives cannot
# disagree.
function(ndr_verilate_block block)
  cmake_parse_arguments(PARSE_ARGV 1 B "TRACE_FST;COVERAGE_BUILD"
    "TOP;PREFIX;LIBRARY;DEFINE_PREFIX" "SOURCES;PARAMS;ARGS;PLAIN_ARGS;FAULTS;VARIANTS")
  if(B_UNPARSED_ARGUMENTS OR NOT B_TOP OR NOT B_SOURCES)
    message(FATAL_ERROR "ndr_verilate_block(${block}): needs TOP and SOURCES; unknown: "
      "${B_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT B_PREFIX)
    set(B_PREFIX V${B_TOP})
  endif()
  if(NOT B_LIBRARY)
    set(B_LIBRARY ndr_rtl_models)
  endif()
  if(NOT B_DEFINE_PREFIX)
    string(TOUPPER "NDR_RTL_${block}" B_DEFINE_PREFIX)
  endif()
  set(trace)
  if(B_TRACE_FST)
    set(trace TRACE_FST)
  endif()

  set(names)
  set(params)
  foreach(p IN LISTS B_PARAMS)
    if(NOT p MATCHES "^([A-Za-z][A-Za-z0-9]*)=(.+)$")
      message(FATAL_ERROR "ndr_verilate_block(${block}): PARAMS entry '${p}' is not Name=value")
    endif()
    set(name ${CMAKE_MATCH_1})
    set(value ${CMAKE_MATCH_2})
    list(APPEND names ${name})
    list(APPEND params -G${p})
    string(REGEX REPLACE "([a-z0-9])([A-Z])" "\\1_\\2" define ${name})
    string(TOUPPER ${define} define)
    target_compile_definitions(${B_LIBRARY} PUBLIC ${B_DEFINE_PREFIX}_${define}=${value})
  endforeach()

  verilate(${B_LIBRARY} PREFIX ${B_PREFIX} TOP_MODULE ${B_TOP} ${trace} SOURCES ${B_SOURCES}
    VERILATOR_ARGS ${NDR_RTL_VERILATOR_ARGS} ${params} ${B_ARGS} ${B_PLAIN_ARGS})
  if(B_COVERAGE_BUILD)
    verilate(${B_LIBRARY} PREFIX ${B_PREFIX}_cov TOP_MODULE ${B_TOP} COVERAGE TRACE_FST
      SOURCES ${B_SOURCES} VERILATOR_ARGS ${NDR_RTL_VERILATOR_ARGS} ${params} ${B_ARGS})
  endif()
  foreach(kind FAULTS VARIANTS)
    foreach(entry IN LISTS B_${kind})
      separate_arguments(words UNIX_COMMAND "${entry}")
      list(POP_FRONT words suffix)
      # The entry's -G<Param>=<value> replace the block's; its other words are appended.
      set(build_params ${params})
      set(extra)
      foreach(w IN LISTS words)
        if(w MATCHES "^-G([A-Za-z0-9]+)=" AND CMAKE_MATCH_1 IN_LIST names)
          list(FIND names ${CMAKE_MATCH_1} i)
          list(REMOVE_AT build_params ${i})
          list(INSERT build_params ${i} ${w})
        else()
          list(APPEND extra ${w})
        endif()
      endforeach()
      if(kind STREQUAL "FAULTS")
        verilate(${B_LIBRARY} PREFIX ${B_PREFIX}_${suffix} TOP_MODULE ${B_TOP} ${trace}
          SOURCES ${B_SOURCES}
          VERILATOR_ARGS ${NDR_RTL_VERILATOR_ARGS} ${build_params} ${B_ARGS} ${extra})
      else()
        verilate(${B_LIBRARY} PREFIX ${B_PREFIX}_${suffix} TOP_MODULE ${B_TOP}
          SOURCES ${B_SOURCES} VERILATOR_ARGS ${NDR_RTL_VERILATOR_ARGS} ${build_params} ${extra})
      endif()
    endforeach()
  endforeach()
endfunction()

# ndr_rtl_lint([ARGS <verilator arg>...] SOURCES <sv>...)
# One run of the CTest rtl.lint (rtl/CMakeLists.txt): verilator --lint-only -Wall --assert ARGS
# SOURCES, at the block's default parameters.
function(ndr_rtl_lint)
  cmake_parse_arguments(PARSE_ARGV 0 L "" "" "ARGS;SOURCES")
  list(JOIN L_ARGS " " args)
  list(JOIN L_SOURCES " " words)
  string(STRIP "${args} ${words}" run)
  set_property(GLOBAL APPEND PROPERTY NDR_RTL_LINT_RUNS "${run}")
endfunction()

# ndr_rtl_synth(TOP <module> SOURCES <sv>... [PARAMS <Param>=<value>...])
# One block of the CTest rtl.synth (rtl/CMakeLists.txt): Yosys generic synthesis of TOP with
# PARAMS, then `check -assert` (multiple drivers, undriven wires, combinational loops) and the
# cell statistics (rtl/README.md, "Synthesis").
function(ndr_rtl_synth)
  cmake_parse_arguments(PARSE_ARGV 0 S "" "TOP" "SOURCES;PARAMS")
  list(JOIN S_SOURCES " " words)
  set(chparam chparam)
  foreach(p IN LISTS S_PARAMS)
    string(REPLACE "=" " " p ${p})
    string(APPEND chparam " -set ${p}")
  endforeach()
  set(cmds "read_verilog -sv ${words}")
  if(S_PARAMS)
    list(APPEND cmds "${chparam} ${S_TOP}")
  endif()
  list(APPEND cmds "synth -top ${S_TOP}" "check -assert" "tee -o /dev/stdout stat")
  # One Yosys script for all blocks: each starts from an empty design.
  get_property(script GLOBAL PROPERTY NDR_RTL_SYNTH_SCRIPT)
  if(script)
    list(PREPEND cmds "design -reset")
  endif()
  set_property(GLOBAL APPEND PROPERTY NDR_RTL_SYNTH_SCRIPT ${cmds})
endfunction()

# ndr_rtl_tests(<executable> <source>...)
# The block's test files (in tests/rtl/) and the test executable of tests/rtl/CMakeLists.txt
# they belong to: rtl_tests (the block checks, plain C++) or switch_core_tests (the switch core
# against the TLM scoreboard, SystemC).
function(ndr_rtl_tests exe)
  set_property(GLOBAL APPEND PROPERTY NDR_RTL_TESTS_${exe} ${ARGN})
endfunction()
