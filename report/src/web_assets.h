// web_assets.h: report/web/* compiled in (generated web_assets.cpp), so the
// page needs no files at run time.
#pragma once

#include <string>

namespace cz::report {
// The file's text, or "" for an unknown name.
std::string webAsset(const std::string &name);
} // namespace cz::report
