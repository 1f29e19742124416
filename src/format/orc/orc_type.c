/*
 * orc_type.c -- the Hive type <-> ORC type mapping shared by the ORC
 * reader and writer (orc.h).  A table's columns are the fields of the
 * file's root STRUCT (column id 0); ids are assigned in pre-order.
 */
#include "format/orc/orc.h"

int hl_orc_kind_of(const hl_type_t *type) {
  switch (type->id) {
  case HL_T_BOOLEAN:
    return HL_ORC_BOOLEAN;
  case HL_T_TINYINT:
    return HL_ORC_BYTE;
  case HL_T_SMALLINT:
    return HL_ORC_SHORT;
  case HL_T_INT:
    return HL_ORC_INT;
  case HL_T_BIGINT:
    return HL_ORC_LONG;
  case HL_T_FLOAT:
    return HL_ORC_FLOAT;
  case HL_T_DOUBLE:
    return HL_ORC_DOUBLE;
  case HL_T_DECIMAL:
    return HL_ORC_DECIMAL;
  case HL_T_STRING:
    return HL_ORC_STRING;
  case HL_T_VARCHAR:
    return HL_ORC_VARCHAR;
  case HL_T_CHAR:
    return HL_ORC_CHAR;
  case HL_T_DATE:
    return HL_ORC_DATE;
  case HL_T_TIMESTAMP:
    return HL_ORC_TIMESTAMP;
  case HL_T_BINARY:
    return HL_ORC_BINARY;
  case HL_T_ARRAY:
    return HL_ORC_LIST;
  case HL_T_MAP:
    return HL_ORC_MAP;
  case HL_T_STRUCT:
    return HL_ORC_STRUCT;
  case HL_T_UNION:
    return HL_ORC_UNION;
  case HL_T_NULL:
  case HL_T_INTERVAL_YM: /* expression types only: no table holds them */
  case HL_T_INTERVAL_DT:
    break;
  }
  return -1;
}

int hl_orc_type_count(const hl_type_t *type) {
  int n = 1;
  for (int i = 0; i < type->n_children; i++)
    n += hl_orc_type_count(type->children[i]);
  return n;
}

bool hl_orc_timestamp_ok(int64_t micros) {
  /* [-999000, -1]: a negative second with >= 1 ms of fraction that the
   * writers' truncation makes second 0 */
  return micros >= 0 || micros < -999000;
}

const hl_value_t *hl_orc_unstorable(const hl_type_t *type, const hl_value_t *v) {
  if (v->is_null) return NULL;
  switch (type->id) {
  case HL_T_TIMESTAMP:
    return hl_orc_timestamp_ok(v->u.i) ? NULL : v;
  case HL_T_ARRAY:
  case HL_T_MAP:
  case HL_T_STRUCT:
  case HL_T_UNION: {
    size_t n = hl_value_n_items(type, v);
    for (size_t i = 0; i < n; i++) {
      const hl_type_t *t = type->id != HL_T_STRUCT || (int)i < type->n_children
                               ? hl_value_item_type(type, v, i)
                               : NULL;
      const hl_value_t *bad = t ? hl_orc_unstorable(t, &v->u.list.items[i]) : NULL;
      if (bad) return bad;
    }
    return NULL;
  }
  default:
    return NULL;
  }
}
