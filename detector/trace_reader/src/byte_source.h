// byte_source.h: where the bytes of an OTF2 chunked file come from: the
// file itself (pread, for the reader) or a buffer in memory (for tests and
// the fuzz targets, which check validation and decoding at thousands of
// inputs a second without touching the file system). The validator and
// the direct event reader take either.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cz::trace::detail {

class ByteSource {
public:
  // A buffer owned by the caller, alive while the source is used.
  static ByteSource memory(const uint8_t *data, size_t size) { return ByteSource(-1, data, size); }
  // An open file of `size` bytes (not closed here).
  static ByteSource file(int fd, uint64_t size) { return ByteSource(fd, nullptr, size); }

  uint64_t size() const { return size_; }
  // Copies up to n bytes from offset `off` into buf and returns how many:
  // fewer at the end of the data, 0 past it or on a read error.
  size_t read(void *buf, size_t n, uint64_t off) const;
  // Exactly n bytes, or false.
  bool readAll(void *buf, size_t n, uint64_t off) const { return read(buf, n, off) == n; }

private:
  ByteSource(int fd, const uint8_t *data, uint64_t size) : fd_(fd), data_(data), size_(size) {}
  int fd_;
  const uint8_t *data_;
  uint64_t size_;
};

} // namespace cz::trace::detail
