/*
 * test_hive_hll.c -- unit tests for Hive's HyperLogLog (src/util/hive_hll.c)
 * against the bit vectors in Hive's own expected output
 * (ql/src/test/results/clientpositive/llap/compute_bit_vector.q.out):
 * every fixture decodes and re-encodes to the same bytes (so the register
 * decoding, the recomputed estimate and the HashMap order of the sparse map
 * all agree with Hive), Hive's one-value sketch of DATE -1 is rebuilt from
 * the hash, and bad bytes get 22023 instead of a crash.
 */
#include "test.h"

#include "util/hive_hll.h"

#include <stdio.h>
#include <string.h>

/* compute_bit_vector_hll(csmallint) from alltypesorc: dense, 5-bit registers */
static const char *fx_smallint =
    "484C4CA5A22C18C6318C4210C42208421904229CE61886428CA2208421188528C22104653906421024214A51984311"
    "4632084431823314E5210C32046211C6530C8518C4328C6430C6520C841846520465214A4408C4190840986428C681"
    "14823144318CC618C4321067308A530824228C328C6428C6528CC218C6518D6329043208C53886310C8119C65108A3"
    "10C443104618C43108C22108318CC31144431C812106221C83184672184318C6610C42098851944340C6328842188C"
    "21A06210C4319045288A2190A220E8722D0551C82108A3288C418C6420CC518D2330C2448C4220482208A239842204"
    "65190A320C22080A511C6318C632144230C640888311083514A410CE510C86210C31106828C8241882208652148318"
    "C8418C433084410C61114E2714E210881288C51086228CE411C6320D04184861106619083188C319CA62184218C832"
    "04651086410CA4110A23948330C4611048388AA218E5118C710CE420C6230C6518C821A08210842208A718CA418C43"
    "2946210C840948319C631B069188641844618C4710863190A508925110A3194A3120C211042290A638CA1194632904"
    "20944719462184621106311CC4188A4110E233C8228824220462946418CA531084194451948610CE4294C509446184"
    "63190C210C8119482188E519043284631104920C831944618C6520881108C528CA738C4229064388851946518C4418"
    "8E241464110812886328CA418C6420C4320C6211462298A32108510C63194832188310461108462144418C42194431"
    "9483184662086528CA618C8310C4021043290273906428C641946410C4418C8118CE328C6420442218C22082109144"
    "38584284682086818885118821886130C82408482092401865294C318C65194C310C22";
/* compute_bit_vector_hll(cint): dense, 4-bit registers */
static const char *fx_int =
    "484C4CA4D82F3554237574233242425352664456225122526546282433275663310214253323222344442243566443"
    "44335634333A5223743463225335523224536334634343535534423456233353343376634364151528533824752547"
    "5452543775324445556724113632282212255254252435175445305303633622465275141334236513531489265253"
    "453320343526333255323365534223525B525245343456143476632236421635533625436354235443343422264422"
    "242455F552432543662423554251884236326343534424543323445531554338334442354555348453253236346533"
    "3416555735535643466322524324424143B33662326423281127336246344523245133245315442433135345233365"
    "3757332833223226231342336344226334153554331444334413366264232484443355463524523636204366636543"
    "53242253624545426155532853438434344513444333445B8464248525244527354653272216583523542467674547"
    "24344653C4512472538434714654578344333456468523354536215733264228726225343432611538C32431133634"
    "643964338167263313462345234528326343534592534452244352424246331323465262336533372227A372464346"
    "34443524622935348362653344144142427343647335442324433355142442812751462576324233434A3367445942"
    "43";
/* compute_bit_vector_hll(ctimestamp1): sparse, 35 entries */
static const char *fx_ts =
    "484C4CA02323C4EBE3AC07BED5A5DEFDFFFFFFFF01C581F88E02BAB1CEA6FCFFFFFFFF0181969AF4FCFFFFFFFF01C0"
    "C6D1AD048188B8E1FCFFFFFFFF018093C0C701FECEB3C1FFFFFFFFFF0188829A8BFFFFFFFFFF01F8B18EB30380B2D4"
    "A802C0C3A0F0FDFFFFFFFF0180838201C1D3A3ADFFFFFFFFFF01C0A591E8FFFFFFFFFF01BFECFA52C1A2A4EBFCFFFF"
    "FFFF01BFD8AAE10585FCFDF0FEFFFFFFFF01BCDDA50383E497F7FBFFFFFFFF01FEB190BF0380DB9E8EFEFFFFFFFF01"
    "FE82DEFBFFFFFFFFFF01C189FD8903FFC689D8F9FFFFFFFF0180CCF1BB0582E9A9DAFEFFFFFFFF01BF85DAE8FEFFFF"
    "FFFF01C1DC87AD03BE9DDA82FEFFFFFFFF01C0B0D0B1FEFFFFFFFF0182829578FFBEF78903";
/* compute_bit_vector_hll(cast(ctimestamp2 as date)): one value, -1 */
static const char *fx_date = "484C4CA0010186EC80C501";

static size_t unhex(const char *s, uint8_t *out) {
  size_t n = strlen(s) / 2;
  for (size_t i = 0; i < n; i++) {
    unsigned v;
    sscanf(s + 2 * i, "%2x", &v);
    out[i] = (uint8_t)v;
  }
  return n;
}

static void tohex(const hl_buf_t *b, char *out) {
  for (size_t i = 0; i < b->len; i++)
    sprintf(out + 2 * i, "%02X", (uint8_t)b->data[i]);
  out[2 * b->len] = 0;
}

static void roundtrip(const char *hex, int64_t want_est) {
  static uint8_t bytes[4096];
  static char back[8200];
  size_t n = unhex(hex, bytes);
  hl_arena_t *a = hl_arena_create(0);
  hl_error_t err;
  hl_err_init(&err);
  hl_hhll_t h;
  CHECK(hl_hhll_deserialize(bytes, n, a, &h, &err) == HL_OK);
  int64_t est = 0;
  CHECK(hl_hhll_estimate(&h, &est, &err) == HL_OK);
  CHECK_INT(est, want_est);
  hl_buf_t b;
  hl_buf_init(&b);
  CHECK(hl_hhll_serialize(&h, &b, &err) == HL_OK);
  tohex(&b, back);
  CHECK_STR(back, hex);
  hl_buf_fini(&b);
  hl_arena_destroy(a);
}

TEST(hive_fixtures_roundtrip) {
  roundtrip(fx_smallint, 5666);
  roundtrip(fx_int, 6104);
  roundtrip(fx_ts, 35);
  roundtrip(fx_date, 1);
}

TEST(hash_of_date_minus_one) {
  hl_arena_t *a = hl_arena_create(0);
  hl_error_t err;
  hl_err_init(&err);
  hl_hhll_t h;
  hl_hhll_init(&h, a, HL_HHLL_DEFAULT_P);
  CHECK(hl_hhll_add_long(&h, -1, &err) == HL_OK);
  CHECK(hl_hhll_add_long(&h, -1, &err) == HL_OK);
  hl_buf_t b;
  hl_buf_init(&b);
  CHECK(hl_hhll_serialize(&h, &b, &err) == HL_OK);
  char back[64];
  tohex(&b, back);
  CHECK_STR(back, fx_date);
  /* an empty sketch: estimate 1, no entries */
  hl_hhll_t e;
  hl_hhll_init(&e, a, HL_HHLL_DEFAULT_P);
  hl_buf_reset(&b);
  CHECK(hl_hhll_serialize(&e, &b, &err) == HL_OK);
  tohex(&b, back);
  CHECK_STR(back, "484C4CA00100");
  hl_buf_fini(&b);
  hl_arena_destroy(a);
}

TEST(merge_equals_one_pass) {
  /* 0..999 in one sketch, or 0..499 and 500..999 merged: same bytes
   * (sparse until 153 keys, then dense) */
  hl_arena_t *a = hl_arena_create(0);
  hl_error_t err;
  hl_err_init(&err);
  for (int split = 50; split <= 500; split += 450) {
    for (int total = 100; total <= 1000; total += 900) {
      hl_hhll_t one, x, y;
      hl_hhll_init(&one, a, 10);
      hl_hhll_init(&x, a, 10);
      hl_hhll_init(&y, a, 10);
      for (int i = 0; i < total; i++) {
        CHECK(hl_hhll_add_long(&one, i, &err) == HL_OK);
        CHECK(hl_hhll_add_long(i < split ? &x : &y, i, &err) == HL_OK);
      }
      CHECK(hl_hhll_merge(&x, &y, &err) == HL_OK);
      hl_buf_t b1, b2;
      hl_buf_init(&b1);
      hl_buf_init(&b2);
      CHECK(hl_hhll_serialize(&one, &b1, &err) == HL_OK);
      CHECK(hl_hhll_serialize(&x, &b2, &err) == HL_OK);
      CHECK(b1.len == b2.len && memcmp(b1.data, b2.data, b1.len) == 0);
      hl_buf_fini(&b1);
      hl_buf_fini(&b2);
    }
  }
  hl_arena_destroy(a);
}

TEST(bad_bytes) {
  static const char *bad[] = {"",
                              "48",
                              "484C",
                              "484C4D",
                              "484C4CA0",
                              "484C4CA080",
                              "484C4C30FF01", /* p = 3 */
                              "484C4CA00105", /* 5 entries, none there */
                              "484C4CA0010181"};
  hl_arena_t *a = hl_arena_create(0);
  uint8_t bytes[64];
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    hl_error_t err;
    hl_err_init(&err);
    hl_hhll_t h;
    size_t n = unhex(bad[i], bytes);
    CHECK(hl_hhll_deserialize(bytes, n, a, &h, &err) == HL_ERROR);
    CHECK_STR(err.sqlstate, "22023");
    hl_err_clear(&err);
  }
  /* a dense block that ends early reads 0xff bytes, as Hive does */
  hl_error_t err;
  hl_err_init(&err);
  hl_hhll_t h;
  size_t n = unhex("484C4CA40A", bytes);
  CHECK(hl_hhll_deserialize(bytes, n, a, &h, &err) == HL_OK);
  hl_arena_destroy(a);
}

int main(void) {
  (void)test_fixtures_dir;
  RUN(hive_fixtures_roundtrip);
  RUN(hash_of_date_minus_one);
  RUN(merge_equals_one_pass);
  RUN(bad_bytes);
  return test_report();
}
