/*
 * hive_hll_int.h -- what hive_hll.c shares with hive_hll_bias.c (the
 * bias table kept apart because it is data, not logic).
 */
#ifndef HL_HIVE_HLL_INT_H
#define HL_HIVE_HLL_INT_H

#include <stdbool.h>

#include "util/hive_hll.h"

/* HyperLogLog.estimateBias(count) for p = 10 (HLLConstants row 6). */
int64_t hl_hhll_bias_p10(int64_t count);

#endif
