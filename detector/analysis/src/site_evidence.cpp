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

// The destinations of a match's send sites: their peer classes and where
// (file:line (class), ...); known is false when no site has them.
struct SendPeers {
  std::set<std::string> classes;
  std::string where;
  bool known = false;
};
SendPeers sendPeers(const Match &m, const SiteLocations &sites) {
  SendPeers out;
  for (const SiteUse &su : m.sites) {
    if (!su.send || su.siteKind != 0) continue;
    auto it = sites.find(su.id);
    if (it == sites.end() || it->second.peers.empty()) continue;
    out.known = true;
    const std::string &peer = it->second.peers.front(); // the destination
    if (out.classes.insert(peer).second)
      out.where += std::string(out.where.empty() ? "" : ", ") + it->second.file + ":" +
                   std::to_string(it->second.line) + " (" + peer + ")";
  }
  return out;
}

// A reduction known by its shape alone (no value pinned an operation)
// whose every send goes to a rank read from a table or a function: an
// exchange along a graph of the program's data (parents, owners) has that
// shape; a reduction tree's parents are computed from the rank.
void weighReduction(Match &m, const SiteLocations &sites) {
  if ((m.kind != Kind::Reduce && m.kind != Kind::Allreduce) || !m.op.empty() || !m.confirmed)
    return;
  SendPeers p = sendPeers(m, sites);
  if (!p.known) return;
  for (const std::string &c : p.classes)
    if (c != "table" && c != "call") return;
  m.unproven |= kReductionOp;
  m.confirmed = false;
  m.note = "the shape of a reduction, but every destination comes from " + p.where +
           " and no value pins down an operation: an exchange along a graph of the program's "
           "data (parents, owners) looks the same";
}

// The source argument's class of a receive site (the site database's
// peers: a receive's source is its only peer; MPI_Sendrecv and
// MPI_Sendrecv_replace give the destination, then the source); "" when
// the database does not say.
std::string receiveSourceClass(const SourceLocation &where) {
  const bool sendrecv = where.callee.rfind("MPI_Sendrecv", 0) == 0;
  const size_t at = sendrecv ? 1 : 0;
  return where.peers.size() > at ? where.peers[at] : "";
}

// A gather or exchange whose member took blocks from several senders into
// several places through a receive from MPI_ANY_SOURCE: each place was
// chosen before its sender was known, so the run's arrival order made the
// layout, whatever order that was (rank order by chance, or another).
void weighArrivalOrder(Match &m, const SiteLocations &sites) {
  std::string where;
  for (const SiteUse &su : m.receivesFromSeveral) {
    if (su.siteKind != 0) continue;
    auto it = sites.find(su.id);
    if (it == sites.end() || receiveSourceClass(it->second) != "any") continue;
    where += std::string(where.empty() ? "" : ", ") + it->second.file + ":" +
             std::to_string(it->second.line);
  }
  if (where.empty()) return;
  m.unproven |= kArrivalOrder;
  m.confirmed = false;
  const std::string why = "the blocks were received from MPI_ANY_SOURCE at " + where +
                          ", each into a place chosen before its sender was known: the layout "
                          "is this run's order of arrival, which another run need not repeat";
  m.note = m.note.empty() ? why : m.note + "; " + why;
}

// A bcast, or an allgather whose members each sent one block to all, is
// shown by equal messages from one place; when that place is a variable
// the loop around the send sets per destination (value_varies: `rows =
// dest <= extra ? ave + 1 : ave;`), the values were equal by chance of the
// process count, and another count sends a scatter's distinct values.
void weighVaryingValue(Match &m, const SiteLocations &sites) {
  if (m.kind != Kind::Bcast && m.kind != Kind::Allgather) return;
  std::string where;
  for (const SiteUse &su : m.sites) {
    if (!su.send || su.siteKind != 0) continue;
    auto it = sites.find(su.id);
    if (it == sites.end() || it->second.varies.variable.empty()) continue;
    const SourceLocation &sl = it->second;
    where += std::string(where.empty() ? "" : ", ") + sl.file + ":" + std::to_string(sl.line) + " sends " +
             sl.varies.variable + ", set by `" + sl.varies.assignment + "` (line " +
             std::to_string(sl.varies.line) + ")";
  }
  if (where.empty()) return;
  m.unproven |= kPerPeerValue;
  m.confirmed = false;
  const std::string why = "the same value went to every member, but " + where +
                          " anew for each destination: equal at " + std::to_string(m.ranks.size()) +
                          " ranks by chance, it may differ at another process count";
  m.note = m.note.empty() ? why : m.note + "; " + why;
}

void weighSiteEvidence(Report &report, const SiteLocations &sites) {
  for (Match &m : report.matches) weighReduction(m, sites);
  for (Match &m : report.matches) weighVaryingValue(m, sites);
  for (Match &m : report.matches) weighArrivalOrder(m, sites);
  for (Match &m : report.matches) {
    if (!m.direct || !isExchange(m.kind)) continue;
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
             std::string(mpiCallOf(m.kind)).substr(4) + ")";
  }
  std::stable_sort(report.matches.begin(), report.matches.end(),
                   [](const Match &a, const Match &b) {
                     if (a.confirmed != b.confirmed) return a.confirmed;
                     return isAmbiguous(a) && !isAmbiguous(b);
                   });
}

} // namespace cz::detect
