// evt_direct.cpp: see evt_direct.h.
#include "evt_direct.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

#include <cerrno>
#include <cstring>
#include <vector>

#include <otf2/otf2.h>

namespace cz::trace::detail {
namespace {

// Record types (OTF2's event record ids; the first ten are its own marks).
enum : uint8_t {
  kEndOfChunk = 0x00, kEndOfFile = 0x02, kChunkHeader = 0x03,
  kTimestamp = 0x05, kAttributeList = 0x06,
  kEnter = 12, kLeave = 13, kMpiSend = 14, kMpiIsend = 15, kMpiIsendComplete = 16,
  kMpiIrecvRequest = 17, kMpiRecv = 18, kMpiIrecv = 19, kMpiRequestCancelled = 21,
  kMpiCollectiveBegin = 22, kMpiCollectiveEnd = 23,
};
constexpr uint8_t kLittleEndian = 0x42;
constexpr size_t kHeaderSize = 18;

uint64_t le64(const uint8_t *p) {
  uint64_t v;
  std::memcpy(&v, p, 8); // the host is little-endian (checked by the caller)
  return v;
}

// Bytes readable after the end of the chunk buffer: a field is loaded 8
// bytes at a time, however close it lies to the end of its record or chunk.
constexpr size_t kLoadSlack = 8;

// Masks of the low n bytes of a word, n = 0..8.
constexpr uint64_t kLowBytes[9] = {0,
                                   0xffull,
                                   0xffffull,
                                   0xffffffull,
                                   0xffffffffull,
                                   0xffffffffffull,
                                   0xffffffffffffull,
                                   0xffffffffffffffull,
                                   ~0ull};

// A record's fields, read in order; `ok` turns false past the record.
// `at` and `end` point into a buffer with kLoadSlack bytes after it.
struct Fields {
  const uint8_t *at, *end;
  bool ok = true;
  uint64_t compressed(unsigned maxBytes) {
    // The size byte lies before `end` exactly when the field's last byte
    // does (next > end covers both); a size of 0 needs no test of its own:
    // its mask is empty (about 10 fields per event: each test counts).
    const uint8_t n = *at;
    const uint8_t *next = at + 1 + (n > 8 ? 0 : n);
    if (next > end) return ok = false, 0;
    if (n > maxBytes) {
      if (n != 0xff) return ok = false, 0;
      at = next;
      return maxBytes == 4 ? uint64_t(UINT32_MAX) : UINT64_MAX;
    }
    // One 8-byte load, masked (a copy of n bytes then a load of the whole
    // stalls on store forwarding). Bytes past the record are in the buffer
    // or its slack; a byte loop for the last fields of each record (most of
    // them: the attribute list's) cost ~300 instructions per event.
    uint64_t v;
    std::memcpy(&v, at + 1, 8);
    at = next;
    return v & kLowBytes[n];
  }
  uint32_t u32() { return uint32_t(compressed(4)); }
  uint64_t u64() { return compressed(8); }
  uint8_t u8() { return at < end ? *at++ : (ok = false, uint8_t(0)); }
};

std::optional<uint32_t> peerOf(uint32_t p) {
  return p == OTF2_UNDEFINED_UINT32 ? std::nullopt : std::optional<uint32_t>(p);
}

// The event of record type t, or false for a type OTF2 would hand to a
// callback this reader does not emulate.
bool decodeEvent(uint8_t t, Fields &f, Event &e, bool &handOut) {
  handOut = true;
  switch (t) {
  case kMpiSend: case kMpiRecv: case kMpiIsend: case kMpiIrecv:
    e.kind = t == kMpiSend ? EventKind::Send
             : t == kMpiRecv ? EventKind::Recv
             : t == kMpiIsend ? EventKind::Isend : EventKind::Irecv;
    e.peer = peerOf(f.u32());
    e.comm = f.u32();
    e.tag = f.u32();
    e.bytes = f.u64();
    if (t == kMpiIsend || t == kMpiIrecv) e.request = f.u64();
    return f.ok;
  case kMpiIsendComplete: case kMpiIrecvRequest: case kMpiRequestCancelled:
    e.kind = t == kMpiIsendComplete ? EventKind::IsendComplete
             : t == kMpiIrecvRequest ? EventKind::IrecvRequest : EventKind::RequestCancelled;
    e.request = f.u64();
    return f.ok;
  case kMpiCollectiveBegin:
    e.kind = EventKind::CollectiveBegin;
    return true;
  case kMpiCollectiveEnd:
    e.kind = EventKind::CollectiveEnd;
    e.collectiveOp = f.u8();
    e.comm = f.u32();
    e.peer = peerOf(f.u32());
    e.bytes = f.u64();
    e.bytesReceived = f.u64();
    return f.ok;
  case kEnter: case kLeave:
    e.kind = t == kEnter ? EventKind::Enter : EventKind::Leave;
    e.region = f.u32();
    return f.ok;
  default:
    // Other records (none of the tracer's): OTF2's reader reads them.
    handOut = false;
    return false;
  }
}

// Records of one field carry no length: the type byte, then the field.
bool oneField(uint8_t t) {
  return t == kEnter || t == kLeave || t == kMpiIsendComplete || t == kMpiIrecvRequest ||
         t == kMpiRequestCancelled;
}

bool readAttributes(Fields f, std::vector<DirectAttribute> &out) {
  out.clear();
  uint32_t n = f.u32();
  for (uint32_t i = 0; i < n && f.ok; i++) {
    DirectAttribute a;
    a.ref = f.u32();
    a.type = f.u8();
    if (a.type == OTF2_TYPE_UINT8) a.value = f.u8();
    else if (a.type == OTF2_TYPE_UINT32 || a.type == OTF2_TYPE_COMM) a.value = f.u32();
    else if (a.type == OTF2_TYPE_UINT64) a.value = f.u64();
    else return false; // a type the tracer does not write: OTF2 reads it
    out.push_back(a);
  }
  return f.ok;
}

} // namespace

DirectRead readEventsDirect(const std::string &path, uint64_t chunkSize, uint64_t bound,
                            DirectSink sink, void *ctx) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return DirectRead();
  struct stat st;
  DirectRead r;
  if (fstat(fd, &st) == 0)
    r = readEventsDirect(ByteSource::file(fd, uint64_t(st.st_size)), chunkSize, bound, sink, ctx);
  close(fd);
  return r;
}

DirectRead readEventsDirect(const ByteSource &bytes, uint64_t chunkSize, uint64_t bound,
                            DirectSink sink, void *ctx) {
  DirectRead r;
  const uint16_t probe = 1;
  uint8_t hostLittle;
  std::memcpy(&hostLittle, &probe, 1);
  if (!hostLittle || chunkSize < kHeaderSize + 2 || chunkSize > (uint64_t(1) << 30)) return r;
  std::vector<uint8_t> buf(size_t(std::min<uint64_t>(chunkSize, bytes.size())) + kLoadSlack);
  std::vector<DirectAttribute> attrs;
  uint64_t records = 0, time = 0;
  for (uint64_t offset = 0;; offset += chunkSize) {
    if (records >= bound) {
      r.complete = true;
      break;
    }
    size_t got = bytes.read(buf.data(), buf.size() - kLoadSlack, offset);
    if (got < kHeaderSize || buf[0] != kChunkHeader || buf[1] != kLittleEndian) break;
    const uint8_t *p = buf.data() + kHeaderSize, *end = buf.data() + got;
    bool endOfFile = false, bad = false, stopped = false;
    attrs.clear();
    bool pendingAttrs = false;
    while (p < end && records < bound) {
      uint8_t t = *p;
      if (t == kEndOfChunk) break;
      if (t == kEndOfFile) {
        endOfFile = true;
        break;
      }
      if (t == kTimestamp) {
        if (p + 9 > end) { bad = true; break; }
        time = le64(p + 1);
        p += 9;
        continue;
      }
      // (END_OF_BUFFER 0x01 only follows END_OF_FILE, where reading stopped.)
      if (t < kTimestamp || p + 2 > end) { bad = true; break; }
      Fields f{p + 1, end};
      if (oneField(t)) {
        f.end = end; // the field's own size byte bounds it
      } else {
        uint64_t len = p[1], head = 2;
        if (len == 0xff) {
          if (p + 10 > end) { bad = true; break; }
          len = le64(p + 2), head = 10;
        }
        if (len > uint64_t(end - p) - head) { bad = true; break; }
        f = Fields{p + head, p + head + len};
      }
      if (t == kAttributeList) {
        p = f.end;
        if (!readAttributes(f, attrs)) { bad = true; break; }
        pendingAttrs = true;
        continue;
      }
      Event e;
      bool handOut = false;
      if (!decodeEvent(t, f, e, handOut)) { bad = true; break; }
      p = oneField(t) ? f.at : f.end;
      records++;
      if (handOut) {
        e.timestamp = time;
        r.handedOut++;
        if (!sink(ctx, e, attrs.data(), pendingAttrs ? attrs.size() : 0)) {
          stopped = true;
          break;
        }
      }
      pendingAttrs = false;
    }
    if (stopped || endOfFile || records >= bound) {
      r.complete = !bad;
      break;
    }
    if (bad) break;
  }
  return r;
}

} // namespace cz::trace::detail
