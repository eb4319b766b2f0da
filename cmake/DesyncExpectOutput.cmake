# desync_expect_output(NAME REGEX <regex> [ONCE] [FAIL_REGEX <regex>] [CODE <n>] [NO_FILE <path>]
#                      COMMAND <command...>)
#
# A test that runs COMMAND and checks both what it prints and how it ends: exit code CODE
# (default 0), REGEX found in stdout+stderr (exactly once with ONCE: rank 0 only), FAIL_REGEX not
# found, and NO_FILE (with its temporary files) not left behind (tests/cli/expect_exit.cmake).
#
# Why not ctest's PASS_REGULAR_EXPRESSION: it ignores the exit code. A benchmark that prints its
# ratio and then finds its values wrong (exit 1), or a run that warns at set-up and then fails
# its verification, would pass.
set(DESYNC_EXPECT_EXIT_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/../tests/cli/expect_exit.cmake")

function(desync_expect_output name)
  cmake_parse_arguments(PARSE_ARGV 1 X "ONCE" "REGEX;FAIL_REGEX;CODE;NO_FILE" "COMMAND")
  if(NOT X_REGEX OR NOT X_COMMAND)
    message(FATAL_ERROR "desync_expect_output(${name}): REGEX and COMMAND are required")
  endif()
  if(NOT DEFINED X_CODE)
    set(X_CODE 0)
  endif()
  add_test(NAME ${name}
    COMMAND ${CMAKE_COMMAND} -DEXPECT_CODE=${X_CODE} "-DEXPECT_REGEX=${X_REGEX}" "-DFAIL_REGEX=${X_FAIL_REGEX}"
            -DEXPECT_ONCE=${X_ONCE} "-DNO_FILE=${X_NO_FILE}" "-DCOMMAND=${X_COMMAND}" -P ${DESYNC_EXPECT_EXIT_SCRIPT})
endfunction()
