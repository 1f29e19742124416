#!/usr/bin/env python3
"""The function registry lists nothing that does not work.

Lists SHOW FUNCTIONS, then for every name reads DESCRIBE FUNCTION EXTENDED
and runs each of its examples ("  > query;" lines) through the CLI,
comparing the output (tab-separated, no header) with the result lines the
registry gives ("..." matches any one line).  Fails when a listed function
has no example, when its usage does not name it, when an example fails or
differs, or when an extended description lacks its class or type line.

    python3 tests/functions/check_registry.py --hivelite build/hivelite
"""
import argparse
import os
import subprocess
import sys
import tempfile


def run(hivelite, warehouse, sqls):
    cmd = [hivelite, "-w", warehouse, "--format", "tsv", "--no-header"]
    for q in sqls:
        cmd += ["-c", q]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def tsv_field(text):
    """The value of one TSV field (the CLI escapes \\t \\n \\r and \\\\)."""
    out, i = [], 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text):
            out.append({"t": "\t", "n": "\n", "r": "\r"}.get(text[i + 1], text[i + 1]))
            i += 2
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def parse_extended(lines):
    """(usage, examples [(query, [expected lines])], class line seen, type line seen)."""
    examples, usage, in_ex = [], [], False
    has_class = has_type = False
    for line in lines:
        if line.startswith("Function class:"):
            has_class = True
            in_ex = False
        elif line.startswith("Function type:"):
            has_type = line == "Function type:BUILTIN"
            in_ex = False
        elif line == "Example:":
            in_ex = True
        elif in_ex and line.startswith("  > "):
            examples.append((line[4:], []))
        elif in_ex and line.startswith("  ") and examples:
            examples[-1][1].append(line[2:])
        elif not in_ex:
            usage.append(line)
    return usage, examples, has_class, has_type


def matches(expected, got):
    if len(expected) != len(got):
        return False
    return all(e == "..." or e == g for e, g in zip(expected, got))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hivelite", required=True)
    args = ap.parse_args()
    failures = []
    with tempfile.TemporaryDirectory(prefix="hl-funcs-") as tmp:
        wh = os.path.join(tmp, "wh")
        rc, out, err = run(args.hivelite, wh, ["SHOW FUNCTIONS"])
        if rc != 0:
            print("SHOW FUNCTIONS failed: " + err)
            return 1
        names = out.splitlines()
        if len(names) < 100 or names != sorted(names):
            print("SHOW FUNCTIONS: %d names, sorted: %s" % (len(names), names == sorted(names)))
            return 1
        checked = 0
        for name in names:
            quoted = "'" + name.replace("\\", "\\\\").replace("'", "\\'") + "'"
            rc, out, err = run(args.hivelite, wh, ["DESCRIBE FUNCTION EXTENDED " + quoted])
            if rc != 0:
                failures.append("%s: DESCRIBE FUNCTION failed: %s" % (name, err.strip()))
                continue
            lines = [tsv_field(l) for l in out.splitlines()]
            usage, examples, has_class, has_type = parse_extended(lines)
            if not usage or name.lower() not in usage[0].lower():
                failures.append("%s: the usage line does not name it: %r" % (name, usage[:1]))
            if not has_type:
                failures.append("%s: no 'Function type:BUILTIN' line" % name)
            if not examples:
                failures.append("%s: no example" % name)
                continue
            rc, out, err = run(args.hivelite, wh, [q for q, _ in examples])
            expected = [l for _, res in examples for l in res]
            if rc == 0 and matches(expected, out.splitlines()):
                checked += 1
                continue
            # find the example that fails, for the message
            for q, res in examples:
                rc, out, err = run(args.hivelite, wh, [q])
                if rc != 0 or not matches(res, out.splitlines()):
                    failures.append("%s: %s\n    expected %r\n    got      %r %s" %
                                    (name, q, res, out.splitlines(), err.strip()))
                    break
            else:
                failures.append("%s: the examples differ when run together" % name)
        # the functions every query engine user reaches for are listed
        for must in ("abs", "concat", "count", "get_json_object", "printf", "row_number",
                     "explode", "+", "and"):
            if must not in names:
                failures.append("SHOW FUNCTIONS does not list %s" % must)
    for f in failures:
        print("FAIL " + f)
    print("%d passed, %d failed" % (checked, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
