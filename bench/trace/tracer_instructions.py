#!/usr/bin/env python3
"""tracer_instructions.py OUT_FILE OBJECT_SUBSTRING [CALLS]: the self
instructions (Ir) of one shared object's functions in a callgrind output
file, per function and in total, divided by CALLS (default 1).

Used with `cz_sendrecv_instructions` and `cz_trace_cpu` under callgrind
(bench/trace/instructions.sh): the object is the tracer library, so its
functions are told from Open MPI's by the object they are in, not by their
names (both have an MPI_Sendrecv, and static names may repeat).
"""
import collections
import re
import sys


def self_costs(path, object_part):
    names = {"ob": {}, "fn": {}}
    ob = fn = None
    after_call = False
    positions = 1
    costs = collections.Counter()

    def name(kind, text):
        # "(id) name" defines a compressed name, "(id)" refers to it.
        m = re.match(r"\((\d+)\)(?:\s+(.*))?$", text)
        if not m:
            return text
        if m.group(2) is not None:
            names[kind][m.group(1)] = m.group(2)
        return names[kind].get(m.group(1), text)

    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("positions:"):
                positions = len(line.split()[1:])
            elif line.startswith("ob="):
                ob = name("ob", line[3:])
            elif line.startswith("fn="):
                fn = name("fn", line[3:])
            elif line.startswith(("cob=", "cfn=")):
                # callee names are defined here too
                name("ob" if line.startswith("cob=") else "fn", line[4:])
            elif line.startswith("calls="):
                after_call = True
            elif line[:1].isdigit() or line[:1] in "+-*":
                if after_call:  # the call's inclusive cost, not self
                    after_call = False
                    continue
                fields = line.split()
                if len(fields) > positions and ob and object_part in ob:
                    costs[fn] += int(fields[positions])
    return costs


def main():
    path, object_part = sys.argv[1], sys.argv[2]
    calls = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
    costs = self_costs(path, object_part)
    for fn, ir in costs.most_common():
        if ir / calls >= 0.5:
            print(f"{ir / calls:9.1f} {fn}")
    print(f"{sum(costs.values()) / calls:9.1f} total")


if __name__ == "__main__":
    main()
