#!/usr/bin/env python3
"""check_aborted.py TRACE_DIR RANKS N "MARKED RANKS" CLI: checks the repaired
trace of trace_abort (N ring exchanges per rank, then rank 1 ended the job).
N given as "upto:N": the trace may hold only a prefix of the exchanges
(tracing stopped early, e.g. on a full disk), at least one per rank.

- otf2-print reads the archive (bounded by a timeout);
- `collectivize trace summary` names every rank incomplete;
- per rank, its ring sends and receives (tag 1) carry the CRC-32 of the bytes
  the program sent at each step, computed here with zlib: all N of them on
  every rank (each event is in the rank's log the moment it is recorded, so
  neither MPI_Abort nor SIGKILL loses any);
- the marked ranks have their kept 4242-int marker and the allreduce on
  their split communicator, whose definition was recovered."""
import re
import subprocess
import sys
import zlib

trace, ranks = sys.argv[1], int(sys.argv[2])
prefix_only = sys.argv[3].startswith("upto:")
n = int(sys.argv[3].split(":")[-1])
marked = [int(r) for r in sys.argv[4].split()]
cli = sys.argv[5]
errors = []

out = subprocess.run(["otf2-print", trace + "/traces.otf2"], capture_output=True, text=True,
                     timeout=60)
if out.returncode != 0:
    errors.append(f"otf2-print failed: {out.stderr[:300]}")
if "warning" in out.stderr.lower():  # e.g. communicator definitions out of order
    errors.append(f"otf2-print warns about the repaired archive: {out.stderr[:300]}")
summary = subprocess.run([cli, "trace", "summary", trace], capture_output=True, text=True,
                         timeout=60)
want = "incomplete ranks: " + " ".join(str(r) for r in range(ranks))
if summary.returncode != 0 or want not in summary.stdout:
    errors.append(f"summary should say '{want}':\n{summary.stdout}{summary.stderr}")
dump = subprocess.run([cli, "trace", "dump", trace], capture_output=True, text=True, timeout=60)
if dump.returncode != 0:
    errors.append(f"trace dump failed: {dump.stderr[:300]}")

line_re = re.compile(r"^rank (\d+) +t=\S+ +(\w+) +(.*)$")
sends = {r: [] for r in range(ranks)}
recvs = {r: [] for r in range(ranks)}
kept = set()
split_allreduce = set()
for line in dump.stdout.splitlines():
    m = line_re.match(line)
    if not m:
        continue
    r, kind, rest = int(m.group(1)), m.group(2), m.group(3)
    crc = re.search(r"crc32=0x([0-9a-f]+)", rest)
    if kind == "send" and " tag 1 " in rest:
        sends[r].append((rest.split()[1], int(crc.group(1), 16)))
    elif kind == "recv" and " tag 1 " in rest:
        # Receives are not hashed by default (their send carries the CRC).
        recvs[r].append((rest.split()[1], int(crc.group(1), 16) if crc else None))
    elif kind == "send" and rest.endswith(" kept") and "count=4242" in rest:
        kept.add(r)
    elif kind == "collective_end" and "allreduce" in rest and not re.search(r" comm 0 ", rest):
        comm = re.search(r" comm (\d+)", rest)
        if comm:
            split_allreduce.add(r)

for r in range(ranks):
    right, left = (r + 1) % ranks, (r + ranks - 1) % ranks
    for name, got, peer, sender in (("sends", sends[r], right, r), ("receives", recvs[r], left, left)):
        if (not 0 < len(got) <= n) if prefix_only else len(got) != n:
            errors.append(f"rank {r}: {len(got)} ring {name}, expected "
                          f"{'1..' if prefix_only else ''}{n}")
        for i, (p, crc) in enumerate(got):
            expect = zlib.crc32(bytes([(i * 7 + sender) & 0xff]) * 64)
            if int(p) != peer or crc not in (None, expect):
                errors.append(f"rank {r}: ring {name} #{i}: peer {p} crc {crc:#x}, "
                              f"expected peer {peer} crc {expect:#x}")
                break
for r in marked:
    if r not in kept:
        errors.append(f"rank {r}: its kept marker (cz_send_to_self of 4242 ints) is missing")
    if r not in split_allreduce:
        errors.append(f"rank {r}: the allreduce on the split communicator is missing")
if re.search(r"comm 4294967295", dump.stdout):
    errors.append("events refer to an undefined communicator")

if errors:
    print("\n".join(errors[:20]))
    sys.exit(1)
print(f"aborted trace ok: {ranks} ranks, markers on {marked}")
