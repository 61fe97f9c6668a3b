// record_codec.cpp: see record_codec.h. Layout: a header of counts, then
// each vector's elements, then the collective names and the error text.
#include "record_codec.h"

#include <stdexcept>
#include <type_traits>

#include "byte_io.h"

namespace cz::detect::parallel::detail {
namespace {

static_assert(std::is_trivially_copyable_v<Message>);
static_assert(std::is_trivially_copyable_v<PostedReceive>);
static_assert(std::is_trivially_copyable_v<KeptBuffer>);
static_assert(std::is_trivially_copyable_v<CommCreation>);

constexpr uint64_t kMagic = 0x435a524543533034ull; // "CZRECS04"

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
  putAll(out, r.created);
  put(out, uint64_t(r.collectives.size()));
  for (const auto &[name, n] : r.collectives) putText(out, name), put(out, n);
  putText(out, r.error);
}

bool decode(const std::vector<char> &in, RankRecords &r, std::string &why) {
  ByteReader rd{in.data(), in.size()};
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
  rd.getAll(r.created);
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

std::vector<RankRecords> inRankOrder(std::vector<std::vector<RankRecords>> byProcess, int ranks) {
  const size_t procs = byProcess.size();
  std::vector<RankRecords> out;
  std::vector<size_t> next(procs, 0);
  for (int r = 0; r < ranks && procs; r++) {
    std::vector<RankRecords> &v = byProcess[size_t(r) % procs];
    size_t &k = next[size_t(r) % procs];
    if (k >= v.size() || v[k].rank != r)
      throw std::runtime_error("rank " + std::to_string(r) + "'s records are missing");
    out.push_back(std::move(v[k++]));
  }
  return out;
}

} // namespace cz::detect::parallel::detail
