// WrapperArgs.cpp: classifying a GCC-style compiler command line.
#include <set>

#include "collectivize/instrument/Wrapper.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Path.h"

namespace cz::instrument {

bool isInstrumentableSource(const std::string &path) {
  llvm::StringRef ext = llvm::sys::path::extension(path);
  return ext == ".c" || ext == ".cc" || ext == ".cpp" || ext == ".cxx" || ext == ".c++" ||
         ext == ".C" || ext == ".cp";
}

CompilerCommand parseCompilerCommand(const std::vector<std::string> &args) {
  // Options whose value is the next argument.
  static const std::set<std::string> kWithValue = {
      "-o", "-MF", "-MT", "-MQ", "-x", "-I", "-D", "-U", "-include", "-imacros", "-isystem",
      "-iquote", "-idirafter", "-iprefix", "-iwithprefix", "-isysroot", "-L", "-l", "-Xlinker",
      "-Xpreprocessor", "-Xassembler", "-Xclang", "-arch", "-aux-info", "--param", "-T", "-u",
      "-z", "-e", "-target", "--sysroot", "-main-file-name", "-dumpbase", "-dumpdir"};
  CompilerCommand c;
  c.args = args;
  bool stopAtObject = false, preprocess = false, md = false, inputs = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &a = args[i];
    if (a == "-") {
      c.passthrough = true; // stdin
      inputs = true;
    } else if (a == "-c" || a == "-S") {
      stopAtObject = true;
    } else if (a == "-E" || a == "-M" || a == "-MM" || a == "-fsyntax-only") {
      preprocess = true;
    } else if (a == "-MD" || a == "-MMD") {
      md = true;
    } else if (a == "-x" || (a.size() > 2 && a.compare(0, 2, "-x") == 0)) {
      c.passthrough = true; // explicit language: leave the command alone
      if (a == "-x") ++i;
    } else if (kWithValue.count(a)) {
      if (i + 1 < args.size()) {
        if (a == "-o") c.output = args[i + 1];
        if (a == "-MF") c.depFile = args[i + 1];
        if (a == "-l") inputs = true;
      }
      ++i;
    } else if (a.compare(0, 2, "-o") == 0 && a.size() > 2) {
      c.output = a.substr(2);
    } else if (a.compare(0, 2, "-l") == 0 && a.size() > 2) {
      inputs = true;
    } else if (!a.empty() && a[0] != '-') {
      inputs = true;
      (isInstrumentableSource(a) ? c.sources : c.others).push_back(i);
    }
  }
  if (preprocess || !inputs) c.passthrough = true;
  if (c.passthrough) {
    c.sources.clear();
    c.others.clear();
    c.links = !preprocess && !stopAtObject && inputs;
    return c;
  }
  c.compiles = !c.sources.empty();
  c.links = !stopAtObject;
  if (md && c.depFile.empty()) {
    // GCC: the -o name with its suffix replaced by .d, else the source's
    // basename with .d.
    std::string base = !c.output.empty() && stopAtObject
                           ? c.output
                           : (c.sources.empty() ? std::string()
                                                : llvm::sys::path::filename(args[c.sources[0]]).str());
    if (!base.empty()) {
      size_t dot = base.rfind('.');
      size_t slash = base.rfind('/');
      if (dot != std::string::npos && (slash == std::string::npos || dot > slash))
        base.erase(dot);
      c.depFile = base + ".d";
    }
  }
  return c;
}

} // namespace cz::instrument
