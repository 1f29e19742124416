/*
 * func_sentences.c -- sentences(str [, lang [, country]]) (Hive's
 * GenericUDFSentences): str split into sentences, each an array of its
 * words, as ARRAY<ARRAY<STRING>>.
 *
 * Hive walks a java.text.BreakIterator sentence instance over the text,
 * then a word instance over each sentence, and keeps the word segments
 * whose first UTF-16 unit is a letter or a digit (Character.isLetterOrDigit);
 * a sentence without words stays, as an empty array.  ICU's ubrk gives the
 * same Unicode segmentation (UAX #29) with one difference that shows in
 * Hive's own tests: Java's word rules keep a letter run joined by one
 * dash, soft hyphen, U+2027, quote, apostrophe or period to the next
 * letter run as one word ("ill-formed", "peut-être"), where UAX #29 breaks
 * at the dash.  join_mid_word puts such ICU segments back together.
 *
 * The locale is lang (lower-cased) and country (upper-cased) as Hive's
 * Locale constructor builds it; without lang, or with a NULL one, en_US,
 * the default locale of a JVM that runs Hive in most installations.  An
 * id that is not a short run of ASCII letters and digits is no ICU locale:
 * it selects ICU's root rules, as an unknown locale selects Java's default.
 * Text that is not UTF-8 is decoded with U+FFFD replacements, as Hadoop's
 * Text.toString does.  ICU break iterators are opened per call (they are
 * not shareable between the scan threads that share an expression).
 */
#include "vector/func_int.h"

#include <string.h>
#include <unicode/ubrk.h>
#include <unicode/uchar.h>
#include <unicode/ustring.h>

/* Longest language or country part taken as a locale id. */
#define LOCALE_PART_MAX 16

/* Appends PART to ID[*len] (lower- or upper-cased); false when it is not a
 * short run of ASCII letters and digits. */
static bool locale_part(char *id, size_t *len, const hl_str_t *part, bool upper) {
  if (part->len > LOCALE_PART_MAX) return false;
  for (uint32_t k = 0; k < part->len; k++) {
    char c = part->ptr[k];
    bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (!alpha && !(c >= '0' && c <= '9')) return false;
    if (alpha) c = upper ? (char)(c & ~0x20) : (char)(c | 0x20);
    id[(*len)++] = c;
  }
  id[*len] = '\0';
  return true;
}

/* The ICU locale id of the call's lang and country arguments, in ID. */
static void locale_id(const hl_expr_t *call, const hl_value_t *a, char *id) {
  strcpy(id, "en_US");
  if (call->n_args < 2 || a[1].is_null) return;
  size_t len = 0;
  bool ok = locale_part(id, &len, &a[1].u.s, false);
  if (ok && call->n_args > 2 && !a[2].is_null) {
    id[len++] = '_';
    ok = locale_part(id, &len, &a[2].u.s, true);
  }
  if (!ok) id[0] = '\0'; /* root */
}

/* Java's $mid_word: dash punctuation, soft hyphen, U+2027, " ' and . */
static bool is_mid_word(UChar c) {
  return c == 0x00AD || c == 0x2027 || c == '"' || c == '\'' || c == '.' ||
         u_charType(c) == U_DASH_PUNCTUATION;
}

static bool is_letter(UChar c) {
  return !U16_IS_SURROGATE(c) && u_isalpha(c);
}

/* Where the word that starts at BOUNDS[*k] ends once Java's joins are made:
 * while a segment ending in a letter is followed by a one-unit mid-word
 * segment and a segment starting with a letter, the three are one word. */
static int32_t join_mid_word(const UChar *s, const int32_t *bounds, int32_t n_bounds, int32_t *k) {
  while (*k + 3 < n_bounds) {
    int32_t end = bounds[*k + 1], next = bounds[*k + 2];
    if (next - end != 1 || !is_letter(s[end - 1]) || !is_mid_word(s[end]) || !is_letter(s[next]))
      break;
    *k += 2;
  }
  return bounds[*k + 1];
}

/* Appends V to the growing array ITEMS (*n of *cap). */
static bool push(hl_arena_t *arena, hl_value_t **items, uint32_t *n, uint32_t *cap,
                 const hl_value_t *v) {
  if (*n == *cap) {
    uint32_t nc = *cap ? *cap * 2 : 8;
    hl_value_t *ni =
        hl_arena_realloc(arena, *items, sizeof(hl_value_t) * *cap, sizeof(hl_value_t) * nc);
    if (!ni) return false;
    *items = ni;
    *cap = nc;
  }
  (*items)[(*n)++] = *v;
  return true;
}

/* The UTF-8 string of S[0..len) in ARENA. */
static bool word_value(hl_arena_t *arena, const UChar *s, int32_t len, hl_value_t *out) {
  UErrorCode st = U_ZERO_ERROR;
  int32_t n8 = 0;
  u_strToUTF8(NULL, 0, &n8, s, len, &st);
  if (st != U_BUFFER_OVERFLOW_ERROR && U_FAILURE(st)) return false;
  char *p = hl_fn_alloc_str(out, arena, (size_t)n8);
  if (!p) return false;
  st = U_ZERO_ERROR;
  u_strToUTF8(p, n8, NULL, s, len, &st);
  return U_SUCCESS(st) || st == U_STRING_NOT_TERMINATED_WARNING;
}

/* The words of sentence S[0..len) as an array value in OUT, through the
 * word iterator WI.  BOUNDS has room for len + 1 boundaries. */
static hl_status_t sentence_words(UBreakIterator *wi, const UChar *s, int32_t len, int32_t *bounds,
                                  hl_value_t *out, hl_arena_t *arena, hl_error_t *err) {
  UErrorCode st = U_ZERO_ERROR;
  ubrk_setText(wi, s, len, &st);
  if (U_FAILURE(st))
    return hl_err_set(err, HL_INTERNAL, HL_SS(INTERNAL_ERROR), "word iterator: %s",
                      u_errorName(st));
  int32_t n_bounds = 0;
  for (int32_t b = ubrk_first(wi); b != UBRK_DONE; b = ubrk_next(wi))
    bounds[n_bounds++] = b;
  hl_value_t *items = NULL;
  uint32_t n = 0, cap = 0;
  for (int32_t k = 0; k + 1 < n_bounds; k++) {
    int32_t start = bounds[k];
    /* Hive's test: Character.isLetterOrDigit of the first UTF-16 unit */
    if (U16_IS_SURROGATE(s[start]) || !u_isalnum(s[start])) continue;
    int32_t end = join_mid_word(s, bounds, n_bounds, &k);
    hl_value_t w = {0};
    if (!word_value(arena, s + start, end - start, &w) || !push(arena, &items, &n, &cap, &w))
      return hl_err_nomem(err);
  }
  memset(out, 0, sizeof *out);
  out->u.list.n = n;
  out->u.list.items = items;
  return HL_OK;
}

HL_FN(hl_fn_sentences) {
  if (a[0].is_null) {
    out->is_null = true;
    return HL_OK;
  }
  char loc[2 * LOCALE_PART_MAX + 8];
  locale_id(call, a, loc);
  /* UTF-16: at most one unit per input byte */
  int32_t cap16 = (int32_t)a[0].u.s.len + 1, len16 = 0;
  UChar *text = hl_arena_alloc(arena, sizeof(UChar) * (size_t)cap16);
  int32_t *bounds = hl_arena_alloc(arena, sizeof(int32_t) * (size_t)(cap16 + 1));
  if (!text || !bounds) return hl_err_nomem(err);
  UErrorCode st = U_ZERO_ERROR;
  u_strFromUTF8WithSub(text, cap16, &len16, a[0].u.s.ptr, (int32_t)a[0].u.s.len, 0xFFFD, NULL, &st);
  if (U_FAILURE(st))
    return hl_err_set(err, HL_INTERNAL, HL_SS(INTERNAL_ERROR), "UTF-8 decoding: %s",
                      u_errorName(st));
  UBreakIterator *si = ubrk_open(UBRK_SENTENCE, loc, text, len16, &st);
  UBreakIterator *wi = U_SUCCESS(st) ? ubrk_open(UBRK_WORD, loc, NULL, 0, &st) : NULL;
  hl_status_t rc = HL_OK;
  hl_value_t *items = NULL;
  uint32_t n = 0, cap = 0;
  if (U_FAILURE(st)) {
    rc = st == U_MEMORY_ALLOCATION_ERROR ? hl_err_nomem(err)
                                         : hl_err_set(err, HL_INTERNAL, HL_SS(INTERNAL_ERROR),
                                                      "break iterator: %s", u_errorName(st));
    goto done;
  }
  int32_t prev = ubrk_first(si);
  for (int32_t b = ubrk_next(si); b != UBRK_DONE; prev = b, b = ubrk_next(si)) {
    hl_value_t sent;
    if ((rc = sentence_words(wi, text + prev, b - prev, bounds, &sent, arena, err)) != HL_OK)
      goto done;
    if (!push(arena, &items, &n, &cap, &sent)) {
      rc = hl_err_nomem(err);
      goto done;
    }
  }
  out->is_null = false;
  out->u.list.n = n;
  out->u.list.items = items;
done:
  ubrk_close(wi);
  ubrk_close(si);
  return rc;
}
