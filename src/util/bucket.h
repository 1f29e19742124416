/*
 * bucket.h -- Hive's bucket assignment for CLUSTERED BY ... INTO N BUCKETS.
 *
 * A row's bucket is (hash & 0x7fffffff) % N where hash folds the bucket
 * columns left to right as hash = 31 * hash + field_hash (int32 wrap-around).
 * The field hash depends on the table's bucketing version (TBLPROPERTIES
 * 'bucketing_version'):
 *
 *   1  ObjectInspectorUtils.hashCode (Java hashCode-like; Hive 1.x/2.x, and
 *      every table without the property)
 *   2  ObjectInspectorUtils.hashCodeMurmur: Murmur3 x86 32-bit, seed 104729,
 *      over the value's big-endian bytes (Hive 3+ tables)
 *
 * Both are spelled out per type in bucket.c; Trino's HiveBucketingV1/V2
 * implement the same functions and TestHiveBucketing publishes expected
 * hashes, which tests/unit/exec/test_bucket.c checks (and Spark's HiveHash
 * tests for version 1 DECIMAL).  Types whose hashing we cannot check
 * against a published value (TIMESTAMP, version 2 DECIMAL, BINARY and
 * complex types) are refused by hl_bucket_type_supported; Trino refuses
 * them too.
 */
#ifndef HL_BUCKET_H
#define HL_BUCKET_H

#include "util/error.h"
#include "util/kv.h"
#include "util/type.h"
#include "util/value.h"

#include <stddef.h>
#include <stdint.h>

/* Hive's Murmur3.hash32(data, len) (org.apache.hive.common.util.Murmur3):
 * seed 104729; the tail bytes are sign-extended as Java's byte << n does. */
int32_t hl_bucket_murmur3_32(const uint8_t *data, size_t len);

/* Whether rows can be bucketed on a column of TYPE under VERSION. */
bool hl_bucket_type_supported(const hl_type_t *type, int version);

/* The field hash of V (of TYPE, supported) under VERSION (1 or 2); NULL
 * hashes to 0. */
int32_t hl_bucket_hash_value(int version, const hl_type_t *type, const hl_value_t *v);

/* Folds one more field hash into a row hash (start from 0). */
static inline int32_t hl_bucket_hash_combine(int32_t row_hash, int32_t field_hash) {
  return (int32_t)((uint32_t)row_hash * 31u + (uint32_t)field_hash);
}

/* ObjectInspectorUtils.getBucketNumber: (hash & Integer.MAX_VALUE) % n. */
static inline int hl_bucket_number(int32_t row_hash, int n_buckets) {
  return (int)(((uint32_t)row_hash & 0x7fffffffu) % (uint32_t)n_buckets);
}

/* The bucketing version of a table from its parameters: 'bucketing_version'
 * missing means 1 (Hive's and Trino's reading of tables created before Hive
 * 3); "1" or "2" as given; anything else is an error (22023). */
hl_status_t hl_bucket_version(const hl_kv_t *params, int n_params, int *out, hl_error_t *err);

#endif
