// site_database.cpp: see site_database.h. The file is read with the tools'
// JSON model (support/json); the records' fields the detector uses are
// picked out (unknown fields are ignored, as the format allows).
#include "collectivize/site_database.h"

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "collectivize/json.h"

namespace cz::detect {

using json::Json;

trace::Result<SiteLocations> readSiteDatabase(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return trace::Error{path, -1, "cannot read"};
  std::stringstream text;
  text << in.rdbuf();
  return parseSiteDatabase(text.str(), path);
}

trace::Result<SiteLocations> parseSiteDatabase(const std::string &text, const std::string &path) {
  Json root;
  std::string error;
  if (!json::parseJson(text, root, error)) return trace::Error{path, -1, "not valid JSON: " + error};
  const Json *format = root.find("format"), *version = root.find("version"), *sites = root.find("sites");
  if (!format || format->str() != "collectivize-sites")
    return trace::Error{path, -1, "not a Collectivize site database (format is not \"collectivize-sites\")"};
  if (!version || !version->isNumber() || version->num() > 1)
    return trace::Error{path, -1, "site database version is newer than this detector (1): update Collectivize"};
  if (!sites || !sites->isArray())
    return trace::Error{path, -1, "no \"sites\" array"};
  SiteLocations out;
  for (size_t k = 0; k < sites->items().size(); k++) {
    const Json &r = sites->items()[k];
    const Json *id = r.find("id"), *file = r.find("file"), *line = r.find("line"),
               *column = r.find("column"), *callee = r.find("callee"),
               *function = r.find("function");
    if (!id || !id->isString() || !file || !line)
      return trace::Error{path, -1, "site record " + std::to_string(k) + " lacks id, file or line"};
    char *end = nullptr;
    errno = 0;
    unsigned long long v = std::strtoull(id->str().c_str(), &end, 10);
    if (id->str().empty() || *end || errno)
      return trace::Error{path, -1, "site record " + std::to_string(k) + ": id '" + id->str() +
                                        "' is not a decimal number"};
    SourceLocation sl;
    sl.file = file->str();
    long long lineNo = 0, columnNo = 0;
    if (!line->integerIn(0, 1LL << 30, lineNo) || (column && !column->integerIn(0, 1LL << 30, columnNo)))
      return trace::Error{path, -1, "site record " + std::to_string(k) +
                                        ": line or column is not a line number"};
    sl.line = int(lineNo);
    sl.column = int(columnNo);
    sl.callee = callee ? callee->str() : "";
    sl.function = function ? function->str() : "";
    if (const Json *peers = r.find("peers"); peers && peers->isArray())
      for (const Json &p : peers->items())
        if (p.isString()) sl.peers.push_back(p.str());
    if (const Json *args = r.find("args"); args && args->isArray())
      for (const Json &a : args->items())
        if (a.isString()) sl.args.push_back(a.str());
    if (const Json *st = r.find("staging"); st && st->isObject()) { // absent in older databases
      const Json *copy = st->find("copy"), *sline = st->find("line"), *buffer = st->find("buffer"),
                 *array = st->find("array"), *offset = st->find("offset"),
                 *from = st->find("offset_from");
      if (!copy || !copy->isString() || !sline || !sline->isNumber() || !buffer || !array ||
          !offset || !from)
        return trace::Error{path, -1, "site record " + std::to_string(k) +
                                          ": \"staging\" lacks copy, line, buffer, array, "
                                          "offset or offset_from"};
      long long stagingLine = 0;
      if (!sline->integerIn(0, 1LL << 30, stagingLine))
        return trace::Error{path, -1, "site record " + std::to_string(k) +
                                          ": \"staging\" line is not a line number"};
      sl.staging = {copy->str(), int(stagingLine), buffer->str(), array->str(), offset->str(),
                    from->str()};
    }
    if (const Json *vv = r.find("value_varies"); vv && vv->isObject()) { // revision 1.2
      const Json *variable = vv->find("variable"), *vline = vv->find("line"),
                 *assignment = vv->find("assignment"), *follows = vv->find("follows");
      long long at = 0;
      if (!variable || !variable->isString() || variable->str().empty() || !vline ||
          !vline->integerIn(0, 1LL << 30, at) || !assignment || !assignment->isString() || !follows ||
          !follows->isString())
        return trace::Error{path, -1, "site record " + std::to_string(k) +
                                          ": \"value_varies\" lacks variable, line, assignment or "
                                          "follows"};
      sl.varies = {variable->str(), int(at), assignment->str(), follows->str()};
    }
    if (const Json *pi = r.find("peer_indexed"); pi && pi->isObject()) { // absent in older databases
      const Json *layout = pi->find("layout"), *buffer = pi->find("buffer"), *peer = pi->find("peer");
      if (!layout || !layout->isString() || layout->str().empty() || !buffer || !buffer->isString() ||
          !peer || !peer->isString())
        return trace::Error{path, -1, "site record " + std::to_string(k) +
                                          ": \"peer_indexed\" lacks layout, buffer or peer"};
      sl.peerIndexed = {layout->str(), buffer->str(), peer->str()};
    }
    out[uint64_t(v)] = sl;
  }
  return out;
}

std::map<uint64_t, StagedSite> stagedSitesOf(const SiteLocations &sites) {
  std::map<uint64_t, StagedSite> out;
  for (const auto &[id, sl] : sites) {
    bool send = sl.callee.find("send") != std::string::npos ||
                sl.callee.find("Send") != std::string::npos;
    bool recv = sl.callee.find("recv") != std::string::npos ||
                sl.callee.find("Recv") != std::string::npos;
    if (send == recv) continue; // Sendrecv, or not a transfer
    const SourceLocation::Staging &st = sl.staging;
    if (st.copy.empty()) {
      if (!sl.peerIndexed.layout.empty())
        out[id] = StagedSite{send, sl.peerIndexed.buffer, sl.file + ":" + std::to_string(sl.line), true};
      continue;
    }
    if (st.offsetFrom != "peer" && st.offsetFrom != "source" && st.offsetFrom != "loop") continue;
    std::string where = sl.file + ":" + std::to_string(st.line) + " ";
    std::string dir = send ? "from " : "to ";
    if (st.copy == "loop") where += "element loop " + dir + st.array + "[" + st.offset + "]";
    else where += st.copy + " " + dir + st.array + (st.offset == "0" ? "" : " + " + st.offset);
    out[id] = StagedSite{send, st.buffer, where};
  }
  return out;
}

} // namespace cz::detect
