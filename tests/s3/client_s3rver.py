#!/usr/bin/python3
"""client_s3rver.py -- the S3 client (src/storage/s3/s3_client.h) against
s3rver, with boto3 as the independent peer (test interop.s3_client).

s3_client_tool (tests/unit/storage/s3_client_tool.c) makes one client
call per run and prints its results; this script checks them against
what boto3 sees, byte for byte, in both directions: objects the client
wrote are read by boto3 and objects boto3 wrote are read by the client;
a 12 MiB multipart upload in 3 parts; ListObjectsV2 continuation over
2,500 keys; DeleteObjects of 2,500 keys; anonymous requests.  Then the
same client through tests/s3/fault_proxy.py, which checks every
request's Signature V4 and injects faults, with the exact number of
requests the proxy counted: 503/500/429, dropped connections, truncated
bodies and stalls are retried; the object replaced in the middle of a
read is 55000; a redirect is refused; a malformed reply is 08P01; a
CompleteMultipartUpload whose reply was lost succeeds on its retry.

Exit 77 when node, npm or boto3 is missing (s3env.require), which
CI=true turns into a failure.
"""
import argparse
import hashlib
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
try:
    import s3env  # noqa: E402  (tests/s3/s3env.py: the harness)
except ImportError as e:
    # the harness is its own branch; without it this test cannot run
    print("%s: tests/s3/s3env.py is missing (%s)" % (
        "FAIL" if os.environ.get("CI") == "true" else "SKIP", e), flush=True)
    sys.exit(1 if os.environ.get("CI") == "true" else 77)

failures = 0
BUCKET = "bkt"
# every call goes through the proxy, which checks its Signature V4 (s3rver
# checks only the access key id) and the part list of a
# CompleteMultipartUpload as S3 does (s3rver does not)
BASE_EMULATION = ["complete_check"]


def check(cond, what):
    global failures
    if cond:
        print("ok   %s" % what, flush=True)
    else:
        failures += 1
        print("FAIL %s" % what, flush=True)


def check_eq(got, want, what):
    if got != want:
        print("     got  %r\n     want %r" % (got, want), flush=True)
    check(got == want, what)


class Tool:
    def __init__(self, path, endpoint, access_key, secret_key):
        self.path = path
        self.endpoint = endpoint
        self.access_key = access_key
        self.secret_key = secret_key

    def run(self, *cmd, stdin=None, endpoint=None, options=()):
        """(exit code, result lines, {stat: count}) of one run."""
        argv = [self.path, "--endpoint", endpoint or self.endpoint, "--retry-base-ms", "1"]
        if "--anon" not in options:
            argv += ["--key", self.access_key, "--secret", self.secret_key]
        argv += list(options) + list(cmd)
        r = subprocess.run(argv, input=stdin, capture_output=True, text=True, timeout=240)
        lines = r.stdout.splitlines()
        stats = {}
        if lines and lines[-1].startswith("stats "):
            stats = {k: int(v) for k, v in (f.split("=") for f in lines[-1].split()[1:])}
            lines = lines[:-1]
        if r.stderr:
            print("     stderr: %s" % r.stderr.strip()[:2000], flush=True)
        return r.returncode, lines, stats


def rand_bytes(rng, n):
    return rng.getrandbits(8 * n).to_bytes(n, "little") if n else b""


def roundtrips(tool, s3, tmp, rng):
    # the client writes, boto3 reads (a key that needs every kind of encoding)
    key = "dir/a b+c=%\u00e9&?.bin"
    data = rand_bytes(rng, 1_000_003)
    src = os.path.join(tmp, "src.bin")
    with open(src, "wb") as f:
        f.write(data)
    rc, out, stats = tool.run("put", BUCKET, key, src)
    o = s3.get_object(Bucket=BUCKET, Key=key)
    body = o["Body"].read()
    check_eq((rc, out), (0, ["etag %s" % o["ETag"]]), "put: the ETag boto3 sees")
    check(body == data, "put: boto3 reads the same %d bytes" % len(data))
    check_eq(o["ETag"], '"%s"' % hashlib.md5(data).hexdigest(), "put: ETag is the MD5")
    check_eq(stats.get("put"), 1, "put: one request")

    # head against boto3's
    h = s3.head_object(Bucket=BUCKET, Key=key)
    rc, out, _ = tool.run("head", BUCKET, key)
    check_eq((rc, out), (0, ["size %d etag %s mtime %d" % (
        h["ContentLength"], h["ETag"], int(h["LastModified"].timestamp()))]), "head: as boto3")
    rc, out, _ = tool.run("head", BUCKET, "dir/missing")
    check_eq((rc, out), (0, ["missing"]), "head: a missing key")

    # boto3 writes, the client reads: whole (parallel ranges) and in parts
    key2 = "from-boto/x y.dat"
    data2 = rand_bytes(rng, 3 * 1024 * 1024 + 17)
    s3.put_object(Bucket=BUCKET, Key=key2, Body=data2)
    dst = os.path.join(tmp, "dst.bin")
    rc, out, stats = tool.run("getall", BUCKET, key2, dst, str(256 * 1024), "4")
    with open(dst, "rb") as f:
        got = f.read()
    check_eq((rc, out), (0, ["size %d" % len(data2)]), "get_ranges: size")
    check(got == data2, "get_ranges: the bytes boto3 wrote")
    check_eq((stats.get("head"), stats.get("get")), (1, 13), "get_ranges: 1 HEAD, 13 GETs")
    for off, n, want in ((0, 1, 1), (12345, 100000, 100000), (len(data2) - 10, 100, 10),
                         (len(data2), 100, 0), (len(data2) + 5, 10, 0)):
        rc, out, _ = tool.run("get", BUCKET, key2, str(off), str(n), dst)
        with open(dst, "rb") as f:
            got = f.read()
        check_eq((rc, out, got), (0, ["got %d" % want], data2[off:off + n]),
                 "get_range: %d bytes at %d" % (n, off))
    # the ETag rule with a matching ETag; a wrong one is refused (412)
    etag = s3.head_object(Bucket=BUCKET, Key=key2)["ETag"]
    rc, out, _ = tool.run("get", BUCKET, key2, "0", "10", dst, etag)
    check_eq((rc, out), (0, ["got 10"]), "get_range: If-Match with the right ETag")
    rc, out, _ = tool.run("get", BUCKET, "dir/missing", "0", "10", dst)
    check_eq((rc, out), (1, ['error 58P01 could not GET s3://bkt/dir/missing (bytes 0-9): '
                             'HTTP 404 NoSuchKey "The specified key does not exist."']),
             "get_range: NoSuchKey is 58P01")

    # virtual-hosted addressing: the client sends Host "vh.localhost:PORT"
    # (curl resolves *.localhost to loopback) and s3rver takes a host that
    # is neither an IP nor "localhost" as the bucket's name (CNAME style),
    # so bucket "vh" at endpoint localhost is s3rver's bucket "vh.localhost"
    srv_vh = tool.endpoint.replace("127.0.0.1", "localhost")
    s3.create_bucket(Bucket="vh.localhost")
    s3.put_object(Bucket="vh.localhost", Key="v/k 1", Body=data2[:5000])
    rc, out, _ = tool.run("get", "vh", "v/k 1", "0", "1000", dst, endpoint=srv_vh,
                          options=("--virtual",))
    with open(dst, "rb") as f:
        got = f.read()
    check_eq((rc, out, got), (0, ["got 1000"], data2[:1000]), "virtual-hosted GET")
    rc, out, _ = tool.run("put", "vh", "v/k 2", src, endpoint=srv_vh, options=("--virtual",))
    check_eq(rc, 0, "virtual-hosted PUT")
    check(s3.get_object(Bucket="vh.localhost", Key="v/k 2")["Body"].read() == data,
          "virtual-hosted PUT: boto3 reads it")
    rc, out, _ = tool.run("list", "vh", "v/", "1", endpoint=srv_vh, options=("--virtual",))
    check_eq((rc, out), (0, ["key v/k 1 size 5000", "key v/k 2 size %d" % len(data),
                             "pages 2 keys 2"]), "virtual-hosted list")

    # delete of one object, and of a missing one
    rc, out, _ = tool.run("delete", BUCKET, key)
    check_eq((rc, out), (0, ["deleted"]), "delete")
    rc, out, _ = tool.run("delete", BUCKET, key)
    check_eq((rc, out), (0, ["deleted"]), "delete: missing is success")
    check("Contents" not in s3.list_objects_v2(Bucket=BUCKET, Prefix="dir/"), "delete: gone")


def multipart(tool, s3, tmp, rng):
    data = rand_bytes(rng, 12 * 1024 * 1024)
    src = os.path.join(tmp, "mpu.bin")
    with open(src, "wb") as f:
        f.write(data)
    # parts of 5, 5 and 2 MiB (S3: every part but the last at least 5 MiB)
    rc, out, stats = tool.run("mpu", BUCKET, "mpu/big.bin", src, str(5 * 1024 * 1024))
    md5s = [hashlib.md5(data[i:i + (5 << 20)]).digest() for i in range(0, len(data), 5 << 20)]
    want = ["part %d etag \"%s\"" % (i + 1, m.hex()) for i, m in enumerate(md5s)] + ["complete"]
    check_eq((rc, out), (0, want), "mpu: 3 parts and their ETags")
    o = s3.get_object(Bucket=BUCKET, Key="mpu/big.bin")
    check(o["Body"].read() == data, "mpu: boto3 reads the 12 MiB")
    # s3rver's ETag of a multipart object is the MD5 of its bytes (S3's is
    # the MD5 of the parts' MD5s and "-3")
    check_eq(o["ETag"], '"%s"' % hashlib.md5(data).hexdigest(), "mpu: s3rver's ETag")
    check_eq((stats.get("mpu_create"), stats.get("mpu_part"), stats.get("mpu_complete")),
             (1, 3, 1), "mpu: request counts")


def listing(tool, s3, tmp, px):
    keys = ["many/%02d/k%05d" % (i % 7, i) for i in range(2500)]
    for k in keys:
        s3.put_object(Bucket=BUCKET, Key=k, Body=k.encode())
    px.reset()
    rc, out, stats = tool.run("list", BUCKET, "many/", "200")
    # one client connection for all 13 pages (the handle pool keeps it)
    check_eq((px.counts(), px.connections()), ({"list": 13}, 1), "list: 13 requests, 1 connection")
    want = ["key %s size %d" % (k, len(k)) for k in sorted(keys)] + ["pages 13 keys 2500"]
    check_eq((rc, len(out)), (0, 2501), "list: 2,500 keys")
    check(out == want, "list: every key in order, over 13 pages")
    rc, out, _ = tool.run("list", BUCKET, "many/", "0", "/")
    check_eq((rc, out), (0, ["prefix many/%02d/" % i for i in range(7)] + ["pages 1 keys 0"]),
             "list: delimiter")
    rc, out, stats = tool.run("delete-many", BUCKET, stdin="".join(k + "\n" for k in keys))
    check_eq((rc, out), (0, ["deleted 2500"]), "delete_many: 2,500 keys")
    # s3rver sometimes fails a DeleteObjects with 500 (its parallel deletes
    # race on removing the emptied directory): retried, not new batches
    check_eq(stats.get("delete") - stats.get("retries"), 3, "delete_many: 3 batches")
    check("Contents" not in s3.list_objects_v2(Bucket=BUCKET, Prefix="many/"),
          "delete_many: boto3 lists none")


def anonymous(tool, srv, s3, px):
    s3.put_object(Bucket=BUCKET, Key="anon/k", Body=b"public bytes")
    # s3rver takes unsigned requests (tests/s3/README.md)
    rc, out, _ = tool.run("head", BUCKET, "anon/k", endpoint=srv.endpoint, options=("--anon",))
    check_eq((rc, out[:1]), (0, [out[0] if out and out[0].startswith("size 12 ") else None]),
             "anonymous: HEAD against s3rver")
    # a server that wants signatures refuses it, and nothing is retried
    px.reset()
    rc, out, _ = tool.run("get", BUCKET, "anon/k", "0", "5", os.devnull, endpoint=px.endpoint,
                          options=("--anon",))
    check_eq((rc, out), (1, ['error 28000 could not GET s3://bkt/anon/k (bytes 0-4): HTTP 403 '
                             'AccessDenied "Access Denied (no Signature V4 Authorization '
                             'header)"']), "anonymous: refused with 28000")
    check_eq(px.counts(), {"get": 1}, "anonymous: one request")
    rc, out, _ = tool.run("head", BUCKET, "anon/k", endpoint=px.endpoint, options=(
        "--secret", "not-the-secret"))
    check_eq((rc, out), (1, ["error 28000 could not HEAD s3://bkt/anon/k: HTTP 403"]),
             "a wrong secret: 28000")


def faults(tool, s3, tmp, rng, px):
    data = rand_bytes(rng, 1_000_000)
    s3.put_object(Bucket=BUCKET, Key="f/obj", Body=data)
    dst = os.path.join(tmp, "f.bin")

    def case(rules, cmd, want_rc, want_out, want_counts, what, options=()):
        px.reset()
        px.set_rules(rules)
        rc, out, stats = tool.run(*cmd, endpoint=px.endpoint, options=options)
        check_eq((rc, out), (want_rc, want_out), what)
        check_eq(px.counts(), want_counts, what + ": requests")
        return stats

    get = ("get", BUCKET, "f/obj", "0", "100", dst)
    st = case([{"kind": "get", "nth": 1, "fault": "status", "status": 503}], get, 0,
              ["got 100"], {"get": 2}, "503 retried")
    check_eq(st.get("retries"), 1, "503 retried: one retry counted")
    case([{"kind": "get", "nth": 1, "fault": "status", "status": 500}], get, 0, ["got 100"],
         {"get": 2}, "500 retried")
    case([{"kind": "get", "nth": 1, "fault": "status", "status": 429}], get, 0, ["got 100"],
         {"get": 2}, "429 retried")
    case([{"kind": "get", "nth": 1, "fault": "drop"}], get, 0, ["got 100"], {"get": 2},
         "dropped connection retried")
    case([{"kind": "get", "nth": 1, "fault": "truncate", "bytes": 40}], get, 0, ["got 100"],
         {"get": 2}, "truncated body retried")
    case([{"kind": "get", "nth": 1, "fault": "delay", "seconds": 3}], get, 0, ["got 100"],
         {"get": 2}, "stalled reply times out and is retried",
         options=("--timeout-ms", "1000"))
    case([{"kind": "head", "nth": 1, "fault": "status", "status": 503}],
         ("head", BUCKET, "f/obj"), 0,
         ["size 1000000 etag \"%s\" mtime %d" % (hashlib.md5(data).hexdigest(), int(
             s3.head_object(Bucket=BUCKET, Key="f/obj")["LastModified"].timestamp()))],
         {"head": 2}, "HEAD 503 retried")
    src = os.path.join(tmp, "small.bin")
    with open(src, "wb") as f:
        f.write(b"small object")
    case([{"kind": "put", "nth": 1, "fault": "status", "status": 429},
          {"kind": "put", "nth": 2, "fault": "drop"}],
         ("put", BUCKET, "f/put", src), 0,
         ["etag \"%s\"" % hashlib.md5(b"small object").hexdigest()], {"put": 3},
         "PUT 429 and drop retried")
    check_eq(s3.get_object(Bucket=BUCKET, Key="f/put")["Body"].read(), b"small object",
             "PUT retried: boto3 reads it")
    case([{"kind": "list", "nth": 1, "fault": "truncate"}], ("list", BUCKET, "f/", "0"), 0,
         ["key f/obj size 1000000", "key f/put size 12", "pages 1 keys 2"], {"list": 2},
         "truncated list retried")
    case([{"kind": "get", "every": True, "fault": "status", "status": 503}], get, 1,
         ['error 58030 could not GET s3://bkt/f/obj (bytes 0-99): HTTP 503 SlowDown "Please '
          'reduce your request rate." after 5 attempts'], {"get": 5}, "503 gives up after 5")
    case([{"kind": "get", "nth": 1, "fault": "redirect",
           "location": "http://127.0.0.2:1/bkt/f/obj"}], get, 1,
         ['error 58030 could not GET s3://bkt/f/obj (bytes 0-99): HTTP 301 PermanentRedirect '
          '"The bucket you are attempting to access must be addressed using the specified '
          'endpoint." (Location "http://127.0.0.2:1/bkt/f/obj"); redirects are not followed'],
         {"get": 1}, "redirect refused, not retried")
    px.reset()
    px.set_rules([{"kind": "list", "nth": 1, "fault": "malformed"}])
    rc, out, _ = tool.run("list", BUCKET, "f/", "0", endpoint=px.endpoint)
    check(rc == 1 and len(out) == 1 and out[0].startswith("error 08P01 could not list s3://bkt: "),
          "malformed list reply is 08P01 (%s)" % out)
    check_eq(px.counts(), {"list": 1}, "malformed list reply: not retried")
    # the object replaced between two range reads: 55000, never mixed bytes
    case([{"kind": "get", "nth": 2, "fault": "replace", "body": "x" * 1000000}],
         ("getall", BUCKET, "f/obj", dst, "250000", "1"), 1,
         ['error 55000 could not GET s3://bkt/f/obj (bytes 250000-499999): the object changed '
          'while it was read (ETag "%s", expected "%s")' % (
              hashlib.md5(b"x" * 1000000).hexdigest(), hashlib.md5(data).hexdigest())],
         {"head": 1, "get": 2}, "replaced mid-read is 55000")
    case([{"kind": "get", "nth": 1, "fault": "bad_etag"}],
         ("get", BUCKET, "f/obj", "0", "10", dst, '"%s"' % hashlib.md5(b"x" * 1000000).hexdigest()),
         1, ['error 55000 could not GET s3://bkt/f/obj (bytes 0-9): the object changed while it '
             'was read (ETag "00000000000000000000000000000000", expected "%s")'
             % hashlib.md5(b"x" * 1000000).hexdigest()],
         {"get": 1}, "another ETag in the reply is 55000")
    # a server that honours If-Match (the proxy's emulation): 412, 55000
    px.set_emulate(BASE_EMULATION + ["if_match"])
    case([], ("get", BUCKET, "f/obj", "0", "10", dst, '"%s"' % hashlib.md5(data).hexdigest()), 1,
         ['error 55000 could not GET s3://bkt/f/obj (bytes 0-9): the object changed while it '
          'was read (HTTP 412 PreconditionFailed, expected ETag "%s")'
          % hashlib.md5(data).hexdigest()], {"get": 1},
         "If-Match refused with 412 is 55000")
    px.set_emulate(BASE_EMULATION)
    # multipart: a part retried; a complete whose reply is lost.  The
    # proxy answers NoSuchUpload for an upload it saw completed ("abort"
    # emulation; s3rver itself fails with 500), and gives the HEAD reply
    # the ETag S3 would (s3rver's is the MD5 of the whole object)
    big = rand_bytes(rng, 5 * 1024 * 1024 + 10)
    src = os.path.join(tmp, "mpu2.bin")
    with open(src, "wb") as f:
        f.write(big)
    parts = [big[:5 << 20], big[5 << 20:]]
    s3_etag = '"%s-2"' % hashlib.md5(b"".join(hashlib.md5(p).digest() for p in parts)).hexdigest()
    for name, head_rule, want_rc, want_last in (
            ("f/mpu", [{"kind": "head", "nth": 1, "fault": "bad_etag", "etag": s3_etag}], 0,
             "complete"),
            ("f/mpu2", [], 1, "error 58P01 could not complete the multipart upload of "
             "s3://bkt/f/mpu2: HTTP 404 NoSuchUpload \"The specified upload does not exist. The "
             "upload ID may be invalid, or the upload may have been aborted or completed.\" "
             "after 2 attempts")):
        px.reset()
        px.set_emulate(BASE_EMULATION + ["abort"])
        px.set_rules([{"kind": "put_part", "nth": 2, "fault": "status", "status": 500},
                      {"kind": "complete", "nth": 1, "fault": "truncate", "bytes": 10}] +
                     head_rule)
        rc, out, _ = tool.run("mpu", BUCKET, name, src, str(5 * 1024 * 1024),
                              endpoint=px.endpoint)
        check_eq((rc, out[-1:]), (want_rc, [want_last]),
                 "mpu %s: lost complete reply, retried, HEAD" % name)
        check_eq(px.counts(), {"create_mpu": 1, "put_part": 3, "complete": 2, "head": 1},
                 "mpu %s with faults: requests" % name)
        check(s3.get_object(Bucket=BUCKET, Key=name)["Body"].read() == big,
              "mpu %s with faults: boto3 reads it" % name)
    px.set_emulate(BASE_EMULATION)
    # conditional writes (the proxy emulates If-None-Match: s3rver ignores it)
    px.reset()
    px.set_emulate(BASE_EMULATION + ["if_none_match"])
    small = os.path.join(tmp, "small.bin")
    rc, out, _ = tool.run("put", BUCKET, "f/put", small, "if-none-match", endpoint=px.endpoint)
    check_eq((rc, out), (1, ['error 58P02 could not PUT s3://bkt/f/put: HTTP 412 '
                             'PreconditionFailed "At least one of the pre-conditions you '
                             'specified did not hold"']), "PUT If-None-Match on an existing key")
    rc, out, _ = tool.run("put", BUCKET, "f/new", small, "if-none-match", endpoint=px.endpoint)
    check_eq((rc, out), (0, ["etag \"%s\"" % hashlib.md5(b"small object").hexdigest()]),
             "PUT If-None-Match on a new key")
    px.set_emulate(BASE_EMULATION)


def uploads(tool, s3, px):
    px.reset()
    px.set_emulate(BASE_EMULATION + ["abort", "list_uploads"])
    ids = []
    for k in ("u/a", "u/b", "u/c", "v/a"):
        rc, out, _ = tool.run("mpu-start", BUCKET, k, endpoint=px.endpoint)
        check(rc == 0 and len(out) == 1 and out[0].startswith("upload "), "mpu-start %s" % k)
        ids.append(out[0].split(" ", 1)[1] if out else "")
    rc, out, stats = tool.run("mpu-list", BUCKET, "u/", endpoint=px.endpoint)
    check_eq((rc, out), (0, ["upload u/a %s" % ids[0], "upload u/b %s" % ids[1],
                             "upload u/c %s" % ids[2], "uploads 3"]), "mpu-list under u/")
    rc, out, _ = tool.run("mpu-abort", BUCKET, "u/b", ids[1], endpoint=px.endpoint)
    check_eq((rc, out), (0, ["aborted"]), "mpu-abort")
    rc, out, _ = tool.run("mpu-abort", BUCKET, "u/b", ids[1], endpoint=px.endpoint)
    check_eq((rc, out), (0, ["aborted"]), "mpu-abort: NoSuchUpload is success")
    rc, out, _ = tool.run("mpu-list", BUCKET, "", endpoint=px.endpoint)
    check_eq((rc, out), (0, ["upload u/a %s" % ids[0], "upload u/c %s" % ids[2],
                             "upload v/a %s" % ids[3], "uploads 3"]), "mpu-list after abort")
    px.set_emulate(BASE_EMULATION)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tool", required=True)
    args = ap.parse_args()
    s3env.require()
    from fault_proxy import FaultProxy
    base = os.environ.get("HIVELITE_TEST_TMP") or None
    if base:
        os.makedirs(base, exist_ok=True)
    rng = random.Random(20261202)
    with tempfile.TemporaryDirectory(prefix="s3client_", dir=base) as tmp:
        with s3env.S3Server(tmp) as srv:
            srv.create_bucket(BUCKET)
            s3 = srv.client()
            with FaultProxy(srv.endpoint, emulate=BASE_EMULATION,
                            verify_sigv4=(srv.access_key, srv.secret_key)) as px:
                tool = Tool(args.tool, px.endpoint, srv.access_key, srv.secret_key)
                roundtrips(tool, s3, tmp, rng)
                multipart(tool, s3, tmp, rng)
                listing(tool, s3, tmp, px)
                anonymous(tool, srv, s3, px)
                faults(tool, s3, tmp, rng, px)
                uploads(tool, s3, px)
    print("%s: %d failures" % ("FAIL" if failures else "PASS", failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
