# summary.py DIR [A_NAME B_NAME]: cz_/MPI per cell over the launches of
# run_ab.sh (DIR/a.csv, DIR/b.csv, DIR/placement.csv), per build:
#  - all launches: median [min-max] of the launches' ratio_median, how many
#    read above 1.05, how many were far (cz_far_cores read a round trip
#    above 200 ns before or after the launch; near is 50-90 ns, far 290-340
#    on this VM) and the worst ratio among those;
#  - counted: the launches whose MPI/MPI control in the cell is within
#    1 +- 0.05 (the keep rule of bench/dispatch/summary.py): how many, their
#    median and worst.
# Markdown table on stdout.
import csv, statistics as st, sys
from collections import defaultdict

root = sys.argv[1]
names = sys.argv[2:4] if len(sys.argv) >= 4 else ["a", "b"]
FAR_NS, MARGIN = 200, 0.05

place = defaultdict(list)  # (launch, build, procs) -> round trips
for r in csv.DictReader(open(root + "/placement.csv")):
    place[(r["launch"], r["build"], r["procs"])].append(float(r["round_trip_ns"] or 0))

cells = defaultdict(list)  # (coll, P, bytes, mode, build) -> rows
for b in ("a", "b"):
    for r in csv.DictReader(open("%s/%s.csv" % (root, b))):
        launch, procs = r["tag"][1:].split("-P")
        far = max(place[(launch, b, procs)] or [0]) > FAR_NS
        key = (r["coll"], int(r["procs"]), int(r["bytes"]), r["mode"], b)
        control = abs(float(r["control_ratio_median"]) - 1) <= MARGIN
        cells[key].append((float(r["ratio_median"]), far, r["table"], control))


def describe(rows):
    rs = [x[0] for x in rows]
    far = [x[0] for x in rows if x[1]]
    ok = [x[0] for x in rows if x[3]]
    text = "%.2f [%.2f-%.2f], %d of %d > 1.05, far %d%s" % (
        st.median(rs), min(rs), max(rs), sum(r > 1.05 for r in rs), len(rs),
        len(far), " (worst %.2f)" % max(far) if far else "")
    text += "; counted %d%s" % (len(ok), ": %.2f, worst %.2f" % (st.median(ok), max(ok)) if ok else "")
    return text


print("| coll | P | bytes | mode | table | %s | %s |" % tuple(names))
print("|---|---:|---:|---|---|---|---|")
for k in sorted(set(k[:4] for k in cells)):
    out = [describe(cells[k + (b,)]) for b in ("a", "b") if cells[k + (b,)]]
    if len(out) < 2: continue
    print("| %s | %d | %d | %s | %s | %s | %s |" % (k + (cells[k + ("b",)][0][2],) + tuple(out)))
