#!/usr/bin/env python3
"""check_includes.py -- the include graph follows the stage order of CMakeLists.txt.

Each folder src/<stage>/ is one library, declared in CMakeLists.txt as
hl_module(<stage> SOURCES ... DEPS hl_<a> hl_<b> ...).  This test reads those
declarations and every `#include "..."` under src/ and tests/unit/, and fails,
naming the file and line, when:

  - a file of stage S includes a header of stage T, T != S, and T is not in
    S's DEPS (a direct declaration: a stage says what it uses);
  - a file in src/cli/ includes anything but include/hivelite.h, its own
    folder's headers and the server's entry point server/pg_server.h (the
    CLI is a client of the public API only);
  - a file of a public-API client stage (PUBLIC_CLIENTS: src/server/, the
    PostgreSQL server) includes anything but include/hivelite.h and its own
    folder's headers, whatever its DEPS say (it links hl_api, and must see
    only the public header);
  - a unit test in tests/unit/<stage>/ includes a stage that <stage> does not
    reach through its DEPS (it links hl_<stage> alone);
  - an include resolves to no file, or a folder of src/ is no declared stage;
  - the declared DEPS form a cycle (then there is no order at all).

Usage: check_includes.py [--root DIR]   (default: the checkout holding this file)
       check_includes.py --self-test    (checks the checker on small made-up trees)
Exit 0 when clean, 1 with one line per violation on stderr.
"""
import os
import re
import sys
import tempfile

INCLUDE_RE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
# Headers generated into the build tree, by the stage that generates them.
GENERATED = {"orc.pb-c.h": "format"}
KEYWORDS = {"SOURCES", "DEPS", "EXTERNAL"}
# Stages that are clients of include/hivelite.h only, like the CLI.
PUBLIC_CLIENTS = {"server"}
# What the CLI may include besides hivelite.h: the entry points of those clients.
CLI_ALLOWED = {"server/pg_server.h"}


def parse_modules(cmake_text):
    """{stage: [declared deps]} from the hl_module(...) calls."""
    text = re.sub(r"#[^\n]*", "", cmake_text)
    modules = {}
    for m in re.finditer(r"\bhl_module\s*\(([^)]*)\)", text):
        words = m.group(1).split()
        if not words or words[0] == "name":  # the function's own definition
            continue
        deps, section = [], None
        for w in words[1:]:
            if w in KEYWORDS:
                section = w
            elif section == "DEPS":
                deps.append(w[3:] if w.startswith("hl_") else w)
        modules[words[0]] = deps
    return modules


def find_cycle(modules):
    state, stack = {}, []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for d in modules.get(n, []):
            if state.get(d) == 1:
                return stack[stack.index(d):] + [d]
            if d not in state:
                c = visit(d)
                if c:
                    return c
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(modules):
        if n not in state:
            c = visit(n)
            if c:
                return c
    return None


def closure(modules, stage):
    seen, todo = set(), [stage]
    while todo:
        n = todo.pop()
        if n in seen:
            continue
        seen.add(n)
        todo.extend(modules.get(n, []))
    return seen


def sources(folder):
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames.sort()
        for f in sorted(filenames):
            if f.endswith((".c", ".h")):
                yield os.path.join(dirpath, f)


def includes(path):
    with open(path, encoding="utf-8", errors="replace") as fh:
        for lineno, line in enumerate(fh, 1):
            m = INCLUDE_RE.match(line)
            if m:
                yield lineno, m.group(1)


def resolve(root, modules, path, inc, extra_dirs=()):
    """(stage or None for a local/public header, error or None)."""
    first = inc.split("/", 1)[0]
    if "/" in inc and first in modules:
        if os.path.isfile(os.path.join(root, "src", inc)):
            return first, None
        return None, 'includes "%s", which does not exist under src/' % inc
    for d in (os.path.dirname(path),) + tuple(extra_dirs):
        if os.path.isfile(os.path.join(d, inc)):
            return "", None  # a header beside the file: its own stage
    if os.path.isfile(os.path.join(root, "include", inc)):
        return "public", None
    if inc in GENERATED:
        return GENERATED[inc], None
    return None, 'includes "%s", which resolves to no file' % inc


def check(root):
    errors = []
    cmake = os.path.join(root, "CMakeLists.txt")
    with open(cmake, encoding="utf-8") as fh:
        modules = parse_modules(fh.read())
    cycle = find_cycle(modules)
    if cycle:
        errors.append("CMakeLists.txt: the declared DEPS form a cycle: " + " -> ".join(cycle))
    src = os.path.join(root, "src")
    for stage in sorted(os.listdir(src)):
        folder = os.path.join(src, stage)
        if not os.path.isdir(folder):
            continue
        if stage != "cli" and stage not in modules:
            errors.append("src/%s/: a folder that CMakeLists.txt declares no hl_module for" % stage)
            continue
        for path in sources(folder):
            rel = os.path.relpath(path, root)
            for lineno, inc in includes(path):
                target, err = resolve(root, modules, path, inc)
                where = "%s:%d" % (rel, lineno)
                if err:
                    errors.append("%s: %s" % (where, err))
                elif stage == "cli":
                    if inc in CLI_ALLOWED:
                        continue
                    if target not in ("", "public") or (target == "public" and inc != "hivelite.h"):
                        errors.append('%s: the CLI includes "%s"; it may include only '
                                      "include/hivelite.h, its own headers and %s"
                                      % (where, inc, ", ".join(sorted(CLI_ALLOWED))))
                elif stage in PUBLIC_CLIENTS:
                    if target not in ("", "public") or (target == "public" and inc != "hivelite.h"):
                        errors.append('%s: stage %s is a client of the public API; it includes '
                                      '"%s" but may include only include/hivelite.h and its own '
                                      "headers" % (where, stage, inc))
                elif target not in ("", "public", stage) and target not in modules[stage]:
                    deps = " ".join("hl_" + d for d in modules[stage]) or "none"
                    errors.append('%s: stage %s includes "%s" of stage %s, which is not among '
                                  "its declared DEPS (%s) in CMakeLists.txt"
                                  % (where, stage, inc, target, deps))
    unit = os.path.join(root, "tests", "unit")
    if os.path.isdir(unit):
        for stage in sorted(os.listdir(unit)):
            folder = os.path.join(unit, stage)
            if not os.path.isdir(folder):
                continue
            if stage not in modules:
                errors.append("tests/unit/%s/: no stage of that name links its tests" % stage)
                continue
            reach = closure(modules, stage)
            for path in sources(folder):
                rel = os.path.relpath(path, root)
                for lineno, inc in includes(path):
                    target, err = resolve(root, modules, path, inc, (unit,))
                    where = "%s:%d" % (rel, lineno)
                    if err:
                        errors.append("%s: %s" % (where, err))
                    elif target not in ("", "public") and target not in reach:
                        errors.append('%s: a test of stage %s includes "%s" of stage %s, which '
                                      "hl_%s does not depend on" % (where, stage, inc, target, stage))
    return errors


def write(root, rel, text):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)


def self_test():
    """The checker itself must fail on wrong trees, with exact messages."""
    failures = []
    with tempfile.TemporaryDirectory() as root:
        write(root, "CMakeLists.txt",
              "function(hl_module name)\nendfunction()\n"
              "# hl_module(ignored SOURCES x DEPS hl_b)\n"
              "hl_module(low SOURCES ${X} EXTERNAL m)\n"
              "hl_module(high SOURCES ${Y}\n          DEPS hl_low)\n"
              "hl_module(server SOURCES ${Z} DEPS hl_low)\n")
        write(root, "include/hivelite.h", "")
        write(root, "src/low/low.h", "")
        write(root, "src/low/low.c", '#include "low/low.h"\n#include "high/high.h"\n')
        write(root, "src/high/high.h", '#include "low/low.h"\n')
        write(root, "src/high/high.c", '#include "high.h"\n#include "hivelite.h"\n#include "low/nope.h"\n')
        write(root, "src/cli/main.c", '#include "hivelite.h"\n#include "low/low.h"\n'
              '#include "server/pg_server.h"\n')
        write(root, "src/server/pg_server.h", '#include "hivelite.h"\n')
        write(root, "src/server/pg.c", '#include "pg_server.h"\n#include "low/low.h"\n')
        write(root, "src/stray/x.c", "")
        write(root, "tests/unit/low/test_low.c", '#include "test.h"\n  # include "high/high.h"\n')
        write(root, "tests/unit/test.h", "")
        want = [
            'src/cli/main.c:2: the CLI includes "low/low.h"; it may include only '
            "include/hivelite.h, its own headers and server/pg_server.h",
            'src/high/high.c:3: includes "low/nope.h", which does not exist under src/',
            'src/low/low.c:2: stage low includes "high/high.h" of stage high, which is not '
            "among its declared DEPS (none) in CMakeLists.txt",
            'src/server/pg.c:2: stage server is a client of the public API; it includes '
            '"low/low.h" but may include only include/hivelite.h and its own headers',
            "src/stray/: a folder that CMakeLists.txt declares no hl_module for",
            'tests/unit/low/test_low.c:2: a test of stage low includes "high/high.h" of '
            "stage high, which hl_low does not depend on",
        ]
        got = check(root)
        if got != want:
            failures.append("wrong-include tree:\n  got  %r\n  want %r" % (got, want))
        write(root, "CMakeLists.txt",
              "hl_module(low SOURCES x DEPS hl_high)\nhl_module(high SOURCES y DEPS hl_low)\n")
        for rel in ("src/low/low.c", "src/high/high.c", "src/cli/main.c", "src/server/pg.c",
                    "src/server/pg_server.h",
                    "tests/unit/low/test_low.c", "src/stray/x.c"):
            os.remove(os.path.join(root, rel))
        os.rmdir(os.path.join(root, "src", "server"))
        got = check(root)
        want = ["CMakeLists.txt: the declared DEPS form a cycle: high -> low -> high",
                "src/stray/: a folder that CMakeLists.txt declares no hl_module for"]
        if got != want:
            failures.append("cyclic tree:\n  got  %r\n  want %r" % (got, want))
    for f in failures:
        print("self-test failed: " + f, file=sys.stderr)
    return not failures


def main(argv):
    if argv[1:] == ["--self-test"]:
        ok = self_test()
        print("self-test: %s" % ("ok" if ok else "FAILED"))
        return 0 if ok else 1
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if len(argv) == 3 and argv[1] == "--root":
        root = argv[2]
    elif len(argv) != 1:
        print(__doc__.split("Usage:")[1].split("Exit")[0].strip(), file=sys.stderr)
        return 2
    errors = check(root)
    for e in errors:
        print(e, file=sys.stderr)
    print("includes: %d violation(s)" % len(errors))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
