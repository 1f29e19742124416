/*
 * func_doc.h -- the registry of every built-in function hivelite has, for
 * SHOW FUNCTIONS and DESCRIBE FUNCTION (command/cmd_show_func.c): scalar
 * functions (func.c), aggregates and window functions (bound in
 * plan/bind.c), table-generating functions (LATERAL VIEW) and operators.
 *
 * Each entry carries Hive's usage line (in our words after the signature),
 * examples whose results are exact (tests/functions/check_registry.py runs
 * every one of them through the CLI), and the class that implements the
 * function in Hive.  Nothing is listed that does not work: the unit test
 * test_func_doc checks that every scalar entry resolves through
 * hl_func_lookup and every scalar function has an entry.
 */
#ifndef HL_FUNC_DOC_H
#define HL_FUNC_DOC_H

#include <stdbool.h>
#include <stddef.h>

typedef enum hl_func_kind {
  HL_FK_SCALAR,    /* row function of func.c */
  HL_FK_AGGREGATE, /* GROUP BY aggregate (also usable OVER a window) */
  HL_FK_WINDOW,    /* window-only function */
  HL_FK_TABLE,     /* table-generating function (LATERAL VIEW) */
  HL_FK_PTF,       /* partitioned table function: FROM name(ON ...) (plan/ptf.c) */
  HL_FK_OPERATOR   /* spelled as an operator or keyword (+, AND, CASE, ...) */
} hl_func_kind_t;

typedef struct hl_func_doc {
  const char *name; /* lower case, as SHOW FUNCTIONS lists it */
  hl_func_kind_t kind;
  const char *usage;      /* "_FUNC_(args) - what it does"; _FUNC_ is the name asked for */
  const char *examples;   /* "> query;\nresult line\n..." (NULL: none); results exact,
                             "..." where they depend on the clock or the user */
  const char *hive_class; /* Hive's implementing class; NULL: hivelite's own */
} hl_func_doc_t;

/* Entries in name order (strcmp), and their count. */
const hl_func_doc_t *hl_func_docs(size_t *n);
/* The entry of NAME (case-insensitive), NULL when there is none. */
const hl_func_doc_t *hl_func_doc_lookup(const char *name);

/* True for a (lower-case) Hive 4 built-in that hivelite lacks, so that a
 * call is refused as unsupported (0A000) rather than unknown. */
bool hl_func_hive_not_yet(const char *name);

/* The scalar function table, for the registry's unit test: the I-th entry's
 * name, NULL past the end. */
const char *hl_func_name_at(size_t i);

#endif
