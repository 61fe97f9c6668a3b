"""Writes a detection report (detector/REPORT_FORMAT.md) by hand for the
rewriter's hermetic Fortran tests: return-address sites named by the lines
of one Fortran file, as `collectivize detect` names them for a program
built with -g, and the facts the detector would prove given here.

usage: fortran_report.py FILE.f90 MATCH... > report.json

Each MATCH is one argument: a kind, then key=value words, e.g.
  'bcast send=20 recv=24 root=1'
send=L[,L...] and recv=L[,L...] give the sites' lines; ranks=0,1,2,3 the
group (the default); any other key sets that key of the match, its value
read as JSON when it is JSON and as a string otherwise.
"""
import json
import os
import sys


def value(text):
    try:
        return json.loads(text)
    except ValueError:
        return text


def match_of(spec, path, first_id):
    words = spec.split()
    kind, keys = words[0], dict(w.split("=", 1) for w in words[1:])
    ranks = [int(r) for r in keys.pop("ranks", "0,1,2,3").split(",")]
    sites = []
    for role in ("send", "recv"):
        for line in keys.pop(role, "").split(","):
            if line:
                sites.append({"id": str(first_id + len(sites)), "kind": "return_address", "role": role,
                              "file": path, "line": int(line), "function": "MAIN__"})
    rooted = kind in ("bcast", "scatter", "gather", "reduce", "gatherv", "scatterv")
    m = {"kind": kind, "status": "confirmed", "coverage": 1.0, "root": 0 if rooted else None,
         "root_world": None, "communicator": {"ref": 0, "name": "MPI_COMM_WORLD"}, "ranks": ranks,
         "subset": False, "split": None, "instances": 1, "messages": len(ranks) - 1,
         "bytes_per_instance": 8, "bytes_moved": 8 * (len(ranks) - 1), "seconds_in_messages": 1e-5,
         "count": 2, "datatype": "MPI_DOUBLE_PRECISION", "op": None, "equivalent": "", "note": "",
         "sites": sites}
    for k, v in keys.items():
        m[k] = value(v)
    if rooted and m["root_world"] is None and isinstance(m["root"], int) and 0 <= m["root"] < len(ranks):
        m["root_world"] = ranks[m["root"]]
    return m


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    path = os.path.abspath(sys.argv[1])
    matches = [match_of(spec, path, 1000 * (i + 1)) for i, spec in enumerate(sys.argv[2:])]
    report = {"format": "collectivize-detection", "version": 1, "trace": "hand-written",
              "command": "./prog", "sites": None, "ranks": 4,
              "stats": {"events": 0, "sends": 0, "receives": 0, "matched": 0,
                        "unmatched_sends": 0, "unmatched_receives": 0, "collectives": {}},
              "warnings": [], "matches": matches}
    json.dump(report, sys.stdout, indent=1)
    sys.stdout.write("\n")


main()
