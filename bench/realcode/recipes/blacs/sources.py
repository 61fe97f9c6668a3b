"""sources.py CMAKELISTS VAR...: the .c files the BLACS' CMake list puts in
the named source lists (set(VAR ...) and list(APPEND VAR ...), every
precision), one per line, sorted."""
import re
import sys

text = open(sys.argv[1]).read()
names = set()
for var in sys.argv[2:]:
    for m in re.finditer(r"(?:set\s*\(\s*|list\s*\(\s*APPEND\s+)" + var + r"\s+([^)]*)\)", text):
        names.update(n for n in m.group(1).split() if n.endswith(".c"))
if not names:
    sys.exit("sources.py: no .c files in %s for %s" % (sys.argv[1], " ".join(sys.argv[2:])))
print("\n".join(sorted(names)))
