#!/usr/bin/env python3
"""check_trace.py TRACE_DIR EXPECT_DIR RANKS: checks a trace written by
trace_test against what the program itself recorded (expect-<rank>.txt).

- the directory has the manifest and rank-N.done for every rank;
- otf2-print reads the archive (bounded by a timeout);
- per rank, the multiset of (send|recv, bytes, crc32) of MpiSend/MpiIsend and
  MpiRecv/MpiIrecv records equals what the program computed with zlib;
  receives carry their own CRC when the manifest says "hash both", else none
  and they take the CRC of the send they match;
- every send matches a receive with the same bytes (and CRC when receives
  are hashed) per communicator, source, destination and tag queue, in order;
- collective, cancelled, communicator-creation counts and instrumenter sites;
- the receives marked collectivize::any_source (posted with MPI_ANY_SOURCE)
  number what the program counted, and no send is marked;
- the element count recorded for the receives the program names by tag
  ("recv_count TAG COUNT");
- every MpiIsend completes and every MpiIrecvRequest completes or is
  cancelled."""
import collections
import os
import re
import subprocess
import sys

trace, expect_dir, ranks = sys.argv[1], sys.argv[2], int(sys.argv[3])
errors = []


def fail(msg):
    errors.append(msg)


for f in ["collectivize-trace.txt", "traces.otf2"] + [f"rank-{r}.done" for r in range(ranks)]:
    if not os.path.exists(os.path.join(trace, f)):
        fail(f"missing {f}")
manifest = open(os.path.join(trace, "collectivize-trace.txt")).read()
hash_mode = re.search(r"^hash (\w+)$", manifest, re.M)
hash_mode = hash_mode.group(1) if hash_mode else None
if hash_mode not in ("send", "both"):
    fail(f"manifest has no 'hash send|both' line: {manifest!r}")
if not re.search(rf"^format 1$", manifest, re.M) or not re.search(rf"^ranks {ranks}$", manifest, re.M):
    fail(f"bad manifest: {manifest!r}")

out = subprocess.run(["otf2-print", os.path.join(trace, "traces.otf2")],
                     capture_output=True, text=True, timeout=60)
if out.returncode != 0:
    fail(f"otf2-print failed ({out.returncode}): {out.stderr[:500]}")
# Readers complain about definitions out of order (e.g. sparse communicator
# refs): the archive must read without a word.
if "warning" in out.stderr.lower():
    fail(f"otf2-print warns: {out.stderr[:500]}")
defs = subprocess.run(["otf2-print", "-G", os.path.join(trace, "traces.otf2")],
                      capture_output=True, text=True, timeout=60)
comm_defs = [int(c) for c in re.findall(r"^COMM\s+(\d+)\s", defs.stdout, re.M)]
if comm_defs != list(range(len(comm_defs))):
    fail(f"global Comm definitions not numbered 0, 1, 2, ...: {comm_defs}")

event_re = re.compile(r"^(\S+)\s+(\d+)\s+(\d+)\s+(.*)$")
attr_re = re.compile(r'\("collectivize::(\w+)" <\d+>; \w+; (\d+)\)')
# Communicator-typed attributes print as a definition or UNDEFINED.
comm_attr_re = re.compile(r'\("collectivize::(\w+)" <\d+>; COMM; (?:"[^"]*" <(\d+)>|(UNDEFINED))\)')
events = []  # (name, location, time, fields, attrs)
for line in out.stdout.splitlines():
    if line.startswith(" ") and "ADDITIONAL ATTRIBUTES" in line and events:
        events[-1][4].update({k: int(v) for k, v in attr_re.findall(line)})
        events[-1][4].update({k: int(v) if v else 0xffffffff for k, v, _ in comm_attr_re.findall(line)})
        continue
    m = event_re.match(line)
    if m and (m.group(1).startswith("MPI_") or m.group(1) in ("ENTER", "LEAVE")):
        f = {}
        for key in ("Receiver", "Sender", "Tag", "Length", "Request", "Root"):
            mm = re.search(rf"{key}: (\w+)", m.group(4))
            if mm:
                f[key] = mm.group(1)
        mm = re.search(r'Communicator: (?:"[^"]*" )?<(\d+)>', m.group(4))
        if mm:
            f["Comm"] = int(mm.group(1))
            if f["Comm"] not in comm_defs:
                fail(f"{m.group(1)} at location {m.group(2)} names communicator "
                     f"{f['Comm']}, which has no definition {comm_defs}")
        events.append((m.group(1), int(m.group(2)), int(m.group(3)), f, {}))

per_rank = collections.defaultdict(list)
for e in events:
    per_rank[e[1]].append(e)

queues = collections.defaultdict(lambda: ([], []))  # (comm, src, dst, tag) -> sends, recvs
total_msgs = 0
expected, got, other = {}, {}, {}
for r in range(ranks):
    exp = collections.Counter()
    counts = {"coll": 0, "cancelled": 0, "comm_create": 0, "any_source": 0}
    any_source = 0
    sites = []
    recv_counts = {}  # tag -> element count its receives must record
    path = os.path.join(expect_dir, f"expect-{r}.txt")
    for line in open(path):
        w = line.split()
        if w[0] in ("send", "recv"):
            exp[(w[0], int(w[1]), int(w[2], 16))] += 1
        elif w[0] == "site":
            sites.append(int(w[1]))
        elif w[0] == "recv_count":
            recv_counts[int(w[1])] = int(w[2])
        else:
            counts[w[0]] = int(w[1])
    expected[r] = exp
    got[r] = []  # [kind, bytes, crc or None]
    last_t = 0
    isends, irecvs = set(), set()
    n = collections.Counter()
    for name, loc, t, f, a in per_rank[r]:
        n[name] += 1
        if t < last_t:
            fail(f"rank {r}: timestamps go backwards at {name} {t}")
        last_t = t
        if name in ("MPI_SEND", "MPI_ISEND", "MPI_RECV", "MPI_IRECV"):
            kind = "send" if "SEND" in name else "recv"
            hashed = kind == "send" or hash_mode == "both"
            if hashed and "crc32" not in a:
                fail(f"rank {r}: {name} without crc32 attribute")
                continue
            if not hashed and ("crc32" in a or "prefix" in a):
                fail(f"rank {r}: {name} hashed although the manifest says 'hash send'")
            tag = int(f.get("Tag", -1))
            if kind == "recv" and tag in recv_counts and a.get("count") != recv_counts[tag]:
                fail(f"rank {r}: {name} tag {tag} records count {a.get('count')}, "
                     f"expected {recv_counts[tag]}")
            if a.get("any_source"):
                if kind == "send":
                    fail(f"rank {r}: {name} to {f.get('Receiver')} tag {f.get('Tag')} marked any_source")
                any_source += 1
            record = [kind, int(f["Length"]), a.get("crc32")]
            got[r].append(record)
            total_msgs += 1
            if a.get("kept"):
                continue
            if "peer_world" not in a:  # omitted on MPI_COMM_WORLD and SELF
                if f["Comm"] not in (0, 1):
                    fail(f"rank {r}: {name} on communicator {f['Comm']} without peer_world")
                    continue
                a["peer_world"] = r if f["Comm"] == 1 else int(f["Receiver" if kind == "send" else "Sender"])
            if kind == "send":
                key = (f["Comm"], r, a["peer_world"], int(f["Tag"]))
                queues[key][0].append(record)
            else:
                key = (f["Comm"], a["peer_world"], r, int(f["Tag"]))
                queues[key][1].append(record)
        if name == "MPI_ISEND":
            isends.add(f["Request"])
        if name == "MPI_ISEND_COMPLETE":
            isends.discard(f["Request"])
        if name == "MPI_IRECV_REQUEST":
            irecvs.add(f["Request"])
        if name in ("MPI_IRECV", "MPI_REQUEST_CANCELLED"):
            irecvs.discard(f["Request"])
            isends.discard(f["Request"])
    if n["MPI_COLLECTIVE_END"] != counts["coll"] or n["MPI_COLLECTIVE_BEGIN"] != counts["coll"]:
        fail(f"rank {r}: {n['MPI_COLLECTIVE_END']} collectives traced, {counts['coll']} called")
    if any_source != counts["any_source"]:
        fail(f"rank {r}: {any_source} receives marked any_source, {counts['any_source']} "
             f"posted with MPI_ANY_SOURCE")
    if n["MPI_REQUEST_CANCELLED"] != counts["cancelled"]:
        fail(f"rank {r}: {n['MPI_REQUEST_CANCELLED']} cancellations traced, {counts['cancelled']} expected")
    created = sum(1 for e in per_rank[r] if e[0] == "LEAVE" and e[4].get("new_comm", 0xffffffff) != 0xffffffff)
    if created != counts["comm_create"]:
        fail(f"rank {r}: {created} communicator creations traced, {counts['comm_create']} expected")
    for s in sites:
        if not any(e[4].get("site") == s for e in per_rank[r]):
            fail(f"rank {r}: no record with instrumenter site {s}")
    if isends or irecvs:
        fail(f"rank {r}: requests never completed: isend {sorted(isends)} irecv {sorted(irecvs)}")

# Match in MPI order; an unhashed receive takes its send's CRC.
for key, (sends, recvs) in queues.items():
    for s_rec, r_rec in zip(sends, recvs):
        if r_rec[2] is None and s_rec[1] == r_rec[1]:
            r_rec[2] = s_rec[2]
for r in range(ranks):
    traced = collections.Counter(tuple(x) for x in got[r])
    if traced != expected[r]:
        missing = expected[r] - traced
        extra = traced - expected[r]
        fail(f"rank {r}: messages differ: expected but not traced {dict(missing)}; "
             f"traced but not expected {dict(extra)}")

for key, (sends, recvs) in queues.items():
    sends = [tuple(x[1:]) for x in sends]
    recvs = [tuple(x[1:]) for x in recvs]
    if sends != recvs:
        i = next((i for i, (a, b) in enumerate(zip(sends, recvs)) if a != b), min(len(sends), len(recvs)))
        fail(f"send/receive mismatch on (comm, src, dst, tag) {key} at message {i}: "
             f"{len(sends)} sends {sends[i:i + 3]}, {len(recvs)} receives {recvs[i:i + 3]}")

for e in errors[:20]:
    print("FAIL:", e)
if errors:
    sys.exit(1)
print(f"check_trace: ok: {ranks} ranks, {total_msgs} message records, {len(events)} events")
