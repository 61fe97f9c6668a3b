#!/usr/bin/env python3
"""summary.py: what bench/dispatch/run.sh measured, against issue 26's goals,
and the rule that decides where the table may keep its own algorithm.

    python3 bench/dispatch/summary.py OUT/dispatch.csv [--svg OUT] [--rules]

Per (collective, P, bytes, mode): the table's choice, the median over
launches of each launch's median cz_/MPI ratio, the range of all rounds of
all launches, the worst launch, the load average, and a verdict:
  - cells the table hands to MPI ("mpi", or "planned"/"mpi" plans): the
    goal is median <= 1.02 (the dispatch costs nothing measurable);
  - cells where the table picks its own algorithm: median <= 1.0 and the
    worst launch <= 1.05.
Only launches whose control (the MPI call timed a second time in the same
rounds: MPI/MPI) is within 1 +- NOISE (0.05) in that cell count: a launch
that cannot tell the same code from itself says nothing about the cell
(on a loaded machine most launches fail this; the summary says how many
counted).
The keep rule (--rules), over at least 3 independent launches that count,
in every mode measured (stream: calls back to back; barrier: one call after
each barrier; paired):
  - an own algorithm that meets the second goal in every mode keeps its cell;
  - one whose median is above 1.0 in a mode, or above CLEAR_WIN (0.97)
    where a launch also read above 1.05, goes to the MPI library: it does not
    win by enough to be worth a bad launch;
  - one that wins clearly (median <= 0.97 in every mode) but had a launch
    above 1.05 keeps its cell and is listed with its launches (and, at
    P = 2, each launch's pair_rtt_ns): on the development VM most such
    launches are ones where the host placed the two vCPUs far apart and
    the placement probe hands the call to the library, so the launch times
    the library through cz_ against itself (1.00-1.08); handing the cell
    back would give up the clear win of the other launches;
  - self (one process: the local copy, or nothing for bcast) keeps its
    cell: the library's call there is a no-op or a copy too, and handing the
    cell to it can only add the call;
with fewer than 3 launches that count, the cell is "undecided" and the
table is left as it is. A dropped cell's override covers the
measured size up to the next measured size (the convention of
bench/shm/choose.py), for that P only, and is printed as a table line that
must come before the rule it overrides. --svg draws one chart per
collective: median ratio per size, one line per P, whiskers from the worst
to the best launch. Standard library only."""
import csv
import math
import os
import statistics
import sys
from collections import defaultdict

MPI_GOAL, OWN_GOAL, OWN_WORST, NOISE, MIN_LAUNCHES = 1.02, 1.0, 1.05, 0.05, 3
CLEAR_WIN = 0.97
COLORS = {1: "#1f77b4", 2: "#2ca02c", 4: "#ff7f0e", 8: "#9467bd", 16: "#8c564b"}


def is_library(table):
    return table in ("mpi",)


def control(row):
    """MPI/MPI of the launch; files from before the control count as 1."""
    return float(row.get("control_ratio_median") or 1.0)


def load(paths):
    cells = defaultdict(list)
    for path in paths:
        for r in csv.DictReader(open(path)):
            if r["mode"] == "check_failed":
                print(f"CHECK FAILED: {r['tag']} {r['coll']} P={r['procs']} {r['bytes']} B",
                      file=sys.stderr)
                continue
            key = (r["coll"], int(r["procs"]), int(r["bytes"]), r["mode"])
            cells[key].append(r)
    return cells


def summarize(cells):
    out = []
    for key in sorted(cells):
        every = cells[key]
        rows = [r for r in every if abs(control(r) - 1) <= NOISE]
        if not rows:
            out.append(dict(coll=key[0], procs=key[1], bytes=key[2], mode=key[3],
                            table="/".join(sorted({r["table"] for r in every})),
                            launches=0, of=len(every), ok=None,
                            controls=[control(r) for r in every]))
            continue
        ratios = [float(r["ratio_median"]) for r in rows]
        tables = sorted({r["table"] for r in rows})
        med = statistics.median(ratios)
        worst = max(ratios)
        lo = min(float(r["ratio_min"]) for r in rows)
        hi = max(float(r["ratio_max"]) for r in rows)
        loads = [float(r[k]) for r in rows for k in ("load_before", "load_after")]
        cpu = [float(r["cpu_diff_ns_median"]) for r in rows if r["cpu_diff_ns_median"]]
        table = "/".join(tables)
        if is_library(table):
            ok = med <= MPI_GOAL
        else:
            ok = med <= OWN_GOAL and worst <= OWN_WORST
        out.append(dict(coll=key[0], procs=key[1], bytes=key[2], mode=key[3],
                        table=table, launches=len(rows), of=len(every), median=med,
                        best=min(ratios), worst=worst, lo=lo, hi=hi,
                        mpi_us=statistics.median(float(r["mpi_us"]) for r in rows),
                        cz_us=statistics.median(float(r["cz_us"]) for r in rows),
                        cpu_ns=statistics.median(cpu) if cpu else None,
                        load_lo=min(loads), load_hi=max(loads), ok=ok,
                        launch_rtt=[(float(r["ratio_median"]), r.get("pair_rtt_ns") or "")
                                    for r in rows]))
    return out


def print_table(summary):
    print("| coll | P | bytes | table | mode | launches counted | MPI µs | cz_ µs | cz_/MPI median "
          "[worst launch] (all rounds min..max) | CPU ns/call (P=1) | load | goal |")
    print("|---|---:|---:|---|---|---:|---:|---:|---|---:|---|---|")
    for s in summary:
        if s["ok"] is None:
            ctl = ", ".join(f"{c:.2f}" for c in s["controls"])
            print(f"| {s['coll']} | {s['procs']} | {s['bytes']} | {s['table']} | {s['mode']} | "
                  f"0/{s['of']} | | | no launch counts (MPI/MPI control: {ctl}) | | | noise |")
            continue
        cpu = f"{s['cpu_ns']:.1f}" if s["cpu_ns"] is not None and s["procs"] == 1 else ""
        print(f"| {s['coll']} | {s['procs']} | {s['bytes']} | {s['table']} | {s['mode']} | "
              f"{s['launches']}/{s['of']} | {s['mpi_us']:.3f} | {s['cz_us']:.3f} | "
              f"{s['median']:.3f} [{s['worst']:.3f}] ({s['lo']:.2f}..{s['hi']:.2f}) | {cpu} | "
              f"{s['load_lo']:.1f}-{s['load_hi']:.1f} | {'ok' if s['ok'] else 'MISSED'} |")


def verdict(s):
    """keep, listed (kept, goal missed), drop or undecided: the rule above."""
    if s["ok"] is None or s["launches"] < MIN_LAUNCHES:
        return "undecided"
    if s["ok"]:
        return "keep"
    # Here the median is above 1.0 or a launch above 1.05: only a clear win
    # keeps the cell then.
    if s["median"] > CLEAR_WIN:
        return "drop"
    return "listed"


def rules(summary):
    """Override lines for own-algorithm cells the keep rule drops."""
    sizes = defaultdict(set)
    failing = {}
    for s in summary:
        sizes[(s["coll"], s["procs"])].add(s["bytes"])
        if is_library(s["table"]) or s["coll"] == "plan" or s["table"] == "self":
            continue
        key = (s["coll"], s["procs"], s["bytes"])
        order = {"keep": 0, "listed": 1, "undecided": 2, "drop": 3}
        old = failing.get(key, "keep")
        failing[key] = max(old, verdict(s), key=order.get)
    lines = []
    for (coll, procs, size), said in sorted(failing.items()):
        later = sorted(b for b in sizes[(coll, procs)] if b > size)
        hi = later[0] - 1 if later else "*"
        if said == "drop":
            lines.append(f"{coll:<10} {procs:<7} {size}-{hi} mpi")
        elif said == "listed":
            lines.append(f"# kept, a launch above {OWN_WORST} (far cores?): "
                         f"{coll} P={procs} {size}-{hi}")
            for s in summary:
                if (s["coll"], s["procs"], s["bytes"]) == (coll, procs, size) and s.get("launch_rtt"):
                    shown = " ".join(f"{r:.2f}" + (f"@{t}ns" if t else "")
                                     for r, t in s["launch_rtt"])
                    lines.append(f"#   {s['mode']}: ratio per launch"
                                 f"{' @ pair round trip' if any(t for _, t in s['launch_rtt']) else ''}:"
                                 f" {shown}")
        elif said == "undecided":
            lines.append(f"# undecided (fewer than {MIN_LAUNCHES} launches count): "
                         f"{coll} P={procs} {size}-{hi}")
    return lines


def svg(summary, out_dir):
    W, H, L, R, T, B = 640, 360, 60, 110, 30, 50
    lo, hi = 0.5, 2.0
    by = defaultdict(lambda: defaultdict(list))
    for s in summary:
        if s["mode"] == "barrier" and s["ok"] is not None:
            by[s["coll"]][s["procs"]].append(s)
    for coll, per_p in by.items():
        sizes = sorted({s["bytes"] for v in per_p.values() for s in v})
        xs = {n: L + (W - L - R) * i / max(1, len(sizes) - 1) for i, n in enumerate(sizes)}

        def y(v):
            v = min(max(v, lo), hi)
            return T + (H - T - B) * (math.log(hi) - math.log(v)) / (math.log(hi) - math.log(lo))
        o = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
             f'font-family="sans-serif" font-size="11">',
             f'<text x="{L}" y="18">cz_{coll} / MPI, barrier-separated calls, '
             f'median of launches (whiskers: worst..best launch)</text>']
        for g in (0.5, 0.8, 1.0, 1.25, 1.5, 2.0):
            o.append(f'<line x1="{L}" x2="{W - R}" y1="{y(g):.1f}" y2="{y(g):.1f}" '
                     f'stroke="{"#000" if g == 1.0 else "#ddd"}"/>'
                     f'<text x="{L - 6}" y="{y(g) + 4:.1f}" text-anchor="end">{g}</text>')
        for n, x in xs.items():
            label = f"{n // 1024}K" if n >= 1024 else str(n)
            o.append(f'<text x="{x:.1f}" y="{H - B + 16}" text-anchor="middle">{label}</text>')
        o.append(f'<text x="{(L + W - R) / 2}" y="{H - 12}" text-anchor="middle">bytes</text>')
        for i, (p, rows) in enumerate(sorted(per_p.items())):
            rows.sort(key=lambda s: s["bytes"])
            c = COLORS.get(p, "#333")
            pts = " ".join(f"{xs[s['bytes']]:.1f},{y(s['median']):.1f}" for s in rows)
            o.append(f'<polyline fill="none" stroke="{c}" stroke-width="2" points="{pts}"/>')
            for s in rows:
                x = xs[s["bytes"]] + (i - 1.5) * 3
                o.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{y(s["worst"]):.1f}" '
                         f'y2="{y(s["best"]):.1f}" stroke="{c}"/>')
                if not is_library(s["table"]):
                    o.append(f'<circle cx="{xs[s["bytes"]]:.1f}" cy="{y(s["median"]):.1f}" '
                             f'r="3.5" fill="none" stroke="{c}"/>')
            o.append(f'<text x="{W - R + 10}" y="{T + 16 * i + 10}" fill="{c}">P = {p}</text>')
        o.append(f'<text x="{W - R + 10}" y="{T + 16 * len(per_p) + 20}">o: own algorithm</text>')
        o.append("</svg>")
        with open(os.path.join(out_dir, f"dispatch-{coll}.svg"), "w") as f:
            f.write("\n".join(o) + "\n")


def main(argv):
    paths, out, want_rules = [], None, False
    i = 0
    while i < len(argv):
        if argv[i] == "--svg":
            out = argv[i + 1]
            i += 2
        elif argv[i] == "--rules":
            want_rules = True
            i += 1
        else:
            paths.append(argv[i])
            i += 1
    if not paths:
        print(__doc__, file=sys.stderr)
        return 2
    for p in paths:
        if not os.path.isfile(p):
            print(f"summary.py: no such file: {p}", file=sys.stderr)
            return 2
    summary = summarize(load(paths))
    print_table(summary)
    judged = [s for s in summary if s["ok"] is not None]
    mpi = [s for s in judged if is_library(s["table"])]
    own = [s for s in judged if not is_library(s["table"])]
    print(f"\n{len(summary) - len(judged)} of {len(summary)} cells (x mode) had no launch whose "
          f"MPI/MPI control was within 1 +- {NOISE}; of the rest: "
          f"mpi cells {sum(s['ok'] for s in mpi)}/{len(mpi)} at median <= {MPI_GOAL}; "
          f"own-algorithm cells {sum(s['ok'] for s in own)}/{len(own)} at median <= "
          f"{OWN_GOAL} and worst launch <= {OWN_WORST}")
    if want_rules:
        print("\n# the keep rule's verdicts (table lines: cells handed to the MPI library):")
        for line in rules(summary):
            print(line)
    if out:
        svg(summary, out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
