/*
 * text_format.c -- hl_text_format_init: from a table's serde class,
 * SERDEPROPERTIES and TBLPROPERTIES to an hl_text_format_t.
 *
 * The property names and defaults are Hive's (LazySerDeParameters,
 * OpenCSVSerde, JsonSerDe), including the historical misspelling
 * "colelction.delim" that Hive itself writes for COLLECTION ITEMS
 * TERMINATED BY.  Properties that change how rows are read but that we do
 * not implement are rejected (0A000) instead of being ignored.
 */
#include "format/text/text_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define LAZY_SERDE        "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe"
#define OLD_DEFAULT_SERDE "org.apache.hadoop.hive.serde2.MetadataTypedColumnsetSerDe"
#define CSV_SERDE         "org.apache.hadoop.hive.serde2.OpenCSVSerde"
#define JSON_SERDE_HCAT   "org.apache.hive.hcatalog.data.JsonSerDe"
#define JSON_SERDE        "org.apache.hadoop.hive.serde2.JsonSerDe"
#define REGEX_SERDE       "org.apache.hadoop.hive.serde2.RegexSerDe"
#define LAZYBIN_SERDE     "org.apache.hadoop.hive.serde2.lazybinary.LazyBinarySerDe"
#define MULTI_SERDE       "org.apache.hadoop.hive.serde2.MultiDelimitSerDe"
#define MULTI_SERDE_OLD   "org.apache.hadoop.hive.contrib.serde2.MultiDelimitSerDe"

/* Hive's LazyUtils.getByte: a decimal byte number ("1" -> \001, "-1" ->
 * \377) if the text is one, else its first character.  Empty: DEF. */
static char delim_byte(const char *text, char def) {
  if (!text || !*text) return def;
  char *end = NULL;
  errno = 0;
  long v = strtol(text, &end, 10);
  if (errno == 0 && end && *end == '\0' && end != text && v >= -128 && v <= 127 && text[0] != ' ' &&
      text[0] != '\t')
    return (char)(unsigned char)(v & 0xff);
  return text[0];
}

/* OpenCSVSerde takes the first character of its properties. */
static char csv_char(const char *text, char def) {
  return text && *text ? text[0] : def;
}

static const char *prop(const hl_kv_t *serde_params, int n_serde_params, const hl_kv_t *tbl_params,
                        int n_tbl_params, const char *key) {
  const char *v = hl_kv_get(serde_params, n_serde_params, key);
  return v ? v : hl_kv_get(tbl_params, n_tbl_params, key);
}

static bool is_true(const char *v) {
  return v && (strcmp(v, "true") == 0 || strcmp(v, "TRUE") == 0 || strcmp(v, "True") == 0);
}

static hl_status_t unsupported_prop(hl_error_t *err, const char *key, const char *value) {
  return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                    "table property \"%s\" = \"%s\" is not supported", key, value);
}

/* Parses a non-negative line count property (Hive's Integer.parseInt: a
 * non-number fails the query, as does a negative count). */
static hl_status_t line_count(const char *key, const char *text, int *out, hl_error_t *err) {
  *out = 0;
  if (!text) return HL_OK;
  char *end = NULL;
  errno = 0;
  long v = strtol(text, &end, 10);
  if (end == text || *end != '\0' || errno != 0 || v < 0 || v > 1000000)
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "invalid value \"%s\" for table property \"%s\"", text, key);
  *out = (int)v;
  return HL_OK;
}

hl_status_t hl_text_format_init(hl_text_format_t *fmt, hl_arena_t *arena, const char *serde_lib,
                                const hl_kv_t *serde_params, int n_serde_params,
                                const hl_kv_t *tbl_params, int n_tbl_params, hl_error_t *err) {
  memset(fmt, 0, sizeof *fmt);
  bool multi =
      serde_lib && (strcmp(serde_lib, MULTI_SERDE) == 0 || strcmp(serde_lib, MULTI_SERDE_OLD) == 0);
  if (!serde_lib || !*serde_lib || strcmp(serde_lib, LAZY_SERDE) == 0 ||
      strcmp(serde_lib, OLD_DEFAULT_SERDE) == 0 || multi)
    fmt->kind = HL_TEXT_LAZY;
  else if (strcmp(serde_lib, CSV_SERDE) == 0)
    fmt->kind = HL_TEXT_CSV;
  else if (strcmp(serde_lib, JSON_SERDE_HCAT) == 0 || strcmp(serde_lib, JSON_SERDE) == 0)
    fmt->kind = HL_TEXT_JSON;
  else if (strcmp(serde_lib, REGEX_SERDE) == 0)
    fmt->kind = HL_TEXT_REGEX;
  else if (strcmp(serde_lib, LAZYBIN_SERDE) == 0)
    fmt->kind = HL_TEXT_LAZYBIN;
  else
    return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                      "serde \"%s\" is not supported", serde_lib);

    /* Hive hands a serde the table parameters overlaid with the serde
     * parameters, so a delimiter given in TBLPROPERTIES counts too */
#define SP(key) prop(serde_params, n_serde_params, tbl_params, n_tbl_params, key)
  /* LazySerDeParameters: fields fall back to serialization.format */
  const char *field = SP("field.delim");
  if (!field) field = SP("serialization.format");
  const char *coll = SP("colelction.delim");
  if (!coll) coll = SP("collection.delim");
  fmt->separators[0] = delim_byte(field, '\001');
  fmt->separators[1] = delim_byte(coll, '\002');
  fmt->separators[2] = delim_byte(SP("mapkey.delim"), '\003');
  if (multi) {                 /* Hive's MultiDelimitSerDe: the literal field.delim string,
                                * and collection.delim in its right spelling only */
    field = SP("field.delim"); /* never serialization.format */
    if (!field || !*field)
      return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                        "MultiDelimitSerDe table has no serde property \"field.delim\"");
    if (!(fmt->multi_delim = hl_arena_strdup(arena, field))) return hl_err_nomem(err);
    fmt->multi_len = strlen(field);
    fmt->separators[0] = field[0];
    fmt->separators[1] = delim_byte(SP("collection.delim"), '\002');
  }
  for (int level = 3; level < 8; level++)
    fmt->separators[level] = (char)(level + 1);

  const char *esc = SP("escape.delim");
  fmt->has_escape = esc != NULL;
  fmt->escape = delim_byte(esc, '\\');

  /* Hive's DDL allows only '\n' for LINES TERMINATED BY */
  const char *line = SP("line.delim");
  fmt->line_delim = '\n';
  if (line && delim_byte(line, '\n') != '\n') return unsupported_prop(err, "line.delim", line);

  const char *null_format = SP("serialization.null.format");
  fmt->null_string = hl_arena_strdup(arena, null_format ? null_format : "\\N");
  if (!fmt->null_string) return hl_err_nomem(err);

  const char *takes_rest = SP("serialization.last.column.takes.rest");
  if (fmt->kind == HL_TEXT_LAZY && is_true(takes_rest))
    return unsupported_prop(err, "serialization.last.column.takes.rest", takes_rest);
  const char *encoding = SP("serialization.encoding");
  if (encoding && strcasecmp(encoding, "UTF-8") != 0 && strcasecmp(encoding, "UTF8") != 0)
    return unsupported_prop(err, "serialization.encoding", encoding);

  fmt->csv_separator = csv_char(SP("separatorChar"), ',');
  fmt->csv_quote = csv_char(SP("quoteChar"), '"');
  fmt->csv_escape = csv_char(SP("escapeChar"), '\\');

  if (fmt->kind == HL_TEXT_JSON) {
    const char *ts_formats = SP("timestamp.formats");
    if (ts_formats && *ts_formats) return unsupported_prop(err, "timestamp.formats", ts_formats);
  }
  if (fmt->kind == HL_TEXT_REGEX) { /* Hive: SerDeException at initialize */
    const char *regex = SP("input.regex");
    if (!regex)
      return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                        "RegexSerDe table has no serde property \"input.regex\"");
    if (!(fmt->input_regex = hl_arena_strdup(arena, regex))) return hl_err_nomem(err);
    const char *icase = SP("input.regex.case.insensitive");
    fmt->regex_icase = icase && strcasecmp(icase, "true") == 0;
  }
  const char *header = SP("skip.header.line.count");
  hl_status_t st = line_count("skip.header.line.count", header, &fmt->skip_header_lines, err);
  if (st != HL_OK) return st;
  int footer = 0;
  const char *footer_text = SP("skip.footer.line.count");
  st = line_count("skip.footer.line.count", footer_text, &footer, err);
  if (st != HL_OK) return st;
  if (footer > 0) return unsupported_prop(err, "skip.footer.line.count", footer_text);
#undef SP
  return HL_OK;
}

hl_status_t hl_text_format_writable(const hl_text_format_t *fmt, hl_error_t *err) {
  if (fmt->kind != HL_TEXT_REGEX) return HL_OK;
  return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                    "serde \"" REGEX_SERDE "\" is read-only: Hive's RegexSerDe cannot write rows");
}
