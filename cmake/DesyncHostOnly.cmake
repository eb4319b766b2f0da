# CUDA builds: the sources that include no Kokkos header compile with the host compiler alone.
#
# Kokkos 3.4's CUDA backend makes nvcc_wrapper the C++ compiler of every target, so every
# translation unit goes through nvcc: the host pass plus a device pass per GPU architecture (here
# sm_80 and sm_90), each parsing the whole unit, toml++, CLI11, fmt, HDF5 and SimGrid included,
# although half of desync's sources (the deck readers, the output file, the simulator, the
# plans, most tests) contain no device code at all. nvcc_wrapper's own `--host-only` option runs
# just the host compiler with the same arguments; desync_host_only_sources() gives it to every
# C++ source of the project's targets whose include closure (the project's own headers, followed
# through their quoted #includes) names no Kokkos, KokkosKernels or CUDA header.
#
# The TOML readers were host-only before (nvcc cannot compile toml++: cmake/DesyncTomlReaders.cmake);
# now every device-free unit is. nvcc_wrapper's host-only command line is split on spaces again,
# so a definition with quotes or spaces does not survive it: give definitions as bare words
# (tests/unit/test_mpi_library.cpp stringizes its own).
#
# A mistake cannot pass unnoticed: a unit that reaches Kokkos' headers without nvcc stops with
# Kokkos' "#error KOKKOS_ENABLE_CUDA defined but the compiler is not defining the __CUDACC__
# macro", so the CUDA build (the gpu-kit leg of CI) fails at once. On builds without CUDA this
# file does nothing.

set(_desync_include_roots ${PROJECT_SOURCE_DIR}/miniapp ${PROJECT_SOURCE_DIR}/backends ${PROJECT_SOURCE_DIR}
    ${PROJECT_SOURCE_DIR}/tests ${PROJECT_SOURCE_DIR}/bench ${PROJECT_BINARY_DIR}/generated)

# out: TRUE when `file` or a project header it includes (transitively) includes a Kokkos,
# KokkosKernels or CUDA header. Memoized per file in global properties.
function(_desync_reaches_device file out)
  get_property(known GLOBAL PROPERTY "_desync_dev:${file}" SET)
  if(known)
    get_property(v GLOBAL PROPERTY "_desync_dev:${file}")
    set(${out} ${v} PARENT_SCOPE)
    return()
  endif()
  set_property(GLOBAL PROPERTY "_desync_dev:${file}" FALSE)  # an include cycle ends here
  set(result FALSE)
  if(EXISTS "${file}")
    file(STRINGS "${file}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
    get_filename_component(here "${file}" DIRECTORY)
    foreach(line IN LISTS lines)
      if(line MATCHES "<(Kokkos|cuda|cublas|cusparse|nvml)[^>]*>")
        set(result TRUE)
        break()
      endif()
      if(line MATCHES "\"([^\"]+)\"")
        set(name "${CMAKE_MATCH_1}")
        foreach(root IN ITEMS ${here} ${_desync_include_roots})
          if(EXISTS "${root}/${name}")
            get_filename_component(inc "${root}/${name}" ABSOLUTE)
            _desync_reaches_device("${inc}" sub)
            if(sub)
              set(result TRUE)
            endif()
            break()
          endif()
        endforeach()
        if(result)
          break()
        endif()
      endif()
    endforeach()
  endif()
  set_property(GLOBAL PROPERTY "_desync_dev:${file}" ${result})
  set(${out} ${result} PARENT_SCOPE)
endfunction()

# Every target defined under `dir` (and its subdirectories).
function(_desync_targets_under dir out)
  get_property(here DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(s IN LISTS subs)
    _desync_targets_under("${s}" more)
    list(APPEND here ${more})
  endforeach()
  set(${out} ${here} PARENT_SCOPE)
endfunction()

# Called once, after every add_subdirectory (CMakeLists.txt).
function(desync_host_only_sources)
  if(NOT Kokkos_ENABLE_CUDA)
    return()
  endif()
  _desync_targets_under("${PROJECT_SOURCE_DIR}" targets)
  set(host 0)
  set(device 0)
  foreach(t IN LISTS targets)
    get_target_property(type ${t} TYPE)
    if(type STREQUAL "INTERFACE_LIBRARY" OR type STREQUAL "UTILITY")
      continue()
    endif()
    get_target_property(srcs ${t} SOURCES)
    get_target_property(tdir ${t} SOURCE_DIR)
    foreach(s IN LISTS srcs)
      if(NOT s MATCHES "\\.(cpp|cc|cxx)$")
        continue()
      endif()
      get_filename_component(abs "${s}" ABSOLUTE BASE_DIR "${tdir}")
      get_property(opts SOURCE "${abs}" TARGET_DIRECTORY ${t} PROPERTY COMPILE_OPTIONS)
      if("--host-only" IN_LIST opts)  # a TOML reader (cmake/DesyncTomlReaders.cmake): host-only already
        math(EXPR host "${host} + 1")
        continue()
      endif()
      _desync_reaches_device("${abs}" dev)
      if(dev)
        math(EXPR device "${device} + 1")
      else()
        set_property(SOURCE "${abs}" TARGET_DIRECTORY ${t} APPEND PROPERTY COMPILE_OPTIONS --host-only)
        math(EXPR host "${host} + 1")
      endif()
    endforeach()
  endforeach()
  message(STATUS "CUDA build: ${host} sources without Kokkos or CUDA headers compile with the host compiler alone "
                 "(nvcc_wrapper --host-only), ${device} through nvcc (cmake/DesyncHostOnly.cmake)")
endfunction()
