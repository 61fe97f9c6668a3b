/*
 * plan.c: planned, node-aware alltoallv (after Jackson & Booth, "Planned
 * AlltoAllv: a cluster approach"). A plan is computed once from the
 * arguments of an MPI_Alltoallv call and executed many times.
 *
 * Segment (one per node, shared window, two halves used alternately so one
 * execution's unpacking never races the next one's packing), per half:
 *   send region:  for each node B (own node included), for each rank d of B,
 *                 for each rank s of my node: the bytes s sends d
 *   recv region:  for each other node C, for each rank d of my node, for each
 *                 rank s of C: the bytes s sends d
 * so node A's data for node B is one contiguous run in A's send region, and
 * lands as one run in B's receive region, in the same order. Data between
 * two ranks of one node never leaves the segment; a rank's data to itself
 * is copied directly.
 *
 * Execution (node path), steps and cost in Hockney terms, N nodes of L
 * ranks, m = bytes a rank sends (and receives), M = bytes per node pair:
 *   1. pack my blocks into the send region              m·γ (memory copy)
 *   2. node barrier in shared memory (cached path: the vote that proves
 *      every rank runs the same plan, which is that barrier plus an
 *      allreduce among the N node leaders)              ~L·α_shm
 *   3. the node's N-1 outgoing and N-1 incoming messages, spread over its L
 *      ranks (greedy by bytes)    ⌈2(N-1)/L⌉·α + ⌈2(N-1)/L⌉·M·β per rank
 *   4. node barrier                                     ~L·α_shm
 *   5. unpack my blocks from the segment                m·γ
 * against P-1 messages per rank (P·(P-1) in all) for a direct alltoallv:
 * N·(N-1) messages in all. Pays off when α dominates (small blocks, many
 * ranks per node); loses when m·γ and the barriers outweigh the messages
 * saved (large blocks, one rank per node, sparse patterns).
 *
 * Plan creation (collective): an alltoall of the byte counts (checks the
 * ranks agree), an allreduce of the verdict, an allgather within the node,
 * an allreduce of the N×N node-pair byte matrix, and (when the segment
 * grows) a shared-window allocation. Example, P = 4, two nodes {0,1} {2,3},
 * one int per pair: node 0's send region holds 0→1, 1→0 (intra), then
 * 0→2, 1→2, 0→3, 1→3 (one 16-byte message to node 1); rank 0 sends it, rank
 * 1 receives node 1's 16 bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "plan.h"

/* Weight of one message, in bytes, when spreading a node's messages over its
 * ranks: a message costs about what this many bytes cost to move. */
#define CZI_PLAN_MSG_WEIGHT 4096
/* The segment is not grown beyond this: larger patterns run directly. */
#define CZI_PLAN_SEGMENT_MAX ((MPI_Aint)1 << 30)

static MPI_Aint round_up(MPI_Aint v, MPI_Aint to) { return (v + to - 1) / to * to; }

/* Grow the node's segment to at least need bytes. Collective over the node
 * communicator; every rank of a node computes the same need. */
static int ensure_segment(czi_node_ctx *ctx, MPI_Aint need) {
  int rc = MPI_SUCCESS, disp = 0;
  MPI_Aint size = 0;
  void *base = NULL;
  if (ctx->seg_size >= need) return MPI_SUCCESS;
  if (ctx->win != MPI_WIN_NULL) {
    CZI_MPI(PMPI_Win_free(&ctx->win));
    ctx->seg = NULL;
    ctx->seg_size = 0;
  }
  need = round_up(need, 65536);
  CZI_MPI(PMPI_Win_allocate_shared(ctx->node_rank == 0 ? need : 0, 1,
                                   MPI_INFO_NULL, ctx->node, &base, &ctx->win));
  CZI_MPI(PMPI_Win_set_errhandler(ctx->win, MPI_ERRORS_RETURN));
  CZI_MPI(PMPI_Win_shared_query(ctx->win, 0, &size, &disp, &base));
  ctx->seg = base;
  ctx->seg_size = need;
fn_fail:
  return rc;
}

/* Which rank of node a does each of its messages: sends to b (snd[a*n+b])
 * and receives from c (rcv[c*n+a]), as local indices. Greedy: largest
 * message first, to the least-loaded rank. Same result on every rank. */
typedef struct task {
  long long bytes;
  int kind, other; /* kind 0: send to other, 1: receive from other */
} task;

static int task_order(const void *x, const void *y) {
  const task *a = x, *b = y;
  if (a->bytes != b->bytes) return a->bytes > b->bytes ? -1 : 1;
  if (a->kind != b->kind) return a->kind - b->kind;
  return a->other - b->other;
}

static void assign_node(const czi_node_ctx *ctx, const long long *m, int a,
                        task *tasks, long long *load, int *snd, int *rcv) {
  const int n = ctx->nnodes;
  const int l = ctx->node_start[a + 1] - ctx->node_start[a];
  int nt = 0;
  for (int b = 0; b < n; b++) {
    if (b == a) continue;
    if (m[a * n + b] > 0) tasks[nt++] = (task){m[a * n + b], 0, b};
    if (m[b * n + a] > 0) tasks[nt++] = (task){m[b * n + a], 1, b};
  }
  qsort(tasks, (size_t)nt, sizeof *tasks, task_order);
  for (int i = 0; i < l; i++) load[i] = 0;
  for (int t = 0; t < nt; t++) {
    /* Start the search at a node-dependent rank so nodes with one message
     * each do not all pick their local rank 0. */
    int best = -1;
    for (int k = 0; k < l; k++) {
      int i = (k + a) % l;
      if (best < 0 || load[i] < load[best]) best = i;
    }
    load[best] += tasks[t].bytes + CZI_PLAN_MSG_WEIGHT;
    if (tasks[t].kind == 0) snd[a * n + tasks[t].other] = best;
    else rcv[tasks[t].other * n + a] = best;
  }
}

static int recv_overlap(const int *counts, const int *displs, int p,
                        const czi_type *t, char *why, size_t len) {
  typedef struct { MPI_Aint lo, hi; int rank; } span;
  span *s = malloc(sizeof(span) * (size_t)(p ? p : 1));
  int n = 0, bad = 0;
  if (!s) return 0;
  for (int i = 0; i < p; i++) {
    if (counts[i] == 0 || t->size == 0) continue;
    s[n].lo = (MPI_Aint)displs[i] * t->extent + t->true_lb;
    s[n].hi = s[n].lo + czi_span(counts[i], t);
    s[n++].rank = i;
  }
  /* Insertion sort by start: P is small next to what the plan costs. */
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && s[j].lo < s[j - 1].lo; j--) {
      span tmp = s[j]; s[j] = s[j - 1]; s[j - 1] = tmp;
    }
  for (int i = 1; i < n && !bad; i++)
    if (s[i].lo < s[i - 1].hi) {
      snprintf(why, len,
               "receive blocks overlap: the block from rank %d (rdispls %d, "
               "recvcounts %d) and the block from rank %d (rdispls %d, "
               "recvcounts %d)",
               s[i - 1].rank, displs[s[i - 1].rank], counts[s[i - 1].rank],
               s[i].rank, displs[s[i].rank], counts[s[i].rank]);
      bad = 1;
    }
  free(s);
  return bad;
}

/* Every rank learns whether any rank found a problem, and if so gets the
 * code and message of the most basic one (a rank's own bad arguments come
 * before the disagreements they cause elsewhere), lowest rank first. */
static int agree_on_error(MPI_Comm priv, int me, int code, int basic,
                          const char *why) {
  int rc = MPI_SUCCESS;
  struct { int flag, rank; } in = {code == MPI_SUCCESS ? 0 : basic ? 2 : 1, me}, out;
  struct { int code; char text[400]; } msg;
  CZI_MPI(PMPI_Allreduce(&in, &out, 1, MPI_2INT, MPI_MAXLOC, priv));
  if (!out.flag) return MPI_SUCCESS;
  msg.code = code;
  snprintf(msg.text, sizeof msg.text, "%s", why);
  CZI_MPI(PMPI_Bcast(&msg, (int)sizeof msg, MPI_BYTE, out.rank, priv));
  return czi_fail(msg.code, "cz_alltoallv_plan_create", "rank %d: %s",
                  out.rank, msg.text);
fn_fail:
  return rc;
}

int czi_plan_create(const int *sendcounts, const int *sdispls,
                    MPI_Datatype sendtype, const int *recvcounts,
                    const int *rdispls, MPI_Datatype recvtype, MPI_Comm priv,
                    const czi_plan_how *how, int local_error,
                    cz_alltoallv_plan_t *out) {
  int rc = MPI_SUCCESS, code = local_error;
  char why[400] = "";
  czi_node_ctx *ctx = NULL;
  cz_alltoallv_plan_t plan = NULL;
  long long *sb = NULL, *got = NULL, *rows = NULL, *mat = NULL, *load = NULL;
  int *snd = NULL, *rcv = NULL;
  MPI_Aint *offs = NULL;
  task *tasks = NULL;
  *out = NULL;
  if (local_error != MPI_SUCCESS) snprintf(why, sizeof why, "%s", cz_last_error());
  int basic = local_error != MPI_SUCCESS;

  CZI_TRY(czi_node_ctx_get(priv, &ctx));
  const int p = ctx->p, me = ctx->me, n = ctx->nnodes;
  plan = calloc(1, sizeof *plan);
  if (!plan) return czi_fail(MPI_ERR_NO_MEM, __func__, "out of memory");
  plan->ctx = ctx;
  ctx->refs++;
  plan->p = p;
  plan->me = me;
  plan->sendtype = sendtype;
  plan->recvtype = recvtype;
  CZI_MALLOC(plan->args, sizeof(int) * 4 * (size_t)p);
  CZI_MALLOC(sb, sizeof(long long) * 2 * (size_t)p);
  CZI_MALLOC(got, sizeof(long long) * (size_t)p);
  long long *rb = sb + p;
  memset(sb, 0, sizeof(long long) * 2 * (size_t)p);
  if (code == MPI_SUCCESS) {
    memcpy(plan->args, sendcounts, sizeof(int) * (size_t)p);
    memcpy(plan->args + p, sdispls, sizeof(int) * (size_t)p);
    memcpy(plan->args + 2 * p, recvcounts, sizeof(int) * (size_t)p);
    memcpy(plan->args + 3 * p, rdispls, sizeof(int) * (size_t)p);
    if ((code = czi_type_get(sendtype, &plan->st)) != MPI_SUCCESS ||
        (code = czi_type_get(recvtype, &plan->rt)) != MPI_SUCCESS) {
      snprintf(why, sizeof why, "%s", cz_last_error());
      basic = 1;
    }
  }
  if (code == MPI_SUCCESS) {
    for (int j = 0; j < p; j++) {
      sb[j] = (long long)sendcounts[j] * (long long)plan->st.size;
      rb[j] = (long long)recvcounts[j] * (long long)plan->rt.size;
    }
    if (recv_overlap(recvcounts, rdispls, p, &plan->rt, why, sizeof why))
      code = MPI_ERR_BUFFER;
  }
  /* What each rank sends me must be what I expect from it. */
  CZI_MPI(PMPI_Alltoall(sb, 1, MPI_LONG_LONG, got, 1, MPI_LONG_LONG, priv));
  for (int i = 0; i < p && code == MPI_SUCCESS; i++)
    if (got[i] != rb[i]) {
      code = MPI_ERR_TRUNCATE;
      snprintf(why, sizeof why,
               "counts disagree between ranks: rank %d sends %lld bytes to "
               "rank %d, which expects %lld (recvcounts[%d] = %d)",
               i, got[i], me, rb[i], i, recvcounts[i]);
    }
  CZI_TRY(agree_on_error(priv, me, code, basic, why));

  /* Node rows: what every rank of my node sends and expects. */
  const int l = ctx->node_size, a = ctx->my_node;
  const int *mine = ctx->node_members + ctx->node_start[a];
  CZI_MALLOC(rows, sizeof(long long) * 2 * (size_t)p * (size_t)l);
  CZI_MPI(PMPI_Allgather(sb, 2 * p, MPI_LONG_LONG, rows, 2 * p, MPI_LONG_LONG,
                         ctx->node));
  /* Node-pair byte matrix (self pairs excluded) plus message and byte
   * totals, known to every rank. */
  const size_t nn = (size_t)n * (size_t)n;
  CZI_MALLOC(mat, sizeof(long long) * (nn + 2));
  memset(mat, 0, sizeof(long long) * (nn + 2));
  if (ctx->node_rank == 0)
    for (int s = 0; s < l; s++)
      for (int j = 0; j < p; j++)
        if (j != mine[s]) mat[(size_t)a * n + ctx->node_of[j]] += rows[(size_t)s * 2 * p + j];
  for (int j = 0; j < p; j++)
    if (j != me && sb[j] > 0) {
      mat[nn]++;
      mat[nn + 1] += sb[j];
    }
  CZI_MPI(PMPI_Allreduce(MPI_IN_PLACE, mat, (int)(nn + 2), MPI_LONG_LONG,
                         MPI_SUM, priv));
  plan->rank_msgs = mat[nn];
  plan->total_bytes = mat[nn + 1];
  plan->mean_block = mat[nn] ? mat[nn + 1] / mat[nn] : 0;
  long long biggest = 0;
  MPI_Aint need_max = 0, my_half = 0;
  for (int x = 0; x < n; x++) {
    MPI_Aint h = 0;
    for (int y = 0; y < n; y++) {
      h += mat[(size_t)x * n + y] + (y != x ? mat[(size_t)y * n + x] : 0);
      if (y != x && mat[(size_t)x * n + y] > 0) plan->node_msgs++;
      if (y != x && mat[(size_t)x * n + y] > biggest) biggest = mat[(size_t)x * n + y];
    }
    h = round_up(h, 64);
    if (x == a) my_half = h;
    if (h > need_max) need_max = h;
  }

  /* Verdict, the same on every rank (all inputs are global). */
  plan->mode = CZI_PLAN_NODE;
  if (biggest > INT_MAX || 2 * need_max > CZI_PLAN_SEGMENT_MAX) {
    plan->mode = CZI_PLAN_DIRECT;
    plan->direct = czi_algorithm_find(CZ_COLL_ALLTOALLV, "mpi", 3);
    CZI_LOG("alltoallv plan: node messages or segment too large; direct");
  } else if (how->direct) {
    plan->mode = CZI_PLAN_DIRECT;
    plan->direct = czi_algorithm_for_procs(how->direct, p);
    plan->direct_param = how->direct_param;
  } else if (!how->force_node && how->choose_direct) {
    czi_choice choice;
    CZI_TRY(czi_select_alltoallv_plan(p, plan->mean_block, &choice));
    if (strcmp(choice.alg->name, "planned") != 0) {
      plan->mode = CZI_PLAN_DIRECT;
      plan->direct = czi_algorithm_for_procs(choice.alg, p);
      plan->direct_param = choice.param;
    } else if (ctx->max_node_size == 1) {
      /* One rank per node: no message is saved, only copies added. */
      plan->mode = CZI_PLAN_DIRECT;
      plan->direct = czi_algorithm_find(CZ_COLL_ALLTOALLV, "mpi", 3);
    }
  }
  plan->id = ctx->next_plan_id++;
  if (plan->mode == CZI_PLAN_DIRECT && strcmp(plan->direct->name, "self") == 0 &&
      plan->st.dense && plan->rt.dense &&
      (size_t)plan->args[0] * plan->st.size ==
          (size_t)plan->args[2] * plan->rt.size) {
    plan->local = 1;
    plan->local_bytes = (size_t)plan->args[0] * plan->st.size;
    plan->local_src = plan->args[1] * plan->st.extent + plan->st.true_lb;
    plan->local_dst = plan->args[3] * plan->rt.extent + plan->rt.true_lb;
  }
  plan->lib = plan->mode == CZI_PLAN_DIRECT && !plan->local &&
              strcmp(plan->direct->name, "mpi") == 0;
  if (plan->mode == CZI_PLAN_DIRECT) {
    czi_algorithm_format(plan->direct, plan->direct_param, plan->name,
                         sizeof plan->name);
    CZI_LOG("alltoallv plan %d: %s (mean block %lld B, %lld rank messages)",
            plan->id, plan->name, plan->mean_block, plan->rank_msgs);
    goto done;
  }
  snprintf(plan->name, sizeof plan->name, "planned");

  /* Layout of my node's half-segment; my pack and unpack blocks in it. */
  const czi_type *st = &plan->st, *rt = &plan->rt;
  int np = 0, nu = 0;
  CZI_MALLOC(plan->pack, sizeof(czi_seg_block) * (size_t)p);
  CZI_MALLOC(plan->unpack, sizeof(czi_seg_block) * (size_t)p);
  CZI_MALLOC(offs, sizeof(MPI_Aint) * 2 * (size_t)n);
  MPI_Aint *sendoff = offs, *recvoff = offs + n;
  MPI_Aint off = 0;
  for (int b = 0; b < n; b++) {
    sendoff[b] = off;
    for (int k = ctx->node_start[b]; k < ctx->node_start[b + 1]; k++) {
      const int d = ctx->node_members[k];
      for (int s = 0; s < l; s++) {
        if (mine[s] == d) continue;
        const long long bytes = rows[(size_t)s * 2 * p + d];
        if (bytes == 0) continue;
        if (s == ctx->node_rank)
          plan->pack[np++] = (czi_seg_block){(MPI_Aint)sdispls[d] * st->extent,
                                         sendcounts[d], off};
        if (d == me)
          plan->unpack[nu++] = (czi_seg_block){(MPI_Aint)rdispls[mine[s]] * rt->extent,
                                           recvcounts[mine[s]], off};
        off += bytes;
      }
    }
  }
  for (int c = 0; c < n; c++) {
    if (c == a) { recvoff[c] = -1; continue; }
    recvoff[c] = off;
    for (int dl = 0; dl < l; dl++)
      for (int k = ctx->node_start[c]; k < ctx->node_start[c + 1]; k++) {
        const int s = ctx->node_members[k];
        const long long bytes = rows[(size_t)dl * 2 * p + p + s];
        if (bytes == 0) continue;
        if (mine[dl] == me)
          plan->unpack[nu++] = (czi_seg_block){(MPI_Aint)rdispls[s] * rt->extent,
                                           recvcounts[s], off};
        off += bytes;
      }
  }
  plan->npack = np;
  plan->nunpack = nu;
  plan->half = my_half;

  /* Who sends and receives each node message. */
  CZI_MALLOC(snd, sizeof(int) * nn);
  CZI_MALLOC(rcv, sizeof(int) * nn);
  CZI_MALLOC(tasks, sizeof(task) * 2 * (size_t)n);
  CZI_MALLOC(load, sizeof(long long) * (size_t)ctx->max_node_size);
  for (int x = 0; x < n; x++) assign_node(ctx, mat, x, tasks, load, snd, rcv);
  CZI_MALLOC(plan->sends, sizeof(czi_msg) * (size_t)n);
  CZI_MALLOC(plan->recvs, sizeof(czi_msg) * (size_t)n);
  for (int b = 0; b < n; b++) {
    if (b == a) continue;
    const long long out_bytes = mat[(size_t)a * n + b], in_bytes = mat[(size_t)b * n + a];
    if (out_bytes > 0 && snd[a * n + b] == ctx->node_rank)
      plan->sends[plan->nsend++] = (czi_msg){
          ctx->node_members[ctx->node_start[b] + rcv[a * n + b]], sendoff[b],
          (int)out_bytes};
    if (in_bytes > 0 && rcv[b * n + a] == ctx->node_rank)
      plan->recvs[plan->nrecv++] = (czi_msg){
          ctx->node_members[ctx->node_start[b] + snd[b * n + a]], recvoff[b],
          (int)in_bytes};
  }
  CZI_MALLOC(plan->reqs, sizeof(MPI_Request) * (size_t)(plan->nsend + plan->nrecv + 1));
  /* Collective over the node: every rank of it reaches this point. */
  CZI_TRY(ensure_segment(ctx, 2 * my_half));
  CZI_LOG("alltoallv plan %d: planned, %d nodes, %lld node messages instead "
          "of %lld, mean block %lld B, half segment %ld B",
          plan->id, n, plan->node_msgs, plan->rank_msgs, plan->mean_block,
          (long)my_half);
done:
  *out = plan;
  plan = NULL;
fn_fail:
  if (plan) czi_plan_destroy(plan);
  free(sb);
  free(got);
  free(rows);
  free(mat);
  free(snd);
  free(rcv);
  free(tasks);
  free(load);
  free(offs);
  return rc;
}

void czi_plan_destroy(cz_alltoallv_plan_t plan) {
  if (!plan) return;
  free(plan->args);
  free(plan->pack);
  free(plan->unpack);
  free(plan->sends);
  free(plan->recvs);
  free(plan->reqs);
  czi_node_ctx_release(plan->ctx);
  free(plan);
}

static char *half_base(const czi_node_ctx *ctx) {
  return czi_at(ctx->seg, (ctx->execs & 1) * (MPI_Aint)(ctx->seg_size / 2));
}

int czi_plan_pack(cz_alltoallv_plan_t plan, const void *sendbuf) {
  int rc = MPI_SUCCESS;
  char *base = half_base(plan->ctx);
  for (int i = 0; i < plan->npack; i++) {
    const czi_seg_block *b = &plan->pack[i];
    CZI_TRY(czi_pack(czi_at(sendbuf, b->buf_off), b->count, &plan->st,
                     czi_at(base, b->seg_off)));
  }
fn_fail:
  return rc;
}

int czi_plan_exchange(cz_alltoallv_plan_t plan, const void *sendbuf,
                      void *recvbuf, int node_barrier_first) {
  int rc = MPI_SUCCESS, nreq = 0;
  czi_node_ctx *ctx = plan->ctx;
  char *base = half_base(ctx);
  const int *a = plan->args, p = plan->p, me = plan->me;
  for (int i = 0; i < plan->nrecv; i++)
    CZI_MPI(PMPI_Irecv(czi_at(base, plan->recvs[i].seg_off), plan->recvs[i].bytes,
                       MPI_BYTE, plan->recvs[i].peer, CZI_TAG_ALLTOALLV_PLAN,
                       ctx->priv, &plan->reqs[nreq++]));
  /* The other ranks' packing must be visible before their data leaves
   * (the cached path's vote was that barrier already). */
  if (node_barrier_first) czi_node_barrier(ctx, 0);
  for (int i = 0; i < plan->nsend; i++)
    CZI_MPI(PMPI_Isend(czi_at(base, plan->sends[i].seg_off), plan->sends[i].bytes,
                       MPI_BYTE, plan->sends[i].peer, CZI_TAG_ALLTOALLV_PLAN,
                       ctx->priv, &plan->reqs[nreq++]));
  /* My own block meanwhile. */
  CZI_TRY(czi_copy_local(czi_at(sendbuf, (MPI_Aint)a[p + me] * plan->st.extent),
                         a[me], &plan->st,
                         czi_at(recvbuf, (MPI_Aint)a[3 * p + me] * plan->rt.extent),
                         a[2 * p + me], &plan->rt));
  CZI_MPI(PMPI_Waitall(nreq, plan->reqs, MPI_STATUSES_IGNORE));
  nreq = 0;
  /* Every message into the node has landed before anyone unpacks. */
  czi_node_barrier(ctx, 0);
  for (int i = 0; i < plan->nunpack; i++) {
    const czi_seg_block *b = &plan->unpack[i];
    CZI_TRY(czi_unpack(czi_at(base, b->seg_off), czi_at(recvbuf, b->buf_off),
                       b->count, &plan->rt));
  }
  ctx->execs++;
  return MPI_SUCCESS;
fn_fail:
  /* Leave no request behind pointing into the segment. */
  for (int i = 0; i < nreq; i++)
    if (plan->reqs[i] != MPI_REQUEST_NULL) {
      PMPI_Cancel(&plan->reqs[i]);
      PMPI_Request_free(&plan->reqs[i]);
    }
  return rc;
}

int czi_plan_execute(cz_alltoallv_plan_t plan, const void *sendbuf,
                     void *recvbuf) {
  int rc = MPI_SUCCESS;
  const int *a = plan->args, p = plan->p;
  if (plan->local && (!plan->local_bytes || (sendbuf && recvbuf))) {
    const char *from = czi_at(sendbuf, plan->local_src);
    char *to = czi_at(recvbuf, plan->local_dst);
    if (plan->local_bytes && from != to) czi_move(to, from, plan->local_bytes);
    return MPI_SUCCESS;
  }
  if (plan->mode == CZI_PLAN_DIRECT) {
    czi_params params = {plan->direct_param, 0};
    return ((czi_alltoallv_fn)plan->direct->fn)(
        sendbuf, a, a + p, plan->sendtype, recvbuf, a + 2 * p, a + 3 * p,
        plan->recvtype, plan->ctx->priv, &params);
  }
  CZI_TRY(czi_plan_pack(plan, sendbuf));
  CZI_TRY(czi_plan_exchange(plan, sendbuf, recvbuf, 1));
fn_fail:
  return rc;
}
