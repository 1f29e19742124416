/*
 * storage_format.c -- STORED AS keywords and the Java class names Hive
 * records for them in the metastore (input format, output format, serde).
 *
 * CREATE TABLE ... STORED AS X and ALTER TABLE ... SET FILEFORMAT X store
 * these names so that Hive, Spark and Trino reading our metastore (or a
 * copy of its rows) see exactly what Hive itself would have written;
 * SHOW CREATE TABLE prints them back as INPUTFORMAT/OUTPUTFORMAT.
 */
#include "format/storage_format.h"

#include <string.h>
#include <strings.h>

#define TEXT_IN  "org.apache.hadoop.mapred.TextInputFormat"
#define TEXT_OUT "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat"

static const hl_storage_format_t formats[] = {
    {"TEXTFILE", TEXT_IN, TEXT_OUT, HL_SERDE_LAZY_SIMPLE},
    {"PARQUET", "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat",
     "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat",
     "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe"},
    {"ORC", "org.apache.hadoop.hive.ql.io.orc.OrcInputFormat",
     "org.apache.hadoop.hive.ql.io.orc.OrcOutputFormat",
     "org.apache.hadoop.hive.ql.io.orc.OrcSerde"},
    {"JSONFILE", TEXT_IN, TEXT_OUT, "org.apache.hadoop.hive.serde2.JsonSerDe"},
    {"AVRO", "org.apache.hadoop.hive.ql.io.avro.AvroContainerInputFormat",
     "org.apache.hadoop.hive.ql.io.avro.AvroContainerOutputFormat",
     "org.apache.hadoop.hive.serde2.avro.AvroSerDe"},
    {"SEQUENCEFILE", "org.apache.hadoop.mapred.SequenceFileInputFormat",
     "org.apache.hadoop.hive.ql.io.HiveSequenceFileOutputFormat", HL_SERDE_LAZY_SIMPLE},
    {"RCFILE", "org.apache.hadoop.hive.ql.io.RCFileInputFormat",
     "org.apache.hadoop.hive.ql.io.RCFileOutputFormat",
     "org.apache.hadoop.hive.serde2.columnar.LazyBinaryColumnarSerDe"},
};

#define N_FORMATS (sizeof formats / sizeof formats[0])

const hl_storage_format_t *hl_storage_format_find(const char *name) {
  if (!name) return NULL;
  for (size_t i = 0; i < N_FORMATS; i++)
    if (strcasecmp(formats[i].name, name) == 0) return &formats[i];
  return NULL;
}

const hl_storage_format_t *hl_storage_format_by_classes(const char *input_format,
                                                        const char *output_format) {
  if (!input_format || !output_format) return NULL;
  for (size_t i = 0; i < N_FORMATS; i++)
    if (strcmp(formats[i].input_format, input_format) == 0 &&
        strcmp(formats[i].output_format, output_format) == 0)
      return &formats[i];
  return NULL;
}
