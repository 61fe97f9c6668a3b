// trace_impl.h: what the trace reader's files share (not installed): the
// OTF2 error capture, the archive's attribute keys, and Trace::Impl, the
// state Trace::open leaves for event reading.
#pragma once

#include <sys/stat.h>

#include <cstdarg>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <otf2/otf2.h>

#include "collectivize/trace_reader.h"
#include "collectivize_trace_format.h"
#include "otf2_validate.h"

namespace cz::trace {
namespace detail {

// OTF2 reports errors through one process-wide callback (by default printed
// to stderr). While the reader works, they are collected into its message.
extern thread_local std::string *tCapture;
OTF2_ErrorCode onOtf2Error(void *, const char *, uint64_t, const char *, OTF2_ErrorCode code,
                           const char *format, va_list va);

class Otf2Errors {
public:
  Otf2Errors() {
    static std::once_flag once;
    std::call_once(once, [] { OTF2_Error_RegisterCallback(onOtf2Error, nullptr); });
    previous_ = tCapture;
    tCapture = &text_;
  }
  ~Otf2Errors() { tCapture = previous_; }
  std::string describe(OTF2_ErrorCode code) const {
    std::string s = text_.empty() ? OTF2_Error_GetDescription(code) : text_;
    return s + " (OTF2 " + OTF2_Error_GetName(code) + ")";
  }

private:
  std::string text_;
  std::string *previous_;
};

struct ReaderCloser {
  void operator()(OTF2_Reader *r) const {
    if (r) OTF2_Reader_Close(r);
  }
};
using ReaderPtr = std::unique_ptr<OTF2_Reader, ReaderCloser>;

inline bool exists(const std::string &p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0;
}

// The Collectivize attributes (CZ_TRACE_ATTRIBUTES), found by name.
enum AttrKey {
#define CZ_ATTR_KEY(id, type, member, shown, description) K_##id,
  CZ_TRACE_ATTRIBUTES(CZ_ATTR_KEY)
#undef CZ_ATTR_KEY
  K_COUNT_, K_NONE = -1
};
inline const char *const kAttrNames[K_COUNT_] = {
#define CZ_ATTR_NAME(id, type, member, shown, description) CZ_TRACE_ATTR_##id,
    CZ_TRACE_ATTRIBUTES(CZ_ATTR_NAME)
#undef CZ_ATTR_NAME
};

} // namespace detail

// Where each rank's files stand (validated chunk headers).
struct RankFiles {
  bool done = false;
  std::string evtPath, defPath;
  detail::FileCheck evt, def;
};

struct Trace::Impl {
  std::string dir, anchor;
  Manifest manifest;
  Definitions defs;
  uint64_t evtChunk = 0, defChunk = 0;
  std::vector<RankFiles> ranks;
  std::vector<Problem> problems;
  std::map<uint32_t, detail::AttrKey> attrKeys; // attribute ref -> Collectivize key
  // The same for small refs, looked up once per attribute of every event.
  std::vector<int8_t> attrKeyByRef;
  detail::AttrKey attrKey(uint32_t ref) const {
    if (ref < attrKeyByRef.size()) return detail::AttrKey(attrKeyByRef[ref]);
    auto k = attrKeys.find(ref);
    return k == attrKeys.end() ? detail::K_NONE : k->second;
  }
};

} // namespace cz::trace
