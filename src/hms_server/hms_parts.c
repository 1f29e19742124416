/*
 * hms_parts.c -- the partitions a partition method answers with, read
 * from the catalog without listing the whole table (hms_int.h).
 *
 * Clients name partitions ("ds=2024-01-01/hr=5") or pin values; a pin on a
 * table of 100,000 partitions must not read all of them.  Names become the
 * values they encode and go to hl_cat_partition_get_many; lists that came
 * from hl_cat_partition_names with pinned values hold names and values
 * only and are completed the same way before they are sent.
 */
#include "hms_server/hms_int.h"

#include "util/partpath.h"
#include "util/strbuf.h"

#include <string.h>
#include <strings.h>

/* The values of partition name NAME of table T ("k1=v1/k2=v2", escaped as
 * in a path, keys in T's order), canonically named in *CANON; 0 when NAME
 * is not one of T's partition names, -1 on OOM. */
static int name_values(hl_hms_call_t *c, const hl_cat_table_t *t, const char *name, char ***values,
                       char **canon) {
  int nk = t->n_part_keys;
  char **v = hl_arena_alloc(c->arena, sizeof *v * (size_t)(nk ? nk : 1));
  if (!v) return -1;
  const char *p = name;
  for (int k = 0; k < nk; k++) {
    const char *end = strchr(p, '/');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    const char *eq = memchr(p, '=', len);
    size_t klen = strlen(t->part_keys[k].name);
    if (!eq || (size_t)(eq - p) != klen || strncasecmp(p, t->part_keys[k].name, klen) != 0 ||
        (k + 1 < nk) != (end != NULL))
      return 0;
    hl_buf_t b;
    hl_buf_init(&b);
    hl_partpath_unescape(&b, eq + 1, len - klen - 1);
    v[k] = b.oom ? NULL : hl_arena_strndup(c->arena, hl_buf_cstr(&b), b.len);
    int oom = b.oom || !v[k];
    hl_buf_fini(&b);
    if (oom) return -1;
    if (!*v[k] || strcmp(v[k], HL_DEFAULT_PARTITION_NAME) == 0) v[k] = NULL;
    p = end ? end + 1 : p + len;
  }
  const char **keys = hl_arena_alloc(c->arena, sizeof *keys * (size_t)(nk ? nk : 1));
  if (!keys) return -1;
  for (int k = 0; k < nk; k++)
    keys[k] = t->part_keys[k].name;
  hl_buf_t b;
  hl_buf_init(&b);
  hl_partpath_name(&b, nk, keys, (const char *const *)v, HL_DEFAULT_PARTITION_NAME);
  *canon = b.oom ? NULL : hl_arena_strndup(c->arena, hl_buf_cstr(&b), b.len);
  hl_buf_fini(&b);
  if (!*canon) return -1;
  *values = v;
  return 1;
}

int hl_hms_parts_by_name(hl_hms_call_t *c, const hl_cat_table_t *t, const hl_hms_strlist_t *names,
                         hl_cat_partition_t **out, size_t *n) {
  hl_cat_partition_t *keys = hl_arena_zalloc(c->arena, sizeof *keys * (names->n ? names->n : 1));
  size_t nk = 0;
  if (!keys) {
    hl_err_nomem(&c->cerr);
    return -1;
  }
  for (uint32_t i = 0; i < names->n; i++) {
    int r =
        names->items[i] ? name_values(c, t, names->items[i], &keys[nk].values, &keys[nk].name) : 0;
    if (r < 0) {
      hl_err_nomem(&c->cerr);
      return -1;
    }
    if (r == 0) continue; /* names of no partition are left out, as Hive does */
    keys[nk].n_values = t->n_part_keys;
    keys[nk].table_id = t->id;
    nk++;
  }
  return hl_cat_partition_get_many(c->cat, t->id, keys, nk, c->arena, out, n, &c->cerr) ? -1 : 0;
}

int hl_hms_parts_complete(hl_hms_call_t *c, const hl_cat_table_t *t, hl_cat_partition_t **sel,
                          size_t *n) {
  size_t k = *n, missing = 0;
  for (size_t i = 0; i < k; i++)
    missing += sel[i]->sd == NULL;
  if (missing == 0) return 0;
  hl_cat_partition_t *keys = hl_arena_alloc(c->arena, sizeof *keys * (k ? k : 1)), *full;
  size_t n_full;
  if (!keys) {
    hl_err_nomem(&c->cerr);
    return -1;
  }
  for (size_t i = 0; i < k; i++)
    keys[i] = *sel[i];
  if (hl_cat_partition_get_many(c->cat, t->id, keys, k, c->arena, &full, &n_full, &c->cerr))
    return -1;
  for (size_t i = 0; i < n_full; i++) /* dropped meanwhile: left out */
    sel[i] = &full[i];
  *n = n_full;
  return 0;
}
