// doc_path.h: the path a help text cites for one of the documents that
// describe Collectivize's files (report, patches, site database, decision
// table). The documents are installed with the programs, so an installed
// program cites its own prefix's copy; a program run from the build tree
// cites the source tree's (the file a developer edits).
#pragma once

#include <string>

namespace cz::docs {

// Where `cmake --install` puts a document (support/docs/CMakeLists.txt).
enum class InstalledIn {
  Docs, // <prefix>/share/doc/collectivize/<file name>
  Data, // <prefix>/share/collectivize/<file name> (read as data too)
};

// sourcePath: the document relative to the source root, e.g.
// "detector/REPORT_FORMAT.md". In order: COLLECTIVIZE_DOC_PREFIX set (the man
// pages' build names the configured prefix): that prefix's copy; the copy
// under this program's own prefix when it exists (installed, wherever the
// prefix was moved); the source tree's when it exists (build tree); else the
// path under this program's prefix (installed without its documents).
std::string citedPath(const char *sourcePath, InstalledIn where = InstalledIn::Docs);

// A help text with every "{doc:SOURCE_PATH}" replaced by citedPath(SOURCE_PATH)
// (InstalledIn::Data for files under runtime/data/, which the runtime's
// install puts beside its data).
std::string withCitedPaths(const char *text);
// The same for a help text that lives as long as the program (a verb's
// usage): made once per text, kept, so every verb need not cache its own.
const char *helpText(const char *text);

} // namespace cz::docs
