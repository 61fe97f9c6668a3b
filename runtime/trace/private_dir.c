/* private_dir.c: traces are private. A trace holds the first bytes of every
 * message and the report built from it embeds source code, so the trace
 * directory is created 0700 and every file the tracer writes 0600, whatever
 * the umask, unless COLLECTIVIZE_TRACE_MODE gives another directory mode
 * (octal, e.g. 0750 to share with the group; files get its read and write
 * bits). The process umask is never changed: it belongs to the user's
 * program, whose other threads may be creating files.
 *
 * Refused: a directory owned by another user (its owner could read or swap
 * the files), and a path that goes through a symbolic link in a directory
 * others can write to (/tmp style), unless the link is ours in a sticky
 * directory: anyone could otherwise point it at a place of their choosing. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracer.h"

mode_t czt_dir_mode(void) {
  static mode_t mode;
  if (mode) return mode;
  mode_t m = 0700;
  const char *v = getenv("COLLECTIVIZE_TRACE_MODE");
  if (v && *v) {
    char *end;
    long parsed = strtol(v, &end, 8);
    if (*end == '\0' && parsed >= 0 && parsed <= 0777 && (parsed & 0700) == 0700)
      m = (mode_t)parsed;
    else if (czt.rank == 0)
      czi_warn("trace: COLLECTIVIZE_TRACE_MODE=%s is not an octal directory mode that "
               "lets its owner in (e.g. 0750); using 0700", v);
  }
  return mode = m;
}

mode_t czt_file_mode(void) { return czt_dir_mode() & 0666; }

int czt_open_private(const char *path, int flags) {
  int fd = open(path, flags | O_CREAT | O_CLOEXEC, czt_file_mode());
  /* open() applies the umask, which may take bits the user asked for. */
  if (fd >= 0) fchmod(fd, czt_file_mode());
  return fd;
}

FILE *czt_fopen_private(const char *path) {
  int fd = czt_open_private(path, O_WRONLY | O_TRUNC);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!f && fd >= 0) close(fd);
  return f;
}

/* The directory holding `path`'s last component ("." for a bare name). */
static void parent_of(const char *path, char *out, size_t len) {
  snprintf(out, len, "%s", path);
  char *slash = strrchr(out, '/');
  if (!slash) snprintf(out, len, ".");
  else if (slash == out) out[1] = '\0';
  else *slash = '\0';
}

/* A symbolic link among the components of dir that lies in a directory
 * others can write to: 0, or fills why. */
static int check_links(const char *dir, char *why, size_t why_len) {
  char path[PATH_MAX];
  if (strlen(dir) >= sizeof path) return 0;
  strcpy(path, dir);
  for (char *p = path + 1;; p++) {
    char c = *p;
    if (c != '/' && c != '\0') continue;
    *p = '\0';
    struct stat link, parent;
    char up[PATH_MAX];
    parent_of(path, up, sizeof up);
    if (lstat(path, &link) == 0 && S_ISLNK(link.st_mode) && stat(up, &parent) == 0 &&
        (parent.st_mode & S_IWOTH) &&
        !((parent.st_mode & S_ISVTX) && link.st_uid == geteuid())) {
      snprintf(why, why_len,
               "%s is reached through the symbolic link %s in %s, a directory anyone can "
               "write to (anyone could redirect it); give the directory's real path",
               dir, path, up);
      return -1;
    }
    *p = c;
    if (c == '\0') return 0;
  }
}

int czt_make_private_dir(const char *dir, char *why, size_t why_len, int *created_out) {
  char path[4096];
  if (strlen(dir) >= sizeof path) {
    snprintf(why, why_len, "cannot create trace directory %s: %s", dir, strerror(ENAMETOOLONG));
    return -1;
  }
  if (check_links(dir, why, why_len)) return -1;
  strcpy(path, dir);
  mode_t mode = czt_dir_mode();
  int created = 0;
  for (char *p = path + 1;; p++) {
    char c = *p;
    if (c != '/' && c != '\0') continue;
    *p = '\0';
    if (mkdir(path, mode) == 0) created = c == '\0';
    else if (errno != EEXIST) {
      snprintf(why, why_len, "cannot create trace directory %s: %s", dir, strerror(errno));
      return -1;
    }
    *p = c;
    if (c == '\0') break;
  }
  struct stat st;
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
    snprintf(why, why_len, "cannot create trace directory %s: %s", dir,
             strerror(errno ? errno : ENOTDIR));
    return -1;
  }
  if (st.st_uid != geteuid()) {
    snprintf(why, why_len,
             "%s belongs to another user (uid %u): traces are private, trace into a "
             "directory of your own", dir, (unsigned)st.st_uid);
    return -1;
  }
  /* mkdir() applied the umask; an existing (empty) directory of ours gets
   * the trace's mode too. */
  *created_out = created;
  if (chmod(dir, mode) != 0 && created) {
    snprintf(why, why_len, "cannot set the mode of %s: %s", dir, strerror(errno));
    return -1;
  }
  return 0;
}

/* OTF2 creates its files with the umask's mode: they are set to the
 * trace's once written (the directory's mode keeps others out meanwhile). */
void czt_chmod_private(const char *path, int is_dir) {
  chmod(path, is_dir ? czt_dir_mode() : czt_file_mode());
}
