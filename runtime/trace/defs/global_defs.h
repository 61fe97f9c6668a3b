/* global_defs.h: the OTF2 global definitions of a Collectivize trace
 * (strings, clock, system tree of the ranks' nodes, one location per rank,
 * attributes, regions,
 * groups and communicators), as one function over plain data. Free of MPI:
 * the tracer calls it at MPI_Finalize, `collectivize trace repair` after a
 * run that never got there. */
#ifndef CZT_GLOBAL_DEFS_H
#define CZT_GLOBAL_DEFS_H

#include <stddef.h>
#include <stdint.h>
#include <otf2/otf2.h>

#include "collectivize_trace_format.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Attribute refs: CZT_ATTR_<ID> in the order of CZ_TRACE_ATTRIBUTES
 * (collectivize_trace_format.h). */
enum {
#define CZT_ATTR_ENUM(id, type, member, shown, description) CZT_ATTR_##id,
  CZ_TRACE_ATTRIBUTES(CZT_ATTR_ENUM)
#undef CZT_ATTR_ENUM
  CZT_ATTR_COUNT_
};

/* Regions for communicator calls (Enter/Leave). */
enum {
  CZT_REGION_COMM_DUP = 0,
  CZT_REGION_COMM_DUP_WITH_INFO,
  CZT_REGION_COMM_SPLIT,
  CZT_REGION_COMM_SPLIT_TYPE,
  CZT_REGION_COMM_CREATE,
  CZT_REGION_COMM_CREATE_GROUP,
  CZT_REGION_CART_CREATE,
  CZT_REGION_COMM_FREE,
  CZT_REGION_COUNT
};
extern const char *const czt_region_names[CZT_REGION_COUNT];

/* What one rank wrote: its event count and first and last timestamp. */
typedef struct czt_rank_span {
  uint64_t events, first, last;
} czt_rank_span;

typedef struct czt_global_info {
  int ranks;
  const czt_rank_span *spans;  /* ranks entries */
  const uint64_t *comm_words;  /* communicator definitions, concatenated: */
  size_t n_comm_words;         /* ref, parent, region, size, size members */
  const char *host;            /* system tree node name (when hosts is NULL) */
  uint64_t realtime_at_first;  /* ns since the epoch at the first timestamp */
  const char *hosts;           /* rank r's node name at hosts + r * host_bytes, */
  size_t host_bytes;           /* NUL-terminated; NULL: every rank on host */
} czt_global_info;

/* Write them with archive's global definition writer and close it.
 * 0 on success. Malformed communicator words end the list (not an error). */
int czt_write_global_defs(OTF2_Archive *archive, const czt_global_info *info);

/* Communicator refs, sparse in events and dense in definitions.
 *
 * Events keep the refs the tracer hands out at creation ((L << 20) | k + 2,
 * collectivize_trace_format.h), which need no agreement beyond the new
 * communicator's members. OTF2 readers expect global definitions numbered
 * 0, 1, 2, ...: the global Comm definitions take dense refs (2 + position
 * among the created communicators' refs in ascending order: a parent sorts
 * before its children), and every location's local definitions hold an
 * OTF2 mapping table (OTF2_MAPPING_COMM) from the event refs to them, which
 * OTF2 readers apply to the events. */

/* The created communicators' refs in ascending order, each once, from
 * definition words (as czt_global_info) or from bare refs; malloc'ed, NULL
 * with *n = 0 when there are none (or no memory). */
uint32_t *czt_comm_refs_sorted(const uint64_t *words, size_t n_words, size_t *n);
uint32_t *czt_comm_refs_sort(uint32_t *refs, size_t *n); /* in place, unique */
/* The dense ref of event ref `ref`: refs 0 and 1 and unknown ones unchanged. */
uint32_t czt_comm_dense_ref(const uint32_t *sorted, size_t n, uint32_t ref);
/* The mapping table into a location's local definitions (nothing when no
 * communicator was created). 0 on success. */
int czt_write_comm_mapping(OTF2_DefWriter *w, const uint32_t *sorted, size_t n);

#ifdef __cplusplus
}
#endif
#endif /* CZT_GLOBAL_DEFS_H */
