"""hive_bloom.py -- Hive's BloomKFilter built independently of hivelite, for the bloom_filter
tests (tests/sql/functions/bloom_filter.test).

Written from Hive's storage-api BloomKFilter.java (build, addHash, serialize) and Murmur3.java
(hash64 of bytes and of a long, seed 104729), with Java's int and long arithmetic spelled out:
the filter for n expected entries has floor(-n ln(0.05f) / ln(2)^2) bits, k = max(1, round(bits /
n * ln 2)) hashes and ceil(bits / 64) longs padded by 8 - longs % 8; a hash h sets, for
i = 1..k, bit (c >>> 3) & 63 of long c & 7 of block (h1 + h2, complemented when negative)
% blocks, where h1, h2 are the low and high ints of h and c = h1 + (i + 1) * h2 (complemented
when negative).  serialize: k as a byte, the count of longs as a big-endian int, the longs
big-endian."""

import math
import struct

M64 = (1 << 64) - 1
C1 = 0x87C37B91114253D5
C2 = 0x4CF5AD432745937F
SEED = 104729


def _rotl(x, r):
    return ((x << r) | (x >> (64 - r))) & M64


def _fmix(h):
    h ^= h >> 33
    h = (h * 0xFF51AFD7ED558CCD) & M64
    h ^= h >> 33
    h = (h * 0xC4CEB9FE1A85EC53) & M64
    h ^= h >> 33
    return h


def hash64(data):
    """Murmur3.hash64(byte[]): an unsigned 64-bit value."""
    h = SEED
    n = len(data)
    for i in range(n // 8):
        k = struct.unpack_from("<Q", data, i * 8)[0]
        k = (_rotl((k * C1) & M64, 31) * C2) & M64
        h ^= k
        h = (_rotl(h, 27) * 5 + 0x52DCE729) & M64
    tail = data[n - n % 8:]
    if tail:
        k = 0
        for j, b in enumerate(tail):
            k |= b << (8 * j)
        k = (_rotl((k * C1) & M64, 31) * C2) & M64
        h ^= k
    h ^= n
    return _fmix(h)


def hash_long(v):
    """Murmur3.hash64(long): the hash of the long's 8 big-endian bytes."""
    return hash64(struct.pack(">q", v))


def hash_double(d):
    """addDouble: Double.doubleToLongBits (one NaN)."""
    if d != d:
        return hash_long(0x7FF8000000000000)
    return hash_long(struct.unpack(">q", struct.pack(">d", d))[0])


def _int(x):
    x &= 0xFFFFFFFF
    return x - (1 << 32) if x >> 31 else x


def shape(n):
    """BloomKFilter.build(n): (k, number of longs)."""
    p = struct.unpack("<f", struct.pack("<f", 0.05))[0]
    bits = int(-n * math.log(p) / (math.log(2) * math.log(2)))
    k = max(1, int(math.floor(bits / n * math.log(2) + 0.5)))
    longs = math.ceil(bits / 64)
    longs += 8 - longs % 8
    return k, longs


class Filter:
    def __init__(self, n):
        self.k, n_longs = shape(n)
        self.bits = [0] * n_longs

    def add_hash(self, h):
        h1 = _int(h)
        h2 = _int(h >> 32)
        first = _int(h1 + h2)
        if first < 0:
            first = ~first
        base = (first % (len(self.bits) // 8)) * 8
        for i in range(1, self.k + 1):
            c = _int(h1 + _int((i + 1) * h2))
            if c < 0:
                c = ~c
            self.bits[base + (c & 7)] |= 1 << ((c >> 3) & 63)
        return self

    def merge(self, other):
        assert self.k == other.k and len(self.bits) == len(other.bits)
        self.bits = [a | b for a, b in zip(self.bits, other.bits)]
        return self

    def serialize(self):
        return struct.pack(">bi", self.k, len(self.bits)) + b"".join(
            struct.pack(">Q", w) for w in self.bits)
