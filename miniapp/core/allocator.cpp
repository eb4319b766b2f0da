#include "core/allocator.hpp"

#include <cstddef>
#if defined(__GLIBC__)
#include <gnu/libc-version.h>
#endif

// jemalloc's control interface, weak: null when the process runs on another malloc, so the answer
// is right for a build without jemalloc and for one run under LD_PRELOAD alike.
extern "C" int mallctl(const char* name, void* oldp, std::size_t* oldlenp, void* newp, std::size_t newlen)
    __attribute__((weak));

namespace desync {

std::string allocator_description() {
  if (mallctl != nullptr) {
    const char* version = nullptr;
    std::size_t len = sizeof version;
    if (mallctl("version", &version, &len, nullptr, 0) == 0 && version != nullptr)
      return std::string("jemalloc ") + version;
    return "jemalloc";
  }
#if defined(__GLIBC__)
  return std::string("glibc malloc ") + gnu_get_libc_version();
#else
  return "system malloc";
#endif
}

}  // namespace desync
