/*
 * hms_int.h -- what the method files of the metastore server share
 * (hms_methods.c, hms_read.c): the call being answered and the reply
 * helpers.  Not used outside src/hms_server/.
 */
#ifndef HL_HMS_INT_H
#define HL_HMS_INT_H

#include "catalog/catalog.h"
#include "hms/hms.h"

/* A reply under construction. */
typedef struct hl_hms_call {
  hl_cat_t *cat;
  hl_arena_t *arena; /* reset per message */
  hl_buf_t *out;
  const char *method;
  int32_t seqid;
  hl_error_t cerr;  /* the catalog's error of the last lookup */
  size_t max_reply; /* hivelite.metastore.max_reply_bytes */
} hl_hms_call_t;

void hl_hms_begin_reply(hl_hms_call_t *c);
/* The whole reply: the declared exception EXC_ID with MESSAGE. */
void hl_hms_reply_exception(hl_hms_call_t *c, int16_t exc_id, const char *message);
/* A catalog failure (c->cerr): NoSuchObjectException NOSUCH_ID when the
 * object is missing (and NOSUCH_ID is not 0), else MetaException META_ID. */
void hl_hms_reply_cat_error(hl_hms_call_t *c, int16_t nosuch_id, int16_t meta_id);
void hl_hms_reply_strlist(hl_hms_call_t *c, char **items, size_t n);
/* list<Partition> of table T's PARTS[0..n) as the return value (WRAP 0)
 * or as field WRAP of a result struct (GetPartitionsByNamesResult: 1), or,
 * when the reply would pass c->max_reply bytes, MetaException META_ID
 * saying so (the reply is never built past the cap).  HL_NOMEM only. */
hl_status_t hl_hms_reply_partitions(hl_hms_call_t *c, const hl_cat_table_t *t,
                                    hl_cat_partition_t *const *parts, size_t n, int16_t meta_id,
                                    int16_t wrap, hl_error_t *err);
/* "@cat#db" to "db" (hms_methods.c). */
const char *hl_hms_strip_catalog(const char *name, int *other_cat);
/* The database named by the client; NULL with c->cerr set (HL_NOTFOUND)
 * when it is missing or of another catalog. */
const char *hl_hms_db_arg(hl_hms_call_t *c, const char *raw);
/* The table DB.TBL; NULL with c->cerr set when missing. */
hl_cat_table_t *hl_hms_get_table(hl_hms_call_t *c, const char *raw_db, const char *tbl);

/* Table T's partitions named in NAMES (escaped path names; names of no
 * partition left out), from the catalog without listing the table
 * (hms_parts.c): *OUT, *N in c->arena; 0, or -1 with c->cerr set. */
int hl_hms_parts_by_name(hl_hms_call_t *c, const hl_cat_table_t *t, const hl_hms_strlist_t *names,
                         hl_cat_partition_t **out, size_t *n);
/* Replaces the entries of SEL[0..*n) that hold names and values only
 * (hl_cat_partition_names with pinned values) by the full records, leaving
 * out partitions dropped meanwhile; 0, or -1 with c->cerr set. */
int hl_hms_parts_complete(hl_hms_call_t *c, const hl_cat_table_t *t, hl_cat_partition_t **sel,
                          size_t *n);

/* The methods of hms_read.c: answers the call C->method when it is one of
 * them (returns 1, *RC set; the arguments are read from D), else 0. */
int hl_hms_read_dispatch(hl_hms_call_t *c, hl_hms_dec_t *d, hl_status_t *rc, hl_error_t *err);

#endif
