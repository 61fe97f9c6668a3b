// result.cpp: see result.h.
#include "result.h"

#include "collectivize/json.h"

namespace cz::verify {
using namespace json; // the tools' JSON model (support/json)
namespace {

std::string runsJson(const std::optional<ProgramRuns> &p) {
  if (!p) return "null";
  std::string s = "{\"exit\": " + std::to_string(p->exit) + ", \"seconds\": [";
  for (size_t i = 0; i < p->times.seconds.size(); i++)
    s += (i ? ", " : "") + jsonNumber(p->times.seconds[i]);
  return s + "], \"median\": " + jsonNumber(p->times.median) +
         ", \"min\": " + jsonNumber(p->times.min) + ", \"max\": " + jsonNumber(p->times.max) + "}";
}

std::string countsJson(const std::map<std::string, uint64_t> &m) {
  std::string s = "{";
  bool first = true;
  for (const auto &[k, v] : m) {
    s += (first ? "" : ", ") + jsonQuote(k) + ": " + std::to_string(v);
    first = false;
  }
  return s + "}";
}

std::string collectiveJson(const ManualCollective &c) {
  std::string s = "{\"kind\": " + jsonQuote(c.kind) + ", \"ranks\": [";
  for (size_t i = 0; i < c.ranks.size(); i++) s += (i ? ", " : "") + std::to_string(c.ranks[i]);
  return s + "], \"root_world\": " + (c.rootWorld >= 0 ? std::to_string(c.rootWorld) : "null") +
         "}";
}

std::string sideJson(const EffectSide &s) {
  if (!s.present) return "null";
  return "{\"crc\": " + jsonQuote(s.crc) + ", \"bytes\": " + std::to_string(s.bytes) + "}";
}

std::string effectJson(const std::optional<EffectCheck> &e) {
  if (!e) return "null";
  if (!e->checked) return "{\"checked\": false, \"reason\": " + jsonQuote(e->reason) + "}";
  std::string s = "{\"checked\": true, \"calls\": " + std::to_string(e->calls) +
                  ", \"ranks\": " + std::to_string(e->ranks) + ", \"differs\": ";
  if (!e->differs) return s + "null}";
  const EffectDifference &d = *e->differs;
  return s + "{\"rank\": " + std::to_string(d.rank) + ", \"probe\": " + std::to_string(d.probe) +
         ", \"call\": " + std::to_string(d.call) + ", \"patch\": " + jsonQuote(d.patch) +
         ", \"buffer\": " + jsonQuote(d.buffer) + ", \"original\": " + sideJson(d.original) +
         ", \"patched\": " + sideJson(d.patched) + "}}";
}

} // namespace

std::string resultJson(const VerifyResult &r) {
  std::string s = "{\n  \"format\": \"collectivize-verification\",\n  \"version\": 1,\n";
  s += "  \"patch\": " + jsonQuote(r.patch) + ",\n  \"command\": [";
  for (size_t i = 0; i < r.command.size(); i++) s += (i ? ", " : "") + jsonQuote(r.command[i]);
  s += "],\n  \"verdict\": " + jsonQuote(r.verdict) + ",\n";
  s += "  \"evidence\": " + jsonQuote(r.evidence) + ",\n";
  s += "  \"build\": " + (r.build.empty() ? std::string("null") : jsonQuote(r.build)) + ",\n";
  s += "  \"work\": " + (r.workDir.empty() ? std::string("null") : jsonQuote(r.workDir)) + ",\n";
  s += "  \"runs\": " + std::to_string(r.runs) + ",\n";
  s += "  \"original\": " + runsJson(r.original) + ",\n";
  s += "  \"patched\": " + runsJson(r.patched) + ",\n";
  double sp = r.original && r.patched ? speedup(r.original->times, r.patched->times) : 0;
  s += "  \"speedup\": " + (sp > 0 ? jsonNumber(sp) : std::string("null")) + ",\n";
  s += "  \"commands\": [";
  for (size_t c = 0; c < r.commands.size(); c++) {
    const CommandResult &cr = r.commands[c];
    s += std::string(c ? ",\n    " : "\n    ") + "{\"command\": [";
    for (size_t i = 0; i < cr.command.size(); i++) s += (i ? ", " : "") + jsonQuote(cr.command[i]);
    double csp = cr.original && cr.patched ? speedup(cr.original->times, cr.patched->times) : 0;
    s += "], \"original\": " + runsJson(cr.original) + ", \"patched\": " + runsJson(cr.patched) +
         ", \"speedup\": " + (csp > 0 ? jsonNumber(csp) : std::string("null")) +
         ", \"effect\": " + effectJson(cr.effect) + "}";
  }
  s += r.commands.empty() ? "],\n" : "\n  ],\n";
  if (r.retrace) {
    s += "  \"retrace\": {\"collectives\": " + countsJson(r.retrace->patchedCollectives) +
         ", \"matches_left\": " + std::to_string(r.retrace->matchesLeft) +
         ", \"original_collectives\": " + countsJson(r.retrace->originalCollectives) +
         ", \"targets\": [";
    for (size_t i = 0; i < r.retrace->targets.size(); i++)
      s += (i ? ", " : "") + collectiveJson(r.retrace->targets[i]);
    s += "]},\n";
  } else {
    s += "  \"retrace\": null,\n";
  }
  s += "  \"effect\": " + effectJson(r.effect) + "\n";
  return s + "}\n";
}

} // namespace cz::verify
