/*
 * func_xpath.c -- Hive's XPath functions (org.apache.hadoop.hive.ql.udf.xml):
 * xpath, xpath_string, xpath_boolean, xpath_number / xpath_double,
 * xpath_float, xpath_long, xpath_int, xpath_short, over libxml2 (XPath 1.0,
 * as Java's javax.xml.xpath that Hive uses).
 *
 * As Hive's UDFXPathUtil: an empty document or path gives NULL (xpath: an
 * empty array), a path that does not compile gives NULL, a document that
 * does not parse fails the statement (22P02 here).  xpath lists the values
 * of the selected nodes that have one (text and attribute nodes; an
 * element's value is null in the DOM, so elements are skipped); the
 * numeric forms convert the XPath number as Java's Double.intValue() etc.
 * do: NaN is 0, out of range saturates (xpath_short truncates the int to
 * 16 bits, as Java's shortValue).
 *
 * The input is untrusted: documents parse without network access, DTD
 * loading or entity substitution (libxml2's entity amplification limits
 * stay on), documents over HL_XPATH_MAX_DOC bytes are refused, and the
 * evaluation of one path stops after HL_XPATH_MAX_OPS steps.  libxml2
 * reports nothing on stderr: parse errors are suppressed by option, XPath
 * errors by a per-context handler.  Fuzzed: tests/fuzz/fuzz_funcs.c.
 */
#include "vector/func_int.h"

#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
#include <math.h>
#include <pthread.h>
#include <string.h>

#define HL_XPATH_MAX_DOC (16u << 20) /* bytes of one document */
#define HL_XPATH_MAX_OPS 10000000ul  /* XPath steps of one evaluation */

/* libxml2 sets up its own tables on first use, which is not thread-safe
 * before it has once run (xmlInitParser's documented contract); scan
 * threads evaluate functions in parallel. */
static pthread_once_t xml_once = PTHREAD_ONCE_INIT;

static void xml_init(void) {
  xmlInitParser();
}

static void quiet(void *ctx, xmlErrorPtr e) {
  (void)ctx;
  (void)e;
}

/* The evaluation of PATH over document XML: *RES NULL (and *DOC NULL)
 * when Hive answers NULL (empty document or path, a path that does not
 * compile); the caller frees RES with xmlXPathFreeObject and DOC with
 * xmlFreeDoc. */
static hl_status_t evaluate(const hl_expr_t *call, const hl_value_t *a, hl_arena_t *arena,
                            xmlDocPtr *doc, xmlXPathObjectPtr *res, hl_error_t *err) {
  *doc = NULL;
  *res = NULL;
  hl_str_t xml = a[0].u.s, path = a[1].u.s;
  if (xml.len == 0 || path.len == 0) return HL_OK;
  if (xml.len > HL_XPATH_MAX_DOC)
    return hl_err_set_at(err, call->pos, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                         "an XML document of %u bytes is over the limit of %u", xml.len,
                         HL_XPATH_MAX_DOC);
  char *p = hl_arena_strndup(arena, path.ptr, path.len);
  if (!p) return hl_err_nomem(err);
  pthread_once(&xml_once, xml_init);
  *doc = xmlReadMemory(xml.ptr, (int)xml.len, NULL, NULL,
                       XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  if (!*doc)
    return hl_err_set_at(err, call->pos, HL_ERROR, HL_SS(INVALID_TEXT_REPRESENTATION),
                         "the XML document of %s does not parse", call->fn->name);
  xmlXPathContextPtr ctx = xmlXPathNewContext(*doc);
  if (!ctx) {
    xmlFreeDoc(*doc);
    *doc = NULL;
    return hl_err_nomem(err);
  }
  /* relative paths start at the document, as Java evaluates them */
  ctx->node = (xmlNodePtr)*doc;
  ctx->error = quiet;
  ctx->opLimit = HL_XPATH_MAX_OPS;
  *res = xmlXPathEvalExpression((const xmlChar *)p, ctx);
  bool over = ctx->opCount >= ctx->opLimit; /* libxml2 sets it to the limit when hit */
  xmlXPathFreeContext(ctx);
  if (!over) return HL_OK;
  /* an evaluation stopped at the limit is no answer: not a silent NULL */
  xmlXPathFreeObject(*res);
  *res = NULL;
  xmlFreeDoc(*doc);
  *doc = NULL;
  return hl_err_set_at(err, call->pos, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                       "the XPath expression of %s took more than %lu steps", call->fn->name,
                       HL_XPATH_MAX_OPS);
}

HL_FN(hl_fn_xpath) {
  out->is_null = true;
  if (a[0].is_null || a[1].is_null) return HL_OK;
  xmlDocPtr doc;
  xmlXPathObjectPtr res;
  hl_status_t rc = evaluate(call, a, arena, &doc, &res, err);
  if (rc != HL_OK) return rc;
  out->is_null = false;
  out->u.list.n = 0;
  out->u.list.items = NULL;
  xmlNodeSetPtr ns = res && res->type == XPATH_NODESET ? res->nodesetval : NULL;
  int n = ns ? ns->nodeNr : 0;
  hl_value_t *items = hl_arena_alloc(arena, sizeof(hl_value_t) * (size_t)(n ? n : 1));
  if (!items) rc = hl_err_nomem(err);
  for (int i = 0; rc == HL_OK && i < n; i++) {
    xmlNodePtr node = ns->nodeTab[i];
    /* the DOM's getNodeValue: text-like and attribute nodes only */
    if (node->type != XML_TEXT_NODE && node->type != XML_CDATA_SECTION_NODE &&
        node->type != XML_ATTRIBUTE_NODE && node->type != XML_COMMENT_NODE &&
        node->type != XML_PI_NODE)
      continue;
    xmlChar *v = xmlNodeGetContent(node);
    if (!v) continue;
    size_t len = strlen((const char *)v);
    hl_value_t *it = &items[out->u.list.n];
    memset(it, 0, sizeof *it);
    char *s = hl_fn_alloc_str(it, arena, len);
    if (s && len) memcpy(s, v, len);
    xmlFree(v);
    if (!s)
      rc = hl_err_nomem(err);
    else
      out->u.list.n++;
  }
  out->u.list.items = items;
  xmlXPathFreeObject(res);
  xmlFreeDoc(doc);
  return rc;
}

HL_FN(hl_fn_xpath_string) {
  out->is_null = true;
  if (a[0].is_null || a[1].is_null) return HL_OK;
  xmlDocPtr doc;
  xmlXPathObjectPtr res;
  hl_status_t rc = evaluate(call, a, arena, &doc, &res, err);
  if (rc != HL_OK || !res) {
    xmlFreeDoc(doc);
    return rc;
  }
  xmlChar *v = xmlXPathCastToString(res);
  size_t len = v ? strlen((const char *)v) : 0;
  char *s = v ? hl_fn_alloc_str(out, arena, len) : NULL;
  if (s && len) memcpy(s, v, len);
  if (!s) rc = hl_err_nomem(err);
  xmlFree(v);
  xmlXPathFreeObject(res);
  xmlFreeDoc(doc);
  return rc;
}

HL_FN(hl_fn_xpath_boolean) {
  out->is_null = true;
  if (a[0].is_null || a[1].is_null) return HL_OK;
  xmlDocPtr doc;
  xmlXPathObjectPtr res;
  hl_status_t rc = evaluate(call, a, arena, &doc, &res, err);
  if (rc == HL_OK && res) {
    out->is_null = false;
    out->u.b = xmlXPathCastToBoolean(res) != 0;
  }
  xmlXPathFreeObject(res);
  xmlFreeDoc(doc);
  return rc;
}

/* Java's (int) / (long) of a double: NaN 0, saturating at the ends. */
static int64_t java_d2l(double d, int64_t lo, int64_t hi) {
  if (isnan(d)) return 0;
  if (d <= (double)lo) return lo;
  if (d >= (double)hi) return hi;
  return (int64_t)d;
}

/* The XPath number of PATH, converted by the result type of the call. */
HL_FN(hl_fn_xpath_number) {
  out->is_null = true;
  if (a[0].is_null || a[1].is_null) return HL_OK;
  xmlDocPtr doc;
  xmlXPathObjectPtr res;
  hl_status_t rc = evaluate(call, a, arena, &doc, &res, err);
  if (rc == HL_OK && res) {
    double d = xmlXPathCastToNumber(res);
    out->is_null = false;
    switch (call->type->id) {
    case HL_T_FLOAT:
      out->u.d = (double)(float)d;
      break;
    case HL_T_BIGINT:
      out->u.i = java_d2l(d, INT64_MIN, INT64_MAX);
      break;
    case HL_T_INT:
      out->u.i = java_d2l(d, INT32_MIN, INT32_MAX);
      break;
    case HL_T_SMALLINT:
      out->u.i = (int16_t)(uint16_t)(uint32_t)(int32_t)java_d2l(d, INT32_MIN, INT32_MAX);
      break;
    default:
      out->u.d = d;
      break;
    }
  }
  xmlXPathFreeObject(res);
  xmlFreeDoc(doc);
  return rc;
}
