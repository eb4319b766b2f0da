# `cmake --install` (docs/install.md): the binary, the Python tools with a command per tool, the
# shipped decks and platform files, and the docs, at the GNU locations under CMAKE_INSTALL_PREFIX:
#   bin/desync, bin/desync-view, bin/desync-campaign, bin/desync-calibrate
#   share/desync/tools/      (the desync package and the scripts; `pip install` it for notebooks)
#   share/desync/inputs/     (decks), share/desync/platforms/ (simulate and calibrate platforms)
#   share/doc/desync/        (README.md and docs/)
include(GNUInstallDirs)

install(TARGETS desync RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

set(_desync_share ${CMAKE_INSTALL_DATADIR}/desync)
install(DIRECTORY tools/desync DESTINATION ${_desync_share}/tools
        PATTERN "__pycache__" EXCLUDE PATTERN "*.pyc" EXCLUDE)
install(PROGRAMS tools/desync_view.py tools/desync_campaign.py tools/calibrate_platform.py tools/eager_sweep.py
                 tools/check_output_layout.py
        DESTINATION ${_desync_share}/tools)
install(FILES tools/pyproject.toml tools/README.md DESTINATION ${_desync_share}/tools)
install(DIRECTORY inputs/ DESTINATION ${_desync_share}/inputs)
install(DIRECTORY platforms/ DESTINATION ${_desync_share}/platforms)
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})

# One shell command per tool, finding the tools relative to itself (a relocated prefix works).
file(RELATIVE_PATH bin_to_tools /${CMAKE_INSTALL_BINDIR} /${_desync_share}/tools)
foreach(_pair IN ITEMS "desync-view:desync_view.py" "desync-campaign:desync_campaign.py"
                       "desync-calibrate:calibrate_platform.py")
  string(REPLACE ":" ";" _pair "${_pair}")
  list(GET _pair 0 name)
  list(GET _pair 1 script)
  configure_file(cmake/tool_wrapper.sh.in ${CMAKE_BINARY_DIR}/tool_wrappers/${name} @ONLY)
  install(PROGRAMS ${CMAKE_BINARY_DIR}/tool_wrappers/${name} DESTINATION ${CMAKE_INSTALL_BINDIR})
endforeach()
