/*
 * hmsc_map.c -- metastore replies as catalog records (hmsc_int.h): the
 * shared mapping of src/hms/hms_map_from.c, unchecked (a real metastore's
 * records are taken as it holds them), and the parse of the partition
 * names it lists.  The other direction is src/hms/hms_map.c.
 */
#include "hms_client/hmsc_int.h"

#include "hms/hms_map_from.h"
#include "util/partpath.h"

#include <string.h>

hl_cat_db_t *hmsc_db_from(const hl_hms_database_t *d, hl_arena_t *arena) {
  hl_cat_db_t *c = hl_arena_zalloc(arena, sizeof *c);
  hl_error_t e;
  hl_err_init(&e);
  if (c && hl_hms_unmap_database(d, 0, arena, c, &e)) c = NULL; /* only OOM */
  hl_err_clear(&e);
  return c;
}

hl_cat_table_t *hmsc_table_from(const hl_hms_table_t *t, int64_t id, hl_arena_t *arena) {
  hl_cat_table_t *c = hl_arena_zalloc(arena, sizeof *c);
  hl_error_t e;
  hl_err_init(&e);
  if (c && hl_hms_unmap_table(t, 0, arena, c, &e)) c = NULL; /* only OOM */
  hl_err_clear(&e);
  if (c) c->id = id;
  return c;
}

hl_cat_partition_t *hmsc_partition_from(const hl_cat_table_t *table, const hl_hms_partition_t *p,
                                        int64_t id, hl_arena_t *arena) {
  hl_cat_partition_t *c = hl_arena_zalloc(arena, sizeof *c);
  hl_error_t e;
  hl_err_init(&e);
  /* a wrong number of values (or OOM): the caller reports the reply */
  if (c && hl_hms_unmap_partition(table, p, 0, arena, c, &e)) c = NULL;
  hl_err_clear(&e);
  if (c) c->id = id;
  return c;
}

int hmsc_parse_name(const char *name, int n, char **values, hl_arena_t *arena) {
  const char *p = name;
  hl_buf_t b;
  hl_buf_init(&b);
  int k = 0, rc = 0;
  while (k < n) {
    const char *eq = strchr(p, '=');
    if (!eq) break;
    const char *end = strchr(eq + 1, '/');
    size_t len = end ? (size_t)(end - eq - 1) : strlen(eq + 1);
    if (len == strlen(HL_DEFAULT_PARTITION_NAME) &&
        strncmp(eq + 1, HL_DEFAULT_PARTITION_NAME, len) == 0) {
      values[k] = NULL;
    } else {
      hl_buf_reset(&b);
      hl_partpath_unescape(&b, eq + 1, len);
      if (b.oom || !(values[k] = hl_arena_strndup(arena, b.data ? b.data : "", b.len))) {
        rc = -1;
        break;
      }
    }
    k++;
    if (!end) break;
    p = end + 1;
    if (k == n) rc = -1; /* more keys than the table has */
  }
  hl_buf_fini(&b);
  if (rc || k != n) return -1;
  return 0;
}
