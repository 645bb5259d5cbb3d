# Runs a program and compares what it prints with a file (the examples' expected output).
#
#   cmake -D EXE=<program> -D EXPECTED=<file> -P cmake/RunAndCompare.cmake
execute_process(COMMAND "${EXE}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${EXE} failed (${rc}):\n${out}\n${err}")
endif()
file(READ "${EXPECTED}" expected)
if(NOT out STREQUAL expected)
  message(FATAL_ERROR "${EXE} printed:\n${out}\nexpected (${EXPECTED}):\n${expected}")
endif()
message(STATUS "${EXE}: output as expected")
