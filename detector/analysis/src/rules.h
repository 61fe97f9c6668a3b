// rules.h: the registry of detection rules: every analysis that turns
// messages into instances of a collective, in the order they run, with
// what each one claims and proves. findInWindow (detect.cpp) runs the
// list; `collectivize detect --list-rules` prints it. A new rule is one
// entry in rules.cpp and its own file.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "detect_internal.h"

namespace cz::detect::detail {

// What a rule reads and writes. The rank-activity index and the
// provenance replay are made on first use (the replay may be running on
// a second thread: taking it waits for it).
class RuleInputs {
public:
  RuleInputs(const MessageTable &t, const DetectOptions &o, std::vector<uint8_t> &claimed,
             std::vector<Instance> &instances, std::function<const Provenance &()> provenance);
  ~RuleInputs();
  const MessageTable &t;
  const DetectOptions &o;
  std::vector<uint8_t> &claimed;   // messages an earlier rule explained
  std::vector<Instance> &instances; // every rule's findings so far
  const RankActivity &activity();
  const Provenance &provenance() { return provenance_(); }
  const std::vector<uint32_t> &usable(); // usableMessages(t, o), made on first use
  ValueRounds valueRounds;               // shared by prefix reductions and reductions

private:
  std::unique_ptr<RankActivity> activity_;
  std::unique_ptr<std::vector<uint32_t>> usable_;
  std::function<const Provenance &()> provenance_;
};

struct DetectionRule {
  const char *name;        // short and stable: "tiling", "spread"
  std::vector<Kind> finds; // the kinds of the instances it adds or changes
  const char *proves;      // what holds for an instance it confirms
  const char *order;       // why it runs where it does ("" : anywhere after the previous)
  const char *phase;       // the progress phase it closes ("" : none)
  void (*run)(RuleInputs &);
};

// Every rule, in run order.
const std::vector<DetectionRule> &detectionRules();

} // namespace cz::detect::detail
