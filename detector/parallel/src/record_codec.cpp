// record_codec.cpp: see record_codec.h. Layout: a header of counts, then
// each vector's elements, then the collective names and the error text.
#include "record_codec.h"

#include <cstring>
#include <type_traits>

namespace cz::detect::parallel::detail {
namespace {

static_assert(std::is_trivially_copyable_v<Message>);
static_assert(std::is_trivially_copyable_v<PostedReceive>);
static_assert(std::is_trivially_copyable_v<KeptBuffer>);

constexpr uint64_t kMagic = 0x435a524543533031ull; // "CZRECS01"

template <class T>
void put(std::vector<char> &out, const T &v) {
  const char *p = reinterpret_cast<const char *>(&v);
  out.insert(out.end(), p, p + sizeof v);
}
template <class T>
void putAll(std::vector<char> &out, const std::vector<T> &v) {
  put(out, uint64_t(v.size()));
  const char *p = reinterpret_cast<const char *>(v.data());
  out.insert(out.end(), p, p + v.size() * sizeof(T));
}
void putText(std::vector<char> &out, const std::string &s) {
  put(out, uint64_t(s.size()));
  out.insert(out.end(), s.begin(), s.end());
}

struct Reader {
  const std::vector<char> &in;
  size_t at = 0;
  bool ok = true;
  template <class T>
  T get() {
    T v{};
    if (at + sizeof v > in.size()) {
      ok = false;
      return v;
    }
    std::memcpy(&v, in.data() + at, sizeof v);
    at += sizeof v;
    return v;
  }
  template <class T>
  void getAll(std::vector<T> &v) {
    uint64_t n = get<uint64_t>();
    if (!ok || n > (in.size() - at) / sizeof(T)) {
      ok = false;
      return;
    }
    v.resize(n);
    std::memcpy(v.data(), in.data() + at, n * sizeof(T));
    at += n * sizeof(T);
  }
  std::string text() {
    uint64_t n = get<uint64_t>();
    if (!ok || n > in.size() - at) {
      ok = false;
      return {};
    }
    std::string s(in.data() + at, n);
    at += n;
    return s;
  }
};

} // namespace

void encode(const RankRecords &r, std::vector<char> &out) {
  out.clear();
  out.reserve(64 + r.sends.size() * sizeof(Message) +
              r.receives.size() * sizeof(PostedReceive) + r.kept.size() * sizeof(KeptBuffer));
  put(out, kMagic);
  put(out, int64_t(r.rank));
  put(out, r.events), put(out, r.sendCalls), put(out, r.receiveCalls);
  put(out, r.unhashedSends), put(out, r.noPeer);
  putAll(out, r.sends);
  putAll(out, r.receives);
  putAll(out, r.kept);
  put(out, uint64_t(r.collectives.size()));
  for (const auto &[name, n] : r.collectives) putText(out, name), put(out, n);
  putText(out, r.error);
}

bool decode(const std::vector<char> &in, RankRecords &r, std::string &why) {
  Reader rd{in};
  if (rd.get<uint64_t>() != kMagic) {
    why = "records from another version of collectivize";
    return false;
  }
  r.rank = int(rd.get<int64_t>());
  r.events = rd.get<uint64_t>(), r.sendCalls = rd.get<uint64_t>();
  r.receiveCalls = rd.get<uint64_t>(), r.unhashedSends = rd.get<uint64_t>();
  r.noPeer = rd.get<uint64_t>();
  rd.getAll(r.sends);
  rd.getAll(r.receives);
  rd.getAll(r.kept);
  uint64_t names = rd.get<uint64_t>();
  for (uint64_t k = 0; rd.ok && k < names; k++) {
    std::string name = rd.text();
    r.collectives[name] = rd.get<uint64_t>();
  }
  r.error = rd.text();
  if (!rd.ok || rd.at != in.size()) {
    why = "truncated or malformed records";
    return false;
  }
  return true;
}

} // namespace cz::detect::parallel::detail
