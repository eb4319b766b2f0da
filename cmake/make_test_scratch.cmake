# The fixture of cmake/DesyncTestIsolation.cmake: empties ROOT and makes one folder per test, as
# listed in LIST (one absolute path a line).
#   cmake -DROOT=<build>/test-scratch -DLIST=<build>/test-scratch.list -P make_test_scratch.cmake
if(NOT ROOT OR NOT LIST)
  message(FATAL_ERROR "make_test_scratch.cmake: ROOT and LIST are required")
endif()
file(REMOVE_RECURSE "${ROOT}")
file(STRINGS "${LIST}" _dirs)
file(MAKE_DIRECTORY ${_dirs})
list(LENGTH _dirs _n)
message(STATUS "test scratch: ${_n} folders under ${ROOT}")
