/* objects.c: where this rank's code is loaded, for turning the return
 * addresses recorded as call sites (binaries the instrumenter did not see)
 * into file:line later. One line per executable segment of every loaded
 * object in <dir>/rank-N.objects: "START END BIAS PATH" (hex addresses;
 * PATH the object file; BIAS what to subtract to get its file addresses). */
#define _GNU_SOURCE
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tracer.h"

static int one_object(struct dl_phdr_info *info, size_t size, void *data) {
  FILE *f = data;
  char exe[4096];
  const char *path = info->dlpi_name;
  if (!path || !*path) { /* the main program */
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return 0;
    exe[n] = '\0';
    path = exe;
  }
  if (path[0] != '/') return 0; /* the vDSO and friends */
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X)) continue;
    uintptr_t start = info->dlpi_addr + ph->p_vaddr;
    fprintf(f, "%lx %lx %lx %s\n", (unsigned long)start,
            (unsigned long)(start + ph->p_memsz), (unsigned long)info->dlpi_addr, path);
  }
  return 0;
}

void czt_write_objects(const char *dir) {
  char path[4200];
  snprintf(path, sizeof path, "%s/" CZ_TRACE_OBJECTS_FMT, dir, czt.rank);
  FILE *f = czt_fopen_private(path);
  if (!f) return; /* sites stay raw addresses */
  dl_iterate_phdr(one_object, f);
  fclose(f);
}
