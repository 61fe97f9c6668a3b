"""Writes a detection report (detector/REPORT_FORMAT.md) by hand for the
rewriter's hermetic tests: the sites come from a real site database (so
their ids are the instrumenter's), the facts the detector would prove are
given on the command line.

usage: make_report.py SITES.json MATCH... > report.json

Each MATCH is one argument: a kind, then key=value words, e.g.
  'gather root=0 count=3 lines=10-24'
Keys: lines=A-B,C (only the sites on those lines; default: every
point-to-point site), ranks=0,1,2 (the group; default 0,1,2,3), and any
key of a match in the report (root, count, datatype, op, status,
recv_layout, note, instances, ...), its value read as JSON when it is
JSON (count=4, count="four", sites=[]) and as a string otherwise.
site.KEY=VALUE sets KEY in every site of the match (site.line=-5).
callers=A,B,... gives the sites, in order, callers on those lines of
their own file (sites in the program's own wrappers, REPORT_FORMAT.md),
or of caller_file=FILE (root-relative) when given.
"""
import json
import sys

SEND = {"MPI_Send", "MPI_Ssend", "MPI_Bsend", "MPI_Rsend", "MPI_Isend", "MPI_Issend",
        "MPI_Ibsend", "MPI_Irsend", "MPI_Send_init"}
RECV = {"MPI_Recv", "MPI_Irecv", "MPI_Recv_init"}
BOTH = {"MPI_Sendrecv", "MPI_Sendrecv_replace"}


def value(text):
    try:
        return json.loads(text)
    except ValueError:
        return text


def match_of(spec, sites):
    words = spec.split()
    kind, keys = words[0], dict(w.split("=", 1) for w in words[1:])
    spans = [(0, 1 << 30)]
    if "lines" in keys:
        spans = []
        for part in keys.pop("lines").split(","):
            a, _, b = part.partition("-")
            spans.append((int(a), int(b or a)))
    ranks = [value(r) for r in keys.pop("ranks", "0,1,2,3").split(",")]
    callers = [int(c) for c in keys.pop("callers").split(",")] if "callers" in keys else []
    caller_file = keys.pop("caller_file", None)
    rooted = kind in ("bcast", "scatter", "gather", "reduce")
    m = {"kind": kind, "status": "confirmed", "coverage": 1.0,
         "root": 0 if rooted else None, "root_world": None,
         "communicator": {"ref": 0, "name": "MPI_COMM_WORLD"}, "ranks": ranks,
         "subset": False, "split": None, "instances": 1, "messages": len(ranks) - 1,
         "bytes_per_instance": 4, "bytes_moved": 4 * (len(ranks) - 1),
         "seconds_in_messages": 1e-5, "count": 1, "datatype": "MPI_INT", "op": None,
         "equivalent": "", "note": ""}
    site_keys = {}
    for k, v in keys.items():
        if k.startswith("site."):
            site_keys[k[5:]] = value(v)
        else:
            m[k] = value(v)
    if rooted and m["root_world"] is None and isinstance(m["root"], int) and 0 <= m["root"] < len(ranks):
        m["root_world"] = ranks[m["root"]]
    if "sites" not in keys:
        m["sites"] = []
        for s in sites:
            if s["kind"] != "p2p" or not any(a <= s["line"] <= b for a, b in spans):
                continue
            roles = ["send"] if s["callee"] in SEND else ["recv"] if s["callee"] in RECV else \
                ["send", "recv"] if s["callee"] in BOTH else []
            for role in roles:
                site = {"id": s["id"], "kind": "instrumenter", "role": role, "file": s["file"],
                        "line": s["line"], "column": s["column"], "function": s["function"],
                        "callee": s["callee"]}
                site.update(site_keys)
                m["sites"].append(site)
        for site, line in zip(m["sites"], callers):
            site["caller"] = {"file": caller_file or site["file"], "line": line, "function": ""}
    return m


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    sites_path = sys.argv[1]
    with open(sites_path) as f:
        sites = json.load(f)["sites"]
    report = {"format": "collectivize-detection", "version": 1, "trace": "hand-written",
              "command": "./app", "sites": sites_path, "ranks": 4,
              "stats": {"events": 0, "sends": 0, "receives": 0, "matched": 0,
                        "unmatched_sends": 0, "unmatched_receives": 0, "collectives": {}},
              "warnings": [], "matches": [match_of(spec, sites) for spec in sys.argv[2:]]}
    json.dump(report, sys.stdout, indent=1)
    sys.stdout.write("\n")


main()
