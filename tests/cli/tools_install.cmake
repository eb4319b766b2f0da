# `pip install ./tools` as a user runs it, offline: a copy of tools/ is installed into a private
# target directory with the system's setuptools (no network, no build isolation); the installed
# `desync-view` command runs a real run's file, and `import desync` works for notebooks.
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
file(COPY ${TOOLS}/ DESTINATION ${OUT}/src PATTERN "__pycache__" EXCLUDE PATTERN "build" EXCLUDE PATTERN "*.egg-info" EXCLUDE)
include(${CMAKE_CURRENT_LIST_DIR}/step.cmake)
step(${PYTHON} -m pip install --no-deps --no-build-isolation --no-index --disable-pip-version-check
     --target ${OUT}/site ${OUT}/src)
step(${CMAKE_COMMAND} -E env PYTHONPATH=${OUT}/site ${PYTHON} ${OUT}/site/bin/desync-view --help)
if(NOT last MATCHES "usage: desync-view" OR NOT last MATCHES "summary")
  message(FATAL_ERROR "the installed command does not show its subcommands")
endif()
step(${CMAKE_COMMAND} -E env PYTHONPATH=${OUT}/site ${PYTHON} ${OUT}/site/bin/desync-campaign --help)
if(NOT last MATCHES "usage: desync-campaign" OR NOT last MATCHES "collect")
  message(FATAL_ERROR "the installed desync-campaign command does not show its subcommands")
endif()
file(WRITE ${OUT}/check_import.py "import desync, desync.cli, desync.timeline, desync.phases, desync.ppam, desync.campaign, sklearn\nprint('import desync ok', desync.__file__)\n")
step(${CMAKE_COMMAND} -E env PYTHONPATH=${OUT}/site ${PYTHON} ${OUT}/check_import.py)
if(NOT last MATCHES "${OUT}/site")
  message(FATAL_ERROR "import desync did not find the installed package")
endif()
