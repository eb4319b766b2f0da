# Warnings and sanitizers go on desync's own targets only, never into global flags.
add_library(desync_flags INTERFACE)
target_compile_options(desync_flags INTERFACE
  $<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang>:-Wall -Wextra -Wshadow -Wno-unused-parameter>)
if(desync_ENABLE_SANITIZERS)
  # -fno-sanitize-recover: undefined behaviour ends the program (exit non-zero) instead of a line
  # that a passing test would print and ctest would not read.
  target_compile_options(desync_flags INTERFACE -fsanitize=address,undefined -fno-sanitize-recover=undefined
                                                -fno-omit-frame-pointer)
  target_link_options(desync_flags INTERFACE -fsanitize=address,undefined)
endif()
# Architecture flags (desync_ARCH, top-level CMakeLists.txt; docs/build_native.md): on desync's own
# targets only, like the warnings; empty (the default) adds nothing.
set(desync_ARCH_FLAGS "")
if(desync_ARCH)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    message(FATAL_ERROR "desync_ARCH=${desync_ARCH}: -march is known for GCC and Clang, not ${CMAKE_CXX_COMPILER_ID}")
  endif()
  if(desync_ARCH STREQUAL "native")
    set(desync_ARCH_FLAGS -march=native -mtune=native)
  else()
    set(desync_ARCH_FLAGS -march=${desync_ARCH})
  endif()
  include(CheckCXXCompilerFlag)
  string(REPLACE ";" " " _desync_arch_flags "${desync_ARCH_FLAGS}")
  string(MAKE_C_IDENTIFIER "desync_ARCH_OK_${desync_ARCH}" _desync_arch_ok)
  check_cxx_compiler_flag("${_desync_arch_flags}" ${_desync_arch_ok})
  if(NOT ${_desync_arch_ok})
    message(FATAL_ERROR "desync_ARCH=${desync_ARCH}: ${CMAKE_CXX_COMPILER} rejects ${_desync_arch_flags}")
  endif()
  target_compile_options(desync_flags INTERFACE ${desync_ARCH_FLAGS})
  message(STATUS "desync: architecture ${desync_ARCH} (${_desync_arch_flags} on desync's targets)")
else()
  message(STATUS "desync: architecture portable (no -march; -Ddesync_ARCH=native to tune)")
endif()
# The generated build description (desync/build_info.hpp, top-level CMakeLists.txt) for every
# target that links desync_flags; BUILD_INTERFACE keeps the build tree out of an installed export.
target_include_directories(desync_flags INTERFACE $<BUILD_INTERFACE:${CMAKE_BINARY_DIR}/generated>)
