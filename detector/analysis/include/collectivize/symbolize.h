// symbolize.h: return addresses -> source lines.
//
// A binary the instrumenter did not see records the return address of each
// MPI call as its site. The tracer wrote where each rank's code was loaded
// (rank-N.objects), so an address becomes (object file, file address), and
// llvm-symbolizer (binutils' addr2line where it is not installed) turns that
// into function and file:line when the binary has debug information. Copies of one call that the compiler made
// (a peeled or unrolled loop) then become one site, and reports show
// file:line for any binary.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "collectivize/messages.h"
#include "collectivize/report.h"

namespace cz::detect {

struct SymbolizeStats {
  size_t addresses = 0, resolved = 0;
  std::string problem; // why nothing could be resolved ("" if fine)
};

// Rewrites the return-address sites of t's messages to one id per source
// line (kind stays 1) and fills `where` with their locations. Sites that
// cannot be resolved keep their address.
//
// An instrumenter site in the program's own wrapper of an MPI call comes
// with its caller (Message::sendCaller, recvCaller): the pair (site, the
// caller's source line) becomes one site of kind 2, whose `where` entry is
// the caller's line with wrapperSite set to the instrumenter id. So one
// wrapper used by two patterns gives each its own sites, and the messages
// of one pattern share theirs. A caller that cannot be resolved leaves the
// wrapper's site alone.
// Function and file:line of each file address of one object file, in the
// order given ("??" and "??:0" where it has no debug information): the
// innermost inlined function, the one whose source holds the instruction.
// False when no symbolizer could read the object. *tool names the one used.
bool locateFileAddresses(const std::string &object, const std::vector<uint64_t> &fileAddrs,
                         std::vector<std::pair<std::string, std::string>> &out,
                         std::string *tool = nullptr);

// The source's name of a function the compiler cloned: llvm-symbolizer
// names a specialised or outlined copy by its symbol ("f.constprop.0",
// "f(int) [clone .isra.0]"), addr2line by its DWARF name ("f").
std::string withoutCloneSuffix(std::string function);

SymbolizeStats symbolizeReturnAddresses(const std::string &traceDir, MessageTable &t,
                                        SiteLocations &where);

} // namespace cz::detect
