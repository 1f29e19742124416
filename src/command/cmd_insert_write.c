/*
 * cmd_insert_write.c -- the rows of a write into files: conversion,
 * routing, the format writers, and the memory budget of open files.
 *
 * An input batch is taken in four passes (write_batch): every live row
 * is routed to its target in row order (so partitions are created in the
 * order rows name them), each distinct key of the batch cast and named
 * once; the batch is converted to the table's column types a column at a
 * time by the vector stage's cast (a column whose type already matches is
 * the input's vector itself, not a copy); rows are checked for what the
 * format cannot store; then the live rows are copied, column by column,
 * into the chunk, each noted with its file.  The chunk (up to a quarter of
 * hivelite.write.memory_limit, at most CHUNK_BATCHES batches) is the input
 * clustered by file, as Hive's hive.optimize.sort.dynamic.partition does
 * for a whole input: when full, it is written file by file, in the order
 * of each file's first row, each file's rows in row order, gathered into
 * batches of up to HL_BATCH_CAP rows that point into the chunk.  So every
 * writer call gets many rows of one file while that file's encoder state
 * is in cache, and no target keeps a batch of its own (the memory that
 * grew with the number of partitions).

 * Budget: every file that holds memory (an open writer, or held SORTED BY
 * rows) is listed with its size as its writer reports it.  After each
 * file's share of a chunk is written, while the sum passes the files'
 * part of hivelite.write.memory_limit, the file that holds the most gives
 * memory back: Parquet and ORC write their row group or stripe early,
 * text its buffered rows, and free the buffers; other formats, and a file
 * that holds little beyond its fixed state (or a compressor's), are
 * closed, and the next row for the
 * target opens a new file with the next unique staged name (txn.h), as
 * Hive's writers do when they close idle partitions.  A Parquet or ORC
 * file is also closed (rolled over) once what it keeps for its footer
 * passes its share of the budget (footer_cap), since that part grows with
 * the rows and no early flush gives it back.  Names and bytes
 * depend only on the order of the rows, so the same input gives the same
 * files.  Bucketed files are never closed early (a bucket has exactly one
 * file); their memory still counts against the budget of the others.
 *
 * Files are staged by the write transaction (txn/txn.h) through its
 * deferred-sync file system, and registered with it as they close.
 */
#include "command/cmd_insert_int.h"

#include "exec/query.h"

#include "util/bucket.h"
#include "util/sort.h"
#include "vector/expr.h"

#include <pthread.h>
#include <string.h>

/* ------------------------------------------------------------ budget */

#define WRITE_MEM_MAX (256ULL << 20) /* the default budget's ceiling */

hl_status_t hl_cmd_ins_budget_init(writer_t *w, hl_error_t *err) {
  uint64_t dflt = w->s->budget.limit / 4;
  if (dflt == 0 || dflt > WRITE_MEM_MAX) dflt = WRITE_MEM_MAX;
  w->mem_limit = dflt;
  const char *v = hl_session_get(w->s, "hivelite.write.memory_limit");
  if (v && *v && hl_budget_parse_size(v, &w->mem_limit) != 0)
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "invalid hivelite.write.memory_limit \"%s\": expected a size such as 256MB",
                      v);
  w->threads = hl_exec_scan_threads(w->s, NULL, err);
  if (w->threads == 0) return err->code;
  /* a quarter for the chunk of input rows, the rest for open files */
  w->chunk_limit = w->mem_limit / 4;
  w->mem_limit -= w->chunk_limit;
  return HL_OK;
}

/* The memory F holds: its writer's buffers and its held rows' batch. */
static uint64_t file_mem(const wfile_t *f) {
  uint64_t n = f->buf ? hl_arena_reserved(f->buf->arena) : 0;
  if (f->pw) n += hl_parquet_writer_mem(f->pw);
  if (f->ow) n += hl_orc_writer_mem(f->ow);
  if (f->w) n += hl_text_writer_mem(f->w);
  if (f->sw) n += hl_seqfile_writer_mem(f->sw);
  if (f->rw) n += hl_rcfile_writer_mem(f->rw);
  if (f->aw) n += hl_avro_writer_mem(f->aw);
  return n;
}

/* What F keeps for its file's footer (Parquet's row group metadata and
 * page index, ORC's stripe list and statistics): the one part of an open
 * file that grows with its rows, not with what it buffers. */
static uint64_t file_footer_mem(const wfile_t *f) {
  return f->pw ? hl_parquet_writer_footer_mem(f->pw) : f->ow ? hl_orc_writer_footer_mem(f->ow) : 0;
}

/* The footer memory one open file may keep before it is closed and its
 * target's next rows go to a new file: a quarter of the open files' budget
 * shared by the files open now (at least FOOTER_MIN, about two row groups
 * of a wide table).  Without it, early flushes under a tight budget give
 * a long-lived file ever more small row groups, whose footer pieces crowd
 * out the buffered pages (more and smaller row groups still) and grow the
 * peak with the rows written.  Depends on the rows' order only (which
 * files are open when), so the files are the same at every thread count. */
#define FOOTER_SHARE 4
#define FOOTER_MIN   (4U << 10)
static uint64_t footer_cap(const writer_t *w) {
  uint64_t cap = w->mem_limit / FOOTER_SHARE / (w->n_open ? w->n_open : 1);
  return cap < FOOTER_MIN ? FOOTER_MIN : cap;
}

/* Measures F again and keeps the list of files holding memory current. */
static hl_status_t mem_note(writer_t *w, wfile_t *f, hl_error_t *err) {
  uint64_t now = file_mem(f);
  w->mem_used = w->mem_used - f->mem + now;
  f->mem = now;
  if (now && !f->open_slot) {
    if (w->n_open == w->cap_open) {
      wfile_t **g = hl_cmd_ins_grow(w->arena, w->open, &w->cap_open, sizeof *g, 64);
      if (!g) return hl_err_nomem(err);
      w->open = g;
    }
    w->open[w->n_open++] = f;
    f->open_slot = w->n_open;
  } else if (!now && f->open_slot) {
    /* order is kept, so that which file is closed depends on the rows only */
    size_t at = f->open_slot - 1;
    memmove(&w->open[at], &w->open[at + 1], (w->n_open - at - 1) * sizeof *w->open);
    w->n_open--;
    for (size_t i = at; i < w->n_open; i++)
      w->open[i]->open_slot = i + 1;
    f->open_slot = 0;
  }
  return HL_OK;
}

/* ------------------------------------------------------------ files */

/* The staged name of a new file of F.  Unbucketed: "<qid>_<n>".  Bucketed:
 * "<bucket, 6 digits>_0_<qid>_<n>", Hive's "000001_0" followed by the
 * write's unique name.  Readers take the bucket from the name: Hive's
 * Utilities.getBucketIdFromFile matches ^(0*([0-9]+))_([0-9]+).* and
 * Trino's BackgroundHiveSplitLoader (\d+)_\d+.* (Trino itself writes
 * "<bucket>_0_<query id>"), so both read bucket 1 from "000001_0_<qid>_<n>".
 * The suffix keeps names unique across writes (what Hive's "_copy_N" does
 * for appends, without listing the directory) and across the targets of
 * one write, which share one staging directory (txn.h). */
static char *file_name(writer_t *w, const wtable_t *wt, const wfile_t *f) {
  char *unique = hl_txn_file_name(w->txn, wt->parquet ? ".parquet" : wt->text_ext);
  if (f->bucket < 0 || !unique) return unique;
  return hl_arena_sprintf(w->arena, "%06d_0_%s", f->bucket, unique);
}

static bool file_open_p(const wfile_t *f) {
  return f->w || f->pw || f->sw || f->rw || f->ow || f->aw;
}

static hl_status_t file_open(writer_t *w, wtable_t *wt, wpart_t *p, wfile_t *f, hl_error_t *err) {
  hl_table_t *t = wt->t;
  hl_status_t rc;
  if (w->n_files + 1 > w->max_files)
    return hl_err_set(err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                      "the write creates more than %llu files; raise "
                      "hive.exec.max.created.files to allow it",
                      (unsigned long long)w->max_files);
  w->n_files++;
  f->file_name = file_name(w, wt, f);
  char *path = f->file_name ? hl_path_join(w->arena, p->target->stage_dir, f->file_name) : NULL;
  if (!path) return hl_err_nomem(err);
  hl_stor_t *fs = hl_txn_fs(w->txn); /* syncs are batched into the commit */
  if (wt->parquet)
    rc = hl_parquet_writer_open(fs, path, t->n_data, t->types, t->names, &wt->pq_opts, &f->pw, err);
  else if (wt->seqfile)
    rc = hl_seqfile_writer_open(fs, path, &wt->fmt, t->n_data, t->types, t->names, &wt->seq_opts,
                                NULL, &f->sw, err);
  else if (wt->orc)
    rc = hl_orc_writer_open(fs, path, &wt->orc_opts, t->n_data, t->types, t->names, &f->ow, err);
  else if (wt->avro)
    rc = hl_avro_writer_open(fs, path, wt->av_schema, wt->av_codec, 0, NULL, t->n_data, t->types,
                             (const char *const *)t->names, &f->aw, err);
  else if (wt->rcfile)
    rc = hl_rcfile_writer_open(fs, path, &wt->rc_fmt, t->n_data, t->types, t->names, wt->rc_codec,
                               NULL, 0, &f->rw, err);
  else
    rc = hl_text_writer_open(fs, path, &wt->fmt, t->n_data, t->types, t->names, &f->w, err);
  return rc;
}

/* Writes BATCH (its live rows) to F's open file and counts them. */
static hl_status_t file_write(wpart_t *p, wfile_t *f, hl_batch_t *batch, hl_error_t *err) {
  hl_status_t rc = f->pw   ? hl_parquet_writer_write(f->pw, batch, err)
                   : f->sw ? hl_seqfile_writer_write(f->sw, batch, err)
                   : f->rw ? hl_rcfile_writer_write(f->rw, batch, err)
                   : f->ow ? hl_orc_writer_write(f->ow, batch, err)
                   : f->aw ? hl_avro_writer_write(f->aw, batch, err)
                           : hl_text_writer_write(f->w, batch, err);
  if (rc != HL_OK) return rc;
  uint32_t live = hl_batch_live(batch);
  p->rows += live;
  f->file_rows += live;
  return HL_OK;
}

/* Appends row ROW of SRC to DST (same columns), complex values copied into
 * DST's arena, which outlives SRC. */
static hl_status_t copy_row(const hl_table_t *t, hl_batch_t *dst, const hl_batch_t *src,
                            uint32_t row, hl_error_t *err) {
  for (int c = 0; c < t->n_data; c++) {
    hl_value_t v, deep;
    hl_vec_get_value(&src->cols[c], row, &v);
    if (!v.is_null && hl_type_is_complex(t->types[c])) {
      if (hl_value_copy_deep(dst->arena, t->types[c], &v, &deep) != HL_OK) return hl_err_nomem(err);
      v = deep;
    }
    if (hl_vec_put_value(&dst->cols[c], dst->arena, dst->n_rows, &v) != HL_OK)
      return hl_err_nomem(err);
  }
  dst->n_rows++;
  return HL_OK;
}

/* SORTED BY: orders the rows held in F (stable sort of row references)
 * and writes them.  Hive sorts a bucket file's rows by the
 * sort columns, NULL first when ascending and last when descending. */
typedef struct sort_ctx {
  const wtable_t *wt;
  hl_batch_t **held;
} sort_ctx_t;

/* A held row is referred to as batch * HL_BATCH_CAP + row. */
static int row_cmp(const void *ctx, size_t ra, size_t rb) {
  const sort_ctx_t *c = ctx;
  const hl_batch_t *ba = c->held[ra / HL_BATCH_CAP], *bb = c->held[rb / HL_BATCH_CAP];
  for (int k = 0; k < c->wt->n_sort; k++) {
    int col = c->wt->sort_idx[k];
    hl_value_t va, vb;
    hl_vec_get_value(&ba->cols[col], (uint32_t)(ra % HL_BATCH_CAP), &va);
    hl_vec_get_value(&bb->cols[col], (uint32_t)(rb % HL_BATCH_CAP), &vb);
    int r;
    if (va.is_null || vb.is_null)
      r = va.is_null == vb.is_null ? 0 : va.is_null ? -1 : 1;
    else
      r = hl_value_compare(c->wt->t->types[col], &va, &vb);
    if (!c->wt->sort_asc[k]) r = -r;
    if (r) return r;
  }
  return 0;
}

static hl_status_t write_sorted(writer_t *w, wtable_t *wt, wpart_t *p, wfile_t *f,
                                hl_error_t *err) {
  hl_table_t *t = wt->t;
  size_t n = 0;
  for (size_t i = 0; i < f->n_held; i++)
    n += f->held[i]->n_rows;
  if (n == 0) return HL_OK;
  size_t *refs = hl_malloc(n * sizeof *refs), *tmp = hl_malloc(n * sizeof *tmp);
  hl_batch_t *out = hl_batch_create(t->n_data, t->types);
  hl_status_t rc = refs && tmp && out && hl_batch_reset(out) == HL_OK ? HL_OK : hl_err_nomem(err);
  size_t k = 0;
  for (size_t i = 0; rc == HL_OK && i < f->n_held; i++)
    for (uint32_t r = 0; r < f->held[i]->n_rows; r++)
      refs[k++] = i * HL_BATCH_CAP + r;
  if (rc == HL_OK) {
    sort_ctx_t ctx = {wt, f->held};
    hl_sort_indexes(refs, tmp, n, row_cmp, &ctx);
    rc = file_open(w, wt, p, f, err);
  }
  for (size_t i = 0; rc == HL_OK && i < n; i++) {
    const hl_batch_t *src = f->held[refs[i] / HL_BATCH_CAP];
    rc = copy_row(t, out, src, (uint32_t)(refs[i] % HL_BATCH_CAP), err);
    if (rc == HL_OK && out->n_rows == HL_BATCH_CAP) {
      rc = file_write(p, f, out, err);
      if (rc == HL_OK && hl_batch_reset(out) != HL_OK) rc = hl_err_nomem(err);
    }
  }
  if (rc == HL_OK && out->n_rows > 0) rc = file_write(p, f, out, err);
  hl_batch_destroy(out);
  hl_free(refs);
  hl_free(tmp);
  for (size_t i = 0; i < f->n_held; i++)
    hl_batch_destroy(f->held[i]);
  f->n_held = 0;
  hl_budget_release(&w->s->budget, f->held_bytes);
  w->held_bytes -= f->held_bytes;
  f->held_bytes = 0;
  return rc;
}

static hl_status_t file_close(writer_t *w, wtable_t *wt, wpart_t *p, wfile_t *f, hl_error_t *err) {
  hl_status_t rc;
  if (f->n_held > 0 && (rc = write_sorted(w, wt, p, f, err)) != HL_OK) return rc;
  if (!file_open_p(f)) return mem_note(w, f, err);
  uint64_t raw;
  if (f->sw) { /* raw bytes count like text: row bytes plus one per row */
    raw = hl_seqfile_writer_raw_bytes(f->sw);
    rc = hl_seqfile_writer_close(f->sw, err);
    f->sw = NULL;
  } else if (f->rw) {
    raw = hl_rcfile_writer_raw_bytes(f->rw);
    rc = hl_rcfile_writer_close(f->rw, err);
    f->rw = NULL;
  } else if (f->aw) { /* counted like text: record bytes plus one per row */
    raw = hl_avro_writer_raw_bytes(f->aw);
    rc = hl_avro_writer_close(f->aw, err);
    f->aw = NULL;
  } else if (f->ow) { /* what Hive's ORC writer reports, plus one per row (taken off below) */
    raw = hl_orc_writer_raw_bytes(f->ow) + f->file_rows;
    rc = hl_orc_writer_close(f->ow, err);
    f->ow = NULL;
  } else if (f->pw) {
    /* Hive's Parquet writer reports one unit of rawDataSize per field */
    raw = f->file_rows * (uint64_t)wt->t->n_data + f->file_rows;
    rc = hl_parquet_writer_close(f->pw, NULL, NULL, err);
    f->pw = NULL;
  } else {
    raw = hl_text_writer_raw_bytes(f->w);
    rc = hl_text_writer_close(f->w, err);
    f->w = NULL;
  }
  if (rc == HL_OK) rc = mem_note(w, f, err);
  if (rc != HL_OK) return rc;
  char *path = hl_path_join(w->arena, p->target->stage_dir, f->file_name);
  if (!path) return hl_err_nomem(err);
  hl_stor_stat_t st;
  rc = w->s->fs->ops->stat(w->s->fs, path, &st, err);
  if (rc != HL_OK) return rc;
  p->files++;
  p->total_bytes += st.size;
  /* Hive's rawDataSize for text: the bytes without the line terminators */
  p->raw_bytes += raw >= f->file_rows ? raw - f->file_rows : 0;
  f->file_rows = 0;
  hl_txn_fault_point("file");
  return hl_txn_target_add_file(w->txn, p->target, f->file_name, err);
}

/* SORTED BY: keeps F's full batch of rows (charged to the statement's
 * budget) until the file is written sorted at close. */
static hl_status_t hold(writer_t *w, wtable_t *wt, wfile_t *f, hl_error_t *err) {
  if (!f->buf || f->buf->n_rows == 0) return HL_OK;
  hl_table_t *t = wt->t;
  if (f->n_held == f->cap_held) {
    hl_batch_t **g = hl_cmd_ins_grow(w->arena, f->held, &f->cap_held, sizeof *g, 8);
    if (!g) return hl_err_nomem(err);
    f->held = g;
  }
  uint64_t nb = hl_arena_used(f->buf->arena);
  f->held[f->n_held++] = f->buf;
  f->buf = NULL; /* owned by held now */
  f->held_bytes += nb;
  w->held_bytes += nb;
  hl_status_t rc = hl_budget_charge(&w->s->budget, nb, "SORTED BY", err); /* counted when over */
  if (rc != HL_OK) return rc;
  f->buf = hl_batch_create(t->n_data, t->types);
  if (!f->buf || hl_batch_reset(f->buf) != HL_OK) return hl_err_nomem(err);
  return HL_OK;
}

/* After a write to F: rolls the file over at hivelite.write.file.size
 * (text by bytes written; Parquet and ORC, whose size is known only at
 * close, by rows, counting 64 bytes a row) or once its footer pieces pass
 * footer_cap, and measures it again.  Hive
 * writes one file per bucket, so a bucket's file never rolls over (a
 * second file would need a second name for the same bucket). */
static hl_status_t after_write(writer_t *w, wtable_t *wt, wpart_t *p, wfile_t *f, hl_error_t *err) {
  if (wt->n_buckets == 0 && file_open_p(f)) {
    uint64_t written = f->w    ? hl_text_writer_raw_bytes(f->w)
                       : f->sw ? hl_seqfile_writer_raw_bytes(f->sw)
                       : f->rw ? hl_rcfile_writer_raw_bytes(f->rw)
                       : f->aw ? hl_avro_writer_file_bytes(f->aw)
                               : f->file_rows * 64;
    if (written >= w->file_size || file_footer_mem(f) > footer_cap(w))
      return file_close(w, wt, p, f, err);
  }
  return mem_note(w, f, err);
}

/* Until the open files fit the budget, takes back the memory of the file
 * that holds the most: a Parquet or ORC file writes its row group or
 * stripe early, a text file its buffered rows, and frees its buffers (the
 * file stays open: one file per target while the budget allows); any
 * other file, or one that an early flush would not halve (a compressor's
 * state, a writer's fixed part), is closed. */
static hl_status_t mem_enforce(writer_t *w, hl_error_t *err) {
  uint64_t held = w->mem_used;
  while (w->mem_used > w->mem_limit) {
    wfile_t *big = NULL;
    for (size_t i = 0; i < w->n_open; i++) {
      wfile_t *f = w->open[i];
      if (f->bucket < 0 && (!big || f->mem > big->mem)) big = f;
    }
    if (!big) return HL_OK;
    uint64_t before = big->mem;
    hl_status_t rc = HL_OK;
    if (big->pw || big->ow || big->w) {
      rc = big->pw   ? hl_parquet_writer_flush(big->pw, err)
           : big->ow ? hl_orc_writer_flush(big->ow, err)
                     : hl_text_writer_flush(big->w, err);
      if (rc == HL_OK) rc = mem_note(w, big, err);
      if (rc != HL_OK) return rc;
      /* the early row group stays in an open file unless its footer
       * pieces have passed their share (footer_cap): then it rolls over */
      if (big->mem <= before / 2 && file_footer_mem(big) <= footer_cap(w)) continue;
    }
    rc = file_close(w, big->part->table, big->part, big, err);
    if (rc != HL_OK) return rc;
  }
  if (held > w->mem_used) w->freed += held - w->mem_used;
  return HL_OK;
}

/* After a chunk: once the budget has taken back an eighth of it, the
 * heaps' free pages go back to the system.  The pages of a file were
 * allocated by whichever encoder thread wrote it, and glibc keeps what is
 * freed in that thread's arena, returning only a heap's top; so without
 * this each arena keeps its own high-water mark of pages long since
 * flushed, and the peak grows with the rows and the threads. */
static void mem_release(writer_t *w) {
  if (w->freed < w->mem_limit / 8) return;
  w->freed = 0;
  hl_mem_release();
}

hl_status_t hl_cmd_ins_part_close(writer_t *w, wtable_t *wt, wpart_t *p, hl_error_t *err) {
  hl_status_t rc = HL_OK;
  for (size_t b = 0; rc == HL_OK && b < p->n_outs; b++) {
    wfile_t *f = p->outs[b];
    if (wt->n_sort > 0) rc = hold(w, wt, f, err);
    if (rc == HL_OK) rc = file_close(w, wt, p, f, err);
    hl_batch_destroy(f->buf);
    f->buf = NULL;
    if (rc == HL_OK) rc = mem_note(w, f, err);
  }
  return rc;
}

void hl_cmd_ins_table_fini(wtable_t *wt) {
  hl_batch_destroy(wt->conv);
  wt->conv = NULL;
}

/* ------------------------------------------------------------ rows */

/* The error for column COL of the current row, whose value FLAW keeps from
 * reading back as written. */
static hl_status_t unwritable(writer_t *w, const wtable_t *wt, int col, const hl_text_flaw_t *flaw,
                              hl_error_t *err) {
  const hl_table_t *t = wt->t;
  hl_buf_t what;
  hl_buf_init(&what);
  hl_text_flaw_describe(&what, flaw);
  hl_status_t rc;
  if (flaw->string)
    rc = hl_err_set(err, HL_ERROR, HL_SS(UNTRANSLATABLE_CHARACTER),
                    "row %llu: the value of column \"%s\" holds %s, which table \"%s.%s\" cannot "
                    "store without an escape character (it would not read back as written); "
                    "declare one with ESCAPED BY, or set hivelite.text.write.unescaped=true to "
                    "write it unescaped as Hive does",
                    (unsigned long long)w->row_no, t->names[col],
                    what.oom ? "?" : hl_buf_cstr(&what), HL_TNAME(t));
  else
    rc = hl_err_set(err, HL_ERROR, HL_SS(UNTRANSLATABLE_CHARACTER),
                    "row %llu: the text of the value of column \"%s\" holds %s, which table "
                    "\"%s.%s\" cannot store (it would not read back as written); set "
                    "hivelite.text.write.unescaped=true to write it as Hive does",
                    (unsigned long long)w->row_no, t->names[col],
                    what.oom ? "?" : hl_buf_cstr(&what), HL_TNAME(t));
  hl_buf_fini(&what);
  return rc;
}

/* The target of input row ROW: its static and dynamic key values (cast to
 * the key types, formatted, canonical), found or opened. */
static hl_status_t row_part(writer_t *w, wtable_t *wt, const hl_batch_t *in,
                            const hl_type_t *const *in_types, uint32_t row, wpart_t **out,
                            size_t *index, hl_error_t *err) {
  hl_table_t *t = wt->t;
  hl_status_t rc;
  char **values = hl_arena_alloc(w->scratch, sizeof(char *) * (size_t)t->n_part);
  if (!values) return hl_err_nomem(err);
  for (int k = 0; k < t->n_part; k++) {
    values[k] = wt->static_vals[k];
    if (k < t->n_part - wt->n_dyn) continue;
    int src = wt->slot_src[t->n_data + k];
    values[k] = NULL;
    if (src < 0) continue;
    hl_value_t v, kv;
    hl_vec_get_value(&in->cols[src], row, &v);
    if (v.is_null) continue;
    const hl_type_t *kt = t->types[t->n_data + k];
    rc = hl_value_cast(in_types[src], &v, kt, &kv, w->scratch, err);
    if (rc != HL_OK) return rc;
    if (kv.is_null) continue;
    hl_buf_t b;
    hl_buf_init(&b);
    hl_value_format(&b, kt, &kv);
    if (b.oom) {
      hl_buf_fini(&b);
      return hl_err_nomem(err);
    }
    /* the value names a directory: a NUL would cut it short (x\0evil
     * would land in partition x), so it is refused as a static value is */
    if (memchr(hl_buf_cstr(&b), '\0', b.len)) {
      hl_buf_fini(&b);
      return hl_err_set(err, HL_ERROR, HL_SS(INVALID_TEXT_REPRESENTATION),
                        "row %llu: partition value of \"%s\" must not contain a NUL byte",
                        (unsigned long long)w->row_no, t->cat->part_keys[k].name);
    }
    /* '' and the default partition name itself both mean the default partition */
    rc = hl_cmd_part_value_canon(w->s, t, k, hl_buf_cstr(&b), w->scratch, &values[k], err);
    hl_buf_fini(&b);
    if (rc != HL_OK) return rc;
  }
  return hl_cmd_ins_part_find(w, wt, values, out, index, err);
}

/* The per-batch table of distinct dynamic keys (a power of two, twice a
 * batch, so that probes stay short). */
#define ROUTE_SLOTS (2 * HL_BATCH_CAP)

/* Folds the raw value of ROW of V (NULL apart) into the key hash H. */
static uint64_t key_hash(const hl_vec_t *v, uint32_t row, uint64_t h) {
  hl_value_t x;
  hl_vec_get_value(v, row, &x);
  uint64_t k = 0x9e3779b97f4a7c15ULL; /* NULL */
  if (!x.is_null) switch (hl_type_phys(v->type)) {
    case HL_P_BOOL:
      k = x.u.b;
      break;
    case HL_P_I64:
      k = (uint64_t)x.u.i;
      break;
    case HL_P_F64:
      memcpy(&k, &x.u.d, sizeof k);
      break;
    case HL_P_I128:
      k = (uint64_t)x.u.dec ^ hl_hash_mix64((uint64_t)((unsigned __int128)x.u.dec >> 64));
      break;
    default:
      k = x.u.s.len ? hl_hash_bytes(x.u.s.ptr, x.u.s.len) : 0x51afd7ed558ccdULL;
    }
  return hl_hash_mix64(h ^ k) + 1;
}

/* Whether rows RA and RB of V hold the same raw value (both NULL, or the
 * same bits: equal input gives an equal cast, text and target). */
static bool key_same(const hl_vec_t *v, uint32_t ra, uint32_t rb) {
  hl_value_t x, y;
  hl_vec_get_value(v, ra, &x);
  hl_vec_get_value(v, rb, &y);
  if (x.is_null || y.is_null) return x.is_null == y.is_null;
  switch (hl_type_phys(v->type)) {
  case HL_P_BOOL:
    return x.u.b == y.u.b;
  case HL_P_I64:
    return x.u.i == y.u.i;
  case HL_P_F64:
    return memcmp(&x.u.d, &y.u.d, sizeof x.u.d) == 0;
  case HL_P_I128:
    return x.u.dec == y.u.dec;
  default:
    return x.u.s.len == y.u.s.len && (!x.u.s.len || !memcmp(x.u.s.ptr, y.u.s.ptr, x.u.s.len));
  }
}

/* Pass 1: the target of every live row of IN, into w->row_part.  Rows
 * whose dynamic key values are the same raw values share a target: each
 * distinct key of the batch is cast, formatted and named once (row_part),
 * at its first row, so partitions are still created, and errors still
 * raised, in the order rows name them. */
static hl_status_t route_rows(writer_t *w, wtable_t *wt, const hl_batch_t *in,
                              const hl_type_t *const *in_types, uint64_t base, uint32_t live,
                              hl_error_t *err) {
  hl_table_t *t = wt->t;
  if (wt->n_dyn == 0 && wt->only) {
    for (uint32_t i = 0; i < live; i++)
      w->row_part[i] = wt->only;
    return HL_OK;
  }
  /* One dynamic key fed by an integer or date: its targets are remembered
   * across batches by the input value, so a row costs one lookup (the
   * common day-partitioned load). */
  int src = wt->n_dyn == 1 ? wt->slot_src[t->n_data + t->n_part - 1] : -1;
  bool by_int = src >= 0 && hl_type_phys(in_types[src]) == HL_P_I64;
  const hl_vec_t *key = by_int ? &in->cols[src] : NULL;
  /* else the batch's distinct keys, when every key is of a primitive type */
  bool dedup = !by_int;
  int n_keys = 0;
  const hl_vec_t **keys =
      dedup ? hl_arena_alloc(w->scratch, sizeof *keys * (size_t)(wt->n_dyn ? wt->n_dyn : 1)) : NULL;
  if (dedup && !keys) return hl_err_nomem(err);
  for (int k = t->n_part - wt->n_dyn; dedup && k < t->n_part; k++) {
    int s = wt->slot_src[t->n_data + k];
    if (s < 0) continue; /* NULL for every row */
    if (hl_type_phys(in_types[s]) == HL_P_VALUE)
      dedup = false;
    else
      keys[n_keys++] = &in->cols[s];
  }
  if (dedup && !w->route_slot &&
      !(w->route_slot = hl_arena_alloc(w->arena, ROUTE_SLOTS * sizeof *w->route_slot)))
    return hl_err_nomem(err);
  if (dedup) memset(w->route_slot, 0, ROUTE_SLOTS * sizeof *w->route_slot);
  for (uint32_t i = 0; i < live; i++) {
    uint32_t row = hl_batch_row(in, i);
    w->row_no = base + i + 1;
    uint32_t *slot = NULL; /* the free slot for this row's new key */
    if (dedup) {
      uint64_t h = 0;
      for (int k = 0; k < n_keys; k++)
        h = key_hash(keys[k], row, h);
      uint32_t at = (uint32_t)h & (ROUTE_SLOTS - 1), j;
      while ((j = w->route_slot[at]) != 0) {
        uint32_t other = hl_batch_row(in, j - 1);
        bool same = true;
        for (int k = 0; same && k < n_keys; k++)
          same = key_same(keys[k], row, other);
        if (same) break;
        at = (at + 1) & (ROUTE_SLOTS - 1);
      }
      if (j) {
        w->row_part[i] = w->row_part[j - 1];
        continue;
      }
      slot = &w->route_slot[at];
    }
    bool cacheable = by_int && !hl_vec_is_null(key, row);
    int64_t raw = cacheable ? HL_VEC_I64(key)[row] : 0;
    uint32_t hit = cacheable ? hl_imap_get(&wt->dyn_cache, raw) : 0;
    if (hit) {
      w->row_part[i] = wt->parts[hit - 1];
      continue;
    }
    size_t index;
    hl_status_t rc = row_part(w, wt, in, in_types, row, &w->row_part[i], &index, err);
    if (rc != HL_OK) return rc;
    if (slot) *slot = i + 1;
    uint32_t found;
    if (cacheable && hl_imap_upsert(&wt->dyn_cache, raw, (uint32_t)index + 1, &found) < 0)
      return hl_err_nomem(err);
  }
  return HL_OK;
}

/* The error of strict conversion for value V (of FROM) of the current row,
 * which did not convert to TO for column COL. */
static hl_status_t unconvertible(writer_t *w, const hl_type_t *from, const hl_value_t *v,
                                 const hl_type_t *to, const char *col, hl_error_t *err) {
  hl_buf_t b;
  hl_buf_init(&b);
  hl_value_format(&b, from, v);
  char *ty = hl_type_to_string(w->scratch, to);
  hl_status_t rc =
      hl_err_set(err, HL_ERROR, HL_SS(INVALID_TEXT_REPRESENTATION),
                 "row %llu: value \"%s\" cannot be converted to %s for column \"%s\"",
                 (unsigned long long)w->row_no, b.oom ? "?" : hl_buf_cstr(&b), ty ? ty : "?", col);
  hl_buf_fini(&b);
  return rc;
}

/* Pass 2: IN's data columns in the table's types, into wt->conv (indexed
 * by IN's physical rows).  A column of the right type is IN's own vector;
 * one of primitive types is converted a column at a time by the vector
 * stage's cast (hl_vec_cast, whose only errors are out of memory), and in
 * strict mode its first row that became NULL is the error -- the row a
 * row-by-row conversion stops at, columns in order.  Complex columns go
 * row by row: a union's conversion can fail at a row, and the first
 * failure in row order (strict or not) is the one to report. */
static hl_status_t convert_batch(writer_t *w, wtable_t *wt, const hl_batch_t *in,
                                 const hl_type_t *const *in_types, uint64_t base, uint32_t live,
                                 hl_error_t *err) {
  hl_table_t *t = wt->t;
  if (!wt->conv && !(wt->conv = hl_batch_create(t->n_data, t->types))) return hl_err_nomem(err);
  hl_batch_t *conv = wt->conv;
  if (hl_batch_reset(conv) != HL_OK) return hl_err_nomem(err);
  conv->n_rows = in->n_rows;
  for (int c = 0; c < t->n_data; c++) {
    int src = wt->slot_src[c];
    hl_vec_t *out = &conv->cols[c];
    if (src < 0) {
      if (hl_vec_set_all_null(out, conv->arena) != HL_OK) return hl_err_nomem(err);
      continue;
    }
    if (hl_type_equal(in_types[src], t->types[c])) {
      *out = in->cols[src];
      out->type = t->types[c];
      continue;
    }
    hl_vec_t a = in->cols[src];
    a.type = in_types[src];
    if (!hl_type_is_complex(a.type) && !hl_type_is_complex(t->types[c])) {
      hl_status_t rc = hl_vec_cast(t->types[c], in, &a, out, conv->arena, err);
      if (rc != HL_OK) return rc;
      for (uint32_t i = 0; w->strict && i < live; i++) {
        uint32_t row = hl_batch_row(in, i);
        if (!hl_vec_is_null(out, row) || hl_vec_is_null(&a, row)) continue;
        hl_value_t v;
        hl_vec_get_value(&a, row, &v);
        w->row_no = base + i + 1;
        return unconvertible(w, a.type, &v, t->types[c], t->names[c], err);
      }
      continue;
    }
    for (uint32_t i = 0; i < live; i++) {
      uint32_t row = hl_batch_row(in, i);
      hl_value_t v, cv;
      w->row_no = base + i + 1;
      hl_vec_get_value(&a, row, &v);
      hl_status_t rc = hl_value_cast(a.type, &v, t->types[c], &cv, w->scratch, err);
      if (rc != HL_OK) return rc;
      if (cv.is_null && !v.is_null && w->strict)
        return unconvertible(w, a.type, &v, t->types[c], t->names[c], err);
      if (hl_vec_put_value(out, conv->arena, row, &cv) != HL_OK) return hl_err_nomem(err);
    }
  }
  return HL_OK;
}

/* Pass 3: what the format cannot store, column by column. */
static hl_status_t check_batch(writer_t *w, wtable_t *wt, const hl_batch_t *in, uint64_t base,
                               uint32_t live, hl_error_t *err) {
  hl_table_t *t = wt->t;
  const hl_batch_t *conv = wt->conv;
  if (!wt->guard.active && !wt->orc) return HL_OK;
  /* the first row with a flaw in any column, as a row-by-row check finds it */
  for (uint32_t i = 0; i < live; i++) {
    uint32_t row = hl_batch_row(in, i);
    w->row_no = base + i + 1;
    for (int c = 0; c < t->n_data; c++) {
      hl_value_t v;
      hl_vec_get_value(&conv->cols[c], row, &v);
      if (wt->guard.active) {
        hl_text_flaw_t flaw;
        bool ok = hl_text_guard_check(&wt->guard, t->types[c], &v, &w->guard_buf, &flaw);
        if (w->guard_buf.oom) return hl_err_nomem(err);
        if (!ok) return unwritable(w, wt, c, &flaw, err);
      }
      const hl_value_t *bad = wt->orc ? hl_orc_unstorable(t->types[c], &v) : NULL;
      if (!bad) continue;
      hl_buf_t b;
      hl_buf_init(&b);
      hl_format_timestamp(&b, bad->u.i);
      hl_status_t rc =
          hl_err_set(err, HL_ERROR, HL_SS(DATETIME_FIELD_OVERFLOW),
                     "row %llu: the value of column \"%s\" holds TIMESTAMP '%s', which ORC cannot "
                     "store: a time from 1969-12-31 23:59:59.001 to 23:59:59.999999 reads back "
                     "one second late in every ORC reader",
                     (unsigned long long)w->row_no, t->names[c], b.oom ? "?" : hl_buf_cstr(&b));
      hl_buf_fini(&b);
      return rc;
    }
  }
  return HL_OK;
}

/* ------------------------------------------------------------ chunk */

#define CHUNK_BATCHES        512 /* at most this many input batches in a chunk */
#define HL_WRITE_MAX_THREADS 64  /* hivelite.threads' own maximum */
#define REF_SHIFT            11  /* a chunk row is batch << REF_SHIFT | row */

/* Copies, column by column, the rows REFS[0..n) of the batches BATCHES
 * (each ref batch << REF_SHIFT | row) into rows [0, n) of DST.  OWN (DST
 * just reset): string bytes and complex values copied into DST's arena;
 * else DST points at the sources' own, which must outlive it, and
 * VALID (HL_BATCH_CAP bits per column) holds its validity, so that a
 * gather allocates nothing and needs no reset (every row is written). */
static hl_status_t gather_rows(hl_batch_t *dst, uint64_t *valid, hl_batch_t *const *batches,
                               const uint32_t *refs, uint32_t n, bool own, hl_error_t *err) {
  const uint32_t mask = (1u << REF_SHIFT) - 1;
  for (int c = 0; c < dst->n_cols; c++) {
    hl_vec_t *d = &dst->cols[c];
    const hl_type_t *ty = d->type;
    switch (hl_type_phys(ty)) {
    case HL_P_BOOL:
      for (uint32_t i = 0; i < n; i++)
        HL_VEC_BOOL(d)[i] = HL_VEC_BOOL(&batches[refs[i] >> REF_SHIFT]->cols[c])[refs[i] & mask];
      break;
    case HL_P_I64:
      for (uint32_t i = 0; i < n; i++)
        HL_VEC_I64(d)[i] = HL_VEC_I64(&batches[refs[i] >> REF_SHIFT]->cols[c])[refs[i] & mask];
      break;
    case HL_P_F64:
      for (uint32_t i = 0; i < n; i++)
        HL_VEC_F64(d)[i] = HL_VEC_F64(&batches[refs[i] >> REF_SHIFT]->cols[c])[refs[i] & mask];
      break;
    case HL_P_I128:
      for (uint32_t i = 0; i < n; i++)
        HL_VEC_I128(d)[i] = HL_VEC_I128(&batches[refs[i] >> REF_SHIFT]->cols[c])[refs[i] & mask];
      break;
    case HL_P_STR:
      for (uint32_t i = 0; i < n; i++) {
        const hl_vec_t *sv = &batches[refs[i] >> REF_SHIFT]->cols[c];
        hl_str_t str = HL_VEC_STR(sv)[refs[i] & mask];
        if (own && str.len && !hl_vec_is_null(sv, refs[i] & mask)) {
          char *copy = hl_arena_alloc(dst->arena, str.len);
          if (!copy) return hl_err_nomem(err);
          memcpy(copy, str.ptr, str.len);
          str.ptr = copy;
        }
        HL_VEC_STR(d)[i] = str;
      }
      break;
    case HL_P_VALUE:
      for (uint32_t i = 0; i < n; i++) {
        const hl_vec_t *sv = &batches[refs[i] >> REF_SHIFT]->cols[c];
        hl_value_t *v = HL_VEC_VALUE(sv)[refs[i] & mask];
        if (own && v && !hl_vec_is_null(sv, refs[i] & mask)) {
          hl_value_t *copy = hl_arena_alloc(dst->arena, sizeof *copy);
          if (!copy || hl_value_copy_deep(dst->arena, ty, v, copy) != HL_OK)
            return hl_err_nomem(err);
          v = copy;
        }
        HL_VEC_VALUE(d)[i] = v;
      }
      break;
    }
    if (!own) {
      d->validity = NULL;
      for (uint32_t i = 0; i < n; i++) {
        if (!hl_vec_is_null(&batches[refs[i] >> REF_SHIFT]->cols[c], refs[i] & mask)) continue;
        if (!d->validity) {
          d->validity = valid + (size_t)c * (HL_BATCH_CAP / 64);
          memset(d->validity, 0xff, HL_BATCH_CAP / 8);
        }
        d->validity[i >> 6] &= ~((uint64_t)1 << (i & 63));
      }
      continue;
    }
    for (uint32_t i = 0; i < n; i++)
      if (hl_vec_is_null(&batches[refs[i] >> REF_SHIFT]->cols[c], refs[i] & mask) &&
          hl_vec_set_null(d, dst->arena, i) != HL_OK)
        return hl_err_nomem(err);
  }
  dst->n_rows = n;
  dst->sel = NULL;
  return HL_OK;
}

static void gather_fini(gather_t *g) {
  hl_batch_destroy(g->b);
  hl_free(g->valid);
  g->b = NULL;
  g->valid = NULL;
}

/* A batch for gather_rows without OWN, and its validity bits. */
static hl_status_t gather_init(gather_t *g, const hl_table_t *t, hl_error_t *err) {
  if (g->b) return HL_OK;
  g->b = hl_batch_create(t->n_data, t->types);
  g->valid = hl_malloc((size_t)(t->n_data > 0 ? t->n_data : 1) * (HL_BATCH_CAP / 8));
  if (g->b && g->valid) return HL_OK;
  gather_fini(g);
  return hl_err_nomem(err);
}

void hl_cmd_ins_chunk_fini(writer_t *w) {
  for (size_t i = 0; i < w->cap_chunk; i++)
    hl_batch_destroy(w->chunk[i]);
  hl_free(w->chunk);
  hl_free(w->chunk_file);
  hl_free(w->chunk_ref);
  hl_free(w->refs);
  hl_free(w->touched);
  w->chunk = NULL;
  w->chunk_file = w->touched = NULL;
  w->chunk_ref = w->refs = NULL;
  w->room = 0;
  w->cap_chunk = w->n_chunk = 0;
  w->chunk_rows = w->n_touched = 0;
  gather_fini(&w->gather);
}

static uint64_t chunk_bytes(const writer_t *w) {
  uint64_t n = 0;
  for (size_t i = 0; i < w->n_chunk; i++)
    n += hl_arena_reserved(w->chunk[i]->arena);
  return n;
}

/* The writer call of F for BATCH (F's file open); counts the rows in F
 * only, so that workers of one chunk share nothing but the chunk. */
static hl_status_t file_put(wfile_t *f, hl_batch_t *batch, hl_error_t *err) {
  hl_status_t rc = f->pw   ? hl_parquet_writer_write(f->pw, batch, err)
                   : f->sw ? hl_seqfile_writer_write(f->sw, batch, err)
                   : f->rw ? hl_rcfile_writer_write(f->rw, batch, err)
                   : f->ow ? hl_orc_writer_write(f->ow, batch, err)
                   : f->aw ? hl_avro_writer_write(f->aw, batch, err)
                           : hl_text_writer_write(f->w, batch, err);
  if (rc == HL_OK) f->file_rows += hl_batch_live(batch);
  return rc;
}

/* One worker's share of a chunk: files touched[from, to). */
typedef struct encoder {
  writer_t *w;
  const hl_table_t *t;
  uint32_t from, to;
  uint32_t failed_at; /* the file whose write failed (to: none) */
  gather_t gather;    /* owned: rows of one file at a time */
  hl_status_t rc;
  hl_error_t err;
  pthread_t thread;
  bool started;
} encoder_t;

/* Encodes every file of E's share: each file's rows, in row order, in
 * batches gathered from the chunk. */
static void encode_files(encoder_t *e) {
  writer_t *w = e->w;
  e->failed_at = e->to;
  if ((e->rc = gather_init(&e->gather, e->t, &e->err)) != HL_OK) {
    e->failed_at = e->from;
    return;
  }
  for (uint32_t j = e->from; j < e->to; j++) {
    wfile_t *f = w->touched[j];
    for (uint32_t done = 0; done < f->n_sel;) {
      uint32_t n = f->n_sel - done < HL_BATCH_CAP ? f->n_sel - done : HL_BATCH_CAP;
      e->rc = gather_rows(e->gather.b, e->gather.valid, w->chunk, &w->refs[f->off + done], n, false,
                          &e->err);
      if (e->rc == HL_OK) e->rc = file_put(f, e->gather.b, &e->err);
      if (e->rc != HL_OK) {
        e->failed_at = j;
        return;
      }
      done += n;
    }
  }
}

static void *encoder_main(void *arg) {
  encode_files(arg);
  return NULL;
}

/* SORTED BY: F's rows of the chunk copied into its held batches. */
static hl_status_t hold_file_rows(writer_t *w, wtable_t *wt, wfile_t *f, hl_error_t *err) {
  hl_table_t *t = wt->t;
  hl_status_t rc = gather_init(&w->gather, t, err);
  if (rc != HL_OK) return rc;
  for (uint32_t done = 0; done < f->n_sel;) {
    uint32_t n = f->n_sel - done < HL_BATCH_CAP ? f->n_sel - done : HL_BATCH_CAP;
    rc =
        gather_rows(w->gather.b, w->gather.valid, w->chunk, &w->refs[f->off + done], n, false, err);
    for (uint32_t i = 0; rc == HL_OK && i < n; i++) {
      if (!f->buf && !(f->buf = hl_batch_create(t->n_data, t->types))) return hl_err_nomem(err);
      rc = copy_row(t, f->buf, w->gather.b, i, err);
      if (rc == HL_OK && f->buf->n_rows == HL_BATCH_CAP) rc = hold(w, wt, f, err);
    }
    if (rc != HL_OK) return rc;
    done += n;
  }
  return HL_OK;
}

/* Encodes the chunk's files on up to w->threads threads: contiguous
 * shares of the touched files with about equal rows, the first on this
 * thread.  A file is one thread's, and what a file's bytes are depends on
 * its rows only, so the files are the same at any thread count.  Of
 * several failures the one of the first file is reported. */
static hl_status_t encode_chunk(writer_t *w, wtable_t *wt, hl_error_t *err) {
  encoder_t enc[HL_WRITE_MAX_THREADS];
  int n = w->threads < 1                      ? 1
          : w->threads > HL_WRITE_MAX_THREADS ? HL_WRITE_MAX_THREADS
                                              : w->threads;
  if ((uint32_t)n > w->n_touched) n = w->n_touched ? (int)w->n_touched : 1;
  /* less than a batch of rows a thread is not worth one */
  if ((uint64_t)w->chunk_rows < (uint64_t)n * HL_BATCH_CAP) n = 1;
  uint32_t j = 0;
  uint64_t seen = 0;
  for (int k = 0; k < n; k++) {
    encoder_t *e = &enc[k];
    memset(e, 0, sizeof *e);
    e->w = w;
    e->t = wt->t;
    hl_err_init(&e->err);
    e->from = j;
    uint64_t goal = (uint64_t)w->chunk_rows * (uint64_t)(k + 1) / (uint64_t)n;
    while (j < w->n_touched && (k == n - 1 || seen < goal))
      seen += w->touched[j++]->n_sel;
    e->to = j;
  }
  enc[0].gather = w->gather; /* this thread's, kept across chunks */
  memset(&w->gather, 0, sizeof w->gather);
  for (int k = 1; k < n; k++)
    enc[k].started = pthread_create(&enc[k].thread, NULL, encoder_main, &enc[k]) == 0;
  encode_files(&enc[0]);
  for (int k = 1; k < n; k++) {
    if (enc[k].started)
      pthread_join(enc[k].thread, NULL);
    else
      encode_files(&enc[k]); /* no thread: the work is done here */
  }
  w->gather = enc[0].gather;
  hl_status_t rc = HL_OK;
  for (int k = 0; k < n; k++) {
    if (k > 0) gather_fini(&enc[k].gather);
    if (enc[k].rc != HL_OK && rc == HL_OK) {
      rc = enc[k].rc;
      hl_err_move(err, &enc[k].err);
    }
    hl_err_clear(&enc[k].err);
  }
  return rc;
}

/* Writes the chunk file by file (in the order of each file's first row)
 * and empties it: files opened in that order (so names follow the rows),
 * encoded (encode_chunk), then in that order counted, rolled over and
 * the budget kept. */
static hl_status_t chunk_flush(writer_t *w, wtable_t *wt, hl_error_t *err) {
  uint32_t off = 0;
  for (uint32_t j = 0; j < w->n_touched; j++) {
    w->touched[j]->off = off;
    off += w->touched[j]->n_sel;
    w->touched[j]->n_sel = 0;
  }
  for (uint32_t k = 0; k < w->chunk_rows; k++) {
    wfile_t *f = w->chunk_file[k];
    w->refs[f->off + f->n_sel++] = w->chunk_ref[k];
  }
  hl_status_t rc = HL_OK;
  if (wt->n_sort > 0) {
    for (uint32_t j = 0; rc == HL_OK && j < w->n_touched; j++) {
      rc = hold_file_rows(w, wt, w->touched[j], err);
      if (rc == HL_OK) rc = mem_note(w, w->touched[j], err);
    }
  } else {
    for (uint32_t j = 0; rc == HL_OK && j < w->n_touched; j++) {
      wfile_t *f = w->touched[j];
      if (!file_open_p(f)) rc = file_open(w, wt, f->part, f, err);
    }
    if (rc == HL_OK) rc = encode_chunk(w, wt, err);
    for (uint32_t j = 0; rc == HL_OK && j < w->n_touched; j++) {
      wfile_t *f = w->touched[j];
      f->part->rows += f->n_sel;
      rc = after_write(w, wt, f->part, f, err);
      if (rc == HL_OK) rc = mem_enforce(w, err);
    }
    mem_release(w);
  }
  w->n_chunk = 0;
  w->chunk_rows = 0;
  w->n_touched = 0;
  return rc;
}

/* Pass 4: the live rows of wt->conv copied into the chunk, each with its
 * file (its bucket's, for a bucketed table); the chunk written when full. */
static hl_status_t chunk_add(writer_t *w, wtable_t *wt, const hl_batch_t *in, uint32_t live,
                             hl_error_t *err) {
  hl_table_t *t = wt->t;
  if (w->chunk_wt != wt) { /* a multi-insert's next table: batches of its types */
    hl_cmd_ins_chunk_fini(w);
    w->chunk_wt = wt;
  }
  if (w->n_chunk == w->room) { /* the arrays grow with the chunk, up to CHUNK_BATCHES */
    size_t room = w->room ? w->room * 2 : 4, rows = room * HL_BATCH_CAP;
    hl_batch_t **chunk = hl_realloc(w->chunk, room * sizeof *chunk);
    if (chunk) w->chunk = chunk;
    wfile_t **files = chunk ? hl_realloc(w->chunk_file, rows * sizeof *files) : NULL;
    if (files) w->chunk_file = files;
    uint32_t *ref = files ? hl_realloc(w->chunk_ref, rows * sizeof *ref) : NULL;
    if (ref) w->chunk_ref = ref;
    uint32_t *refs = ref ? hl_realloc(w->refs, rows * sizeof *refs) : NULL;
    if (refs) w->refs = refs;
    wfile_t **touched = refs ? hl_realloc(w->touched, rows * sizeof *touched) : NULL;
    if (!touched) return hl_err_nomem(err);
    w->touched = touched;
    w->room = room;
  }
  if (w->n_chunk == 0) w->epoch++;
  if (w->n_chunk == w->cap_chunk) {
    if (!(w->chunk[w->cap_chunk] = hl_batch_create(t->n_data, t->types))) return hl_err_nomem(err);
    w->cap_chunk++;
  }
  hl_batch_t *cb = w->chunk[w->n_chunk];
  if (hl_batch_reset(cb) != HL_OK) return hl_err_nomem(err);
  uint32_t *rows = &w->refs[0]; /* free until the chunk is written */
  for (uint32_t i = 0; i < live; i++)
    rows[i] = hl_batch_row(in, i);
  hl_batch_t *src = wt->conv;
  hl_status_t rc = gather_rows(cb, NULL, &src, rows, live, true, err);
  if (rc != HL_OK) return rc;
  uint32_t base = (uint32_t)w->n_chunk << REF_SHIFT;
  w->n_chunk++;
  for (uint32_t i = 0; i < live; i++) {
    int bucket = -1;
    if (wt->n_buckets > 0) {
      int32_t h = 0;
      for (int k = 0; k < wt->n_bucket_cols; k++) {
        int c = wt->bucket_idx[k];
        hl_value_t v;
        hl_vec_get_value(&cb->cols[c], i, &v);
        h = hl_bucket_hash_combine(h, hl_bucket_hash_value(wt->bucket_version, t->types[c], &v));
      }
      bucket = hl_bucket_number(h, wt->n_buckets);
    }
    wfile_t *f;
    if ((rc = hl_cmd_ins_out_get(w, w->row_part[i], bucket, &f, err)) != HL_OK) return rc;
    if (f->mark != w->epoch) {
      f->mark = w->epoch;
      f->n_sel = 0;
      w->touched[w->n_touched++] = f;
    }
    f->n_sel++;
    w->chunk_file[w->chunk_rows] = f;
    w->chunk_ref[w->chunk_rows++] = base | i;
  }
  if (w->n_chunk == CHUNK_BATCHES || chunk_bytes(w) >= w->chunk_limit)
    return chunk_flush(w, wt, err);
  return HL_OK;
}

/* Takes the live rows of IN (the first is row BASE + 1 of the insert). */
static hl_status_t write_batch(writer_t *w, wtable_t *wt, const hl_batch_t *in,
                               const hl_type_t *const *in_types, uint64_t base, hl_error_t *err) {
  uint32_t live = hl_batch_live(in);
  if (live == 0) return HL_OK;
  if (!w->row_part && !(w->row_part = hl_arena_alloc(w->arena, HL_BATCH_CAP * sizeof *w->row_part)))
    return hl_err_nomem(err);
  hl_status_t rc = route_rows(w, wt, in, in_types, base, live, err);
  if (rc == HL_OK) rc = convert_batch(w, wt, in, in_types, base, live, err);
  if (rc == HL_OK) rc = check_batch(w, wt, in, base, live, err);
  if (rc == HL_OK) rc = chunk_add(w, wt, in, live, err);
  w->row_no = base + live;
  /* partition values, casts and converted strings live until here */
  hl_arena_reset(w->scratch);
  return rc;
}

hl_status_t hl_cmd_ins_write_result(writer_t *w, wtable_t *wt, hl_result_t *res, hl_error_t *err) {
  hl_status_t rc = HL_OK;
  /* an interval reaches a table only as text: Hive converts it to the
   * string types and refuses the rest (before any row, as Hive's compiler) */
  for (int c = 0; c < wt->t->n_all; c++) {
    int src = wt->slot_src[c];
    if (src >= 0 && src < res->n_cols && hl_type_has_interval(res->types[src]) &&
        !hl_type_is_string(wt->t->types[c])) {
      res->root->close(res->root);
      return hl_err_set(err, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                        "cannot insert into table \"%s.%s\": query column %d is an interval, "
                        "which converts only to a string column",
                        HL_TNAME(wt->t), src + 1);
    }
  }
  for (;;) {
    hl_batch_t *b = NULL;
    /* a cancel fails the write here; run_writes then rolls it back */
    rc = hl_budget_check_cancel(&w->s->budget, err);
    if (rc == HL_OK) rc = res->root->next(res->root, &b, err);
    if (rc != HL_OK || !b) break;
    rc = write_batch(w, wt, b, res->types, w->row_no, err);
    if (rc != HL_OK) break;
    hl_notify_progress(&w->s->notify, "insert", w->row_no, 0, "rows");
  }
  res->root->close(res->root);
  if (rc == HL_OK && w->chunk_rows > 0) rc = chunk_flush(w, wt, err);
  return rc;
}
