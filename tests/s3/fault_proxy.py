#!/usr/bin/python3
"""fault_proxy.py -- an HTTP/1.1 proxy between an S3 client under test and
an upstream S3 server (s3rver), which injects faults, counts requests by
kind, can check Signature V4, and can emulate a few S3 calls s3rver lacks.
Standard library only; the rules and the control API are described in
README.md next to this file.

In a test (same process, threads):

    with FaultProxy(srv.endpoint) as px:        # 127.0.0.1:<free port>
        px.set_rules([{"kind": "get", "nth": 2, "fault": "status", "status": 503}])
        ... point the client at px.endpoint ...
        assert px.counts()["get"] == 3

or as a process (prints "fault_proxy listening on 127.0.0.1:PORT"):

    fault_proxy.py --upstream http://127.0.0.1:PORT [--emulate all] [--verify-sigv4]

and drive it through the control API on the same port under /__fault__/
(a path no S3 request can have: bucket names cannot contain '_').
"""
import argparse
import datetime
import hashlib
import hmac
import http.client
import http.server
import json
import random
import socket
import sys
import threading
import time
import urllib.parse
import uuid
from xml.sax.saxutils import escape

CONTROL = "/__fault__"
HOP_BY_HOP = {"connection", "keep-alive", "proxy-connection", "te", "trailer",
              "transfer-encoding", "upgrade", "expect", "content-length"}
# the proxy's own response headers (send_response writes them)
OWN = {"date", "server"}
EMULATIONS = ("abort", "list_uploads", "if_none_match", "complete_check", "suffix_range",
              "if_match")
MIN_PART = 5 * 1024 * 1024
DEFAULT_ERR = {500: ("InternalError", "We encountered an internal error. Please try again."),
               503: ("SlowDown", "Please reduce your request rate."),
               429: ("TooManyRequests", "Please reduce your request rate.")}
FAULTS = ("drop", "truncate", "status", "delay", "replace", "redirect",
          "malformed", "bad_etag")


def classify(method, path, query, headers):
    """The request kind of an S3 request, the unit of rules and counts."""
    parts = path.lstrip("/").split("/", 1)
    has_key = len(parts) == 2 and parts[1] != ""
    if method == "HEAD":
        return "head" if has_key else "head_bucket"
    if method == "GET":
        if has_key:
            return "get"
        if query.get("list-type") == "2":
            return "list"
        if "uploads" in query:
            return "list_uploads"
        return "get_bucket"
    if method == "PUT":
        if not has_key:
            return "put_bucket"
        if "partNumber" in query and "uploadId" in query:
            return "put_part"
        if "x-amz-copy-source" in headers:
            return "copy"
        return "put"
    if method == "POST":
        if "uploads" in query:
            return "create_mpu"
        if "uploadId" in query:
            return "complete"
        if "delete" in query:
            return "delete_objects"
        return "post"
    if method == "DELETE":
        if "uploadId" in query:
            return "abort"
        return "delete" if has_key else "delete_bucket"
    return "other"


def error_xml(code, message, **extra):
    body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>%s</Code><Message>%s</Message>" % (
        escape(code), escape(message))
    for k, v in extra.items():
        body += "<%s>%s</%s>" % (k, escape(str(v)), k)
    body += "<RequestId>%s</RequestId></Error>" % uuid.uuid4().hex[:16].upper()
    return body.encode()


def _uri_encode(s, keep_slash):
    # Signature V4's URI encoding: every byte except A-Za-z0-9-_.~ as %XY
    # with upper-case hex; '/' kept in the path
    safe = "-_.~" + ("/" if keep_slash else "")
    return urllib.parse.quote(s, safe=safe)


def sigv4_check(method, raw_path, headers, body, access_key, secret_key):
    """None when the request's Authorization header is a valid AWS4-HMAC-SHA256
    signature by (access_key, secret_key) over this request, else the S3 error
    (code, message).  Written from the Signature V4 specification (canonical
    request, string to sign, HMAC key chain); header-signed requests only."""
    auth = headers.get("authorization", "")
    if not auth.startswith("AWS4-HMAC-SHA256 "):
        return ("AccessDenied", "Access Denied (no Signature V4 Authorization header)")
    fields = {}
    for item in auth[len("AWS4-HMAC-SHA256 "):].split(","):
        k, _, v = item.strip().partition("=")
        fields[k] = v
    try:
        cred = fields["Credential"].split("/")
        signed = fields["SignedHeaders"].split(";")
        got = fields["Signature"]
        key_id, date, region, service, term = cred
    except (KeyError, ValueError):
        return ("AuthorizationHeaderMalformed", "The authorization header is malformed")
    if key_id != access_key:
        return ("InvalidAccessKeyId", "The AWS Access Key Id you provided does not exist in our records.")
    amz_date = headers.get("x-amz-date", "")
    if not amz_date.startswith(date) or term != "aws4_request" or service != "s3":
        return ("AuthorizationHeaderMalformed", "The authorization header is malformed")
    if "host" not in signed:
        return ("AccessDenied", "Host must be a signed header")
    payload = headers.get("x-amz-content-sha256")
    if payload is None:
        return ("InvalidRequest", "Missing required header for this request: x-amz-content-sha256")
    if payload != "UNSIGNED-PAYLOAD" and payload != hashlib.sha256(body).hexdigest():
        return ("XAmzContentSHA256Mismatch",
                "The provided 'x-amz-content-sha256' header does not match what was computed.")
    path, _, query = raw_path.partition("?")
    canon_path = _uri_encode(urllib.parse.unquote(path), True)
    pairs = []
    for item in query.split("&") if query else []:
        k, _, v = item.partition("=")
        pairs.append((_uri_encode(urllib.parse.unquote(k), False),
                      _uri_encode(urllib.parse.unquote(v), False)))
    canon_query = "&".join("%s=%s" % kv for kv in sorted(pairs))
    canon_headers = ""
    for h in signed:
        if h not in headers:
            return ("AccessDenied", "Signed header %s is missing" % h)
        canon_headers += "%s:%s\n" % (h, " ".join(headers[h].split()))
    canon = "\n".join([method, canon_path, canon_query, canon_headers,
                       ";".join(signed), payload])
    scope = "/".join([date, region, service, term])
    sts = "\n".join(["AWS4-HMAC-SHA256", amz_date, scope,
                     hashlib.sha256(canon.encode()).hexdigest()])
    k = ("AWS4" + secret_key).encode()
    for part in (date, region, service, term):
        k = hmac.new(k, part.encode(), hashlib.sha256).digest()
    want = hmac.new(k, sts.encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(want, got):
        return ("SignatureDoesNotMatch",
                "The request signature we calculated does not match the signature you provided.")
    return None


class Rule:
    """One fault rule.  Matches requests of `kind` (and, when given, whose key
    equals `key`, and, when `ranged`, that carry a Range header); fires on the
    `nth` matching request (1-based), on `every` one, or with probability `p`
    (random.Random(seed)); at most `times` times when given.  Every rule
    sees every request, so `nth` is the Nth request of its kind (and
    filters); of the rules that fire on one request the first listed is
    applied and counted in `fired`: [{nth 1: A}, {nth 2: B}] is A on the
    first request, B on the second."""

    def __init__(self, spec):
        self.spec = dict(spec)
        self.kind = spec["kind"]
        self.fault = spec["fault"]
        if self.fault not in FAULTS:
            raise ValueError("unknown fault %r" % self.fault)
        self.key = spec.get("key")
        self.ranged = bool(spec.get("ranged", False))
        self.nth = spec.get("nth")
        self.every = bool(spec.get("every", False))
        self.p = spec.get("p")
        if sum(x is not None and x is not False for x in (self.nth, self.every or None, self.p)) != 1:
            raise ValueError("a rule needs exactly one of nth, every, p: %r" % spec)
        self.rng = random.Random(spec.get("seed", 0))
        self.times = spec.get("times")
        self.seen = 0
        self.fired = 0

    def match(self, kind, key, headers):
        if kind != self.kind or (self.key is not None and key != self.key):
            return False
        if self.ranged and "range" not in headers:
            return False
        self.seen += 1
        if self.times is not None and self.fired >= self.times:
            return False
        if self.nth is not None:
            hit = self.seen == self.nth
        elif self.every:
            hit = True
        else:
            hit = self.rng.random() < self.p
        return hit


class FaultProxy:
    def __init__(self, upstream, host="127.0.0.1", port=0, emulate=(),
                 verify_sigv4=None):
        u = urllib.parse.urlsplit(upstream)
        self.up_host, self.up_port = u.hostname, u.port or 80
        self.lock = threading.Lock()
        # conditional writes: the HEAD check and the write it guards are one
        # step, as S3 makes them (a racing writer gets 412, not an overwrite)
        self.write_lock = threading.Lock()
        self.rules = []
        self._counts = {}
        self._log = []
        self._connections = 0
        self.emulate = set()
        self.set_emulate(emulate)
        # (access key, secret key) to check every request's Signature V4
        self.verify_sigv4 = verify_sigv4
        # emulated multipart state: uploadId -> {bucket, key, initiated, parts}
        self.uploads = {}
        self.aborted = set()
        proxy = self

        class Handler(_Handler):
            pass
        Handler.proxy = proxy
        self.server = _Server((host, port), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.host = host
        self.thread = None

    @property
    def endpoint(self):
        return "http://%s:%d" % (self.host, self.port)

    # ---- the control API, in process (the HTTP one calls these)
    def set_rules(self, specs):
        rules = [Rule(s) for s in specs]
        with self.lock:
            self.rules = rules

    def add_rule(self, spec):
        r = Rule(spec)
        with self.lock:
            self.rules.append(r)

    def set_emulate(self, names):
        names = set(EMULATIONS if "all" in names else names)
        bad = names - set(EMULATIONS)
        if bad:
            raise ValueError("unknown emulation %s" % sorted(bad))
        with self.lock:
            self.emulate = names

    def counts(self):
        with self.lock:
            return dict(self._counts)

    def connections(self):
        """Client connections accepted (keep-alive: fewer than requests)."""
        with self.lock:
            return self._connections

    def log(self):
        """[(kind, method, path, status or fault), ...] in arrival order."""
        with self.lock:
            return [tuple(e) for e in self._log]

    def fired(self):
        with self.lock:
            return [r.fired for r in self.rules]

    def reset(self):
        with self.lock:
            self.rules = []
            self._counts = {}
            self._log = []
            self._connections = 0

    def start(self):
        self.thread = threading.Thread(target=self.server.serve_forever,
                                       kwargs={"poll_interval": 0.1}, daemon=True)
        self.thread.start()
        return self

    def stop(self):
        if self.thread:
            self.server.shutdown()
            self.thread.join()
            self.thread = None
        self.server.server_close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
        return False

    # ---- the upstream, for the proxy's own requests (replace, HEAD checks)
    def upstream_request(self, method, path, body=None, headers=None):
        c = http.client.HTTPConnection(self.up_host, self.up_port, timeout=30)
        try:
            c.request(method, path, body=body, headers=headers or {})
            r = c.getresponse()
            return r.status, r.getheaders(), r.read()
        finally:
            c.close()


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        # a client that resets its connection (a test's dropped request,
        # a killed hivelite) is no error of the proxy's
        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            return
        super().handle_error(request, client_address)


class _Handler(http.server.BaseHTTPRequestHandler):
    # headers and body go out in separate writes: with Nagle's algorithm
    # the second waits for the client's delayed ACK, 40 ms per request
    disable_nagle_algorithm = True
    protocol_version = "HTTP/1.1"
    proxy = None  # set per FaultProxy
    up = None

    def log_message(self, fmt, *args):
        pass

    def setup(self):
        super().setup()
        with self.proxy.lock:
            self.proxy._connections += 1

    def finish(self):
        super().finish()
        if self.up is not None:
            self.up.close()
            self.up = None

    # every method goes through one path
    def do_GET(self):
        self.handle_one()
    do_HEAD = do_PUT = do_POST = do_DELETE = do_GET

    def read_body(self):
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            out = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip(), 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return out
                out += self.rfile.read(size)
                self.rfile.readline()
        n = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(n) if n else b""

    def reply(self, status, body=b"", headers=(), content_length=None, head=False):
        entry = getattr(self, "entry", None)
        if entry is not None and entry[3] is None:
            with self.proxy.lock:
                entry[3] = status
        if head and content_length is None:
            # a HEAD reply keeps the upstream's Content-Length: the object's
            content_length = next((int(v) for k, v in headers
                                   if k.lower() == "content-length"), len(body))
        self.send_response(status)
        for k, v in headers:
            if k.lower() not in HOP_BY_HOP and k.lower() not in OWN:
                self.send_header(k, v)
        cl = len(body) if content_length is None else content_length
        if status != 304 and not (status == 204 and not body):
            self.send_header("Content-Length", str(cl))
        self.end_headers()
        if not head and body:
            self.wfile.write(body)

    def reply_error(self, status, code, message, **extra):
        # an S3 error: XML body (none on HEAD, as S3 sends none)
        body = error_xml(code, message, **extra)
        head = self.command == "HEAD"
        self.reply(status, body, [("Content-Type", "application/xml"),
                                  ("x-amz-request-id", uuid.uuid4().hex[:16].upper())],
                   content_length=len(body) if not head else 0, head=head)

    def forward(self, body):
        """The request to the upstream on this connection's own keep-alive
        connection (reopened once if the upstream closed it)."""
        p = self.proxy
        hdrs = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP}
        if body or self.command in ("PUT", "POST"):
            hdrs["Content-Length"] = str(len(body))
        for attempt in (0, 1):
            if self.up is None:
                self.up = http.client.HTTPConnection(p.up_host, p.up_port, timeout=60)
                self.up.connect()  # the same for the proxy's own requests upstream
                self.up.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            try:
                self.up.request(self.command, self.path, body=body or None, headers=hdrs)
                r = self.up.getresponse()
                data = r.read()
                return r.status, r.getheaders(), data
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.up.close()
                self.up = None
                if attempt:
                    raise

    def handle_one(self):
        p = self.proxy
        self.entry = None
        body = self.read_body()
        url = urllib.parse.urlsplit(self.path)
        if url.path.startswith(CONTROL):
            return self.control(url.path[len(CONTROL):], body)
        query = dict(urllib.parse.parse_qsl(url.query, keep_blank_values=True))
        headers = {k.lower(): v for k, v in self.headers.items()}
        kind = classify(self.command, urllib.parse.unquote(url.path), query, headers)
        parts = urllib.parse.unquote(url.path).lstrip("/").split("/", 1)
        bucket = parts[0]
        key = parts[1] if len(parts) == 2 else None
        with p.lock:
            p._counts[kind] = p._counts.get(kind, 0) + 1
            hits = [r for r in p.rules if r.match(kind, key, headers)]
            rule = hits[0] if hits else None
            if rule:
                rule.fired += 1
            emulate = set(p.emulate)
            # logged on arrival, its outcome filled in before the reply
            # leaves: a client that has its answer finds its request logged
            self.entry = [kind, self.command, self.path, rule.fault if rule else None]
            p._log.append(self.entry)
        try:
            self.serve(kind, bucket, key, query, headers, body, rule, emulate)
        except OSError as e:
            # the upstream is gone (s3rver died): say so as a gateway would
            self.close_connection = True
            try:
                self.reply_error(502, "BadGateway", "fault_proxy: upstream: %s" % e)
            except OSError:
                pass

    def serve(self, kind, bucket, key, query, headers, body, rule, emulate):
        p = self.proxy
        head = self.command == "HEAD"
        spec = rule.spec if rule else {}
        fault = rule.fault if rule else None
        if fault == "drop":
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return "drop"
        if fault == "status":
            st = int(spec.get("status", 503))
            code, msg = DEFAULT_ERR.get(st, ("InternalError", "Injected error"))
            self.reply_error(st, spec.get("code", code), spec.get("message", msg))
            return st
        if fault == "redirect":
            loc = spec.get("location", "http://127.0.0.2:%d%s" % (p.port, self.path))
            host = urllib.parse.urlsplit(loc).netloc
            b = error_xml("PermanentRedirect",
                          "The bucket you are attempting to access must be addressed "
                          "using the specified endpoint.", Endpoint=host, Bucket=bucket)
            self.reply(301, b, [("Location", loc), ("Content-Type", "application/xml")],
                       head=head)
            return 301
        if fault == "delay":
            time.sleep(float(spec.get("seconds", 1.0)))
        if fault == "replace":
            new = spec.get("body", "replaced by fault_proxy").encode()
            # s3rver takes unsigned requests (README.md): the proxy's own PUT
            st, _, _ = p.upstream_request("PUT", "/%s/%s" % (bucket, urllib.parse.quote(key)), new)
            if st != 200:
                self.reply_error(500, "InternalError", "fault_proxy: replace PUT got %d" % st)
                return 500
        # faults before this point happen in front of the server (network,
        # load balancer); the signature check is the server's first step
        if p.verify_sigv4:
            bad = sigv4_check(self.command, self.path, headers, body, *p.verify_sigv4)
            if bad:
                self.reply_error(403, bad[0], bad[1])
                return 403
        emulated = self.emulated(kind, bucket, key, query, headers, body, emulate)
        if emulated is not None:
            return emulated
        status, rheaders, data = self.forward(body)
        self.track(kind, bucket, key, query, body, status, rheaders, data)
        if fault == "truncate":
            cut = int(spec.get("bytes", len(data) // 2))
            self.reply(status, data[:cut], rheaders, content_length=len(data), head=head)
            self.close_connection = True
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
            return "truncate"
        if fault == "malformed":
            data = spec.get("body", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                            "<ListBucketResult><Name>broken").encode()
            rheaders = [(k, v) for k, v in rheaders if k.lower() != "etag"] \
                if kind != "get" else rheaders
        if fault == "bad_etag":
            etag = spec.get("etag", '"00000000000000000000000000000000"')
            rheaders = [(k, v) for k, v in rheaders if k.lower() != "etag"] + [("ETag", etag)]
        self.reply(status, data, rheaders, head=head)
        return status

    # ---- the emulated calls (README.md: "What the proxy emulates")
    def emulated(self, kind, bucket, key, query, headers, body, emulate):
        p = self.proxy
        if kind in ("get", "head") and "if_match" in emulate and "if-match" in headers:
            # S3: If-Match that does not hold -> 412 PreconditionFailed;
            # ETags compared without their quotes, * matches any object
            st, hh, _ = p.upstream_request("HEAD", "/%s/%s" % (bucket, urllib.parse.quote(key)))
            have = next((v for k, v in hh if k.lower() == "etag"), None) if st == 200 else None
            want = [t.strip().strip('"') for t in headers["if-match"].split(",")]
            if have is not None and "*" not in want and have.strip('"') not in want:
                self.reply_error(412, "PreconditionFailed",
                                 "At least one of the pre-conditions you specified did not hold",
                                 Condition="If-Match")
                return 412
        rng = headers.get("range", "")
        if kind == "get" and "suffix_range" in emulate and rng.startswith("bytes=-"):
            # s3rver reads bytes=-N as bytes=0-N; S3 (RFC 9110) means the
            # last N bytes: ask for those explicitly, the size from a HEAD
            st, hh, _ = p.upstream_request("HEAD", "/%s/%s" % (bucket, urllib.parse.quote(key)))
            size = next((int(v) for k, v in hh if k.lower() == "content-length"), None)
            n = int(rng[len("bytes=-"):] or 0)
            if st == 200 and size is not None and n > 0:
                del self.headers["Range"]
                self.headers["Range"] = "bytes=%d-" % max(0, size - n)
        uid = query.get("uploadId")
        if kind in ("put_part", "complete", "abort") and ("abort" in emulate or "list_uploads" in emulate):
            with p.lock:
                gone = uid in p.aborted
            if gone or (kind == "abort" and uid not in p.uploads):
                self.reply_error(404, "NoSuchUpload",
                                 "The specified upload does not exist. The upload ID may be "
                                 "invalid, or the upload may have been aborted or completed.",
                                 UploadId=uid)
                return 404
        if kind == "abort" and "abort" in emulate:
            with p.lock:
                p.uploads.pop(uid, None)
                p.aborted.add(uid)
            self.reply(204)
            return 204
        if kind == "list_uploads" and "list_uploads" in emulate:
            return self.list_uploads(bucket, query)
        if kind == "complete" and "complete_check" in emulate:
            bad = self.check_parts(uid, body)
            if bad:
                st, code, msg, extra = bad
                self.reply_error(st, code, msg, **extra)
                return st
        if kind in ("put", "complete") and "if_none_match" in emulate and \
                headers.get("if-none-match") is not None:
            if headers["if-none-match"] != "*":
                self.reply_error(501, "NotImplemented",
                                 "fault_proxy emulates If-None-Match: * only")
                return 501
            with p.write_lock:
                st, _, _ = p.upstream_request("HEAD", "/%s/%s" % (bucket, urllib.parse.quote(key)))
                if st == 200:
                    self.reply_error(412, "PreconditionFailed",
                                     "At least one of the pre-conditions you specified did not hold",
                                     Condition="If-None-Match")
                    return 412
                status, rheaders, data = self.forward(body)
            self.track(kind, bucket, key, query, body, status, rheaders, data)
            self.reply(status, data, rheaders)
            return status
        return None

    def check_parts(self, uid, body):
        """What S3 checks in CompleteMultipartUpload and s3rver does not:
        the part list is well-formed and ascending (InvalidPartOrder),
        every part was uploaded with that ETag (InvalidPart; s3rver dies on
        a part never uploaded), and every part but the last has at least
        5 MiB (EntityTooSmall).  Only for uploads created through this
        proxy; None when the list passes."""
        import xml.etree.ElementTree as ET
        with self.proxy.lock:
            u = self.proxy.uploads.get(uid)
            parts = dict(u["parts"]) if u else None
        if parts is None:
            return None
        try:
            root = ET.fromstring(body)
            listed = []
            for part in root:
                f = {c.tag.rsplit("}", 1)[-1]: (c.text or "") for c in part}
                listed.append((int(f["PartNumber"]), f.get("ETag", "").strip('"')))
        except (ET.ParseError, KeyError, ValueError):
            return (400, "MalformedXML", "The XML you provided was not well-formed or did "
                    "not validate against our published schema.", {})
        if not listed:
            return (400, "MalformedXML", "The XML you provided was not well-formed or did "
                    "not validate against our published schema.", {})
        nums = [n for n, _ in listed]
        if nums != sorted(set(nums)):
            return (400, "InvalidPartOrder", "The list of parts was not in ascending order. "
                    "The parts list must be specified in order by part number.", {})
        for n, etag in listed:
            if n not in parts or parts[n][1] != etag:
                return (400, "InvalidPart", "One or more of the specified parts could not be "
                        "found. The part might not have been uploaded, or the specified entity "
                        "tag might not have matched the part's entity tag.",
                        {"UploadId": uid, "PartNumber": n, "ETag": etag})
        for n, _ in listed[:-1]:
            if parts[n][0] < MIN_PART:
                return (400, "EntityTooSmall", "Your proposed upload is smaller than the "
                        "minimum allowed object size.",
                        {"ProposedSize": parts[n][0], "MinSizeAllowed": MIN_PART,
                         "PartNumber": n})
        return None

    def track(self, kind, bucket, key, query, body, status, rheaders, data):
        p = self.proxy
        if status != 200:
            return
        if kind == "create_mpu":
            import xml.etree.ElementTree as ET
            try:
                uid = next(e.text for e in ET.fromstring(data).iter() if e.tag.endswith("UploadId"))
            except (ET.ParseError, StopIteration):
                return
            with p.lock:
                p.uploads[uid] = {"bucket": bucket, "key": key, "parts": {},
                                  "initiated": datetime.datetime.now(datetime.timezone.utc)}
        elif kind == "put_part":
            with p.lock:
                u = p.uploads.get(query.get("uploadId"))
                if u is not None:
                    etag = next((v for k, v in rheaders if k.lower() == "etag"), "")
                    u["parts"][int(query["partNumber"])] = (len(body), etag.strip('"'))
        elif kind == "complete":
            with p.lock:
                p.uploads.pop(query.get("uploadId"), None)
                p.aborted.add(query.get("uploadId"))

    def list_uploads(self, bucket, query):
        # ListMultipartUploads over the uploads created through this proxy
        # and neither completed nor aborted: prefix, key-marker and
        # max-uploads; sorted by key, then initiation time
        p = self.proxy
        prefix = query.get("prefix", "")
        marker = query.get("key-marker", "")
        maxu = int(query.get("max-uploads", 1000))
        with p.lock:
            ups = sorted(((u["key"], u["initiated"], uid) for uid, u in p.uploads.items()
                          if u["bucket"] == bucket and u["key"].startswith(prefix)
                          and u["key"] > marker))
        trunc = len(ups) > maxu
        ups = ups[:maxu]
        x = ['<?xml version="1.0" encoding="UTF-8"?>\n'
             '<ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">',
             "<Bucket>%s</Bucket>" % escape(bucket),
             "<KeyMarker>%s</KeyMarker><UploadIdMarker></UploadIdMarker>" % escape(marker),
             "<Prefix>%s</Prefix>" % escape(prefix), "<MaxUploads>%d</MaxUploads>" % maxu,
             "<IsTruncated>%s</IsTruncated>" % ("true" if trunc else "false")]
        if trunc:
            x.append("<NextKeyMarker>%s</NextKeyMarker><NextUploadIdMarker>%s</NextUploadIdMarker>"
                     % (escape(ups[-1][0]), ups[-1][2]))
        for k, when, uid in ups:
            x.append("<Upload><Key>%s</Key><UploadId>%s</UploadId>"
                     "<Initiator><ID>S3RVER</ID><DisplayName>S3RVER</DisplayName></Initiator>"
                     "<Owner><ID>S3RVER</ID><DisplayName>S3RVER</DisplayName></Owner>"
                     "<StorageClass>STANDARD</StorageClass><Initiated>%s</Initiated></Upload>"
                     % (escape(k), uid, when.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"))
        x.append("</ListMultipartUploadsResult>")
        self.reply(200, "".join(x).encode(), [("Content-Type", "application/xml")])
        return 200

    # ---- /__fault__/...
    def control(self, sub, body):
        p = self.proxy
        try:
            if self.command == "GET" and sub == "/counts":
                out = p.counts()
            elif self.command == "GET" and sub == "/log":
                out = p.log()
            elif self.command == "GET" and sub == "/fired":
                out = p.fired()
            elif self.command == "GET" and sub == "/connections":
                out = p.connections()
            elif self.command == "PUT" and sub == "/rules":
                p.set_rules(json.loads(body or b"[]"))
                out = {"ok": True}
            elif self.command == "POST" and sub == "/rules":
                p.add_rule(json.loads(body))
                out = {"ok": True}
            elif self.command == "PUT" and sub == "/emulate":
                p.set_emulate(json.loads(body or b"[]"))
                out = {"ok": True}
            elif self.command == "POST" and sub == "/reset":
                p.reset()
                out = {"ok": True}
            else:
                self.reply(404, b'{"error": "no such control call"}')
                return
        except (ValueError, KeyError, TypeError) as e:
            self.reply(400, json.dumps({"error": str(e)}).encode())
            return
        self.reply(200, json.dumps(out).encode(), [("Content-Type", "application/json")])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--upstream", required=True)
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--emulate", default="", help="comma list of %s, or all" % ",".join(EMULATIONS))
    ap.add_argument("--verify-sigv4", default=None, metavar="ACCESS:SECRET")
    a = ap.parse_args()
    v = tuple(a.verify_sigv4.split(":", 1)) if a.verify_sigv4 else None
    px = FaultProxy(a.upstream, port=a.port, emulate=[e for e in a.emulate.split(",") if e],
                    verify_sigv4=v)
    print("fault_proxy listening on %s:%d" % (px.host, px.port), flush=True)
    try:
        px.server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
