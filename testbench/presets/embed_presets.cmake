# Generates a C++ source holding every testbench/presets/*.yaml as a raw string literal, so
# `ndrsim --preset NAME` works from any directory. Run by testbench/CMakeLists.txt:
#   cmake -DPRESET_DIR=<dir> -DOUT=<file.cpp> -P embed_presets.cmake
file(GLOB yamls "${PRESET_DIR}/*.yaml")
list(SORT yamls)
set(body "")
foreach(y IN LISTS yamls)
  get_filename_component(name "${y}" NAME_WE)
  file(READ "${y}" text)
  string(FIND "${text}" ")ndrpreset\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${y}: contains the raw-string delimiter )ndrpreset\"")
  endif()
  string(APPEND body "        {\"${name}\", R\"ndrpreset(${text})ndrpreset\"},\n")
endforeach()
file(WRITE "${OUT}"
"// Generated from testbench/presets/*.yaml by testbench/presets/embed_presets.cmake. Do not edit.
#include \"preset.h\"

namespace ndr::tb {

const std::vector<embedded_preset>& embedded_presets() {
    static const std::vector<embedded_preset> all{
${body}    };
    return all;
}

}  // namespace ndr::tb
")
