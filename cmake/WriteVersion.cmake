# Script mode (cmake -P): fills desync_version.hpp; rewrites it only when the content changed.
find_package(Git QUIET)
set(GIT_REVISION "unknown")
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --short=12 HEAD
    WORKING_DIRECTORY ${SOURCE_DIR} OUTPUT_VARIABLE _rev RESULT_VARIABLE _rc
    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(_rc EQUAL 0)
    set(GIT_REVISION ${_rev})
    execute_process(COMMAND ${GIT_EXECUTABLE} status --porcelain --untracked-files=no
      WORKING_DIRECTORY ${SOURCE_DIR} OUTPUT_VARIABLE _dirty ERROR_QUIET)
    if(NOT _dirty STREQUAL "")
      string(APPEND GIT_REVISION "-dirty")
    endif()
  endif()
endif()
configure_file(${IN} ${OUT}.new @ONLY)
file(COPY_FILE ${OUT}.new ${OUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUT}.new)
