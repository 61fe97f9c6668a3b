#!/usr/bin/env python3
"""check_blocks.py TRACE_DIR RANKS N: checks the rank-N.blocks files of a
trace made with COLLECTIVIZE_TRACE_BLOCK_BYTES=N against the archive
(otf2-print):

- each file has the header (magic, version 1, N) and whole entries;
- each entry names an MpiSend or MpiIsend event of its rank (its index
  among the rank's events) of count * N bytes, and its block CRCs combine
  (zlib's crc32_combine) to that event's CRC-32;
- every hashed send of at least 2N bytes whose size is a multiple of N has
  an entry, and no other send has one."""
import os
import re
import struct
import subprocess
import sys

trace, ranks, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
errors = []


def gf2_times(mat, vec):
    s, i = 0, 0
    while vec:
        if vec & 1:
            s ^= mat[i]
        vec >>= 1
        i += 1
    return s


def gf2_square(mat):
    return [gf2_times(mat, mat[k]) for k in range(32)]


def crc32_combine(crc1, crc2, len2):
    """zlib's crc32_combine: the CRC of A|B from crc(A), crc(B), |B|."""
    odd = [0xEDB88320] + [1 << k for k in range(31)]
    even = gf2_square(odd)
    odd = gf2_square(even)
    while True:
        even = gf2_square(odd)
        if len2 & 1:
            crc1 = gf2_times(even, crc1)
        len2 >>= 1
        if not len2:
            break
        odd = gf2_square(even)
        if len2 & 1:
            crc1 = gf2_times(odd, crc1)
        len2 >>= 1
        if not len2:
            break
    return crc1 ^ crc2


out = subprocess.run(["otf2-print", os.path.join(trace, "traces.otf2")],
                     capture_output=True, text=True, timeout=60)
if out.returncode != 0:
    sys.exit(f"otf2-print failed: {out.stderr[:300]}")
event_re = re.compile(r"^(\S+)\s+(\d+)\s+(\d+)\s+(.*)$")
crc_re = re.compile(r'\("collectivize::crc32" <\d+>; \w+; (\d+)\)')
per_rank = {r: [] for r in range(ranks)}  # [name, bytes, crc or None]
for line in out.stdout.splitlines():
    if line.startswith(" ") and "ADDITIONAL ATTRIBUTES" in line and last is not None:
        m = crc_re.search(line)
        if m:
            last[2] = int(m.group(1))
        continue
    m = event_re.match(line)
    last = None
    if m and (m.group(1).startswith("MPI_") or m.group(1) in ("ENTER", "LEAVE")):
        length = re.search(r"Length: (\d+)", m.group(4))
        last = [m.group(1), int(length.group(1)) if length else 0, None]
        per_rank[int(m.group(2))].append(last)

# Shifting a CRC past n bytes is linear: its matrix once, then one product
# per block (crc32_combine per block is too slow in Python for 1 MiB sends).
shift_n = [crc32_combine(1 << k, 0, n) for k in range(32)]
checked = 0
for r in range(ranks):
    data = open(os.path.join(trace, f"rank-{r}.blocks"), "rb").read()
    magic, version, size = struct.unpack_from("<QII", data, 0)
    if magic != 0x314B4C42545A43 or version != 1 or size != n:
        errors.append(f"rank {r}: header {magic:#x} {version} {size}")
        continue
    at, named = 16, set()
    while at < len(data):
        if at + 12 > len(data):
            errors.append(f"rank {r}: a cut entry at {at}")
            break
        index, count = struct.unpack_from("<QI", data, at)
        crcs = struct.unpack_from(f"<{count}I", data, at + 12)
        at += 12 + 4 * count
        named.add(index)
        ev = per_rank[r][index] if index < len(per_rank[r]) else None
        if not ev or ev[0] not in ("MPI_SEND", "MPI_ISEND"):
            errors.append(f"rank {r}: entry names event {index}, {ev and ev[0]}")
            continue
        whole = 0
        for c in crcs:
            whole = gf2_times(shift_n, whole) ^ c
        if ev[1] != count * n or ev[2] != whole:
            errors.append(f"rank {r} event {index}: {ev[1]} bytes crc {ev[2]}, "
                          f"entry {count} blocks combining to {whole}")
        checked += 1
    for i, ev in enumerate(per_rank[r]):
        wants = (ev[0] in ("MPI_SEND", "MPI_ISEND") and ev[2] is not None
                 and ev[1] >= 2 * n and ev[1] % n == 0)
        if wants != (i in named):
            errors.append(f"rank {r} event {i} ({ev[0]}, {ev[1]} bytes): "
                          f"{'no entry' if wants else 'an entry it should not have'}")
if checked == 0:
    errors.append("no block entries at all")
for e in errors[:20]:
    print("check_blocks:", e)
if errors:
    sys.exit(1)
print(f"check_blocks: {checked} entries ok")
