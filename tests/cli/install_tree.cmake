# `cmake --install` into a fresh prefix (cmake/DesyncInstall.cmake, docs/install.md), then the
# installed commands run from there: desync on an installed deck, and each tool's --help.
# -DBUILD=<build dir> -DOUT=<prefix to create>
file(REMOVE_RECURSE ${OUT})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${OUT} RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${rc})")
endif()
foreach(f bin/desync bin/desync-view bin/desync-campaign bin/desync-calibrate share/desync/tools/desync/cli.py
          share/desync/tools/desync_view.py share/desync/inputs/quickstart.toml share/desync/platforms/this_machine.toml
          share/doc/desync/README.md share/doc/desync/decks.md share/doc/desync/output.md)
  if(NOT EXISTS ${OUT}/${f})
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()
execute_process(COMMAND ${OUT}/bin/desync check ${OUT}/share/desync/inputs/quickstart.toml
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "workload = 'triad'")
  message(FATAL_ERROR "installed desync check failed (${rc}): ${out}${err}")
endif()
foreach(tool desync-view desync-campaign desync-calibrate)
  # from another working directory: the wrapper finds the tools relative to itself
  execute_process(COMMAND ${OUT}/bin/${tool} --help WORKING_DIRECTORY ${OUT} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "usage:")
    message(FATAL_ERROR "installed ${tool} --help failed (${rc}): ${out}${err}")
  endif()
endforeach()
message(STATUS "installed tree in ${OUT} works")
