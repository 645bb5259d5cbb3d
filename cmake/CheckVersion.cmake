# Checks that the header's version macros are the version in Cargo.toml.
#
#   cmake -D SOURCE_DIR=<repo> -P cmake/CheckVersion.cmake
file(STRINGS "${SOURCE_DIR}/Cargo.toml" _line REGEX "^version = \"" LIMIT_COUNT 1)
string(REGEX MATCH "\"([^\"]+)\"" _ "${_line}")
set(_cargo "${CMAKE_MATCH_1}")
foreach(part MAJOR MINOR PATCH)
  file(STRINGS "${SOURCE_DIR}/include/v4a.h" _def REGEX "^#define V4A_VERSION_${part} ")
  string(REGEX MATCH "[0-9]+$" _${part} "${_def}")
endforeach()
set(_header "${_MAJOR}.${_MINOR}.${_PATCH}")
if(NOT _header STREQUAL _cargo)
  message(FATAL_ERROR "include/v4a.h says version ${_header}, Cargo.toml ${_cargo}: update "
                      "V4A_VERSION_* in crates/ffi/src/lib.rs and regenerate the header")
endif()
message(STATUS "header version ${_header} = Cargo.toml version ${_cargo}")
