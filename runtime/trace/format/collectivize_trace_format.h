/*
 * collectivize_trace_format.h: the trace format shared by the tracer
 * (runtime/trace, writes) and the trace reader (detector side, reads). This
 * header is the documented meeting point of the two; tests pin it down.
 *
 * A trace is a directory:
 *   <dir>/traces.otf2, traces.def, traces/   an OTF2 archive (otf2-print,
 *                                             Vampir, Scalasca read it)
 *   <dir>/collectivize-trace.txt              manifest, "key value" lines:
 *        format 1 / ranks P / started <unix time> / hash send|both /
 *        [clock_skew <value>] / [sites <path>]... / command <argv...>
 *        ("sites": a site database the program's instrumented code was
 *        compiled against, one line each, absolute; readers use it when
 *        none is given. "hash": whether
 *        receives carry their own CRC-32, see CZ_TRACE_ATTR_CRC32;
 *        "clock_skew": the run's COLLECTIVIZE_TRACE_CLOCK_SKEW: the clocks
 *        were skewed on purpose, for tests; readers need not act on it)
 *   <dir>/rank-<N>.done                       written by rank N when it
 *        finished tracing cleanly (MPI_Finalize); a rank without it is
 *        reported as incomplete by the reader.
 *   <dir>/rank-<N>.objects                    where rank N's code was loaded:
 *        "START END BIAS PATH" per executable segment (hex), so return
 *        addresses recorded as sites can be turned into file:line
 *   <dir>/rank-<N>.ring, .log, .comms         while rank N runs: its events
 *        as fixed-size records (the newest in the ring, the older ones in
 *        the log; runtime/trace/defs/event_log.h), which MPI_Finalize encodes
 *        into traces/N.evt, and the communicators
 *        rank N defined (uint64 words: ref, parent ref, region, size, size
 *        world ranks). Both are removed once N.evt is written. After a run
 *        that aborted or was killed (no traces.otf2), `collectivize trace
 *        repair DIR` encodes the records, writes the anchor and global
 *        definitions, and adds "repaired <unix time>" to the manifest;
 *        ranks without rank-N.done stay reported incomplete.
 *
 * OTF2 layout: one location per MPI rank (location N = world rank N, group
 * "rank N"); threads of an MPI_THREAD_MULTIPLE rank write to their rank's
 * location under a lock, so one location's events are in time order.
 * System tree: one node per host (named by gethostname, in the order of
 * their first rank; below a root node "cluster" when there are several),
 * each rank's location group under its host's node.
 * Timestamps: CLOCK_MONOTONIC nanoseconds of the rank's node (timer
 * resolution 1e9). Every location's local definitions hold two ClockOffset
 * records, measured at MPI_Init and at MPI_Finalize: rank 0's time = the
 * location's time + offset, at the record's (local) time; the deviation is
 * half the round trip it was measured with. Ranks on rank 0's node share
 * its clock: offset 0. Readers interpolate between the two records
 * (OTF2's do; Collectivize's reader hands out timestamps on rank 0's
 * clock). The clock properties' offset and length are on rank 0's clock.
 * COLLECTIVIZE_TRACE_CLOCK_SKEW (runtime/trace/clock.c) skews every rank's
 * clock on purpose, for tests.
 *
 * Records (standard OTF2 MPI records, OTF2 semantics):
 *   blocking sends (Send, Bsend, Ssend, Rsend, Sendrecv's send part)
 *       MpiSend(receiver, comm, tag, bytes)
 *   nonblocking / persistent sends
 *       MpiIsend(receiver, comm, tag, bytes, request) at the call (Start for
 *       persistent ones), MpiIsendComplete(request) at completion
 *   blocking receives (Recv, Sendrecv's receive part, Sendrecv_replace)
 *       MpiRecv(sender, comm, tag, bytes) at completion, with the actual
 *       source, tag and received byte count from the status
 *   nonblocking / persistent receives
 *       MpiIrecvRequest(request) at the call, MpiIrecv(sender, comm, tag,
 *       bytes, request) at completion (actual source/tag/count)
 *   cancelled requests: MpiRequestCancelled(request)
 *   collectives called by the program: MpiCollectiveBegin /
 *       MpiCollectiveEnd(op, comm, root, bytes sent, bytes received)
 *   communicator creation (dup, split, create, ...): Enter/Leave of a region
 *       named after the MPI call, the Leave carrying CZ_TRACE_ATTR_NEW_COMM,
 *       the call's site (CZ_TRACE_ATTR_SITE or CZ_TRACE_ATTR_RETURN_ADDRESS)
 *       and, for MPI_Comm_split, CZ_TRACE_ATTR_COLOR.
 * Peers (receiver/sender) and roots are ranks in the record's communicator,
 * as OTF2 defines them; CZ_TRACE_ATTR_PEER_WORLD gives the world rank (the
 * reader fills it in where the record omits it).
 *
 * Communicators: ref 0 is MPI_COMM_WORLD, ref 1 MPI_COMM_SELF (of whichever
 * rank writes it). In events, a communicator created at run time has ref
 * (L << 20) | k + 2, where L is its lowest world rank and k counts
 * communicators created at L (agreed by one allreduce at creation). The
 * global OTF2 Comm definitions number them densely (2, 3, ... in ascending
 * event ref; readers such as otf2-print expect that) and every location's
 * local definitions hold an OTF2_MAPPING_COMM table from event refs to
 * those, which OTF2 readers apply (Collectivize's reader keeps event refs).
 * Traces from before the mapping define communicators under event refs.
 * A communicator's group lists member world ranks in communicator rank
 * order. CZ_TRACE_ATTR_NEW_COMM and CZ_TRACE_ATTR_COMM are OTF2_TYPE_COMM
 * (OTF2_TYPE_UINT32 before), so the mapping applies to them too.
 *
 * Collectivize attributes (OTF2 attribute definitions, names below), on
 * MpiSend / MpiIsend / MpiRecv / MpiIrecv records:
 */
#ifndef COLLECTIVIZE_TRACE_FORMAT_H
#define COLLECTIVIZE_TRACE_FORMAT_H

#define CZ_TRACE_FORMAT_VERSION 1
#define CZ_TRACE_MANIFEST "collectivize-trace.txt"
#define CZ_TRACE_ARCHIVE "traces"    /* traces.otf2 */
#define CZ_TRACE_DONE_FMT "rank-%d.done"
#define CZ_TRACE_LOG_FMT "rank-%d.log"
#define CZ_TRACE_RING_FMT "rank-%d.ring"
#define CZ_TRACE_OBJECTS_FMT "rank-%d.objects"
/* What happened to a rank whose trace is not done, as empty files (they
 * need no data blocks, so a full disk does not stop them): tracing stopped
 * while the program ran (its records up to then are kept), the rank reached
 * MPI_Finalize but could not write its OTF2 events (all its records are
 * kept for `collectivize trace repair`), and the cause was a full disk. A
 * rank with none of them and no rank-N.done was aborted or killed. */
#define CZ_TRACE_STOPPED_FMT "rank-%d.stopped"
#define CZ_TRACE_FINALIZED_FMT "rank-%d.finalized"
#define CZ_TRACE_NOSPACE_FMT "rank-%d.nospace"
/* OTF2 chunk sizes of the archive (its anchor records them too). */
#define CZ_TRACE_EVENT_CHUNK_BYTES (1024 * 1024)
#define CZ_TRACE_DEF_CHUNK_BYTES (4 * 1024 * 1024)
#define CZ_TRACE_COMMS_FMT "rank-%d.comms"

/* <dir>/rank-<N>.blocks: per-block CRC-32s of rank N's sends, written only
 * when the run set COLLECTIVIZE_TRACE_BLOCK_BYTES=n (runtime/trace/
 * block_crcs.c). Little-endian. A 16-byte header: magic (uint64,
 * CZ_TRACE_BLOCKS_MAGIC), version (uint32), n (uint32). Then one entry per
 * send of at least 2n bytes whose packed size is a multiple of n, in event
 * order: the send's event index among rank N's events in traces/N.evt
 * (uint64; the MpiSend or MpiIsend record, counting every event from 0),
 * the number of blocks b = bytes / n (uint32), and b CRC-32s (uint32,
 * zlib's, of packed bytes [i*n, (i+1)*n)). A file cut short (a killed run)
 * ends at its last whole entry; sends without an entry have no block CRCs.
 * Added without changing CZ_TRACE_FORMAT_VERSION: readers that do not
 * know the file ignore it. */
#define CZ_TRACE_BLOCKS_FMT "rank-%d.blocks"
#define CZ_TRACE_BLOCKS_MAGIC 0x314b4c42545a43ull /* "CZTBLK1" */
#define CZ_TRACE_BLOCKS_VERSION 1u
#define CZ_TRACE_BLOCKS_HEADER_BYTES 16

/* UINT32: zlib CRC-32 of the message's packed payload (derived and
 * non-contiguous types are hashed over the bytes MPI_Pack would produce, so
 * sender and receiver agree). 0 for empty messages (crc32 of nothing).
 * Always on sends. Receives carry it (and CZ_TRACE_ATTR_PREFIX) only when
 * the manifest says "hash both" (COLLECTIVIZE_TRACE_HASH=both); by default
 * a payload is hashed once, at the sender, and a receive has the CRC of
 * the send it matches. */
#define CZ_TRACE_ATTR_CRC32 "collectivize::crc32"
/* UINT64: the user's buffer address (send or receive buffer). */
#define CZ_TRACE_ATTR_ADDRESS "collectivize::address"
/* UINT64: the first min(8, bytes) packed payload bytes, byte i in bits
 * 8i..8i+7 (little-endian order whatever the host). */
#define CZ_TRACE_ATTR_PREFIX "collectivize::prefix"
/* UINT64: call-site id from the instrumenter (site database); for calls
 * the instrumenter did not mark, CZ_TRACE_ATTR_RETURN_ADDRESS instead: the
 * return address of the MPI call. A record has one of the two. */
#define CZ_TRACE_ATTR_SITE "collectivize::site"
#define CZ_TRACE_ATTR_RETURN_ADDRESS "collectivize::return_address"
/* UINT32: element count the program passed (receives: whole elements
 * received, bytes / type size), and the datatype: a
 * cz_trace_type code below for predefined types, CZ_TRACE_TYPE_DERIVED for
 * derived ones (whose packed size is bytes / count). */
#define CZ_TRACE_ATTR_COUNT "collectivize::count"
#define CZ_TRACE_ATTR_DATATYPE "collectivize::datatype"
/* UINT32: the peer's (or root's) rank in MPI_COMM_WORLD. Omitted on
 * point-to-point records of MPI_COMM_WORLD (it is the peer) and
 * MPI_COMM_SELF (the rank itself). */
#define CZ_TRACE_ATTR_PEER_WORLD "collectivize::peer_world"
/* UINT8 1 on the MpiSend that cz_send_to_self records: data a process keeps
 * (the root's own block of a scatter or gather). No receive matches it. Its
 * receiver is the process's own rank, communicator MPI_COMM_WORLD (ref 0),
 * tag 0. */
#define CZ_TRACE_ATTR_KEPT "collectivize::kept"
/* COMM: ref of the communicator a creation call made (MPI_COMM_NULL:
 * 0xffffffff). */
#define CZ_TRACE_ATTR_NEW_COMM "collectivize::new_comm"
/* COMM: ref of the communicator argument of a communicator call, on the
 * Leave of its region: the parent of a creation, the freed communicator of
 * MPI_Comm_free (whose NEW_COMM is 0xffffffff). */
#define CZ_TRACE_ATTR_COMM "collectivize::comm"
/* UINT32: the color argument of MPI_Comm_split (an int, two's complement;
 * MPI_UNDEFINED included), on the Leave of its region, so a communicator
 * can be named by the call that made it and the color its members passed.
 * (UINT32 rather than INT32: the reader's direct decoding knows the types
 * the tracer writes.) */
#define CZ_TRACE_ATTR_COLOR "collectivize::color"
/* UINT64, on point-to-point records whose site (CZ_TRACE_ATTR_SITE) is in
 * a function of the program that wraps the MPI call (the site database's
 * "call_path": "caller"): the return address of that function, i.e. where
 * the program called its wrapper (an address in the rank's process:
 * rank-N.objects maps it to a file and line). Absent otherwise. Added
 * without changing CZ_TRACE_FORMAT_VERSION: readers that do not know it
 * see the wrapper's site alone. */
#define CZ_TRACE_ATTR_CALLER "collectivize::caller"
/* UINT8 1 on a receive (MpiRecv, MpiIrecv) the program posted with
 * MPI_ANY_SOURCE, or a matched receive (MPI_Mrecv, MPI_Imrecv) of a
 * message probed with it: the receiver did not choose the sender, the
 * order of arrival did (the record's peer is the sender the status
 * named). Absent otherwise. A receive from a source taken from an
 * earlier MPI_Probe's status is not marked. Added without changing
 * CZ_TRACE_FORMAT_VERSION: readers that do not know it see receives
 * from their senders, as before. */
#define CZ_TRACE_ATTR_ANY_SOURCE "collectivize::any_source"

/* Every attribute above, once, for all the code that declares, writes,
 * reads, prints and compares them (the tracer's OTF2 definitions, the
 * trace reader's Event members and decoding, `collectivize trace dump`,
 * the tests' trace writer): a new attribute is its #define and comment
 * above, one line here, and the tracer code that records it (runtime/
 * README.md, "A new trace field").
 *   X(ID, TYPE, MEMBER, SHOWN, DESCRIPTION)
 *   ID           the name is CZ_TRACE_ATTR_<ID>
 *   TYPE         the OTF2 type written: OTF2_TYPE_<TYPE>
 *   MEMBER       the reader's cz::trace::Event member that holds it,
 *                declared from this line (an optional of TYPE's C++
 *                type, signed when SHOWN is SIGNED; SITE and
 *                RETURN_ADDRESS share `site`, `siteKind` says which one
 *                the record had)
 *   SHOWN        how `trace dump` prints it: HEX, HEX_FIXED (all digits
 *                of TYPE), DECIMAL, SIGNED, DATATYPE (cz_trace_type name),
 *                FLAG (its name when non-zero), COMM (a ref, or "null"),
 *                SITE (an id, or "ra:" and the address), WITH_SITE and
 *                WITH_PEER (printed with the site, with the peer)
 *   DESCRIPTION  the description in the OTF2 attribute definition
 * The list's order is the tracer's attribute refs and the dump's order;
 * readers find attributes by name, so traces written with another order
 * stay readable. */
#define CZ_TRACE_ATTRIBUTES(X) \
  X(CRC32, UINT32, crc32, HEX_FIXED, "zlib CRC-32 of the packed payload") \
  X(ADDRESS, UINT64, address, HEX, "user buffer address") \
  X(PREFIX, UINT64, prefix, HEX_FIXED, "first 8 packed payload bytes, little-endian") \
  X(SITE, UINT64, site, SITE, "call-site id or return address") \
  X(RETURN_ADDRESS, UINT64, site, WITH_SITE, "return address of the MPI call") \
  X(CALLER, UINT64, caller, HEX, "return address of the program's function holding the call") \
  X(COUNT, UINT32, count, DECIMAL, "element count") \
  X(DATATYPE, UINT32, datatype, DATATYPE, "cz_trace_type code") \
  X(PEER_WORLD, UINT32, peerWorld, WITH_PEER, "peer or root rank in MPI_COMM_WORLD") \
  X(KEPT, UINT8, kept, FLAG, "data the process keeps (cz_send_to_self)") \
  X(NEW_COMM, COMM, newComm, COMM, "communicator the call created") \
  X(COMM, COMM, commArgument, COMM, "communicator argument of the call") \
  X(COLOR, UINT32, color, SIGNED, "color argument of MPI_Comm_split (an int)") \
  X(ANY_SOURCE, UINT8, anySource, FLAG, "receive posted with MPI_ANY_SOURCE")

/* Predefined datatypes in CZ_TRACE_ATTR_DATATYPE. Stable numbers: append
 * only. */
typedef enum {
  CZ_TRACE_TYPE_DERIVED = 0,
  CZ_TRACE_TYPE_BYTE,
  CZ_TRACE_TYPE_CHAR,
  CZ_TRACE_TYPE_SIGNED_CHAR,
  CZ_TRACE_TYPE_UNSIGNED_CHAR,
  CZ_TRACE_TYPE_SHORT,
  CZ_TRACE_TYPE_UNSIGNED_SHORT,
  CZ_TRACE_TYPE_INT,
  CZ_TRACE_TYPE_UNSIGNED,
  CZ_TRACE_TYPE_LONG,
  CZ_TRACE_TYPE_UNSIGNED_LONG,
  CZ_TRACE_TYPE_LONG_LONG,
  CZ_TRACE_TYPE_UNSIGNED_LONG_LONG,
  CZ_TRACE_TYPE_FLOAT,
  CZ_TRACE_TYPE_DOUBLE,
  CZ_TRACE_TYPE_LONG_DOUBLE,
  CZ_TRACE_TYPE_PACKED,
  CZ_TRACE_TYPE_INT8_T,
  CZ_TRACE_TYPE_INT16_T,
  CZ_TRACE_TYPE_INT32_T,
  CZ_TRACE_TYPE_INT64_T,
  CZ_TRACE_TYPE_UINT8_T,
  CZ_TRACE_TYPE_UINT16_T,
  CZ_TRACE_TYPE_UINT32_T,
  CZ_TRACE_TYPE_UINT64_T,
  CZ_TRACE_TYPE_C_BOOL,
  CZ_TRACE_TYPE_WCHAR,
  CZ_TRACE_TYPE_2INT,
  CZ_TRACE_TYPE_FLOAT_INT,
  CZ_TRACE_TYPE_DOUBLE_INT,
  CZ_TRACE_TYPE_LONG_INT,
  CZ_TRACE_TYPE_SHORT_INT,
  CZ_TRACE_TYPE_LONG_DOUBLE_INT,
  /* Fortran's (MPI_INTEGER, ...): their own handles in C as well. INTEGER
   * and REAL are 4 bytes, DOUBLE_PRECISION 8 (other sizes are derived). */
  CZ_TRACE_TYPE_INTEGER,
  CZ_TRACE_TYPE_REAL,
  CZ_TRACE_TYPE_DOUBLE_PRECISION,
  CZ_TRACE_TYPE_COMPLEX,
  CZ_TRACE_TYPE_DOUBLE_COMPLEX,
  CZ_TRACE_TYPE_LOGICAL,
  CZ_TRACE_TYPE_CHARACTER,
  CZ_TRACE_TYPE_INTEGER4,
  CZ_TRACE_TYPE_INTEGER8,
  CZ_TRACE_TYPE_REAL4,
  CZ_TRACE_TYPE_REAL8,
  CZ_TRACE_TYPE_COUNT
} cz_trace_type;

#endif /* COLLECTIVIZE_TRACE_FORMAT_H */
