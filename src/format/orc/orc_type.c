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
  case HL_T_NULL:
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
