// byte_source.cpp: see byte_source.h.
#include "byte_source.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace cz::trace::detail {

size_t ByteSource::read(void *buf, size_t n, uint64_t off) const {
  if (off >= size_) return 0;
  if (n > size_ - off) n = size_t(size_ - off);
  if (data_) {
    std::memcpy(buf, data_ + off, n);
    return n;
  }
  size_t done = 0;
  while (done < n) {
    ssize_t r = pread(fd_, static_cast<char *>(buf) + done, n - done, off_t(off + done));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    done += size_t(r);
  }
  return done;
}

} // namespace cz::trace::detail
