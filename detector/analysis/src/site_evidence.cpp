// site_evidence.cpp: see site_evidence.h.
#include "collectivize/site_evidence.h"

#include <algorithm>
#include <set>

namespace cz::detect {
namespace {

// A peer computed in a way that names all ranks as the program runs at
// more of them: a loop's induction variable, or decided by the caller.
bool reachesAnyRank(const std::string &peer) {
  return peer == "loop" || peer == "parameter" || peer == "any";
}

} // namespace

void weighSiteEvidence(Report &report, const SiteLocations &sites) {
  for (Match &m : report.matches) {
    if (!m.direct || (m.kind != Kind::Alltoall && m.kind != Kind::Allgather)) continue;
    std::set<std::string> classes;
    std::string where;
    bool known = false, anyRank = false;
    for (const SiteUse &su : m.sites) {
      if (!su.send || su.siteKind != 0) continue;
      auto it = sites.find(su.id);
      if (it == sites.end() || it->second.peers.empty()) continue;
      known = true;
      const std::string &peer = it->second.peers.front(); // the destination
      anyRank |= reachesAnyRank(peer);
      if (classes.insert(peer).second)
        where += std::string(where.empty() ? "" : ", ") + it->second.file + ":" +
                 std::to_string(it->second.line) + " (" + peer + ")";
    }
    if (!known || anyRank) continue;
    m.unproven |= kNeighbourhood;
    m.confirmed = false;
    m.note = "every member sent to every other directly, but the destinations come from " +
             where + ", not from a loop over the ranks: a neighbour exchange in which, at " +
             std::to_string(m.ranks.size()) +
             " ranks, every rank is every other's neighbour (MPI_Neighbor_alltoallv on a graph "
             "communicator, not MPI_" +
             std::string(m.kind == Kind::Alltoall ? "Alltoall" : "Allgather") + ")";
  }
  std::stable_sort(report.matches.begin(), report.matches.end(),
                   [](const Match &a, const Match &b) {
                     if (a.confirmed != b.confirmed) return a.confirmed;
                     return isAmbiguous(a) && !isAmbiguous(b);
                   });
}

} // namespace cz::detect
