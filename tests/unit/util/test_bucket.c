/*
 * test_bucket.c -- Hive bucket hashing (src/exec/bucket.c), versions 1 and 2,
 * against the expected hashes published in Trino's TestHiveBucketing
 * (plugin/trino-hive/src/test/java/io/trino/plugin/hive/util/
 * TestHiveBucketing.java, testHashingCompare and
 * testBucketFilterFromDiscreteSets), which that test checks against Hive's
 * own ObjectInspectorUtils.getBucketHashCode[Old]; version 1 DECIMAL against
 * Spark's Hive-compatible hash tests.
 */
#include "util/bucket.h"
#include "test.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

static hl_value_t ival(int64_t i) {
  hl_value_t v = {.is_null = false};
  v.u.i = i;
  return v;
}

static hl_value_t dval(double d) {
  hl_value_t v = {.is_null = false};
  v.u.d = d;
  return v;
}

static hl_value_t sval(const char *s) {
  hl_value_t v = {.is_null = false};
  v.u.s.ptr = s;
  v.u.s.len = (uint32_t)strlen(s);
  return v;
}

static hl_type_t ty(hl_type_id_t id) {
  hl_type_t t = {.id = id, .length = id == HL_T_VARCHAR || id == HL_T_CHAR ? 15 : 0};
  return t;
}

/* the hash of one value in both versions */
#define CHECK_HASH(id, val, v1, v2)                                                                \
  do {                                                                                             \
    hl_type_t t_ = ty(id);                                                                         \
    hl_value_t x_ = (val);                                                                         \
    CHECK(hl_bucket_type_supported(&t_, 1) && hl_bucket_type_supported(&t_, 2));                   \
    CHECK_INT(hl_bucket_hash_value(1, &t_, &x_), (int32_t)(v1));                                   \
    CHECK_INT(hl_bucket_hash_value(2, &t_, &x_), (int32_t)(v2));                                   \
  } while (0)

TEST(nulls_and_booleans) {
  hl_value_t null = {.is_null = true};
  hl_type_id_t ids[] = {HL_T_BOOLEAN, HL_T_TINYINT, HL_T_SMALLINT, HL_T_INT,  HL_T_BIGINT,
                        HL_T_FLOAT,   HL_T_DOUBLE,  HL_T_STRING,   HL_T_DATE, HL_T_VARCHAR};
  for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
    CHECK_HASH(ids[i], null, 0, 0);
  hl_value_t t = {.is_null = false}, f = {.is_null = false};
  t.u.b = true;
  f.u.b = false;
  CHECK_HASH(HL_T_BOOLEAN, t, 1, 1);
  CHECK_HASH(HL_T_BOOLEAN, f, 0, 0);
}

TEST(integers) {
  CHECK_HASH(HL_T_TINYINT, ival(5), 5, 5);
  CHECK_HASH(HL_T_TINYINT, ival(-128), -128, -128);
  CHECK_HASH(HL_T_TINYINT, ival(127), 127, 127);
  CHECK_HASH(HL_T_SMALLINT, ival(300), 300, 2107031704);
  CHECK_HASH(HL_T_SMALLINT, ival(-32768), -32768, 1342976838);
  CHECK_HASH(HL_T_SMALLINT, ival(32767), 32767, -684075052);
  CHECK_HASH(HL_T_INT, ival(300000), 300000, -678663480);
  CHECK_HASH(HL_T_INT, ival(INT32_MIN), INT32_MIN, 1194881028);
  CHECK_HASH(HL_T_INT, ival(INT32_MAX), INT32_MAX, 1133859967);
  CHECK_HASH(HL_T_BIGINT, ival(300000000000LL), -647710651, -888935297);
  CHECK_HASH(HL_T_BIGINT, ival(INT64_MIN), INT32_MIN, 1728983947);
  CHECK_HASH(HL_T_BIGINT, ival(INT64_MAX), INT32_MIN, -536577852);
}

TEST(floats) {
  CHECK_HASH(HL_T_FLOAT, dval((double)12.34f), 1095069860, -381747602);
  CHECK_HASH(HL_T_FLOAT, dval((double)-FLT_MAX), -8388609, 470252243);
  CHECK_HASH(HL_T_FLOAT, dval((double)1.4e-45f), 1, 1206721797); /* Float.MIN_VALUE */
  CHECK_HASH(HL_T_FLOAT, dval(INFINITY), 2139095040, -292175804);
  CHECK_HASH(HL_T_FLOAT, dval(-INFINITY), -8388608, -1433270801);
  CHECK_HASH(HL_T_FLOAT, dval(NAN), 2143289344, -480354314);
  CHECK_HASH(HL_T_FLOAT, dval(-NAN), 2143289344, -480354314);
  CHECK_HASH(HL_T_DOUBLE, dval(12.34), 986311098, -2070733568);
  CHECK_HASH(HL_T_DOUBLE, dval(-DBL_MAX), 1048576, 14392725);
  CHECK_HASH(HL_T_DOUBLE, dval(4.9e-324), 1, -8838199); /* Double.MIN_VALUE */
  CHECK_HASH(HL_T_DOUBLE, dval(INFINITY), 2146435072, 1614292060);
  CHECK_HASH(HL_T_DOUBLE, dval(-INFINITY), -1048576, 141388605);
  CHECK_HASH(HL_T_DOUBLE, dval(NAN), 2146959360, 1138026565);
  CHECK_HASH(HL_T_DOUBLE, dval(-NAN), 2146959360, 1138026565);
}

/* "\u5f3a\u5927\u7684Trino\u5f15\u64ce" and U+20FFC..U+20FFF in UTF-8 */
#define CJK    "\xe5\xbc\xba\xe5\xa4\xa7\xe7\x9a\x84Trino\xe5\xbc\x95\xe6\x93\x8e"
#define PLANE2 "\xf0\xa0\xbf\xbc\xf0\xa0\xbf\xbd\xf0\xa0\xbf\xbe\xf0\xa0\xbf\xbf"

TEST(strings) {
  CHECK_HASH(HL_T_VARCHAR, sval(""), 1, -965378730);
  CHECK_HASH(HL_T_VARCHAR, sval("test string"), -189841218, -138301454);
  CHECK_HASH(HL_T_VARCHAR, sval(CJK), 1899852420, 1784416344);
  CHECK_HASH(HL_T_VARCHAR, sval(PLANE2), -457487557, -697348811);
  CHECK_HASH(HL_T_STRING, sval(""), 0, -965378730);
  CHECK_HASH(HL_T_STRING, sval("test string"), -318923937, -138301454);
  CHECK_HASH(HL_T_STRING, sval(CJK), 1688501507, 1784416344);
  CHECK_HASH(HL_T_STRING, sval(PLANE2), -1810797254, -697348811);
  CHECK_HASH(HL_T_STRING, sval("Trino rocks"), 1132136730, -399107423);
  CHECK_INT(hl_bucket_number(1132136730, 4), 2);
  CHECK_INT(hl_bucket_number(-399107423, 4), 1);
  /* CHAR hashes its value without the padding, as VARCHAR does (Hive's
   * HiveCharWritable.hashCode / getStrippedValue) */
  CHECK_HASH(HL_T_CHAR, sval("test string    "), -189841218, -138301454);
  CHECK_HASH(HL_T_CHAR, sval("   "), 1, -965378730);
}

TEST(dates) {
  CHECK_HASH(HL_T_DATE, ival(0), 0, 1362653161);
  CHECK_HASH(HL_T_DATE, ival(16758), 16758, 8542395);    /* 2015-11-19 */
  CHECK_HASH(HL_T_DATE, ival(-6983), -6983, -431619185); /* 1950-11-19 */
}

/* testBucketFilterFromDiscreteSets: (int, tinyint) in {1, 10} x {5, 6},
 * 8 buckets: version 1 buckets {3, 4, 5}, version 2 {0, 1, 5, 6} */
TEST(two_columns) {
  hl_type_t ti = ty(HL_T_INT), tt = ty(HL_T_TINYINT);
  for (int version = 1; version <= 2; version++) {
    bool seen[8] = {false};
    int64_t a[] = {1, 10}, b[] = {5, 6};
    for (int i = 0; i < 2; i++)
      for (int j = 0; j < 2; j++) {
        hl_value_t va = ival(a[i]), vb = ival(b[j]);
        int32_t h = hl_bucket_hash_combine(0, hl_bucket_hash_value(version, &ti, &va));
        h = hl_bucket_hash_combine(h, hl_bucket_hash_value(version, &tt, &vb));
        seen[hl_bucket_number(h, 8)] = true;
      }
    const char *expect = version == 1 ? "00011100" : "11000110";
    for (int k = 0; k < 8; k++)
      CHECK_INT(seen[k], expect[k] == '1');
  }
}

/* 1, 2, 500 and 997 buckets agree with Java's (h & MAX_VALUE) % n */
TEST(bucket_numbers) {
  CHECK_INT(hl_bucket_number(-1, 1), 0);
  CHECK_INT(hl_bucket_number(INT32_MIN, 2), 0);
  CHECK_INT(hl_bucket_number(-138301454, 500), (-138301454 & 0x7fffffff) % 500);
  CHECK_INT(hl_bucket_number(-138301454, 997), 2009182194 % 997);
}

/* Version 1 DECIMAL against Spark's HiveHash (sql/catalyst
 * HashExpressionsSuite, "hive-hash for decimal"): the input rounded half up
 * to DECIMAL(38, scale), hashed as Hive's BigDecimal without trailing zeros */
static void check_decimal(const char *text, int scale, int32_t expect) {
  hl_type_t t = {.id = HL_T_DECIMAL, .precision = 38, .scale = scale};
  hl_value_t v = {.is_null = false};
  CHECK_INT(hl_parse_decimal(text, strlen(text), 38, scale, &v.u.dec), 0);
  CHECK(hl_bucket_type_supported(&t, 1));
  CHECK(!hl_bucket_type_supported(&t, 2));
  int32_t got = hl_bucket_hash_value(1, &t, &v);
  if (got != expect) fprintf(stderr, "decimal %s scale %d\n", text, scale);
  CHECK_INT(got, expect);
}

TEST(decimals_v1) {
  static const struct {
    const char *text;
    int scale;
    int32_t hash;
  } cases[] = {
      {"18", 0, 558},
      {"-18", 0, -558},
      {"-18", 12, -558},
      {"-18446744073709001000", 3, 17070057},
      {"18446744073709001000", 4, -17070057},
      {"9223372036854775807", 4, 2147482656},
      {"-9223372036854775807", 5, -2147482656},
      {"00000.00000000000", 34, 0},
      {"-00000.00000000000", 11, 0},
      {"123456.1234567890", 2, 382713974},
      {"123456.1234567890", 20, 1871500252},
      {"123456.1234567890", 10, 1871500252},
      {"-123456.1234567890", 10, -1871500234},
      {"123456.1234567890", 0, 3827136},
      {"-123456.1234567890", 0, -3827136},
      {"-123456.1234567890", 20, -1871500234},
      {"123456.123456789012345678901234567890", 0, 3827136},
      {"-123456.123456789012345678901234567890", 0, -3827136},
      {"123456.123456789012345678901234567890", 10, 1871500252},
      {"-123456.123456789012345678901234567890", 10, -1871500234},
      {"123456.123456789012345678901234567890", 20, 236317582},
      {"-123456.123456789012345678901234567890", 20, -236317544},
      {"123456.123456789012345678901234567890", 30, 1728235666},
      {"-123456.123456789012345678901234567890", 30, -1728235608},
      {"123456.123456789012345678901234567890", 31, 1728235666},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    check_decimal(cases[i].text, cases[i].scale, cases[i].hash);
}

TEST(refused_types) {
  hl_type_id_t ids[] = {HL_T_TIMESTAMP, HL_T_BINARY, HL_T_ARRAY, HL_T_MAP, HL_T_STRUCT};
  for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
    hl_type_t t = ty(ids[i]);
    CHECK(!hl_bucket_type_supported(&t, 1));
    CHECK(!hl_bucket_type_supported(&t, 2));
  }
}

TEST(version_property) {
  hl_kv_t kv[1] = {{(char *)"bucketing_version", (char *)"2"}};
  hl_error_t err;
  hl_err_init(&err);
  int v = 0;
  CHECK_INT(hl_bucket_version(NULL, 0, &v, &err), HL_OK);
  CHECK_INT(v, 1);
  CHECK_INT(hl_bucket_version(kv, 1, &v, &err), HL_OK);
  CHECK_INT(v, 2);
  kv[0].value = (char *)"1";
  CHECK_INT(hl_bucket_version(kv, 1, &v, &err), HL_OK);
  CHECK_INT(v, 1);
  kv[0].value = (char *)"3";
  CHECK_INT(hl_bucket_version(kv, 1, &v, &err), HL_ERROR);
  CHECK_STR(err.sqlstate, "22023");
  hl_err_clear(&err);
}

int main(void) {
  RUN(nulls_and_booleans);
  RUN(integers);
  RUN(floats);
  RUN(strings);
  RUN(dates);
  RUN(two_columns);
  RUN(bucket_numbers);
  RUN(decimals_v1);
  RUN(refused_types);
  RUN(version_property);
  return test_report();
}
