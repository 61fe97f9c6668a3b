#!/bin/sh
# make-man-pages.sh COLLECTIVIZE OUTDIR DOC_PREFIX: collectivize.1 and one
# collectivize-VERB.1 per verb `COLLECTIVIZE --help` lists, made by help2man
# from the help texts themselves (so a page says what --help says), in
# OUTDIR (what help2man runs goes to OUTDIR.work). The pages cite the format
# documents under DOC_PREFIX, the install prefix.
set -eu
cz=$1 out=$2 prefix=$3
here=$(cd "$(dirname "$0")" && pwd)
work=$out.work
rm -rf "$out" "$work"
mkdir -p "$out" "$work"
export COLLECTIVIZE_DOC_PREFIX="$prefix"
version=$("$cz" --version | sed -n 's/^collectivize //p')
[ -n "$version" ] || { echo "$0: '$cz --version' printed no version" >&2; exit 1; }

# help2man runs a program with --help; each page gets a small one that prints
# the help in the layout help2man reads (help2man-layout.awk).
page() { # NAME SUMMARY INCLUDE COMMAND...
  name=$1 summary=$2 include=$3
  shift 3
  {
    echo '#!/bin/sh'
    printf '%s --help | awk -f "%s"\n' "$*" "$here/help2man-layout.awk"
  } > "$work/$name"
  chmod +x "$work/$name"
  help2man --no-info --no-discard-stderr --version-string="$version" \
    --name="$summary" --include="$include" --output="$out/$name.1" "$work/$name"
}

# The verbs and their one-line summaries, as `collectivize --help` lists them.
"$cz" --help | awk '/^verbs:$/ { on = 1; next } on && /^  [a-z]/ { print; next } on { exit }' \
  > "$work/verbs.txt"
[ -s "$work/verbs.txt" ] || { echo "$0: '$cz --help' lists no verbs" >&2; exit 1; }

see_also=""
while read -r verb summary; do
  see_also="$see_also${see_also:+,
}.BR collectivize-$verb (1)"
done < "$work/verbs.txt"

# The main page: the verbs, the environment (--list-env) and every verb's page.
{
  echo '[ENVIRONMENT]'
  # One tagged paragraph per variable: the name, who reads it, the default.
  "$cz" --list-env | awk -F '  +' '
    { gsub(/\\/, "\\e"); gsub(/-/, "\\-") }
    NR == 1 { next }
    /^COLLECTIVIZE_/ { printf ".TP\n.B %s\nRead by %s; default: %s.\n", $1, $2, $3; next }
    { sub(/^ +/, ""); if (/^[.\047]/) $0 = "\\&" $0; print }'
  echo '[SEE ALSO]'
  echo "$see_also"
} > "$work/collectivize.h2m"
page collectivize "find hand-made MPI collectives and replace them with real ones" \
  "$work/collectivize.h2m" "$cz"

printf '[SEE ALSO]\n.BR collectivize (1)\n' > "$work/verb.h2m"
while read -r verb summary; do
  page "collectivize-$verb" "$summary" "$work/verb.h2m" "$cz" "$verb"
done < "$work/verbs.txt"
