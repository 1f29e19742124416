/*
 * java_bits.h -- the Java conversions Hive applies to a value before it
 * hashes it into a sketch or a filter (util/hive_hll.c, hive_fm.c,
 * hive_bloom.c, exec/op_agg_approx.c), kept in one place so that every
 * sketch hashes a DOUBLE or a TIMESTAMP the same way.
 */
#ifndef HL_UTIL_JAVA_BITS_H
#define HL_UTIL_JAVA_BITS_H

#include <stdint.h>
#include <string.h>

/* Double.doubleToLongBits: the IEEE bits, every NaN the canonical one. */
static inline int64_t hl_java_double_bits(double d) {
  int64_t bits = 0x7ff8000000000000ll;
  if (d == d) memcpy(&bits, &d, sizeof bits);
  return bits;
}

/* Timestamp.toEpochMilli of a timestamp held in microseconds: floored. */
static inline int64_t hl_java_epoch_millis(int64_t micros) {
  return micros / 1000 - (micros % 1000 < 0);
}

#endif
