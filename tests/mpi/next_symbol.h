// next_symbol.h: the MPI library's function of a name this test program
// defines itself (a PMPI_<coll> that records the runtime's calls and then
// forwards them): looked up past the program's definition.
#pragma once

#include <dlfcn.h>

#include <cstdlib>

namespace cztest {

template <typename Fn> Fn nextSymbol(const char *name) {
  static_assert(sizeof(Fn) == sizeof(void *), "a function pointer");
  void *f = dlsym(RTLD_NEXT, name);
  if (!f) std::abort();
  Fn fn;
  __builtin_memcpy(&fn, &f, sizeof fn);
  return fn;
}

} // namespace cztest
