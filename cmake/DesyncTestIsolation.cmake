# Every ctest gets its own launcher scratch space (issue 30, item 1; docs/method.md, "Test
# isolation").
#
# Why: `ctest -j` starts tests side by side, and MPI launchers keep per-user state in one shared
# temporary folder. Open MPI 4 puts every job's session directory under
# <tmp>/ompi.<host>.<uid>/; a finishing job removes that folder while another job (mpirun or a
# singleton MPI_Init, e.g. `desync check`) is creating its pid.<pid> folder inside it, and the
# second job dies in orte_init ("A call to mkdir was unable to create the desired directory").
# Giving each test its own temporary folder removes every such race at once: TMPDIR (mktemp,
# Python's tempfile, MPICH's Hydra and UCX fall back on it) and the session-directory bases of
# Open MPI 4 (orte_tmpdir_base) and 5 (PRRTE's prte_tmpdir_base) all point into
# <build>/test-scratch/<test name>. DESYNC_TEST_SCRATCH names the same folder for test scripts
# that want a place of their own.
#
# Use: a folder that adds tests calls desync_isolate_directory() once, anywhere in its
# CMakeLists.txt; the isolation is applied when that folder's processing ends (cmake_language
# DEFER), after its last add_test/set_tests_properties. At the end of the top-level CMakeLists.txt
# desync_isolate_tests() refuses (a configure error) any folder with tests that did not call it,
# and adds the fixture test `test_scratch_setup` that (re)makes the folders: every test requires it,
# so ctest runs it first even under -R/-L filters, and no run sees what an earlier one left there.

function(_desync_isolate_now)
  get_property(_tests DIRECTORY PROPERTY TESTS)
  set(_root "${CMAKE_BINARY_DIR}/test-scratch")
  foreach(_t IN LISTS _tests)
    # A test's folder is named after the test; ctest names are unique within a build tree.
    set(_d "${_root}/${_t}")
    set_property(GLOBAL APPEND PROPERTY DESYNC_TEST_SCRATCH_DIRS "${_d}")
    # APPEND keeps the variables a test sets itself (threads, transports); these come last and
    # name only the scratch space.
    set_property(TEST "${_t}" APPEND PROPERTY ENVIRONMENT
      "TMPDIR=${_d}"
      "OMPI_MCA_orte_tmpdir_base=${_d}"
      "PRTE_MCA_prte_tmpdir_base=${_d}"
      "DESYNC_TEST_SCRATCH=${_d}")
    set_property(TEST "${_t}" APPEND PROPERTY FIXTURES_REQUIRED desync_test_scratch)
  endforeach()
endfunction()

macro(desync_isolate_directory)
  set_property(DIRECTORY PROPERTY DESYNC_TESTS_ISOLATED TRUE)
  cmake_language(DEFER CALL _desync_isolate_now)
endmacro()

function(_desync_unisolated dir out)
  set(_bad "")
  get_property(_tests DIRECTORY "${dir}" PROPERTY TESTS)
  get_property(_ok DIRECTORY "${dir}" PROPERTY DESYNC_TESTS_ISOLATED)
  if(_tests AND NOT _ok)
    list(APPEND _bad "${dir}")
  endif()
  get_property(_subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(_sub IN LISTS _subdirs)
    _desync_unisolated("${_sub}" _sub_bad)
    list(APPEND _bad ${_sub_bad})
  endforeach()
  set(${out} ${_bad} PARENT_SCOPE)
endfunction()

# At the end of the top-level CMakeLists.txt, after every add_subdirectory.
function(desync_isolate_tests)
  _desync_unisolated("${CMAKE_SOURCE_DIR}" _bad)
  if(_bad)
    list(JOIN _bad "\n  " _text)
    message(FATAL_ERROR "these folders add tests without desync_isolate_directory() "
                        "(cmake/DesyncTestIsolation.cmake: each test needs its own launcher scratch space):\n  ${_text}")
  endif()
  # The subdirectories' deferred calls have run by now: add_subdirectory processes a folder to its
  # end, deferred calls included, before it returns.
  get_property(_dirs GLOBAL PROPERTY DESYNC_TEST_SCRATCH_DIRS)
  if(NOT _dirs)
    return()
  endif()
  set(_list "${CMAKE_BINARY_DIR}/test-scratch.list")
  list(JOIN _dirs "\n" _text)
  file(WRITE "${_list}" "${_text}\n")
  add_test(NAME test_scratch_setup
    COMMAND ${CMAKE_COMMAND} -DROOT=${CMAKE_BINARY_DIR}/test-scratch -DLIST=${_list}
            -P ${PROJECT_SOURCE_DIR}/cmake/make_test_scratch.cmake)
  set_tests_properties(test_scratch_setup PROPERTIES FIXTURES_SETUP desync_test_scratch)
endfunction()
