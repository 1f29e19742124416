/*
 * hms.h -- C structs for the subset of the Hive Metastore Thrift IDL that
 * hivelite's client and server need first, with their binary-protocol
 * encoders and decoders, and the calls and replies of three methods.
 *
 * Field ids and wire types are those of the Hive 4 IDL
 * (../shared/fixtures/hms/hive4/hive_metastore.thrift); the Hive 2.3 IDL
 * agrees on every field they share (README.md lists what it lacks).
 *
 * Presence: a string field is absent when its pointer is NULL, a struct
 * field when its pointer is NULL; an optional scalar or list has a has_*
 * flag.  The encoder writes default-requiredness scalars, lists and maps
 * always (as Java does for a set field), and a field only when present.
 * The decoder leaves absent fields zero (NULL, 0, empty), skips unknown
 * fields and fields whose wire type differs from the IDL's (as Apache
 * Thrift's runtimes do), and fails with 08P01 on a missing required field.
 * None of these structs has a required field; the argument structs of
 * some methods do.
 *
 * Decoded strings are NUL-terminated copies in the caller's arena (a string
 * holding a NUL byte is rejected); everything a decoder allocates comes
 * from that arena and is bounded by hl_hms_dec_t.budget, so a hostile
 * message cannot make it allocate much more than its own size.
 */
#ifndef HL_HMS_HMS_H
#define HL_HMS_HMS_H

#include "thrift/tproto.h"
#include "util/arena.h"

#include <stdint.h>

typedef struct hl_hms_strlist {
  uint32_t n;
  char **items;
} hl_hms_strlist_t;

typedef struct hl_hms_kv {
  char *key, *value;
} hl_hms_kv_t;

/* map<string, string> in wire order (duplicate keys are kept as sent) */
typedef struct hl_hms_strmap {
  uint32_t n;
  hl_hms_kv_t *items;
} hl_hms_strmap_t;

typedef struct hl_hms_field_schema {
  char *name, *type, *comment; /* 1, 2, 3 */
} hl_hms_field_schema_t;

typedef struct hl_hms_serde_info {
  char *name;                 /* 1 */
  char *serialization_lib;    /* 2 */
  hl_hms_strmap_t parameters; /* 3 */
  char *description;          /* 4 optional */
  char *serializer_class;     /* 5 optional */
  char *deserializer_class;   /* 6 optional */
  int has_serde_type;
  int32_t serde_type; /* 7 optional enum SerdeType: HIVE 1, SCHEMA_REGISTRY 2 */
} hl_hms_serde_info_t;

typedef struct hl_hms_order {
  char *col;     /* 1 */
  int32_t order; /* 2: asc 1, desc 0 */
} hl_hms_order_t;

typedef struct hl_hms_skewed_location {
  hl_hms_strlist_t values;
  char *location;
} hl_hms_skewed_location_t;

typedef struct hl_hms_skewed_info {
  hl_hms_strlist_t col_names; /* 1 */
  uint32_t n_col_values;      /* 2: list<list<string>> */
  hl_hms_strlist_t *col_values;
  uint32_t n_locations; /* 3: map<list<string>, string> */
  hl_hms_skewed_location_t *locations;
} hl_hms_skewed_info_t;

typedef struct hl_hms_sd {
  uint32_t n_cols; /* 1 */
  hl_hms_field_schema_t *cols;
  char *location;                  /* 2 */
  char *input_format;              /* 3 */
  char *output_format;             /* 4 */
  int compressed;                  /* 5 */
  int32_t num_buckets;             /* 6 */
  hl_hms_serde_info_t *serde_info; /* 7 */
  hl_hms_strlist_t bucket_cols;    /* 8 */
  uint32_t n_sort_cols;            /* 9 */
  hl_hms_order_t *sort_cols;
  hl_hms_strmap_t parameters;        /* 10 */
  hl_hms_skewed_info_t *skewed_info; /* 11 optional */
  int has_stored_as_sub_directories;
  int stored_as_sub_directories; /* 12 optional */
} hl_hms_sd_t;

typedef struct hl_hms_database {
  char *name;                 /* 1 */
  char *description;          /* 2 */
  char *location_uri;         /* 3 */
  hl_hms_strmap_t parameters; /* 4; 5 privileges is not decoded (skipped) */
  char *owner_name;           /* 6 optional */
  int has_owner_type;
  int32_t owner_type; /* 7 optional enum PrincipalType: USER 1, ROLE 2, GROUP 3 */
  char *catalog_name; /* 8 optional */
  int has_create_time;
  int32_t create_time;        /* 9 optional */
  char *managed_location_uri; /* 10 optional */
  int has_type;
  int32_t type;         /* 11 optional enum DatabaseType: NATIVE 1, REMOTE 2 */
  char *connector_name; /* 12 optional */
  char *remote_dbname;  /* 13 optional */
} hl_hms_database_t;

/* Table; fields 13 privileges, 16 creationMetadata, 21 colStats,
 * 26 fileMetadata and 27 dictionary are not decoded (skipped). */
typedef struct hl_hms_table {
  char *table_name;          /* 1 */
  char *db_name;             /* 2 */
  char *owner;               /* 3 */
  int32_t create_time;       /* 4 */
  int32_t last_access_time;  /* 5 */
  int32_t retention;         /* 6 */
  hl_hms_sd_t *sd;           /* 7 */
  uint32_t n_partition_keys; /* 8 */
  hl_hms_field_schema_t *partition_keys;
  hl_hms_strmap_t parameters;               /* 9 */
  char *view_original_text;                 /* 10 */
  char *view_expanded_text;                 /* 11 */
  char *table_type;                         /* 12 */
  int has_temporary, temporary;             /* 14 optional */
  int has_rewrite_enabled, rewrite_enabled; /* 15 optional */
  char *cat_name;                           /* 17 optional */
  int has_owner_type;
  int32_t owner_type; /* 18 optional PrincipalType */
  int has_write_id;
  int64_t write_id;                               /* 19 optional */
  int has_is_stats_compliant, is_stats_compliant; /* 20 optional */
  int has_access_type;
  int8_t access_type; /* 22 optional */
  int has_required_read_capabilities;
  hl_hms_strlist_t required_read_capabilities; /* 23 optional */
  int has_required_write_capabilities;
  hl_hms_strlist_t required_write_capabilities; /* 24 optional */
  int has_id;
  int64_t id; /* 25 optional */
  int has_txn_id;
  int64_t txn_id; /* 28 optional */
} hl_hms_table_t;

/* Partition; fields 8 privileges, 12 colStats and 13 fileMetadata are not
 * decoded (skipped). */
typedef struct hl_hms_partition {
  hl_hms_strlist_t values;    /* 1 */
  char *db_name;              /* 2 */
  char *table_name;           /* 3 */
  int32_t create_time;        /* 4 */
  int32_t last_access_time;   /* 5 */
  hl_hms_sd_t *sd;            /* 6 */
  hl_hms_strmap_t parameters; /* 7 */
  char *cat_name;             /* 9 optional */
  int has_write_id;
  int64_t write_id;                               /* 10 optional */
  int has_is_stats_compliant, is_stats_compliant; /* 11 optional */
} hl_hms_partition_t;

/* MetaException, NoSuchObjectException, AlreadyExistsException and
 * InvalidObjectException all are { 1: string message }. */
typedef struct hl_hms_exception {
  char *message;
} hl_hms_exception_t;

/* TApplicationException { 1: string message, 2: i32 type } */
typedef struct hl_hms_app_exception {
  char *message;
  int has_type;
  int32_t type;
} hl_hms_app_exception_t;

/* TApplicationException types */
enum {
  HL_TAPP_UNKNOWN = 0,
  HL_TAPP_UNKNOWN_METHOD = 1,
  HL_TAPP_INVALID_MESSAGE_TYPE = 2,
  HL_TAPP_WRONG_METHOD_NAME = 3,
  HL_TAPP_BAD_SEQUENCE_ID = 4,
  HL_TAPP_MISSING_RESULT = 5,
  HL_TAPP_INTERNAL_ERROR = 6,
  HL_TAPP_PROTOCOL_ERROR = 7
};

/* A decoder: the reader, the arena decoded values live in, and the most
 * bytes it may take from the arena (hl_hms_dec_init: 32 times the input's
 * length plus 64 KiB). */
typedef struct hl_hms_dec {
  hl_treader_t r;
  hl_arena_t *arena;
  size_t budget;
  size_t used;
} hl_hms_dec_t;

void hl_hms_dec_init(hl_hms_dec_t *d, const void *data, size_t len, hl_arena_t *arena,
                     hl_error_t *err);

/* Struct decoders: read one struct (fields up to its STOP) into *OUT,
 * zeroed first.  HL_OK, HL_CORRUPT (08P01) or HL_NOMEM. */
hl_status_t hl_hms_read_field_schema(hl_hms_dec_t *d, hl_hms_field_schema_t *out);
hl_status_t hl_hms_read_serde_info(hl_hms_dec_t *d, hl_hms_serde_info_t *out);
hl_status_t hl_hms_read_order(hl_hms_dec_t *d, hl_hms_order_t *out);
hl_status_t hl_hms_read_skewed_info(hl_hms_dec_t *d, hl_hms_skewed_info_t *out);
hl_status_t hl_hms_read_sd(hl_hms_dec_t *d, hl_hms_sd_t *out);
hl_status_t hl_hms_read_database(hl_hms_dec_t *d, hl_hms_database_t *out);
hl_status_t hl_hms_read_table(hl_hms_dec_t *d, hl_hms_table_t *out);
hl_status_t hl_hms_read_partition(hl_hms_dec_t *d, hl_hms_partition_t *out);
hl_status_t hl_hms_read_exception(hl_hms_dec_t *d, hl_hms_exception_t *out);
hl_status_t hl_hms_read_app_exception(hl_hms_dec_t *d, hl_hms_app_exception_t *out);

/* Struct encoders: append the struct's fields and its STOP to BUF (errors
 * are sticky in BUF, see hl_tw_check). */
void hl_hms_write_field_schema(hl_buf_t *buf, const hl_hms_field_schema_t *v);
void hl_hms_write_serde_info(hl_buf_t *buf, const hl_hms_serde_info_t *v);
void hl_hms_write_order(hl_buf_t *buf, const hl_hms_order_t *v);
void hl_hms_write_skewed_info(hl_buf_t *buf, const hl_hms_skewed_info_t *v);
void hl_hms_write_sd(hl_buf_t *buf, const hl_hms_sd_t *v);
void hl_hms_write_database(hl_buf_t *buf, const hl_hms_database_t *v);
void hl_hms_write_table(hl_buf_t *buf, const hl_hms_table_t *v);
void hl_hms_write_partition(hl_buf_t *buf, const hl_hms_partition_t *v);
void hl_hms_write_exception(hl_buf_t *buf, const hl_hms_exception_t *v);
void hl_hms_write_app_exception(hl_buf_t *buf, const hl_hms_app_exception_t *v);

/* Helpers for the method codecs (hms_call.c). */
hl_status_t hl_hms_read_string(hl_hms_dec_t *d, char **out);
hl_status_t hl_hms_read_strlist(hl_hms_dec_t *d, hl_hms_strlist_t *out);
void hl_hms_write_strlist(hl_buf_t *buf, const hl_hms_strlist_t *v);

#endif
