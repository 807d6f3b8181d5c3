# input_buffer (rtl/README.md): ibs_input_buffer, Verilated and checked only inside
# ib_switch_core (rtl/ib_switch_core/block.cmake); linted here on its own.
set(NDR_RTL_INPUT_BUFFER_SV ${CMAKE_CURRENT_LIST_DIR}/ibs_input_buffer.sv)
ndr_rtl_lint(SOURCES ${NDR_RTL_INPUT_BUFFER_SV})
