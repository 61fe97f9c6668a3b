"""Traces every example several times and checks that detect gives the same
answer each time: the same matches (kind, status, unproven, group, root,
roots, instances, messages, sites), timings aside. Prints one line per
example and the differences, if any.

usage: stable_answers.py COLLECTIVIZE EXAMPLES_DIR OUT RUNS NAME:NP[:ARG...]...

ARGs are the program's arguments; "{run}" in one is the run's number (1, 2,
...): a program whose data vary with a seed gets another seed in every run.
"""
import json
import os
import subprocess
import sys

cz, examples, out, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
cases = [c.split(":") for c in sys.argv[5:]]
KEYS = ("kind", "status", "unproven", "ranks", "root_world", "roots_world", "instances",
        "messages", "count", "datatype", "op")


def answer(report):
    matches = []
    for m in json.load(open(report))["matches"]:
        sites = sorted((s.get("file", ""), s.get("line", 0), s["role"]) for s in m["sites"])
        matches.append(json.dumps([m.get(k) for k in KEYS] + [sites]))
    return sorted(matches)


unstable = 0
for name, np, *args in cases:
    answers = []
    for r in range(runs):
        trace = os.path.join(out, f"{name}-{r}")
        subprocess.run([cz, "run", "-np", np, "--trace-dir", trace, "--",
                        os.path.join(examples, name)] + [a.replace("{run}", str(r + 1)) for a in args],
                       check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        report = trace + ".json"
        subprocess.run([cz, "detect", trace, "-o", report], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        answers.append(answer(report))
    same = all(a == answers[0] for a in answers)
    unstable += not same
    print(f"{name} at {np}: {'same' if same else 'DIFFERS'} in {runs} runs ({len(answers[0])} matches)")
    if not same:
        for r, a in enumerate(answers[1:], 1):
            for line in sorted(set(a) ^ set(answers[0])):
                print(f"  run {r + 1} vs run 1: {line}")
print(f"{unstable} unstable")
