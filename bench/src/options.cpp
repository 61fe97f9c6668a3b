// options.cpp: flag and value parsing shared by `bench` and `tune`.
#include "bench/options.h"

#include "collectivize/verb_options.h"

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

void addBenchOptions(CLI::App &app, BenchOptions &opt) {
  using cz::options::addParsed;
  app.add_flag("--quick", opt.quick);
  addParsed(app, "-n,--procs", [&opt](const std::string &v, std::string &err) {
    return parseProcs(v, opt.procs, err);
  }, "LIST");
  addParsed(app, "--sizes", [&opt](const std::string &v, std::string &err) {
    return parseSizes(v, opt.sizes, err);
  }, "S");
  addParsed(app, "-c,--collective", [&opt](const std::string &v, std::string &err) {
    return parseCollectives(v, opt.collectives, err);
  }, "C");
  addParsed(app, "--algorithms", [&opt](const std::string &v, std::string &err) {
    opt.algorithms = splitOn(v, ',');
    for (const std::string &s : opt.algorithms)
      if (s.empty()) return err = "--algorithms: empty name in '" + v + "'", false;
    return true;
  }, "LIST");
  // (The checks run while the verb parses: they keep no reference to
  // this function's locals.)
  cz::options::addChecked(app, "--reps", [&opt](const std::string &v) {
    long long n = 0;
    return cz::options::parseWhole(v, 1, 64, n) && (opt.reps = int(n), true);
  }, "wants 1..64", "N");
  cz::options::addChecked(app, "--max-batch", [&opt](const std::string &v) {
    double s = 0;
    return cz::options::parseReal(v, 0, 1e9, s) && s > 0 && (opt.maxBatchSeconds = s, true);
  }, "wants seconds > 0", "SEC");
  cz::options::addChecked(app, "--timeout", [&opt](const std::string &v) {
    long long n = 0;
    return cz::options::parseWhole(v, 1, 1 << 30, n) && (opt.timeoutSeconds = int(n), true);
  }, "wants whole seconds >= 1", "SEC");
  app.add_option("-o,--output", opt.outDir);
}

void finishBenchOptions(BenchOptions &opt) {
  std::string err;
  if (opt.sizes.empty()) parseSizes("8:1M", opt.sizes, err);
  if (opt.reps == 0) opt.reps = opt.quick ? 1 : 3;
}

}  // namespace cz::bench
