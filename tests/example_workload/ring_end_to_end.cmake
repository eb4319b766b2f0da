# The example workload end to end (CMakeLists.txt): check, run on 2 ranks, the layout checker,
# its /phases as the module declared them, and the tools on its file.
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
include(${STEP})
step(${DESYNC} check ${DECK})
if(NOT last MATCHES "workload = 'ring'" OR NOT last MATCHES "size = 4096")
  message(FATAL_ERROR "desync check does not show the ring deck resolved")
endif()
# The loader's rules hold for it as for every workload: an injection past its steps is refused.
file(READ ${DECK} deck)
string(REPLACE "iteration = 10" "iteration = 30" late "${deck}")
file(WRITE ${OUT}/late.toml "${late}")
execute_process(COMMAND ${DESYNC} check ${OUT}/late.toml RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(code EQUAL 0 OR NOT "${out}${err}" MATCHES "30 measured steps")
  message(FATAL_ERROR "an injection past the ring's 30 steps was not refused (${code}): ${out}${err}")
endif()
step(${MPIRUN} ${DESYNC} run ${DECK} -o ${OUT}/ring.h5)
if(NOT last MATCHES "verification: passed")
  message(FATAL_ERROR "the ring did not verify")
endif()
step(${PYTHON} ${TOOLS}/check_output_layout.py ${DOC_DIR}/output.md ${OUT}/ring.h5)
step(${PYTHON} -c "
import h5py, sys
f = h5py.File(sys.argv[1], 'r')
p = {n.decode(): (c.decode(), k.decode()) for n, c, k in zip(f['phases/name'][...], f['phases/class'][...], f['phases/colour'][...])}
assert f.attrs['workload'] == b'ring' or f.attrs['workload'] == 'ring', f.attrs['workload']
assert p['crunch'] == ('work', '#2a9d8f'), p
assert p['spread'] == ('work', '#e9c46a'), p
assert p['wait'][0] == 'wait' and p['post'][0] == 'communication' and p['delay'][0] == 'delay', p
print('phases:', p)
" ${OUT}/ring.h5)
step(${PYTHON} ${TOOLS}/desync_view.py summary ${OUT}/ring.h5)
if(NOT last MATCHES "passed" OR NOT last MATCHES "crunch")
  message(FATAL_ERROR "summary does not show the ring's verdict and phases")
endif()
step(${PYTHON} ${TOOLS}/desync_view.py timeline ${OUT}/ring.h5 -o ${OUT}/ring.png)
step(${PYTHON} ${TOOLS}/desync_view.py idlewave ${OUT}/ring.h5)
# The tools take the ring's work phases from its /phases: no Python knows its name.
step(${PYTHON} ${TOOLS}/desync_view.py efficiency ${OUT}/ring.h5)
if(NOT last MATCHES "useful = crunch\\+spread")
  message(FATAL_ERROR "efficiency did not take the ring's work phases from the file")
endif()
step(${PYTHON} ${TOOLS}/desync_view.py wavefront ${OUT}/ring.h5)
