/*
 * pin.h -- a typed partition key pinned to a constant, as catalog probes.
 *
 * Partition values are stored as text.  hivelite stores the canonical text
 * of a typed value (hr=5, dt=2024-01-05), but a Hive Metastore client may
 * register other spellings ('05', ' 5', '5.0', '2024-1-5'), and Hive
 * compares the typed values, so `hr = 5` keeps them all.  The pruning in
 * bind.c asks the catalog's value index for the canonical text plus the
 * byte-order ranges where every other spelling of the value would sort:
 * a superset, over which the predicates are then evaluated; when no such
 * spelling is stored, each range is an empty index probe.
 */
#ifndef HL_PLAN_PIN_H
#define HL_PLAN_PIN_H

#include "catalog/catalog.h"
#include "util/arena.h"
#include "util/type.h"
#include "util/value.h"

/* For key type KEY_TYPE pinned to the constant V of type V_TYPE: *CANON,
 * the text hivelite stores for the value, and *ALT / *N_ALT, the ranges
 * holding its other spellings (all in ARENA).  *CANON is NULL when the
 * pair is not one this handles (then the key is not pinned: the filter
 * decides over every partition).  False only when ARENA is exhausted. */
bool hl_plan_pin_typed(hl_arena_t *arena, const hl_type_t *key_type, const hl_type_t *v_type,
                       const hl_value_t *v, char **canon, hl_cat_vrange_t **alt, int *n_alt);

#endif
