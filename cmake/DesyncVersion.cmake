# Generates desync_version.hpp with the project version and the git revision at build time, so a
# rebuild after a commit records the new revision without re-running CMake.
set(_desync_version_in ${CMAKE_CURRENT_LIST_DIR}/desync_version.hpp.in)
set(_desync_version_out ${CMAKE_BINARY_DIR}/generated/desync_version.hpp)
add_custom_target(desync_version
  COMMAND ${CMAKE_COMMAND}
    -DSOURCE_DIR=${CMAKE_SOURCE_DIR} -DIN=${_desync_version_in} -DOUT=${_desync_version_out}
    -DVERSION=${PROJECT_VERSION}
    "-DCOMPILER=${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}"
    -DBUILD_TYPE=${CMAKE_BUILD_TYPE}
    -P ${CMAKE_CURRENT_LIST_DIR}/WriteVersion.cmake
  BYPRODUCTS ${_desync_version_out}
  COMMENT "desync: recording git revision")
