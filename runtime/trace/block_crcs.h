/* block_crcs.h: per-block CRC-32s of sends, opt-in with
 * COLLECTIVIZE_TRACE_BLOCK_BYTES=n (block_crcs.c says why). */
#ifndef CZT_BLOCK_CRCS_H
#define CZT_BLOCK_CRCS_H

#include <stdint.h>

struct czt_msg;

/* The block size in bytes; 0 (the default): nothing is recorded. Read on
 * the message path, so it lives with the tracer's hot data. */
extern uint64_t czt_block_bytes;

/* After the trace directory is known: read the variable and open
 * <dir>/rank-N.blocks when it is set. */
void czt_blocks_open(const char *dir);
/* At MPI_Finalize: flush and close. */
void czt_blocks_close(void);
/* A send recorded as the rank's event number `event` (locked by the caller
 * when threaded): its block CRCs when its size is a multiple of n >= 2n. */
void czt_blocks_note(uint64_t event, const struct czt_msg *m);

#endif /* CZT_BLOCK_CRCS_H */
