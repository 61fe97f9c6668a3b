// options.cpp: flag and value parsing shared by `bench` and `tune`.
#include "bench/options.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

namespace cz::bench {

const std::vector<std::string> &allCollectives() {
  static const std::vector<std::string> k{"alltoall", "allgather", "bcast", "alltoallv",
                                                "allreduce"};
  return k;
}

bool parseBytes(const std::string &text, long long &out) {
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0]))) return false;
  char *end = nullptr;
  errno = 0;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (errno || v < 0) return false;
  int shift = 0;
  switch (*end) {
  case 'K': case 'k': shift = 10; ++end; break;
  case 'M': case 'm': shift = 20; ++end; break;
  case 'G': case 'g': shift = 30; ++end; break;
  default: break;
  }
  if (*end == 'B' || *end == 'b') ++end;  // "64KB" reads naturally too
  if (*end || v > (LLONG_MAX >> shift)) return false;
  out = v << shift;
  return true;
}

static bool isPowerOfTwo(long long v) { return v > 0 && (v & (v - 1)) == 0; }

static std::vector<std::string> splitOn(const std::string &s, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    size_t pos = s.find(sep, start);
    parts.push_back(s.substr(start, pos == std::string::npos ? pos : pos - start));
    if (pos == std::string::npos) return parts;
    start = pos + 1;
  }
}

// Message sizes are passed to MPI as int counts; P * bytes must fit too,
// which the worker checks per process count.
static const long long kMaxSize = 1LL << 30;

bool parseSizes(const std::string &text, std::vector<long long> &out, std::string &err) {
  out.clear();
  size_t colon = text.find(':');
  if (colon != std::string::npos) {
    long long lo, hi;
    std::string a = text.substr(0, colon), b = text.substr(colon + 1);
    if (!parseBytes(a, lo) || !parseBytes(b, hi)) {
      err = "--sizes LO:HI wants sizes like 8, 4K, 1M (got '" + text + "')";
      return false;
    }
    if (!isPowerOfTwo(lo) || !isPowerOfTwo(hi) || lo > hi) {
      err = "--sizes LO:HI wants powers of two with LO <= HI (got '" + text +
            "'); list odd sizes with commas: --sizes 8,100,4K";
      return false;
    }
    if (hi > kMaxSize) { err = "--sizes: at most 1G"; return false; }
    for (long long v = lo; v <= hi; v *= 2) out.push_back(v);
    return true;
  }
  for (const std::string &part : splitOn(text, ',')) {
    long long v;
    if (!parseBytes(part, v) || v < 1) {
      err = "--sizes wants LO:HI (powers of two) or a list like 8,100,4K; '" + part +
            "' is not a size >= 1";
      return false;
    }
    if (v > kMaxSize) { err = "--sizes: at most 1G"; return false; }
    out.push_back(v);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return true;
}

bool parseProcs(const std::string &text, std::vector<int> &out, std::string &err) {
  out.clear();
  auto one = [&](const std::string &s, int &v) {
    char *end = nullptr;
    errno = 0;
    long x = std::strtol(s.c_str(), &end, 10);
    if (s.empty() || *end || errno || x < 1 || x > 4096) {
      err = "--procs wants process counts 1..4096 like 2,4,8 or 2:16 (got '" + s + "')";
      return false;
    }
    v = static_cast<int>(x);
    return true;
  };
  size_t colon = text.find(':');
  if (colon != std::string::npos) {
    int lo, hi;
    if (!one(text.substr(0, colon), lo) || !one(text.substr(colon + 1), hi)) return false;
    if (!isPowerOfTwo(lo) || !isPowerOfTwo(hi) || lo > hi) {
      err = "--procs LO:HI wants powers of two with LO <= HI (got '" + text + "')";
      return false;
    }
    for (int v = lo; v <= hi; v *= 2) out.push_back(v);
    return true;
  }
  for (const std::string &part : splitOn(text, ',')) {
    int v;
    if (!one(part, v)) return false;
    out.push_back(v);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return true;
}

bool parseCollectives(const std::string &text, std::vector<std::string> &out,
                      std::string &err) {
  out.clear();
  std::vector<bool> want(allCollectives().size(), false);
  for (const std::string &part : splitOn(text, ',')) {
    if (part == "all") {
      std::fill(want.begin(), want.end(), true);
      continue;
    }
    auto it = std::find(allCollectives().begin(), allCollectives().end(), part);
    if (it == allCollectives().end()) {
      err = "--collective: unknown '" + part +
            "' (valid: alltoall allgather bcast alltoallv allreduce all)";
      return false;
    }
    want[it - allCollectives().begin()] = true;
  }
  for (size_t i = 0; i < want.size(); i++)
    if (want[i]) out.push_back(allCollectives()[i]);
  return true;
}

std::string formatBytes(long long bytes) {
  static const char kSuffix[] = {'G', 'M', 'K'};
  for (int i = 0; i < 3; i++) {
    long long unit = 1LL << (30 - 10 * i);
    if (bytes >= unit && bytes % unit == 0)
      return std::to_string(bytes / unit) + kSuffix[i];
  }
  return std::to_string(bytes);
}

int itersForSize(long long bytes, bool quick) {
  int iters = bytes <= 8192 ? 1000 : 100;
  return quick ? iters / 10 : iters;
}

int parseBenchFlags(int argc, char **argv, BenchOptions &opt, std::string &err,
                    ExtraFlag extra, void *ctx) {
  bool sizesGiven = false;
  for (int i = 0; i < argc; i++) {
    std::string a = argv[i];
    // --flag=value is accepted as well as --flag value.
    std::string value;
    bool inlineValue = false;
    if (a.rfind("--", 0) == 0 && a.find('=') != std::string::npos) {
      value = a.substr(a.find('=') + 1);
      a = a.substr(0, a.find('='));
      inlineValue = true;
    }
    auto need = [&](std::string &v) {
      if (inlineValue) { v = value; return true; }
      if (i + 1 >= argc) { err = a + " needs a value"; return false; }
      v = argv[++i];
      return true;
    };
    std::string v;
    if (a == "-h" || a == "--help") return 1;
    if (a == "--quick") { opt.quick = true; continue; }
    if (a == "--procs" || a == "-n") {
      if (!need(v) || !parseProcs(v, opt.procs, err)) return 2;
    } else if (a == "--sizes") {
      if (!need(v) || !parseSizes(v, opt.sizes, err)) return 2;
      sizesGiven = true;
    } else if (a == "--collective" || a == "-c") {
      if (!need(v) || !parseCollectives(v, opt.collectives, err)) return 2;
    } else if (a == "--algorithms") {
      if (!need(v)) return 2;
      opt.algorithms = splitOn(v, ',');
      for (const std::string &s : opt.algorithms)
        if (s.empty()) { err = "--algorithms: empty name in '" + v + "'"; return 2; }
    } else if (a == "--reps") {
      if (!need(v)) return 2;
      char *end = nullptr;
      long r = std::strtol(v.c_str(), &end, 10);
      if (v.empty() || *end || r < 1 || r > 64) {
        err = "--reps wants 1..64 (got '" + v + "')";
        return 2;
      }
      opt.reps = static_cast<int>(r);
    } else if (a == "--max-batch") {
      if (!need(v)) return 2;
      char *end = nullptr;
      double s = std::strtod(v.c_str(), &end);
      if (v.empty() || *end || !(s > 0)) {
        err = "--max-batch wants seconds > 0 (got '" + v + "')";
        return 2;
      }
      opt.maxBatchSeconds = s;
    } else if (a == "--timeout") {
      if (!need(v)) return 2;
      char *end = nullptr;
      long s = std::strtol(v.c_str(), &end, 10);
      if (v.empty() || *end || s < 1) {
        err = "--timeout wants whole seconds >= 1 (got '" + v + "')";
        return 2;
      }
      opt.timeoutSeconds = static_cast<int>(s);
    } else if (a == "-o" || a == "--output") {
      if (!need(v)) return 2;
      opt.outDir = v;
    } else {
      int used = extra ? extra(argc, argv, i, ctx, err) : 0;
      if (used < 0) return 2;
      if (used == 0) {
        err = "unknown option '" + std::string(argv[i]) + "'";
        return 2;
      }
      i += used - 1;
    }
  }
  if (!sizesGiven) parseSizes("8:1M", opt.sizes, err);
  if (opt.reps == 0) opt.reps = opt.quick ? 1 : 3;
  return 0;
}

}  // namespace cz::bench
