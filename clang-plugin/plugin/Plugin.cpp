// Plugin.cpp: `clang -fplugin=.../collectivize-plugin.so` records the site
// database during a normal build (nothing is rewritten; the compilation is
// unchanged). Arguments: -fplugin-arg-collectivize-sites=FILE (default
// $COLLECTIVIZE_SITES, else collectivize-sites.json) and
// -fplugin-arg-collectivize-root=DIR (default $COLLECTIVIZE_ROOT, else the
// nearest directory above the source holding .git).
#include <cstdlib>

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "llvm/Support/raw_ostream.h"

#include "collectivize/clang/ProjectRoot.h"
#include "collectivize/clang/SiteDatabase.h"
#include "collectivize/clang/SiteFinder.h"

namespace {

class Consumer : public clang::ASTConsumer {
public:
  Consumer(std::string sites, std::string root) : sites_(std::move(sites)), root_(std::move(root)) {}

  void HandleTranslationUnit(clang::ASTContext &ctx) override {
    if (ctx.getDiagnostics().hasErrorOccurred()) return;
    clang::SourceManager &sm = ctx.getSourceManager();
    const clang::FileEntry *main = sm.getFileEntryForID(sm.getMainFileID());
    if (!main) return;
    cz::clangtools::FinderOptions options;
    options.root = root_.empty() ? cz::clangtools::defaultProjectRoot(
                                       main->tryGetRealPathName().str())
                                 : root_;
    std::vector<cz::clangtools::Site> sites;
    for (auto &f : cz::clangtools::findSites(ctx, options)) {
      f.site.callPath.clear(); // nothing rewritten: no call reports its caller
      sites.push_back(std::move(f.site));
    }
    std::string err;
    if (!sites.empty() && !cz::clangtools::mergeIntoSiteDatabase(sites_, sites, err)) {
      clang::DiagnosticsEngine &d = ctx.getDiagnostics();
      d.Report(d.getCustomDiagID(clang::DiagnosticsEngine::Warning, "collectivize: %0"))
          << err;
    }
  }

private:
  std::string sites_, root_;
};

class Action : public clang::PluginASTAction {
public:
  bool ParseArgs(const clang::CompilerInstance &ci, const std::vector<std::string> &args) override {
    const char *s = std::getenv("COLLECTIVIZE_SITES");
    const char *r = std::getenv("COLLECTIVIZE_ROOT");
    sites_ = s && *s ? s : "collectivize-sites.json";
    root_ = r && *r ? r : "";
    for (const std::string &a : args) {
      if (a.rfind("sites=", 0) == 0) {
        sites_ = a.substr(6);
      } else if (a.rfind("root=", 0) == 0) {
        root_ = a.substr(5);
      } else {
        clang::DiagnosticsEngine &d = ci.getDiagnostics();
        d.Report(d.getCustomDiagID(clang::DiagnosticsEngine::Error,
                                   "collectivize plugin: unknown argument '%0' (known: "
                                   "sites=FILE, root=DIR)"))
            << a;
        return false;
      }
    }
    if (!root_.empty()) root_ = cz::clangtools::realPath(root_);
    return true;
  }
  ActionType getActionType() override { return AddBeforeMainAction; }
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &,
                                                        llvm::StringRef) override {
    return std::make_unique<Consumer>(sites_, root_);
  }

private:
  std::string sites_, root_;
};

clang::FrontendPluginRegistry::Add<Action> registration("collectivize",
                                                        "record MPI call sites (site database)");

} // namespace
