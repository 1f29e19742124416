#!/usr/bin/python3
"""faults.py -- hivelite on S3 when the network and the server misbehave, and
when a write is killed at each step of its commit (interop.s3_faults).

tests/s3/fault_proxy.py sits between hivelite and s3rver: it drops
connections, truncates bodies, answers 500/503/429, replaces an object
between two reads of it, redirects and sends malformed XML, per request
kind.  Every fault is either retried (the statement gives the exact
answer, and the proxy's counts show the retry) or reported with a clear
error; a table is never changed by a failed write.  Then a write is
SIGKILLed (HIVELITE_CRASH_AT) at every step of its commit, and the next
open must leave exactly the old or the new table, with no object and no
pending upload of the dead write left behind.  s3rver has neither
AbortMultipartUpload nor ListMultipartUploads: the proxy answers them
(its "abort" and "list_uploads" emulations, README.md), which is what
recovery's sweep is checked against.
"""
import os
import re
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import s3env  # noqa: E402

from fault_proxy import FaultProxy  # noqa: E402
from hltest import keys, setup, write_config  # noqa: E402

T = setup()
check, run, rows = T.check, T.run, T.rows

# fewer, faster retries than the defaults: a test of giving up must not wait
RETRY = "fs.s3a.attempts.maximum = 4\nfs.s3a.retry.interval = 10ms\n"
BEFORE = ["1,a,1", "2,b,1", "3,c,2"]

tmp = tempfile.mkdtemp(prefix="hl-s3f-", dir=os.environ.get("HIVELITE_TEST_TMP"))
try:
    with s3env.S3Server(tmp) as srv, FaultProxy(srv.endpoint,
                                                 emulate=("all",)) as px:
        s3 = srv.client()
        srv.create_bucket("lake")
        wh = os.path.join(tmp, "wh")
        write_config(wh, px.endpoint, RETRY)
        run(wh, "CREATE DATABASE d LOCATION 's3://lake/d.db'")
        run(wh, "CREATE TABLE d.t (a INT, b STRING) PARTITIONED BY (p INT) STORED AS PARQUET")
        run(wh, "INSERT INTO d.t PARTITION (p) VALUES (1, 'a', 1), (2, 'b', 1), (3, 'c', 2)")
        q = "SELECT a, b, p FROM d.t ORDER BY a"
        check(rows(wh, q) == BEFORE, "the table")

        def objects():
            return keys(s3, "lake", "d.db/t/")

        def pending():
            """Uploads created through the proxy, neither completed nor aborted."""
            with px.lock:
                return sorted(u["key"] for u in px.uploads.values()
                              if u["key"].startswith("d.db/t/"))

        # ---- reads: each fault once, retried
        for kind, fault in (("get", {"fault": "status", "status": 503}),
                            ("get", {"fault": "status", "status": 500}),
                            ("get", {"fault": "status", "status": 429}),
                            ("get", {"fault": "drop"}),
                            ("get", {"fault": "truncate"}),
                            ("list", {"fault": "drop"}),
                            ("list", {"fault": "status", "status": 503})):
            px.reset()
            px.set_rules([dict(fault, kind=kind, nth=1)])
            got = rows(wh, q)
            check(got == BEFORE, "%s %r retried: %r" % (kind, fault, got))
            check(px.fired() == [1], "%s %r fired once: %r" % (kind, fault, px.fired()))
        px.set_rules([])

        # ---- an object replaced between two reads of it: an error, never
        # mixed bytes.  The file is bigger than the first read's window, so
        # that its footer and its data are two GETs.
        gen = os.path.join(tmp, "gen.txt")
        with open(gen, "w") as f:
            for i in range(200000):
                f.write("%d\t%016x\n" % (i, (i * 0x9E3779B97F4A7C15) & (2**64 - 1)))
        run(wh, "CREATE TABLE d.g (a BIGINT, s STRING) ROW FORMAT DELIMITED "
                "FIELDS TERMINATED BY '\\t'")
        run(wh, "LOAD DATA LOCAL INPATH '%s' INTO TABLE d.g" % gen)
        run(wh, "CREATE TABLE d.r STORED AS PARQUET AS SELECT * FROM d.g")
        robj = keys(s3, "lake", "d.db/r/")
        check(len(robj) == 1 and s3.head_object(Bucket="lake", Key=robj[0])["ContentLength"] >
              (1 << 20), "a Parquet object over 1 MiB: %r" % robj)
        px.reset()
        px.set_rules([{"kind": "get", "key": robj[0], "nth": 2, "fault": "replace"}])
        err = run(wh, "SELECT sum(a), max(s) FROM d.r", expect_error=True)
        check(px.fired() == [1], "the object was replaced between two GETs")
        check("55000" in err and "changed" in err and robj[0] in err,
              "a replaced object: 55000 naming it: %r" % err)
        px.set_rules([])
        run(wh, "DROP TABLE d.r")

        # ---- a reply with another ETag than the object had when listed
        px.set_rules([{"kind": "get", "every": True, "fault": "bad_etag"}])
        err = run(wh, "SELECT a FROM d.t WHERE p = 2", expect_error=True)
        check("55000" in err and "changed" in err, "a wrong ETag: 55000: %r" % err)
        px.set_rules([])

        # ---- a redirect is refused (never followed to another host)
        px.set_rules([{"kind": "list", "every": True, "fault": "redirect"}])
        err = run(wh, q, expect_error=True)
        check("301" in err, "a redirect: %r" % err)
        # ---- a malformed listing
        px.set_rules([{"kind": "list", "every": True, "fault": "malformed"}])
        err = run(wh, q, expect_error=True)
        check("08P01" in err, "malformed XML: 08P01: %r" % err)
        px.set_rules([])

        # ---- writes: a fault retried, then ones that never end
        before_objects = objects()
        px.set_rules([{"kind": "put_part", "nth": 1, "fault": "status", "status": 503}])
        run(wh, "INSERT INTO d.t PARTITION (p=3) VALUES (9, 'z')")
        check(px.fired() == [1], "the 503 fired")
        check(rows(wh, "SELECT a FROM d.t WHERE p = 3") == ["9"], "a part retried after 503")
        run(wh, "ALTER TABLE d.t DROP PARTITION (p=3)")
        check(objects() == before_objects, "dropped again")
        # the cleanup after an overwrite's commit: a DeleteObjects fault retried
        px.reset()
        px.set_rules([{"kind": "delete_objects", "nth": 1, "fault": "status", "status": 503}])
        run(wh, "INSERT OVERWRITE TABLE d.t PARTITION (p=1) VALUES (1, 'a'), (2, 'b')")
        check(px.fired() == [1] and px.counts().get("delete_objects") == 2,
              "DeleteObjects retried after 503: %r" % px.counts())
        check(rows(wh, q) == BEFORE, "the overwrite")
        check(len([k for k in objects() if "/p=1/" in k]) == 1, "its old object deleted")
        px.set_rules([])
        before_objects = objects()
        for kind in ("put_part", "complete", "create_mpu"):
            px.set_rules([{"kind": kind, "every": True, "fault": "status", "status": 500}])
            err = run(wh, "INSERT OVERWRITE TABLE d.t PARTITION (p=1) VALUES (5, 'e')",
                      expect_error=True)
            px.set_rules([])
            check("58030" in err and "InternalError" in err and "s3://lake/d.db/t" in err,
                  "%s failing: 58030 naming the key and S3's code: %r" % (kind, err))
            check(rows(wh, q) == BEFORE, "%s failing: the table is unchanged" % kind)
            check(objects() == before_objects, "%s failing: no object left" % kind)
            check(pending() == [], "%s failing: no pending upload left: %r" % (kind, pending()))

        # ---- SIGKILL at each step of an overwrite's commit, then recovery
        cur = BEFORE
        for n, step in enumerate(["staged", "locked", "pending", "publish", "synced",
                                  "before_commit", "committed", "cleanup"]):
            v = 10 + n
            run(wh, "INSERT OVERWRITE TABLE d.t PARTITION (p=1) VALUES (%d, 'k')" % v,
                expect_error=True, env={"HIVELITE_CRASH_AT": step})
            got = rows(wh, q)  # this open recovers the dead write
            new = ["3,c,2", "%d,k,1" % v]
            want = new if step in ("committed", "cleanup") else cur
            check(got == want, "killed at %s: %r, want %r" % (step, got, want))
            p1 = [k for k in objects() if "/p=1/" in k]
            loc = [r for r in run(wh, "DESCRIBE FORMATTED d.t PARTITION (p=1)").splitlines()
                   if r.startswith("Location")]
            m = re.search(r"s3://lake/(\S+)", loc[0]) if loc else None
            where = m.group(1).rstrip(",") + "/" if m else "?"
            check(p1 and all(k.startswith(where) for k in p1),
                  "killed at %s: p=1's objects are only those of its location %s: %r"
                  % (step, where, p1))
            check(pending() == [], "killed at %s: no pending upload left: %r" % (step, pending()))
            cur = got

        # ---- SIGKILL at each step of an append (a new partition and an
        # existing one) and of a DROP PARTITION
        for step in ["staged", "pending", "publish", "before_commit", "committed"]:
            before = objects()
            run(wh, "INSERT INTO d.t PARTITION (p) VALUES (100, 'n', 7), (101, 'm', 2)",
                expect_error=True, env={"HIVELITE_CRASH_AT": step})
            got = rows(wh, "SELECT a, p FROM d.t WHERE a >= 100 ORDER BY a")
            done = step == "committed"
            check(got == (["100,7", "101,2"] if done else []),
                  "append killed at %s: %r" % (step, got))
            check(pending() == [], "append killed at %s: no pending upload: %r"
                  % (step, pending()))
            if not done:
                check(objects() == before, "append killed at %s: no object left: %r"
                      % (step, sorted(set(objects()) - set(before))))
            else:
                run(wh, "ALTER TABLE d.t DROP PARTITION (p=7)")
                run(wh, "INSERT OVERWRITE TABLE d.t PARTITION (p=2) VALUES (3, 'c')")
        # a partition whose location lies outside the table's prefix: its
        # uploads are swept too when the write dies before its plan
        run(wh, "ALTER TABLE d.t ADD PARTITION (p=9) LOCATION 's3://lake/elsewhere/p9'")
        for step in ["staged", "pending"]:
            run(wh, "INSERT INTO d.t PARTITION (p=9) VALUES (90, 'x')", expect_error=True,
                env={"HIVELITE_CRASH_AT": step})
            check(rows(wh, "SELECT a FROM d.t WHERE p = 9") == [], "killed at %s: nothing" % step)
            with px.lock:
                left = [u["key"] for u in px.uploads.values()
                        if u["key"].startswith("elsewhere/")]
            check(left == [], "killed at %s: the outside partition's upload aborted: %r"
                  % (step, left))
            check(keys(s3, "lake", "elsewhere/") == [], "killed at %s: no object" % step)
        run(wh, "ALTER TABLE d.t DROP PARTITION (p=9)")
        for step in ["locked", "pending", "before_commit", "committed"]:
            run(wh, "INSERT INTO d.t PARTITION (p=8) VALUES (80, 'd')")
            p8 = [k for k in objects() if "/p=8/" in k]
            run(wh, "ALTER TABLE d.t DROP PARTITION (p=8)", expect_error=True,
                env={"HIVELITE_CRASH_AT": step})
            got = rows(wh, "SELECT a FROM d.t WHERE p = 8")
            left = [k for k in objects() if "/p=8/" in k]
            if step == "committed":
                check(got == [] and left == [], "drop killed at %s: dropped, objects gone: %r"
                      % (step, left))
            else:
                check(got == ["80"] and left == p8, "drop killed at %s: still there: %r %r"
                      % (step, got, left))
                run(wh, "ALTER TABLE d.t DROP PARTITION (p=8)")
                check([k for k in objects() if "/p=8/" in k] == [], "dropped after all")
finally:
    shutil.rmtree(tmp, ignore_errors=True)

sys.exit(T.finish())
