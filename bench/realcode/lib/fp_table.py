"""List every false positive and miss of OUT's score files, grouped by
(program, label, kind, status), with the runs they occur in (repeats excluded).

usage: fp_table.py OUT
"""
import collections, json, os, re, sys

out_root = sys.argv[1]
order = open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "programs", "ORDER")).read().split()
fps, misses = collections.defaultdict(list), collections.defaultdict(list)
for prog in order:
    path = os.path.join(out_root, prog, "score.json")
    if not os.path.exists(path):
        continue
    for case, tags in json.load(open(path))["cases"].items():
        for tag, r in tags.items():
            if re.search(r"-r\d+$", tag):
                continue
            for m in r["matches"]:
                if m["class"] in ("FP", "WRONG-KIND"):
                    fps[(prog, m["label"] or "unlabelled", m["class"], m["kind"], m["status"])].append(f"{case}/{tag}")
            for lid, st in r["required"].items():
                if st != "confirmed":
                    misses[(prog, lid, st)].append(f"{case}/{tag}")
print("| program | label | class | kind | status | matches | runs |\n|---|---|---|---|---|---|---|")
for k, v in sorted(fps.items()):
    print(f"| {' | '.join(k)} | {len(v)} | {', '.join(sorted(set(v)))} |")
print("\n| program | required label | state | runs |\n|---|---|---|---|")
for k, v in sorted(misses.items()):
    print(f"| {' | '.join(k)} | {', '.join(sorted(set(v)))} |")
