# step(COMMAND...): runs one command of a cmake -P test script, prints its output, stops the test
# on a non-zero exit, and leaves its standard output in `last` for the checks that follow.
function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message(STATUS "${out}${err}")
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "failed (${code}): ${ARGN}")
  endif()
  set(last "${out}" PARENT_SCOPE)
endfunction()
