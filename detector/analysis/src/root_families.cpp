// root_families.cpp: see root_families.h.
#include "root_families.h"

#include "allgatherv_layout.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace cz::detect::detail {
namespace {

const Arrival *arrivalAt(const Match &m, uint32_t rank) {
  for (const Arrival &a : m.arrivals)
    if (a.rank == rank) return &a;
  return nullptr;
}

// Every root sent its own data before it received any other member's: the
// broadcasts run together (a ring or linear allgather), not one after the
// other (each root received the previous data, then computed and sent).
bool together(const std::vector<Match *> &ms) {
  for (const Match *b : ms) {
    const Arrival *own = arrivalAt(*b, b->rootWorld);
    if (!own) return false;
    for (const Match *a : ms) {
      if (a == b) continue;
      const Arrival *got = arrivalAt(*a, b->rootWorld);
      if (!got || got->pos < own->pos) return false;
    }
  }
  return true;
}

// At every member the blocks (its own, where it sent it from, and the
// others', where they arrived) occupy places of their own.
bool keptApart(const std::vector<Match *> &ms, const std::vector<uint32_t> &ranks) {
  for (uint32_t q : ranks) {
    std::vector<std::pair<uint64_t, uint64_t>> places;
    for (const Match *m : ms)
      if (const Arrival *a = arrivalAt(*m, q)) places.push_back({a->address, a->address + a->bytes});
    std::sort(places.begin(), places.end());
    for (size_t i = 1; i < places.size(); i++)
      if (places[i].first < places[i - 1].second) return false;
  }
  return true;
}

// The broadcasts come one after another: for any two, every member that
// got both got them in the same order (the root counting its own send),
// and no two calls overlap at a rank (Match::overlapsOtherRoots, from all
// their instances). A loop over panels owned by different ranks does;
// random pairs swapping each rank's one buffer do not: the "broadcasts"
// are pieces of one loop. The rank where two disagree in `rank` (kNone
// when only the aggregation saw them overlap).
bool oneAfterAnother(const std::vector<Match *> &ms, uint32_t &rank) {
  rank = kNone;
  for (const Match *m : ms)
    if (m->overlapsOtherRoots) return false;
  for (size_t i = 0; i < ms.size(); i++)
    for (size_t j = i + 1; j < ms.size(); j++) {
      int order = 0; // +1: i first, -1: j first, at the ranks seen so far
      for (const Arrival &a : ms[i]->arrivals) {
        const Arrival *b = arrivalAt(*ms[j], a.rank);
        if (!b || a.pos == b->pos) continue;
        int here = a.pos < b->pos ? 1 : -1;
        if (order && here != order) {
          rank = a.rank;
          return false;
        }
        order = here;
      }
    }
  return true;
}

// The sums of a merged match, its sites the union of the members'.
Match combine(const std::vector<Match *> &ms, Kind kind) {
  Match all = *ms[0];
  all.kind = kind;
  all.root = -1;
  all.rootWorld = kNone;
  all.otherRoots.clear();
  all.arrivals.clear();
  all.messages = all.bytesMoved = 0;
  all.secondsInMessages = 0;
  all.secondsCriticalPath = 0;
  all.timedInstances = 0;
  all.note.clear();
  std::set<SiteUse> sites;
  for (const Match *m : ms) {
    all.unproven = combineUnproven(all.unproven, m->unproven); // what one member proves holds for all
    all.supportOnly = all.supportOnly && m->supportOnly;
    all.messages += m->messages;
    all.bytesMoved += m->bytesMoved;
    all.secondsInMessages += m->secondsInMessages;
    all.secondsCriticalPath += m->secondsCriticalPath;
    all.timedInstances += m->timedInstances;
    sites.insert(m->sites.begin(), m->sites.end());
    unionSites(all.receivesFromSeveral, m->receivesFromSeveral);
  }
  all.sites.assign(sites.begin(), sites.end());
  // Every root's value different, each following the same code: not a
  // coincidence of small values, whatever each alone would allow.
  std::set<uint32_t> values;
  for (const Match *m : ms) values.insert(m->itemCrc);
  if (values.size() == ms.size() && ms.size() >= 3) all.unproven &= ~uint32_t(kSmallValue);
  return all;
}

bool oneRootPerMember(const std::vector<Match *> &ms) {
  std::set<uint32_t> roots;
  for (const Match *m : ms) roots.insert(m->rootWorld);
  return roots.size() == ms.size() && ms.size() == ms[0]->ranks.size();
}

// One exchange of every member's block: allgather, or combined in place.
bool mergeExchange(const std::vector<Match *> &ms, std::vector<Match> &out) {
  if (!oneRootPerMember(ms) || !together(ms)) return false;
  bool apart = keptApart(ms, ms[0]->ranks);
  Match all = combine(ms, apart ? Kind::Allgather : Kind::Allreduce);
  if (all.supportOnly) return false; // fills only: no evidence
  if (apart && blockSizesVary(ms)) makeAllgatherv(ms, all); // blocks of their own lengths
  all.supportOnly = false;
  all.instances = ms[0]->instances;
  for (const Match *m : ms) all.instances = std::min(all.instances, m->instances);
  // Every root but one had just received what it then sent, from the
  // group (scattered_first.cpp): pieces scattered, then gathered again.
  size_t fed = 0;
  for (const Match *m : ms) fed += m->fedRoot;
  if (fed + 1 >= ms.size()) {
    all.unproven |= kScatteredFirst;
    all.note = "every root but one had just received, from the group, data no collective "
               "explains before it sent its own block: scattered pieces gathered again are one "
               "broadcast (a long broadcast's spread and roll)";
  }
  if (!apart) {
    all.unproven |= kCombined;
    all.otherKinds = {Kind::Allgather}; // the data of one, its blocks consumed as they arrive
    all.note = "every member's block reached every member, each received into the place the "
               "previous one was received in: combined as they arrive (an allreduce), unless "
               "the program copies each one out";
  }
  out.push_back(std::move(all));
  return true;
}

// The merged match's instances (every call's) and roots (each once, in
// order); returns how many roots.
size_t gatherRoots(const std::vector<Match *> &ms, Match &all) {
  all.instances = 0;
  std::set<uint32_t> roots;
  for (const Match *m : ms) {
    all.instances += m->instances;
    roots.insert(m->rootWorld);
  }
  all.roots.assign(roots.begin(), roots.end());
  return roots.size();
}

// Broadcasts from one code, one root after another. Constant fills from
// rank after rank are what a halo exchange of zeros looks like: with no
// distinct payload among them they are dropped, not reported.
void mergeRotating(const std::vector<Match *> &ms, std::vector<Match> &out) {
  Match all = combine(ms, Kind::Bcast);
  if (all.unproven & kPayloadFill) return;
  all.supportOnly = false;
  const size_t roots = gatherRoots(ms, all);
  uint32_t rank = 0;
  if (!oneAfterAnother(ms, rank)) {
    all.unproven |= kInterleaved;
    all.note = "the root changes from instance to instance (" + std::to_string(roots) +
               " roots), but the broadcasts do not come one after another: " +
               (rank == kNone ? std::string("at some rank two of them overlap")
                              : "world rank " + std::to_string(rank) +
                                    " got two of them in the other order than another member did") +
               "; one loop serving every root's data in turn (pairs swapping their buffers), not "
               "broadcasts";
    out.push_back(std::move(all));
    return;
  }
  all.note = "the root changes from instance to instance (" + std::to_string(roots) +
             " roots): each root had received the previous broadcast before it sent its own, so "
             "these are one broadcast after another, not an allgather";
  out.push_back(std::move(all));
}

// Reduces from one code, one root after another (a linear pipeline called
// for each root in turn, rotating_chain.cpp): one reduce whose root varies.
// What one call leaves open stays open for all; each call's note stands.
void mergeRotatingReduces(const std::vector<Match *> &ms, std::vector<Match> &out) {
  Match all = combine(ms, Kind::Reduce);
  const size_t roots = gatherRoots(ms, all);
  all.note = "the root changes from call to call (" + std::to_string(roots) + " roots)";
  if (!ms[0]->note.empty()) all.note += ": " + ms[0]->note;
  out.push_back(std::move(all));
}

} // namespace

void mergeRootFamilies(std::vector<Match *> &matches, std::set<Match *> &merged,
                       std::vector<Match> &out) {
  // Call sites without their role: in a ring every block passes the same
  // calls, each rank sending some blocks and receiving others.
  using Calls = std::tuple<uint32_t, std::vector<uint32_t>, std::set<std::pair<uint64_t, uint8_t>>>;
  using Shape = std::tuple<uint32_t, std::vector<uint32_t>, uint64_t, uint64_t, uint64_t>;
  std::map<Calls, std::vector<Match *>> bySites, reducesBySites;
  std::map<Shape, std::vector<Match *>> byShape;
  for (Match *mp : matches)
    if (Match &m = *mp; (m.kind == Kind::Bcast || m.kind == Kind::Reduce) && !m.subset &&
                        m.rootWorld != kNone) {
      std::set<std::pair<uint64_t, uint8_t>> calls;
      for (const SiteUse &su : m.sites) calls.insert({su.id, su.siteKind});
      if (m.kind == Kind::Reduce) {
        reducesBySites[{m.comm, m.ranks, calls}].push_back(&m);
        continue;
      }
      bySites[{m.comm, m.ranks, calls}].push_back(&m);
      byShape[{m.comm, m.ranks, m.instances, m.messages, m.bytesPerInstance}].push_back(&m);
    }
  auto unmerged = [&](std::vector<Match *> ms) {
    ms.erase(std::remove_if(ms.begin(), ms.end(), [&](Match *m) { return merged.count(m) > 0; }),
             ms.end());
    return ms;
  };
  for (auto &[key, family] : bySites) {
    std::vector<Match *> ms = unmerged(family);
    std::set<uint32_t> roots;
    for (const Match *m : ms) roots.insert(m->rootWorld);
    if (roots.size() < 2) continue;
    if (!mergeExchange(ms, out)) mergeRotating(ms, out);
    merged.insert(ms.begin(), ms.end());
  }
  for (auto &[key, family] : reducesBySites) {
    // One root, or calls the evidence tells apart (another op, another
    // status): left as they are.
    std::set<uint32_t> roots;
    std::set<std::tuple<std::string, bool, uint32_t>> evidence;
    for (const Match *m : family)
      roots.insert(m->rootWorld), evidence.insert({m->op, m->shapeOnly, m->unproven});
    if (roots.size() < 2 || evidence.size() != 1) continue;
    mergeRotatingReduces(family, out);
    merged.insert(family.begin(), family.end());
  }
  for (auto &[key, family] : byShape) {
    std::vector<Match *> ms = unmerged(family);
    if (!ms.empty() && mergeExchange(ms, out)) merged.insert(ms.begin(), ms.end());
  }
}

} // namespace cz::detect::detail
