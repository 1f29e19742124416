/*
 * orc_options.c -- ORC write options from a table's TBLPROPERTIES
 * (hl_orc_write_options_init of orc.h).
 *
 * Property names and defaults are those of ORC's Java writer as Hive uses
 * it (OrcConf).  A property that would change the file and that this
 * writer does not implement is refused (0A000) rather than ignored.
 */
#include "format/orc/orc.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Properties this writer implements, and those accepted although they do
 * not change what is written: HDFS block padding does not apply, the
 * strategies are tuning hints and the bloom filter fpp only matters with
 * bloom filter columns (which are refused). */
static const char *const accepted[] = {
    "orc.row.index.stride",
    "orc.create.index",
    "orc.block.padding",
    "orc.block.size",
    "orc.encoding.strategy",
    "orc.compression.strategy",
    "orc.bloom.filter.fpp",
    "orc.write.format",
    "orc.padding.tolerance",
    "orc.compress",
    "orc.compress.size",
    "orc.stripe.size",
    "orc.dictionary.key.threshold",
    "orc.column.encoding.direct",
};

/* A plain decimal number (no sign, no blanks) that fits in 64 bits. */
static bool parse_u64(const char *s, uint64_t *out) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (!isdigit((unsigned char)*s) || *end || errno) return false;
  *out = v;
  return true;
}

static hl_status_t bad_value(const char *key, const char *value, hl_error_t *err) {
  return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                    "invalid value for \"%s\": \"%s\"", key, value);
}

static hl_status_t size_prop(const hl_kv_t *params, int n_params, const char *key, uint64_t lo,
                             uint64_t hi, uint64_t *out, hl_error_t *err) {
  const char *s = hl_kv_get(params, n_params, key);
  uint64_t v;
  if (!s) return HL_OK;
  if (!parse_u64(s, &v) || v < lo || v > hi) return bad_value(key, s, err);
  *out = v;
  return HL_OK;
}

static hl_status_t check_codec(hl_orc_write_options_t *opts, const char *s, hl_error_t *err) {
  static const struct {
    const char *name;
    hl_orc_codec_t codec;
  } names[] = {{"NONE", HL_ORC_NONE},
               {"ZLIB", HL_ORC_ZLIB},
               {"SNAPPY", HL_ORC_SNAPPY},
               {"ZSTD", HL_ORC_ZSTD},
               {"LZ4", HL_ORC_LZ4}};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strcasecmp(s, names[i].name) == 0) {
      opts->codec = names[i].codec;
      return HL_OK;
    }
  if (strcasecmp(s, "LZO") == 0)
    return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                      "writing ORC files with orc.compress \"LZO\" is not supported");
  return bad_value("orc.compress", s, err);
}

hl_status_t hl_orc_write_options_init(hl_orc_write_options_t *opts, const hl_kv_t *params,
                                      int n_params, hl_error_t *err) {
  memset(opts, 0, sizeof *opts);
  opts->codec = HL_ORC_ZLIB;
  opts->compress_size = HL_ORC_COMPRESS_SIZE;
  opts->stripe_size = HL_ORC_STRIPE_SIZE;
  opts->dict_threshold = HL_ORC_DICT_THRESHOLD;
  opts->row_index_stride = HL_ORC_ROW_INDEX_STRIDE;
  opts->direct_columns = hl_kv_get(params, n_params, "orc.column.encoding.direct");
  /* Hive's transactional ORC tables hold ACID files (base_N/delta_N
   * directories, rows wrapped in the ACID struct), not plain ORC files */
  const char *acid = hl_kv_get(params, n_params, "transactional");
  if (acid && strcasecmp(acid, "true") == 0)
    return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                      "writing transactional (ACID) ORC tables is not supported");
  for (int i = 0; params && i < n_params; i++) {
    const char *key = params[i].key;
    if (strncasecmp(key, "orc.", 4) != 0) continue;
    size_t k;
    for (k = 0; k < sizeof accepted / sizeof accepted[0]; k++)
      if (strcmp(key, accepted[k]) == 0) break;
    if (k == sizeof accepted / sizeof accepted[0])
      return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                        "table property \"%s\" is not supported for ORC writes", key);
  }
  uint64_t stride = HL_ORC_ROW_INDEX_STRIDE;
  const char *s = hl_kv_get(params, n_params, "orc.compress");
  hl_status_t st = s ? check_codec(opts, s, err) : HL_OK;
  if (st == HL_OK)
    st = size_prop(params, n_params, "orc.compress.size", 1, HL_ORC_MAX_CHUNK, &opts->compress_size,
                   err);
  if (st == HL_OK)
    st = size_prop(params, n_params, "orc.stripe.size", 1, UINT64_MAX, &opts->stripe_size, err);
  if (st == HL_OK)
    st = size_prop(params, n_params, "orc.row.index.stride", 0, UINT32_MAX, &stride, err);
  if (st != HL_OK) return st;
  opts->row_index_stride = (uint32_t)stride;
  s = hl_kv_get(params, n_params, "orc.create.index");
  if (s && strcasecmp(s, "false") == 0)
    opts->row_index_stride = 0;
  else if (s && strcasecmp(s, "true") != 0)
    return bad_value("orc.create.index", s, err);
  s = hl_kv_get(params, n_params, "orc.write.format");
  if (s && strcmp(s, "0.12") != 0)
    return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                      "orc.write.format \"%s\" is not supported (only 0.12)", s);
  s = hl_kv_get(params, n_params, "orc.dictionary.key.threshold");
  if (s) {
    char *end;
    double d = strtod(s, &end);
    if (end == s || *end || !(d >= 0 && d <= 1))
      return bad_value("orc.dictionary.key.threshold", s, err);
    opts->dict_threshold = d;
  }
  return HL_OK;
}
