#!/usr/bin/env python3
"""What `collectivize` help texts say, read the way a person reads them: the
tests' reference for the man pages, the bash completion and the cited paths.

usage: cli_help.py verbs COLLECTIVIZE          the verbs `--help` lists
       cli_help.py commands COLLECTIVIZE       "VERB" and "VERB SUB" lines
       cli_help.py options COLLECTIVIZE VERB [SUB]
                                               the options that help lists
       cli_help.py cited COLLECTIVIZE          "VERB PATH" per document cited

An option is listed when its help text shows it in a usage line (after
"collectivize VERB [SUB]"), on an indented line (option lists and their
continuations), or opening an unindented line ("--sites: ..."). Options that
prose mentions in passing (another launcher's `-x`) are not the verb's.
"""
import re
import subprocess
import sys

# After a blank, a bracket, a comma, a bar or a backquote (not "-bench/").
OPTION = re.compile(r"(?<![^\s\[(|,`])(--?[A-Za-z][\w-]*)")
# A document is cited by a path with a directory in it.
DOC = re.compile(r"[\w.-]*/[\w./-]+\.(?:md|txt)\b")


def run(exe, *args):
    return subprocess.run([exe, *args], capture_output=True, text=True, check=True).stdout


def verbs(exe):
    out, inside = [], False
    for line in run(exe, "--help").splitlines():
        if line == "verbs:":
            inside = True
        elif inside and re.match(r"^  [a-z]", line):
            out.append(line.split()[0])
        elif inside and not line.strip():
            break
    return out


def usage_block(text):
    """The usage lines: from "usage:" to the first blank line."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("usage:"):
            block = []
            for l in lines[i:]:
                if not l.strip():
                    break
                block.append(l)
            return block
    return []


def subverbs(exe, verb):
    subs = []
    for line in usage_block(run(exe, verb, "--help")):
        m = re.search(r"collectivize " + re.escape(verb) + r" ([a-z]+)\b", line)
        if m and m.group(1) not in subs:
            subs.append(m.group(1))
    return subs


def options(exe, verb, sub=None):
    text = run(exe, verb, "--help")
    found = []

    def add(s):
        for o in OPTION.findall(s):
            if o not in found:
                found.append(o)

    command = "collectivize " + verb + ((" " + sub) if sub else "")
    usage = usage_block(text)
    current = None  # the command the usage line (or its continuation) is about
    for line in usage:
        m = re.search(r"collectivize " + re.escape(verb) + r"( [a-z]+)?\b", line)
        if m:
            current = m.group(0) if sub else "collectivize " + verb
            rest = line[m.end():]
        else:
            rest = line
        if current == command:
            add(rest)
    if sub:
        return found
    for line in text.splitlines()[len(usage):]:
        if line.startswith((" ", "\t")):
            add(line)
        else:
            m = re.match(r"^(--?[A-Za-z][\w-]*):", line)
            if m:
                add(m.group(1))
    return found


def main():
    what, exe = sys.argv[1], sys.argv[2]
    if what == "verbs":
        for v in verbs(exe):
            print(v)
    elif what == "commands":
        for v in verbs(exe):
            print(v)
            for s in subverbs(exe, v):
                print(v, s)
    elif what == "options":
        for o in options(exe, *sys.argv[3:5]):
            print(o)
    elif what == "cited":
        helps = [("collectivize", run(exe, "--help")), ("env", run(exe, "help", "env"))]
        helps += [(v, run(exe, v, "--help")) for v in verbs(exe)]
        for name, text in helps:
            for path in DOC.findall(text):
                print(name, path)
    else:
        sys.exit(f"cli_help.py: unknown request '{what}'")


if __name__ == "__main__":
    main()
