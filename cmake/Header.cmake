# Generates the C header: the pinned cbindgen writes the declarations of crates/ffi/, then
# cmake/group_header.py groups them by object (each type next to its constants and functions).
# These two steps are the one way the committed include/v4a.h is made.
#
#   cmake -D SOURCE_DIR=<repo> [-D OUTPUT=<file>] [-D COMPARE=<committed header>]
#         [-D CBINDGEN=<path>] [-D CBINDGEN_VERSION=<x.y.z>] [-D PYTHON=<path>] -P cmake/Header.cmake
#
# With COMPARE, fails when the generated header differs from the committed one (the
# header_up_to_date test); without, writes OUTPUT (the `header` build target). OUTPUT defaults
# to include/v4a.h, CBINDGEN and PYTHON to the programs on the PATH (and ~/.cargo/bin), and
# CBINDGEN_VERSION to the version pinned in cbindgen.toml, so `cmake -D SOURCE_DIR=. -P
# cmake/Header.cmake` regenerates the header from a checkout without a build directory.
if(NOT SOURCE_DIR)
  message(FATAL_ERROR "SOURCE_DIR (the repository) is not set")
endif()
if(NOT OUTPUT)
  set(OUTPUT "${SOURCE_DIR}/include/v4a.h")
endif()
if(NOT CBINDGEN_VERSION)
  file(STRINGS "${SOURCE_DIR}/cbindgen.toml" _pin REGEX "^# Pinned cbindgen version: [0-9.]+")
  string(REGEX MATCH "[0-9]+\\.[0-9]+\\.[0-9]+" CBINDGEN_VERSION "${_pin}")
endif()
if(NOT CBINDGEN)
  find_program(CBINDGEN cbindgen HINTS "$ENV{CARGO_HOME}/bin" "$ENV{HOME}/.cargo/bin")
endif()
if(NOT CBINDGEN)
  message(FATAL_ERROR "cbindgen ${CBINDGEN_VERSION} is not installed: run "
                      "`cargo install --locked cbindgen@${CBINDGEN_VERSION}` and reconfigure")
endif()
if(NOT PYTHON)
  find_program(PYTHON NAMES python3 python)
endif()
if(NOT PYTHON)
  message(FATAL_ERROR "python3 is needed to group the header by object (cmake/group_header.py): "
                      "install it (apt-get install python3)")
endif()
execute_process(COMMAND "${CBINDGEN}" --version OUTPUT_VARIABLE _version
                OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT _version STREQUAL "cbindgen ${CBINDGEN_VERSION}")
  message(FATAL_ERROR "${CBINDGEN} is \"${_version}\", but the header is generated with "
                      "cbindgen ${CBINDGEN_VERSION} (cbindgen.toml): run "
                      "`cargo install --locked --force cbindgen@${CBINDGEN_VERSION}`")
endif()
set(_raw "${OUTPUT}.cbindgen")
execute_process(
  COMMAND "${CBINDGEN}" --quiet --config "${SOURCE_DIR}/cbindgen.toml" --crate v4a-ffi
          --output "${_raw}"
  WORKING_DIRECTORY "${SOURCE_DIR}"
  RESULT_VARIABLE _rc ERROR_VARIABLE _err)
if(NOT _rc EQUAL 0)
  file(REMOVE "${_raw}")
  message(FATAL_ERROR "cbindgen failed:\n${_err}")
endif()
execute_process(
  COMMAND "${PYTHON}" "${SOURCE_DIR}/cmake/group_header.py" "${_raw}" "${OUTPUT}"
  RESULT_VARIABLE _rc ERROR_VARIABLE _err)
file(REMOVE "${_raw}")
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "cmake/group_header.py failed:\n${_err}")
endif()
if(COMPARE)
  file(READ "${OUTPUT}" _generated)
  file(READ "${COMPARE}" _committed)
  if(NOT _generated STREQUAL _committed)
    find_program(_diff diff)
    if(_diff)
      execute_process(COMMAND "${_diff}" -u "${COMPARE}" "${OUTPUT}")
    endif()
    message(FATAL_ERROR "include/v4a.h is stale: crates/ffi/, cbindgen.toml or "
                        "cmake/group_header.py changed. Regenerate it with `cmake --build build "
                        "--target header` (or `cmake -D SOURCE_DIR=. -P cmake/Header.cmake`) and "
                        "commit it.")
  endif()
  message(STATUS "include/v4a.h is what cbindgen ${CBINDGEN_VERSION} and cmake/group_header.py "
                 "generate")
endif()
