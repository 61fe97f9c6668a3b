// repair.cpp: turning what a killed run left into a readable trace.
//
// While rank N runs, its events are fixed records in rank-N.ring and
// rank-N.log (runtime/trace/defs/event_log.h), which MPI_Finalize encodes into
// traces/N.evt.
// A run that never reached MPI_Finalize has records (rank-N.ring and
// rank-N.log) but no event files, no global definitions and no anchor.
// Repair, per rank that did not finish: encode its records (up to the last
// whole one) into N.evt with the tracer's own encoder; then write local and global definitions
// (communicators from rank-N.comms) and the anchor, and remove the logs.
// Ranks that finished (rank-N.done) keep their N.evt as it is.
#include "collectivize/trace_reader.h"
#include "otf2_validate.h"
#include "rank_fate.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <otf2/otf2.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <memory>
#include <optional>

#include "collectivize_trace_format.h"
#include "event_log.h"
#include "global_defs.h"

namespace cz::trace {
namespace {

constexpr uint64_t kChunk = CZ_TRACE_EVENT_CHUNK_BYTES;
constexpr uint8_t kChunkHeader = 0x03, kBigEndian = 0x23;

bool exists(const std::string &p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0;
}

uint64_t get64(const uint8_t *p, bool big) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v |= uint64_t(p[big ? 7 - i : i]) << (8 * i);
  return v;
}

struct Chunk {
  std::vector<uint8_t> bytes;
  uint64_t first = 0, last = 0; // event numbers from the header
  bool big = false;
};

bool parseHeader(Chunk &c) {
  if (c.bytes.size() < 18 || c.bytes[0] != kChunkHeader) return false;
  c.big = c.bytes[1] == kBigEndian;
  c.first = get64(&c.bytes[2], c.big);
  c.last = get64(&c.bytes[10], c.big);
  return c.first >= 1;
}

Result<std::vector<uint8_t>> readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path, -1, std::string("cannot read: ") + std::strerror(errno)};
  std::vector<uint8_t> b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return Error{path, -1, "read error"};
  return b;
}

struct Span {
  uint64_t events = 0, first = 0, last = 0;
};

// Bytes [off, off + n) of a file (fewer at its end).
Result<std::vector<uint8_t>> readRange(const std::string &path, uint64_t off, uint64_t n) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path, -1, std::string("cannot read: ") + std::strerror(errno)};
  in.seekg(std::streamoff(off));
  std::vector<uint8_t> b(n);
  in.read(reinterpret_cast<char *>(b.data()), std::streamsize(n));
  b.resize(size_t(in.gcount()));
  return b;
}

// Event count and time span of a finished .evt file, from its first and
// last chunks.
Result<Span> spanOf(const std::string &path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return Error{path, -1, "cannot stat"};
  uint64_t n = uint64_t(st.st_size), lastOff = n ? (n - 1) / kChunk * kChunk : 0;
  Result<std::vector<uint8_t>> head = readRange(path, 0, kChunk);
  if (!head) return head.error();
  Result<std::vector<uint8_t>> tail = readRange(path, lastOff, kChunk);
  if (!tail) return tail.error();
  Chunk t;
  t.bytes = *tail;
  detail::ChunkWalk h = detail::walkEventChunk(*head, 0);
  detail::ChunkWalk l = detail::walkEventChunk(t.bytes, parseHeader(t) ? t.first - 1 : 0);
  return Span{l.events, h.firstTime.value_or(0), l.lastTime.value_or(h.firstTime.value_or(0))};
}

// Communicator definitions a rank saved: whole definitions only.
std::vector<uint64_t> readComms(const std::string &path, int ranks) {
  std::vector<uint64_t> words;
  Result<std::vector<uint8_t>> b = readFile(path);
  if (!b) return words;
  size_t n = b->size() / 8;
  std::vector<uint64_t> all(n);
  if (n) std::memcpy(all.data(), b->data(), n * 8);
  for (size_t i = 0; i + 4 <= n;) {
    uint64_t size = all[i + 3];
    if (size == 0 || size > uint64_t(ranks) || size > n - i - 4) break;
    words.insert(words.end(), all.begin() + i, all.begin() + i + 4 + size);
    i += 4 + size;
  }
  return words;
}

OTF2_FlushType preFlush(void *, OTF2_FileType, OTF2_LocationRef, void *, bool) {
  return OTF2_FLUSH;
}
OTF2_TimeStamp postFlush(void *, OTF2_FileType, OTF2_LocationRef) { return 0; }

std::string rankFile(const std::string &dir, const char *fmt, int rank) {
  char name[64];
  std::snprintf(name, sizeof name, fmt, rank);
  return dir + "/" + name;
}

// Encodes the records of the ranks in `logs` (rank -> log path; the ring
// beside it) into their event files, then writes the definitions with
// their spans.
Result<bool> writeArchiveFiles(const std::string &dir, czt_global_info info,
                               std::vector<czt_rank_span> &spans,
                               const std::vector<std::string> &logs) {
  OTF2_Archive *a = OTF2_Archive_Open(dir.c_str(), CZ_TRACE_ARCHIVE, OTF2_FILEMODE_WRITE,
                                      kChunk, CZ_TRACE_DEF_CHUNK_BYTES, OTF2_SUBSTRATE_POSIX,
                                      OTF2_COMPRESSION_NONE);
  if (!a) return Error{dir + "/" CZ_TRACE_ARCHIVE ".otf2", -1, "OTF2 cannot create the archive"};
  OTF2_FlushCallbacks flush = {preFlush, postFlush};
  bool ok = OTF2_Archive_SetFlushCallbacks(a, &flush, nullptr) == OTF2_SUCCESS &&
            OTF2_Archive_SetSerialCollectiveCallbacks(a) == OTF2_SUCCESS &&
            OTF2_Archive_SetCreator(a, "collectivize trace repair") == OTF2_SUCCESS &&
            OTF2_Archive_OpenEvtFiles(a) == OTF2_SUCCESS;
  std::optional<Error> logError;
  for (int r = 0; ok && !logError && r < info.ranks; r++) {
    if (logs[size_t(r)].empty()) continue;
    OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(a, OTF2_LocationRef(r));
    char why[600] = "";
    if (!w) {
      ok = false;
    } else if (czt_log_convert(logs[size_t(r)].c_str(),
                               rankFile(dir, CZ_TRACE_RING_FMT, r).c_str(), w,
                               &spans[size_t(r)], why, sizeof why)) {
      logError = Error{logs[size_t(r)], -1, why};
    }
    if (w && OTF2_Archive_CloseEvtWriter(a, w) != OTF2_SUCCESS) ok = false;
  }
  ok = OTF2_Archive_CloseEvtFiles(a) == OTF2_SUCCESS && ok;
  ok = ok && !logError && OTF2_Archive_OpenDefFiles(a) == OTF2_SUCCESS;
  size_t nRefs = 0;
  std::unique_ptr<uint32_t, decltype(&std::free)> refs(
      czt_comm_refs_sorted(info.comm_words, info.n_comm_words, &nRefs), &std::free);
  for (int r = 0; ok && !logError && r < info.ranks; r++) {
    OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(a, OTF2_LocationRef(r));
    ok = dw && czt_write_comm_mapping(dw, refs.get(), nRefs) == 0;
    ok = dw && OTF2_Archive_CloseDefWriter(a, dw) == OTF2_SUCCESS && ok;
  }
  ok = ok && !logError && OTF2_Archive_CloseDefFiles(a) == OTF2_SUCCESS;
  info.spans = spans.data();
  ok = ok && !logError && czt_write_global_defs(a, &info) == 0;
  ok = OTF2_Archive_Close(a) == OTF2_SUCCESS && ok;
  if (logError) return *logError;
  if (!ok) return Error{dir + "/" CZ_TRACE_ARCHIVE ".otf2", -1, "OTF2 could not write the trace"};
  return true;
}

// OTF2 creates the archive's directory itself and refuses an existing one:
// the event files of finished ranks wait beside it and move in afterwards.
// On failure the directory is as before.
Result<bool> writeArchive(const std::string &dir, const czt_global_info &info,
                          std::vector<czt_rank_span> &spans,
                          const std::vector<std::string> &logs) {
  std::string evtDir = dir + "/" CZ_TRACE_ARCHIVE, aside = dir + "/" CZ_TRACE_ARCHIVE ".repairing";
  std::string anchor = evtDir + ".otf2", globalDefs = evtDir + ".def";
  bool moved = exists(evtDir);
  if (moved && std::rename(evtDir.c_str(), aside.c_str()) != 0)
    return Error{evtDir, -1, std::string("cannot move aside: ") + std::strerror(errno)};
  // The anchor and global definitions of a finished run are replaced.
  std::string oldAnchor = anchor + ".repairing", oldDefs = globalDefs + ".repairing";
  bool anchored = exists(anchor);
  if (anchored && (std::rename(anchor.c_str(), oldAnchor.c_str()) != 0 ||
                   std::rename(globalDefs.c_str(), oldDefs.c_str()) != 0)) {
    Error e{anchor, -1, std::string("cannot move aside: ") + std::strerror(errno)};
    std::rename(oldAnchor.c_str(), anchor.c_str());
    if (moved) std::rename(aside.c_str(), evtDir.c_str());
    return e;
  }
  auto restore = [&]() {
    for (int r = 0; r < info.ranks; r++) {
      std::remove((evtDir + "/" + std::to_string(r) + ".def").c_str());
      std::remove((evtDir + "/" + std::to_string(r) + ".evt").c_str());
    }
    rmdir(evtDir.c_str());
    std::remove(anchor.c_str());
    std::remove(globalDefs.c_str());
    if (moved) std::rename(aside.c_str(), evtDir.c_str());
    if (anchored) {
      std::rename(oldAnchor.c_str(), anchor.c_str());
      std::rename(oldDefs.c_str(), globalDefs.c_str());
    }
  };
  Result<bool> written = writeArchiveFiles(dir, info, spans, logs);
  if (!written) {
    restore();
    return written;
  }
  for (int r = 0; moved && r < info.ranks; r++) {
    std::string name = "/" + std::to_string(r) + ".evt";
    if (!logs[size_t(r)].empty()) { // re-encoded from the log
      std::remove((aside + name).c_str());
      continue;
    }
    if (exists(aside + name) && std::rename((aside + name).c_str(), (evtDir + name).c_str()) != 0) {
      Error e{aside + name, -1, std::string("cannot move back: ") + std::strerror(errno)};
      for (int q = 0; q < r; q++) {
        std::string back = "/" + std::to_string(q) + ".evt";
        if (logs[size_t(q)].empty()) std::rename((evtDir + back).c_str(), (aside + back).c_str());
      }
      restore();
      return e;
    }
  }
  if (moved) {
    // Local definition files of the finished run, replaced by new ones.
    for (int r = 0; r < info.ranks; r++)
      std::remove((aside + "/" + std::to_string(r) + ".def").c_str());
    rmdir(aside.c_str());
  }
  if (anchored) {
    std::remove(oldAnchor.c_str());
    std::remove(oldDefs.c_str());
  }
  return true;
}

// The files repair wrote (OTF2 creates them with the umask's mode) get the
// trace directory's privacy: its read and write bits (0600 under the
// tracer's 0700), the archive's directory the directory's own mode.
void matchDirectoryMode(const std::string &dir) {
  struct stat st;
  if (stat(dir.c_str(), &st) != 0) return;
  mode_t dirMode = st.st_mode & 0777, fileMode = dirMode & 0666;
  std::string archive = dir + "/" CZ_TRACE_ARCHIVE;
  chmod(archive.c_str(), dirMode);
  chmod((archive + ".otf2").c_str(), fileMode);
  chmod((archive + ".def").c_str(), fileMode);
  chmod((dir + "/" CZ_TRACE_MANIFEST).c_str(), fileMode);
  if (std::unique_ptr<DIR, int (*)(DIR *)> d{opendir(archive.c_str()), closedir}; d)
    while (dirent *e = readdir(d.get()))
      if (e->d_name[0] != '.') chmod((archive + "/" + e->d_name).c_str(), fileMode);
}

} // namespace

Result<RepairReport> repair(const std::string &dirIn) {
  std::string dir = dirIn;
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  std::string manifestPath = dir + "/" CZ_TRACE_MANIFEST;
  if (!exists(manifestPath))
    return Error{dir, -1, "not a Collectivize trace (no " CZ_TRACE_MANIFEST ")"};
  Result<Manifest> manifest = detail::readManifest(manifestPath);
  if (!manifest) return manifest.error();
  int ranks = manifest->ranks;
  if (ranks < 1) return Error{manifestPath, -1, "the manifest does not say how many ranks ran"};
  // A finished run has its anchor; it still needs repair when a rank could
  // not write its OTF2 events (full disk) and left its records behind.
  bool anchored = exists(dir + "/" CZ_TRACE_ARCHIVE ".otf2"), leftRecords = false;
  for (int r = 0; anchored && r < ranks; r++)
    leftRecords = leftRecords || (!exists(rankFile(dir, CZ_TRACE_DONE_FMT, r)) &&
                                  (exists(rankFile(dir, CZ_TRACE_LOG_FMT, r)) ||
                                   exists(rankFile(dir, CZ_TRACE_RING_FMT, r))));
  if (anchored && !leftRecords) {
    auto when = manifest->other.find("repaired");
    if (when != manifest->other.end()) {
      RepairReport before;
      before.alreadyRepaired = std::atoll(when->second.c_str());
      if (before.alreadyRepaired > 0) return before;
    }
    return Error{dir, -1, "nothing to repair: the trace has its OTF2 anchor (the run finished)"};
  }

  RepairReport report;
  std::vector<czt_rank_span> spans(size_t(ranks), czt_rank_span{0, 0, 0});
  std::vector<std::string> logs(static_cast<size_t>(ranks));
  std::vector<uint64_t> comms;
  for (int r = 0; r < ranks; r++) {
    RankRepair rr;
    rr.rank = r;
    rr.finished = exists(rankFile(dir, CZ_TRACE_DONE_FMT, r));
    std::string evtPath = dir + "/" CZ_TRACE_ARCHIVE "/" + std::to_string(r) + ".evt";
    std::string logPath = rankFile(dir, CZ_TRACE_LOG_FMT, r);
    std::vector<uint64_t> mine = readComms(rankFile(dir, CZ_TRACE_COMMS_FMT, r), ranks);
    comms.insert(comms.end(), mine.begin(), mine.end());
    rr.logFile = exists(logPath) || exists(rankFile(dir, CZ_TRACE_RING_FMT, r));
    if (rr.finished) {
      detail::FileCheck c = detail::checkChunkedFile(evtPath, kChunk, true);
      if (c.state == detail::FileState::Corrupt) return Error{evtPath, c.offset, c.reason};
      rr.events = c.readableEvents;
      // Time span: first timestamp of the first chunk, last of the last.
      Result<Span> sp = spanOf(evtPath);
      if (!sp) return sp.error();
      spans[size_t(r)] = {sp->events, sp->first, sp->last};
    } else if (rr.logFile) {
      logs[size_t(r)] = logPath; // encoded below, with the definitions
    }
    report.ranks.push_back(rr);
  }

  // A killed run told nobody its nodes: one node for all.
  czt_global_info info{ranks, spans.data(), comms.data(), comms.size(), "", 0, nullptr, 0};
  info.realtime_at_first = uint64_t(manifest->started) * 1000000000u;
  Result<bool> written = writeArchive(dir, info, spans, logs);
  if (!written) return written.error();
  for (RankRepair &rr : report.ranks) {
    if (rr.finished) continue;
    rr.events = spans[size_t(rr.rank)].events;
    detail::RankFate fate = detail::rankFate(dir, rr.rank);
    rr.fate = detail::describeFate(fate);
    // Only the writing failed: with its records encoded, the rank's trace
    // is as complete as a finished one.
    if (fate.recordsWhole())
      rr.completed = bool(std::ofstream(rankFile(dir, CZ_TRACE_DONE_FMT, rr.rank))
                          << "events " << rr.events << "\n");
  }
  for (int r = 0; r < ranks; r++) {
    std::remove(rankFile(dir, CZ_TRACE_LOG_FMT, r).c_str());
    std::remove(rankFile(dir, CZ_TRACE_RING_FMT, r).c_str());
    std::remove(rankFile(dir, CZ_TRACE_COMMS_FMT, r).c_str());
  }
  std::ofstream(manifestPath, std::ios::app) << "repaired " << (long long)std::time(nullptr) << "\n";
  matchDirectoryMode(dir);
  report.communicators = 0;
  for (size_t i = 0; i + 4 <= comms.size(); i += 4 + comms[i + 3]) report.communicators++;
  return report;
}

} // namespace cz::trace
