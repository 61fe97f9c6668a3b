/* global_defs.c: see global_defs.h. Groups: 0 the MPI locations, 1 world,
 * 2 self, 3.. one per created communicator. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectivize_trace_format.h"
#include "global_defs.h"

const char *const czt_region_names[CZT_REGION_COUNT] = {
    "MPI_Comm_dup",    "MPI_Comm_dup_with_info", "MPI_Comm_split",
    "MPI_Comm_split_type", "MPI_Comm_create", "MPI_Comm_create_group",
    "MPI_Cart_create", "MPI_Comm_free"};

/* Comm-typed attributes are mapped by OTF2 readers like the records'
 * communicators. */
static const struct {
  const char *name, *description;
  OTF2_Type type;
} attr_defs[CZT_ATTR_COUNT_] = {
#define CZT_ATTR_DEF(id, type, member, shown, description) \
  {CZ_TRACE_ATTR_##id, description, OTF2_TYPE_##type},
    CZ_TRACE_ATTRIBUTES(CZT_ATTR_DEF)
#undef CZT_ATTR_DEF
};

typedef struct writer {
  OTF2_GlobalDefWriter *w;
  OTF2_StringRef strings;
} writer;

static OTF2_StringRef str(writer *g, const char *s) {
  OTF2_GlobalDefWriter_WriteString(g->w, g->strings, s);
  return g->strings++;
}

static int by_value(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

uint32_t *czt_comm_refs_sort(uint32_t *refs, size_t *n) {
  if (!refs || *n == 0) return refs;
  qsort(refs, *n, sizeof *refs, by_value);
  size_t kept = 1;
  for (size_t i = 1; i < *n; i++)
    if (refs[i] != refs[kept - 1]) refs[kept++] = refs[i];
  *n = kept;
  return refs;
}

uint32_t *czt_comm_refs_sorted(const uint64_t *d, size_t n_words, size_t *n) {
  *n = 0;
  size_t defs = 0;
  for (size_t i = 0; i + 4 <= n_words && d[i + 3] <= n_words - i - 4; i += 4 + d[i + 3])
    defs++;
  uint32_t *refs = defs ? malloc(defs * sizeof *refs) : NULL;
  if (!refs) return NULL;
  for (size_t i = 0; *n < defs; i += 4 + d[i + 3]) refs[(*n)++] = (uint32_t)d[i];
  return czt_comm_refs_sort(refs, n);
}

uint32_t czt_comm_dense_ref(const uint32_t *sorted, size_t n, uint32_t ref) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (sorted[mid] < ref) lo = mid + 1;
    else hi = mid;
  }
  return lo < n && sorted[lo] == ref ? (uint32_t)(2 + lo) : ref;
}

int czt_write_comm_mapping(OTF2_DefWriter *w, const uint32_t *sorted, size_t n) {
  if (n == 0) return 0;
  OTF2_IdMap *map = OTF2_IdMap_Create(OTF2_ID_MAP_SPARSE, n);
  if (!map) return -1;
  for (size_t i = 0; i < n; i++) OTF2_IdMap_AddIdPair(map, sorted[i], 2 + i);
  int rc = OTF2_DefWriter_WriteMappingTable(w, OTF2_MAPPING_COMM, map) == OTF2_SUCCESS ? 0 : -1;
  OTF2_IdMap_Free(map);
  return rc;
}

/* Comm definitions in ascending event ref, under their dense refs (a
 * parent before its children: OTF2 readers want each defined before use). */
static void write_comms(writer *g, const czt_global_info *info,
                        const OTF2_StringRef *region_names,
                        OTF2_StringRef empty) {
  const uint64_t *d = info->comm_words;
  size_t n = info->n_comm_words, count = 0;
  uint32_t *sorted = czt_comm_refs_sorted(d, n, &count);
  if (!sorted) return;
  /* Where each ref's (first) definition starts. */
  size_t *at = malloc(count * sizeof *at);
  unsigned char *seen = calloc(count, 1);
  if (!at || !seen) {
    free(at);
    free(seen);
    free(sorted);
    return;
  }
  for (size_t i = 0; i + 4 <= n && d[i + 3] <= n - i - 4; i += 4 + d[i + 3]) {
    size_t k = czt_comm_dense_ref(sorted, count, (uint32_t)d[i]) - 2;
    if (!seen[k]) at[k] = i;
    seen[k] = 1;
  }
  for (size_t k = 0; k < count; k++) {
    const uint64_t *def = d + at[k];
    uint32_t parent = czt_comm_dense_ref(sorted, count, (uint32_t)def[1]);
    uint64_t region = def[2], size = def[3];
    OTF2_GroupRef group = (OTF2_GroupRef)(3 + k);
    OTF2_GlobalDefWriter_WriteGroup(g->w, group, empty,
                                    OTF2_GROUP_TYPE_COMM_GROUP,
                                    OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                    (uint32_t)size, def + 4);
    OTF2_GlobalDefWriter_WriteComm(
        g->w, (OTF2_CommRef)(2 + k),
        region < CZT_REGION_COUNT ? region_names[region] : empty, group,
        parent, OTF2_COMM_FLAG_NONE);
  }
  free(at);
  free(seen);
  free(sorted);
}

static const char *host_of(const czt_global_info *info, int r) {
  const char *h = info->hosts ? info->hosts + (size_t)r * info->host_bytes : info->host;
  return h && *h ? h : "localhost";
}

static uint64_t fnv1a(const char *s) {
  uint64_t h = 14695981039346656037ull;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

/* One node per host, in the order of their first rank; node_of[r] is rank
 * r's. Several hosts hang below a "machine" root node. Hosts are found
 * through a hash table of first ranks (p may be large). 0, or -1 without
 * memory. */
static int write_system_tree(writer *g, const czt_global_info *info, uint32_t *node_of) {
  int p = info->ranks, several = 0;
  for (int r = 1; r < p && !several; r++)
    several = strcmp(host_of(info, r), host_of(info, 0)) != 0;
  uint32_t nodes = 0, parent = OTF2_UNDEFINED_SYSTEM_TREE_NODE;
  if (several) {
    OTF2_GlobalDefWriter_WriteSystemTreeNode(g->w, 0, str(g, "cluster"), str(g, "machine"),
                                             OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    parent = 0;
    nodes = 1;
  }
  size_t slots = 16;
  while (slots < 2 * (size_t)p) slots *= 2;
  int *first = malloc(sizeof(int) * slots); /* a host's first rank, -1: free */
  if (!first) return -1;
  for (size_t i = 0; i < slots; i++) first[i] = -1;
  OTF2_StringRef node_class = str(g, "node");
  for (int r = 0; r < p; r++) {
    const char *h = host_of(info, r);
    size_t i = (size_t)fnv1a(h) & (slots - 1);
    while (first[i] >= 0 && strcmp(host_of(info, first[i]), h) != 0) i = (i + 1) & (slots - 1);
    if (first[i] >= 0) {
      node_of[r] = node_of[first[i]];
      continue;
    }
    first[i] = r;
    node_of[r] = nodes++;
    OTF2_GlobalDefWriter_WriteSystemTreeNode(g->w, node_of[r], str(g, h), node_class, parent);
  }
  free(first);
  return 0;
}

int czt_write_global_defs(OTF2_Archive *archive, const czt_global_info *info) {
  writer g = {OTF2_Archive_GetGlobalDefWriter(archive), 0};
  if (!g.w) return -1;
  int p = info->ranks;
  uint64_t first = UINT64_MAX, last = 0;
  for (int r = 0; r < p; r++) {
    if (info->spans[r].events == 0) continue;
    if (info->spans[r].first < first) first = info->spans[r].first;
    if (info->spans[r].last > last) last = info->spans[r].last;
  }
  if (first > last) first = last = 0;
  OTF2_GlobalDefWriter_WriteClockProperties(g.w, 1000000000u, first,
                                            last - first,
                                            info->realtime_at_first);
  OTF2_StringRef empty = str(&g, "");
  uint32_t *node_of = malloc(sizeof(uint32_t) * (size_t)(p ? p : 1));
  if (!node_of || write_system_tree(&g, info, node_of) != 0) {
    free(node_of);
    return -1;
  }
  for (int r = 0; r < p; r++) {
    char name[32];
    snprintf(name, sizeof name, "rank %d", r);
    OTF2_StringRef s = str(&g, name);
    OTF2_GlobalDefWriter_WriteLocationGroup(g.w, (OTF2_LocationGroupRef)r, s,
                                            OTF2_LOCATION_GROUP_TYPE_PROCESS,
                                            node_of[r], OTF2_UNDEFINED_LOCATION_GROUP);
    OTF2_GlobalDefWriter_WriteLocation(g.w, (OTF2_LocationRef)r, s,
                                       OTF2_LOCATION_TYPE_CPU_THREAD,
                                       info->spans[r].events,
                                       (OTF2_LocationGroupRef)r);
  }
  free(node_of);
  for (int a = 0; a < CZT_ATTR_COUNT_; a++)
    OTF2_GlobalDefWriter_WriteAttribute(g.w, (OTF2_AttributeRef)a,
                                        str(&g, attr_defs[a].name),
                                        str(&g, attr_defs[a].description),
                                        attr_defs[a].type);
  OTF2_StringRef region_names[CZT_REGION_COUNT];
  for (int i = 0; i < CZT_REGION_COUNT; i++) {
    region_names[i] = str(&g, czt_region_names[i]);
    OTF2_GlobalDefWriter_WriteRegion(
        g.w, (OTF2_RegionRef)i, region_names[i], region_names[i], empty,
        OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE,
        empty, 0, 0);
  }
  uint64_t *ranks = malloc(sizeof(uint64_t) * (size_t)(p ? p : 1));
  if (!ranks) return -1;
  for (int r = 0; r < p; r++) ranks[r] = (uint64_t)r;
  OTF2_GlobalDefWriter_WriteGroup(g.w, 0, empty,
                                  OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                  OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                  (uint32_t)p, ranks);
  OTF2_GlobalDefWriter_WriteGroup(g.w, 1, empty, OTF2_GROUP_TYPE_COMM_GROUP,
                                  OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                  (uint32_t)p, ranks);
  free(ranks);
  OTF2_GlobalDefWriter_WriteGroup(g.w, 2, empty, OTF2_GROUP_TYPE_COMM_SELF,
                                  OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, 0,
                                  NULL);
  OTF2_GlobalDefWriter_WriteComm(g.w, 0, str(&g, "MPI_COMM_WORLD"), 1,
                                 OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
  OTF2_GlobalDefWriter_WriteComm(g.w, 1, str(&g, "MPI_COMM_SELF"), 2,
                                 OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
  write_comms(&g, info, region_names, empty);
  return OTF2_Archive_CloseGlobalDefWriter(archive, g.w) == OTF2_SUCCESS ? 0
                                                                         : -1;
}
