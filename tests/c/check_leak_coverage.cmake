# Fails when a function declared in the header is never called by the leak test, so that a new
# export cannot go without leak coverage. The leak test (test_leaks.c) repeats the scenarios of
# test_api.c, so SOURCE is test_api.c. Registered with CTest as c_leaks_coverage:
#
#   cmake -D HEADER=include/v4a.h -D SOURCE=tests/c/test_api.c -P check_leak_coverage.cmake
#
# A declaration is a header line that starts with a type and names `v4a_<name>(` (cbindgen
# writes each on one line); a call is `v4a_<name>(` in the source once its comments are removed.

foreach(var HEADER SOURCE)
  if(NOT EXISTS "${${var}}")
    message(FATAL_ERROR "${var} is not a file: \"${${var}}\"")
  endif()
endforeach()

file(STRINGS "${HEADER}" _declarations REGEX "^[A-Za-z].*[ *]v4a_[a-z0-9_]+\\(")
set(_exports)
foreach(_line IN LISTS _declarations)
  if(_line MATCHES "[ *](v4a_[a-z0-9_]+)\\(")
    list(APPEND _exports "${CMAKE_MATCH_1}")
  endif()
endforeach()
list(REMOVE_DUPLICATES _exports)
list(LENGTH _exports _count)
# The header declares about fifty functions; far fewer means this pattern no longer finds them.
if(_count LESS 40)
  message(FATAL_ERROR "found only ${_count} function declarations in ${HEADER}: the pattern of "
                      "check_leak_coverage.cmake no longer matches the header")
endif()

file(READ "${SOURCE}" _code)
# The case files the leak test includes ("..._cases.h" beside it) are part of it.
get_filename_component(_dir "${SOURCE}" DIRECTORY)
string(REGEX MATCHALL "#include \"[a-z_]+_cases\\.h\"" _includes "${_code}")
foreach(_inc IN LISTS _includes)
  string(REGEX REPLACE "#include \"([a-z_]+_cases\\.h)\"" "\\1" _file "${_inc}")
  file(READ "${_dir}/${_file}" _more)
  string(APPEND _code "\n${_more}")
endforeach()
string(REGEX REPLACE "/\\*([^*]|\\*+[^*/])*\\*+/" "" _code "${_code}")
string(REGEX REPLACE "//[^\n]*" "" _code "${_code}")

set(_missing)
foreach(_fn IN LISTS _exports)
  if(NOT _code MATCHES "[^A-Za-z0-9_]${_fn}[ \t\r\n]*\\(")
    list(APPEND _missing "${_fn}")
  endif()
endforeach()
if(_missing)
  list(JOIN _missing ", " _list)
  message(FATAL_ERROR "${SOURCE} does not call these functions of ${HEADER}: ${_list}. Add "
                      "their success and error paths to its scenarios (the leak test runs them).")
endif()
message(STATUS "${SOURCE} calls all ${_count} functions declared in ${HEADER}")
