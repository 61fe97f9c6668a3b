"""One hand-made collective of every kind, end to end: instrumented build,
traced run, detect, rewrite, apply the patch to a copy, build it, run it
traced, and compare. Prints one line per kind for FileCheck.

usage: every_kind.py OUT COLLECTIVIZE COLLECTIVIZE_CC MPICC EXAMPLES_DIR MPIRUN...
"""
import os
import re
import shutil
import subprocess
import sys

out, cz, cc, mpicc, examples = sys.argv[1:6]
mpirun = sys.argv[6:]
CASES = [  # kind, example, ranks[, the example's arguments]
    ("bcast", "bcast_linear", 4), ("scatter", "scatter_linear", 4),
    ("gather", "gather_binomial", 5), ("reduce", "reduce_binomial", 4),
    ("allreduce", "allreduce_recursive_doubling", 4), ("allgather", "allgather_ring", 4),
    ("alltoall", "alltoall_pairwise", 4), ("barrier", "barrier_dissemination", 4),
    ("allgatherv", "allgatherv_linear", 4), ("alltoallv", "alltoallv_linear", 4),
    ("gatherv", "gatherv_linear", 4), ("scatterv", "scatterv_linear", 4),
    ("reduce_scatter", "reduce_scatter_ring", 4),
    ("scan", "scan_chain", 4), ("exscan", "scan_chain", 4, ["--exclusive"]),
]
# The MPI call a kind's patch makes, as the tracer names it where that is
# not the kind (equal blocks: MPI_Reduce_scatter_block).
TRACED_AS = {"reduce_scatter": "reduce_scatter_block"}
env = dict(os.environ, COLLECTIVIZE_QUIET="1")


def run(cmd, **kw):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       stdin=subprocess.DEVNULL, env=kw.pop("env", env), **kw)
    if r.returncode != 0:
        sys.exit(f"FAILED ({r.returncode}): {' '.join(cmd)}\n{r.stdout}")
    return r.stdout


for kind, name, np, *rest in CASES:
    args = rest[0] if rest else []
    d = os.path.join(out, kind + "-" + name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d + "/src")
    shutil.copy(os.path.join(examples, name + ".c"), d + "/src")
    run([cc, "-O1", name + ".c", "-o", d + "/app"], cwd=d + "/src",
        env=dict(env, COLLECTIVIZE_ROOT=d + "/src", COLLECTIVIZE_SITES=d + "/sites.json"))
    before = run(mpirun + ["-np", str(np), d + "/app"] + args,
                 env=dict(env, COLLECTIVIZE_TRACE_DIR=d + "/trace"))
    run([cz, "detect", d + "/trace", "--sites", d + "/sites.json", "-o", d + "/report.json"])
    summary = run([cz, "rewrite", "-q", d + "/report.json", "-o", d + "/patches"])
    status = summary.split("\n")[0].split()[1]
    shutil.copytree(d + "/src", d + "/patched")
    # Every patch's own diff (all.diff holds the proposed ones only; a sum
    # of doubles is for review).
    for diff in sorted(f for f in os.listdir(d + "/patches") if f.endswith(".diff") and f != "all.diff"):
        run(["git", "apply", d + "/patches/" + diff], cwd=d + "/patched")
    run([mpicc, "-O1", d + "/patched/" + name + ".c", "-o", d + "/patched/app"])
    after = run([cz, "run", "-np", str(np), "--trace-dir", d + "/trace2", "--",
                 d + "/patched/app"] + args)
    after = after[:after.find("collectivize run: trace written")]  # the program's own output,
    after = "\n".join(l for l in after.splitlines() if not l.startswith("collectivize run: "))  # not run's notes
    same = "same output" if sorted(before.splitlines()) == sorted(after.splitlines()) else "OUTPUT DIFFERS"
    dump = run([cz, "trace", "dump", d + "/trace2"])
    calls = len(re.findall(r"collective_end\s+" + TRACED_AS.get(kind, kind) + r"\b", dump))
    left = run([cz, "detect", d + "/trace2"]).split("\n")[1]
    label = " ".join([name] + args)
    print(f"{kind} {label}: {status}, {same}, {calls} traced MPI {kind} calls, {left}")
