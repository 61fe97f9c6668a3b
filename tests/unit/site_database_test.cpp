// The site database: JSON round trip, rejected input, the merge rules, and
// the locked merge under concurrent writers (as under make -j).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <sys/wait.h>
#include <unistd.h>

#include "collectivize/clang/SiteDatabase.h"

using namespace cz::clangtools;

namespace {

Site sampleSite(uint64_t id, const std::string &file, unsigned line, uint64_t hash = 7) {
  Site s;
  s.id = id;
  s.file = file;
  s.path = "/abs/" + file;
  s.fileHash = hash;
  s.position = {line, 5};
  s.range = {{line, 5}, {line, 40}};
  s.callee = "MPI_Send";
  s.kind = "p2p";
  s.args = {"&x", "1", "MPI_INT", "r", "0", "MPI_COMM_WORLD"};
  s.function = "ns::f";
  s.functionRange = {{1, 1}, {30, 2}};
  s.context.push_back({"for", "for (int r = 1; r < n; r++)", "r < n", "", {{3, 3}, {4, 40}}});
  s.context.push_back({"if", "if (rank == 0)", "rank == 0", "then", {{2, 3}, {9, 4}}});
  s.anchor = "call";
  s.instrumented = true;
  return s;
}

std::string tempPath(const char *name) {
  const char *tmp = std::getenv("TMPDIR");
  return std::string(tmp && *tmp ? tmp : "/tmp") + "/cz-sitedb-" + std::to_string(getpid()) + "-" + name;
}

} // namespace

TEST(SiteDatabase, RoundTrip) {
  SiteDatabase db;
  db.sites.push_back(sampleSite(18446744073709551557ull, "a.c", 3)); // > 2^63: exact
  Site m = sampleSite(42, "b.c", 8);
  m.inMacro = true;
  m.macro = {"SEND", "b.h", {2, 20}, {8, 5}, "main.c", {{8, 5}, {9, 5}}};
  m.inTemplate = true;
  m.anchor = "macro-definition";
  m.instrumented = false;
  m.note = "why \"quoted\"\n";
  m.args.push_back("a\\b");
  m.staging = {"memcpy", {7, 5}, "tmp", "all", "q * n", "peer"};
  m.peerIndexed = {"offset", "&a[i * n]", "a", "i", "n", "dest", "copy"};
  m.varies = {"rows", {11, 5}, "rows = dest <= extra ? ave + 1 : ave", "peer"};
  db.sites.push_back(m);
  std::string text = toJson(db);
  SiteDatabase back;
  std::string err;
  ASSERT_TRUE(fromJson(text, back, err)) << err;
  EXPECT_EQ(toJson(back), text);
  ASSERT_EQ(back.sites.size(), 2u);
  EXPECT_EQ(back.sites[0].staging.copy, ""); // written without it, read without it
  EXPECT_EQ(back.sites[1].staging.offset, "q * n");
  EXPECT_EQ(back.sites[1].staging.at.line, 7u);
  EXPECT_EQ(back.sites[1].staging.offsetFrom, "peer");
  EXPECT_EQ(back.sites[0].peerIndexed.layout, ""); // optional as well
  EXPECT_EQ(back.sites[1].peerIndexed.stride, "n");
  EXPECT_EQ(back.sites[1].peerIndexed.follows, "copy");
  EXPECT_EQ(back.sites[0].varies.variable, ""); // optional (revision 1.2)
  EXPECT_EQ(back.sites[1].varies.at.line, 11u);
  EXPECT_EQ(back.sites[1].varies.follows, "peer");
  EXPECT_NE(text.find("\"value_varies\":{\"variable\":\"rows\",\"line\":11,\"column\":5,"
                      "\"assignment\":\"rows = dest <= extra ? ave + 1 : ave\",\"follows\":\"peer\"}"),
            std::string::npos)
      << text;
  // The field as SITE_DATABASE.md spells it.
  EXPECT_NE(text.find("\"peer_indexed\":{\"layout\":\"offset\",\"buffer\":\"&a[i * n]\",\"array\":\"a\","
                      "\"index\":\"i\",\"stride\":\"n\",\"peer\":\"dest\",\"follows\":\"copy\"}"),
            std::string::npos)
      << text;
  EXPECT_EQ(back.sites[0].id, 18446744073709551557ull);
  EXPECT_EQ(back.sites[1].macro.expansions.size(), 2u);
  EXPECT_EQ(back.sites[1].macro.expansionFile, "main.c");
  EXPECT_EQ(back.sites[1].note, "why \"quoted\"\n");
  EXPECT_EQ(back.sites[1].context[1].branch, "then");
  // One record per line, ids as decimal strings.
  EXPECT_NE(text.find("\n    {\"id\":\"18446744073709551557\",\"file\":\"a.c\""), std::string::npos);
  EXPECT_NE(text.find("\"format\": \"collectivize-sites\""), std::string::npos);
  EXPECT_NE(text.find("\"version\": 1"), std::string::npos);
}

TEST(SiteDatabase, RejectsBadInput) {
  SiteDatabase db;
  std::string err;
  EXPECT_FALSE(fromJson("{", db, err));
  EXPECT_NE(err.find("not JSON"), std::string::npos);
  EXPECT_FALSE(fromJson(R"({"format":"other","version":1,"sites":[]})", db, err));
  EXPECT_FALSE(fromJson(R"({"format":"collectivize-sites","version":99,"sites":[]})", db, err));
  EXPECT_NE(err.find("version"), std::string::npos);
  EXPECT_FALSE(fromJson(R"({"format":"collectivize-sites","version":1,"sites":[{"id":"x"}]})", db, err));
  EXPECT_NE(err.find("site 0"), std::string::npos);
  EXPECT_TRUE(fromJson(R"({"format":"collectivize-sites","version":1,"sites":[]})", db, err));
  std::string site = toJson(SiteDatabase{1, {sampleSite(7, "a.c", 3)}, {}, {}, {}});
  std::string incomplete = site;
  incomplete.replace(incomplete.find("\"file_hash\""), 0, R"("peer_indexed":{"layout":"row"},)");
  EXPECT_FALSE(fromJson(incomplete, db, err));
  EXPECT_NE(err.find("\"buffer\""), std::string::npos) << err;
  std::string noLine = site;
  noLine.replace(noLine.find("\"file_hash\""), 0, R"("value_varies":{"variable":"rows"},)");
  EXPECT_FALSE(fromJson(noLine, db, err));
  EXPECT_NE(err.find("value_varies"), std::string::npos) << err;
}

TEST(SiteDatabase, MergeReplacesByIdAndDropsStaleFiles) {
  SiteDatabase db;
  db.sites = {sampleSite(1, "a.c", 3, 100), sampleSite(2, "a.c", 9, 100), sampleSite(3, "b.c", 1)};
  // b.c again, same content: union by id.
  Site b2 = sampleSite(4, "b.c", 2);
  // a.c edited (new hash): its old records go.
  Site a3 = sampleSite(5, "a.c", 4, 200);
  mergeSites(db, {b2, a3});
  ASSERT_EQ(db.sites.size(), 3u);
  EXPECT_EQ(db.sites[0].id, 5u); // sorted: a.c:4, b.c:1, b.c:2
  EXPECT_EQ(db.sites[1].id, 3u);
  EXPECT_EQ(db.sites[2].id, 4u);
  Site again = sampleSite(3, "b.c", 1);
  again.callee = "MPI_Recv";
  mergeSites(db, {again});
  EXPECT_EQ(db.sites[1].callee, "MPI_Recv");
}

// Build notes: files the wrappers could not instrument leave the list when
// a later compile instruments them; dropped flags are reported new once.
TEST(SiteDatabase, NotesRoundTripAndMerge) {
  SiteDatabase db;
  db.sites = {sampleSite(11, "a.c", 3)};
  BuildNotes first;
  first.uninstrumented = {{"gnu.c", "gnu.c:9:3: error: function definition is not allowed here"},
                          {"b.c", "b.c:1:1: error: x"}};
  first.droppedFlags = {"-ftree-vectorizer-verbose=0", "-fno-tree-pre"};
  EXPECT_EQ(mergeNotes(db, first), first.droppedFlags);
  EXPECT_TRUE(mergeNotes(db, first).empty()); // the same flags again: nothing new
  BuildNotes second;
  second.instrumentedFiles = {"b.c"};
  second.droppedFlags = {"-fno-tree-pre", "-fopt-info"};
  EXPECT_EQ(mergeNotes(db, second), std::vector<std::string>{"-fopt-info"});
  ASSERT_EQ(db.uninstrumented.size(), 1u);
  EXPECT_EQ(db.uninstrumented[0].file, "gnu.c");

  std::string json = toJson(db);
  EXPECT_NE(json.find("\"dropped_flags\": [\"-fno-tree-pre\",\"-fopt-info\",\"-ftree-vectorizer-verbose=0\"]"),
            std::string::npos)
      << json;
  SiteDatabase back;
  std::string err;
  ASSERT_TRUE(fromJson(json, back, err)) << err;
  EXPECT_EQ(back.uninstrumented, db.uninstrumented);
  EXPECT_EQ(back.droppedFlags, db.droppedFlags);
  EXPECT_EQ(back.sites.size(), 1u);
  // A clean build's database has neither key.
  SiteDatabase clean;
  clean.sites = db.sites;
  EXPECT_EQ(toJson(clean).find("uninstrumented"), std::string::npos);
  EXPECT_EQ(toJson(clean).find("dropped_flags"), std::string::npos);
}

// The sources a build parsed keep their hashes (a file of wrapper callers
// has no site to carry one): a later compile of the file replaces its
// hash, and so does a site of the file with another hash.
TEST(SiteDatabase, ParsedSourcesKeepTheirHashes) {
  SiteDatabase db;
  BuildNotes notes;
  notes.sources = {{"main.c", 0x11}, {"callers.c", 0x22}};
  mergeNotes(db, notes);
  uint64_t hash = 0;
  ASSERT_TRUE(knownHash(db, "callers.c", hash));
  EXPECT_EQ(hash, 0x22u);
  BuildNotes again;
  again.sources = {{"callers.c", 0x33}};
  mergeNotes(db, again);
  Site s = sampleSite(5, "main.c", 2);
  s.fileHash = 0x44;
  mergeSites(db, {s});
  ASSERT_EQ(db.sources.size(), 2u);
  EXPECT_TRUE(knownHash(db, "callers.c", hash));
  EXPECT_EQ(hash, 0x33u);
  EXPECT_TRUE(knownHash(db, "main.c", hash));
  EXPECT_EQ(hash, 0x44u);
  // A database without sources (an older build) still knows its sites' files.
  SiteDatabase older;
  older.sites = {s};
  EXPECT_TRUE(knownHash(older, "main.c", hash));
  EXPECT_EQ(hash, 0x44u);
  EXPECT_FALSE(knownHash(older, "callers.c", hash));

  SiteDatabase back;
  std::string err;
  ASSERT_TRUE(fromJson(toJson(db), back, err)) << err;
  EXPECT_EQ(back.sources, db.sources);
  EXPECT_FALSE(fromJson(R"({"format":"collectivize-sites","version":1,"sites":[],"sources":[{"file":"a.c"}]})",
                        back, err));
  EXPECT_NE(err.find("file_hash"), std::string::npos) << err;
}

TEST(SiteDatabase, MissingFileIsEmpty) {
  SiteDatabase db;
  std::string err;
  EXPECT_TRUE(readSiteDatabase(tempPath("missing.json"), db, err)) << err;
  EXPECT_TRUE(db.sites.empty());
}

TEST(SiteDatabase, ConcurrentMergesKeepEverySite) {
  std::string path = tempPath("concurrent.json");
  const int writers = 8, perWriter = 20;
  std::vector<pid_t> kids;
  for (int w = 0; w < writers; ++w) {
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      std::vector<Site> sites;
      for (int i = 0; i < perWriter; ++i)
        sites.push_back(sampleSite(uint64_t(w * 1000 + i + 1), "f" + std::to_string(w) + ".c", i + 1));
      std::string err;
      _exit(mergeIntoSiteDatabase(path, sites, err) ? 0 : 1);
    }
    kids.push_back(pid);
  }
  for (pid_t k : kids) {
    int status = 0;
    waitpid(k, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  SiteDatabase db;
  std::string err;
  ASSERT_TRUE(readSiteDatabase(path, db, err)) << err;
  EXPECT_EQ(db.sites.size(), size_t(writers * perWriter));
  std::remove(path.c_str());
  std::remove((path + ".lock").c_str());
}
