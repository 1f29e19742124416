"""hive_hll.py -- the count() of Hive's HyperLogLog computed independently of hivelite's C code,
for the approx_distinct tests (tests/sql/functions/approx_distinct.test).

Written from Hive's standalone-metastore HyperLogLog.java (add, the switch to dense past
((m * 6) / 8) / 5 sparse entries, count() with its float alpha, estimateBias's six nearest raw
estimates in TreeMap order, linear counting, thresholdData), HLLSparseRegister.java (encodeHash
with p' = 25, q' = 6) and HLLDenseRegister.java (register = trailing zeros of hash >>> p, plus
one).  The bias rows are parsed from src/util/hive_hll_bias.c, whose values were checked against
Hive's HLLConstants.java; Murmur3 is tests/data/hive_bloom.py's."""

import math
import os
import re
import struct

import hive_bloom

THRESHOLDS = [10, 20, 40, 80, 220, 400, 900, 1800, 3100, 6500, 15500, 20000, 50000, 120000, 350000]
M64 = (1 << 64) - 1


def _tables():
    src = open(os.path.join(os.path.dirname(__file__), "..", "..", "src", "util",
                            "hive_hll_bias.c")).read()
    out = {}
    for kind, p, body in re.findall(r"static const double (raw_estimate|bias)_p(\d+)\[\d+\] = \{(.*?)\};",
                                    src, re.S):
        out[(kind, int(p))] = [float(x) for x in body.replace("\n", " ").split(",") if x.strip()]
    return out


TABLES = _tables()


def hash_int(v):
    """Murmur3.hash64(int): the 4 big-endian bytes."""
    return hive_bloom.hash64(struct.pack(">i", v))


def _ntz64(x):
    x &= M64
    return 64 if x == 0 else (x & -x).bit_length() - 1


def _f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def _jround(x):
    return int(math.floor(x + 0.5))


class HLL:
    def __init__(self, p):
        self.p, self.m = p, 1 << p
        self.sparse = {}
        self.dense = None

    def add(self, h):
        h &= M64
        p = self.p
        if self.dense is not None:
            idx = h & (self.m - 1)
            lr = _ntz64(h >> p) + 1
            self.dense[idx] = max(self.dense[idx], lr)
            return
        mask = ((1 << 25) - 1) ^ ((1 << p) - 1)
        if h & mask == 0:
            signed = h - (1 << 64) if h >> 63 else h
            ntr = _ntz64(signed >> p) + 1
            enc = (h & ((1 << 25) - 1)) | ((ntr << 25) & 0xFFFFFFFF) | 0x80000000
            key, nr = enc & ((1 << 25) - 1), (enc >> 25) & 63
        else:
            enc = h & 0x7FFFFFFF
            key = enc & ((1 << 25) - 1)
            nr = _ntz64(enc >> p) + 1
        if nr > self.sparse.get(key, 0):
            self.sparse[key] = nr
        if len(self.sparse) > ((self.m * 6) // 8) // 5:
            self.dense = [0] * self.m
            for key, v in self.sparse.items():
                i = key & (self.m - 1)
                self.dense[i] = max(self.dense[i], v)
            self.sparse = None

    def count(self):
        if self.dense is None:
            mp = 1 << 25
            return _jround(mp * math.log(mp / (mp - len(self.sparse))))
        m = self.m
        alpha = _f32(0.7213 / _f32(1 + _f32(_f32(1.079) / m)))
        alpha = _f32(_f32(alpha * m) * m)
        total = sum(2.0 ** -b for b in self.dense)
        zeros = self.dense.count(0)
        c = alpha * (1.0 / total)
        c = (1 << 63) - 1 if c >= 2.0 ** 63 else int(c)  # Java's (long): saturating
        if c <= 5 * m:
            raw, bias = TABLES[("raw_estimate", self.p)], TABLES[("bias", self.p)]
            nearest = {}
            for i, r in enumerate(raw):
                nearest[(c - r) ** 2] = i
            s = sum(bias[nearest[d]] for d in sorted(nearest)[:6])
            c -= int(s / 6 + 0.5)
        hh = _jround(m * math.log(m / zeros)) if zeros else c
        if hh < THRESHOLDS[self.p - 4]:
            c = hh
        return c
