// SiteDatabase.h: the site database (clang-plugin/SITE_DATABASE.md): one
// record per MPI call site, as JSON. Writer, reader and a merge that several
// compiler processes can run at once on the same file (flock + rename).
// Shared by the instrumenter, the plugin, the detector and the rewriter.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "llvm/ADT/StringRef.h"

namespace cz::clangtools {

constexpr int kSiteDatabaseVersion = 1;

struct Position {
  unsigned line = 0, column = 0; // 1-based; column in bytes
};
// Half-open: end is the position just after the last character.
struct Range {
  Position begin, end;
};

// One enclosing statement, outermost first in Site::context.
struct ContextEntry {
  std::string kind;      // for, range-for, while, do, if, switch, case, default, lambda
  std::string header;    // "for (i = 0; i < n; i++)", "if (rank == 0)", "while (x)", "case 3:"
  std::string condition; // the condition's text (if, while, do, switch, for), else ""
  std::string branch;    // if: "then", "else" or "condition"; else ""
  Range range;           // the whole statement
};

struct MacroInfo {
  std::string name;            // outermost macro expanded at the site
  std::string spellingFile;    // where MPI_xxx is spelled (root-relative if in the project)
  Position spelling;
  Position expansion;          // where the macro is used
  std::string expansionFile;   // the file of the uses, if not Site::file (anchor macro-definition)
  std::vector<Position> expansions; // anchor macro-definition: every use seen (in one TU)
};

// A p2p send whose buffer the same function fills by a copy just before
// the call, or a receive whose buffer it empties just after: the buffer
// stages the data of another array (a scatter sent through one temporary
// buffer, a gather received into one scratch buffer). StagingCopy.h.
struct StagingCopy {
  std::string copy;       // "memcpy" (memcpy/memmove) or "loop" (an element loop); "": none
  Position at;            // where the copy starts
  std::string buffer;     // the staging buffer, as written at the call ("tmp")
  std::string array;      // the other side of the copy ("all")
  std::string offset;     // where in it, in elements of `array` ("q * BLOCK"; "0")
  // What the offset follows: "peer" (the variable the call names its peer
  // with), "source" (a status's MPI_SOURCE), "loop" (another induction
  // variable of a loop around the call), "other".
  std::string offsetFrom;
};

// A p2p send whose buffer is a scalar variable the loop around the call
// sets anew each iteration (VaryingValue.h). SITE_DATABASE.md,
// "value_varies".
struct VaryingValue {
  std::string variable;   // the variable ("rows"); "": none found
  Position at;            // where the assignment starts
  std::string assignment; // the assignment as written ("rows = (dest <= extra) ? ave + 1 : ave")
  // What makes it vary: "peer" (the call's peer variable), "loop" (an
  // induction variable of a loop around the call), "self" (its own value:
  // x += n, x++).
  std::string follows;
};

// A p2p send or receive (not MPI_Sendrecv) whose buffer is an address
// its peer argument chooses (PeerIndexedBuffer.h): one block per member,
// the peer picking it. SITE_DATABASE.md, "peer_indexed".
struct PeerIndexed {
  // "offset" (an address inside one array: &a[i * n], a + i * n, &a[i]),
  // "row" (a row of a multi-dimensional array: rows[i], &rows[i][0]),
  // "pointer" (an element of an array of pointers: bufs[i]); "": none.
  std::string layout;
  std::string buffer;  // the buffer argument as written ("&a[i * n]")
  std::string array;   // what the peer indexes ("a")
  std::string index;   // the peer's term in the buffer, as written ("i")
  std::string stride;  // what that term is multiplied by ("n"; "1" when not)
  std::string peer;    // the call's peer argument as written ("dest")
  // "same": index and peer are one variable or one expression; "copy":
  // one is a local copy of the other (int dest = i;), unchanged between.
  std::string follows;
};

struct Site {
  uint64_t id = 0;
  std::string file;      // root-relative path of the file holding the site
  std::string path;      // absolute path when recorded
  uint64_t fileHash = 0; // fnv1a64 of that file's bytes
  Position position;     // begin of the call (expansion location)
  Range range;           // exact source range of the call (file coordinates)
  std::string callee;
  std::string kind;      // p2p, completion, collective, comm
  std::vector<std::string> args;
  // p2p only: how each peer argument (PeerClass.h: peerArguments) is
  // computed, in argument order ("loop", "table", ...).
  std::vector<std::string> peers;
  std::string function;  // enclosing function, qualified ("" at file scope)
  Range functionRange;
  std::vector<ContextEntry> context;
  bool inMacro = false;
  MacroInfo macro;
  bool inTemplate = false;
  std::string anchor;    // see SiteKey::anchor
  bool instrumented = false;
  std::string note;      // why not instrumented, or ""
  // "caller": the site is in the program's own wrapper of the call (a
  // function whose caller passes the peer), and the tracer records it with
  // the wrapper's return address, so each place that calls the wrapper is
  // told apart. "" otherwise (the JSON field is then absent).
  std::string callPath;
  StagingCopy staging; // p2p only; staging.copy empty: none found
  PeerIndexed peerIndexed; // p2p only; peerIndexed.layout empty: none found
  VaryingValue varies;     // p2p sends only; varies.variable empty: none found
};

// A source file the compiler wrappers compiled without instrumentation
// (Clang could not parse it): its MPI calls report no site ids.
struct UninstrumentedFile {
  std::string file;   // root-relative when under the project root, else absolute
  std::string reason; // Clang's first error
  bool operator==(const UninstrumentedFile &o) const {
    return file == o.file && reason == o.reason;
  }
};

// A source the instrumenter parsed, with its hash then: a file holding
// callers of the program's wrappers may hold no site of its own, and the
// rewriter, which patches there, must still see that it changed since.
struct ParsedSource {
  std::string file;  // as UninstrumentedFile::file
  uint64_t hash = 0; // fnv1a64 of its bytes
  bool operator==(const ParsedSource &o) const { return file == o.file && hash == o.hash; }
};

struct SiteDatabase {
  int version = kSiteDatabaseVersion;
  std::vector<Site> sites; // sorted by file, line, column, id
  std::vector<ParsedSource> sources; // sorted by file
  std::vector<UninstrumentedFile> uninstrumented; // sorted by file
  // Compiler flags Clang does not know, left out of the instrumenting
  // parses of this build (sorted; the wrappers warn about each once).
  std::vector<std::string> droppedFlags;
};

// What one compile adds besides sites: files it instrumented (they leave
// the uninstrumented list, whether they hold sites or not), files it could
// not instrument, flags it dropped.
struct BuildNotes {
  std::vector<std::string> instrumentedFiles; // as UninstrumentedFile::file
  std::vector<ParsedSource> sources;          // those of them with their hashes
  std::vector<UninstrumentedFile> uninstrumented;
  std::vector<std::string> droppedFlags;
  bool empty() const {
    return instrumentedFiles.empty() && sources.empty() && uninstrumented.empty() && droppedFlags.empty();
  }
};

std::string toJson(const SiteDatabase &db);
// false + err on malformed input or a newer format version.
bool fromJson(llvm::StringRef text, SiteDatabase &db, std::string &err);

// A missing file reads as an empty database.
bool readSiteDatabase(const std::string &path, SiteDatabase &db, std::string &err);
// Writes path.tmp.<pid>, then renames it over path.
bool writeSiteDatabase(const std::string &path, const SiteDatabase &db, std::string &err);

// Adds sites to db: a site replaces the record with the same id; records of
// a file whose content hash differs from the added sites' (an older version
// of the file) are dropped. Result sorted.
void mergeSites(SiteDatabase &db, const std::vector<Site> &sites);
// The hash db knows for file (root-relative like Site::file): from its
// parsed sources, else from a site in that file; false when it knows none.
bool knownHash(const SiteDatabase &db, const std::string &file, uint64_t &hash);
// Adds notes to db; returns the dropped flags db did not list yet.
std::vector<std::string> mergeNotes(SiteDatabase &db, const BuildNotes &notes);
// read-merge-write under an exclusive flock on path + ".lock". newFlags
// (optional) receives the dropped flags the database did not list yet.
bool mergeIntoSiteDatabase(const std::string &path, const std::vector<Site> &sites,
                           std::string &err, const BuildNotes &notes = {},
                           std::vector<std::string> *newFlags = nullptr);

} // namespace cz::clangtools
