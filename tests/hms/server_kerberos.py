#!/usr/bin/python3
"""server_kerberos.py -- (not kerberos.py: that name would shadow the
python3-kerberos module pure-sasl imports) `hivelite metastore` with SASL GSSAPI (Kerberos) on,
against a KDC this test starts and clients nobody here wrote.

Set-up: a realm TEST.REALM of its own (Debian's krb5-kdc: kdb5_util
create -s, kadmin.local addprinc -randkey + ktadd into keytabs for
hive/localhost, hive/<this machine's canonical name> and user), krb5kdc on a
free unprivileged port of 127.0.0.1, KRB5_CONFIG / KRB5_KDC_PROFILE /
KRB5CCNAME / KRB5RCACHEDIR in a temporary directory; the KDC is stopped at
the end, whatever happens.

For each protection level (auth, auth-int, auth-conf) a server is started
with hivelite.metastore.sasl.* in the warehouse's config file, then:
- Apache Thrift's Python TSaslClientTransport (python3-thrift, with
  python3-pure-sasl and python3-kerberos) and the client generated from
  the Hive 4 IDL call get_all_databases and get_table_req (one table of
  3000 columns, whose reply is over the client's 64 KB SASL buffer and so
  comes in several wrapped frames); results exact;
- hivelite's own client (tests/unit/hms/tsasl_client.c over
  src/thrift/tsasl.c) with the user's keytab calls get_all_databases and
  get_table;
- Apache Thrift's Java TSaslClientTransport (libthrift-java, the runtime
  of Hive, Spark and Trino) with the JDK's GSSAPI, logged in from the
  user's keytab through JAAS (kerberos_java/SaslPeer.java), calls
  get_all_databases;
- a client without a ticket, a client that does not speak SASL and a
  client asking for another protection level are refused (exception on
  the client, a "refused" line in the server's log), and the server
  serves the next good client;
- the server logs each client's principal.
Then hivelite attached to the server (src/hms_client) at auth and
auth-conf: `-m thrift://localhost:PORT` with Kerberos in the warehouse's
config (hive/_HOST@TEST.REALM, _HOST the URI's host) runs SHOW TABLES and
a query on a pinned partition, from the ticket cache and from a client
keytab (hadoop.kerberos.*) with a dead URI first (failover negotiates on
the next); CREATE CATALOG with the same properties, then a query; refused:
no ticket and a wrong service principal (28000 naming the URI), SASL off
against the SASL server (08006 with a hint, at once), a bad level (22023),
SASL on against a server without it (08001 within the connect timeout).
Then hostile negotiation bytes (a 4 GB length, OK before START, another
mechanism, truncation, a garbage token, a bad status byte: each
connection closed, BAD sent where the protocol has a reason to give,
the server serving on), `hive/_HOST@TEST.REALM` (with 12 clients at
once) (replaced by the canonical host name), a
wrong keytab (the server refuses to start), and SIGTERM.

Exit 77 when a package is missing (krb5-kdc, krb5-admin-server,
krb5-user, python3-pure-sasl, python3-kerberos, python3-thrift,
thrift-compiler), which CI=true turns into a failure (hms_gen.py).
"""
import argparse
import os
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

import hms_gen

ap = argparse.ArgumentParser()
ap.add_argument("--hivelite", required=True)
ap.add_argument("--client", required=True)
ap.add_argument("--fixtures", required=True)
opts = ap.parse_args()

hms_gen.require(opts.fixtures)
for tool in ("krb5kdc", "kdb5_util", "kadmin.local", "kinit"):
    if not shutil.which(tool, path=os.environ.get("PATH", "") + ":/usr/sbin:/usr/bin"):
        hms_gen.unavailable("%s is not installed (krb5-kdc, krb5-admin-server, krb5-user)" % tool)
try:
    import kerberos  # noqa: F401
    import puresasl  # noqa: F401
except ImportError:
    hms_gen.unavailable("python3-pure-sasl / python3-kerberos are not installed for %s"
                        % sys.executable)
from thrift.transport import TSocket, TTransport  # noqa: E402

JARS = ["/usr/share/java/thrift.jar", "/usr/share/java/slf4j-api.jar",
        "/usr/share/java/slf4j-nop.jar"]
if not shutil.which("javac") or not all(os.path.isfile(j) for j in JARS):
    hms_gen.unavailable("javac (openjdk-17-jdk-headless), libthrift-java or libslf4j-java "
                        "is not installed")

# Debian's pure-sasl 0.5.1 hands python3-kerberos base64 *bytes* when it
# wraps a message under auth-int / auth-conf, where the module takes str
# ("argument 2 must be str, not bytes"; later pure-sasl releases decode
# first).  The fix, and nothing else, is applied here: the text is the same
# base64 either way, so what goes on the wire is exactly pure-sasl's.
_wrap = kerberos.authGSSClientWrap


def _wrap_text(context, data, *args):
    return _wrap(context, data.decode("ascii") if isinstance(data, bytes) else data, *args)


kerberos.authGSSClientWrap = _wrap_text
from thrift.protocol import TBinaryProtocol  # noqa: E402

SBIN = "/usr/sbin:/usr/bin:" + os.environ.get("PATH", "")
base = os.environ.get("HIVELITE_TEST_TMP") or tempfile.gettempdir()
os.makedirs(base, exist_ok=True)
tmp = tempfile.mkdtemp(prefix="hms_krb_", dir=base)
T4, S4 = hms_gen.load(opts.fixtures, "hive4", tmp)
failures = []
procs = []


def check(what, got, want):
    if got != want:
        failures.append(what)
        print("FAIL %s\n  got:  %r\n  want: %r" % (what, got, want))
    else:
        print("ok   %s" % what)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def canonical_host():
    """This machine's canonical name, as Java's getCanonicalHostName and
    hivelite's _HOST rule find it."""
    h = socket.gethostname()
    try:
        return socket.getaddrinfo(h, None, 0, socket.SOCK_STREAM, 0,
                                  socket.AI_CANONNAME)[0][3].lower() or h.lower()
    except OSError:
        return h.lower()


# ---- the KDC --------------------------------------------------------------
KDC_PORT = free_port()
CANON = canonical_host()
kdc_conf = os.path.join(tmp, "kdc.conf")
krb5_conf = os.path.join(tmp, "krb5.conf")
with open(krb5_conf, "w") as f:
    f.write("""[libdefaults]
 default_realm = TEST.REALM
 dns_lookup_kdc = false
 dns_lookup_realm = false
 dns_canonicalize_hostname = false
 rdns = false
 udp_preference_limit = 1
[realms]
 TEST.REALM = {
  kdc = 127.0.0.1:%d
 }
[domain_realm]
 localhost = TEST.REALM
 %s = TEST.REALM
""" % (KDC_PORT, CANON))
with open(kdc_conf, "w") as f:
    f.write("""[kdcdefaults]
 kdc_ports = %d
 kdc_tcp_ports = %d
[realms]
 TEST.REALM = {
  database_name = %s/principal
  key_stash_file = %s/stash
  acl_file = %s/kadm5.acl
  max_life = 1h
 }
[logging]
 kdc = FILE:%s/kdc.log
""" % (KDC_PORT, KDC_PORT, tmp, tmp, tmp, tmp))
open(os.path.join(tmp, "kadm5.acl"), "w").close()
env = dict(os.environ, KRB5_CONFIG=krb5_conf, KRB5_KDC_PROFILE=kdc_conf,
           KRB5CCNAME="FILE:" + os.path.join(tmp, "cc.user"),
           KRB5RCACHEDIR=tmp, PATH=SBIN)
os.environ.update({k: env[k] for k in ("KRB5_CONFIG", "KRB5CCNAME", "KRB5RCACHEDIR")})


def run(*cmd, **kw):
    return subprocess.run(list(cmd), env=kw.pop("env", env), check=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, **kw)


def stop_all():
    for p in procs:
        if p.poll() is None:
            p.terminate()
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


try:
    run("kdb5_util", "create", "-s", "-r", "TEST.REALM", "-P", "master-pw")
    KT_HIVE = os.path.join(tmp, "hive.keytab")
    KT_USER = os.path.join(tmp, "user.keytab")
    KT_OTHER = os.path.join(tmp, "other.keytab")
    for princ, kt in (("hive/localhost", KT_HIVE), ("hive/" + CANON, KT_HIVE),
                      ("user", KT_USER), ("other/localhost", KT_OTHER)):
        run("kadmin.local", "-r", "TEST.REALM", "-q", "addprinc -randkey %s@TEST.REALM" % princ)
        run("kadmin.local", "-r", "TEST.REALM", "-q", "ktadd -k %s %s@TEST.REALM" % (kt, princ))
    kdc = subprocess.Popen(["krb5kdc", "-n", "-r", "TEST.REALM"], env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    procs.append(kdc)
    # the KDC is up when kinit works
    for _ in range(100):
        r = subprocess.run(["kinit", "-kt", KT_USER, "user@TEST.REALM"], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if r.returncode == 0:
            break
        time.sleep(0.1)
    check("kinit from the user's keytab", r.returncode, 0)

    # ---- a warehouse to serve ---------------------------------------------
    W = os.path.join(tmp, "wh")
    # sales.wide's Table struct is some 200 KB: over pure-sasl's 64 KB
    # receive buffer, so the server sends it in several wrapped frames
    wide = ", ".join("c%04d STRING COMMENT '%s'" % (i, "x" * 40) for i in range(3000))
    subprocess.run([opts.hivelite, "-w", W],
                   input=("CREATE DATABASE sales; CREATE TABLE sales.t (id INT) STORED AS TEXTFILE;"
                          "CREATE TABLE sales.wide (%s) STORED AS TEXTFILE;"
                          "CREATE TABLE sales.ev (id INT, name STRING) PARTITIONED BY (ds STRING);"
                          "INSERT INTO sales.ev PARTITION (ds = 'a') VALUES (1, 'x'), (2, 'y');"
                          "INSERT INTO sales.ev PARTITION (ds = 'b') VALUES (4, 'w'), (3, 'z');"
                          % wide).encode(),
                   check=True, stdout=subprocess.DEVNULL)
    cfg = os.path.join(W, ".hivelite", "config")

    def start_server(principal, qop, keytab=KT_HIVE):
        with open(cfg, "w") as f:
            f.write("hivelite.metastore.sasl.enabled=true\n"
                    "hivelite.metastore.kerberos.principal=%s\n"
                    "hivelite.metastore.kerberos.keytab.file=%s\n"
                    "hivelite.metastore.sasl.qop=%s\n" % (principal, keytab, qop))
        log = open(os.path.join(tmp, "server-%s.log" % qop), "w+")
        p = subprocess.Popen([opts.hivelite, "metastore", "-w", W, "--listen", "127.0.0.1:0"],
                             stdout=subprocess.PIPE, stderr=log, env=env)
        procs.append(p)
        ready, _, _ = select.select([p.stdout], [], [], 60)
        line = p.stdout.readline().decode() if ready else ""
        m = re.fullmatch(r"listening on 127\.0\.0\.1:(\d+)\n", line)
        return p, (int(m.group(1)) if m else None), log

    def log_lines(log):
        time.sleep(0.3)  # the server writes its line when the connection ends or begins
        log.seek(0)
        return [re.sub(r"127\.0\.0\.1:\d+", "127.0.0.1:P", x) for x in log.read().splitlines()]

    def py_client(port, qop, host="localhost"):
        sock = TSocket.TSocket("127.0.0.1", port)
        sock.setTimeout(20000)
        trans = TTransport.TSaslClientTransport(sock, host, "hive", mechanism="GSSAPI",
                                                qops=[qop.encode()])
        trans.open()
        return S4.Client(TBinaryProtocol.TBinaryProtocol(trans)), trans

    def py_calls(port, qop, host="localhost"):
        try:
            c, trans = py_client(port, qop, host)
            dbs = c.get_all_databases()
            t = c.get_table_req(T4.GetTableRequest(dbName="sales", tblName="t")).table
            w = c.get_table_req(T4.GetTableRequest(dbName="sales", tblName="wide")).table
            cols = w.sd.cols
            wide_ok = (len(cols) == 3000 and cols[2999].name == "c2999"
                       and all(x.comment == "x" * 40 for x in cols))
            trans.close()
            return [dbs, t.dbName, t.tableName, t.tableType, wide_ok]
        except Exception as e:
            return ["raised", type(e).__name__, str(e)[:200]]

    JCP = os.path.join(tmp, "java")
    subprocess.run(["javac", "-d", JCP, "-cp", ":".join(JARS),
                    os.path.join(os.path.dirname(os.path.abspath(__file__)), "kerberos_java",
                                 "SaslPeer.java")], check=True)

    def java_client(port, qop, host="localhost"):
        r = subprocess.run(["java", "-Djava.security.krb5.conf=" + krb5_conf, "-cp",
                            ":".join(JARS + [JCP]), "SaslPeer", str(port), host, qop, KT_USER,
                            "user@TEST.REALM"], env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=120)
        return [r.returncode, r.stdout.decode().strip(), r.stderr.decode().strip()[:120]]

    def c_client(port, qop, keytab, principal, *calls, service="hive", host="localhost"):
        r = subprocess.run([opts.client, "127.0.0.1", str(port), service, host, qop, keytab,
                            principal] + list(calls), env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=60)
        return [r.returncode, r.stdout.decode().splitlines(), r.stderr.decode().strip()]

    GOOD = [["default", "sales"], "sales", "t", "MANAGED_TABLE", True]
    for qop in ("auth", "auth-int", "auth-conf"):
        srv, port, log = start_server("hive/localhost@TEST.REALM", qop)
        check("%s: server listens" % qop, port is not None, True)
        if port is None:
            continue
        check("%s: python SASL client, get_all_databases + get_table_req" % qop,
              py_calls(port, qop), GOOD)
        check("%s: hivelite's SASL client with a keytab" % qop,
              c_client(port, qop, KT_USER, "user@TEST.REALM", "dbs", "table:sales.t",
                       "table:sales.wide"),
              [0, ["negotiated: " + qop, "databases: default,sales",
                   "table: sales.t type MANAGED_TABLE", "table: sales.wide type MANAGED_TABLE"], ""])
        check("%s: Java's TSaslClientTransport (JDK GSSAPI, JAAS keytab login)" % qop,
              java_client(port, qop), [0, "databases: default,sales", ""])
        check("%s: hivelite's client naming the server's whole principal" % qop,
              c_client(port, qop, KT_USER, "user@TEST.REALM", "dbs",
                       service="hive/localhost@TEST.REALM"),
              [0, ["negotiated: " + qop, "databases: default,sales"], ""])
        check("%s: hivelite's client naming another principal is refused" % qop,
              c_client(port, qop, KT_USER, "user@TEST.REALM", "dbs",
                       service="other/localhost@TEST.REALM")[0:2], [1, []])
        check("%s: hivelite's SASL client from the credential cache" % qop,
              c_client(port, qop, "-", "-", "dbs"),
              [0, ["negotiated: " + qop, "databases: default,sales"], ""])
        # a client that does not speak SASL: the connection is closed, nothing served
        sock = TSocket.TSocket("127.0.0.1", port)
        sock.setTimeout(20000)
        plain = TTransport.TBufferedTransport(sock)
        plain.open()
        try:
            S4.Client(TBinaryProtocol.TBinaryProtocol(plain)).get_all_databases()
            got = "served"
        except Exception as e:
            got = "raised " + type(e).__name__
        plain.close()
        check("%s: a client without SASL is refused" % qop, got.startswith("raised"), True)
        # no ticket: an empty credential cache
        nocc = dict(os.environ, KRB5CCNAME="FILE:" + os.path.join(tmp, "cc.none"))
        saved = os.environ.copy()
        os.environ.update(nocc)
        check("%s: a python client without a ticket is refused" % qop,
              py_calls(port, qop)[0], "raised")
        os.environ.clear()
        os.environ.update(saved)
        r = subprocess.run([opts.client, "127.0.0.1", str(port), "hive", "localhost", qop, "-", "-",
                            "dbs"], env=dict(env, KRB5CCNAME=nocc["KRB5CCNAME"]),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
        check("%s: hivelite's client without a ticket fails with 28000" % qop,
              [r.returncode, r.stderr.decode()[:12]], [1, "ERROR 28000:"])
        # a protection level the server does not offer
        other = "auth-conf" if qop != "auth-conf" else "auth"
        check("%s: a python client requiring %s is refused" % (qop, other),
              py_calls(port, other)[0], "raised")
        check("%s: hivelite's client requiring %s is refused" % (qop, other),
              c_client(port, other, KT_USER, "user@TEST.REALM", "dbs"),
              [1, [], "ERROR 28000: sasl: the server does not offer %s (offered bits 0x%02x)"
               % (other, {"auth": 1, "auth-int": 2, "auth-conf": 4}[qop])])
        jr = java_client(port, other)
        check("%s: a Java client requiring %s is refused" % (qop, other), jr[0:2], [1, ""])
        check("%s: the server still serves" % qop, py_calls(port, qop), GOOD)
        lines = log_lines(log)
        auth_lines = [x for x in lines if "authenticated as" in x]
        refused = [x for x in lines if "refused" in x]
        check("%s: the log names the principal of each good client" % qop,
              sorted(set(auth_lines)),
              ["metastore: connection from 127.0.0.1:P: authenticated as user@TEST.REALM (%s)"
               % qop])
        check("%s: the log has one line per good client" % qop, len(auth_lines), 6)
        check("%s: a non-SASL client is logged as refused with 08P01" % qop,
              [x for x in refused if "08P01" in x],
              ["metastore: connection from 127.0.0.1:P refused: ERROR 08P01: sasl: bad "
               "negotiation status byte 128 (a client that does not speak SASL?)"])
        check("%s: the log's first line" % qop, lines[0],
              "metastore: SASL GSSAPI (Kerberos) required: principal hive/localhost@TEST.REALM, "
              "keytab %s, qop %s" % (KT_HIVE, qop))
        check("%s: refusals logged (no SASL, 2 without a ticket, 3 wrong levels, wrong "
              "service principal)" % qop, len(refused), 7)
        srv.send_signal(signal.SIGTERM)
        check("%s: SIGTERM exits 0" % qop, srv.wait(30), 0)

    # ---- hivelite attached to the SASL server (-m thrift://, src/hms_client)
    # Kerberos from the warehouse config (W2) or a catalog's properties (W3).
    W2 = os.path.join(tmp, "wh2")
    W3 = os.path.join(tmp, "wh3")
    os.makedirs(os.path.join(W2, ".hivelite"), exist_ok=True)
    NOCC = "FILE:" + os.path.join(tmp, "cc.none-attach")
    # a keytab login stores its ticket in the default cache (MIT's
    # gss_acquire_cred_from with client_keytab): keytab runs get their own
    KTCC = "FILE:" + os.path.join(tmp, "cc.keytab-attach")

    def attach(uri, sql, config=None, wh=W2, cc=None, timeout=60):
        """hivelite -w WH [-m URI] -c SQL with CONFIG as WH's config: [rc, out, err, secs]."""
        if config is not None:
            with open(os.path.join(wh, ".hivelite", "config"), "w") as f:
                f.write("".join("%s=%s\n" % kv for kv in config))
        t0 = time.time()
        r = subprocess.run([opts.hivelite, "-w", wh] + (["-m", uri] if uri else []) +
                           ["--format", "csv", "--no-header", "-c", sql],
                           env=dict(env, KRB5CCNAME=cc or env["KRB5CCNAME"]),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
        return [r.returncode, r.stdout.decode(), r.stderr.decode(), time.time() - t0]

    def sasl_config(qop, principal="hive/_HOST@TEST.REALM", keytab=False):
        c = [("hive.metastore.sasl.enabled", "true"),
             ("hive.metastore.kerberos.principal", principal),
             ("hive.metastore.thrift.sasl.qop", qop), ("hive.metastore.client.connect.timeout", "5")]
        if keytab:
            c += [("hadoop.kerberos.keytab", KT_USER), ("hadoop.kerberos.principal", "user@TEST.REALM")]
        return c

    QUERY = "SHOW TABLES IN sales; SELECT id, name FROM sales.ev WHERE ds = 'b' ORDER BY id"
    ANSWER = "ev\nt\nwide\n3,z\n4,w\n"
    DEAD = free_port()
    for qop in ("auth", "auth-conf"):
        srv, port, log = start_server("hive/localhost@TEST.REALM", qop)
        if port is None:
            check("%s: server for the attached client listens" % qop, port is not None, True)
            continue
        uri = "thrift://localhost:%d" % port
        check("-m %s: SHOW TABLES + a pinned partition, ticket cache" % qop,
              attach(uri, QUERY, sasl_config(qop))[0:3], [0, ANSWER, ""])
        # a keytab and no ticket; the first URI refuses connections (failover)
        check("-m %s: client keytab (hadoop.kerberos.*), failover from a dead URI" % qop,
              attach("thrift://127.0.0.1:%d,%s" % (DEAD, uri), QUERY,
                     sasl_config(qop, keytab=True), cc=KTCC + qop)[0:3], [0, ANSWER, ""])
        if qop == "auth-conf":
            os.makedirs(W3, exist_ok=True)
            props = ", ".join("'%s'='%s'" % kv for kv in
                              [("type", "hms"), ("hive.metastore.uris", uri)] +
                              sasl_config(qop, keytab=True))
            check("CREATE CATALOG k with Kerberos properties, then a query",
                  attach(None, "CREATE CATALOG k PROPERTIES (%s); "
                         "SELECT id, name FROM k.sales.ev WHERE ds = 'a' ORDER BY id" % props,
                         wh=W3, cc=KTCC + "-catalog")[0:3], [0, "1,x\n2,y\n", ""])
            r = attach(uri, QUERY, sasl_config(qop), cc=NOCC)
            check("-m: no ticket is 28000 naming the URI",
                  r[0:3],
                  [1, "", "ERROR 28000: could not authenticate to the metastore with Kerberos "
                   "(%s: sasl: cannot authenticate to the server: No credentials were supplied, "
                   "or the credentials were unavailable or inaccessible)\n" % uri])
            r = attach(uri, QUERY, sasl_config(qop, principal="other/_HOST@TEST.REALM"))
            check("-m: a wrong service principal is 28000 naming the URI",
                  [r[0], r[1], r[2]],
                  [1, "", "ERROR 28000: could not authenticate to the metastore with Kerberos "
                   "(%s: sasl: the peer ended the negotiation (BAD): Kerberos authentication "
                   "failed)\n" % uri])
            r = attach(uri, QUERY, [("hive.metastore.client.connect.timeout", "5")])
            # the server closes at once; our read sees the close or a reset
            check("-m: SASL off against a SASL server: a clear error, at once",
                  [r[0], r[1], re.sub(r"lost: thrift: read: Connection reset by peer",
                                      "lost: closed by the server", r[2]), r[3] < 10],
                  [1, "", "ERROR 08006: connection to the metastore %s lost: closed by the server "
                   "(if the metastore requires Kerberos, set 'hive.metastore.sasl.enabled'="
                   "'true') (line 1, column 1)\n" % uri, True])
            r = attach(uri, QUERY, sasl_config("secret"))
            check("-m: a bad protection level is 22023", r[0:3],
                  [1, "", "ERROR 22023: hive.metastore.thrift.sasl.qop: SASL protection level "
                   "must be auth, auth-int or auth-conf, not \"secret\"\n"])
        srv.send_signal(signal.SIGTERM)
        srv.wait(30)

    # SASL on against a metastore without it: a clear error, no hang
    with open(cfg, "w") as f:
        f.write("")
    plain = subprocess.Popen([opts.hivelite, "metastore", "-w", W, "--listen", "127.0.0.1:0"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    procs.append(plain)
    select.select([plain.stdout], [], [], 60)
    m = re.fullmatch(r"listening on 127\.0\.0\.1:(\d+)\n", plain.stdout.readline().decode())
    if m:
        uri = "thrift://localhost:%s" % m.group(1)
        r = attach(uri, QUERY, sasl_config("auth"))
        check("-m: SASL on against a server without it: a clear error, no hang",
              [r[0], r[1], r[2], r[3] < 10],
              [1, "", "ERROR 08001: could not connect to the metastore (%s: thrift: no data from "
               "the peer for 5000 ms (in the SASL negotiation: is SASL enabled on the "
               "metastore?))\n" % uri, True])
        check("-m: the plain server serves a plain client",
              attach(uri, QUERY, [])[0:3], [0, ANSWER, ""])
    plain.send_signal(signal.SIGTERM)
    plain.wait(30)

    # ---- hostile negotiation bytes: each connection closed, the server
    # goes on (every length checked before it is used) -----------------------
    srv, port, log = start_server("hive/localhost@TEST.REALM", "auth-conf")

    def raw(data, close_write=False):
        s = socket.create_connection(("127.0.0.1", port), timeout=20)
        s.sendall(data)
        if close_write:
            s.shutdown(socket.SHUT_WR)
        got = b""
        while True:
            try:
                b = s.recv(65536)
            except ConnectionResetError:  # closed with our bytes unread: also closed
                b = b""
            if not b:
                break
            got += b
        s.close()
        return got

    bad = lambda why: b"\x03" + len(why).to_bytes(4, "big") + why  # noqa: E731
    check("hostile: START with a 4 GB payload length",
          raw(b"\x01\xff\xff\xff\xff"), b"")
    check("hostile: OK before START", raw(b"\x02\x00\x00\x00\x00"),
          bad(b"expected a START message"))
    check("hostile: mechanism PLAIN", raw(b"\x01\x00\x00\x00\x05PLAIN"),
          bad(b"unsupported SASL mechanism (this server speaks GSSAPI)"))
    check("hostile: START truncated, then closed", raw(b"\x01\x00\x00\x00\x06GSS", True), b"")
    check("hostile: a garbage Kerberos token",
          raw(b"\x01\x00\x00\x00\x06GSSAPI\x02\x00\x00\x00\x04abcd"),
          bad(b"Kerberos authentication failed"))
    check("hostile: status byte 9", raw(b"\x09\x00\x00\x00\x00"), b"")
    check("hostile: the server still serves", py_calls(port, "auth-conf"), GOOD)
    lines = [x.split(" refused: ")[1] for x in log_lines(log) if " refused: " in x]
    check("hostile: each refusal logged with its reason",
          [re.sub(r"(did not authenticate): .*", r"\1", x) for x in lines],
          ["ERROR 08P01: sasl: negotiation payload of 4294967295 bytes is over the limit of 1048576",
           "ERROR 08P01: sasl: the negotiation did not begin with START (status 2)",
           "ERROR 28000: sasl: the client asked for a mechanism other than GSSAPI",
           "ERROR 08P01: thrift: connection closed inside a message (8 of 11 bytes)",
           "ERROR 28000: sasl: the client did not authenticate",
           "ERROR 08P01: sasl: bad negotiation status byte 9 (a client that does not speak SASL?)"])
    srv.send_signal(signal.SIGTERM)
    srv.wait(30)

    # ---- _HOST: the canonical name of this machine -------------------------
    srv, port, log = start_server("hive/_HOST@TEST.REALM", "auth-conf")
    check("_HOST: server listens", port is not None, True)
    if port is not None:
        check("_HOST: python client to hive/%s" % CANON, py_calls(port, "auth-conf", CANON), GOOD)
        check("_HOST: hivelite's client",
              c_client(port, "auth-conf", KT_USER, "user@TEST.REALM", "dbs", host=CANON),
              [0, ["negotiated: auth-conf", "databases: default,sales"], ""])
        # many clients at once: every connection's thread runs its own
        # Kerberos context (8 hivelite clients as processes, 4 Python threads)
        cs = [subprocess.Popen([opts.client, "127.0.0.1", str(port), "hive", CANON, "auth-conf",
                                KT_USER, "user@TEST.REALM", "dbs", "table:sales.wide", "dbs"],
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
              for _ in range(8)]
        results = []
        ths = [threading.Thread(target=lambda: results.append(py_calls(port, "auth-conf", CANON)))
               for _ in range(4)]
        for t in ths:
            t.start()
        outs = [c.communicate(timeout=120) for c in cs]
        for t in ths:
            t.join(120)
        check("_HOST: 8 hivelite clients at once",
              [[c.returncode, o.decode(), e.decode()] for c, (o, e) in zip(cs, outs)],
              [[0, "negotiated: auth-conf\ndatabases: default,sales\n"
                   "table: sales.wide type MANAGED_TABLE\ndatabases: default,sales\n", ""]] * 8)
        check("_HOST: 4 python clients at once", results, [GOOD] * 4)
        check("_HOST: resolved in the log", log_lines(log)[0],
              "metastore: SASL GSSAPI (Kerberos) required: principal hive/%s@TEST.REALM, "
              "keytab %s, qop auth-conf" % (CANON, KT_HIVE))
        srv.send_signal(signal.SIGTERM)
        srv.wait(30)

    # ---- a keytab without the principal: no server --------------------------
    with open(cfg, "w") as f:
        f.write("hivelite.metastore.sasl.enabled=true\n"
                "hivelite.metastore.kerberos.principal=hive/localhost@TEST.REALM\n"
                "hivelite.metastore.kerberos.keytab.file=%s\n" % KT_OTHER)
    r = subprocess.run([opts.hivelite, "metastore", "-w", W, "--listen", "127.0.0.1:0"],
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    check("wrong keytab: the server does not start",
          [r.returncode, r.stdout, r.stderr.decode().split(": No")[0]],
          [1, b"", "ERROR 28000: sasl: no credentials for hive/localhost@TEST.REALM in %s" % KT_OTHER])
    with open(cfg, "w") as f:
        f.write("hivelite.metastore.sasl.enabled=true\n")
    r = subprocess.run([opts.hivelite, "metastore", "-w", W, "--listen", "127.0.0.1:0"],
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    check("no principal: the server does not start", [r.returncode, r.stderr.decode()],
          [1, "ERROR 22023: hivelite.metastore.sasl.enabled needs "
           "hivelite.metastore.kerberos.principal and hivelite.metastore.kerberos.keytab.file\n"])
    with open(cfg, "w") as f:
        f.write("hivelite.metastore.sasl.enabled=true\n"
                "hivelite.metastore.kerberos.principal=hive/localhost@TEST.REALM\n"
                "hivelite.metastore.kerberos.keytab.file=%s\n"
                "hivelite.metastore.sasl.qop=secret\n" % KT_HIVE)
    r = subprocess.run([opts.hivelite, "metastore", "-w", W, "--listen", "127.0.0.1:0"],
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    check("bad qop: the server does not start", [r.returncode, r.stderr.decode()],
          [1, "ERROR 22023: hivelite.metastore.sasl.qop: SASL protection level must be auth, "
           "auth-int or auth-conf, not \"secret\"\n"])
finally:
    stop_all()

check("nothing left running", [p.poll() is not None for p in procs], [True] * len(procs))
if failures:
    print("%d FAILED (temporary files kept in %s)" % (len(failures), tmp))
    sys.exit(1)
shutil.rmtree(tmp, ignore_errors=True)
print("all passed")
