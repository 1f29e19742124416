/*
 * storage_format.h -- STORED AS keywords and the Java class names Hive
 * records for them in the metastore (input format, output format, serde).
 *
 * CREATE TABLE ... STORED AS X and ALTER TABLE ... SET FILEFORMAT X store
 * these names; readers and SHOW CREATE TABLE map the stored classes back
 * to a format (storage_format.c).
 */
#ifndef HL_STORAGE_FORMAT_H
#define HL_STORAGE_FORMAT_H

typedef struct hl_storage_format {
  const char *name;         /* STORED AS keyword, upper-case: "TEXTFILE" */
  const char *input_format; /* Java class names as Hive records them */
  const char *output_format;
  const char *serde;
} hl_storage_format_t;

/* The format named NAME (case-insensitive; "TextFile" works), NULL if
 * unknown. */
const hl_storage_format_t *hl_storage_format_find(const char *name);
/* The format whose input and output classes are these, NULL if none. */
const hl_storage_format_t *hl_storage_format_by_classes(const char *input_format,
                                                        const char *output_format);
/* Serde class of LazySimpleSerDe (ROW FORMAT DELIMITED). */
#define HL_SERDE_LAZY_SIMPLE "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe"

#endif
