# The files that read TOML (toml++): the deck schema of config/ and each workload's reader of its
# own table. nvcc cannot compile toml++ 3.3's headers (cudafe++ mis-translates a generic lambda in
# toml::table: "'__T4' was not declared", marzer/tomlplusplus#213), so in the CUDA build these
# files go to the host compiler alone (--host-only) and must include no Kokkos header. Every such
# file is named once, through desync_toml_readers() in the folder whose target compiles it; the
# list file lets ctest toml_sources_host_only check exactly them, wherever they live.
set(DESYNC_TOML_READERS_LIST ${PROJECT_BINARY_DIR}/toml_reader_sources.txt)
file(WRITE ${DESYNC_TOML_READERS_LIST} "")

function(desync_toml_readers)
  foreach(f IN LISTS ARGN)
    get_filename_component(abs ${f} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    file(APPEND ${DESYNC_TOML_READERS_LIST} "${abs}\n")
    if(CMAKE_CXX_COMPILER MATCHES "nvcc_wrapper$")
      set_source_files_properties(${f} PROPERTIES COMPILE_OPTIONS --host-only)
    endif()
  endforeach()
endfunction()
