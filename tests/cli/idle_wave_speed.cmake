# A real run of an idle-wave deck, then tools/tests/check_idle_wave_speed.py MODE on its file:
# MODE wave: an idle wave travels, at the model's pace counted in iterations (sigma d ranks per
# iteration, docs/method.md section 20) within a factor FACTOR (default 2: not stalled, not
# instant); MODE nowave: `idlewave` reports no idle wave. The speed in ranks/s within 15 % of the
# contention model is a measurement: bench/idle_wave_speed.sh.
# RUN: mpiexec ... desync run DECK (the output path is appended); OUT, NAME: where the file goes.
# Timing on a shared, oversubscribed 2-core machine (ranks time-share the cores, other work may run
# beside the test, a core may be taken): a miss is run once more from scratch.
if(NOT FACTOR)
  set(FACTOR 2)
endif()
set(_distance "")
if(DISTANCE)  # the d every fitted wave's model must use (check_idle_wave_speed.py --distance)
  set(_distance --distance ${DISTANCE})
endif()
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
foreach(attempt 1 2)
  execute_process(COMMAND ${RUN} -o ${OUT}/${NAME}.h5 --force RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "attempt ${attempt}: the run failed (${code}): ${RUN}\n${out}${err}")
  endif()
  execute_process(COMMAND ${PYTHON} ${TOOLS}/tests/check_idle_wave_speed.py ${MODE} ${OUT}/${NAME}.h5 --factor ${FACTOR} ${_distance}
                  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message(STATUS "attempt ${attempt}:\n${out}${err}")
  if(code EQUAL 0)
    return()
  elseif(NOT code EQUAL 1)
    message(FATAL_ERROR "attempt ${attempt}: check_idle_wave_speed.py failed (${code})")
  endif()
endforeach()
message(FATAL_ERROR "missed twice (${MODE}, factor ${FACTOR}); see the attempts above")
