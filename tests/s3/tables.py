#!/usr/bin/python3
"""tables.py -- Hive tables on S3 through hivelite, against s3rver (npm) with
boto3 (Debian python3-boto3) as the independent client that lays out data
and checks what hivelite wrote (interop.s3_tables).

Every statement kind on s3:// / s3a:// locations: CREATE (external and
managed in a database located on S3), MSCK of a layout boto3 made, a pin,
a full scan, INSERT, INSERT OVERWRITE (fresh prefix, old objects deleted
after the commit), dynamic partitions, CTAS, a multipart upload of a large
file, DROP of a managed table and of a partition, and the number of
requests a pin makes (through tests/s3/fault_proxy.py, which counts).
Secrets never appear in SET, SHOW CREATE TABLE or errors.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import s3env  # noqa: E402

from fault_proxy import FaultProxy  # noqa: E402
from hltest import keys, setup, write_config  # noqa: E402

T = setup()
check, run, rows = T.check, T.run, T.rows


tmp = tempfile.mkdtemp(prefix="hl-s3-", dir=os.environ.get("HIVELITE_TEST_TMP"))
try:
    # s3rver checks no Signature V4 (tests/s3/README.md): the proxy does,
    # refusing a bad signature with 403 SignatureDoesNotMatch as S3 does
    with s3env.S3Server(tmp) as srv, FaultProxy(
            srv.endpoint, verify_sigv4=(s3env.ACCESS_KEY, s3env.SECRET_KEY)) as px:
        s3 = srv.client()
        srv.create_bucket("lake")
        wh = os.path.join(tmp, "wh")
        write_config(wh, px.endpoint)

        # ---- a layout boto3 made: external table, MSCK, reads
        for dt, lines in (("2024-01-01", "1,a\n2,b\n"), ("2024-01-02", "3,c\n"),
                          ("2024-01-03", "4,d\n5,e\n6,f\n")):
            s3.put_object(Bucket="lake", Key="ext/dt=%s/part-0.csv" % dt, Body=lines.encode())
        s3.put_object(Bucket="lake", Key="ext/dt=2024-01-03/_SUCCESS", Body=b"")
        run(wh, "CREATE EXTERNAL TABLE ext (a INT, b STRING) PARTITIONED BY (dt STRING) "
                "ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' LOCATION 's3a://lake/ext'")
        out = run(wh, "MSCK REPAIR TABLE ext")
        check(rows(wh, "SHOW PARTITIONS ext") ==
              ["dt=2024-01-01", "dt=2024-01-02", "dt=2024-01-03"], "MSCK found the partitions")
        check(rows(wh, "SELECT a, b, dt FROM ext ORDER BY a") ==
              ["1,a,2024-01-01", "2,b,2024-01-01", "3,c,2024-01-02", "4,d,2024-01-03",
               "5,e,2024-01-03", "6,f,2024-01-03"], "full scan of the boto3 layout")
        px.reset()
        check(rows(wh, "SELECT count(*), sum(a) FROM ext WHERE dt = '2024-01-03'") == ["3,15"],
              "pin")
        c = px.counts()
        # one LIST of the partition, one GET of its file (size and ETag came
        # with the listing): no LIST of the table prefix, no HEAD
        check(c.get("list", 0) == 1 and c.get("head", 0) == 0 and c.get("get", 0) == 1,
              "a pin makes 1 LIST and 1 GET, no HEAD: %r" % c)
        out = run(wh, "EXPLAIN ANALYZE SELECT count(*), sum(a) FROM ext WHERE dt = '2024-01-03'")
        check(out.splitlines()[-1] == "\"S3 requests: 1 GET, 1 LIST\"" and
              "partitions: 1/3" in out, "EXPLAIN ANALYZE shows the requests: %r" % out)
        # a listing reused for hive.file-status-cache-expire-time: statement 2
        # (paused before its scan) does not see a file put after statement 1
        # listed, unless the time is 0 (the default)
        for ttl, want in (("60s", "1"), ("0", "2")):
            key = "ext/dt=2024-01-02/late-%s.csv" % ttl
            p = subprocess.Popen([T.hivelite, "-w", wh, "--format", "csv", "--no-header", "-c",
                                  "SET hive.file-status-cache-expire-time=%s; "
                                  "SELECT count(*) FROM ext WHERE dt = '2024-01-02' AND a > 0; "
                                  "SELECT count(*) FROM ext WHERE dt = '2024-01-02' AND a > 0"
                                  % ttl], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 env=dict(os.environ, HIVELITE_PAUSE_AT="scan:1500"))
            first = p.stdout.readline().decode().strip()
            s3.put_object(Bucket="lake", Key=key, Body=b"9,z\n")
            second = p.stdout.readline().decode().strip()
            p.communicate(timeout=60)
            check((first, second) == ("1", want), "listing reuse %s: %r" % (ttl, (first, second)))
            s3.delete_object(Bucket="lake", Key=key)
        loc = [r for r in run(wh, "DESCRIBE FORMATTED ext PARTITION (dt='2024-01-02')")
               .splitlines() if r.startswith("Location")]
        check(loc and "s3a://lake/ext/dt=2024-01-02" in loc[0], "partition location %r" % loc)

        # ---- a managed Parquet table in a database on S3
        run(wh, "CREATE DATABASE db1 LOCATION 's3://lake/db1.db'")
        run(wh, "CREATE TABLE db1.t (a INT, b STRING) PARTITIONED BY (p INT) STORED AS PARQUET")
        run(wh, "INSERT INTO db1.t PARTITION (p=1) VALUES (1, 'x'), (2, 'y')")
        run(wh, "INSERT INTO db1.t PARTITION (p) VALUES (3, 'z', 2), (4, 'w', 3)")
        run(wh, "INSERT INTO db1.t PARTITION (p=1) VALUES (5, 'v')")
        check(rows(wh, "SELECT a, b, p FROM db1.t ORDER BY a") ==
              ["1,x,1", "2,y,1", "3,z,2", "4,w,3", "5,v,1"], "managed table after inserts")
        objs = keys(s3, "lake", "db1.db/t/")
        # appends (to new partitions too) complete their uploads in place,
        # each file named by its write's id
        p1 = [k for k in objs if k.startswith("db1.db/t/p=1/")]
        check(len(p1) == 2 and all(re.fullmatch(r"db1\.db/t/p=1/[0-9a-f]{16}_\d{6}\.parquet", k)
                                   for k in p1), "partition p=1: two files: %r" % objs)
        check(len(objs) == 4, "four objects in all: %r" % objs)
        # boto3 reads back every object hivelite wrote, byte for byte what
        # hivelite reads from a local copy
        local = os.path.join(tmp, "copy")
        os.makedirs(local)
        for k in p1:
            s3.download_file("lake", k, os.path.join(local, k.rsplit("/", 1)[1]))
        check(rows(wh, "SELECT a, b FROM parquet.`%s` ORDER BY a" % local) ==
              ["1,x", "2,y", "5,v"], "boto3's copy of p=1 reads the same")
        sizes = sum(s3.head_object(Bucket="lake", Key=k)["ContentLength"] for k in p1)
        stats = run(wh, "DESCRIBE FORMATTED db1.t PARTITION (p=1)")
        check(("totalSize           \t%d" % sizes) in stats or
              re.search(r"totalSize\s*,?\s*%d\b" % sizes, stats) is not None,
              "totalSize %d in %r" % (sizes, stats[-400:]))

        # ---- INSERT OVERWRITE: a fresh prefix; the old objects go after the commit
        old_p1 = set(p1)
        run(wh, "INSERT OVERWRITE TABLE db1.t PARTITION (p=1) VALUES (7, 'o')")
        check(rows(wh, "SELECT a, b, p FROM db1.t ORDER BY a") ==
              ["3,z,2", "4,w,3", "7,o,1"], "after INSERT OVERWRITE")
        objs = set(keys(s3, "lake", "db1.db/t/p=1/"))
        check(not (objs & old_p1) and len(objs) == 1, "old objects deleted: %r" % objs)
        loc = [r for r in run(wh, "DESCRIBE FORMATTED db1.t PARTITION (p=1)").splitlines()
               if r.startswith("Location")]
        check(loc and re.search(r"s3://lake/db1.db/t/p=1/\.hl-[0-9a-f]{16}", loc[0]),
              "the location switched to the fresh prefix: %r" % loc)
        # overwrite again: the next prefix is beside it, never nested
        run(wh, "INSERT OVERWRITE TABLE db1.t PARTITION (p=1) VALUES (8, 'q')")
        objs = keys(s3, "lake", "db1.db/t/p=1/")
        check(len(objs) == 1 and objs[0].count("/.hl-") == 1, "no nesting: %r" % objs)
        check(rows(wh, "SELECT a FROM db1.t WHERE p = 1") == ["8"], "second overwrite")

        # ---- dynamic partitions, CTAS, an unpartitioned overwrite
        run(wh, "CREATE TABLE db1.u (a INT, b STRING) STORED AS PARQUET")
        run(wh, "INSERT INTO db1.u SELECT a, b FROM db1.t")
        run(wh, "INSERT OVERWRITE TABLE db1.u SELECT a + 100, b FROM db1.t WHERE p = 2")
        check(rows(wh, "SELECT a, b FROM db1.u") == ["103,z"], "unpartitioned overwrite")
        check(len(keys(s3, "lake", "db1.db/u/")) == 1, "one object left in db1.u")
        run(wh, "CREATE TABLE db1.c STORED AS PARQUET AS SELECT a, b FROM ext WHERE a > 3")
        check(rows(wh, "SELECT count(*), sum(a) FROM db1.c") == ["3,15"], "CTAS")
        run(wh, "CREATE TABLE db1.d (a INT) PARTITIONED BY (dt STRING) STORED AS PARQUET")
        run(wh, "INSERT OVERWRITE TABLE db1.d PARTITION (dt) SELECT a, dt FROM ext")
        check(rows(wh, "SELECT dt, count(*) FROM db1.d GROUP BY dt ORDER BY dt") ==
              ["2024-01-01,2", "2024-01-02,1", "2024-01-03,3"], "dynamic partitions")

        # ---- large files: multipart uploads of several parts (LOAD DATA
        # LOCAL copies the file up; INSERT writes one through the text writer)
        big_local = os.path.join(tmp, "big.txt")
        with open(big_local, "w") as f:
            for i in range(100000):
                f.write("%d\t%s\n" % (i, "x" * 200))
        run(wh, "CREATE TABLE db1.big (a BIGINT, s STRING) "
                "ROW FORMAT DELIMITED FIELDS TERMINATED BY '\\t' STORED AS TEXTFILE")
        uploads = {}
        px.reset()
        run(wh, "LOAD DATA LOCAL INPATH '%s' INTO TABLE db1.big" % big_local)
        uploads["big"] = px.counts()
        run(wh, "CREATE TABLE db1.big2 LIKE db1.big")
        px.reset()
        run(wh, "INSERT INTO db1.big2 SELECT * FROM db1.big")
        uploads["big2"] = px.counts()
        for t in ("big", "big2"):
            objs = keys(s3, "lake", "db1.db/%s/" % t)
            check(len(objs) == 1, "one object in %s: %r" % (t, objs))
            if objs:
                h = s3.head_object(Bucket="lake", Key=objs[0])
                check(h["ContentLength"] == os.path.getsize(big_local),
                      "%s: %d bytes" % (t, h["ContentLength"]))
            # 21 MB in parts of 8 MiB (s3rver's ETag of a multipart object
            # is a plain MD5, so the proxy's counts tell)
            c = uploads[t]
            check((c.get("create_mpu"), c.get("put_part"), c.get("complete"), c.get("put")) ==
                  (1, 3, 1, None), "%s: one multipart upload of 3 parts: %r" % (t, c))
            check(rows(wh, "SELECT count(*), sum(a), max(length(s)) FROM db1.%s" % t) ==
                  ["100000,4999950000,200"], "%s reads back" % t)

        # ---- a local table with one partition on S3 (and the reverse, which
        # no write can serve: different file systems)
        run(wh, "CREATE TABLE mixed (a INT) PARTITIONED BY (p INT) STORED AS PARQUET")
        run(wh, "ALTER TABLE mixed ADD PARTITION (p=2) LOCATION 's3://lake/mixed/p2'")
        run(wh, "INSERT INTO mixed PARTITION (p) VALUES (1, 1), (2, 2)")
        run(wh, "INSERT OVERWRITE TABLE mixed PARTITION (p=2) VALUES (3)")
        check(rows(wh, "SELECT a, p FROM mixed ORDER BY p") == ["1,1", "3,2"],
              "a local table with a partition on S3")
        check(len(keys(s3, "lake", "mixed/p2/")) == 1, "its S3 partition holds one object")
        run(wh, "ALTER TABLE db1.t ADD PARTITION (p=70) LOCATION '%s'"
                % os.path.join(tmp, "local_p70"))
        err = run(wh, "INSERT INTO db1.t PARTITION (p=70) VALUES (70, 'l')", expect_error=True)
        check("0A000" in err and "different file systems" in err,
              "a table on S3 with a local partition: 0A000: %r" % err)
        check(rows(wh, "SELECT a FROM db1.t WHERE p = 70") == [], "nothing written")
        run(wh, "ALTER TABLE db1.t DROP PARTITION (p=70)")

        # ---- an external table's overwrite stays in its location (tools
        # read it by path): the new files land there, the old ones go
        run(wh, "CREATE EXTERNAL TABLE db1.xo (a INT) PARTITIONED BY (p INT) STORED AS PARQUET "
                "LOCATION 's3://lake/xo'")
        run(wh, "INSERT INTO db1.xo PARTITION (p=1) VALUES (1)")
        old = keys(s3, "lake", "xo/")
        run(wh, "INSERT OVERWRITE TABLE db1.xo PARTITION (p=1) VALUES (2)")
        new = keys(s3, "lake", "xo/")
        check(len(new) == 1 and new[0].startswith("xo/p=1/") and "/.hl-" not in new[0] and
              new != old, "an external overwrite in place: %r -> %r" % (old, new))
        check(rows(wh, "SELECT a FROM db1.xo") == ["2"], "the external overwrite reads")

        # ---- TRUNCATE, ANALYZE, renames; what an object store cannot do
        run(wh, "CREATE TABLE db1.tr (a INT) PARTITIONED BY (p INT) STORED AS PARQUET")
        run(wh, "INSERT INTO db1.tr PARTITION (p) VALUES (1, 1), (2, 2)")
        run(wh, "TRUNCATE TABLE db1.tr PARTITION (p=1)")
        check(rows(wh, "SELECT a, p FROM db1.tr") == ["2,2"], "TRUNCATE of a partition")
        check([k for k in keys(s3, "lake", "db1.db/tr/") if "/p=1/" in k] == [],
              "the truncated partition's objects are deleted")
        run(wh, "ANALYZE TABLE db1.tr PARTITION (p=2) COMPUTE STATISTICS")
        check(re.search(r"numRows,1\b", run(wh, "DESCRIBE FORMATTED db1.tr PARTITION (p=2)"))
              is not None, "ANALYZE counted the rows on S3")
        run(wh, "ALTER TABLE db1.tr RENAME TO db1.tr2")
        check(rows(wh, "SELECT a, p FROM db1.tr2") == ["2,2"], "a renamed table reads")
        check(len(keys(s3, "lake", "db1.db/tr/")) == 1 and keys(s3, "lake", "db1.db/tr2/") == [],
              "RENAME keeps an S3 table's data where it is")
        run(wh, "ALTER TABLE db1.tr2 PARTITION (p=2) RENAME TO PARTITION (p=3)")
        check(rows(wh, "SELECT a, p FROM db1.tr2") == ["2,3"], "RENAME PARTITION on S3")
        err = run(wh, "LOAD DATA INPATH 's3://lake/ext/dt=2024-01-01/part-0.csv' "
                      "INTO TABLE db1.big", expect_error=True)
        check("0A000" in err and "rename" in err, "LOAD DATA from S3 (a move): 0A000: %r" % err)
        check(len(keys(s3, "lake", "ext/dt=2024-01-01/")) == 1, "the LOAD source stays")
        moved = os.path.join(tmp, "tomove.txt")
        with open(moved, "w") as f:
            f.write("1\tz\n")
        err = run(wh, "LOAD DATA INPATH '%s' INTO TABLE db1.big" % moved, expect_error=True)
        check("0A000" in err and os.path.exists(moved),
              "LOAD DATA to S3 (a move): 0A000, the file stays: %r" % err)
        run(wh, "CREATE TABLE db1.ex LIKE db1.tr2")
        err = run(wh, "ALTER TABLE db1.ex EXCHANGE PARTITION (p=3) WITH TABLE db1.tr2",
                  expect_error=True)
        check("0A000" in err, "EXCHANGE PARTITION on S3: 0A000: %r" % err)
        check(rows(wh, "SELECT a, p FROM db1.tr2") == ["2,3"], "EXCHANGE changed nothing")

        # ---- concurrent writers: both appends land, overwrites are serialised
        procs = [subprocess.Popen([T.hivelite, "-w", wh, "-c",
                                   "INSERT INTO db1.t PARTITION (p=5) VALUES (%d, 'c')" % i],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                 for i in (50, 51)]
        outs = [p.communicate(timeout=120) + (p.returncode,) for p in procs]
        check(all(o[2] == 0 for o in outs), "two concurrent appends: %r" % outs)
        check(rows(wh, "SELECT a FROM db1.t WHERE p = 5 ORDER BY a") == ["50", "51"],
              "both appends landed")
        procs = [subprocess.Popen([T.hivelite, "-w", wh, "-c",
                                   "INSERT OVERWRITE TABLE db1.t PARTITION (p=5) VALUES (%d, 'o')"
                                   % i], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                 for i in (60, 61)]
        outs = [p.communicate(timeout=120) + (p.returncode,) for p in procs]
        check(all(o[2] == 0 for o in outs), "two concurrent overwrites: %r" % outs)
        got = rows(wh, "SELECT a FROM db1.t WHERE p = 5")
        check(got in (["60"], ["61"]), "one overwrite won whole: %r" % got)
        check(len(keys(s3, "lake", "db1.db/t/p=5/")) == 1, "one object left in p=5")

        # ---- anonymous requests (s3rver serves unsigned ones, as a public bucket)
        wh3 = os.path.join(tmp, "wh3")
        os.makedirs(os.path.join(wh3, ".hivelite"))
        with open(os.path.join(wh3, ".hivelite", "config"), "w") as f:
            f.write("fs.s3a.endpoint = %s\nfs.s3a.path.style.access = true\n"
                    "fs.s3a.aws.credentials.provider = "
                    "org.apache.hadoop.fs.s3a.AnonymousAWSCredentialsProvider\n" % srv.endpoint)
        run(wh3, "CREATE EXTERNAL TABLE pub (a INT, b STRING) ROW FORMAT DELIMITED "
                 "FIELDS TERMINATED BY ',' LOCATION 's3://lake/ext/dt=2024-01-02'")
        check(rows(wh3, "SELECT a, b FROM pub") == ["3,c"], "anonymous read")

        # ---- where settings come from: the AWS environment, a profile of the
        # shared credentials file, a bucket's own settings (the proxy checks
        # every signature, so wrong credentials fail)
        wh8 = os.path.join(tmp, "wh8")
        base_env = {k: "" for k in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_PROFILE",
                                    "AWS_ENDPOINT_URL", "AWS_SHARED_CREDENTIALS_FILE")}
        q8 = "SELECT a, b FROM e8"
        os.makedirs(os.path.join(wh8, ".hivelite"))
        with open(os.path.join(wh8, ".hivelite", "config"), "w") as f:
            f.write("fs.s3a.path.style.access = true\n")
        env = dict(base_env, AWS_ENDPOINT_URL=px.endpoint, AWS_ACCESS_KEY_ID=s3env.ACCESS_KEY,
                   AWS_SECRET_ACCESS_KEY=s3env.SECRET_KEY)
        run(wh8, "CREATE EXTERNAL TABLE e8 (a INT, b STRING) ROW FORMAT DELIMITED "
                 "FIELDS TERMINATED BY ',' LOCATION 's3://lake/ext/dt=2024-01-02'", env=env)
        check(T.run(wh8, q8, env=env).splitlines() == ["3,c"], "credentials from the environment")
        cred = os.path.join(tmp, "credentials")
        with open(cred, "w") as f:
            f.write("[default]\naws_access_key_id = nobody\naws_secret_access_key = wrong\n\n"
                    "[lake]\naws_access_key_id = %s\naws_secret_access_key = %s\n"
                    % (s3env.ACCESS_KEY, s3env.SECRET_KEY))
        env = dict(base_env, AWS_ENDPOINT_URL=px.endpoint, AWS_SHARED_CREDENTIALS_FILE=cred,
                   AWS_PROFILE="lake")
        check(T.run(wh8, q8, env=env).splitlines() == ["3,c"], "a profile of the credentials file")
        env["AWS_PROFILE"] = "default"
        err = T.run(wh8, q8, expect_error=True, env=env)
        check("28000" in err, "the default profile's wrong key is refused: %r" % err)
        with open(os.path.join(wh8, ".hivelite", "config"), "w") as f:
            f.write("fs.s3a.endpoint = http://127.0.0.1:9\n"  # nothing listens there
                    "fs.s3a.bucket.lake.endpoint = %s\nfs.s3a.path.style.access = true\n"
                    "fs.s3a.access.key = %s\nfs.s3a.secret.key = %s\n"
                    % (px.endpoint, s3env.ACCESS_KEY, s3env.SECRET_KEY))
        check(T.run(wh8, q8, env=base_env).splitlines() == ["3,c"],
              "a bucket's own endpoint (fs.s3a.bucket.lake.endpoint) wins")

        # ---- settings from a table's properties (no S3 settings in the
        # warehouse at all): they apply at CREATE already, and to every read
        # and write of the table; SHOW masks the secret
        wh4 = os.path.join(tmp, "wh4")
        props = ("TBLPROPERTIES ('fs.s3a.endpoint'='%s', 'fs.s3a.path.style.access'='true', "
                 "'fs.s3a.access.key'='%s', 'fs.s3a.secret.key'='%s')"
                 % (px.endpoint, s3env.ACCESS_KEY, s3env.SECRET_KEY))
        run(wh4, "CREATE TABLE tp (a INT) STORED AS PARQUET LOCATION 's3://lake/tp' " + props)
        run(wh4, "INSERT INTO tp VALUES (41), (42)")
        check(rows(wh4, "SELECT sum(a) FROM tp") == ["83"], "a table's own S3 settings")
        check(len(keys(s3, "lake", "tp/")) == 1, "written with them")
        out = run(wh4, "SHOW TBLPROPERTIES tp")
        check("fs.s3a.secret.key,*XXX" in out.splitlines() and "fs.s3a.endpoint,%s" % px.endpoint
              in out.splitlines(), "SHOW TBLPROPERTIES masks the secret: %r" % out)
        out = run(wh4, "SHOW CREATE TABLE tp")
        check("'fs.s3a.secret.key'='*XXX'" in out, "SHOW CREATE TABLE masks it: %r" % out)
        err = run(wh4, "CREATE TABLE tq (a INT) LOCATION 's3://lake/tq'", expect_error=True)
        check("could not" in err and "s3://lake/tq" in err,
              "another table has no settings: AWS is asked, and it fails here: %r" % err)

        # ---- settings from a catalog's properties, with Doris's names: a
        # warehouse served as a Hive Metastore holds a table on S3 (made
        # with the settings in its config), attached by a warehouse with
        # no S3 settings of its own
        wh5, wh6 = os.path.join(tmp, "wh5"), os.path.join(tmp, "wh6")
        write_config(wh5, px.endpoint)
        run(wh5, "CREATE TABLE ct (a INT) STORED AS PARQUET LOCATION 's3://lake/ct'")
        run(wh5, "INSERT INTO ct VALUES (7), (8)")
        ms = subprocess.Popen([T.hivelite, "metastore", "-w", wh5, "--listen", "127.0.0.1:0"],
                              stdout=subprocess.PIPE)
        try:
            m = re.fullmatch(r"listening on 127\.0\.0\.1:(\d+)\n",
                             ms.stdout.readline().decode())
            check(m is not None, "the metastore listens")
            uri = "thrift://127.0.0.1:%s" % (m.group(1) if m else "0")
            run(wh6, "CREATE CATALOG lake PROPERTIES ('type'='hms', 'hive.metastore.uris'='%s', "
                     "'s3.endpoint'='%s', 'use_path_style'='true', 's3.access_key'='%s', "
                     "'s3.secret_key'='%s')" % (uri, px.endpoint, s3env.ACCESS_KEY,
                                                s3env.SECRET_KEY))
            check(rows(wh6, "SELECT sum(a) FROM lake.default.ct") == ["15"],
                  "a catalog's S3 properties (Doris's names)")
            out = run(wh6, "SHOW CREATE CATALOG lake")
            check("'s3.secret_key' = '*XXX'" in out, "SHOW CREATE CATALOG masks it: %r" % out)
            run(wh6, "INSERT INTO lake.default.ct VALUES (9)")
            check(rows(wh5, "SELECT sum(a) FROM ct") == ["24"],
                  "a write through the catalog, read where the table lives")
            run(wh6, "DROP TABLE lake.default.ct PURGE")
            check(keys(s3, "lake", "ct/") == [], "DROP through the catalog deletes the objects")
        finally:
            ms.terminate()
            ms.wait(timeout=30)

        # ---- drops
        run(wh, "ALTER TABLE db1.t DROP PARTITION (p=3)")
        check(keys(s3, "lake", "db1.db/t/p=3/") == [], "dropped partition's objects deleted")
        run(wh, "DROP TABLE db1.big PURGE")
        check(keys(s3, "lake", "db1.db/big/") == [], "DROP TABLE PURGE deletes its objects")
        check(len(keys(s3, "lake", "db1.db/big2/")) == 1, "the other table's object stays")
        run(wh, "DROP TABLE ext")
        check(len(keys(s3, "lake", "ext/")) == 4, "an external table's data stays")

        # ---- secrets
        out = run(wh, "SET fs.s3a.secret.key")
        check(out.strip() == "fs.s3a.secret.key=*XXX", "SET masks the secret: %r" % out)
        out = run(wh, "SET")
        check("fs.s3a.secret.key=*XXX" in out.splitlines(), "SET lists the secret masked")
        # s3rver's one account has the secret equal to its key: the secret
        # that must not show is a wrong one
        wh2 = os.path.join(tmp, "wh2")
        write_config(wh2, px.endpoint, secret="not-the-secret-x9")
        err = run(wh2, "CREATE EXTERNAL TABLE e2 (a INT) LOCATION 's3://lake/ext'",
                  expect_error=True)
        check("28000" in err and "s3://lake/ext" in err and "not-the-secret-x9" not in err,
              "a wrong secret: 28000 naming the location, never the secret: %r" % err)
        err = run(wh, "SET fs.s3a.secret.key=not-the-secret-x9; SELECT a FROM db1.u",
                  expect_error=True)
        check("28000" in err and "SignatureDoesNotMatch" in err and
              "not-the-secret-x9" not in err,
              "a wrong secret: 28000 naming S3's code, never the secret: %r" % err)
        out = run(wh, "SHOW CREATE TABLE db1.t")
        check("s3://lake/db1.db/t" in out and "secret" not in out.lower(),
              "SHOW CREATE TABLE: the location, no secret")

    # ---- https: s3rver with a certificate of its own; hivelite checks it
    # against the authorities it is given (AWS_CA_BUNDLE, fs.s3a.ca.bundle)
    # and sends UNSIGNED-PAYLOAD over TLS
    key, cert = os.path.join(tmp, "tls.key"), os.path.join(tmp, "tls.crt")
    r = subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                        "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                        "-keyout", key, "-out", cert], capture_output=True)
    check(r.returncode == 0, "openssl made a certificate: %r" % r.stderr[-300:])
    with s3env.S3Server(tmp, name="s3rver-tls", tls=(key, cert)) as tsrv:
        check(tsrv.endpoint.startswith("https://"), "s3rver over https")
        tsrv.client().create_bucket(Bucket="sec")
        tsrv.client().put_object(Bucket="sec", Key="t/a.csv", Body=b"5,e\n")
        wh7 = os.path.join(tmp, "wh7")
        write_config(wh7, tsrv.endpoint)
        run(wh7, "CREATE EXTERNAL TABLE t (a INT, b STRING) ROW FORMAT DELIMITED "
                 "FIELDS TERMINATED BY ',' LOCATION 's3://sec/t'", env={"AWS_CA_BUNDLE": cert})
        out = T.run(wh7, "SELECT a, b FROM t", env={"AWS_CA_BUNDLE": cert})
        check(out.splitlines() == ["5,e"], "read over https: %r" % out)
        run(wh7, "INSERT INTO TABLE t VALUES (6, 'f')", env={"AWS_CA_BUNDLE": cert})
        got = sorted(o["Key"] for o in tsrv.client()
                     .list_objects_v2(Bucket="sec")["Contents"])
        check(len(got) == 2, "written over https: %r" % got)
        err = run(wh7, "SELECT a FROM t", expect_error=True)
        check(err.startswith("ERROR 08001: could not list s3://sec/t/: SSL certificate problem")
              and "attempts" not in err,
              "a certificate no authority vouches for is refused, not retried: %r" % err)
finally:
    shutil.rmtree(tmp, ignore_errors=True)

sys.exit(T.finish())
