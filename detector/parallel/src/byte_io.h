// byte_io.h: plain values and vectors of plain structs as bytes, for what
// the parallel mode's processes send each other (one build of one tool on
// one machine: memory images), and a reader that refuses short input.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace cz::detect::parallel::detail {

template <class T>
void put(std::vector<char> &out, const T &v) {
  static_assert(std::is_trivially_copyable_v<T>);
  const char *p = reinterpret_cast<const char *>(&v);
  out.insert(out.end(), p, p + sizeof v);
}
template <class T>
void putAll(std::vector<char> &out, const std::vector<T> &v) {
  static_assert(std::is_trivially_copyable_v<T>);
  put(out, uint64_t(v.size()));
  const char *p = reinterpret_cast<const char *>(v.data());
  out.insert(out.end(), p, p + v.size() * sizeof(T));
}
inline void putText(std::vector<char> &out, const std::string &s) {
  put(out, uint64_t(s.size()));
  out.insert(out.end(), s.begin(), s.end());
}

struct ByteReader {
  const char *data;
  size_t size, at = 0;
  bool ok = true;
  template <class T>
  T get() {
    T v{};
    if (size - at < sizeof v) {
      ok = false;
      return v;
    }
    std::memcpy(&v, data + at, sizeof v);
    at += sizeof v;
    return v;
  }
  template <class T>
  void getAll(std::vector<T> &v) {
    uint64_t n = get<uint64_t>();
    if (!ok || n > (size - at) / sizeof(T)) {
      ok = false;
      return;
    }
    v.resize(n);
    // An empty vector's data() may be null, which memcpy must not get
    // even for zero bytes.
    if (n) std::memcpy(v.data(), data + at, n * sizeof(T));
    at += n * sizeof(T);
  }
  std::string text() {
    uint64_t n = get<uint64_t>();
    if (!ok || n > size - at) {
      ok = false;
      return {};
    }
    std::string s(data + at, n);
    at += n;
    return s;
  }
};

} // namespace cz::detect::parallel::detail
