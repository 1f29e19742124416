"""hadoop_io.py -- SequenceFiles and RCFiles laid out independently of hivelite, for the
format tests (tests/sql/formats/seqfile_codecs.test, rcfile_codecs.test).

Written from the layouts of Hadoop's SequenceFile.java (Writer, RecordCompressWriter,
BlockCompressWriter) and Hive's RCFile.java, with Python's own codec libraries: zlib (DefaultCodec),
gzip, bz2, python3-snappy and python3-lz4 in Hadoop's BlockCompressorStream framing, and the
zstd(1) tool.  Used both ways: to decode what hivelite writes (checking every length and marker)
and to make files hivelite must read.  Raises on anything unexpected."""

import bz2
import gzip
import struct
import subprocess
import zlib

import lz4.block
import snappy

PKG = "org.apache.hadoop.io.compress."
CODECS = ["DefaultCodec", "DeflateCodec", "GzipCodec", "BZip2Codec", "SnappyCodec", "Lz4Codec",
          "ZStandardCodec"]


# ---- WritableUtils vints and Text strings

def vint(v):
    if -112 <= v <= 127:
        return struct.pack(">b", v)
    marker = -112
    if v < 0:
        v, marker = ~v, -120
    body = v.to_bytes((v.bit_length() + 7) // 8, "big")
    return struct.pack(">b", marker - len(body)) + body


def read_vint(b, pos):
    first = struct.unpack_from(">b", b, pos)[0]
    if first >= -112:
        return first, pos + 1
    neg = first < -120
    n = (-120 - first) if neg else (-112 - first)
    v = int.from_bytes(b[pos + 1:pos + 1 + n], "big")
    assert len(b) >= pos + 1 + n, "truncated vint"
    return (~v if neg else v), pos + 1 + n


def text(s):
    s = s.encode() if isinstance(s, str) else s
    return vint(len(s)) + s


def read_text(b, pos):
    n, pos = read_vint(b, pos)
    return b[pos:pos + n], pos + n


be = lambda n: struct.pack(">i", n)
rd = lambda b, pos: (struct.unpack_from(">i", b, pos)[0], pos + 4)


# ---- codecs: one complete stream per buffer

def _blocks(raw, data, chunk):
    # BlockCompressorStream: a block of the plain length, chunks of at most CHUNK plain bytes
    out = be(len(data))
    for off in range(0, len(data), chunk):
        c = raw(data[off:off + chunk])
        out += be(len(c)) + c
    return out


def _unblocks(raw, data):
    out, pos = b"", 0
    while pos < len(data):
        left, pos = rd(data, pos)
        assert left >= 0, "negative block length"
        while left > 0:
            n, pos = rd(data, pos)
            assert 0 < n <= len(data) - pos, "bad chunk length"
            plain = raw(data[pos:pos + n], left)
            pos += n
            assert len(plain) <= left, "chunk larger than its block"
            left -= len(plain)
            out += plain
    return out


def _zstd(args, data):
    return subprocess.run(["zstd", "-q", "-c"] + args, input=data, stdout=subprocess.PIPE,
                          check=True).stdout


def compress(codec, data, chunk=65536):
    if codec in ("DefaultCodec", "DeflateCodec"):
        return zlib.compress(data)
    if codec == "GzipCodec":
        return gzip.compress(data)
    if codec == "BZip2Codec":
        return bz2.compress(data)
    if codec == "ZStandardCodec":
        return _zstd([], data)
    if codec == "SnappyCodec":
        return _blocks(snappy.compress, data, chunk)
    if codec == "Lz4Codec":
        return _blocks(lambda b: lz4.block.compress(b, store_size=False), data, chunk)
    raise ValueError(codec)


def decompress(codec, data):
    if codec in ("DefaultCodec", "DeflateCodec"):
        d = zlib.decompressobj()
        out = d.decompress(data)
        assert d.eof and not d.unused_data, "zlib stream does not end with the buffer"
        return out
    if codec == "GzipCodec":
        assert data[:2] == b"\x1f\x8b", "not a gzip stream"
        return gzip.decompress(data)
    if codec == "BZip2Codec":
        assert data[:3] == b"BZh", "not a bzip2 stream"
        return bz2.decompress(data)
    if codec == "ZStandardCodec":
        assert data[:4] == b"\x28\xb5\x2f\xfd", "not a zstd frame"
        return _zstd(["-d"], data)
    if codec == "SnappyCodec":
        return _unblocks(lambda c, left: snappy.uncompress(c), data)
    if codec == "Lz4Codec":
        return _unblocks(lambda c, left: lz4.block.decompress(c, uncompressed_size=left), data)
    raise ValueError(codec)


# ---- SequenceFile (version 6, BytesWritable keys, Text values)

BW, TEXT = "org.apache.hadoop.io.BytesWritable", "org.apache.hadoop.io.Text"


def seq_write(rows, codec=None, block=False, sync=b"0123456789abcdef", per_block=2, chunk=65536):
    """rows: bytes of each Text value.  RECORD: each value compressed on its own; BLOCK: PER_BLOCK
    records a block."""
    out = b"SEQ\x06" + text(BW) + text(TEXT) + bytes([codec is not None, block])
    if codec:
        out += text(PKG + codec)
    out += be(0) + sync
    key = be(0)  # the empty BytesWritable
    if block:
        for i in range(0, len(rows), per_block):
            part = rows[i:i + per_block]
            bufs = [b"".join(vint(4) for _ in part), key * len(part),
                    b"".join(vint(len(text(r))) for r in part), b"".join(text(r) for r in part)]
            out += be(-1) + sync + vint(len(part))
            for buf in bufs:
                c = compress(codec, buf, chunk)
                out += vint(len(c)) + c
        return out
    for i, r in enumerate(rows):
        if i and i % 2 == 0:
            out += be(-1) + sync  # a sync escape between records now and then
        value = compress(codec, text(r), chunk) if codec else text(r)
        out += be(len(key) + len(value)) + be(len(key)) + key + value
    return out


def seq_read(data):
    """-> (codec class or None, 'NONE'|'RECORD'|'BLOCK', [row bytes], blocks, syncs)"""
    assert data[:4] == b"SEQ\x06", "not a version 6 SequenceFile"
    kc, pos = read_text(data, 4)
    vc, pos = read_text(data, pos)
    assert kc == BW.encode() and vc in (TEXT.encode(), BW.encode()), (kc, vc)
    compressed, block = data[pos], data[pos + 1]
    pos += 2
    codec = None
    if compressed:
        name, pos = read_text(data, pos)
        name = name.decode()
        assert name.startswith(PKG), name
        codec = name[len(PKG):]
    else:
        assert not block
    n_meta, pos = rd(data, pos)
    assert n_meta == 0, "metadata written"
    sync = data[pos:pos + 16]
    pos += 16
    unwrap = (lambda v: read_text(v, 0)) if vc == TEXT.encode() else \
        (lambda v: (v[4:4 + rd(v, 0)[0]], 4 + rd(v, 0)[0]))
    rows, blocks, syncs = [], 0, 0
    while pos < len(data):
        n, pos = rd(data, pos)
        if n == -1:
            assert data[pos:pos + 16] == sync, "bad sync marker"
            pos += 16
            syncs += 1
            if not block:
                continue
            count, pos = read_vint(data, pos)
            bufs = []
            for _ in range(4):
                clen, pos = read_vint(data, pos)
                bufs.append(decompress(codec, data[pos:pos + clen]))
                pos += clen
            blocks += 1
            klens, keys, vlens, vals = bufs
            klp = kp = vp = lp = 0
            for _ in range(count):
                kl, klp = read_vint(klens, klp)
                assert keys[kp:kp + 4] == b"\0\0\0\0" and kl == 4, "keys are empty BytesWritables"
                kp += 4
                vl, lp = read_vint(vlens, lp)
                value = vals[vp:vp + vl]
                vp += vl
                row, used = unwrap(value)
                assert used == vl, "value length"
                rows.append(row)
            assert klp == len(klens) and kp == len(keys) == 4 * count
            assert vp == len(vals) and lp == len(vlens)
            continue
        assert not block, "a record outside a block"
        klen, pos = rd(data, pos)
        assert klen == 4 and data[pos:pos + 4] == b"\0\0\0\0"
        value = data[pos + 4:pos + n]
        assert len(value) == n - 4, "truncated record"
        pos += n
        if codec:
            value = decompress(codec, value)
        row, used = unwrap(value)
        assert used == len(value), "value length"
        rows.append(row)
    assert pos == len(data)
    kind = "BLOCK" if block else "RECORD" if compressed else "NONE"
    return codec, kind, rows, blocks, syncs


# ---- RCFile ("RCF" 1)

def rc_write(rows, n_cols, codec=None, sync=b"fedcba9876543210", per_group=2, chunk=65536):
    """rows: tuples of N_COLS cell bytes.  Groups of PER_GROUP rows."""
    out = b"RCF\x01" + bytes([codec is not None])
    if codec:
        out += text(PKG + codec)
    out += be(1) + text("hive.io.rcfile.column.number") + text(str(n_cols)) + sync
    for g in range(0, len(rows), per_group):
        part = rows[g:g + per_group]
        key, values = vint(len(part)), b""
        for c in range(n_cols):
            cells = [r[c] for r in part]
            plain = b"".join(cells)
            lens = b""
            i = 0
            while i < len(cells):  # run-length: a length, then ~k for k more of it
                j = i
                while j + 1 < len(cells) and len(cells[j + 1]) == len(cells[i]):
                    j += 1
                lens += vint(len(cells[i])) + (vint(~(j - i)) if j > i else b"")
                i = j + 1
            stored = compress(codec, plain, chunk) if codec else plain
            key += vint(len(stored)) + vint(len(plain)) + vint(len(lens)) + lens
            values += stored
        stored_key = compress(codec, key, chunk) if codec else key
        out += be(-1) + sync + be(len(key) + len(values)) + be(len(key)) + be(len(stored_key))
        out += stored_key + values
    return out


def rc_read(data):
    """-> (codec class or None, n_cols, [tuple of cell bytes], groups)"""
    assert data[:4] == b"RCF\x01", "not an RCF 1 file"
    pos = 5
    codec = None
    if data[4]:
        name, pos = read_text(data, pos)
        name = name.decode()
        assert name.startswith(PKG), name
        codec = name[len(PKG):]
    n_meta, pos = rd(data, pos)
    meta = {}
    for _ in range(n_meta):
        k, pos = read_text(data, pos)
        v, pos = read_text(data, pos)
        meta[k] = v
    n_cols = int(meta[b"hive.io.rcfile.column.number"])
    sync = data[pos:pos + 16]
    pos += 16
    rows, groups = [], 0
    while pos < len(data):
        rec, pos = rd(data, pos)
        if rec == -1:
            assert data[pos:pos + 16] == sync, "bad sync marker"
            pos += 16
            continue
        klen, pos = rd(data, pos)
        sklen, pos = rd(data, pos)
        key = data[pos:pos + sklen]
        pos += sklen
        if codec:
            key = decompress(codec, key)
        else:
            assert sklen == klen
        assert len(key) == klen, "key length"
        values = data[pos:pos + rec - klen]
        assert len(values) == rec - klen, "truncated row group"
        pos += rec - klen
        n, kp = read_vint(key, 0)
        cols, vp = [], 0
        for _ in range(n_cols):
            stored, kp = read_vint(key, kp)
            plain_len, kp = read_vint(key, kp)
            lens_len, kp = read_vint(key, kp)
            lens, kp = key[kp:kp + lens_len], kp + lens_len
            buf = values[vp:vp + stored]
            vp += stored
            plain = decompress(codec, buf) if codec else buf
            assert len(plain) == plain_len, "plain column length"
            cells, lp, off, prev = [], 0, 0, None
            while lp < len(lens):
                v, lp = read_vint(lens, lp)
                run = [prev] * (~v) if v < 0 else [v]
                for ln in run:
                    cells.append(plain[off:off + ln])
                    off += ln
                prev = v if v >= 0 else prev
            assert len(cells) == n and off == plain_len, "cell lengths"
            cols.append(cells)
        assert kp == len(key) and vp == len(values)
        rows += list(zip(*cols))
        groups += 1
    return codec, n_cols, rows, groups
