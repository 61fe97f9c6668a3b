#!/usr/bin/env python3
"""instructions.py: instructions per call, function by function, of each
cz_<coll> loop beside its MPI loop, from callgrind parts of
cz_dispatch_instructions (bench/dispatch/instructions.c says how to run it).

  python3 bench/dispatch/instructions.py OUT.PID [--calls 10000] [--top 12]

Callgrind's --dump-before='run_*' closes a part at every loop's start, so
the part a loop's trigger opens holds that loop alone. Per collective:
the loop's total per call (polling included), the same without the
progress engine's functions (what waiting for the peer costs depends on
who arrives first, not on the door), the runtime library's own
instructions per call (the dispatch: the figure to compare between
builds), and the functions whose count differs most between the two
loops."""
import argparse
import glob
import re
import subprocess
import sys

# Functions that run once per poll while a rank waits for its peers: their
# counts measure arrival order, not the call path.
POLLING = re.compile(
    r"opal_progress|_progress$|sched_yield|opal_timer|ompi_request_default_wait"
    r"|ompi_request_wait_completion|sync_wait|opal_sys_timer|__GI___sched_yield"
    r"|mca_btl_vader_poll|mca_btl_vader_check_fboxes|mca_pml_ob1_progress"
    r"|opal_condition|ompi_coll_base_sendrecv_actual|0x0|syscall|clock_gettime"
    r"|__vdso")


# Marks the runtime library's functions: their sum is what the dispatch
# adds to the library's call (the library's own functions run the same code
# on the user's communicator and on the runtime's duplicate).
DISPATCH = "[rt] "


def self_costs(path):
    out = subprocess.run(
        ["callgrind_annotate", "--threshold=100", "--inclusive=no",
         "--auto=no", path],
        capture_output=True, text=True, check=True).stdout
    costs, total = {}, None
    for line in out.splitlines():
        m = re.match(r"\s*([\d,]+) \([^)]*\)\s+(\S.*?)(?: \[(.*)\])?$", line)
        if not m:
            continue
        n = int(m.group(1).replace(",", ""))
        if "PROGRAM TOTALS" in m.group(2):
            total = n
            continue
        # The frames below the loop (main, libc's start, the loader) are
        # listed with the whole part's cost: not a function's own work.
        if ":" not in m.group(2) or n == total:
            continue
        name = m.group(2).split(":")[-1]
        if "libcollectivize" in (m.group(3) or ""):
            name = DISPATCH + name  # the runtime's own (PLT stubs too)
        costs[name] = costs.get(name, 0) + n
    return costs


def loop_parts(prefix):
    """{loop name: part file} from the triggers."""
    parts = {}
    files = sorted(glob.glob(prefix + ".*"), key=lambda f: int(f.rsplit(".", 1)[1]))
    for i, f in enumerate(files[:-1]):
        trig = ""
        with open(f) as fh:
            for line in fh:
                if line.startswith("desc: Trigger:"):
                    trig = line.split("=", 1)[1].strip()
                    break
        if trig.startswith(("run_mpi_", "run_cz_")):
            parts[trig] = files[i + 1]
    return parts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("prefix", help="callgrind output file of one rank (OUT.PID)")
    ap.add_argument("--calls", type=int, default=10000)
    ap.add_argument("--top", type=int, default=12)
    a = ap.parse_args()
    parts = loop_parts(a.prefix)
    colls = sorted({k.split("_", 2)[2] for k in parts})
    if not colls:
        sys.exit("instructions.py: no run_* parts next to " + a.prefix)
    print("coll, mpi/call, cz/call, mpi no-poll/call, cz no-poll/call, "
          "cz-mpi no-poll, dispatch/call")
    details = []
    for c in colls:
        mpi = self_costs(parts["run_mpi_" + c])
        cz = self_costs(parts["run_cz_" + c])
        tot = [sum(d.values()) / a.calls for d in (mpi, cz)]
        nopoll = [sum(v for k, v in d.items() if not POLLING.search(k)) / a.calls
                  for d in (mpi, cz)]
        own = sum(v for k, v in cz.items() if k.startswith(DISPATCH)) / a.calls
        print(f"{c}, {tot[0]:.1f}, {tot[1]:.1f}, {nopoll[0]:.1f}, "
              f"{nopoll[1]:.1f}, {nopoll[1] - nopoll[0]:+.1f}, {own:.1f}")
        diff = {k: (cz.get(k, 0) - mpi.get(k, 0)) / a.calls
                for k in set(mpi) | set(cz)}
        top = sorted(diff.items(), key=lambda kv: -abs(kv[1]))[:a.top]
        details.append((c, top))
    for c, top in details:
        print(f"\n{c}: cz - mpi per call, by function"
              " (polling marked *)")
        for k, v in top:
            mark = "*" if POLLING.search(k) else " "
            print(f"  {v:+9.1f} {mark} {k}")


if __name__ == "__main__":
    main()
