#!/usr/bin/env python3
"""make_seeds.py BUILD_DIR: (re)writes the fuzz targets' seed corpora in
tests/fuzz/corpus/<target>/ from real files: a fixture trace
(cz_trace_fixture), a real traced run (examples/instrument-make built with
collectivize-cc, traced on 4 ranks, detected, rewritten), the test inputs
of the decision table, and event logs and rings written here in the
tracer's record layout (runtime/trace/defs/event_log.h) with small halves (a
real ring is 5 MiB). Run by hand when a format changes; the seeds are
committed so that CI needs none of this."""
import os
import shutil
import struct
import subprocess
import sys
import tempfile

SEP = b"\n--8<--\n"
here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
build = os.path.abspath(sys.argv[1])
corpus = os.path.join(here, "corpus")
cli = os.path.join(build, "cli", "collectivize")
env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1", OMPI_MCA_mpi_yield_when_idle="1",
           COLLECTIVIZE_QUIET="1")


WORK = None  # the scratch directory, written as /home/user in the seeds


def put(target, name, data):
    if WORK:
        data = data.replace(WORK.encode(), b"/home/user")
    d = os.path.join(corpus, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def read(path):
    with open(path, "rb") as f:
        return f.read()


# ---- event logs and rings (event_log.h) --------------------------------------
MAGIC, VERSION, RECORD = 0x31474F4C545A43, 2, 80
EMPTY = 0xFFFFFFFFFFFFFFFF


def record(kind, t, peer=1, ref=0, tag=7, nbytes=64, crc=0x1234, flags=1, req=0, count=16):
    # t, bytes, prefix, site, address, req; peer, ref, tag, crc, count, dtype,
    # peer_world; flags, unused[2], kind
    return struct.pack("<6Q7I4B", t, nbytes, 0x0706050403020100, 42, 0x7F0000001000, req,
                       peer, ref, tag, crc, count, 7, peer, flags, 0, 0, kind)


def log_file(records, clock=0):
    header = struct.pack("<QIIII56x", MAGIC, VERSION, RECORD, clock, 0)
    return header.ljust(4096, b"\0") + b"".join(records)


def ring_file(half, bases, halves, clock=0, pairs=((0, 0), (0, 0), (0, 0))):
    header = struct.pack("<QIIIIQQ", MAGIC, VERSION, RECORD, half, clock, bases[0], bases[1])
    header += b"".join(struct.pack("<QQ", *p) for p in pairs)
    body = b""
    for h in halves:
        body += b"".join(h).ljust(half * RECORD, b"\0")
    return header.ljust(4096, b"\0") + body


def event_log_seeds():
    kinds = list(range(1, 12))
    recs = [record(k, 1000 + 10 * i, req=i) for i, k in enumerate(kinds)]
    log = log_file(recs[:4])
    ring = ring_file(4, (4, EMPTY), [recs[4:8], []])
    ring_both = ring_file(4, (8, 4), [recs[8:11], recs[4:8]])
    tsc = ring_file(4, (0, EMPTY), [recs[:3], []], clock=1,
                    pairs=((1000, 5000), (3000, 6000), (9000, 9000)))
    put("event_log_fuzz", "log-only", b"\x01" + log)
    put("event_log_fuzz", "ring-only", b"\x02" + ring)
    n = len(log) // 64
    put("event_log_fuzz", "log-and-ring", b"\x03" + struct.pack("<H", n) + log + ring)
    put("event_log_fuzz", "log-and-both-halves", b"\x03" + struct.pack("<H", n) + log + ring_both)
    put("event_log_fuzz", "tsc-ring", b"\x02" + tsc)
    # A killed rank: its repair input (manifest, log, ring, comms per rank).
    comms = struct.pack("<6Q", (0 << 20) | 2, 0, 2, 2, 0, 1)
    manifest = b"format 1\nranks 2\nstarted 1764000000\nhash send\ncommand ./app\n"
    put("trace_repair_fuzz", "two-ranks-killed",
        SEP.join([manifest, log, ring, comms, b"", ring_file(4, (0, EMPTY), [recs[:2], []])]))
    put("trace_repair_fuzz", "one-rank-ring-only", SEP.join([manifest.replace(b"ranks 2", b"ranks 1"), b"", ring]))
    put("trace_repair_fuzz", "tsc", SEP.join([manifest, b"", tsc, comms]))


# ---- traces ------------------------------------------------------------------
def trace_seeds(work):
    fixture = os.path.join(work, "fixture")
    subprocess.run([os.path.join(build, "tests", "unit", "cz_trace_fixture"), fixture], check=True)
    for r in (0, 1):
        evt = read(os.path.join(fixture, "traces", f"{r}.evt"))
        put("trace_events_fuzz", f"fixture-{r}", b"\x00" + evt)
        put("trace_events_fuzz", f"fixture-{r}-cut", b"\x00" + evt[: len(evt) * 2 // 3])
    put("trace_manifest_fuzz", "fixture", read(os.path.join(fixture, "collectivize-trace.txt")))

    app = os.path.join(work, "app")
    shutil.copytree(os.path.join(root, "examples", "instrument-make"), app)
    sites = os.path.join(work, "sites.json")
    subprocess.run(["make", "-s", "CC=" + os.path.join(build, "clang-plugin", "wrapper", "collectivize-cc")],
                   cwd=app, check=True, env=dict(env, COLLECTIVIZE_SITES=sites, COLLECTIVIZE_ROOT=app))
    trace = os.path.join(work, "trace")
    subprocess.run([cli, "run", "-np", "4", "--trace-dir", trace, "--", os.path.join(app, "ring_bcast")],
                   check=True, env=env, stdout=subprocess.DEVNULL)
    for r in (0, 1):
        put("trace_events_fuzz", f"tracer-{r}", b"\x00" + read(os.path.join(trace, "traces", f"{r}.evt")))
    manifest = read(os.path.join(trace, "collectivize-trace.txt"))
    put("trace_manifest_fuzz", "tracer", manifest)
    put("trace_manifest_fuzz", "repaired", manifest + b"repaired 1764000000\n")

    report = os.path.join(work, "report.json")
    subprocess.run([cli, "detect", trace, "--sites", sites, "-o", report], check=True, env=env,
                   stdout=subprocess.DEVNULL)
    patches = os.path.join(work, "patches")
    subprocess.run([cli, "rewrite", "-q", report, "-o", patches], check=True, env=env,
                   stdout=subprocess.DEVNULL)
    for target in ("detection_report_fuzz", "report_json_fuzz"):
        put(target, "report", read(report))
        put(target, "verification", read(os.path.join(root, "tests", "report", "Inputs", "patches",
                                                      "01-bcast.verify.json")))
    for target in ("site_database_fuzz", "clang_site_database_fuzz"):
        put(target, "sites", read(sites))
    index = read(os.path.join(patches, "patches.json"))
    index = index.replace(report.encode(), b"report.json").replace(app.encode(), b".")
    put("patch_index_fuzz", "patches-and-report", index + SEP + read(report))
    put("report_json_fuzz", "patches", index)


def table_seeds():
    sources = [os.path.join(root, "runtime", "data", "decision-table.txt")]
    for d in ("tests/unit/Inputs", "tests/mpi/Inputs"):
        for name in sorted(os.listdir(os.path.join(root, d))):
            sources.append(os.path.join(root, d, name))
    for p in sources:
        put("decision_table_fuzz", os.path.basename(os.path.dirname(p)) + "-" + os.path.basename(p), read(p))


def main():
    for d in os.listdir(corpus) if os.path.isdir(corpus) else []:
        shutil.rmtree(os.path.join(corpus, d))
    global WORK
    with tempfile.TemporaryDirectory() as work:
        WORK = work
        event_log_seeds()
        trace_seeds(work)
        table_seeds()
    for d in sorted(os.listdir(corpus)):
        files = os.listdir(os.path.join(corpus, d))
        size = sum(os.path.getsize(os.path.join(corpus, d, f)) for f in files)
        print(f"{d}: {len(files)} seeds, {size} bytes")


main()
