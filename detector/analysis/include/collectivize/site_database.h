// site_database.h: reading the instrumenter's site database
// (clang-plugin/SITE_DATABASE.md) without Clang: the detector meets the
// instrumenter only through this file.
#pragma once

#include <string>

#include "collectivize/detect.h"
#include "collectivize/report.h"
#include "collectivize/trace_reader.h"

namespace cz::detect {

// Site id -> file (project-relative), line, column, callee. Fails with the
// file, offset and reason on a file that is not a version-1 site database.
trace::Result<SiteLocations> readSiteDatabase(const std::string &path);
// The same from the file's text (`path` names it in errors).
trace::Result<SiteLocations> parseSiteDatabase(const std::string &text, const std::string &path);

// The sites whose buffer stages another array's data at an offset that
// follows the peer ("staging" with offset_from peer, source or loop), for
// DetectOptions::stagedSites. Sends take fills, receives copies out. Also
// the sites whose buffer is an address the peer argument chooses ("peer_indexed":
// `sendbuf[i]`, `&a[i * n]` to rank i: StagedSite::perPeer).
std::map<uint64_t, StagedSite> stagedSitesOf(const SiteLocations &sites);

} // namespace cz::detect
