/*
 * bucket.c -- Hive's bucket hash functions, version 1 and 2 (bucket.h).
 *
 * Sources (read for the facts, not copied): Apache Hive
 * serde/.../objectinspector/ObjectInspectorUtils.java (hashCode,
 * hashCodeMurmur, getBucketHashCode[Old], getBucketNumber),
 * storage-api/.../hive/common/util/Murmur3.java, HiveCharWritable.hashCode
 * and Hadoop's Text.hashCode (WritableComparator.hashBytes); Trino
 * plugin/trino-hive/.../util/HiveBucketingV1.java and HiveBucketingV2.java.
 *
 * Per type, for a non-NULL value (NULL is 0 in both versions):
 *
 *   type      version 1                          version 2
 *   BOOLEAN   1 / 0                              1 / 0
 *   TINYINT   the value                          the value (no Murmur3)
 *   SMALLINT  the value                          murmur(2 bytes big-endian)
 *   INT       the value                          murmur(4 bytes big-endian)
 *   BIGINT    (int)(v ^ (v >>> 32))              murmur(8 bytes big-endian)
 *   FLOAT     floatToIntBits                     murmur(4 bytes of the float
 *                                                (float) floatToIntBits(v))
 *   DOUBLE    (int)(b ^ (b >>> 32)), b =         murmur(8 bytes of the double
 *             doubleToLongBits                   (double) doubleToLongBits(v))
 *   STRING    h = 0; h = 31 h + (signed) byte    murmur(UTF-8 bytes)
 *   VARCHAR   h = 1; h = 31 h + (signed) byte    murmur(UTF-8 bytes)
 *             (Text.hashCode)
 *   CHAR      as VARCHAR, trailing blanks        murmur(bytes without trailing
 *             stripped (HiveCharWritable)        blanks)
 *   DATE      days since 1970-01-01              murmur(4 bytes of the days)
 *   DECIMAL   BigDecimal.hashCode of the value   (refused, see below)
 *             without trailing zeros: 31 *
 *             BigInteger.hashCode(unscaled) + scale
 *
 * floatToIntBits / doubleToLongBits turn every NaN into the canonical one
 * (0x7fc00000 / 0x7ff8000000000000).  Hive also hashes TIMESTAMP (v1: the
 * old TimestampWritable.hashCode of the value re-read in the JVM's time
 * zone; v2: Murmur3 of the TimestampWritableV2 serialized bytes) and DECIMAL
 * in version 2 (Murmur3 of HiveDecimalWritable.getInternalStorage(), the
 * unscaled BigInteger.toByteArray() without trailing zeros); no published
 * expected values exist for those (Trino does not bucket on them), so they
 * are refused rather than guessed.  Version 1 DECIMAL is checked against
 * the values Spark publishes for its Hive-compatible hash
 * (HashExpressionsSuite, "hive-hash for decimal").
 */
#include "util/bucket.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------ Murmur3 */

#define M3_C1   0xcc9e2d51u
#define M3_C2   0x1b873593u
#define M3_SEED 104729u /* Murmur3.DEFAULT_SEED */

static uint32_t rotl32(uint32_t x, int r) {
  return (x << r) | (x >> (32 - r));
}

static uint32_t mix_k(uint32_t k) {
  k *= M3_C1;
  k = rotl32(k, 15);
  return k * M3_C2;
}

/* Java's (int) of a byte: sign-extended. */
static uint32_t jbyte(uint8_t b) {
  return (uint32_t)(int32_t)(int8_t)b;
}

int32_t hl_bucket_murmur3_32(const uint8_t *data, size_t len) {
  uint32_t h = M3_SEED;
  size_t n_blocks = len / 4;
  for (size_t i = 0; i < n_blocks; i++) {
    const uint8_t *p = data + i * 4;
    uint32_t k = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    h ^= mix_k(k);
    h = rotl32(h, 13) * 5u + 0xe6546b64u;
  }
  /* the tail as Hive's Java code has it: k1 ^= data[i] << n with a signed
   * byte, so a byte >= 0x80 sets every bit above its own */
  const uint8_t *tail = data + n_blocks * 4;
  uint32_t k1 = 0;
  switch (len & 3) {
  case 3:
    k1 ^= jbyte(tail[2]) << 16;
    /* fall through */
  case 2:
    k1 ^= jbyte(tail[1]) << 8;
    /* fall through */
  case 1:
    k1 ^= jbyte(tail[0]);
    h ^= mix_k(k1);
    break;
  default:
    break;
  }
  h ^= (uint32_t)len;
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return (int32_t)h;
}

static int32_t murmur_be(uint64_t v, int nbytes) {
  uint8_t b[8];
  for (int i = 0; i < nbytes; i++)
    b[i] = (uint8_t)(v >> (8 * (nbytes - 1 - i)));
  return hl_bucket_murmur3_32(b, (size_t)nbytes);
}

/* ------------------------------------------------------------ fields */

static uint32_t float_bits(double d) {
  float f = (float)d;
  if (isnan(f)) return 0x7fc00000u;
  uint32_t bits;
  memcpy(&bits, &f, sizeof bits);
  return bits;
}

static uint64_t double_bits(double d) {
  if (isnan(d)) return 0x7ff8000000000000ull;
  uint64_t bits;
  memcpy(&bits, &d, sizeof bits);
  return bits;
}

static int32_t fold64(uint64_t v) {
  return (int32_t)(uint32_t)(v ^ (v >> 32));
}

static int32_t java_bytes_hash(uint32_t h, const char *s, size_t len) {
  for (size_t i = 0; i < len; i++)
    h = h * 31u + jbyte((uint8_t)s[i]);
  return (int32_t)h;
}

/* Version 1 DECIMAL: Hive's HiveDecimal keeps no trailing fractional zeros
 * and hashes as java.math.BigDecimal: 31 * unscaled.hashCode() + scale,
 * where BigInteger.hashCode folds the magnitude's 32-bit words, most
 * significant first, as h = 31 * h + word, then multiplies by the sign. */
static int32_t decimal_hash_v1(__int128 v, int scale) {
  while (scale > 0 && v % 10 == 0) {
    v /= 10;
    scale--;
  }
  if (v == 0) return 0; /* BigDecimal.ZERO: 31 * 0 + 0 */
  int sign = v < 0 ? -1 : 1;
  unsigned __int128 mag = v < 0 ? -(unsigned __int128)v : (unsigned __int128)v;
  uint32_t words[4];
  int n = 0;
  for (; mag; mag >>= 32)
    words[n++] = (uint32_t)mag;
  uint32_t h = 0;
  while (n > 0)
    h = h * 31u + words[--n];
  if (sign < 0) h = 0u - h;
  return (int32_t)(h * 31u + (uint32_t)scale);
}

bool hl_bucket_type_supported(const hl_type_t *type, int version) {
  switch (type->id) {
  case HL_T_DECIMAL:
    return version == 1;
  case HL_T_BOOLEAN:
  case HL_T_TINYINT:
  case HL_T_SMALLINT:
  case HL_T_INT:
  case HL_T_BIGINT:
  case HL_T_FLOAT:
  case HL_T_DOUBLE:
  case HL_T_STRING:
  case HL_T_VARCHAR:
  case HL_T_CHAR:
  case HL_T_DATE:
    return true;
  default:
    return false;
  }
}

int32_t hl_bucket_hash_value(int version, const hl_type_t *type, const hl_value_t *v) {
  if (v->is_null) return 0;
  bool v2 = version == 2;
  switch (type->id) {
  case HL_T_BOOLEAN:
    return v->u.b ? 1 : 0;
  case HL_T_TINYINT:
    return (int32_t)v->u.i;
  case HL_T_SMALLINT:
    return v2 ? murmur_be((uint64_t)v->u.i, 2) : (int32_t)v->u.i;
  case HL_T_INT:
  case HL_T_DATE:
    return v2 ? murmur_be((uint64_t)v->u.i, 4) : (int32_t)v->u.i;
  case HL_T_DECIMAL:
    return v2 ? 0 : decimal_hash_v1(v->u.dec, type->scale);
  case HL_T_BIGINT:
    return v2 ? murmur_be((uint64_t)v->u.i, 8) : fold64((uint64_t)v->u.i);
  case HL_T_FLOAT:
    /* Hive's putFloat(floatToIntBits(f)) converts the int bits to a float
     * *value* and hashes that float's bits (Trino's "Sic!") */
    return v2 ? murmur_be(float_bits((double)(float)(int32_t)float_bits(v->u.d)), 4)
              : (int32_t)float_bits(v->u.d);
  case HL_T_DOUBLE:
    /* likewise putDouble(doubleToLongBits(d)): the long as a double value */
    return v2 ? murmur_be(double_bits((double)(int64_t)double_bits(v->u.d)), 8)
              : fold64(double_bits(v->u.d));
  case HL_T_STRING:
  case HL_T_VARCHAR:
  case HL_T_CHAR: {
    size_t len = v->u.s.len;
    if (type->id == HL_T_CHAR)
      while (len > 0 && v->u.s.ptr[len - 1] == ' ')
        len--;
    if (v2) return hl_bucket_murmur3_32((const uint8_t *)v->u.s.ptr, len);
    return java_bytes_hash(type->id == HL_T_STRING ? 0u : 1u, v->u.s.ptr, len);
  }
  default:
    return 0; /* refused earlier by hl_bucket_type_supported */
  }
}

/* ------------------------------------------------------------ version */

hl_status_t hl_bucket_version(const hl_kv_t *params, int n_params, int *out, hl_error_t *err) {
  const char *v = hl_kv_get(params, n_params, "bucketing_version");
  if (!v || strcmp(v, "1") == 0) {
    *out = 1;
    return HL_OK;
  }
  if (strcmp(v, "2") == 0) {
    *out = 2;
    return HL_OK;
  }
  return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                    "invalid bucketing_version \"%s\" (expected 1 or 2)", v);
}
