// repair.cpp: turning what a killed run left into a readable trace.
//
// While rank N runs, OTF2 encodes its events into chunks held in
// rank-N.chunks (a file-backed mapping, see runtime/trace/chunk_arena.c) and
// appends full sets of chunks to traces/N.evt. A run that never reached
// MPI_Finalize has no anchor and no global definitions, and its newest
// chunks are only in rank-N.chunks. Repair, per rank: keep the whole chunks
// of N.evt, append the recovery chunks that continue their event numbers,
// end the last chunk after its last whole record with OTF2's end-of-file
// mark and its event count in the header; then write local and global
// definitions (communicators from rank-N.comms) and the anchor, and remove
// the recovery files. Ranks that finished (rank-N.done) are left as they
// are.
#include "collectivize/trace_reader.h"
#include "otf2_validate.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <otf2/otf2.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>

#include "collectivize_trace_format.h"
#include "global_defs.h"

namespace cz::trace {
namespace {

constexpr uint64_t kChunk = CZ_TRACE_EVENT_CHUNK_BYTES;
constexpr uint8_t kChunkHeader = 0x03, kEndOfFile = 0x02, kBigEndian = 0x23;

bool exists(const std::string &p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0;
}

uint64_t get64(const uint8_t *p, bool big) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v |= uint64_t(p[big ? 7 - i : i]) << (8 * i);
  return v;
}
void put64(uint8_t *p, uint64_t v, bool big) {
  for (int i = 0; i < 8; i++) p[big ? 7 - i : i] = uint8_t(v >> (8 * i));
}

struct Chunk {
  std::vector<uint8_t> bytes;
  uint64_t first = 0, last = 0; // event numbers from the header
  bool big = false;
  bool whole() const { return last + 1 > first; } // header completed
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

// The event chunks of one rank, in order: N.evt's whole chunks, then the
// recovery file's chunks that continue them.
struct RankChunks {
  std::vector<Chunk> chunks;
  uint64_t fromEvt = 0, fromRecovery = 0; // chunk counts
};

Result<RankChunks> collect(const std::string &evtPath, const std::string &chunksPath) {
  RankChunks rc;
  uint64_t expect = 1;
  if (exists(evtPath)) {
    Result<std::vector<uint8_t>> evt = readFile(evtPath);
    if (!evt) return evt.error();
    const std::vector<uint8_t> &b = *evt;
    // A partial chunk at the end is a flush the kill interrupted: its
    // chunks are still in the recovery file.
    for (uint64_t off = 0; off + kChunk <= b.size(); off += kChunk) {
      Chunk c;
      c.bytes.assign(b.begin() + off, b.begin() + off + kChunk);
      if (!parseHeader(c) || c.first != expect || !c.whole()) break;
      expect = c.last + 1;
      rc.chunks.push_back(std::move(c));
      rc.fromEvt++;
    }
  }
  if (exists(chunksPath)) {
    Result<std::vector<uint8_t>> arena = readFile(chunksPath);
    if (!arena) return arena.error();
    std::vector<Chunk> slots;
    for (uint64_t off = 0; off + kChunk <= arena->size(); off += kChunk) {
      Chunk c;
      c.bytes.assign(arena->begin() + off, arena->begin() + off + kChunk);
      if (parseHeader(c)) slots.push_back(std::move(c));
    }
    std::sort(slots.begin(), slots.end(),
              [](const Chunk &a, const Chunk &b) { return a.first < b.first; });
    for (Chunk &c : slots) {
      if (c.first < expect) continue; // already in N.evt
      if (c.first != expect) break;   // a gap: what follows is unusable
      bool whole = c.whole();
      expect = whole ? c.last + 1 : expect;
      rc.chunks.push_back(std::move(c));
      rc.fromRecovery++;
      if (!whole) break; // the chunk OTF2 was filling: the last one
    }
  }
  return rc;
}

// Ends the last chunk after its last whole record: header event count,
// end-of-file mark, shorter than a chunk (as OTF2 closes a file).
void finishLast(Chunk &c, detail::ChunkWalk &walk) {
  put64(&c.bytes[10], walk.events, c.big);
  c.bytes.resize(walk.eventEnd);
  c.bytes.push_back(kEndOfFile);
}

Result<bool> writeEvt(const std::string &path, const std::vector<Chunk> &chunks) {
  std::string tmp = path + ".repair";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    for (const Chunk &c : chunks)
      out.write(reinterpret_cast<const char *>(c.bytes.data()), std::streamsize(c.bytes.size()));
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      return Error{tmp, -1, std::string("cannot write: ") + std::strerror(errno)};
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    return Error{path, -1, std::string("cannot replace: ") + std::strerror(errno)};
  return true;
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

Result<bool> writeArchiveFiles(const std::string &dir, const czt_global_info &info) {
  OTF2_Archive *a = OTF2_Archive_Open(dir.c_str(), CZ_TRACE_ARCHIVE, OTF2_FILEMODE_WRITE,
                                      kChunk, CZ_TRACE_DEF_CHUNK_BYTES, OTF2_SUBSTRATE_POSIX,
                                      OTF2_COMPRESSION_NONE);
  if (!a) return Error{dir + "/" CZ_TRACE_ARCHIVE ".otf2", -1, "OTF2 cannot create the archive"};
  OTF2_FlushCallbacks flush = {preFlush, postFlush};
  bool ok = OTF2_Archive_SetFlushCallbacks(a, &flush, nullptr) == OTF2_SUCCESS &&
            OTF2_Archive_SetSerialCollectiveCallbacks(a) == OTF2_SUCCESS &&
            OTF2_Archive_SetCreator(a, "collectivize trace repair") == OTF2_SUCCESS &&
            OTF2_Archive_OpenDefFiles(a) == OTF2_SUCCESS;
  for (int r = 0; ok && r < info.ranks; r++) {
    OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(a, OTF2_LocationRef(r));
    ok = dw && OTF2_Archive_CloseDefWriter(a, dw) == OTF2_SUCCESS;
  }
  ok = ok && OTF2_Archive_CloseDefFiles(a) == OTF2_SUCCESS;
  ok = ok && czt_write_global_defs(a, &info) == 0;
  ok = OTF2_Archive_Close(a) == OTF2_SUCCESS && ok;
  if (!ok) return Error{dir + "/" CZ_TRACE_ARCHIVE ".otf2", -1, "OTF2 could not write the definitions"};
  return true;
}

// OTF2 creates the archive's directory itself and refuses an existing one:
// the event files wait beside it and move in afterwards. On failure the
// directory is as before.
Result<bool> writeDefinitions(const std::string &dir, const czt_global_info &info) {
  std::string evtDir = dir + "/" CZ_TRACE_ARCHIVE, aside = dir + "/" CZ_TRACE_ARCHIVE ".repairing";
  std::string anchor = evtDir + ".otf2", globalDefs = evtDir + ".def";
  bool moved = exists(evtDir);
  if (moved && std::rename(evtDir.c_str(), aside.c_str()) != 0)
    return Error{evtDir, -1, std::string("cannot move aside: ") + std::strerror(errno)};
  Result<bool> written = writeArchiveFiles(dir, info);
  auto restore = [&]() {
    for (int r = 0; r < info.ranks; r++)
      std::remove((evtDir + "/" + std::to_string(r) + ".def").c_str());
    rmdir(evtDir.c_str());
    std::remove(anchor.c_str());
    std::remove(globalDefs.c_str());
    if (moved) std::rename(aside.c_str(), evtDir.c_str());
  };
  if (!written) {
    restore();
    return written;
  }
  for (int r = 0; moved && r < info.ranks; r++) {
    std::string name = "/" + std::to_string(r) + ".evt";
    if (exists(aside + name) && std::rename((aside + name).c_str(), (evtDir + name).c_str()) != 0) {
      Error e{aside + name, -1, std::string("cannot move back: ") + std::strerror(errno)};
      for (int q = 0; q < r; q++) {
        std::string back = "/" + std::to_string(q) + ".evt";
        std::rename((evtDir + back).c_str(), (aside + back).c_str());
      }
      restore();
      return e;
    }
  }
  if (moved) rmdir(aside.c_str());
  return true;
}

} // namespace

Result<RepairReport> repair(const std::string &dirIn) {
  std::string dir = dirIn;
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  std::string manifestPath = dir + "/" CZ_TRACE_MANIFEST;
  if (!exists(manifestPath))
    return Error{dir, -1, "not a Collectivize trace (no " CZ_TRACE_MANIFEST ")"};
  if (exists(dir + "/" CZ_TRACE_ARCHIVE ".otf2"))
    return Error{dir, -1, "nothing to repair: the trace has its OTF2 anchor (the run finished)"};
  Result<Manifest> manifest = detail::readManifest(manifestPath);
  if (!manifest) return manifest.error();
  int ranks = manifest->ranks;
  if (ranks < 1) return Error{manifestPath, -1, "the manifest does not say how many ranks ran"};

  RepairReport report;
  std::vector<czt_rank_span> spans(size_t(ranks), czt_rank_span{0, 0, 0});
  std::vector<uint64_t> comms;
  for (int r = 0; r < ranks; r++) {
    RankRepair rr;
    rr.rank = r;
    char name[64];
    std::snprintf(name, sizeof name, CZ_TRACE_DONE_FMT, r);
    rr.finished = exists(dir + "/" + name);
    std::string evtPath = dir + "/" CZ_TRACE_ARCHIVE "/" + std::to_string(r) + ".evt";
    std::snprintf(name, sizeof name, CZ_TRACE_CHUNKS_FMT, r);
    std::string chunksPath = dir + "/" + name;
    std::snprintf(name, sizeof name, CZ_TRACE_COMMS_FMT, r);
    std::vector<uint64_t> mine = readComms(dir + "/" + name, ranks);
    comms.insert(comms.end(), mine.begin(), mine.end());
    rr.recoveryFile = exists(chunksPath);

    if (rr.finished) {
      detail::FileCheck c = detail::checkChunkedFile(evtPath, kChunk, true);
      if (c.state == detail::FileState::Corrupt) return Error{evtPath, c.offset, c.reason};
      rr.flushedEvents = c.readableEvents;
    }
    if (!rr.finished) {
      Result<RankChunks> rc = collect(evtPath, chunksPath);
      if (!rc) return rc.error();
      if (!rc->chunks.empty()) {
        Chunk &last = rc->chunks.back();
        detail::ChunkWalk w = detail::walkEventChunk(last.bytes, last.first - 1);
        if (w.state == detail::FileState::Corrupt)
          return Error{rc->fromRecovery ? chunksPath : evtPath, -1,
                       "unreadable event chunk: " + w.reason};
        finishLast(last, w);
        rr.flushedEvents = rc->fromEvt ? rc->chunks[rc->fromEvt - 1].last : 0;
        if (rc->fromEvt == rc->chunks.size()) rr.flushedEvents = w.events;
        rr.recoveredEvents = w.events - rr.flushedEvents;
        Result<bool> written = writeEvt(evtPath, rc->chunks);
        if (!written) return written.error();
      }
    }
    // Time span: first timestamp of the first chunk, last of the last
    // (only those two chunks are read).
    if (exists(evtPath)) {
      Result<Span> sp = spanOf(evtPath);
      if (!sp) return sp.error();
      spans[r] = {sp->events, sp->first, sp->last};
    }
    report.ranks.push_back(rr);
  }

  czt_global_info info{ranks, spans.data(), comms.data(), comms.size(), "", 0};
  info.realtime_at_first = uint64_t(manifest->started) * 1000000000u;
  Result<bool> defs = writeDefinitions(dir, info);
  if (!defs) return defs.error();
  for (int r = 0; r < ranks; r++) {
    char name[64];
    std::snprintf(name, sizeof name, CZ_TRACE_CHUNKS_FMT, r);
    std::remove((dir + "/" + name).c_str());
    std::snprintf(name, sizeof name, CZ_TRACE_COMMS_FMT, r);
    std::remove((dir + "/" + name).c_str());
  }
  std::ofstream(manifestPath, std::ios::app) << "repaired " << (long long)std::time(nullptr) << "\n";
  report.communicators = 0;
  for (size_t i = 0; i + 4 <= comms.size(); i += 4 + comms[i + 3]) report.communicators++;
  return report;
}

} // namespace cz::trace
