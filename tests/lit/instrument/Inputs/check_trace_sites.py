"""Every instrumenter site id in a `collectivize trace dump` must be a record
of the site database(s): usage: check_trace_sites.py DUMP DB.json [DB.json...]
Prints how many distinct ids the trace has; fails if none or any is unknown.
Return-address sites (site=ra:0x...) are listed as uninstrumented calls."""
import json
import re
import sys

dump, dbs = sys.argv[1], sys.argv[2:]
known = {}
for path in dbs:
    with open(path) as f:
        db = json.load(f)
    assert db["format"] == "collectivize-sites", path
    for s in db["sites"]:
        known[int(s["id"])] = s
traced, ra = set(), set()
with open(dump) as f:
    for line in f:
        for m in re.finditer(r"\bsite=(ra:0x[0-9a-f]+|\d+)", line):
            (ra if m.group(1).startswith("ra:") else traced).add(m.group(1))
unknown = sorted(t for t in traced if int(t) not in known)
if not traced or unknown:
    print("trace sites not in the database: %s (traced %d)" % (unknown, len(traced)))
    sys.exit(1)
for t in sorted(traced, key=lambda t: (known[int(t)]["file"], known[int(t)]["line"])):
    s = known[int(t)]
    print("site %s:%d %s" % (s["file"], s["line"], s["callee"]))
print("%d traced sites, all in the site database; %d uninstrumented call addresses"
      % (len(traced), len(ra)))
