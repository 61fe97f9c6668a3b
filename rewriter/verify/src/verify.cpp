// verify.cpp: the verification flow (see collectivize/verify/verify.h):
// copy -> build -> interleaved timed runs -> compare -> retrace -> verdict.
#include "collectivize/verify/verify.h"

#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <cstdarg>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>

#include "build_plan.h"
#include "command_map.h"
#include "compare.h"
#include "effect.h"
#include "judge.h"
#include "patch_index.h"
#include "collectivize/process.h"
#include "result.h"
#include "retrace.h"
#include "scratch.h"
#include "timing.h"

namespace fs = std::filesystem;

namespace cz::verify {
namespace {

void progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void progress(const char *fmt, ...) {
  std::fprintf(stderr, "collectivize verify: ");
  va_list ap;
  va_start(ap, fmt);
  std::vfprintf(stderr, fmt, ap);
  va_end(ap);
  std::fprintf(stderr, "\n");
}

std::string indent(const std::string &text, const std::string &pad) {
  std::string o;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    o += pad + text.substr(start, nl - start) + "\n";
    start = nl + 1;
  }
  return o;
}

std::string joinCommand(const std::vector<std::string> &argv) {
  std::string s;
  for (size_t i = 0; i < argv.size(); i++) s += (i ? " " : "") + shellQuote(argv[i]);
  return s;
}

// One scratch copy of the project and how to run the program in it.
struct Copy {
  std::string name, root, buildDir;
  std::string buildRoot; // where the build runs: the root, or -C DIR in it
  std::vector<PathMap> maps;
  std::vector<std::vector<std::string>> commands; // each run command, mapped
  std::string cwd;
  BuildPlan plan;
  ProbeEdit probes; // the effect probes put into its sources
};

struct Run {
  process::Result process;
  std::string out, err;
};

struct RetraceOutcome {
  bool ok = false;
  std::string error;
  TraceFindings findings;
};

class Verifier {
public:
  explicit Verifier(const VerifyOptions &o) : opt_(o) {}
  int run();

private:
  bool makeCopy(const std::string &name, Copy &copy, std::string &error);
  bool plan(Copy &copy, std::string &error);
  bool build(Copy &copy, std::string &log);
  bool buildWithProbes(Copy &copy, std::string &log);
  Run runOnce(const Copy &copy, size_t command, const std::string &tag, double timeout);
  Judgement timedRuns(const Copy &patched, const VerifyJob &job, size_t command, CommandResult &out);
  RetraceOutcome retrace(const Copy &copy);
  std::string tracedRun(const Copy &copy, size_t command, const std::string &traceDir,
                        const std::string &effectsDir);
  std::string effectsDir(const Copy &copy, size_t command) const;
  std::string commandLabel(size_t command) const {
    return commands_.size() > 1 ? "[" + joinCommand(commands_[command]) + "] " : "";
  }
  EffectJudgement effectOfCommand(const Copy &patched, const VerifyJob &job, size_t command);
  VerifyResult verifyJob(const VerifyJob &job);
  void report(const VerifyJob &job, const VerifyResult &r);

  const VerifyOptions &opt_;
  PatchSet set_;
  OutputFilter filter_;
  std::string userCwd_, work_;
  bool ownWork_ = false;
  std::vector<std::vector<std::string>> commands_; // `-- CMD` and each --run, unmapped
  std::string buildSubdir_;                         // -C, relative to the project root
  std::string plainCompilers_;                      // collectivize-cc -> mpicc shims
  Copy original_;
  int originalBuilt_ = 0; // 0 not yet, 1 built, -1 failed
  std::string originalBuildError_;
  std::optional<RetraceOutcome> originalTrace_;
  std::map<size_t, std::string> originalEffectRuns_; // command -> "" traced, else the error
};

bool Verifier::makeCopy(const std::string &name, Copy &copy, std::string &error) {
  copy.name = name;
  copy.root = work_ + "/" + name;
  const std::string &bd = set_.buildDir;
  bool buildInside = !bd.empty() && !mapPath(bd, {{set_.projectRoot, "x"}}).empty();
  copy.maps = {{set_.projectRoot, copy.root}};
  if (bd.empty()) {
    copy.buildDir = copy.root + "/build";
  } else if (buildInside) {
    copy.buildDir = mapPath(bd, copy.maps);
  } else {
    copy.buildDir = copy.root + "-build";
    copy.maps.push_back({bd, copy.buildDir});
  }
  CopyStats stats;
  std::vector<std::string> skip{work_};
  if (!bd.empty()) skip.push_back(bd);
  if (!copyProject(set_.projectRoot, copy.root, skip, stats, error)) return false;
  progress("%s: copied %llu files (%llu KiB) of %s%s", name.c_str(),
           (unsigned long long)stats.files, (unsigned long long)(stats.bytes / 1024),
           set_.projectRoot.c_str(),
           stats.buildProducts ? (" (" + std::to_string(stats.buildProducts) +
                                  " build products left out)").c_str()
                               : "");
  std::vector<std::string> notes;
  copy.commands.clear();
  for (const std::vector<std::string> &c : commands_) copy.commands.push_back(mapCommand(c, copy.maps, userCwd_, &notes));
  std::string mappedCwd = mapPath(userCwd_, copy.maps);
  copy.cwd = mappedCwd.empty() ? userCwd_ : mappedCwd;
  copy.buildRoot = buildSubdir_.empty() ? copy.root : copy.root + "/" + buildSubdir_;
  return true;
}

bool Verifier::plan(Copy &copy, std::string &error) {
  std::string program; // the first argument that lands in the copy
  for (const std::vector<std::string> &command : copy.commands)
    for (const std::string &a : command)
      if (program.empty() && a.rfind(copy.root, 0) == 0 && a.find(' ') == std::string::npos) program = a;
  BuildInputs in{opt_.build,   set_.projectRoot, set_.buildDir, copy.root,
                 copy.buildDir, copy.maps,        program,       copy.buildRoot};
  return planBuild(in, copy.plan, error);
}

bool Verifier::build(Copy &copy, std::string &log) {
  log = work_ + "/" + copy.name + ".build.log";
  progress("%s: building with %s", copy.name.c_str(), copy.plan.how.c_str());
  process::Spec spec;
  spec.argv = {"/bin/sh", "-c", copy.plan.script};
  spec.cwd = copy.buildRoot;
  // A build that calls Collectivize's wrappers by name gets mpicc/mpicxx/mpif90:
  // the timed runs must not carry the tracer.
  const char *path = getenv("PATH");
  spec.env = {{"PATH", plainCompilers_ + ":" + (path ? path : "/usr/bin:/bin")}};
  spec.stdinPath = "/dev/null";
  spec.out = process::Output::file(log);
  spec.err = process::Output::sameAsStdout();
  spec.timeoutSeconds = 3600;
  process::Result r = process::run(spec);
  return r.started && r.exitCode == 0;
}

// A copy that builds only without its probes is built without them: the
// effect is then not checked, and the patch is not blamed for the probe.
bool Verifier::buildWithProbes(Copy &copy, std::string &log) {
  if (build(copy, log)) return true;
  if (!removeProbes(copy.probes)) return false;
  std::string probeLog = work_ + "/" + copy.name + ".probe.build.log";
  std::error_code ec;
  fs::rename(log, probeLog, ec);
  progress("%s: the build failed with the effect probes; building without them", copy.name.c_str());
  copy.probes.failed = "the " + copy.name + " copy does not build with the probe (log: " + probeLog + ")";
  return build(copy, log);
}

Run Verifier::runOnce(const Copy &copy, size_t command, const std::string &tag, double timeout) {
  Run run;
  process::Spec spec;
  spec.argv = copy.commands[command];
  spec.cwd = copy.cwd;
  // A program built with the tracer would write here: runTracedBuild
  // looks, since such runs are slower and print more than the program.
  spec.env = {{"COLLECTIVIZE_TRACE_DIR", work_ + "/runs/" + tag + ".trace"}};
  for (const auto &kv : sameHeapFill()) spec.env.push_back(kv);
  const std::string outPath = work_ + "/runs/" + tag + ".out";
  const std::string errPath = work_ + "/runs/" + tag + ".err";
  spec.stdinPath = "/dev/null";
  spec.out = process::Output::file(outPath);
  spec.err = process::Output::file(errPath);
  spec.timeoutSeconds = timeout;
  run.process = process::run(spec);
  run.out = process::readFile(outPath);
  run.err = process::readFile(errPath);
  return run;
}

// Where a copy's probes write for one run command (the first keeps the
// name it always had).
std::string Verifier::effectsDir(const Copy &copy, size_t command) const {
  return work_ + "/" + copy.name + ".effects" + (command ? "-" + std::to_string(command + 1) : "");
}

// One traced run of a copy with run command `command`: "" when it wrote
// its trace, else what went wrong.
std::string Verifier::tracedRun(const Copy &copy, size_t command, const std::string &traceDir,
                                const std::string &effects) {
  std::string tag = copy.name + (command ? "-" + std::to_string(command + 1) : "");
  progress("%s: traced run%s", copy.name.c_str(),
           command ? (" of run command " + std::to_string(command + 1)).c_str() : "");
  TracedCommand traced = tracedCommand(copy.commands[command], opt_.tracer, traceDir, effects);
  process::Spec spec;
  spec.argv = traced.argv;
  spec.env = traced.env;
  spec.cwd = copy.cwd;
  const std::string errPath = work_ + "/runs/" + tag + ".traced.err";
  spec.stdinPath = "/dev/null";
  spec.out = process::Output::file(work_ + "/runs/" + tag + ".traced.out");
  spec.err = process::Output::file(errPath);
  spec.timeoutSeconds = opt_.timeoutSeconds;
  process::Result run = process::run(spec);
  if (!run.started || !fs::exists(traceDir))
    return "the traced run of the " + copy.name + " copy wrote no trace (" +
           (run.started ? "exit " + std::to_string(run.exitCode) : run.error) + "; its output: " +
           errPath + ")";
  return "";
}

// The effect probes of one more run command (not the first, whose traced
// run also gives the retrace): a traced run of each copy, no detection.
EffectJudgement Verifier::effectOfCommand(const Copy &patched, const VerifyJob &job, size_t command) {
  std::string suffix = "-" + std::to_string(command + 1);
  auto [known, inserted] = originalEffectRuns_.try_emplace(command);
  if (inserted)
    known->second = tracedRun(original_, command, work_ + "/" + original_.name + ".trace" + suffix,
                              effectsDir(original_, command));
  if (!known->second.empty()) return effectNotChecked(known->second);
  std::string error = tracedRun(patched, command, work_ + "/" + patched.name + ".trace" + suffix,
                                effectsDir(patched, command));
  if (!error.empty()) return effectNotChecked(error);
  return judgeEffects(job.regions, job.noEffect, original_.probes, patched.probes,
                      effectsDir(original_, command), effectsDir(patched, command));
}

RetraceOutcome Verifier::retrace(const Copy &copy) {
  RetraceOutcome o;
  std::string traceDir = work_ + "/" + copy.name + ".trace";
  std::string reportPath = work_ + "/" + copy.name + ".report.json";
  o.error = tracedRun(copy, 0, traceDir, effectsDir(copy, 0));
  if (!o.error.empty()) return o;
  process::Spec detect;
  detect.argv = {opt_.collectivize, "detect", traceDir, "-o", reportPath};
  const std::string detectLog = work_ + "/" + copy.name + ".detect.log";
  detect.stdinPath = "/dev/null";
  detect.out = process::Output::file(detectLog);
  detect.err = process::Output::sameAsStdout();
  detect.timeoutSeconds = opt_.timeoutSeconds;
  process::Result d = process::run(detect);
  if (!d.started || d.exitCode != 0) {
    o.error = "collectivize detect failed on the " + copy.name + " copy's trace: " +
              (d.started ? process::tailOfFile(detectLog, 5) : d.error);
    return o;
  }
  o.ok = readDetectionReport(reportPath, o.findings, o.error);
  return o;
}

VerifyResult Verifier::verifyJob(const VerifyJob &job) {
  VerifyResult r;
  r.patch = job.diff;
  r.command = commands_[0];

  Copy patched;
  std::string error;
  if (!makeCopy("patched-" + job.id, patched, error)) {
    r.evidence = error;
    return r;
  }
  ApplyResult applied = applyPatch(job.diff, patched.root, work_ + "/" + patched.name + ".apply.log");
  if (!applied.applied) {
    r.verdict = "does not apply";
    r.evidence = applied.tool + " -p1 refused the patch on a copy of " + set_.projectRoot +
                 " (were the sources changed since the patch was made? run `collectivize "
                 "rewrite` again):\n" + applied.message;
    return r;
  }
  if (!originalBuilt_) {
    std::string originalLog;
    if (!plan(original_, originalBuildError_)) {
      originalBuilt_ = -1;
    } else if (!buildWithProbes(original_, originalLog)) {
      originalBuilt_ = -1;
      originalBuildError_ = "the original project (unpatched) does not build in its copy with " +
                            original_.plan.how + " (log: " + originalLog + "); its last lines:\n" +
                            process::tailOfFile(originalLog, 15);
    } else {
      originalBuilt_ = 1;
    }
  }
  r.build = original_.plan.how;
  if (originalBuilt_ < 0) {
    r.evidence = originalBuildError_;
    return r;
  }
  std::string log;
  if (!plan(patched, error)) {
    r.evidence = error;
    return r;
  }
  patched.probes = insertProbes(patched.root, job.regions, true);
  if (!buildWithProbes(patched, log)) {
    r.verdict = "does not build";
    r.evidence = "the original copy builds with " + original_.plan.how +
                 ", the patched copy does not (log: " + log + "); its last lines:\n" +
                 process::tailOfFile(log, 15);
    return r;
  }

  // Every run command, each compared on its own; the first is traced.
  r.runs = opt_.runs;
  fs::create_directories(work_ + "/runs");
  std::string outputs, timing;
  for (size_t c = 0; c < original_.commands.size(); c++) {
    CommandResult cr;
    Judgement runs = timedRuns(patched, job, c, cr);
    r.commands.push_back(cr);
    std::string label = commandLabel(c);
    if (!runs.verdict.empty()) {
      r.verdict = runs.verdict;
      r.evidence = label + runs.text;
      return r;
    }
    outputs += (outputs.empty() ? "" : "\n") + label + runs.text;
    timing += (timing.empty() ? "" : "\n") + label +
              timingLine(cr.original->times, cr.patched->times, opt_.runs);
  }
  r.original = r.commands[0].original;
  r.patched = r.commands[0].patched;
  std::string build = "build: both copies with " + original_.plan.how;
  if (!opt_.retrace) {
    EffectJudgement none = effectNotChecked("--no-retrace: no traced run");
    r.effect = none.check;
    r.verdict = "verified";
    r.evidence = build + "\n" + outputs + "\n" + none.text +
                 "\nretrace: skipped (--no-retrace): the manual messages were not checked\n" +
                 timing;
    return r;
  }
  if (!originalTrace_) originalTrace_ = retrace(original_);
  if (!originalTrace_->ok) {
    r.evidence = outputs + "\nretrace: " + originalTrace_->error;
    return r;
  }
  RetraceOutcome after = retrace(patched);
  if (!after.ok) {
    r.evidence = outputs + "\nretrace: " + after.error;
    return r;
  }
  Retrace rt;
  RetraceInputs in{job.targets, set_.reportRanks, set_.reportCommand, set_.target == "runtime", job.expected};
  Judgement traced = judgeRetrace(in, originalTrace_->findings, after.findings, rt);
  r.retrace = rt;
  // The output buffers at the region's end, before the retrace's verdicts:
  // for every run command (another process count or input size can give
  // other data where the first agrees).
  EffectJudgement effect = judgeEffects(job.regions, job.noEffect, original_.probes, patched.probes,
                                        effectsDir(original_, 0), effectsDir(patched, 0));
  r.commands[0].effect = effect.check;
  std::string effects = effect.text;
  bool probed = probesInBoth(job.regions, original_.probes, patched.probes);
  for (size_t c = 1; c < original_.commands.size() && probed && !effect.check.differs; c++) {
    if (c == 1) effects = commandLabel(0) + effects;
    EffectJudgement more = effectOfCommand(patched, job, c);
    r.commands[c].effect = more.check;
    effects += "\n" + commandLabel(c) + more.text;
    effect = combineEffects(effect, more);
  }
  r.effect = effect.check;
  outputs += "\n" + effects;
  // An incomplete retrace stays an error; otherwise the effect comes first.
  if (effect.check.differs && traced.verdict != "error") traced.verdict = "effect differs";
  r.verdict = traced.verdict.empty() ? "verified" : traced.verdict;
  std::string which = commands_.size() > 1 ? " (traced with the first run command)" : "";
  r.evidence = (traced.verdict.empty() ? build + "\n" : "") + outputs + "\n" + traced.text + which +
               (traced.verdict.empty() ? "\n" + timing : " (traces: " + work_ + ")");
  return r;
}

// Timed runs of one run command, interleaved (and alternating who goes
// first) so that the machine's slow moments fall on both programs alike.
Judgement Verifier::timedRuns(const Copy &patched, const VerifyJob &job, size_t command, CommandResult &out) {
  out.command = commands_[command];
  std::vector<Run> orig, pat;
  double origMax = 0;
  std::string prefix = commands_.size() > 1 ? "command " + std::to_string(command + 1) + ": " : "";
  for (int i = 0; i < opt_.runs; i++) {
    for (int k = 0; k < 2; k++) {
      bool originalTurn = (k == 0) == (i % 2 == 0);
      std::string tag = (originalTurn ? "original-" : job.id + "-") +
                        (command ? std::to_string(command + 1) + "-" : "") + std::to_string(i + 1);
      progress("%srun %d/%d %s", prefix.c_str(), i + 1, opt_.runs, originalTurn ? "original" : "patched");
      if (originalTurn) {
        orig.push_back(runOnce(original_, command, tag, opt_.timeoutSeconds));
        origMax = std::max(origMax, orig.back().process.seconds);
        if (fs::exists(work_ + "/runs/" + tag + ".trace"))
          return {"error", "the original copy's program wrote a Collectivize trace (" + work_ + "/runs/" + tag +
                               ".trace): its build links the tracer, which slows and changes the timed "
                               "runs. The build calls collectivize-cc/c++/fc by a full path or links "
                               "libcollectivize_trace itself: give --build 'CMD' with mpicc/mpicxx"};
      } else {
        // A patched program that deadlocks is stopped long before --timeout.
        double limit = orig.empty() ? opt_.timeoutSeconds
                                    : std::min(opt_.timeoutSeconds, std::max(20.0, 10 * origMax));
        pat.push_back(runOnce(patched, command, tag, limit));
      }
    }
  }
  for (const std::vector<Run> *side : {&orig, &pat})
    for (const Run &run : *side)
      if (!run.process.started)
        return {"error", "cannot run the program: " + run.process.error + " (command: " +
                             joinCommand((side == &orig ? original_ : patched).commands[command]) + ")"};
  auto records = [](const std::vector<Run> &runs) {
    std::vector<RunRecord> recs;
    for (const Run &run : runs)
      recs.push_back({run.process.exitCode, run.process.timedOut, run.process.seconds, run.out, run.err});
    return recs;
  };
  std::vector<RunRecord> origRecords = records(orig), patRecords = records(pat);
  auto summary = [](const std::vector<RunRecord> &runs) {
    std::vector<double> times;
    for (const RunRecord &run : runs) times.push_back(run.seconds);
    return ProgramRuns{runs.empty() ? 0 : runs[0].exit, summarizeTimes(times)};
  };
  out.original = summary(origRecords);
  out.patched = summary(patRecords);
  RunSettings settings{filter_, opt_.compareStderr, work_ + "/runs/"};
  return judgeRuns(origRecords, patRecords, settings);
}

void Verifier::report(const VerifyJob &job, const VerifyResult &r) {
  std::printf("%s: %s\n", job.id.c_str(), r.verdict.c_str());
  std::printf("  patch: %s%s\n", job.diff.c_str(),
              job.status == "review" ? (" (status review: " + job.reason + ")").c_str() : "");
  std::fputs(indent(r.evidence, "  ").c_str(), stdout);
  if (!job.resultPath.empty()) {
    std::ofstream f(job.resultPath, std::ios::trunc);
    f << resultJson(r);
    if (f.good())
      std::printf("  result: %s\n", job.resultPath.c_str());
    else
      std::fprintf(stderr, "collectivize verify: cannot write %s\n", job.resultPath.c_str());
  }
  std::fflush(stdout);
}

// Interrupted: stop the running program and say where the work is.
char gWorkMessage[4200];
void onSignal(int sig) {
  process::killRunning(SIGTERM);
  (void)!write(2, gWorkMessage, strnlen(gWorkMessage, sizeof gWorkMessage));
  signal(sig, SIG_DFL);
  raise(sig);
}

int Verifier::run() {
  std::string error;
  if (!opt_.command.empty()) commands_.push_back(opt_.command);
  for (const std::string &script : opt_.runScripts) commands_.push_back({"/bin/sh", "-c", script});
  if (commands_.empty()) {
    std::fprintf(stderr, "collectivize verify: no run command: put it after `--`, e.g. "
                         "`-- mpirun -np 4 ./app`, or give --run 'CMD'\n");
    return 2;
  }
  if (!compileIgnorePatterns(opt_.ignore, filter_, error)) {
    std::fprintf(stderr, "collectivize verify: %s\n", error.c_str());
    return 2;
  }
  filter_.ordered = opt_.ordered;
  userCwd_ = fs::current_path().string();
  if (!resolvePatchSet(opt_.patch, opt_.root, opt_.output, set_, error)) {
    std::fprintf(stderr, "collectivize verify: %s\n", error.c_str());
    return set_.usageProblem ? 2 : 1; // else the patch named cannot be read or used
  }
  for (const std::string &n : set_.notes) std::printf("%s\n", n.c_str());
  if (!opt_.buildDir.empty()) {
    // Like make -C: relative to where verify runs; it must be in the project.
    std::string dir = absolutePath(opt_.buildDir, userCwd_);
    std::string inCopy = mapPath(dir, {{set_.projectRoot, ""}});
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
      std::fprintf(stderr, "collectivize verify: --build-dir %s is not a directory\n", dir.c_str());
      return 1;
    }
    if (inCopy.empty() && dir != set_.projectRoot) {
      std::fprintf(stderr, "collectivize verify: --build-dir %s is not inside the project %s: the copies "
                           "hold the project only\n", dir.c_str(), set_.projectRoot.c_str());
      return 2;
    }
    buildSubdir_ = inCopy.empty() ? "" : inCopy.substr(1);
  }

  if (!opt_.workDir.empty()) {
    work_ = absolutePath(opt_.workDir, userCwd_);
    std::error_code ec;
    if (fs::exists(work_) && !fs::is_empty(work_, ec)) {
      std::fprintf(stderr, "collectivize verify: --work %s is not empty: give a new or empty "
                           "directory\n", work_.c_str());
      return 1; // like `run` with a trace directory that is not empty
    }
    fs::create_directories(work_, ec);
    if (ec) {
      std::fprintf(stderr, "collectivize verify: cannot create %s: %s\n", work_.c_str(),
                   ec.message().c_str());
      return 1;
    }
  } else {
    const char *tmp = getenv("TMPDIR");
    std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/collectivize-verify-XXXXXX";
    if (!mkdtemp(templ.data())) {
      std::fprintf(stderr, "collectivize verify: cannot create a work directory %s\n",
                   templ.c_str());
      return 1;
    }
    work_ = templ;
    ownWork_ = true;
  }
  plainCompilers_ = work_ + "/plain-compilers";
  if (!writePlainCompilers(plainCompilers_, error)) {
    std::fprintf(stderr, "collectivize verify: %s\n", error.c_str());
    return 1;
  }
  std::snprintf(gWorkMessage, sizeof gWorkMessage,
                "\ncollectivize verify: interrupted; work directory kept: %s\n", work_.c_str());
  signal(SIGINT, onSignal);
  signal(SIGTERM, onSignal);

  bool allVerified = true;
  std::vector<VerifyResult> results;
  if (!makeCopy("original", original_, error)) {
    std::fprintf(stderr, "collectivize verify: %s\n", error.c_str());
    allVerified = false;
  } else if (original_.commands == commands_ && original_.cwd == userCwd_) {
    // Both copies would run the very same binary: nothing would be compared.
    std::fprintf(stderr,
                 "collectivize verify: the command names nothing inside the project %s (and "
                 "does not run in it): both copies would run the same program. Name the "
                 "program by its path in the project or its build directory (e.g. "
                 "`-- mpirun -np 4 %s/app`), or run from inside the project\n",
                 set_.projectRoot.c_str(),
                 set_.buildDir.empty() ? set_.projectRoot.c_str() : set_.buildDir.c_str());
    if (ownWork_) fs::remove_all(work_);
    return 2;
  } else {
    // Every patch's probes at once: the original is built and traced once.
    original_.probes = insertProbes(original_.root, set_.regions, false);
    for (const VerifyJob &job : set_.jobs) {
      results.push_back(verifyJob(job));
      if (results.back().verdict != "verified") allVerified = false;
    }
    for (size_t i = 0; i < set_.jobs.size(); i++) {
      if (!allVerified || opt_.keep || !ownWork_) results[i].workDir = work_;
      report(set_.jobs[i], results[i]);
    }
  }
  if (allVerified && ownWork_ && !opt_.keep) {
    std::error_code ec;
    fs::remove_all(work_, ec);
  } else {
    std::printf("work directory kept: %s (copies, build logs, run outputs, traces)\n",
                work_.c_str());
  }
  return allVerified ? 0 : 1;
}

} // namespace

int verify(const VerifyOptions &options) { return Verifier(options).run(); }

} // namespace cz::verify
