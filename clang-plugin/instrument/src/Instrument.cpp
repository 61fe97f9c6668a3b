// Instrument.cpp: the Clang pass behind the instrument verb and the
// wrappers, and the text rewriting.
#include "collectivize/instrument/Instrument.h"

#include <algorithm>
#include <map>
#include <set>

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "llvm/Support/Process.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "collectivize/clang/CompileArgs.h"
#include "collectivize/clang/ProjectRoot.h"
#include "collectivize/clang/SiteId.h"

namespace cz::instrument {
namespace {

using clangtools::FoundSite;

class Consumer : public clang::ASTConsumer {
public:
  Consumer(std::map<std::string, FileResult> &results, const Options &options)
      : results_(results), options_(options) {}

  void HandleTranslationUnit(clang::ASTContext &ctx) override {
    clang::SourceManager &sm = ctx.getSourceManager();
    const clang::FileEntry *main = sm.getFileEntryForID(sm.getMainFileID());
    if (!main) return;
    std::string path = clangtools::realPath(main->tryGetRealPathName().str());
    if (path.empty()) path = main->getName().str();
    FileResult &r = results_[path];
    r.file = path;
    r.root = options_.root.empty() ? clangtools::defaultProjectRoot(path) : options_.root;
    if (ctx.getDiagnostics().hasErrorOccurred()) return;
    clangtools::FinderOptions fo;
    fo.root = r.root;
    r.sites = clangtools::findSites(ctx, fo);
    r.hash = clangtools::fnv1a64(sm.getBufferData(sm.getMainFileID()));
    std::string spelled = main->getName().str();
    if (auto ref = sm.getFileEntryRefForID(sm.getMainFileID())) spelled = ref->getName().str();
    r.instrumented =
        rewriteSource(sm.getBufferData(sm.getMainFileID()), path, r.sites, true, spelled,
                      options_.sitesDatabase);
    for (const clangtools::ProjectFile &h : clangtools::projectHeaders(ctx, fo)) {
      HeaderCopy c{h.absolute, h.relative, h.spelled, "", false};
      for (const FoundSite &f : r.sites)
        c.rewritten |= f.site.instrumented && f.wrapPath == h.absolute;
      c.text = rewriteSource(h.text, h.absolute, r.sites, c.rewritten, h.spelled);
      r.headers.push_back(std::move(c));
    }
    r.parsed = true;
  }

private:
  std::map<std::string, FileResult> &results_;
  const Options &options_;
};

class Action : public clang::ASTFrontendAction {
public:
  Action(std::map<std::string, FileResult> &results, const Options &options)
      : results_(results), options_(options) {}
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &,
                                                        llvm::StringRef) override {
    return std::make_unique<Consumer>(results_, options_);
  }

private:
  std::map<std::string, FileResult> &results_;
  const Options &options_;
};

class Factory : public clang::tooling::FrontendActionFactory {
public:
  Factory(std::map<std::string, FileResult> &results, const Options &options)
      : results_(results), options_(options) {}
  std::unique_ptr<clang::FrontendAction> create() override {
    return std::make_unique<Action>(results_, options_);
  }

  // The driver's errors (unknown flags) do not stop ClangTool: a file whose
  // command produced any is not parsed, so it counts as failed.
  bool runInvocation(std::shared_ptr<clang::CompilerInvocation> invocation,
                     clang::FileManager *files,
                     std::shared_ptr<clang::PCHContainerOperations> pch,
                     clang::DiagnosticConsumer *diags) override {
    bool driverErrors = diags && diags->getNumErrors() > seen_;
    bool ok = !driverErrors &&
              FrontendActionFactory::runInvocation(invocation, files, pch, diags);
    if (diags) seen_ = diags->getNumErrors();
    return ok;
  }

private:
  unsigned seen_ = 0;
  std::map<std::string, FileResult> &results_;
  const Options &options_;
};

std::string quoteForLine(llvm::StringRef path) {
  std::string out;
  for (char c : path) {
    if (c == '\\' || c == '"') out += '\\';
    out += c;
  }
  return out;
}

} // namespace

std::vector<FileResult> instrumentFiles(const clang::tooling::CompilationDatabase &db,
                                        const std::vector<std::string> &files,
                                        const Options &options) {
  std::map<std::string, FileResult> byPath;
  std::map<std::string, std::string> errorsOf; // captured, per file as given
  // Captured diagnostics are told apart by file: one tool run per file.
  std::vector<std::vector<std::string>> batches;
  if (options.captureErrors)
    for (const std::string &f : files) batches.push_back({f});
  else
    batches.push_back(files);
  for (const std::vector<std::string> &batch : batches) {
    clang::tooling::ClangTool tool(db, batch);
    tool.appendArgumentsAdjuster(clangtools::mpiAwareAdjuster());
    if (options.captureErrors) {
      // Nothing on stderr: no "N errors generated" (printed with carets
      // on), no "Error while processing".
      tool.appendArgumentsAdjuster(clang::tooling::getInsertArgumentAdjuster(
          "-fno-caret-diagnostics", clang::tooling::ArgumentInsertPosition::END));
      tool.setPrintErrorMessage(false);
    }
    Factory factory(byPath, options);
    llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> diagOptions = new clang::DiagnosticOptions();
    std::string captured;
    llvm::raw_string_ostream capture(captured);
    diagOptions->ShowColors = !options.captureErrors && llvm::sys::Process::StandardErrHasColors();
    llvm::raw_ostream &sink =
        options.captureErrors ? static_cast<llvm::raw_ostream &>(capture) : llvm::errs();
    clang::TextDiagnosticPrinter printer(sink, diagOptions.get());
    tool.setDiagnosticConsumer(&printer);
    tool.run(&factory); // failures show as files without a parsed result
    if (options.captureErrors) errorsOf[batch.front()] = capture.str();
  }
  std::vector<FileResult> out;
  for (const std::string &f : files) {
    std::string path = clangtools::realPath(f);
    auto it = byPath.find(path.empty() ? f : path);
    if (it != byPath.end()) {
      out.push_back(std::move(it->second));
    } else {
      FileResult r;
      r.file = path.empty() ? f : path;
      out.push_back(std::move(r));
    }
    out.back().errors = errorsOf[f];
  }
  return out;
}

std::string rewriteSource(llvm::StringRef original, llvm::StringRef originalPath,
                          const std::vector<FoundSite> &sites, bool withPrelude,
                          llvm::StringRef linePath, llvm::StringRef sitesDatabase) {
  // (offset, order, text): at one offset, closing parentheses go first.
  struct Insert {
    unsigned offset;
    int order;
    std::string text;
  };
  std::vector<Insert> inserts;
  std::set<unsigned> outOfLine; // wrappers' definitions, marked once each
  for (const FoundSite &f : sites) {
    if (!f.site.instrumented || f.wrapPath != originalPath || f.end <= f.begin ||
        f.end > original.size())
      continue;
    std::string id = std::to_string(f.site.id) + "ULL";
    // A site in the program's own wrapper reports where the wrapper was
    // called from; kept out of line, its return address is its caller's.
    bool viaCaller = f.site.callPath == "caller" && f.functionBegin < f.begin &&
                     f.end <= f.functionEnd && f.functionEnd <= original.size();
    inserts.push_back({f.begin, 1,
                       viaCaller ? "(cz_instrument_site_at_(" + id + ", __builtin_return_address(0)), "
                                 : "(cz_instrument_site_(" + id + "), "});
    inserts.push_back({f.end, 0, ")"});
    // GCC warns about noinline on a function declared inline (a static
    // inline wrapper in a header): the instrumented copy stays quiet.
    // (C++ takes no pragma between `template <...>` and the function, nor
    // in a class: there the attribute alone.)
    if (viaCaller && outOfLine.insert(f.functionBegin).second) {
      if (f.quiet) {
        inserts.push_back({f.functionOuter, 2,
                           "_Pragma(\"GCC diagnostic push\") "
                           "_Pragma(\"GCC diagnostic ignored \\\"-Wattributes\\\"\") "});
        inserts.push_back({f.functionEnd, 2, " _Pragma(\"GCC diagnostic pop\")"});
      }
      inserts.push_back({f.functionBegin, 3, "__attribute__((noinline)) "});
    }
  }
  std::stable_sort(inserts.begin(), inserts.end(), [](const Insert &a, const Insert &b) {
    return a.offset != b.offset ? a.offset < b.offset : a.order < b.order;
  });
  std::string out;
  if (withPrelude || !inserts.empty())
    out = "/* Instrumented by collectivize: reports call-site ids to the tracer. */\n"
          "#ifndef CZ_INSTRUMENT_PRELUDE_\n"
          "#define CZ_INSTRUMENT_PRELUDE_\n"
          "#ifdef __cplusplus\n"
          "extern \"C\" void cz_trace_site(unsigned long long) __attribute__((weak));\n"
          "#else\n"
          "void cz_trace_site(unsigned long long) __attribute__((weak));\n"
          "#endif\n"
          "static __inline__ __attribute__((unused)) void cz_instrument_site_(unsigned long long id) {\n"
          "  if (cz_trace_site) cz_trace_site(id);\n"
          "}\n";
  // Where these ids are described: told to the tracer before main, so the
  // trace names its site database (a path with control characters is left
  // out rather than written into a string literal).
  bool plainPath = !sitesDatabase.empty() &&
                   std::none_of(sitesDatabase.begin(), sitesDatabase.end(),
                                [](char ch) { return (unsigned char)ch < 0x20; });
  if (withPrelude && plainPath)
    out += "#ifdef __cplusplus\n"
           "extern \"C\" void cz_trace_sites_database(const char *) __attribute__((weak));\n"
           "#else\n"
           "void cz_trace_sites_database(const char *) __attribute__((weak));\n"
           "#endif\n"
           "static __attribute__((constructor, unused)) void cz_instrument_sites_database_(void) {\n"
           "  if (cz_trace_sites_database) cz_trace_sites_database(\"" +
           quoteForLine(sitesDatabase) + "\");\n"
           "}\n";
  if (withPrelude || !inserts.empty()) out += "#endif\n";
  if (!outOfLine.empty())
    out += "#ifndef CZ_INSTRUMENT_PRELUDE_AT_\n"
           "#define CZ_INSTRUMENT_PRELUDE_AT_\n"
           "#ifdef __cplusplus\n"
           "extern \"C\" void cz_trace_site_at(unsigned long long, void *) __attribute__((weak));\n"
           "#else\n"
           "void cz_trace_site_at(unsigned long long, void *) __attribute__((weak));\n"
           "#endif\n"
           "static __inline__ __attribute__((unused)) void cz_instrument_site_at_(unsigned long long id,\n"
           "                                                                     void *caller) {\n"
           "  if (cz_trace_site_at) cz_trace_site_at(id, caller);\n"
           "}\n"
           "#endif\n";
  out += "#line 1 \"" + quoteForLine(linePath.empty() ? originalPath : linePath) + "\"\n";
  out.reserve(out.size() + original.size() + inserts.size() * 32);
  unsigned at = 0;
  for (const Insert &i : inserts) {
    out.append(original.data() + at, i.offset - at);
    out += i.text;
    at = i.offset;
  }
  out.append(original.data() + at, original.size() - at);
  return out;
}

namespace {
class FixedCommands : public clang::tooling::CompilationDatabase {
public:
  FixedCommands(std::string directory, std::vector<std::string> line,
                std::vector<std::string> spellings)
      : directory_(std::move(directory)), line_(std::move(line)),
        spellings_(std::move(spellings)) {}
  std::vector<clang::tooling::CompileCommand>
  getCompileCommands(llvm::StringRef file) const override {
    std::vector<std::string> line = line_;
    std::string spelled = file.str();
    for (const std::string &s : spellings_) {
      llvm::SmallString<256> abs(s);
      llvm::sys::fs::make_absolute(directory_, abs);
      llvm::sys::path::remove_dots(abs, true);
      if (abs == file) spelled = s;
    }
    line.push_back(spelled);
    return {clang::tooling::CompileCommand(directory_, file, line, "")};
  }

private:
  std::string directory_;
  std::vector<std::string> line_, spellings_;
};
} // namespace

std::unique_ptr<clang::tooling::CompilationDatabase>
fixedCommandDatabase(const std::string &directory, const std::string &compiler,
                     const std::vector<std::string> &flags,
                     const std::vector<std::string> &spellings) {
  std::vector<std::string> line{compiler};
  line.insert(line.end(), flags.begin(), flags.end());
  return std::make_unique<FixedCommands>(directory, line, spellings);
}

std::vector<std::string> mirrorIncludeDirs(const std::vector<std::string> &args,
                                           const std::string &cwd, const std::string &root,
                                           const std::string &mirror) {
  std::vector<std::string> out;
  auto mirrored = [&](const std::string &dir, std::string &m) {
    llvm::SmallString<256> abs(dir);
    llvm::sys::fs::make_absolute(cwd, abs);
    llvm::sys::path::remove_dots(abs, true);
    std::string real = clangtools::realPath(std::string(abs)), rel;
    if (real.empty()) real = std::string(abs);
    if (real == root) {
      m = mirror;
      return true;
    }
    if (!clangtools::relativeToRoot(root, real, rel)) return false;
    m = mirror + "/" + rel;
    return true;
  };
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &a = args[i];
    std::string m;
    if ((a == "-I" || a == "-iquote") && i + 1 < args.size()) {
      if (mirrored(args[i + 1], m)) out.insert(out.end(), {a, m});
      out.insert(out.end(), {a, args[i + 1]});
      ++i;
      continue;
    }
    if (a.size() > 2 && a.compare(0, 2, "-I") == 0 && mirrored(a.substr(2), m)) out.push_back("-I" + m);
    out.push_back(a);
  }
  return out;
}

std::vector<clangtools::Site> sitesOf(const std::vector<FileResult> &results) {
  std::vector<clangtools::Site> out;
  for (const FileResult &r : results)
    for (const FoundSite &f : r.sites) out.push_back(f.site);
  return out;
}

} // namespace cz::instrument
