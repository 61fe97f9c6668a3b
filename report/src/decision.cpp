// decision.cpp: the decision table as the runtime reads it. Each cell asks
// the runtime's own selection (cz_selected_algorithm), so the picture is the
// table's real meaning, first-match rules and all.
#include <cstdio>
#include <cstdlib>

#include "collectivize.h"
#include "inputs.h"

namespace cz::report {

Json loadDecision(const std::string &tablePath, InputStatus &status) {
  status.name = "decision table";
  status.path = tablePath.empty() ? "built-in (runtime/data/decision-table.txt)" : tablePath;
  status.status = "ok";
  // Only the table may steer the selection, not a forced algorithm.
  for (const char *v : {"COLLECTIVIZE_ALLTOALL_ALGORITHM", "COLLECTIVIZE_ALLGATHER_ALGORITHM",
                        "COLLECTIVIZE_BCAST_ALGORITHM", "COLLECTIVIZE_ALLTOALLV_ALGORITHM"})
    unsetenv(v);
  if (!tablePath.empty()) {
    char message[512] = "";
    if (cz_decision_table_check(tablePath.c_str(), message, sizeof message) != 0) {
      status.status = "malformed";
      status.message = std::string(message) + "; the built-in table is shown instead";
      status.path = "built-in (runtime/data/decision-table.txt)";
      unsetenv("COLLECTIVIZE_TUNING");
    } else {
      setenv("COLLECTIVIZE_TUNING", tablePath.c_str(), 1);
    }
  } else {
    unsetenv("COLLECTIVIZE_TUNING");
  }
  setenv("COLLECTIVIZE_QUIET", "1", 1);
  Json out = Json::object();
  out.set("source", Json::string(status.path));
  Json colls = Json::array();
  for (cz_collective c : {CZ_COLL_ALLTOALL, CZ_COLL_ALLGATHER, CZ_COLL_BCAST}) {
    Json g = Json::object();
    g.set("collective", Json::string(cz_collective_name(c)));
    Json procs = Json::array(), bytes = Json::array(), grid = Json::array();
    for (int p = 2; p <= 64; ++p) procs.push(Json::number(p));
    for (long long b = 1; b <= (4ll << 20); b *= 2) bytes.push(Json::number(double(b)));
    for (int p = 2; p <= 64; ++p) {
      Json row = Json::array();
      for (long long b = 1; b <= (4ll << 20); b *= 2) {
        char name[64] = "?";
        if (cz_selected_algorithm(c, p, b, name, sizeof name) != 0) std::snprintf(name, sizeof name, "?");
        row.push(Json::string(name));
      }
      grid.push(std::move(row));
    }
    g.set("procs", std::move(procs));
    g.set("bytes", std::move(bytes));
    g.set("grid", std::move(grid));
    colls.push(std::move(g));
  }
  out.set("collectives", std::move(colls));
  if (status.message.empty()) status.message = "alltoall, allgather, bcast for P 2-64, 1 B-4 MiB";
  return out;
}

} // namespace cz::report
