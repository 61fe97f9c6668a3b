#!/usr/bin/env python3
"""Compares the COLLECTIVIZE_* environment variables the sources name with
`collectivize --list-env` (cli/environment.cpp), both ways.

usage: check_env_table.py SOURCE_ROOT LISTING

Every COLLECTIVIZE_* name in the source tree (C/C++ getenv/setenv strings,
shell and CMake reads and assignments, the READMEs) must be in the listing;
every listed name must occur somewhere besides the table itself. Names that
are not environment variables are told apart by what they are: CMake cache
options (option()/set(... CACHE)), their -DNAME=... settings, and
preprocessor guards. Prints each problem with a file:line and exits 1.
"""
import os
import re
import sys

NAME = re.compile(r"COLLECTIVIZE_[A-Z0-9_]*[A-Z0-9]")
TABLE = os.path.join("cli", "environment.cpp")
SKIP_DIRS = {".git", "node_modules", "out"}
TEXT_SUFFIXES = (".c", ".cpp", ".h", ".cc", ".py", ".sh", ".md", ".txt", ".cmake", ".in",
                 ".test", ".f90", ".yml", ".yaml", ".json", ".js")


def source_files(root):
    for dirpath, dirnames, filenames in os.walk(root):
        # Build trees (anything CMake configured) are outputs, not sources.
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS and
                       not os.path.exists(os.path.join(dirpath, d, "CMakeCache.txt"))]
        for f in filenames:
            path = os.path.join(dirpath, f)
            if f.endswith(TEXT_SUFFIXES) or f == "CMakeLists.txt" or \
                    os.path.relpath(path, root) in ("scripts/run", ".ci/run"):
                yield path


def read(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read(2_000_000)
    except (UnicodeDecodeError, OSError):
        return ""


def not_environment(files):
    """CMake cache options and preprocessor guards spelled COLLECTIVIZE_*."""
    names = set()
    for path in files:
        text = read(path)
        names.update(re.findall(r"\boption\(\s*(COLLECTIVIZE_\w+)", text))
        names.update(re.findall(r"\bset\(\s*(COLLECTIVIZE_\w+)[^)]*\bCACHE\b", text))
        names.update(re.findall(r"#\s*(?:ifndef|define)\s+(COLLECTIVIZE_(?:\w+_)?H)\b", text))
    return names


def main():
    root, listing_path = sys.argv[1], sys.argv[2]
    with open(listing_path) as f:
        listed = {line.split()[0] for line in f if NAME.match(line)}
    if len(listed) < 10:
        print(f"{listing_path}: only {len(listed)} variables listed; is it --list-env output?")
        return 1
    # Code before prose, so a problem names the line that reads the variable.
    files = sorted(source_files(root), key=lambda p: (p.endswith((".md", ".txt")), p))
    excluded = not_environment(files)
    seen = {}  # name -> first file:line outside the table
    for path in files:
        rel = os.path.relpath(path, root)
        if rel == TABLE:
            continue
        for lineno, line in enumerate(read(path).splitlines(), 1):
            for m in NAME.finditer(line):
                if line[max(0, m.start() - 2):m.start()] == "-D":
                    continue  # a CMake cache setting on a command line
                seen.setdefault(m.group(0), f"{rel}:{lineno}")
    problems = []
    for name, where in sorted(seen.items()):
        if name not in excluded and name not in listed:
            problems.append(f"{where}: {name} is not in `collectivize --list-env` ({TABLE})")
    for name in sorted(listed - set(seen)):
        problems.append(f"{TABLE}: {name} is listed but nothing else in the tree names it")
    for p in problems:
        print(p)
    print(f"{len(seen)} names in the sources ({len(excluded)} not environment variables), "
          f"{len(listed)} listed, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
