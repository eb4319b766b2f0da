# Warnings and sanitizers go on desync's own targets only, never into global flags.
add_library(desync_flags INTERFACE)
target_compile_options(desync_flags INTERFACE
  $<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang>:-Wall -Wextra -Wshadow -Wno-unused-parameter>)
if(desync_ENABLE_SANITIZERS)
  target_compile_options(desync_flags INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer)
  target_link_options(desync_flags INTERFACE -fsanitize=address,undefined)
endif()
