# Generates the C header with the pinned cbindgen.
#
#   cmake -D CBINDGEN=<path> -D CBINDGEN_VERSION=<x.y.z> -D SOURCE_DIR=<repo>
#         -D OUTPUT=<file> [-D COMPARE=<committed header>] -P cmake/Header.cmake
#
# With COMPARE, fails when the generated header differs from the committed one (the
# header_up_to_date test); without, writes OUTPUT (the `header` build target).
if(NOT CBINDGEN)
  message(FATAL_ERROR "cbindgen ${CBINDGEN_VERSION} is not installed: run "
                      "`cargo install --locked cbindgen@${CBINDGEN_VERSION}` and reconfigure")
endif()
execute_process(COMMAND "${CBINDGEN}" --version OUTPUT_VARIABLE _version
                OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT _version STREQUAL "cbindgen ${CBINDGEN_VERSION}")
  message(FATAL_ERROR "${CBINDGEN} is \"${_version}\", but the header is generated with "
                      "cbindgen ${CBINDGEN_VERSION} (cbindgen.toml): run "
                      "`cargo install --locked --force cbindgen@${CBINDGEN_VERSION}`")
endif()
execute_process(
  COMMAND "${CBINDGEN}" --quiet --config "${SOURCE_DIR}/cbindgen.toml" --crate v4a-ffi
          --output "${OUTPUT}"
  WORKING_DIRECTORY "${SOURCE_DIR}"
  RESULT_VARIABLE _rc ERROR_VARIABLE _err)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "cbindgen failed:\n${_err}")
endif()
if(COMPARE)
  file(READ "${OUTPUT}" _generated)
  file(READ "${COMPARE}" _committed)
  if(NOT _generated STREQUAL _committed)
    find_program(_diff diff)
    if(_diff)
      execute_process(COMMAND "${_diff}" -u "${COMPARE}" "${OUTPUT}")
    endif()
    message(FATAL_ERROR "include/v4a.h is stale: crates/ffi/ or cbindgen.toml changed. "
                        "Regenerate it with `cmake --build build --target header` (or cbindgen "
                        "--config cbindgen.toml --crate v4a-ffi --output include/v4a.h) and commit it.")
  endif()
  message(STATUS "include/v4a.h is what cbindgen ${CBINDGEN_VERSION} generates")
endif()
