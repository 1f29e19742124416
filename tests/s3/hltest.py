"""hltest.py -- what the S3 tests of hivelite share: running the hivelite
command against a warehouse, counting checks, a warehouse configured for
an S3 endpoint, and listing a prefix with boto3."""
import argparse
import os
import re
import subprocess

import s3env


def setup():
    """The S3 tests' command line (--hivelite), with the peers required
    (s3env.require: skip or, under CI=true, fail): a Checks for it."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--hivelite", required=True)
    opts = ap.parse_args()
    s3env.require()
    return Checks(opts.hivelite)


class Checks:
    def __init__(self, hivelite):
        self.hivelite = hivelite
        self.failures = []
        self.count = 0

    def check(self, cond, what):
        self.count += 1
        if not cond:
            self.failures.append(what)
            print("FAIL:", what, flush=True)
        return cond

    def run(self, wh, sql, expect_error=False, env=None, timeout=300):
        """SQL's output (csv, no header); with EXPECT_ERROR its stderr."""
        e = dict(os.environ)
        e.update(env or {})
        p = subprocess.run([self.hivelite, "-w", wh, "--format", "csv", "--no-header", "-c", sql],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout,
                           env=e)
        out, err = p.stdout.decode(), p.stderr.decode()
        # under ASan+UBSan (or valgrind: make valgrind's wrapper) a report is
        # a failure even where an error is expected
        self.check(not any(w in err for w in ("Sanitizer", "runtime error:")) and
                   not re.search(r"^==\d+== (Invalid|Conditional jump|Use of uninitialised|"
                                 r"Syscall param|Mismatched|Source and destination|"
                                 r".*(definitely|indirectly) lost in)", err, re.M),
                   "a sanitizer or valgrind report: %s -> %s" % (sql, err[-2000:]))
        if expect_error:
            self.check(p.returncode != 0, "expected an error: %s" % sql)
            return err
        self.check(p.returncode == 0, "%s -> %s" % (sql, err.strip()))
        return out

    def rows(self, wh, sql):
        return self.run(wh, sql).splitlines()

    def finish(self):
        print("%d checks, %d failed" % (self.count, len(self.failures)))
        return 1 if self.failures else 0


def write_config(wh, endpoint, extra="", secret=None):
    """A warehouse whose S3 settings (.hivelite/config) name ENDPOINT with
    s3rver's account (or SECRET), path-style."""
    os.makedirs(os.path.join(wh, ".hivelite"), exist_ok=True)
    with open(os.path.join(wh, ".hivelite", "config"), "w") as f:
        f.write("fs.s3a.endpoint = %s\n" % endpoint)
        f.write("fs.s3a.path.style.access = true\n")
        f.write("fs.s3a.access.key = %s\n" % s3env.ACCESS_KEY)
        f.write("fs.s3a.secret.key = %s\n" % (secret or s3env.SECRET_KEY))
        f.write(extra)


def keys(s3, bucket, prefix):
    """Every key under PREFIX, sorted (boto3, all pages)."""
    out = []
    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix):
        out += [o["Key"] for o in page.get("Contents", [])]
    return sorted(out)
