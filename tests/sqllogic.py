#!/usr/bin/env python3
"""sqllogic.py -- runs hivelite SQL logic tests (tests/sql/**/*.test).

Usage: python3 tests/sqllogic.py --hivelite PATH [--keep] [--timeout S] FILE...

CTest runs one .test file per test.  Exit status: 0 all records passed,
1 a record failed (or the file is malformed), 77 skipped (CTest's
SKIP_RETURN_CODE).  Standard library only.

File format (also in tests/sql/README.md)
-----------------------------------------
Lines starting with '#' are comments; blank lines separate records.  A
record is a header line, then its body:

    statement ok                 SQL must exit 0 with nothing on stderr
    statement error 42P01        SQL must exit 1 with stderr starting
                                 "ERROR 42P01:"; the code may be left out
                                 (then any "ERROR " will do)
    query                        SQL's stdout (--format csv, header first)
                                 must equal the expected block exactly
    query sort                   like query, but the rows after the header
                                 are compared as a sorted multiset
                                 ("query rowsort" is the same)
    shell                        the lines up to the next blank line run
                                 with /bin/sh -e (to lay out directories and
                                 files behind the engine's back)
    require fixtures             skip the whole file (exit 77) when the
                                 shared fixtures folder is absent

For statement and query records the SQL is one or more lines, the last one
ending in ';'.  It may be followed by a line "----" and the expected output,
up to the next blank line or the end of the file.  For "query" the block is
the expected stdout (required); for "statement error" it is the exact
expected stderr; for "statement ok" it is the expected stdout.  Since a
blank line ends the block, an empty output line is written "(empty)".
In the block of a "statement ok" or "query" record, lines starting with
"WARNING: " are the expected stderr (the warnings the CLI prints, in
order) and the other lines the expected stdout; without such lines the
statement must leave stderr empty.

Example:

    statement ok
    CREATE DATABASE x;

    statement error 42P01
    SELECT * FROM nope;
    ----
    ERROR 42P01: table "default.nope" does not exist (line 1, column 15)

    query
    SELECT 1 AS a, 'x' AS b;
    ----
    a,b
    1,x

Variables, substituted everywhere (SQL, expected output, shell lines; the
shell also gets them as environment variables):
    ${WAREHOUSE}  the warehouse, TMP/wh, fresh for every .test file
    ${TMP}        the file's temporary directory (removed unless --keep)
    ${DATA}       tests/data in the repository
    ${FIXTURES}   $HIVELITE_FIXTURES, else ../shared/fixtures next to the repo
    ${HIVELITE}   the hivelite binary under test (for shell records that
                  check what --format csv cannot show, e.g. the table format)

Each statement runs in its own process:
    hivelite -w WAREHOUSE --format csv -c SQL
so the warehouse directory is the whole state carried between records.
"""

import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EMPTY_LINE = "(empty)"
WARNING_PREFIX = "WARNING: "
VAR_RE = re.compile(r"\$\{(WAREHOUSE|TMP|DATA|FIXTURES)\}")


class TestFileError(Exception):
    """The .test file itself is malformed."""


class Record:
    def __init__(self, kind, line, arg=None):
        self.kind = kind  # "ok", "error", "query", "shell"
        self.line = line  # 1-based line of the header in the .test file
        self.arg = arg  # error code, or "sort" for query sort
        self.body = []  # SQL or shell lines
        self.expected = None  # list of lines, or None without "----"


def parse(path, text):
    """Returns (records, require_fixtures)."""
    lines = text.split("\n")
    records = []
    require_fixtures = False
    i = 0
    n = len(lines)

    def where(k):
        return "%s:%d" % (path, k + 1)

    while i < n:
        stripped = lines[i].strip()
        if not stripped or stripped.startswith("#"):
            i += 1
            continue
        words = stripped.split()
        header = i
        if words == ["require", "fixtures"]:
            require_fixtures = True
            i += 1
            continue
        if words[0] == "statement" and words[1:] == ["ok"]:
            rec = Record("ok", header + 1)
        elif words[0] == "statement" and len(words) in (2, 3) and words[1] == "error":
            code = words[2] if len(words) == 3 else None
            if code is not None and not re.fullmatch(r"[0-9A-Z]{5}", code):
                raise TestFileError("%s: bad SQLSTATE %r" % (where(header), code))
            rec = Record("error", header + 1, code)
        elif words[0] == "query" and len(words) <= 2:
            mode = words[1] if len(words) == 2 else None
            if mode not in (None, "sort", "rowsort"):
                raise TestFileError("%s: unknown query mode %r" % (where(header), mode))
            rec = Record("query", header + 1, "sort" if mode else None)
        elif words == ["shell"]:
            rec = Record("shell", header + 1)
        else:
            raise TestFileError("%s: unknown record %r" % (where(header), stripped))
        i += 1
        if rec.kind == "shell":
            while i < n and lines[i].strip():
                rec.body.append(lines[i])
                i += 1
            if not rec.body:
                raise TestFileError("%s: empty shell record" % where(header))
            records.append(rec)
            continue
        # SQL: up to and including a line that ends with ';'.
        while True:
            if i >= n or not lines[i].strip() or lines[i].strip() == "----":
                raise TestFileError(
                    "%s: SQL of the record does not end with a line ending in ';'" % where(header)
                )
            rec.body.append(lines[i])
            i += 1
            if lines[i - 1].rstrip().endswith(";"):
                break
        if i < n and lines[i].strip() == "----":
            i += 1
            rec.expected = []
            while i < n and lines[i].strip():
                rec.expected.append("" if lines[i] == EMPTY_LINE else lines[i])
                i += 1
        if rec.kind == "query" and rec.expected is None:
            raise TestFileError("%s: query without a ---- block" % where(header))
        records.append(rec)
    return records, require_fixtures


def substitute(text, variables):
    return VAR_RE.sub(lambda m: variables[m.group(1)], text)


def decode(data):
    return data.decode("utf-8", errors="surrogateescape")


def only_settings(sql):
    """Whether SQL is nothing but SET statements."""
    stmts = [part.strip() for part in sql.split(";") if part.strip()]
    return bool(stmts) and all(re.match(r"(?i)set\s", part) for part in stmts)


def output_lines(text):
    """Splits output into lines; a missing final newline shows as a marker."""
    if text == "":
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    else:
        lines[-1] += "\\ (no newline at end of output)"
    return lines


class Runner:
    def __init__(self, args, path):
        self.args = args
        self.path = path
        self.failures = 0

    def fail(self, rec, what, sql=None, expected=None, actual=None, result=None):
        self.failures += 1
        out = ["FAIL %s:%d: %s" % (self.path, rec.line, what)]
        if sql is not None:
            out.append("  " + ("sql:" if rec.kind != "shell" else "shell:"))
            out.extend("    " + line for line in sql.split("\n"))
        if expected is not None and actual is not None:
            out.append("  diff (expected -> actual):")
            diff = difflib.unified_diff(
                expected, actual, "expected", "actual", lineterm="", n=3
            )
            out.extend("    " + line for line in diff)
        if result is not None:
            out.append("  exit status: %s" % describe_status(result.returncode))
            for name, data in (("stdout", result.stdout), ("stderr", result.stderr)):
                text = decode(data)
                if text:
                    out.append("  %s:" % name)
                    out.extend("    " + line for line in output_lines(text))
        print("\n".join(out), flush=True)

    def run(self, argv, env=None):
        try:
            return subprocess.run(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                timeout=self.args.timeout,
                env=env,
            )
        except subprocess.TimeoutExpired as e:
            return subprocess.CompletedProcess(
                argv, "timeout after %gs" % self.args.timeout, e.stdout or b"", e.stderr or b""
            )

    def check(self, rec, variables, env):
        body = substitute("\n".join(rec.body), variables)
        expected = None
        if rec.expected is not None:
            expected = [substitute(line, variables) for line in rec.expected]

        if rec.kind == "shell":
            result = self.run(["/bin/sh", "-e", "-c", body], env)
            if result.returncode != 0:
                self.fail(rec, "shell commands failed", body, result=result)
            return

        if rec.kind == "ok" and only_settings(body):
            # each record runs in its own process: a SET alone would change
            # nothing for the records after it
            self.fail(rec, "a record of only SET statements has no effect; put them in the "
                      "record they are for", body)
            return
        result = self.run(
            [self.args.hivelite, "-w", variables["WAREHOUSE"], "--format", "csv", "-c", body], env
        )
        stdout = output_lines(decode(result.stdout))
        stderr = output_lines(decode(result.stderr))
        warnings = []
        if rec.kind != "error" and expected is not None:
            warnings = [line for line in expected if line.startswith(WARNING_PREFIX)]
            expected = [line for line in expected if not line.startswith(WARNING_PREFIX)]
        if rec.kind != "error" and result.returncode == 0 and warnings and stderr != warnings:
            self.fail(rec, "warnings differ", body, warnings, stderr)
            return
        if rec.kind != "error" and result.returncode == 0 and stderr == warnings:
            stderr = []

        if rec.kind == "ok":
            if result.returncode != 0 or stderr:
                self.fail(rec, "statement should succeed", body, result=result)
            elif expected is not None and stdout != expected:
                self.fail(rec, "statement output differs", body, expected, stdout)
        elif rec.kind == "error":
            prefix = "ERROR %s:" % rec.arg if rec.arg else "ERROR "
            if result.returncode != 1 or not stderr or not stderr[0].startswith(prefix):
                self.fail(
                    rec,
                    "statement should fail with exit status 1 and '%s...'" % prefix,
                    body,
                    result=result,
                )
            elif expected is not None and stderr != expected:
                self.fail(rec, "error message differs", body, expected, stderr)
        else:  # query
            if result.returncode != 0 or stderr:
                self.fail(rec, "query should succeed", body, result=result)
                return
            actual = stdout
            if rec.arg == "sort":
                expected = expected[:1] + sorted(expected[1:])
                actual = actual[:1] + sorted(actual[1:])
            if actual != expected:
                self.fail(rec, "query result differs", body, expected, actual)


def describe_status(code):
    if isinstance(code, str):
        return code
    if code < 0:
        return "killed by signal %d" % -code
    return str(code)


def fixtures_dir():
    env = os.environ.get("HIVELITE_FIXTURES")
    if env:
        return os.path.abspath(env)
    return os.path.join(os.path.dirname(REPO), "shared", "fixtures")


def run_file(args, path):
    """Returns 0 (passed), 1 (failed) or SKIP."""
    try:
        with open(path, "rb") as f:
            text = decode(f.read())
        records, require_fixtures = parse(path, text)
    except (OSError, TestFileError) as e:
        print("FAIL %s" % e, flush=True)
        return 1
    fixtures = fixtures_dir()
    if require_fixtures and not os.path.isdir(fixtures):
        print("SKIP %s: fixtures folder %s is absent" % (path, fixtures), flush=True)
        return SKIP

    tmp = os.path.realpath(tempfile.mkdtemp(prefix="hl_sqllogic_"))
    variables = {
        "WAREHOUSE": os.path.join(tmp, "wh"),
        "TMP": tmp,
        "DATA": os.path.join(REPO, "tests", "data"),
        "FIXTURES": fixtures,
        "HIVELITE": args.hivelite,
    }
    env = dict(os.environ)
    env.update(variables)
    env.pop("HIVELITE_WAREHOUSE", None)
    runner = Runner(args, path)
    try:
        for rec in records:
            runner.check(rec, variables, env)
    finally:
        if args.keep:
            print("kept %s" % tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    status = "ok" if runner.failures == 0 else "FAILED"
    print(
        "%s: %d records, %d failed -- %s" % (path, len(records), runner.failures, status),
        flush=True,
    )
    return 1 if runner.failures else 0


def main():
    parser = argparse.ArgumentParser(description="Run hivelite SQL logic tests.")
    parser.add_argument("--hivelite", required=True, help="path of the hivelite binary")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directories")
    parser.add_argument(
        "--timeout", type=float, default=120.0, help="seconds per statement (default 120)"
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help=".test files")
    args = parser.parse_args()
    if not (os.path.isfile(args.hivelite) and os.access(args.hivelite, os.X_OK)):
        print("sqllogic.py: %s is not an executable file" % args.hivelite, file=sys.stderr)
        return 1
    args.hivelite = os.path.abspath(args.hivelite)
    results = [run_file(args, path) for path in args.files]
    if any(r == 1 for r in results):
        return 1
    if all(r == SKIP for r in results):
        return SKIP
    return 0


if __name__ == "__main__":
    sys.exit(main())
