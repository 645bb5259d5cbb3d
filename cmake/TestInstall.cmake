# The install_and_example test: `cmake --install` into a fresh prefix, then the C example in
# examples/c/ built against the installed copy (with find_package(v4a): shared and static
# targets; with pkg-config: v4a and v4a-static) and run; its output must be
# examples/c/expected_output.txt.
#
#   cmake -D BUILD_DIR=<build> -D SOURCE_DIR=<repo> -D WORK_DIR=<scratch> -D C_COMPILER=<cc>
#         -D GENERATOR=<generator> -P cmake/TestInstall.cmake

function(run)
  cmake_parse_arguments(R "" "OUTPUT;WORKING_DIRECTORY" "COMMAND" ${ARGN})
  if(NOT R_WORKING_DIRECTORY)
    set(R_WORKING_DIRECTORY "${WORK_DIR}")
  endif()
  execute_process(COMMAND ${R_COMMAND} WORKING_DIRECTORY "${R_WORKING_DIRECTORY}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " shown "${R_COMMAND}")
    message(FATAL_ERROR "failed (${rc}): ${shown}\n${out}\n${err}")
  endif()
  if(R_OUTPUT)
    set(${R_OUTPUT} "${out}" PARENT_SCOPE)
  endif()
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")
file(READ "${SOURCE_DIR}/examples/c/expected_output.txt" expected)

# --- install -------------------------------------------------------------------------------
run(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}")
file(GLOB_RECURSE installed RELATIVE "${prefix}" LIST_DIRECTORIES false "${prefix}/*")
list(SORT installed)
string(REPLACE ";" "\n  " shown "${installed}")
message(STATUS "installed:\n  ${shown}")
foreach(want "include/v4a.h" "libv4a.so" "libv4a.so.[0-9]+" "libv4a.a" "pkgconfig/v4a.pc"
             "pkgconfig/v4a-static.pc" "cmake/v4a/v4aConfig.cmake"
             "cmake/v4a/v4aConfigVersion.cmake")
  set(found OFF)
  foreach(f IN LISTS installed)
    if(f MATCHES "(^|/)${want}$")
      set(found ON)
      if(want STREQUAL "pkgconfig/v4a.pc")
        get_filename_component(pcdir "${prefix}/${f}" DIRECTORY)
      endif()
      if(want STREQUAL "libv4a.so.[0-9]+")
        set(shared_lib "${prefix}/${f}")
      endif()
    endif()
  endforeach()
  if(NOT found)
    message(FATAL_ERROR "cmake --install did not install ${want}")
  endif()
endforeach()
file(READ "${prefix}/include/v4a.h" installed_header)
file(READ "${SOURCE_DIR}/include/v4a.h" source_header)
if(NOT installed_header STREQUAL source_header)
  message(FATAL_ERROR "the installed v4a.h differs from include/v4a.h")
endif()
# The installed library is the release build without the test-only export.
find_program(NM nm)
if(NM)
  run(COMMAND "${NM}" -D --defined-only "${shared_lib}" OUTPUT symbols)
  if(symbols MATCHES "v4a_test_panic")
    message(FATAL_ERROR "the installed library exports the test-only v4a_test_panic")
  endif()
  if(NOT symbols MATCHES "v4a_apply")
    message(FATAL_ERROR "the installed library does not export v4a_apply")
  endif()
endif()

# The installed libraries carry no debug info (V4A_STRIP_INSTALLED, the default): no
# .debug_* section in the shared library or in any member of the static one.
find_program(READELF readelf)
if(READELF)
  get_filename_component(installed_libdir "${shared_lib}" DIRECTORY)
  foreach(lib "${shared_lib}" "${installed_libdir}/libv4a.a")
    run(COMMAND "${READELF}" -S -W "${lib}" OUTPUT sections)
    if(sections MATCHES "\\.debug_(info|line|str)")
      message(FATAL_ERROR "the installed ${lib} has debug info (${CMAKE_MATCH_0})")
    endif()
    file(SIZE "${lib}" size)
    math(EXPR mb "${size} / 1000000")
    message(STATUS "installed ${lib}: ${mb} MB, no debug info")
  endforeach()
endif()

function(check_output exe)
  run(COMMAND "${exe}" OUTPUT out)
  if(NOT out STREQUAL expected)
    message(FATAL_ERROR "${exe} printed:\n${out}\nexpected (examples/c/expected_output.txt):\n"
                        "${expected}")
  endif()
  message(STATUS "ran ${exe}: output as expected")
endfunction()

# --- find_package(v4a) -------------------------------------------------------------------------
set(example_build "${WORK_DIR}/example-cmake")
run(COMMAND "${CMAKE_COMMAND}" -S "${SOURCE_DIR}/examples/c" -B "${example_build}" -G "${GENERATOR}"
            "-DCMAKE_PREFIX_PATH=${prefix}" "-DCMAKE_C_COMPILER=${C_COMPILER}"
            -DCMAKE_BUILD_TYPE=Release)
run(COMMAND "${CMAKE_COMMAND}" --build "${example_build}")
check_output("${example_build}/apply_patch")
check_output("${example_build}/apply_patch_static")

find_program(READELF readelf)
if(READELF)
  run(COMMAND "${READELF}" -d "${example_build}/apply_patch" OUTPUT dyn)
  if(NOT dyn MATCHES "NEEDED[^\n]*libv4a\\.so\\.[0-9]+")
    message(FATAL_ERROR "apply_patch does not need libv4a by its SONAME:\n${dyn}")
  endif()
  run(COMMAND "${READELF}" -d "${example_build}/apply_patch_static" OUTPUT dyn)
  if(dyn MATCHES "libv4a")
    message(FATAL_ERROR "apply_patch_static should not need libv4a:\n${dyn}")
  endif()
endif()

# --- pkg-config --------------------------------------------------------------------------------
find_program(PKG_CONFIG pkg-config)
if(NOT PKG_CONFIG)
  message(FATAL_ERROR "pkg-config not found: install it (apt-get install pkg-config)")
endif()
foreach(package v4a v4a-static)
  run(COMMAND "${CMAKE_COMMAND}" -E env "PKG_CONFIG_PATH=${pcdir}" "${PKG_CONFIG}" --cflags --libs
              ${package}
      OUTPUT flags)
  string(STRIP "${flags}" flags)
  message(STATUS "pkg-config --cflags --libs ${package}: ${flags}")
  separate_arguments(flags UNIX_COMMAND "${flags}")
  set(exe "${WORK_DIR}/apply_patch-pkg-config-${package}")
  set(rpath)
  if(package STREQUAL "v4a")
    get_filename_component(libdir "${shared_lib}" DIRECTORY)
    set(rpath "-Wl,-rpath,${libdir}")
  endif()
  run(COMMAND "${C_COMPILER}" -std=c99 -Wall -Wextra -pedantic -Werror
              "${SOURCE_DIR}/examples/c/apply_patch.c" -o "${exe}" ${flags} ${rpath})
  check_output("${exe}")
endforeach()

# --- C++: the installed v4a.hpp with the C++ example, linked through pkg-config ------------------
if(CXX_COMPILER)
  file(READ "${SOURCE_DIR}/examples/cpp/expected_output.txt" expected)
  run(COMMAND "${CMAKE_COMMAND}" -E env "PKG_CONFIG_PATH=${pcdir}" "${PKG_CONFIG}" --cflags --libs v4a
      OUTPUT flags)
  string(STRIP "${flags}" flags)
  separate_arguments(flags UNIX_COMMAND "${flags}")
  get_filename_component(libdir "${shared_lib}" DIRECTORY)
  set(exe "${WORK_DIR}/apply_patch-cpp")
  run(COMMAND "${CXX_COMPILER}" -std=c++17 -Wall -Wextra -pedantic -Werror
              "${SOURCE_DIR}/examples/cpp/apply_patch.cpp" -o "${exe}" ${flags} "-Wl,-rpath,${libdir}")
  check_output("${exe}")
endif()
