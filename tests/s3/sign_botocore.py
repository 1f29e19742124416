"""sign_botocore.py -- hivelite's Signature V4 signer against botocore's.

Generates random requests (fixed seed) and signs each with botocore
(python3-botocore: S3SigV4Auth, S3SigV4QueryAuth, and SigV4Auth /
SigV4QueryAuth for a non-S3 service with path normalization) at a fixed
time, then with hivelite's signer through s3_sign_tool (JSON lines), and
asserts the signatures, the Authorization headers and the signed query
parameters are equal.  The requests vary the method, S3 keys (spaces,
UTF-8, '+', '~', '=', '&', "//", "." and ".." segments), queries (several
parameters, empty values, "name" without '=', repeated names for header
signing), headers (odd spacing, tabs, repeated names, mixed case), session
tokens or none, signed bodies and UNSIGNED-PAYLOAD, expiry times.

What hivelite gets is what a caller would send: the path URI-encoded once
(S3), the query encoded, and the headers botocore ended up signing (botocore
adds X-Amz-Date, X-Amz-Security-Token and X-Amz-Content-SHA256 itself; the
S3 client adds them the same way).  Two botocore behaviours are kept out
of the inputs on purpose: for non-S3 services botocore encodes the path a
second time, which hivelite (S3 only) does not do, so those paths use
unreserved characters only; and query signing parses the query into a dict
(repeated names collapse), so query-signed requests have distinct names.

Run by /usr/bin/python3 (Debian's python3-botocore lives there).  Exit 77
(skipped) without botocore, except under CI=true, where that is a failure.
"""
import argparse
import datetime
import json
import os
import random
import subprocess
import sys
import types
from urllib.parse import parse_qsl, quote, urlsplit

try:
    import botocore.auth
    from botocore.awsrequest import AWSRequest
    from botocore.credentials import Credentials
except ImportError as e:
    if os.environ.get("CI") == "true":
        print(f"botocore is missing under CI=true: {e}", file=sys.stderr)
        sys.exit(1)
    print(f"skipped: no botocore ({e})")
    sys.exit(77)

ap = argparse.ArgumentParser()
ap.add_argument("--tool", required=True)
ap.add_argument("--count", type=int, default=400)
ap.add_argument("--seed", type=int, default=20150830)
opts = ap.parse_args()

# botocore takes the signing time from datetime.datetime.utcnow(): pin it.
FIXED = datetime.datetime(2026, 2, 28, 23, 59, 7)
FIXED_UNIX = int((FIXED - datetime.datetime(1970, 1, 1)).total_seconds())


class FixedDatetime(datetime.datetime):
    @classmethod
    def utcnow(cls):
        return FIXED


botocore.auth.datetime = types.SimpleNamespace(datetime=FixedDatetime)

rng = random.Random(opts.seed)
KEY_CHARS = list("abcXYZ019-_.~ +=&$@!*'(),;:%#?") + ["é", "ሴ", "日本", "\U0001F600"]
QUERY_CHARS = list("abcXYZ019-_.~ +=/&?%*") + ["é", "ሴ"]


def rand_text(chars, lo, hi):
    return "".join(rng.choice(chars) for _ in range(rng.randint(lo, hi)))


def s3_key():
    segs = []
    for _ in range(rng.randint(1, 4)):
        r = rng.random()
        segs.append("" if r < 0.1 else "." if r < 0.15 else ".." if r < 0.2 else
                    rand_text(KEY_CHARS, 1, 8))
    return "/".join(segs)


def plain_path():
    # unreserved characters and dot segments only (see the module comment)
    segs = [rng.choice(["", ".", "..", "a", "b-c", "d_e.f~", "Z9"]) for _ in range(rng.randint(0, 5))]
    return "/" + "/".join(segs) + rng.choice(["", "/"])


def query(repeat_ok):
    pairs = []
    for _ in range(rng.choice([0, 0, 1, 2, 3, 5])):
        if repeat_ok and pairs and rng.random() < 0.3:
            name = rng.choice(pairs)[0]
        else:
            name = rand_text(QUERY_CHARS, 1, 6)
            while name in [p[0] for p in pairs]:
                name += "x"
        r = rng.random()
        value = None if r < 0.1 else "" if r < 0.25 else rand_text(QUERY_CHARS, 1, 10)
        pairs.append((name, value))
    enc = lambda s: quote(s, safe="-_.~")
    return "&".join(enc(n) if v is None else f"{enc(n)}={enc(v)}" for n, v in pairs)


def odd_value():
    words = [rand_text(list("abcXYZ019-_.,;=/\"'"), 1, 6) for _ in range(rng.randint(1, 4))]
    out = rng.choice(["", " ", "  ", "\t"])
    for i, w in enumerate(words):
        out += w + (rng.choice([" ", "   ", "\t", " \t "]) if i + 1 < len(words) else "")
    return out + rng.choice(["", " ", "\t "])


def make_case(i):
    s3 = rng.random() < 0.75
    query_mode = rng.random() < 0.45
    method = rng.choice(["GET", "PUT", "POST", "DELETE", "HEAD"])
    if s3:
        path = "/" + quote(s3_key(), safe="/~")
        service, host = "s3", "bucket-1.s3.eu-west-3.amazonaws.com"
    else:
        path = plain_path()
        service, host = "execute-api", "abc123.execute-api.eu-west-3.amazonaws.com"
    q = query(repeat_ok=not query_mode)
    https = rng.random() < 0.5
    url = f"{'https' if https else 'http'}://{host}{path}" + (f"?{q}" if q else "")
    body = b"" if query_mode or rng.random() < 0.4 else rand_text(QUERY_CHARS, 1, 40).encode()
    req = AWSRequest(method=method, url=url, data=body)
    req.headers["Host"] = host
    for _ in range(rng.randint(0, 4)):
        name = rng.choice(["X-Amz-Meta-A", "x-amz-meta-a", "Content-Type", "X-Custom", "Range",
                           "x-amz-acl", "If-Match", "X-AMZ-META-Long-Name"])
        req.headers[name] = odd_value()  # HTTPHeaders appends: repeats are kept
    token = None
    if rng.random() < 0.4:
        token = rand_text(list("ABCabc0189+/="), 20, 60)
    creds = Credentials("AKIA" + rand_text(list("ABCDEFXYZ0123456789"), 16, 16),
                        rand_text(list("abcXYZ0189+/"), 40, 40), token)
    region = "eu-west-3"
    expires = rng.choice([1, 60, 3600, 86400, 604800])
    if query_mode:
        if rng.random() < 0.2:
            req.headers["X-Amz-Content-SHA256"] = "UNSIGNED-PAYLOAD"
        cls = botocore.auth.S3SigV4QueryAuth if s3 else botocore.auth.SigV4QueryAuth
        signer = cls(creds, service, region, expires=expires)
    else:
        if s3:
            signer = botocore.auth.S3SigV4Auth(creds, service, region)
            # over TLS, S3 may sign UNSIGNED-PAYLOAD (botocore's client config)
            if https and rng.random() < 0.5:
                req.context["client_config"] = types.SimpleNamespace(
                    s3={"payload_signing_enabled": False})
        else:
            signer = botocore.auth.SigV4Auth(creds, service, region)
    canonical_hint = signer.payload(req) if "X-Amz-Content-SHA256" not in req.headers else None
    signer.add_auth(req)
    parts = urlsplit(req.url)
    headers = [[k, v] for k, v in req.headers.items() if k.lower() != "authorization"]
    payload = req.headers.get("X-Amz-Content-SHA256") or canonical_hint
    mine = {"mode": "query" if query_mode else "header", "method": method, "path": path,
            "query": q, "headers": headers, "payload": payload, "region": region,
            "service": service, "access_key": creds.access_key, "secret_key": creds.secret_key,
            "token": token, "time": FIXED_UNIX, "normalize": not s3, "expires": expires}
    if query_mode:
        got = dict(parse_qsl(parts.query, keep_blank_values=True))
        want = {"signature": got["X-Amz-Signature"],
                "query": sorted(parse_qsl(parts.query, keep_blank_values=True))}
    else:
        auth = req.headers["Authorization"]
        want = {"signature": auth.rsplit("Signature=", 1)[1], "authorization": auth}
    return mine, want


cases = [make_case(i) for i in range(opts.count)]
proc = subprocess.run([opts.tool], input="".join(json.dumps(m) + "\n" for m, _ in cases),
                      capture_output=True, text=True, timeout=120)
if proc.returncode != 0:
    print(f"s3_sign_tool failed ({proc.returncode}): {proc.stderr}", file=sys.stderr)
    sys.exit(1)
lines = proc.stdout.splitlines()
if len(lines) != len(cases):
    print(f"s3_sign_tool printed {len(lines)} lines for {len(cases)} requests", file=sys.stderr)
    sys.exit(1)

failed = 0
kinds = {}
for n, ((mine, want), line) in enumerate(zip(cases, lines)):
    got = json.loads(line)
    kind = f"{mine['service']}/{mine['mode']}"
    kinds[kind] = kinds.get(kind, 0) + 1
    problems = []
    if "error" in got:
        problems.append(f"error {got['error']}")
    else:
        if got["signature"] != want["signature"]:
            problems.append(f"signature {got['signature']} != botocore {want['signature']}")
        if mine["mode"] == "header" and got["authorization"] != want["authorization"]:
            problems.append(f"Authorization {got['authorization']!r} != {want['authorization']!r}")
        if mine["mode"] == "query":
            ours = sorted(parse_qsl(got["signed_query"], keep_blank_values=True))
            if ours != want["query"]:
                problems.append(f"signed query {ours} != botocore {want['query']}")
    if problems:
        failed += 1
        if failed <= 5:
            print(f"case {n} ({kind}): " + "; ".join(problems), file=sys.stderr)
            print(f"  request: {json.dumps({k: v for k, v in mine.items() if k != 'secret_key'})}",
                  file=sys.stderr)
            if "canonical_request" in got:
                print("  our canonical request:\n" + got["canonical_request"], file=sys.stderr)



def has(pred):
    return sum(1 for m, _ in cases if pred(m))


def names(m):
    return [h[0].lower() for h in m["headers"]]


def qnames(m):
    return [p.split("=")[0] for p in m["query"].split("&") if p]


summary = ", ".join(f"{k} {v}" for k, v in sorted(kinds.items()))
print(f"{len(cases) - failed} of {len(cases)} signatures equal to botocore's ({summary})")
print(f"  with a session token {has(lambda m: m['token'])}, "
      f"UNSIGNED-PAYLOAD {has(lambda m: m['payload'] == 'UNSIGNED-PAYLOAD')}, "
      f"repeated header names {has(lambda m: len(set(names(m))) < len(names(m)))}, "
      f"repeated query names {has(lambda m: len(set(qnames(m))) < len(qnames(m)))}, "
      f"empty or missing query values "
      f"{has(lambda m: any(p.endswith('=') or '=' not in p for p in m['query'].split('&') if p))}, "
      f"dot or empty path segments {has(lambda m: any(s in ('', '.', '..') for s in m['path'].split('/')[1:]))}")
sys.exit(1 if failed else 0)
