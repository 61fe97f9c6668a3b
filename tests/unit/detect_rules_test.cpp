// The registry of detection rules (detector/analysis/src/rules.cpp): each
// kind of the one table is found by some rule (a kind added to the table
// without the rule that finds it fails here), names are unique, and the
// progress phases come in the order `detect --progress` has always named
// them.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "collectivize/detect.h"
#include "rules.h"

using namespace cz::detect;

TEST(DetectionRules, EveryKindOfTheTableHasARule) {
  std::set<Kind> found;
  for (const RuleDescription &r : detectionRuleList()) found.insert(r.finds.begin(), r.finds.end());
#define COLLECTIVE_KIND(Enum, name, call, rooted, counts, reduction) \
  EXPECT_TRUE(found.count(Kind::Enum)) << name << " is in collective_kinds.def but no rule finds it";
#include "collectivize/collective_kinds.def"
#undef COLLECTIVE_KIND
}

TEST(DetectionRules, NamesAreUniqueAndEveryRuleSaysWhatItProves) {
  std::set<std::string> names;
  for (const RuleDescription &r : detectionRuleList()) {
    EXPECT_TRUE(names.insert(r.name).second) << r.name;
    EXPECT_FALSE(r.proves.empty()) << r.name;
    EXPECT_FALSE(r.finds.empty()) << r.name;
  }
}

TEST(DetectionRules, PhasesInTheirOrderAndTheLastRuleClosesOne) {
  std::vector<std::string> phases;
  for (const detail::DetectionRule &r : detail::detectionRules())
    if (*r.phase) phases.push_back(r.phase);
  EXPECT_EQ(phases, (std::vector<std::string>{"tiling", "barriers", "block flows", "prefix reductions", "reductions", "spreads",
                                              "provenance and gathering"}));
  ASSERT_FALSE(detail::detectionRules().empty());
  EXPECT_STRNE(detail::detectionRules().back().phase, "");
}

TEST(DetectionRules, TextNumbersTheRulesInRunOrder) {
  std::string text = detectionRuleText();
  size_t tiling = text.find("1. tiling (scatter, gather, allgather, alltoall)");
  size_t spread = text.find(". spread (bcast)");
  ASSERT_NE(tiling, std::string::npos) << text;
  ASSERT_NE(spread, std::string::npos) << text;
  EXPECT_LT(tiling, spread);
  EXPECT_NE(text.find("   proves: "), std::string::npos);
}
