/*
 * test_spill.c -- unit tests for src/exec/spill.c: batches of every type
 * (NULLs, strings, decimals, complex values, selections) written and read
 * back equal; a torn or damaged file read as XX001; the statement's
 * subdirectory made on the first file and removed with its arena; the
 * stale-subdirectory rule (dead pid, reused pid, live owner, foreign
 * names) and the sweep; the share of the limit.
 */
#include "test.h"

#include "exec/spill.h"
#include "util/mem.h"
#include "util/strbuf.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

enum { N_COLS = 14, N_ROWS = 3000 };

static const char *const col_types[N_COLS] = {
    "boolean",
    "int",
    "bigint",
    "double",
    "decimal(38,10)",
    "string",
    "char(5)",
    "date",
    "timestamp",
    "binary",
    "array<int>",
    "map<string,int>",
    "struct<a:int,b:string>",
    "array<array<string>>",
};

static const hl_type_t *ty(hl_arena_t *a, const char *text) {
  hl_error_t e;
  hl_err_init(&e);
  hl_type_t *t = NULL;
  if (hl_type_parse_str(a, text, &t, &e) != HL_OK) t = NULL;
  hl_err_clear(&e);
  CHECK(t != NULL);
  return t;
}

/* Value of column C at row R (NULL every 7th row of each column, shifted
 * by column); complex values in A. */
static void make_value(hl_arena_t *a, const hl_type_t *t, int c, int r, hl_value_t *v) {
  memset(v, 0, sizeof *v);
  if ((r + c) % 7 == 0) {
    v->is_null = true;
    return;
  }
  switch (t->id) {
  case HL_T_BOOLEAN:
    v->u.b = r % 2;
    break;
  case HL_T_DOUBLE:
    v->u.d = r * 0.25 - 3;
    break;
  case HL_T_DECIMAL:
    v->u.dec = ((__int128)r * 1000000007) * 1000000007 * (r % 2 ? -1 : 1);
    break;
  case HL_T_STRING:
  case HL_T_BINARY:
    v->u.s.ptr = hl_arena_sprintf(a, "s%d%s", r, r % 3 ? "" : "-longer-string-value");
    v->u.s.len = (uint32_t)strlen(v->u.s.ptr);
    break;
  case HL_T_CHAR:
    v->u.s.ptr = hl_arena_sprintf(a, "c%04d", r % 10000);
    v->u.s.len = 5;
    break;
  case HL_T_ARRAY:
  case HL_T_MAP:
  case HL_T_STRUCT: {
    uint32_t n = t->id == HL_T_STRUCT ? 2 : (uint32_t)(r % 4);
    uint32_t items = t->id == HL_T_MAP ? 2 * n : n;
    v->u.list.n = n;
    v->u.list.items = hl_arena_zalloc(a, sizeof(hl_value_t) * (items + 1));
    for (uint32_t i = 0; i < items; i++) {
      const hl_type_t *ct = t->id == HL_T_STRUCT ? t->children[i]
                            : t->id == HL_T_MAP  ? t->children[i & 1]
                                                 : t->children[0];
      make_value(a, ct, c + 1, r + (int)i, &v->u.list.items[i]);
      if (t->id == HL_T_MAP && !(i & 1) && v->u.list.items[i].is_null)
        make_value(a, ct, c, r + 1, &v->u.list.items[i]); /* map keys are not NULL */
    }
    break;
  }
  default:
    v->u.i = (int64_t)r * 7919 - 1000;
    break;
  }
}

static char *row_text(hl_batch_t *b, uint32_t r) {
  hl_buf_t buf;
  hl_buf_init(&buf);
  for (int c = 0; c < b->n_cols; c++) {
    hl_value_t v;
    hl_vec_get_value(&b->cols[c], r, &v);
    if (hl_vec_is_null(&b->cols[c], r)) v.is_null = true;
    hl_value_format(&buf, b->cols[c].type, &v);
    hl_buf_putc(&buf, '|');
  }
  return hl_buf_detach(&buf);
}

static hl_spill_t *new_spill(hl_arena_t *a, char *root, size_t n) {
  CHECK_INT(test_tmpdir(root, n, "spill"), 0);
  hl_error_t e;
  hl_err_init(&e);
  hl_spill_t *sp = hl_spill_create(root, 4u << 20, a, &e);
  CHECK(sp != NULL);
  return sp;
}

static int count_entries(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return -1;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)))
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
  closedir(d);
  return n;
}

TEST(roundtrip_every_type) {
  hl_arena_t *a = hl_arena_create(0);
  char root[512];
  hl_spill_t *sp = new_spill(a, root, sizeof root);
  const hl_type_t *types[N_COLS];
  for (int c = 0; c < N_COLS; c++)
    types[c] = ty(a, col_types[c]);
  hl_batch_t *in = hl_batch_create(N_COLS, types), *out = hl_batch_create(N_COLS, types);
  hl_error_t e;
  hl_err_init(&e);
  hl_spill_file_t *f = NULL;
  CHECK_INT(hl_spill_file_create(sp, &f, &e), HL_OK);
  CHECK(hl_spill_dir(sp) != NULL);
  CHECK_INT(count_entries(hl_spill_dir(sp)), 0); /* unlinked at once */
  char **expect = hl_calloc(N_ROWS, sizeof(char *));
  int n_expect = 0;
  for (int base = 0; base < N_ROWS; base += HL_BATCH_CAP) {
    CHECK_INT(hl_batch_reset(in), HL_OK);
    uint32_t n = N_ROWS - base < HL_BATCH_CAP ? (uint32_t)(N_ROWS - base) : HL_BATCH_CAP;
    for (uint32_t r = 0; r < n; r++)
      for (int c = 0; c < N_COLS; c++) {
        hl_value_t v;
        make_value(in->arena, types[c], c, base + (int)r, &v);
        if (v.is_null)
          CHECK_INT(hl_vec_set_null(&in->cols[c], in->arena, r), HL_OK);
        else
          CHECK_INT(hl_vec_put_value(&in->cols[c], in->arena, r, &v), HL_OK);
      }
    in->n_rows = n;
    if (base == 0) { /* a selection: every third row */
      uint32_t rows[HL_BATCH_CAP], k = 0;
      for (uint32_t r = 0; r < n; r += 3)
        rows[k++] = r;
      CHECK_INT(hl_spill_write(f, in, rows, k, &e), HL_OK);
      for (uint32_t i = 0; i < k; i++)
        expect[n_expect++] = row_text(in, rows[i]);
    } else {
      CHECK_INT(hl_spill_write(f, in, NULL, 0, &e), HL_OK);
      for (uint32_t r = 0; r < n; r++)
        expect[n_expect++] = row_text(in, r);
    }
  }
  CHECK_INT(hl_spill_file_rows(f), n_expect);
  for (int pass = 0; pass < 2; pass++) { /* a file may be read twice */
    CHECK_INT(hl_spill_rewind(f, &e), HL_OK);
    int got = 0;
    for (;;) {
      CHECK_INT(hl_spill_read(f, out, &e), HL_OK);
      if (out->n_rows == 0) break;
      for (uint32_t r = 0; r < out->n_rows && got < n_expect; r++, got++) {
        char *t = row_text(out, r);
        CHECK_STR(t, expect[got]);
        hl_free(t);
      }
    }
    CHECK_INT(got, n_expect);
  }
  CHECK(hl_spill_bytes(sp) > 0);
  for (int i = 0; i < n_expect; i++)
    hl_free(expect[i]);
  hl_free(expect);
  hl_spill_file_close(f);
  hl_batch_destroy(in);
  hl_batch_destroy(out);
  char dir[600];
  snprintf(dir, sizeof dir, "%s", hl_spill_dir(sp));
  CHECK_INT(count_entries(root), 1);
  hl_arena_destroy(a); /* the statement ends: its subdirectory goes */
  CHECK_INT(count_entries(root), 0);
  CHECK(access(dir, F_OK) != 0);
  rmdir(root);
}

/* Writes two blocks of ROWS rows of one BIGINT column into a new file of
 * SP. */
static hl_spill_file_t *two_blocks(hl_spill_t *sp, hl_batch_t *b, uint32_t rows) {
  hl_error_t e;
  hl_err_init(&e);
  hl_spill_file_t *f = NULL;
  CHECK_INT(hl_spill_file_create(sp, &f, &e), HL_OK);
  for (int k = 0; k < 2; k++) {
    CHECK_INT(hl_batch_reset(b), HL_OK);
    for (uint32_t r = 0; r < rows; r++)
      HL_VEC_I64(&b->cols[0])[r] = r;
    b->n_rows = rows;
    CHECK_INT(hl_spill_write(f, b, NULL, 0, &e), HL_OK);
  }
  CHECK_INT(hl_spill_rewind(f, &e), HL_OK);
  return f;
}

TEST(torn_file_is_an_error) {
  hl_arena_t *a = hl_arena_create(0);
  char root[512];
  hl_spill_t *sp = new_spill(a, root, sizeof root);
  const hl_type_t *t = hl_type_prim(HL_T_BIGINT);
  hl_batch_t *b = hl_batch_create(1, &t);
  hl_error_t e;
  hl_err_init(&e);
  /* cut short inside the second block: blocks of 1,500 rows come one
   * batch each, so the first still reads */
  hl_spill_file_t *f = two_blocks(sp, b, 1500);
  off_t size = lseek(hl_spill_file_fd(f), 0, SEEK_END);
  CHECK(ftruncate(hl_spill_file_fd(f), size - 10) == 0);
  CHECK_INT(hl_spill_read(f, b, &e), HL_OK);
  CHECK_INT(b->n_rows, 1500);
  CHECK_INT(hl_spill_read(f, b, &e), HL_CORRUPT);
  CHECK_STR(e.sqlstate, "XX001");
  hl_err_clear(&e);
  hl_spill_file_close(f);
  /* small blocks come together in one batch, in order */
  f = two_blocks(sp, b, 100);
  CHECK_INT(hl_spill_read(f, b, &e), HL_OK);
  CHECK_INT(b->n_rows, 200);
  CHECK_INT(HL_VEC_I64(&b->cols[0])[99], 99);
  CHECK_INT(HL_VEC_I64(&b->cols[0])[100], 0);
  CHECK_INT(HL_VEC_I64(&b->cols[0])[199], 99);
  CHECK_INT(hl_spill_read(f, b, &e), HL_OK);
  CHECK_INT(b->n_rows, 0);
  hl_spill_file_close(f);
  /* and a torn second one fails the batch */
  f = two_blocks(sp, b, 100);
  size = lseek(hl_spill_file_fd(f), 0, SEEK_END);
  CHECK(ftruncate(hl_spill_file_fd(f), size - 10) == 0);
  CHECK_INT(hl_spill_read(f, b, &e), HL_CORRUPT);
  CHECK_STR(e.sqlstate, "XX001");
  hl_err_clear(&e);
  hl_spill_file_close(f);
  /* a damaged length inside the first block */
  f = two_blocks(sp, b, 100);
  uint64_t huge = UINT64_MAX / 2;
  CHECK(pwrite(hl_spill_file_fd(f), &huge, sizeof huge, 16) == sizeof huge);
  CHECK_INT(hl_spill_read(f, b, &e), HL_CORRUPT);
  CHECK_STR(e.sqlstate, "XX001");
  hl_err_clear(&e);
  hl_spill_file_close(f);
  /* a file read by a batch of another width */
  f = two_blocks(sp, b, 100);
  const hl_type_t *t2[2] = {t, t};
  hl_batch_t *wide = hl_batch_create(2, t2);
  CHECK_INT(hl_spill_read(f, wide, &e), HL_CORRUPT);
  hl_err_clear(&e);
  hl_batch_destroy(wide);
  hl_spill_file_close(f);
  hl_batch_destroy(b);
  hl_arena_destroy(a);
  CHECK_INT(count_entries(root), 0);
  rmdir(root);
}

TEST(write_error_is_disk_full) {
  /* /dev/full: every write fails with ENOSPC */
  if (access("/dev/full", W_OK) != 0) return;
  hl_arena_t *a = hl_arena_create(0);
  char root[512];
  hl_spill_t *sp = new_spill(a, root, sizeof root);
  hl_error_t e;
  hl_err_init(&e);
  const hl_type_t *t = hl_type_prim(HL_T_BIGINT);
  hl_batch_t *b = hl_batch_create(1, &t);
  hl_spill_file_t *f = NULL;
  CHECK_INT(hl_spill_file_create(sp, &f, &e), HL_OK);
  int full = open("/dev/full", O_WRONLY);
  CHECK(full >= 0);
  CHECK(dup2(full, hl_spill_file_fd(f)) >= 0);
  close(full);
  b->n_rows = 10;
  CHECK_INT(hl_spill_write(f, b, NULL, 0, &e), HL_OK); /* buffered */
  CHECK_INT(hl_spill_rewind(f, &e), HL_IOERR);
  CHECK_STR(e.sqlstate, "53100");
  hl_err_clear(&e);
  hl_spill_file_close(f);
  hl_batch_destroy(b);
  hl_arena_destroy(a);
  rmdir(root);
}

TEST(stale_rule_and_sweep) {
  char own[256];
  hl_spill_owner_prefix(own, sizeof own);
  long pid = (long)getpid();
  /* own: "<pid>-<start>-<tag>-"; the tag is what follows the second '-' */
  const char *tag = strchr(strchr(own, '-') + 1, '-') + 1;
  char name[512];
  snprintf(name, sizeof name, "%sabc123", own);
  CHECK(!hl_spill_name_is_stale(name)); /* this live process */
  snprintf(name, sizeof name, "%ld-1-%sabc123", pid, tag);
  CHECK(hl_spill_name_is_stale(name)); /* our pid, another start: reused */
  pid_t child = fork();
  if (child == 0) _exit(0);
  waitpid(child, NULL, 0);
  char dead[512];
  snprintf(dead, sizeof dead, "%ld-12345-%sabc123", (long)child, tag);
  CHECK(hl_spill_name_is_stale(dead)); /* gone */
  snprintf(name, sizeof name, "%ld-12345-otherhost.1-abc123", (long)child);
  CHECK(!hl_spill_name_is_stale(name)); /* another machine's pid: not ours to judge */
  snprintf(name, sizeof name, "%ld-12345-%s", (long)child, tag);
  CHECK(!hl_spill_name_is_stale(name)); /* no random suffix: not one of ours */
  CHECK(!hl_spill_name_is_stale("notes"));
  CHECK(!hl_spill_name_is_stale("123"));
  CHECK(!hl_spill_name_is_stale("-1-2-x"));

  char root[512], path[1400];
  CHECK_INT(test_tmpdir(root, sizeof root, "sweep"), 0);
  snprintf(path, sizeof path, "%s/%s", root, dead);
  CHECK(mkdir(path, 0700) == 0);
  snprintf(path, sizeof path, "%s/%s/0.spill", root, dead);
  FILE *fp = fopen(path, "w");
  CHECK(fp != NULL);
  if (fp) fclose(fp);
  snprintf(path, sizeof path, "%s/%slive", root, own);
  CHECK(mkdir(path, 0700) == 0);
  snprintf(path, sizeof path, "%s/keep-me", root);
  CHECK(mkdir(path, 0700) == 0);
  hl_spill_sweep(root);
  CHECK_INT(count_entries(root), 2);
  snprintf(path, sizeof path, "%s/%s", root, dead);
  CHECK(access(path, F_OK) != 0);
  snprintf(path, sizeof path, "%s/%slive", root, own);
  CHECK(access(path, F_OK) == 0);
  rmdir(path);
  snprintf(path, sizeof path, "%s/keep-me", root);
  rmdir(path);
  rmdir(root);
  hl_spill_sweep("/nonexistent/spill/root"); /* no error */
}

TEST(share_of_the_limit) {
  hl_arena_t *a = hl_arena_create(0);
  hl_error_t e;
  hl_err_init(&e);
  hl_spill_t *sp = hl_spill_create("/tmp/unused", 4u << 20, a, &e);
  CHECK_INT(hl_spill_share(sp), 1u << 20);
  CHECK(hl_spill_dir(sp) == NULL); /* nothing made before a file */
  hl_spill_t *tiny = hl_spill_create("/tmp/unused", 1000, a, &e);
  CHECK_INT(hl_spill_share(tiny), 64u << 10);
  hl_arena_destroy(a);
}

int main(void) {
  RUN(roundtrip_every_type);
  RUN(torn_file_is_an_error);
  RUN(write_error_is_disk_full);
  RUN(stale_rule_and_sweep);
  RUN(share_of_the_limit);
  return test_report();
}
