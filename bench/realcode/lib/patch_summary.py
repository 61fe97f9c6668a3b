"""Print one line per patch of a patch directory: id, status, reason."""
import collections, json, os, sys

d = sys.argv[1]
path = os.path.join(d, "patches.json")
if not os.path.exists(path):
    print("no patches.json (rewrite failed or no matches)")
    sys.exit(0)
patches = json.load(open(path))["patches"]
counts = collections.Counter()
for p in patches:
    counts[p["status"]] += 1
    print(f'{p["id"]}\t{p["status"]}\t{p.get("replacement") or ""}\t{p.get("reason") or ""}'.replace("\n", " "))
print("patches: " + ", ".join(f"{k} {counts[k]}" for k in ("proposed", "review", "none")))
