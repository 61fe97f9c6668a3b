// record_codec.h: one rank's RankRecords as bytes, for shipping them
// between the processes of the parallel mode. The records are plain
// structs of one build of one tool on one machine, so they travel as their
// memory images.
#pragma once

#include <string>
#include <vector>

#include "collectivize/messages.h"

namespace cz::detect::parallel::detail {

void encode(const RankRecords &r, std::vector<char> &out);
// False (with why) when the bytes are not what encode writes.
bool decode(const std::vector<char> &in, RankRecords &r, std::string &why);

// Process p's records (its ranks r with r % N == p, ascending) for every
// process, back in rank order; throws when a rank's are missing.
std::vector<RankRecords> inRankOrder(std::vector<std::vector<RankRecords>> byProcess, int ranks);

} // namespace cz::detect::parallel::detail
