/*
 * test_s3_xml.c -- unit tests for the S3 XML bodies (storage/s3/s3_xml.c).
 *
 * Each parser runs over replies shaped like the S3 API reference's
 * (ListObjectsV2, the Error document, Create/Complete/ListMultipartUploads,
 * DeleteObjects: samples of our own, namespaced and not) and every field is
 * checked exactly; the builders' output is checked byte for byte and parsed
 * back with expat; every bad input the parsers must refuse is checked for
 * its SQLSTATE and the message naming what was wrong.
 */
#include "storage/s3/s3_xml.h"
#include "util/mem.h"

#include "test.h"

#include <expat.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NS      " xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\""
#define XMLDECL "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"

/* Checks ERR holds SQLSTATE and a message containing PART, then clears it. */
#define CHECK_ERR(err, state, part)                                                                \
  do {                                                                                             \
    CHECK_STR((err)->sqlstate, state);                                                             \
    CHECK((err)->message &&strstr((err)->message, part) != NULL);                                  \
    if (!(err)->message || !strstr((err)->message, part))                                          \
      fprintf(stderr, "  message: %s (wanted \"%s\")\n",                                           \
              (err)->message ? (err)->message : "(null)", part);                                   \
    hl_err_clear(err);                                                                             \
  } while (0)

static hl_status_t list_of(hl_arena_t *a, const char *body, hl_s3_list_t *out, hl_error_t *err) {
  return hl_s3_xml_parse_list(body, strlen(body), a, out, err);
}

TEST(list_full) {
  hl_arena_t *a = hl_arena_create(0);
  hl_error_t err;
  hl_err_init(&err);
  const char *body = XMLDECL
      "<ListBucketResult" NS ">\n"
      "  <Name>warehouse</Name>\n"
      "  <Prefix>db/t/</Prefix>\n"
      "  <ContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</ContinuationToken>\n"
      "  <KeyCount>3</KeyCount>\n"
      "  <MaxKeys>3</MaxKeys>\n"
      "  <Delimiter>/</Delimiter>\n"
      "  <IsTruncated>true</IsTruncated>\n"
      "  <Contents>\n"
      "    <Key>db/t/part-0000.parquet</Key>\n"
      "    <LastModified>2009-10-12T17:50:30.000Z</LastModified>\n"
      "    <ETag>&quot;fba9dede5f27731c9771645a39863328&quot;</ETag>\n"
      "    <ChecksumAlgorithm>CRC32</ChecksumAlgorithm>\n"
      "    <Size>434234</Size>\n"
      "    <Owner><ID>75aa57f09aa0c8caeab4f8c24e99d10f8e7faeebf76c078efc7c6caea54ba06a</ID>"
      "<DisplayName>mtd</DisplayName><Key>not-an-object</Key></Owner>\n"
      "    <StorageClass>STANDARD</StorageClass>\n"
      "  </Contents>\n"
      "  <Contents>\n"
      "    <Size>0</Size>\n"
      "    <Key>db/t/a &amp; b &lt;c&gt; &#233;t&#xE9; \xe2\x82\xac</Key>\n"
      "    <LastModified>2026-01-31T23:59:59.123456789Z</LastModified>\n"
      "    <ETag>\"d41d8cd98f00b204e9800998ecf8427e\"</ETag>\n"
      "  </Contents>\n"
      "  <Contents><Key> spaced </Key><Size>9223372036854775807</Size>"
      "<LastModified>2024-02-29T12:00:00Z</LastModified></Contents>\n"
      "  <CommonPrefixes><Prefix>db/t/year=2024/</Prefix></CommonPrefixes>\n"
      "  <CommonPrefixes><Prefix>db/t/year=2025/</Prefix></CommonPrefixes>\n"
      "  "
      "<NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=x</"
      "NextContinuationToken>\n"
      "  <StartAfter>db/t/</StartAfter>\n"
      "  <Key>stray</Key>\n"
      "</ListBucketResult>\n";
  hl_s3_list_t l;
  CHECK_INT(list_of(a, body, &l, &err), HL_OK);
  CHECK_INT(l.n_objects, 3);
  if (l.n_objects == 3) {
    CHECK_STR(l.objects[0].key, "db/t/part-0000.parquet");
    CHECK_INT(l.objects[0].size, 434234);
    CHECK_STR(l.objects[0].etag, "\"fba9dede5f27731c9771645a39863328\"");
    CHECK_INT(l.objects[0].mtime_ns, 1255369830LL * 1000000000);
    CHECK_STR(l.objects[1].key, "db/t/a & b <c> \xc3\xa9t\xc3\xa9 \xe2\x82\xac");
    CHECK_INT(l.objects[1].size, 0);
    CHECK_STR(l.objects[1].etag, "\"d41d8cd98f00b204e9800998ecf8427e\"");
    CHECK_INT(l.objects[1].mtime_ns, 1769903999LL * 1000000000 + 123456789);
    CHECK_STR(l.objects[2].key, " spaced ");
    CHECK(l.objects[2].size == (uint64_t)INT64_MAX);
    CHECK(l.objects[2].etag == NULL);
    CHECK_INT(l.objects[2].mtime_ns, 1709208000LL * 1000000000);
  }
  CHECK_INT(l.n_prefixes, 2);
  if (l.n_prefixes == 2) {
    CHECK_STR(l.prefixes[0], "db/t/year=2024/");
    CHECK_STR(l.prefixes[1], "db/t/year=2025/");
  }
  CHECK(l.truncated);
  CHECK_STR(l.next_token, "1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=x");
  CHECK_INT(err.code, HL_OK);
  hl_arena_destroy(a);
}

TEST(list_plain) {
  hl_arena_t *a = hl_arena_create(0);
  hl_error_t err;
  hl_err_init(&err);
  hl_s3_list_t l;
  /* no namespace, no declaration, nothing listed (MinIO/s3rver shape) */
  CHECK_INT(list_of(a,
                    "<ListBucketResult><Name>b</Name><Prefix></Prefix><KeyCount>0</KeyCount>"
                    "<MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated></ListBucketResult>",
                    &l, &err),
            HL_OK);
  CHECK_INT(l.n_objects, 0);
  CHECK_INT(l.n_prefixes, 0);
  CHECK(!l.truncated);
  CHECK(l.next_token == NULL);
  CHECK(l.objects == NULL && l.prefixes == NULL);
  /* an element of another namespace is not S3's: ignored, whatever its name */
  CHECK_INT(list_of(a,
                    "<ListBucketResult" NS " xmlns:x=\"urn:other\"><x:Contents><x:Key>no</x:Key>"
                    "</x:Contents><Contents><Key>k</Key><Size>1</Size><x:Size>2</x:Size>"
                    "<LastModified>1969-12-31T23:00:00.5Z</LastModified></Contents>"
                    "<IsTruncated>false</IsTruncated></ListBucketResult>",
                    &l, &err),
            HL_OK);
  CHECK_INT(l.n_objects, 1);
  if (l.n_objects == 1) {
    CHECK_STR(l.objects[0].key, "k");
    CHECK_INT(l.objects[0].size, 1);
    CHECK_INT(l.objects[0].mtime_ns, -3600LL * 1000000000 + 500000000);
  }
  /* an explicit offset, and an empty token */
  CHECK_INT(list_of(a,
                    "<ListBucketResult><Contents><Key>k</Key><Size>1</Size>"
                    "<LastModified>2009-10-12T19:50:30.000+02:00</LastModified></Contents>"
                    "<NextContinuationToken/><EncodingType/></ListBucketResult>",
                    &l, &err),
            HL_OK);
  CHECK_INT(l.objects[0].mtime_ns, 1255369830LL * 1000000000);
  CHECK_STR(l.next_token, "");
  /* a CDATA section and a comment are text like any other */
  CHECK_INT(list_of(a,
                    "<ListBucketResult><Contents><Key><![CDATA[a<b]]><!-- c -->&amp;</Key>"
                    "<Size>7</Size></Contents></ListBucketResult>",
                    &l, &err),
            HL_OK);
  CHECK_STR(l.objects[0].key, "a<b&");
  hl_arena_destroy(a);
}

TEST(list_bad) {
  hl_arena_t *a = hl_arena_create(0);
  hl_error_t err;
  hl_err_init(&err);
  hl_s3_list_t l;
#define LIST_BAD(body, part)                                                                       \
  do {                                                                                             \
    CHECK_INT(list_of(a, body, &l, &err), HL_CORRUPT);                                             \
    CHECK_ERR(&err, "08P01", part);                                                                \
    CHECK(l.n_objects == 0 && l.objects == NULL);                                                  \
  } while (0)
#define C(x) "<ListBucketResult><Contents>" x "</Contents></ListBucketResult>"
  LIST_BAD(C("<Size>1</Size>"), "S3 ListObjectsV2 reply: <Contents> without <Key>");
  LIST_BAD(C("<Key>k</Key>"), "<Contents> without <Size>");
  LIST_BAD(C("<Key>k</Key><Size>12a</Size>"), "<Size> is not a number");
  LIST_BAD(C("<Key>k</Key><Size></Size>"), "<Size> is not a number");
  LIST_BAD(C("<Key>k</Key><Size> 1</Size>"), "<Size> is not a number");
  LIST_BAD(C("<Key>k</Key><Size>+1</Size>"), "<Size> is not a number");
  LIST_BAD(C("<Key>k</Key><Size>-1</Size>"), "<Size> is negative");
  LIST_BAD(C("<Key>k</Key><Size>9223372036854775808</Size>"), "<Size> is out of range");
  LIST_BAD(C("<Key>k</Key><Size>99999999999999999999999</Size>"), "<Size> is out of range");
  LIST_BAD(C("<Key>k</Key><Size><b>1</b></Size>"), "<Size> holds elements");
  LIST_BAD(C("<Key>a<b/>c</Key><Size>1</Size>"), "<Key> holds elements");
  LIST_BAD(C("<Key>k</Key><Size>1</Size><LastModified>2009-10-12 17:50:30Z</LastModified>"),
           "<LastModified> is not an ISO 8601 UTC time");
  LIST_BAD(C("<Key>k</Key><Size>1</Size><LastModified>2009-02-29T17:50:30Z</LastModified>"),
           "<LastModified> is not an ISO 8601 UTC time");
  LIST_BAD(C("<Key>k</Key><Size>1</Size><LastModified>2009-10-12T17:50:30.Z</LastModified>"),
           "<LastModified> is not an ISO 8601 UTC time");
  LIST_BAD(C("<Key>k</Key><Size>1</Size><LastModified>2009-10-12T17:50:30</LastModified>"),
           "<LastModified> is not an ISO 8601 UTC time");
  LIST_BAD(C("<Key>k</Key><Size>1</Size><Key>j</Key>"), "more than one <Key>");
  LIST_BAD("<ListBucketResult><CommonPrefixes><Prefix>a</Prefix><Prefix>b</Prefix>"
           "</CommonPrefixes></ListBucketResult>",
           "more than one <Prefix>");
  LIST_BAD("<ListBucketResult><NextContinuationToken>a</NextContinuationToken>"
           "<NextContinuationToken>b</NextContinuationToken></ListBucketResult>",
           "more than one <NextContinuationToken>");
  LIST_BAD(
      "<ListBucketResult><EncodingType>url</EncodingType><Contents><Key>a%20b</Key>"
      "<Size>1</Size></Contents></ListBucketResult>",
      "S3 ListObjectsV2 reply: keys are encoded (<EncodingType> url), which was not requested");
  LIST_BAD("<ListBucketResult><EncodingType>base64</EncodingType></ListBucketResult>",
           "keys are encoded (<EncodingType> unknown)");
  LIST_BAD("<ListBucketResult><CommonPrefixes></CommonPrefixes></ListBucketResult>",
           "<CommonPrefixes> without <Prefix>");
  LIST_BAD("<ListBucketResult><IsTruncated>yes</IsTruncated></ListBucketResult>",
           "<IsTruncated> is neither true nor false");
  LIST_BAD("<ListBucketResult><IsTruncated>True</IsTruncated></ListBucketResult>",
           "<IsTruncated> is neither true nor false");
  LIST_BAD("<ListAllMyBucketsResult" NS "/>",
           "unexpected root element <ListAllMyBucketsResult> (expected <ListBucketResult>)");
  LIST_BAD("<x:ListBucketResult xmlns:x=\"urn:other\"/>",
           "unexpected root element <ListBucketResult> of another namespace (expected "
           "<ListBucketResult>)");
  LIST_BAD("<Error><Code>NoSuchBucket</Code></Error>", "unexpected root element <Error>");
  LIST_BAD("<ListBucketResult><Contents><Key>k</Key><Size>1</Si",
           "S3 ListObjectsV2 reply: truncated document");
  LIST_BAD("<ListBucketResult><Contents><Key>k</Key>", "truncated document");
  LIST_BAD("<ListBucketResult><Key>a\xc3", "truncated document");
  LIST_BAD("<ListBucketResult></Contents>", "not well-formed XML (mismatched tag");
  LIST_BAD("<ListBucketResult>&nope;</ListBucketResult>", "not well-formed XML (undefined entity");
  LIST_BAD("<ListBucketResult><Key>&#1;</Key></ListBucketResult>",
           "not well-formed XML (reference to invalid character number");
  LIST_BAD("<ListBucketResult><Key>\xff</Key></ListBucketResult>", "not well-formed XML");
  LIST_BAD("<ListBucketResult/><ListBucketResult/>", "not well-formed XML (junk after");
  LIST_BAD("not xml", "not well-formed XML (syntax error");
  LIST_BAD("", "S3 ListObjectsV2 reply: empty body");
  LIST_BAD("  \r\n", "empty body");
  /* a DOCTYPE is refused before any entity could be expanded */
  LIST_BAD("<?xml version=\"1.0\"?><!DOCTYPE l [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b "
           "\"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">]><ListBucketResult><Contents><Key>&b;</Key>"
           "<Size>1</Size></Contents></ListBucketResult>",
           "S3 ListObjectsV2 reply: DOCTYPE not allowed");
  LIST_BAD("<!DOCTYPE ListBucketResult SYSTEM \"file:///etc/passwd\"><ListBucketResult/>",
           "DOCTYPE not allowed");
  LIST_BAD("<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>"
           "<ListBucketResult><Prefix>&e;</Prefix></ListBucketResult>",
           "DOCTYPE not allowed");
#undef C
  hl_arena_destroy(a);
}

/* A body of N <CommonPrefixes> (heap; caller frees). */
static char *many_prefixes(size_t n) {
  hl_buf_t b;
  hl_buf_init(&b);
  hl_buf_puts(&b, "<ListBucketResult>");
  for (size_t i = 0; i < n; i++)
    hl_buf_printf(&b, "<CommonPrefixes><Prefix>p%zu/</Prefix></CommonPrefixes>", i);
  hl_buf_puts(&b, "</ListBucketResult>");
  return hl_buf_detach(&b);
}

TEST(limits) {
  hl_arena_t *a = hl_arena_create(0);
  hl_error_t err;
  hl_err_init(&err);
  hl_s3_list_t l;
  /* a value of exactly HL_S3_XML_MAX_VALUE bytes, in pieces (entities) */
  char *key = malloc(HL_S3_XML_MAX_VALUE + 2);
  memset(key, 'k', HL_S3_XML_MAX_VALUE + 1);
  key[HL_S3_XML_MAX_VALUE + 1] = '\0';
  char *body = malloc(2 * HL_S3_XML_MAX_VALUE + 200);
  snprintf(body, 2 * HL_S3_XML_MAX_VALUE + 200,
           "<ListBucketResult><Contents><Key>&amp;%s</Key><Size>1</Size></Contents>"
           "</ListBucketResult>",
           key + 2);
  CHECK_INT(list_of(a, body, &l, &err), HL_OK);
  CHECK_INT(l.n_objects, 1);
  if (l.n_objects == 1) {
    CHECK_INT(strlen(l.objects[0].key), HL_S3_XML_MAX_VALUE);
    CHECK(l.objects[0].key[0] == '&' && l.objects[0].key[HL_S3_XML_MAX_VALUE - 1] == 'k');
  }
  /* one byte more is an error, not a cut */
  snprintf(body, 2 * HL_S3_XML_MAX_VALUE + 200,
           "<ListBucketResult><Contents><Key>&amp;%s</Key><Size>1</Size></Contents>"
           "</ListBucketResult>",
           key + 1);
  CHECK_INT(list_of(a, body, &l, &err), HL_CORRUPT);
  CHECK_ERR(&err, "08P01", "S3 ListObjectsV2 reply: the text of <Key> is longer than 4096 bytes");
  /* in an unknown element too */
  snprintf(body, 2 * HL_S3_XML_MAX_VALUE + 200, "<ListBucketResult><Owner><ID>%s</ID></Owner>",
           key);
  CHECK_INT(list_of(a, body, &l, &err), HL_CORRUPT);
  CHECK_ERR(&err, "08P01", "the text of <ID> is longer than 4096 bytes");
  free(key);
  free(body);
  /* HL_S3_XML_MAX_ENTRIES entries, then one more */
  body = many_prefixes(HL_S3_XML_MAX_ENTRIES);
  hl_arena_reset(a);
  CHECK_INT(list_of(a, body, &l, &err), HL_OK);
  CHECK_INT(l.n_prefixes, HL_S3_XML_MAX_ENTRIES);
  if (l.n_prefixes == HL_S3_XML_MAX_ENTRIES)
    CHECK_STR(l.prefixes[HL_S3_XML_MAX_ENTRIES - 1], "p99999/");
  free(body);
  body = many_prefixes(HL_S3_XML_MAX_ENTRIES + 1);
  hl_arena_reset(a);
  CHECK_INT(list_of(a, body, &l, &err), HL_CORRUPT);
  CHECK_ERR(&err, "08P01", "S3 ListObjectsV2 reply: more than 100000 entries");
  CHECK_INT(l.n_prefixes, 0);
  free(body);
  /* objects and prefixes count together */
  hl_buf_t b;
  hl_buf_init(&b);
  hl_buf_puts(&b, "<ListBucketResult>");
  for (size_t i = 0; i < HL_S3_XML_MAX_ENTRIES / 2; i++)
    hl_buf_puts(&b, "<Contents><Key>k</Key><Size>1</Size></Contents>"
                    "<CommonPrefixes><Prefix>p</Prefix></CommonPrefixes>");
  hl_buf_puts(&b, "<Contents><Key>k</Key><Size>1</Size></Contents></ListBucketResult>");
  hl_arena_reset(a);
  CHECK_INT(list_of(a, hl_buf_cstr(&b), &l, &err), HL_CORRUPT);
  CHECK_ERR(&err, "08P01", "more than 100000 entries");
  hl_buf_fini(&b);
  /* a body above HL_S3_XML_MAX_BODY is not even looked at: 54000 */
  size_t big = (size_t)HL_S3_XML_MAX_BODY + 1;
  char *huge = calloc(big, 1);
  CHECK(huge != NULL);
  if (huge) {
    CHECK_INT(hl_s3_xml_parse_list(huge, big, a, &l, &err), HL_ERROR);
    CHECK_ERR(&err, "54000",
              "S3 ListObjectsV2 reply: body of 67108865 bytes is longer than 67108864");
    bool is_err = true;
    hl_s3_error_t e;
    CHECK_INT(hl_s3_xml_parse_error(huge, big, a, &e, &is_err, &err), HL_ERROR);
    CHECK_ERR(&err, "54000", "S3 error reply: body of");
    CHECK(!is_err);
    free(huge);
  }
  hl_arena_destroy(a);
}

TEST(error_doc) {
  hl_arena_t *a = hl_arena_create(0);
  hl_error_t err;
  hl_err_init(&err);
  hl_s3_error_t e;
  bool is_err = false;
  const char *body = XMLDECL
      "<Error>\n"
      "  <Code>NoSuchKey</Code>\n"
      "  <Message>The resource you requested does not exist</Message>\n"
      "  <Resource>/mybucket/myfoto.jpg</Resource>\n"
      "  <RequestId>4442587FB7D0A2F9</RequestId>\n"
      "  <HostId>eftixk72aD6Ap51TnqcoF8eFidJG9Z/2mkiDFu8yU9AS1ed4OpIszj7UDNEHGran</HostId>\n"
      "</Error>";
  CHECK_INT(hl_s3_xml_parse_error(body, strlen(body), a, &e, &is_err, &err), HL_OK);
  CHECK(is_err);
  CHECK_STR(e.code, "NoSuchKey");
  CHECK_STR(e.message, "The resource you requested does not exist");
  CHECK_STR(e.request_id, "4442587FB7D0A2F9");
  /* namespaced (some servers), Message and RequestId absent */
  body = "<Error" NS "><Code>SlowDown</Code><Details><Code>inner</Code></Details></Error>";
  CHECK_INT(hl_s3_xml_parse_error(body, strlen(body), a, &e, &is_err, &err), HL_OK);
  CHECK(is_err);
  CHECK_STR(e.code, "SlowDown");
  CHECK(e.message == NULL && e.request_id == NULL);
  /* not an <Error> document: no error, OUT zeroed */
  const char *not_errors[] = {"",
                              "   ",
                              "Service Unavailable",
                              "<html><body><h1>502 Bad Gateway</h1></body></html>",
                              "<ListBucketResult><Contents>",
                              "<x:Error xmlns:x=\"urn:other\"><Code>C</Code></x:Error>"};
  for (size_t i = 0; i < sizeof not_errors / sizeof *not_errors; i++) {
    is_err = true;
    memset(&e, 0xff, sizeof e);
    CHECK_INT(hl_s3_xml_parse_error(not_errors[i], strlen(not_errors[i]), a, &e, &is_err, &err),
              HL_OK);
    CHECK(!is_err);
    CHECK(e.code == NULL && e.message == NULL && e.request_id == NULL);
    CHECK_INT(err.code, HL_OK);
  }
  /* an <Error> document that is broken is an error */
#define ERR_BAD(b, part)                                                                           \
  do {                                                                                             \
    is_err = true;                                                                                 \
    CHECK_INT(hl_s3_xml_parse_error(b, strlen(b), a, &e, &is_err, &err), HL_CORRUPT);              \
    CHECK_ERR(&err, "08P01", part);                                                                \
    CHECK(!is_err && e.code == NULL);                                                              \
  } while (0)
  ERR_BAD("<Error><Message>m</Message></Error>", "S3 error reply: <Error> without <Code>");
  ERR_BAD("<Error><Code>NoSuchKey</Code><Message>m", "S3 error reply: truncated document");
  ERR_BAD("<!DOCTYPE html><html></html>", "S3 error reply: DOCTYPE not allowed");
  ERR_BAD("<Error><Code>a<b/></Code></Error>", "<Code> holds elements");
#undef ERR_BAD
  hl_arena_destroy(a);
}

TEST(initiate) {
  hl_arena_t *a = hl_arena_create(0);
  hl_error_t err;
  hl_err_init(&err);
  char *id = NULL;
  const char *body =
      XMLDECL "<InitiateMultipartUploadResult" NS ">\n"
              "  <Bucket>example-bucket</Bucket>\n"
              "  <Key>db/t/part-0001.orc</Key>\n"
              "  <UploadId>VXBsb2FkIElEIGZvciA2aWWpbmcncyBteS1tb3ZpZS5tMnRzIHVwbG9hZA</UploadId>\n"
              "</InitiateMultipartUploadResult>";
  CHECK_INT(hl_s3_xml_parse_initiate(body, strlen(body), a, &id, &err), HL_OK);
  CHECK_STR(id, "VXBsb2FkIElEIGZvciA2aWWpbmcncyBteS1tb3ZpZS5tMnRzIHVwbG9hZA");
#define INIT_BAD(b, part)                                                                          \
  do {                                                                                             \
    CHECK_INT(hl_s3_xml_parse_initiate(b, strlen(b), a, &id, &err), HL_CORRUPT);                   \
    CHECK_ERR(&err, "08P01", part);                                                                \
    CHECK(id == NULL);                                                                             \
  } while (0)
  INIT_BAD("<InitiateMultipartUploadResult><Key>k</Key></InitiateMultipartUploadResult>",
           "S3 CreateMultipartUpload reply: no <UploadId>");
  INIT_BAD("<InitiateMultipartUploadResult><UploadId/></InitiateMultipartUploadResult>",
           "no <UploadId>");
  INIT_BAD("<InitiateMultipartUploadResult><Part><UploadId>x</UploadId></Part>"
           "</InitiateMultipartUploadResult>",
           "no <UploadId>");
  INIT_BAD("<Error><Code>AccessDenied</Code></Error>",
           "unexpected root element <Error> (expected <InitiateMultipartUploadResult>)");
  INIT_BAD("<InitiateMultipartUploadResult><UploadId>abc", "truncated document");
#undef INIT_BAD
  hl_arena_destroy(a);
}

TEST(complete) {
  hl_arena_t *a = hl_arena_create(0);
  hl_error_t err;
  hl_err_init(&err);
  char *etag = NULL;
  bool is_err = true;
  hl_s3_error_t e;
  /* S3 keeps a slow request alive with spaces before the document */
  const char *body =
      "          \n" XMLDECL "<CompleteMultipartUploadResult" NS ">\n"
      "  <Location>https://example-bucket.s3.amazonaws.com/db/t/part-0001.orc</Location>\n"
      "  <Bucket>example-bucket</Bucket>\n"
      "  <Key>db/t/part-0001.orc</Key>\n"
      "  <ETag>\"3858f62230ac3c915f300c664312c11f-9\"</ETag>\n"
      "</CompleteMultipartUploadResult>";
  CHECK_INT(hl_s3_xml_parse_complete(body, strlen(body), a, &etag, &is_err, &e, &err), HL_OK);
  CHECK(!is_err);
  CHECK_STR(etag, "\"3858f62230ac3c915f300c664312c11f-9\"");
  CHECK(e.code == NULL);
  /* the 200-with-error case */
  body = "   " XMLDECL "<Error>\n"
         "  <Code>InternalError</Code>\n"
         "  <Message>We encountered an internal error. Please try again.</Message>\n"
         "  <RequestId>656c76696e6727732072657175657374</RequestId>\n"
         "  <HostId>Uuag1LuByRx9e6j5Onimru9pO4ZVKnJ2Qz7/C1NPcfTWAtRPfTaOFg==</HostId>\n"
         "</Error>";
  CHECK_INT(hl_s3_xml_parse_complete(body, strlen(body), a, &etag, &is_err, &e, &err), HL_OK);
  CHECK(is_err);
  CHECK(etag == NULL);
  CHECK_STR(e.code, "InternalError");
  CHECK_STR(e.message, "We encountered an internal error. Please try again.");
  CHECK_STR(e.request_id, "656c76696e6727732072657175657374");
#define COMPLETE_BAD(b, part)                                                                      \
  do {                                                                                             \
    CHECK_INT(hl_s3_xml_parse_complete(b, strlen(b), a, &etag, &is_err, &e, &err), HL_CORRUPT);    \
    CHECK_ERR(&err, "08P01", part);                                                                \
    CHECK(etag == NULL && !is_err && e.code == NULL);                                              \
  } while (0)
  COMPLETE_BAD("<CompleteMultipartUploadResult><Key>k</Key></CompleteMultipartUploadResult>",
               "S3 CompleteMultipartUpload reply: no <ETag>");
  COMPLETE_BAD("<Error><Message>m</Message></Error>", "<Error> without <Code>");
  COMPLETE_BAD("<CompleteMultipartUpload/>",
               "unexpected root element <CompleteMultipartUpload> (expected "
               "<CompleteMultipartUploadResult>)");
  COMPLETE_BAD("       ", "empty body");
  COMPLETE_BAD("    <CompleteMultipartUploadResult><ETag>\"x\"</ETag>", "truncated document");
#undef COMPLETE_BAD
  hl_arena_destroy(a);
}

TEST(uploads) {
  hl_arena_t *a = hl_arena_create(0);
  hl_error_t err;
  hl_err_init(&err);
  hl_s3_uploads_t u;
  const char *body = XMLDECL
      "<ListMultipartUploadsResult" NS ">\n"
      "  <Bucket>bucket</Bucket>\n"
      "  <KeyMarker></KeyMarker>\n"
      "  <UploadIdMarker></UploadIdMarker>\n"
      "  <NextKeyMarker>my-movie.m2ts</NextKeyMarker>\n"
      "  <NextUploadIdMarker>YW55IGlkZWEgd2h5IGVsdmluZydzIHVwbG9hZCBmYWlsZWQ</NextUploadIdMarker>\n"
      "  <MaxUploads>3</MaxUploads>\n"
      "  <IsTruncated>true</IsTruncated>\n"
      "  <Upload>\n"
      "    <Key>my-divisor</Key>\n"
      "    <UploadId>XMgbGlrZSBlbHZpbmcncyBub3QgaGF2aW5nIG11Y2ggbHVjaw</UploadId>\n"
      "    <Initiator><ID>arn:aws:iam::111122223333:user/user1-11111a31-17b5</ID>"
      "<DisplayName>user1</DisplayName></Initiator>\n"
      "    <Owner><ID>75aa57f09aa0c8caeab4f8c24e99d10f8e7faeebf76c078efc7c6caea54ba06a</ID>"
      "<DisplayName>OwnerDisplayName</DisplayName></Owner>\n"
      "    <StorageClass>STANDARD</StorageClass>\n"
      "    <Initiated>2010-11-10T20:48:33.000Z</Initiated>\n"
      "  </Upload>\n"
      "  <Upload>\n"
      "    <Initiated>2010-11-10T20:48:33.000Z</Initiated>\n"
      "    <UploadId>VXBsb2FkIElEIGZvciBlbHZpbmcncyBteS1tb3ZpZS5tMnRzIHVwbG9hZA</UploadId>\n"
      "    <Key>my-movie.m2ts</Key>\n"
      "  </Upload>\n"
      "</ListMultipartUploadsResult>";
  CHECK_INT(hl_s3_xml_parse_uploads(body, strlen(body), a, &u, &err), HL_OK);
  CHECK_INT(u.n_uploads, 2);
  if (u.n_uploads == 2) {
    CHECK_STR(u.uploads[0].key, "my-divisor");
    CHECK_STR(u.uploads[0].upload_id, "XMgbGlrZSBlbHZpbmcncyBub3QgaGF2aW5nIG11Y2ggbHVjaw");
    CHECK_STR(u.uploads[1].key, "my-movie.m2ts");
    CHECK_STR(u.uploads[1].upload_id, "VXBsb2FkIElEIGZvciBlbHZpbmcncyBteS1tb3ZpZS5tMnRzIHVwbG9hZA");
  }
  CHECK(u.truncated);
  CHECK_STR(u.next_key_marker, "my-movie.m2ts");
  CHECK_STR(u.next_upload_id_marker, "YW55IGlkZWEgd2h5IGVsdmluZydzIHVwbG9hZCBmYWlsZWQ");
  body = "<ListMultipartUploadsResult><Bucket>b</Bucket><IsTruncated>false</IsTruncated>"
         "</ListMultipartUploadsResult>";
  CHECK_INT(hl_s3_xml_parse_uploads(body, strlen(body), a, &u, &err), HL_OK);
  CHECK_INT(u.n_uploads, 0);
  CHECK(!u.truncated && u.next_key_marker == NULL && u.next_upload_id_marker == NULL);
#define UP_BAD(b, part)                                                                            \
  do {                                                                                             \
    CHECK_INT(hl_s3_xml_parse_uploads(b, strlen(b), a, &u, &err), HL_CORRUPT);                     \
    CHECK_ERR(&err, "08P01", part);                                                                \
    CHECK(u.n_uploads == 0 && u.uploads == NULL);                                                  \
  } while (0)
  UP_BAD("<ListMultipartUploadsResult><Upload><Key>k</Key><Owner><UploadId>x</UploadId></Owner>"
         "</Upload></ListMultipartUploadsResult>",
         "S3 ListMultipartUploads reply: <Upload> without <UploadId>");
  UP_BAD("<ListMultipartUploadsResult><Upload><UploadId>x</UploadId></Upload>"
         "</ListMultipartUploadsResult>",
         "<Upload> without <Key>");
  UP_BAD("<ListMultipartUploadsResult><IsTruncated>1</IsTruncated></ListMultipartUploadsResult>",
         "<IsTruncated> is neither true nor false");
  UP_BAD("<ListMultipartUploadsResult><EncodingType>url</EncodingType>"
         "</ListMultipartUploadsResult>",
         "S3 ListMultipartUploads reply: keys are encoded (<EncodingType> url)");
  UP_BAD("<ListBucketResult/>", "unexpected root element <ListBucketResult>");
  UP_BAD("<ListMultipartUploadsResult><Upload>", "truncated document");
#undef UP_BAD
  hl_arena_destroy(a);
}

TEST(delete_result) {
  hl_arena_t *a = hl_arena_create(0);
  hl_error_t err;
  hl_err_init(&err);
  hl_s3_delete_error_t *errs = NULL;
  size_t n = 99;
  const char *body =
      XMLDECL "<DeleteResult" NS ">\n"
              "  <Deleted><Key>sample1.txt</Key></Deleted>\n"
              "  <Deleted><Key>v.txt</Key><VersionId>OYcLXagmS.WaD..oyH4KRguB95_YhLs7</VersionId>"
              "<DeleteMarker>true</DeleteMarker>"
              "<DeleteMarkerVersionId>A._w1z6EFiCF5uhtQMDal9JDkID9tQ7F</DeleteMarkerVersionId>"
              "</Deleted>\n"
              "  <Error>\n"
              "    <Key>sample2.txt</Key>\n"
              "    <Code>AccessDenied</Code>\n"
              "    <Message>Access Denied</Message>\n"
              "  </Error>\n"
              "  <Error><Code>InternalError</Code><Key>a &amp; b</Key></Error>\n"
              "</DeleteResult>";
  CHECK_INT(hl_s3_xml_parse_delete(body, strlen(body), a, &errs, &n, &err), HL_OK);
  CHECK_INT(n, 2);
  if (n == 2) {
    CHECK_STR(errs[0].key, "sample2.txt");
    CHECK_STR(errs[0].code, "AccessDenied");
    CHECK_STR(errs[0].message, "Access Denied");
    CHECK_STR(errs[1].key, "a & b");
    CHECK_STR(errs[1].code, "InternalError");
    CHECK(errs[1].message == NULL);
  }
  /* Quiet mode: nothing failed, nothing listed */
  body = "<DeleteResult" NS "></DeleteResult>";
  CHECK_INT(hl_s3_xml_parse_delete(body, strlen(body), a, &errs, &n, &err), HL_OK);
  CHECK_INT(n, 0);
  CHECK(errs == NULL);
#define DEL_BAD(b, part)                                                                           \
  do {                                                                                             \
    n = 99;                                                                                        \
    CHECK_INT(hl_s3_xml_parse_delete(b, strlen(b), a, &errs, &n, &err), HL_CORRUPT);               \
    CHECK_ERR(&err, "08P01", part);                                                                \
    CHECK(n == 0 && errs == NULL);                                                                 \
  } while (0)
  DEL_BAD("<DeleteResult><Error><Key>k</Key></Error></DeleteResult>",
          "S3 DeleteObjects reply: <Error> without <Code>");
  DEL_BAD("<DeleteResult><Error><Code>c</Code><Deleted><Key>k</Key></Deleted></Error>"
          "</DeleteResult>",
          "<Error> without <Key>");
  DEL_BAD("<Error><Code>MalformedXML</Code></Error>",
          "unexpected root element <Error> (expected <DeleteResult>)");
  DEL_BAD("<DeleteResult><Error><Key>k</Key><Code>c</Code></Error>", "truncated document");
#undef DEL_BAD
  hl_arena_destroy(a);
}

/* ---- builders ---- */

/* Collects the text of every <Key> / <ETag> element of a built body. */
typedef struct collect {
  char texts[8][256];
  size_t n;
  int in;
  size_t len;
} collect_t;

static void XMLCALL c_start(void *ud, const XML_Char *name, const XML_Char **atts) {
  collect_t *c = ud;
  (void)atts;
  if ((strcmp(name, "Key") == 0 || strcmp(name, "ETag") == 0) && c->n < 8) {
    c->in = 1;
    c->len = 0;
    c->texts[c->n][0] = '\0';
  }
}

static void XMLCALL c_end(void *ud, const XML_Char *name) {
  collect_t *c = ud;
  (void)name;
  if (c->in) {
    c->in = 0;
    c->n++;
  }
}

static void XMLCALL c_text(void *ud, const XML_Char *s, int len) {
  collect_t *c = ud;
  if (!c->in || c->len + (size_t)len >= 256) return;
  memcpy(c->texts[c->n] + c->len, s, (size_t)len);
  c->len += (size_t)len;
  c->texts[c->n][c->len] = '\0';
}

/* Parses BODY with plain expat (no namespaces); 1 if well-formed. */
static int reparse(const char *body, collect_t *c) {
  memset(c, 0, sizeof *c);
  XML_Parser p = XML_ParserCreate(NULL);
  XML_SetUserData(p, c);
  XML_SetElementHandler(p, c_start, c_end);
  XML_SetCharacterDataHandler(p, c_text);
  int ok = XML_Parse(p, body, (int)strlen(body), XML_TRUE) == XML_STATUS_OK;
  XML_ParserFree(p);
  return ok;
}

TEST(build_delete) {
  hl_buf_t b;
  hl_buf_init(&b);
  char *keys[] = {"db/t/part-0.parquet", "a&b<c>d\"e'f", "tab\tnl\ncr\rcrlf\r\n",
                  "caf\xc3\xa9 \xe2\x82\xac ]]>"};
  hl_s3_xml_build_delete(&b, keys, 4);
  CHECK_STR(hl_buf_cstr(&b),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<Delete xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Quiet>true</Quiet>"
            "<Object><Key>db/t/part-0.parquet</Key></Object>"
            "<Object><Key>a&amp;b&lt;c&gt;d&quot;e&apos;f</Key></Object>"
            "<Object><Key>tab&#x9;nl&#xA;cr&#xD;crlf&#xD;&#xA;</Key></Object>"
            "<Object><Key>caf\xc3\xa9 \xe2\x82\xac ]]&gt;</Key></Object>"
            "</Delete>");
  collect_t c;
  CHECK(reparse(hl_buf_cstr(&b), &c));
  CHECK_INT(c.n, 4);
  for (size_t i = 0; i < 4 && i < c.n; i++)
    CHECK_STR(c.texts[i], keys[i]);
  /* no keys: still a well-formed request */
  hl_buf_reset(&b);
  hl_s3_xml_build_delete(&b, NULL, 0);
  CHECK_STR(hl_buf_cstr(&b), "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                             "<Delete xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
                             "<Quiet>true</Quiet></Delete>");
  CHECK(reparse(hl_buf_cstr(&b), &c));
  /* appends: what was in the buffer stays */
  hl_buf_reset(&b);
  hl_buf_puts(&b, "X");
  hl_s3_xml_build_delete(&b, NULL, 0);
  CHECK(strncmp(hl_buf_cstr(&b), "X<?xml", 6) == 0);
  /* a control character XML 1.0 cannot carry is written as a reference,
   * never dropped: the server refuses the request, it deletes nothing else */
  hl_buf_reset(&b);
  char *odd[] = {"a\x01z\x1f"};
  hl_s3_xml_build_delete(&b, odd, 1);
  CHECK(strstr(hl_buf_cstr(&b), "<Key>a&#x1;z&#x1F;</Key>") != NULL);
  CHECK(!reparse(hl_buf_cstr(&b), &c));
  hl_buf_fini(&b);
}

TEST(build_complete) {
  hl_buf_t b;
  hl_buf_init(&b);
  char *etags[] = {"\"a54357aff0632cce46d942af68356b38\"", "\"0c78aef83f66abc1fa1e8477f296d394\"",
                   "\"acbd18db4cc2f85cedef654fccc4a4d8\""};
  hl_s3_xml_build_complete(&b, etags, 3);
  CHECK_STR(hl_buf_cstr(&b),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
            "<Part><PartNumber>1</PartNumber><ETag>&quot;a54357aff0632cce46d942af68356b38&quot;</"
            "ETag></Part>"
            "<Part><PartNumber>2</PartNumber><ETag>&quot;0c78aef83f66abc1fa1e8477f296d394&quot;</"
            "ETag></Part>"
            "<Part><PartNumber>3</PartNumber><ETag>&quot;acbd18db4cc2f85cedef654fccc4a4d8&quot;</"
            "ETag></Part>"
            "</CompleteMultipartUpload>");
  collect_t c;
  CHECK(reparse(hl_buf_cstr(&b), &c));
  CHECK_INT(c.n, 3);
  for (size_t i = 0; i < 3 && i < c.n; i++)
    CHECK_STR(c.texts[i], etags[i]);
  /* an ETag from an odd server is escaped like a key */
  hl_buf_reset(&b);
  char *odd[] = {"<x>&'"};
  hl_s3_xml_build_complete(&b, odd, 1);
  CHECK(strstr(hl_buf_cstr(&b), "<ETag>&lt;x&gt;&amp;&apos;</ETag>") != NULL);
  CHECK(reparse(hl_buf_cstr(&b), &c));
  CHECK_STR(c.texts[0], "<x>&'");
  hl_buf_fini(&b);
}

/* A listing written by the builder's escaping comes back through the list
 * parser unchanged (the same escaping a server would use). */
TEST(round_trip_list) {
  hl_arena_t *a = hl_arena_create(0);
  hl_error_t err;
  hl_err_init(&err);
  char *keys[] = {"a&b", "<tag>", "q\"uo't", "line\nfeed\r\nand\ttab", "\xf0\x9f\x90\x9d/x"};
  hl_buf_t b;
  hl_buf_init(&b);
  hl_s3_xml_build_delete(&b, keys, 5);
  /* turn the request into a reply: <Object><Key>..</Key></Object> into
   * <Contents><Key>..</Key><Size>N</Size></Contents> */
  hl_buf_t r;
  hl_buf_init(&r);
  hl_buf_puts(&r, "<ListBucketResult" NS ">");
  const char *p = hl_buf_cstr(&b);
  for (size_t i = 0; (p = strstr(p, "<Key>")) != NULL; i++) {
    const char *q = strstr(p, "</Key>");
    hl_buf_puts(&r, "<Contents>");
    hl_buf_append(&r, p, (size_t)(q - p) + 6);
    hl_buf_printf(&r, "<Size>%zu</Size></Contents>", i);
    p = q;
  }
  hl_buf_puts(&r, "</ListBucketResult>");
  hl_s3_list_t l;
  CHECK_INT(hl_s3_xml_parse_list(r.data, r.len, a, &l, &err), HL_OK);
  CHECK_INT(l.n_objects, 5);
  for (size_t i = 0; i < 5 && i < l.n_objects; i++) {
    CHECK_STR(l.objects[i].key, keys[i]);
    CHECK_INT(l.objects[i].size, i);
  }
  hl_buf_fini(&r);
  hl_buf_fini(&b);
  hl_arena_destroy(a);
}

/* Replies captured from the npm s3rver 3.7.1 (node --openssl-legacy-provider)
 * through the AWS CLI: its own namespace on ListBucketResult, none
 * elsewhere but DeleteResult, no RequestId in its errors. */
TEST(s3rver_samples) {
  hl_arena_t *a = hl_arena_create(0);
  hl_error_t err;
  hl_err_init(&err);
  const char *body =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<ListBucketResult xmlns=\"http://doc.s3.amazonaws.com/2006-03-01/\"><Name>bkt</Name>"
      "<Prefix>db/t/</Prefix><KeyCount>1</KeyCount><MaxKeys>1000</MaxKeys><Delimiter>/</Delimiter>"
      "<IsTruncated>false</IsTruncated><Contents><Key>db/t/a&amp;b &lt;c&gt;.parquet</Key>"
      "<LastModified>2026-12-02T14:15:18.000Z</LastModified>"
      "<ETag>&quot;6520213d3695a344f306efffa2523807&quot;</ETag><Size>3</Size>"
      "<StorageClass>STANDARD</StorageClass></Contents><CommonPrefixes><Prefix>db/t/year=2024/"
      "</Prefix></CommonPrefixes></ListBucketResult>";
  hl_s3_list_t l;
  CHECK_INT(hl_s3_xml_parse_list(body, strlen(body), a, &l, &err), HL_OK);
  CHECK_INT(l.n_objects, 1);
  if (l.n_objects == 1) {
    CHECK_STR(l.objects[0].key, "db/t/a&b <c>.parquet");
    CHECK_INT(l.objects[0].size, 3);
    CHECK_STR(l.objects[0].etag, "\"6520213d3695a344f306efffa2523807\"");
    CHECK_INT(l.objects[0].mtime_ns, 1796220918LL * 1000000000);
  }
  CHECK_INT(l.n_prefixes, 1);
  if (l.n_prefixes == 1) CHECK_STR(l.prefixes[0], "db/t/year=2024/");
  CHECK(!l.truncated && l.next_token == NULL);
  body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>NoSuchKey</Code>"
         "<Message>The specified key does not exist.</Message><Key>nokey</Key></Error>";
  hl_s3_error_t e;
  bool is_err = false;
  CHECK_INT(hl_s3_xml_parse_error(body, strlen(body), a, &e, &is_err, &err), HL_OK);
  CHECK(is_err);
  CHECK_STR(e.code, "NoSuchKey");
  CHECK_STR(e.message, "The specified key does not exist.");
  CHECK(e.request_id == NULL);
  body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<InitiateMultipartUploadResult>"
         "<Bucket>bkt</Bucket><Key>db/mp</Key><UploadId>ee8f1d5eafc3534d96929517c779bcd5</UploadId>"
         "</InitiateMultipartUploadResult>";
  char *id = NULL;
  CHECK_INT(hl_s3_xml_parse_initiate(body, strlen(body), a, &id, &err), HL_OK);
  CHECK_STR(id, "ee8f1d5eafc3534d96929517c779bcd5");
  body =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<CompleteMultipartUploadResult>"
      "<Location>http://127.0.0.1:45731/bkt/db/mp</Location><Bucket>bkt</Bucket><Key>db/mp</Key>"
      "<ETag>&quot;6520213d3695a344f306efffa2523807&quot;</ETag></CompleteMultipartUploadResult>";
  char *etag = NULL;
  CHECK_INT(hl_s3_xml_parse_complete(body, strlen(body), a, &etag, &is_err, &e, &err), HL_OK);
  CHECK(!is_err);
  CHECK_STR(etag, "\"6520213d3695a344f306efffa2523807\"");
  body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>InternalError</Code>"
         "<Message>We encountered an internal error. Please try again.</Message></Error>";
  CHECK_INT(hl_s3_xml_parse_complete(body, strlen(body), a, &etag, &is_err, &e, &err), HL_OK);
  CHECK(is_err && etag == NULL);
  CHECK_STR(e.code, "InternalError");
  body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<DeleteResult "
         "xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Deleted><Key>db/t/year=2024/x</Key>"
         "</Deleted><Deleted><Key>nope</Key></Deleted></DeleteResult>";
  hl_s3_delete_error_t *errs = NULL;
  size_t n = 9;
  CHECK_INT(hl_s3_xml_parse_delete(body, strlen(body), a, &errs, &n, &err), HL_OK);
  CHECK_INT(n, 0);
  hl_arena_destroy(a);
}

int main(void) {
  RUN(list_full);
  RUN(list_plain);
  RUN(list_bad);
  RUN(limits);
  RUN(error_doc);
  RUN(initiate);
  RUN(complete);
  RUN(uploads);
  RUN(delete_result);
  RUN(build_delete);
  RUN(build_complete);
  RUN(round_trip_list);
  RUN(s3rver_samples);
  return test_report();
}
