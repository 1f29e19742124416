/*
 * hms_query.h -- the argument and result structs of the Hive Metastore's
 * query methods beyond hms_call.h (get_table_objects_by_name_req,
 * get_fields_req, get_partitions_by_names_req, get_table_meta, ...).
 *
 * Their arguments are flat: strings, list<string>, integers and booleans,
 * sometimes inside one request struct (Hive 4's *Request).  Rather than one
 * C struct and one decoder per request, hl_hms_read_fields keeps every
 * field of those kinds by id, and the caller reads the ids its IDL names
 * (hms_read.c in the server).  Fields of other types (ClientCapabilities,
 * EnvironmentContext, projection specs) are skipped, as a runtime skips
 * unknown ones.  Results are written by the small encoders below.
 */
#ifndef HL_HMS_HMS_QUERY_H
#define HL_HMS_HMS_QUERY_H

#include "hms/hms.h"

/* Field ids kept by hl_hms_read_fields: 1..HL_HMS_FIELDS_MAX. */
#define HL_HMS_FIELDS_MAX 15

typedef struct hl_hms_fields {
  uint32_t has;                              /* bit ID: field ID was read */
  char *s[HL_HMS_FIELDS_MAX + 1];            /* string fields */
  hl_hms_strlist_t l[HL_HMS_FIELDS_MAX + 1]; /* list<string> fields */
  int64_t i[HL_HMS_FIELDS_MAX + 1];          /* bool, byte, i16, i32, i64 fields */
  struct hl_hms_fields *sub;                 /* the struct field NESTED_ID, if asked */
} hl_hms_fields_t;

static inline int hl_hms_fields_has(const hl_hms_fields_t *f, int id) {
  return id >= 1 && id <= HL_HMS_FIELDS_MAX && (f->has >> id & 1u);
}

/* Reads one struct (an argument struct, after hl_hms_read_message) into
 * *OUT, zeroed first.  When NESTED_ID > 0, the struct-typed field of that
 * id (a request struct) is read the same way into OUT->sub (allocated in
 * the decoder's arena; NULL when absent).  HL_OK, HL_CORRUPT (08P01) or
 * HL_NOMEM. */
hl_status_t hl_hms_read_fields(hl_hms_dec_t *d, int nested_id, hl_hms_fields_t *out);

/* TableMeta { 1 dbName, 2 tableName, 3 tableType required; 4 comments,
 * 5 catName, 6 ownerName optional; 7 ownerType optional i32 } (Hive 2.3
 * has 1-4 and skips the rest). */
typedef struct hl_hms_table_meta {
  char *db_name, *table_name, *table_type; /* required */
  char *comments, *cat_name, *owner_name;  /* NULL: absent */
  int has_owner_type;
  int32_t owner_type;
} hl_hms_table_meta_t;

void hl_hms_write_table_meta(hl_buf_t *buf, const hl_hms_table_meta_t *v);
/* list<FieldSchema> (a value: list header and elements). */
void hl_hms_write_field_list(hl_buf_t *buf, const hl_hms_field_schema_t *cols, uint32_t n);
/* A struct whose only field ID is a list<FieldSchema> (GetFieldsResponse,
 * GetSchemaResponse: 1 fields). */
void hl_hms_write_fields_response(hl_buf_t *buf, const hl_hms_field_schema_t *cols, uint32_t n);

#endif
