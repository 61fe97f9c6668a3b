# summary.py DIR: cz_/MPI per cell over the launches DIR/ref-*.csv
# (before) and DIR/new-*.csv (after) of bench/dispatch/run.sh, median
# [min-max] and how many launches read above 1.05; a markdown table.
import csv,glob,statistics as st,sys
from collections import defaultdict
d=defaultdict(list)
root=sys.argv[1]
for f in glob.glob(root+'/*.csv'):
    b=f.split('/')[-1].split('-')[0]
    for r in csv.DictReader(open(f)):
        d[(r['coll'],int(r['procs']),int(r['bytes']),r['mode'],b)].append((float(r['ratio_median']),r['table'],float(r['control_ratio_median'])))
print("| coll | P | bytes | mode | table | before: cz_/MPI median [min-max], launches > 1.05 | after |")
print("|---|---:|---:|---|---|---|---|")
for k in sorted(set(k[:4] for k in d)):
    out=[]
    for b in ('ref','new'):
        rs=[x[0] for x in d[k+(b,)]]
        out.append("%.2f [%.2f-%.2f], %d of %d" % (st.median(rs),min(rs),max(rs),sum(r>1.05 for r in rs),len(rs)))
    print("| %s | %d | %d | %s | %s | %s |" % (k[0],k[1],k[2],k[3],d[k+('new',)][0][1]," | ".join(out)))
